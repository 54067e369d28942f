// SPDX-License-Identifier: Apache-2.0
#include "core/model/schema_registry.h"

#include "core/model/embedded_schemas.h"
#include "core/model/manifest.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>

namespace ccm {
namespace {

const Json kMissing; // what a lookup that finds nothing refers to
const std::vector<std::string> kNoProperties;

nlohmann::json toPlain(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::object: {
        nlohmann::json out = nlohmann::json::object();
        for (const auto &[key, item] : value.items())
            out[key] = toPlain(item);
        return out;
    }
    case Json::value_t::array: {
        nlohmann::json out = nlohmann::json::array();
        for (const auto &item : value)
            out.push_back(toPlain(item));
        return out;
    }
    case Json::value_t::string:
        return value.get<std::string>();
    case Json::value_t::boolean:
        return value.get<bool>();
    case Json::value_t::number_integer:
        return value.get<std::int64_t>();
    case Json::value_t::number_unsigned:
        return value.get<std::uint64_t>();
    case Json::value_t::number_float:
        return value.get<double>();
    default:
        return nullptr;
    }
}

std::string describeSchemaType(const std::string &type)
{
    if (type == "string")
        return "a string";
    if (type == "boolean")
        return "true or false";
    if (type == "integer")
        return "an integer";
    if (type == "number")
        return "a number";
    if (type == "array")
        return "a list";
    if (type == "object")
        return "a map";
    if (type == "null")
        return "empty";
    return type;
}

std::string boundText(const Json &number)
{
    if (number.is_number_float()) {
        const double d = number.get<double>();
        if (d == static_cast<double>(static_cast<std::int64_t>(d)))
            return std::to_string(static_cast<std::int64_t>(d));
    }
    return number.dump();
}

/// A schema reduced to the keywords the project's schemas use, to tell quickly that a value
/// conforms. valijson copies an error context for every node it visits, which made it most of
/// the cost of validating a manifest; most values conform, so they are settled here and only the
/// others go through valijson, which words the findings. The rules follow valijson's draft 7
/// with strict types. A schema that uses any other keyword is left to valijson whole.
class QuickSchema {
public:
    /// Follows a $ref of a node that lives in `file`, updating `file`; a null value when the
    /// reference leads nowhere.
    using Resolver = std::function<const Json &(const Json &, std::string &)>;

    /// Null when the schema, or one it refers to, uses something this does not evaluate.
    static std::unique_ptr<QuickSchema> compile(const Json &root, std::string_view file, const Resolver &resolve)
    {
        auto quick = std::make_unique<QuickSchema>();
        std::string currentFile(file);
        quick->m_root = quick->node(root, currentFile, resolve);
        if (!quick->m_root)
            return nullptr;
        return quick;
    }

    [[nodiscard]] bool accepts(const Json &value) const { return accepts(*m_root, value); }

private:
    enum TypeBit : std::uint8_t {
        kNull = 1,
        kBoolean = 2,
        kInteger = 4,
        kNumber = 8,
        kString = 16,
        kArray = 32,
        kObject = 64,
    };
    enum class Extra { Any, None, Schema };

    struct Node {
        bool never = false; ///< the schema `false`
        std::uint8_t types = 0; ///< 0: any type
        std::optional<std::vector<std::string>> enumStrings;
        std::optional<double> minimum;
        std::optional<double> maximum;
        std::optional<std::uint64_t> minProperties;
        std::optional<std::uint64_t> maxProperties;
        std::vector<std::string> required;
        bool hasProperties = false; ///< properties or additionalProperties is given
        std::vector<std::pair<std::string, const Node *>> properties;
        Extra extra = Extra::Any;
        const Node *extraSchema = nullptr;
        const Node *items = nullptr;
        std::vector<const Node *> oneOf;
    };

    static std::uint8_t typeBits(const Json &value)
    {
        switch (value.type()) {
        case Json::value_t::null:
            return kNull;
        case Json::value_t::boolean:
            return kBoolean;
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
            return kInteger | kNumber;
        case Json::value_t::number_float:
            return kNumber;
        case Json::value_t::string:
            return kString;
        case Json::value_t::array:
            return kArray;
        case Json::value_t::object:
            return kObject;
        default:
            return 0;
        }
    }

    static std::optional<std::uint8_t> typeBit(const Json &name)
    {
        static const std::array<std::pair<std::string_view, std::uint8_t>, 7> names {
            {{"null", kNull}, {"boolean", kBoolean}, {"integer", kInteger}, {"number", kNumber}, {"string", kString},
                {"array", kArray}, {"object", kObject}}};
        if (!name.is_string())
            return std::nullopt;
        for (const auto &[text, bit] : names) {
            if (name.get_ref<const std::string &>() == text)
                return bit;
        }
        return std::nullopt;
    }

    static bool isAnnotation(std::string_view keyword)
    {
        return keyword == "title" || keyword == "description" || keyword == "default" || keyword == "deprecated"
            || keyword == "$schema" || keyword == "definitions" || keyword == "examples" || keyword.starts_with("x-");
    }

    /// The node for a schema, built once per schema document node; null when unsupported.
    const Node *node(const Json &schema, std::string &file, const Resolver &resolve)
    {
        // Siblings of $ref are ignored, as valijson does for draft 7.
        const Json &target = resolve(schema, file);
        if (!target.is_object() && !target.is_boolean())
            return nullptr;
        if (const auto built = m_built.find(&target); built != m_built.end())
            return built->second;
        // Recorded before the keywords are read, so that a schema that refers to itself ends.
        Node &out = m_nodes.emplace_back();
        m_built.emplace(&target, &out);
        if (target.is_boolean()) {
            out.never = !target.get<bool>();
            return &out;
        }
        for (const auto &[keyword, value] : target.items()) {
            if (isAnnotation(keyword))
                continue;
            if (!addKeyword(out, keyword, value, file, resolve))
                return nullptr;
        }
        return &out;
    }

    bool addKeyword(
        Node &out, const std::string &keyword, const Json &value, const std::string &file, const Resolver &resolve)
    {
        if (keyword == "properties" || keyword == "additionalProperties" || keyword == "items" || keyword == "oneOf")
            return addSubschemaKeyword(out, keyword, value, file, resolve);
        return addValueKeyword(out, keyword, value);
    }

    /// Keywords whose value constrains the instance directly (type, enum, bounds, required names).
    static bool addValueKeyword(Node &out, const std::string &keyword, const Json &value)
    {
        if (keyword == "type") {
            for (const Json &name : value.is_array() ? value : Json::array({value})) {
                const auto bit = typeBit(name);
                if (!bit)
                    return false;
                out.types |= *bit;
            }
            return true;
        }
        if (keyword == "enum") {
            if (!value.is_array())
                return false;
            out.enumStrings.emplace();
            for (const Json &option : value) {
                if (!option.is_string())
                    return false;
                out.enumStrings->push_back(option.get<std::string>());
            }
            return true;
        }
        if (keyword == "minimum" || keyword == "maximum") {
            if (!value.is_number())
                return false;
            (keyword == "minimum" ? out.minimum : out.maximum) = value.get<double>();
            return true;
        }
        if (keyword == "minProperties" || keyword == "maxProperties") {
            if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
                return false;
            (keyword == "minProperties" ? out.minProperties : out.maxProperties) = value.get<std::uint64_t>();
            return true;
        }
        if (keyword == "required") {
            if (!value.is_array())
                return false;
            for (const Json &name : value) {
                if (!name.is_string())
                    return false;
                out.required.push_back(name.get<std::string>());
            }
            return true;
        }
        return false;
    }

    /// Keywords whose value is itself a schema (or a map or list of schemas) to compile.
    bool addSubschemaKeyword(
        Node &out, const std::string &keyword, const Json &value, const std::string &file, const Resolver &resolve)
    {
        const auto child = [&](const Json &schema) {
            std::string childFile = file;
            return node(schema, childFile, resolve);
        };
        if (keyword == "properties") {
            if (!value.is_object())
                return false;
            out.hasProperties = true;
            for (const auto &[name, schema] : value.items()) {
                const Node *property = child(schema);
                if (!property)
                    return false;
                out.properties.emplace_back(name, property);
            }
            return true;
        }
        if (keyword == "additionalProperties") {
            out.hasProperties = true;
            if (value.is_boolean()) {
                out.extra = value.get<bool>() ? Extra::Any : Extra::None;
                return true;
            }
            if (!value.is_object())
                return false;
            out.extra = Extra::Schema;
            out.extraSchema = child(value);
            return out.extraSchema != nullptr;
        }
        if (keyword == "items") {
            if (!value.is_object() && !value.is_boolean())
                return false;
            out.items = child(value);
            return out.items != nullptr;
        }
        if (keyword == "oneOf") {
            if (!value.is_array() || value.empty())
                return false;
            for (const Json &schema : value) {
                const Node *branch = child(schema);
                if (!branch)
                    return false;
                out.oneOf.push_back(branch);
            }
            return true;
        }
        return false;
    }

    bool accepts(const Node &schema, const Json &value) const
    {
        if (schema.never)
            return false;
        const std::uint8_t type = typeBits(value);
        if (type == 0 || (schema.types != 0 && (schema.types & type) == 0))
            return false;
        if (schema.enumStrings
            && (!value.is_string()
                || std::find(
                       schema.enumStrings->begin(), schema.enumStrings->end(), value.get_ref<const std::string &>())
                    == schema.enumStrings->end()))
            return false;
        if (value.is_number()) {
            const double number = value.get<double>();
            if ((schema.minimum && number < *schema.minimum) || (schema.maximum && number > *schema.maximum))
                return false;
        }
        if (value.is_object() && !acceptsObject(schema, value))
            return false;
        if (value.is_array() && schema.items) {
            for (const Json &item : value) {
                if (!accepts(*schema.items, item))
                    return false;
            }
        }
        if (!schema.oneOf.empty()) {
            const auto matching = std::count_if(
                schema.oneOf.begin(), schema.oneOf.end(), [&](const Node *branch) { return accepts(*branch, value); });
            if (matching != 1)
                return false;
        }
        return true;
    }

    bool acceptsObject(const Node &schema, const Json &value) const
    {
        if ((schema.minProperties && value.size() < *schema.minProperties)
            || (schema.maxProperties && value.size() > *schema.maxProperties))
            return false;
        for (const std::string &name : schema.required) {
            if (!value.contains(name))
                return false;
        }
        if (!schema.hasProperties)
            return true;
        for (const auto &member : value.items()) {
            const std::string &key = member.key();
            const Json &item = member.value();
            const auto property = std::find_if(schema.properties.begin(), schema.properties.end(),
                [&](const auto &known) { return known.first == key; });
            if (property != schema.properties.end()) {
                if (!accepts(*property->second, item))
                    return false;
            } else if (schema.extra == Extra::None
                || (schema.extra == Extra::Schema && !accepts(*schema.extraSchema, item))) {
                return false;
            }
        }
        return true;
    }

    std::deque<Node> m_nodes;
    std::map<const Json *, const Node *> m_built;
    const Node *m_root = nullptr;
};

/// valijson's parser without its check for URNs, which compiles a std::regex the first time: more
/// work than all the rest of validating a thousand resources. The embedded schemas refer to each
/// other by file name ("common.json#/definitions/alias") and never by URN, so a document reference
/// is either absolute or relative to the document it is in; the rest is valijson's own resolution.
class EmbeddedSchemaParser : public valijson::SchemaParser {
public:
    using valijson::SchemaParser::SchemaParser;

private:
    std::optional<std::string> resolveDocumentUri(
        const std::optional<std::string> &scope, const std::optional<std::string> &document) override
    {
        if (!document)
            return scope;
        if (!scope || valijson::internal::uri::isUriAbsolute(*document))
            return document;
        return valijson::internal::uri::resolveRelativeUri(*scope, *document);
    }
};

} // namespace

struct SchemaRegistry::Document {
    std::once_flag once;
    Json json; ///< null when the file is not valid JSON
    std::optional<std::string> parseError;
    std::vector<std::string> propertyOrder; ///< the keys of the top-level `properties`, in order
};

struct SchemaRegistry::Compiled {
    std::once_flag once;
    std::unique_ptr<valijson::Schema> schema; ///< null when the file is missing or does not compile
    std::unique_ptr<QuickSchema> quick; ///< null when the schema uses more than it evaluates
    std::vector<std::string> errors;
};

const SchemaRegistry &SchemaRegistry::instance()
{
    static const SchemaRegistry registry;
    return registry;
}

SchemaRegistry::~SchemaRegistry() = default;

SchemaRegistry::SchemaRegistry()
{
    for (std::string_view name : schemas::embeddedSchemaNames())
        m_documents.emplace(std::string(name), std::make_unique<Document>());

    m_compileOrder.emplace_back("manifest.json");
    for (std::string_view type : kResourceTypes)
        m_compileOrder.push_back(std::string(type) + ".json");
    for (const std::string &file : m_compileOrder)
        m_compiled.emplace(file, std::make_unique<Compiled>());
}

const SchemaRegistry::Document *SchemaRegistry::parsed(std::string_view fileName) const
{
    const auto it = m_documents.find(fileName);
    if (it == m_documents.end())
        return nullptr;
    Document &entry = *it->second;
    std::call_once(entry.once, [&] {
        const auto text = schemas::embeddedSchema(fileName);
        Json parsed = Json::parse(text->begin(), text->end(), nullptr, false);
        if (parsed.is_discarded()) {
            entry.parseError = "schema " + std::string(fileName) + " is not valid JSON";
            return;
        }
        if (parsed.is_object() && parsed.contains("properties")) {
            for (const auto &[key, value] : parsed["properties"].items())
                entry.propertyOrder.push_back(key);
        }
        entry.json = std::move(parsed);
    });
    return &entry;
}

const SchemaRegistry::Compiled *SchemaRegistry::compiled(std::string_view file) const
{
    const auto it = m_compiled.find(file);
    if (it == m_compiled.end())
        return nullptr;
    Compiled &entry = *it->second;
    std::call_once(entry.once, [&] {
        const Json &doc = document(file);
        if (doc.is_null()) {
            entry.errors.push_back("schema " + std::string(file) + " is missing");
            return;
        }
        const auto fetch = [this](const std::string &uri) -> const nlohmann::json * {
            const Json &fetched = document(uri);
            if (fetched.is_null())
                return nullptr;
            return new nlohmann::json(toPlain(fetched));
        };
        const auto release = [](const nlohmann::json *fetched) { delete fetched; };
        auto schema = std::make_unique<valijson::Schema>();
        try {
            const nlohmann::json plain = toPlain(doc);
            EmbeddedSchemaParser parser(valijson::SchemaParser::kDraft7);
            valijson::adapters::NlohmannJsonAdapter adapter(plain);
            parser.populateSchema(adapter, *schema, fetch, release);
        } catch (const std::exception &e) {
            std::string message = "schema ";
            message += file;
            message += " does not compile: ";
            message += e.what();
            entry.errors.push_back(std::move(message));
            return;
        }
        entry.schema = std::move(schema);
        entry.quick
            = QuickSchema::compile(doc, file, [this](const Json &node, std::string &currentFile) -> const Json & {
                  return resolveIn(node, currentFile);
              });
    });
    return &entry;
}

const std::vector<std::string> &SchemaRegistry::loadErrors() const
{
    std::call_once(m_allCompiled, [this] {
        for (std::string_view name : schemas::embeddedSchemaNames()) {
            if (const auto &error = parsed(name)->parseError)
                m_loadErrors.push_back(*error);
        }
        for (const std::string &file : m_compileOrder) {
            const std::vector<std::string> &errors = compiled(file)->errors;
            m_loadErrors.insert(m_loadErrors.end(), errors.begin(), errors.end());
        }
    });
    return m_loadErrors;
}

std::vector<std::string> SchemaRegistry::loadErrors(std::string_view type) const
{
    const std::string file = std::string(type) + ".json";
    std::vector<std::string> errors;
    if (const Document *entry = parsed(file); entry && entry->parseError)
        errors.push_back(*entry->parseError);
    if (const Compiled *entry = compiled(file))
        errors.insert(errors.end(), entry->errors.begin(), entry->errors.end());
    return errors;
}

const Json &SchemaRegistry::document(std::string_view fileName) const
{
    const Document *entry = parsed(fileName);
    return entry ? entry->json : kMissing;
}

const Json &SchemaRegistry::typeSchema(std::string_view type) const
{
    return document(std::string(type) + ".json");
}

const std::vector<std::string> &SchemaRegistry::propertyOrder(std::string_view type) const
{
    if (std::find(kResourceTypes.begin(), kResourceTypes.end(), type) == kResourceTypes.end())
        return kNoProperties;
    const Document *entry = parsed(std::string(type) + ".json");
    return entry ? entry->propertyOrder : kNoProperties;
}

const Json &SchemaRegistry::resolve(const Json &node, std::string_view file) const
{
    std::string currentFile(file);
    return resolveIn(node, currentFile);
}

const Json &SchemaRegistry::resolveIn(const Json &node, std::string &currentFile) const
{
    const Json *current = &node;
    for (int hops = 0; hops < 16 && current->is_object() && current->contains("$ref"); ++hops) {
        const auto ref = (*current)["$ref"].get<std::string>();
        const auto hash = ref.find('#');
        if (hash != 0)
            currentFile = ref.substr(0, hash);
        const Json *root = &document(currentFile);
        const std::string pointer = hash == std::string::npos ? std::string() : ref.substr(hash + 1);
        try {
            current = &root->at(Json::json_pointer(pointer));
        } catch (const std::exception &) {
            return kMissing;
        }
    }
    return *current;
}

const Json &SchemaRegistry::propertySchema(std::string_view type, std::string_view property) const
{
    const Json &schema = typeSchema(type);
    if (!schema.contains("properties") || !schema["properties"].contains(property))
        return kMissing;
    return resolve(schema["properties"][std::string(property)], std::string(type) + ".json");
}

std::vector<SchemaViolation> SchemaRegistry::validateBody(std::string_view type, const Json &body) const
{
    const std::string file = std::string(type) + ".json";
    const Compiled *entry = compiled(file);
    if (!entry || !entry->schema)
        return {};
    std::vector<SchemaViolation> out;
    const auto &known = propertyOrder(type);
    if (body.is_object()) {
        for (const auto &[key, value] : body.items()) {
            if (std::find(known.begin(), known.end(), key) != known.end())
                continue;
            std::string message = "unknown " + std::string(type) + " property '" + key + "'";
            if (auto suggestion = closestMatch(key, known))
                message += "; did you mean '" + *suggestion + "'?";
            out.push_back({appendPointer("", key), std::move(message), true});
        }
    }
    for (SchemaViolation &violation : validate(*entry, typeSchema(type), file, body)) {
        // Unknown top-level properties are reported above, with a suggestion.
        if (violation.atKey && violation.pointer.find('/', 1) == std::string::npos)
            continue;
        out.push_back(std::move(violation));
    }
    return out;
}

std::vector<SchemaViolation> SchemaRegistry::validateDocument(const Json &documentValue) const
{
    const Compiled *entry = compiled("manifest.json");
    if (!entry || !entry->schema)
        return {};
    return validate(*entry, document("manifest.json"), "manifest.json", documentValue);
}

namespace {

/// One valijson error at its place: the instance pointer, how a message names the place, the
/// sub-schema and value there, and valijson's English description.
struct ErrorSite {
    std::string pointer;
    std::string what;
    bool atRoot = false;
    const Json &schema;
    const Json &value;
    const std::string &description;
};

/// "a string or a list": the types a schema allows, empty when it names none.
std::string expectedTypes(const Json &schema)
{
    if (!schema.contains("type"))
        return {};
    const Json &type = schema["type"];
    if (type.is_string())
        return describeSchemaType(type.get<std::string>());
    std::string expected;
    for (std::size_t i = 0; i < type.size(); ++i) {
        if (i)
            expected += " or ";
        expected += describeSchemaType(type[i].get<std::string>());
    }
    return expected;
}

std::optional<SchemaViolation> typeMismatch(const ErrorSite &site)
{
    const std::string expected = expectedTypes(site.schema);
    return SchemaViolation {site.pointer,
        site.what + " must be " + (expected.empty() ? "of another type" : expected) + ", not "
            + describeJsonType(site.value),
        false};
}

std::optional<SchemaViolation> notInEnum(const ErrorSite &site)
{
    std::string allowed;
    if (site.schema.contains("enum")) {
        const Json &options = site.schema["enum"];
        for (std::size_t i = 0; i < options.size(); ++i) {
            if (i)
                allowed += ", ";
            allowed += options[i].is_string() ? options[i].get<std::string>() : options[i].dump();
        }
    }
    const std::string shown = site.value.is_string() ? site.value.get<std::string>() : site.value.dump();
    return SchemaViolation {
        site.pointer, "'" + shown + "' is not a valid value for " + site.what + "; expected one of " + allowed, false};
}

std::optional<SchemaViolation> unknownProperty(const ErrorSite &site)
{
    const std::string &d = site.description;
    const auto open = d.rfind(": '");
    const std::string key = open == std::string::npos ? std::string() : d.substr(open + 3, d.size() - open - 5);
    std::vector<std::string> known;
    if (site.schema.contains("properties")) {
        for (const auto &[k, v] : site.schema["properties"].items())
            known.push_back(k);
    }
    std::string message = "unknown property '" + key + "'";
    if (auto suggestion = closestMatch(key, known))
        message += "; did you mean '" + *suggestion + "'?";
    else if (!known.empty()) {
        message += "; expected ";
        for (std::size_t i = 0; i < known.size(); ++i)
            message += (i ? ", " : "") + known[i];
    }
    return SchemaViolation {appendPointer(site.pointer, key), std::move(message), true};
}

std::optional<SchemaViolation> missingProperty(const ErrorSite &site)
{
    const std::string &d = site.description;
    const auto open = d.find('\'');
    const std::string key = d.substr(open + 1, d.rfind('\'') - open - 1);
    return SchemaViolation {site.pointer,
        (site.atRoot ? std::string() : site.what + " ") + "is missing the required property '" + key + "'", false};
}

std::optional<SchemaViolation> belowMinimum(const ErrorSite &site)
{
    if (!site.schema.contains("minimum"))
        return std::nullopt;
    return SchemaViolation {site.pointer,
        site.what + " must be at least " + boundText(site.schema["minimum"]) + ", not " + site.value.dump(), false};
}

std::optional<SchemaViolation> aboveMaximum(const ErrorSite &site)
{
    if (!site.schema.contains("maximum"))
        return std::nullopt;
    return SchemaViolation {site.pointer,
        site.what + " must be at most " + boundText(site.schema["maximum"]) + ", not " + site.value.dump(), false};
}

std::optional<SchemaViolation> propertyCount(const ErrorSite &site)
{
    const bool exactlyOne = site.schema.value("minProperties", 0) == 1 && site.schema.value("maxProperties", 0) == 1;
    return SchemaViolation {site.pointer,
        exactlyOne ? site.what + " must have exactly one key, not " + std::to_string(site.value.size())
                   : site.what + ": " + site.description,
        false};
}

std::optional<SchemaViolation> noBranchMatches(const ErrorSite &site)
{
    return SchemaViolation {site.pointer, site.what + " does not match the schema", false};
}

/// Any other description, as it is but in lower case and without the full stop.
SchemaViolation plainMessage(const ErrorSite &site)
{
    std::string message = site.description;
    if (!message.empty() && message.back() == '.')
        message.pop_back();
    if (!message.empty())
        message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
    return {site.pointer, site.what + ": " + message, false};
}

/// How valijson's English descriptions, known by their start, become messages for people. A rule
/// that returns nothing leaves the description to plainMessage.
struct MessageRule {
    std::string_view prefix;
    std::optional<SchemaViolation> (*rewrite)(const ErrorSite &);
    /// A combinator's summary, shown only when no error more precise is found.
    bool summary = false;
};

constexpr std::array<MessageRule, 10> kMessageRules {{
    {"Value type not permitted", typeMismatch},
    {"Failed to match against any enum values", notInEnum},
    {"Object contains a property that could not be validated", unknownProperty},
    {"Missing required property", missingProperty},
    {"Expected number greater than or equal to", belowMinimum},
    {"Expected number less than or equal to", aboveMaximum},
    {"Object should have no more than", propertyCount},
    {"Object should have no fewer than", propertyCount},
    {"Failed to validate", noBranchMatches, true},
    {"Target should not validate", noBranchMatches, true},
}};

/// The JSON Pointer of valijson's context ("<root>", "[spec]", "[0]", ...).
std::string instancePointer(const std::vector<std::string> &context)
{
    std::string pointer;
    for (const std::string &element : context) {
        if (element == "<root>")
            continue;
        std::string token = element;
        if (token.size() >= 2 && token.front() == '[' && token.back() == ']')
            token = token.substr(1, token.size() - 2);
        pointer = appendPointer(pointer, token);
    }
    return pointer;
}

Json valueAt(const Json &root, const std::string &pointer)
{
    try {
        return root.at(Json::json_pointer(pointer));
    } catch (const std::exception &) {
        return Json();
    }
}

/// The violations without repeats: the same message can arrive through several branches of a
/// combinator.
std::vector<SchemaViolation> withoutRepeats(std::vector<SchemaViolation> violations)
{
    std::vector<SchemaViolation> unique;
    for (SchemaViolation &violation : violations) {
        const bool seen = std::any_of(unique.begin(), unique.end(),
            [&](const SchemaViolation &u) { return u.pointer == violation.pointer && u.message == violation.message; });
        if (!seen)
            unique.push_back(std::move(violation));
    }
    return unique;
}

} // namespace

const Json *SchemaRegistry::childSchema(const Json &candidate, const std::string &token, std::string &currentFile) const
{
    std::string stepFile = currentFile;
    const Json &s = resolveIn(candidate, stepFile);
    const Json *child = nullptr;
    if (s.contains("properties") && s["properties"].contains(token))
        child = &s["properties"][token];
    else if (s.contains("items") && s["items"].is_object())
        child = &s["items"];
    else if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
        child = &s["additionalProperties"];
    if (!child)
        return nullptr;
    const Json *resolved = &resolveIn(*child, stepFile);
    currentFile = stepFile;
    return resolved;
}

const Json &SchemaRegistry::schemaAt(
    const Json &schemaRoot, std::string_view file, const std::vector<std::string> &tokens) const
{
    std::string currentFile(file);
    const Json *node = &resolveIn(schemaRoot, currentFile);
    for (const std::string &token : tokens) {
        const Json *next = childSchema(*node, token, currentFile);
        for (const char *combinator : {"allOf", "anyOf", "oneOf"}) {
            if (next || !node->contains(combinator))
                continue;
            for (const Json &branch : (*node)[combinator]) {
                if ((next = childSchema(branch, token, currentFile)))
                    break;
            }
        }
        if (!next)
            return kMissing;
        node = next;
    }
    return *node;
}

std::vector<SchemaViolation> SchemaRegistry::validate(
    const Compiled &compiled, const Json &schemaRoot, std::string_view file, const Json &value) const
{
    if (compiled.quick && compiled.quick->accepts(value))
        return {};
    const nlohmann::json plain = toPlain(value);
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(plain);
    if (validator.validate(*compiled.schema, target, &results))
        return {};

    std::vector<SchemaViolation> out;
    std::vector<SchemaViolation> summaries;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
        const std::string pointer = instancePointer(error.context);
        const std::vector<std::string> tokens = splitPointer(pointer);
        const Json instanceValue = valueAt(value, pointer);
        const ErrorSite site {pointer, tokens.empty() ? std::string("the value") : "'" + tokens.back() + "'",
            tokens.empty(), schemaAt(schemaRoot, file, tokens), instanceValue, error.description};
        const auto rule = std::find_if(kMessageRules.begin(), kMessageRules.end(),
            [&](const MessageRule &r) { return error.description.rfind(r.prefix, 0) == 0; });
        std::optional<SchemaViolation> violation = rule == kMessageRules.end() ? std::nullopt : rule->rewrite(site);
        if (!violation)
            out.push_back(plainMessage(site));
        else
            (rule->summary ? summaries : out).push_back(std::move(*violation));
    }
    if (out.empty() && !summaries.empty())
        out.push_back(summaries.front());
    return withoutRepeats(std::move(out));
}

} // namespace ccm
