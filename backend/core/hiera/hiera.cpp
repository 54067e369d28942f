// SPDX-License-Identifier: Apache-2.0
#include "core/hiera/hiera.h"

#include "core/template/template_string.h"

#include <algorithm>
#include <set>

namespace ccm {
namespace {

/// During Hiera resolution only the facts and lookup() exist, and a missing key is "".
class HieraScope : public ExpressionScope
{
public:
    explicit HieraScope(const LazyFacts &facts)
        : m_facts(facts)
    {
    }

    [[nodiscard]] const Json *variable(std::string_view name) const override
    {
        return name == "Facts" || name == "facts" ? &m_facts.get() : nullptr;
    }
    [[nodiscard]] bool missingLookupIsEmpty() const override { return true; }

private:
    const LazyFacts &m_facts;
};

/// "/data/a/0" -> "data value 'a.0'"; "/overrides/os:debian/x" -> "override 'os:debian' value 'x'".
std::string describePointer(const std::string &pointer)
{
    const std::vector<std::string> tokens = splitPointer(pointer);
    const auto join = [&](std::size_t from) {
        std::string path;
        for (std::size_t i = from; i < tokens.size(); ++i)
            path += (path.empty() ? "" : ".") + tokens[i];
        return path;
    };
    if (tokens.size() >= 2 && tokens[0] == "data")
        return "data value '" + join(1) + "'";
    if (tokens.size() >= 3 && tokens[0] == "overrides")
        return "override '" + tokens[1] + "' value '" + join(2) + "'";
    if (tokens.size() == 2 && tokens[0] == "overrides")
        return "override '" + tokens[1] + "'";
    return pointer;
}

/// What `value` sees in a `@validate` expression: upstream validates a value's text.
class ValidationScope : public ExpressionScope {
public:
    explicit ValidationScope(std::string text)
        : m_value(std::move(text))
    {
    }

    [[nodiscard]] const Json *variable(std::string_view name) const override
    {
        return name == "value" || name == "Value" ? &m_value : nullptr;
    }

private:
    Json m_value;
};

} // namespace

std::optional<std::string> validationProblem(const DataValidation &validation, const Json &value)
{
    // As upstream: null, maps and lists are not validated; their members are, by their own keys.
    if (value.is_null() || value.is_object() || value.is_array())
        return std::nullopt;
    const ValidationScope scope(formatValue(value));
    auto result = evaluateExpression(validation.expression, scope);
    if (!result)
        return "fails @validate " + validation.expression + ": " + result.error().describe();
    if (!result->is_boolean())
        return "fails @validate " + validation.expression + ": it gives " + describeJsonType(*result)
            + ", not true or false";
    if (!result->get<bool>())
        return "fails @validate " + validation.expression;
    return std::nullopt;
}

namespace {

// Built member by member: GCC 12 at -O3 takes the nested braced form for an uninitialised string
// (-Wmaybe-uninitialized).
DataOrigin baseOrigin(std::string source)
{
    DataOrigin origin;
    origin.source = std::move(source);
    return origin;
}

DataOrigin externalOrigin()
{
    DataOrigin origin;
    origin.layer.kind = DataLayer::Kind::External;
    return origin;
}

DataOrigin overrideOrigin(int entry, const std::string &name, const std::string &source)
{
    DataOrigin origin;
    origin.layer.kind = DataLayer::Kind::Override;
    origin.layer.entry = entry;
    origin.layer.name = name;
    origin.source = source;
    return origin;
}

class Resolver
{
public:
    Resolver(const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts, DataResolution &out,
        DataProvenance *provenance)
        : m_manifest(manifest)
        , m_text(text)
        , m_scope(facts)
        , m_out(out)
        , m_provenance(provenance)
    {
    }

    void run(const Json &external)
    {
        Json data = resolveMap(m_manifest.manifest.data.value_or(Json::object()), "/data");
        if (!m_out.ok())
            return;
        if (m_provenance) {
            for (const auto &[key, value] : data.items())
                record(appendPointer("/data", key), value, baseOrigin(appendPointer("/data", key)));
        }
        if (!applyHierarchy(data))
            return;
        // Data given from outside wins: maps merge recursively, anything else is replaced.
        if (external.is_object())
            merge(data, external, "/data", externalOrigin(), false);
        m_out.data = std::move(data);
        checkAnnotations();
    }

private:
    Json resolveMap(const Json &values, const std::string &pointer)
    {
        auto resolved = resolveTemplates(values, m_scope, TemplateValue::Typed);
        if (!resolved) {
            const TemplateFailure &failure = resolved.error();
            const std::string where = pointer + failure.pointer;
            report(where, "cannot resolve " + describePointer(where) + ": " + failure.error.message,
                   failure.error.column);
            return Json::object();
        }
        return std::move(resolved).value();
    }

    /// Merges the overrides of the matching hierarchy entries into `data`; false when one of
    /// them could not be resolved.
    bool applyHierarchy(Json &data)
    {
        const Hierarchy hierarchy = m_manifest.manifest.hierarchy.value_or(Hierarchy {});
        const std::vector<std::string> order = hierarchy.order.value_or(std::vector<std::string> {"default"});
        const bool deep = hierarchy.merge.value_or("first") == "deep";
        const Json overrides = m_manifest.manifest.overrides.value_or(Json::object());
        if (m_provenance)
            m_provenance->merge = deep ? "deep" : "first";

        bool taken = false; // a first merge has taken its override; later entries are only reported
        for (std::size_t i = 0; i < order.size() && (!taken || m_provenance); ++i) {
            HierarchyEntryState entry = resolveEntry(order[i], "/hierarchy/order/" + std::to_string(i), !taken);
            const auto found = entry.error.empty() ? overrides.find(entry.resolved) : overrides.end();
            entry.overrideExists = found != overrides.end() && found->is_object();
            if (entry.matched && found != overrides.end() && !taken) {
                const std::string source = appendPointer("/overrides", entry.resolved);
                Json values = resolveMap(*found, source);
                if (!m_out.ok())
                    return false;
                m_out.appliedOverrides.push_back(entry.resolved);
                entry.applied = true;
                const DataOrigin origin = overrideOrigin(static_cast<int>(i), entry.resolved, source);
                if (deep) {
                    merge(data, values, "/data", origin, true);
                } else {
                    takeFirst(data, values, origin);
                    taken = true;
                }
            }
            if (m_provenance)
                m_provenance->entries.push_back(std::move(entry));
        }
        return true;
    }

    /// A `first` merge: the override's top-level values replace those of the data.
    void takeFirst(Json &data, Json &values, const DataOrigin &origin)
    {
        MemberSetter members(data);
        for (auto &[key, value] : values.get_ref<Json::object_t &>()) {
            if (m_provenance)
                record(appendPointer("/data", key), value, childOrigin(origin, key), true);
            members[key] = std::move(value);
        }
    }

    /// Merges `overlay` into `base` (at `pointer`): maps recursively, lists concatenated when
    /// `concatenateLists` (a deep merge of overrides) and anything else replaced.
    void merge(
        Json &base, const Json &overlay, const std::string &pointer, const DataOrigin &origin, bool concatenateLists)
    {
        if (base.is_object() && overlay.is_object()) {
            MemberSetter members(base);
            for (const auto &[key, value] : overlay.get_ref<const Json::object_t &>()) {
                const std::string child = m_provenance ? appendPointer(pointer, key) : std::string();
                if (Json *existing = members.find(key)) {
                    merge(*existing, value, child, m_provenance ? childOrigin(origin, key) : origin, concatenateLists);
                    continue;
                }
                if (m_provenance)
                    record(child, value, childOrigin(origin, key));
                members[key] = value;
            }
            return;
        }
        if (m_provenance)
            record(pointer, overlay, origin, true);
        if (concatenateLists && base.is_array() && overlay.is_array())
            base.insert(base.end(), overlay.begin(), overlay.end());
        else
            base = overlay;
    }

    static DataOrigin childOrigin(const DataOrigin &origin, std::string_view key)
    {
        return DataOrigin {origin.layer, origin.source.empty() ? std::string() : appendPointer(origin.source, key)};
    }

    /// Records `origin` for `value` at `pointer` and for the maps and values inside it, after
    /// forgetting (with `replacing`) what was recorded at and under `pointer` before.
    void record(const std::string &pointer, const Json &value, const DataOrigin &origin, bool replacing = false)
    {
        std::map<std::string, DataOrigin> &origins = m_provenance->origins;
        if (replacing) {
            origins.erase(pointer);
            // Everything under "/a" sorts from "/a/" up to "/a0", '0' following '/'.
            origins.erase(origins.lower_bound(pointer + '/'), origins.lower_bound(pointer + '0'));
        }
        origins[pointer] = origin;
        if (!value.is_object())
            return;
        for (const auto &[key, item] : value.items())
            record(appendPointer(pointer, key), item, childOrigin(origin, key));
    }

    /// A hierarchy entry resolved: its name, and whether it matches: text without expressions
    /// matches when it is not empty; with expressions, when at least one of them gave a non-empty
    /// value. An error is reported when `report` is set.
    HierarchyEntryState resolveEntry(const std::string &source, const std::string &pointer, bool report)
    {
        HierarchyEntryState entry;
        entry.source = source;
        bool hasExpression = false;
        bool anyValue = false;
        for (const TemplateSegment &segment : scanTemplate(source)) {
            if (segment.kind == TemplateSegment::Kind::Text) {
                entry.resolved += segment.text;
                continue;
            }
            hasExpression = true;
            auto value = evaluateExpression(segment.text, m_scope);
            if (!value) {
                entry.error = "cannot resolve hierarchy entry '" + source + "': " + value.error().message;
                if (report)
                    this->report(
                        pointer, entry.error, static_cast<int>(segment.offset) + std::max(value.error().column, 1));
                return entry;
            }
            const std::string printed = formatValue(value.value());
            anyValue = anyValue || !printed.empty();
            entry.resolved += printed;
        }
        entry.matched = hasExpression ? anyValue : !entry.resolved.empty();
        return entry;
    }

    /// The resolved value at a pointer under /data, or nullptr.
    [[nodiscard]] const Json *resolvedAt(const std::string &pointer) const
    {
        try {
            const Json::json_pointer location(pointer.substr(5)); // "/data/a/b" -> "/a/b"
            return m_out.data.contains(location) ? &m_out.data.at(location) : nullptr;
        } catch (const Json::exception &) {
            return nullptr;
        }
    }

    /// The annotations of `data:` against the final data: every `@require` must be set, every
    /// `@validate` must hold; unknown directives are warnings. All failures are reported together.
    void checkAnnotations()
    {
        DataAnnotations annotations = dataAnnotations(m_manifest, m_text);
        for (Diagnostic &warning : annotations.warnings)
            m_out.diagnostics.push_back(std::move(warning));
        for (const std::string &pointer : annotations.required) {
            const Json *value = resolvedAt(pointer);
            // json::empty() is false for every string, so strings are checked on their own.
            const bool empty = !value || value->is_null()
                               || (value->is_string() && value->get_ref<const std::string &>().empty())
                               || ((value->is_array() || value->is_object()) && value->empty());
            if (empty) {
                m_out.diagnostics.push_back({Severity::Error,
                                             describePointer(pointer) + " is required (@require) but "
                                                 + (value ? "is empty" : "has no value"),
                                             pointer, m_manifest.sourceMap.keyAt(pointer)});
            }
        }
        for (const DataValidation &validation : annotations.validations) {
            const Json *value = resolvedAt(validation.pointer);
            if (!value)
                continue;
            if (auto problem = validationProblem(validation, *value))
                m_out.diagnostics.push_back({Severity::Error, describePointer(validation.pointer) + " " + *problem,
                    validation.pointer, m_manifest.sourceMap.keyAt(validation.pointer)});
        }
    }

    void report(const std::string &pointer, std::string message, int column)
    {
        const SourcePosition start = m_manifest.sourceMap.valueAt(pointer);
        m_out.diagnostics.push_back({Severity::Error, std::move(message), pointer, positionInScalar(m_text, start, column)});
    }

    const LoadedManifest &m_manifest;
    std::string_view m_text;
    HieraScope m_scope;
    DataResolution &m_out;
    DataProvenance *m_provenance;
};

/// A `# @word` directive of a comment, and the line of the key it annotates.
struct Directive {
    enum class Kind { Require, Validate, Unknown };
    Kind kind = Kind::Unknown;
    int keyLine = 0;
    SourcePosition at; ///< of the '@'
    std::string text; ///< Validate: the expression; Unknown: the directive as written
    int textColumn = 0; ///< Validate: the column of the expression on its line
};

/// The directive of one comment (the text after '#'), found at `line` and byte `column` of '#';
/// nullopt when the comment holds none. `@require` also counts inside a comment's prose, as it
/// always has; other directives start the comment.
std::optional<Directive> parseDirective(std::string_view comment, int line, int column)
{
    const std::size_t first = comment.find_first_not_of(" \t");
    if (first == std::string_view::npos || comment[first] != '@') {
        if (comment.find("@require") == std::string_view::npos)
            return std::nullopt;
        return Directive {Directive::Kind::Require, 0, {line, column}, {}, 0};
    }
    const std::string_view rest = comment.substr(first);
    const std::size_t wordEnd = std::min(rest.find_first_of(" \t\r"), rest.size());
    const std::string_view word = rest.substr(0, wordEnd);
    Directive directive {Directive::Kind::Unknown, 0, {line, column + 1 + static_cast<int>(first)}, {}, 0};
    if (word == "@require" || word == "@required") {
        directive.kind = Directive::Kind::Require;
        return directive;
    }
    const std::size_t expression = rest.find_first_not_of(" \t\r", wordEnd);
    if (word == "@validate" && expression != std::string_view::npos) {
        directive.kind = Directive::Kind::Validate;
        std::string_view text = rest.substr(expression);
        text = text.substr(0, text.find_last_not_of(" \t\r") + 1);
        directive.text = std::string(text);
        directive.textColumn = directive.at.column + static_cast<int>(expression);
        return directive;
    }
    directive.text = std::string(word == "@validate" ? rest.substr(0, rest.find_last_not_of(" \t\r") + 1) : word);
    return directive;
}

/// Every directive of the text with the line of the key it annotates: comments on the lines right
/// above the key (blank lines between them allowed), or after the value on the key's own line.
std::vector<Directive> scanDirectives(std::string_view text)
{
    std::vector<Directive> found;
    std::size_t pending = 0; // found[pending...] wait for their key
    int lineNumber = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(start, end - start);
        ++lineNumber;

        const std::size_t firstNonSpace = line.find_first_not_of(" \t\r");
        const bool blank = firstNonSpace == std::string_view::npos;
        const bool commentOnly = !blank && line[firstNonSpace] == '#';
        // A trailing comment needs whitespace before '#'; this is a heuristic that a quoted " #@"
        // could fool, which no real manifest does.
        const std::size_t comment = commentOnly ? firstNonSpace : line.find(" #");
        if (comment != std::string_view::npos) {
            const std::size_t hash = commentOnly ? comment : comment + 1;
            if (auto directive = parseDirective(line.substr(hash + 1), lineNumber, static_cast<int>(hash) + 1))
                found.push_back(std::move(*directive));
        }
        if (!blank && !commentOnly) {
            for (; pending < found.size(); ++pending)
                found[pending].keyLine = lineNumber;
        }
        if (end == text.size())
            break;
        start = end + 1;
    }
    found.resize(pending);
    return found;
}

/// Pointers (under /data) of the keys on each line of the text.
void collectKeyLines(
    const Json &value, const std::string &pointer, const SourceMap &sourceMap, std::multimap<int, std::string> &out)
{
    if (!value.is_object())
        return;
    for (const auto &[key, item] : value.items()) {
        const std::string itemPointer = appendPointer(pointer, key);
        out.emplace(sourceMap.keyAt(itemPointer).line, itemPointer);
        collectKeyLines(item, itemPointer, sourceMap, out);
    }
}

} // namespace

DataAnnotations dataAnnotations(const LoadedManifest &manifest, std::string_view text)
{
    DataAnnotations annotations;
    if (!manifest.manifest.data || text.find('@') == std::string_view::npos)
        return annotations;
    std::multimap<int, std::string> keyLines;
    collectKeyLines(*manifest.manifest.data, "/data", manifest.sourceMap, keyLines);
    for (const Directive &directive : scanDirectives(text)) {
        const auto [first, last] = keyLines.equal_range(directive.keyLine);
        if (first == last)
            continue; // not a comment of data
        if (directive.kind == Directive::Kind::Unknown) {
            const std::string message = directive.text == "@validate"
                ? "@validate needs an expression, such as '@validate isInt(value)'"
                : "unknown annotation '" + directive.text + "'; the annotations are @require, @required and @validate";
            annotations.warnings.push_back({Severity::Warning, message, first->second, directive.at});
            continue;
        }
        // The first key of the line is the outermost: the annotation is its, not that of the
        // members of a flow map written after it.
        const std::string &pointer = first->second;
        if (directive.kind == Directive::Kind::Require) {
            annotations.required.push_back(pointer);
            continue;
        }
        // As upstream, the last @validate of a key is the one that counts.
        std::erase_if(annotations.validations, [&](const DataValidation &v) { return v.pointer == pointer; });
        annotations.validations.push_back({pointer, directive.text, {directive.at.line, directive.textColumn}});
    }
    return annotations;
}

std::vector<std::string> requiredDataPointers(const LoadedManifest &manifest, std::string_view text)
{
    return dataAnnotations(manifest, text).required;
}

namespace {

/// Whether some override sets the value at `pointer` (under /data), so that the base value may not
/// be the one that is validated.
bool overridden(const LoadedManifest &manifest, const std::string &pointer)
{
    if (!manifest.manifest.overrides || !manifest.manifest.overrides->is_object())
        return false;
    const std::vector<std::string> tokens = splitPointer(pointer);
    for (const auto &[name, values] : manifest.manifest.overrides->items()) {
        const Json *current = &values;
        for (std::size_t i = 1; current && i < tokens.size(); ++i) {
            const auto found = current->is_object() ? current->find(tokens[i]) : current->end();
            current = current->is_object() && found != current->end() ? &*found : nullptr;
        }
        if (current)
            return true;
    }
    return false;
}

/// A data value as written when it is a literal: no template, so it resolves to itself.
const Json *literalValue(const LoadedManifest &manifest, const std::string &pointer)
{
    try {
        const Json::json_pointer location(pointer.substr(5));
        const Json &data = *manifest.manifest.data;
        if (!data.contains(location))
            return nullptr;
        const Json &value = data.at(location);
        if (value.is_string() && hasTemplateExpressions(value.get_ref<const std::string &>()))
            return nullptr;
        return &value;
    } catch (const Json::exception &) {
        return nullptr;
    }
}

} // namespace

Diagnostics checkDataAnnotations(const LoadedManifest &manifest, std::string_view text)
{
    DataAnnotations annotations = dataAnnotations(manifest, text);
    Diagnostics found = std::move(annotations.warnings);
    for (const DataValidation &validation : annotations.validations) {
        if (auto parsed = Expression::parse(validation.expression); !parsed) {
            const SourcePosition at {
                validation.position.line, validation.position.column + std::max(parsed.error().column, 1) - 1};
            found.push_back({Severity::Error,
                "@validate " + validation.expression + " of " + describePointer(validation.pointer)
                    + " is not a valid expression: " + parsed.error().message,
                validation.pointer, at});
            continue;
        }
        const Json *value = literalValue(manifest, validation.pointer);
        if (!value || overridden(manifest, validation.pointer))
            continue;
        if (auto problem = validationProblem(validation, *value))
            found.push_back({Severity::Error, describePointer(validation.pointer) + " " + *problem, validation.pointer,
                manifest.sourceMap.keyAt(validation.pointer)});
    }
    return found;
}

DataResolution resolveData(const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts,
    const Json &external, DataProvenance *provenance)
{
    DataResolution out;
    Resolver(manifest, text, facts, out, provenance).run(external);
    return out;
}

DataResolution resolveHieraDocument(std::string_view text, const LazyFacts &facts, const Json &external)
{
    const LoadedManifest loaded = loadManifest(text);
    DataResolution out;
    if (loaded.parsed && !loaded.document.is_object()) {
        out.diagnostics.push_back({Severity::Error,
            "a Hiera document is a map with hierarchy, data and overrides, not " + describeJsonType(loaded.document),
            "", loaded.sourceMap.valueAt("")});
        return out;
    }
    for (const Diagnostic &diagnostic : loaded.diagnostics) {
        const std::vector<std::string> tokens = splitPointer(diagnostic.path);
        const std::string section = tokens.empty() ? std::string() : tokens.front();
        const bool hiera = section == "data" || section == "hierarchy" || section == "overrides";
        if (hiera || (section.empty() && diagnostic.severity == Severity::Error))
            out.diagnostics.push_back(diagnostic);
    }
    if (!out.ok())
        return out;
    DataResolution resolved = resolveData(loaded, text, facts, external);
    resolved.diagnostics.insert(resolved.diagnostics.begin(), out.diagnostics.begin(), out.diagnostics.end());
    return resolved;
}

} // namespace ccm
