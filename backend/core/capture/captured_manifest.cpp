// SPDX-License-Identifier: Apache-2.0
#include "core/capture/captured_manifest.h"

#include "base/base64.h"
#include "base/utf8.h"
#include "core/model/manifest_writer.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

namespace ccm {
namespace {

/// The blocks of a capture's manifest, in the order they are written.
constexpr std::array<std::string_view, 3> kCaptureBlockOrder {"package", "file", "service"};

constexpr std::array<std::string_view, 11> kCaptureSkipKinds {"symlink", "socket", "device", "fifo", "oversize",
    "unreadable", "private", "excluded_by_limit", "not_found", "no_match", "unsupported"};

/// Text for one comment line: control characters (and the line breaks of YAML 1.1 readers,
/// NEL, LS and PS) would end the comment, so each becomes a space; invalid UTF-8 becomes U+FFFD.
std::string captureCommentText(std::string_view text)
{
    std::string valid = toValidUtf8(text);
    std::string out;
    out.reserve(valid.size());
    for (std::size_t i = 0; i < valid.size(); ++i) {
        const auto u = static_cast<unsigned char>(valid[i]);
        if (u < 0x20 || u == 0x7f) {
            out += ' ';
        } else if (u == 0xc2 && i + 1 < valid.size() && static_cast<unsigned char>(valid[i + 1]) == 0x85) {
            out += ' ';
            ++i;
        } else if (u == 0xe2 && i + 2 < valid.size() && static_cast<unsigned char>(valid[i + 1]) == 0x80
            && (static_cast<unsigned char>(valid[i + 2]) == 0xa8 || static_cast<unsigned char>(valid[i + 2]) == 0xa9)) {
            out += ' ';
            i += 2;
        } else {
            out += valid[i];
        }
    }
    return out;
}

/// A word of the command line as a POSIX shell would need it.
std::string captureShellWord(const std::string &word)
{
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return isalnum(static_cast<unsigned char>(c))
            || std::string_view("-_./=:,@+%").find(c) != std::string_view::npos;
    });
    if (plain)
        return word;
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::string captureHeader(const CapturedManifest &capture)
{
    std::string out = "# Captured from " + captureCommentText(capture.host.empty() ? "an unnamed host" : capture.host);
    if (!capture.capturedAt.empty())
        out += " at " + captureCommentText(capture.capturedAt);
    if (!capture.capturedBy.empty())
        out += " as " + captureCommentText(capture.capturedBy);
    out += ".\n";
    if (!capture.command.empty()) {
        std::string line;
        for (const std::string &word : capture.command)
            line += (line.empty() ? "" : " ") + captureShellWord(word);
        out += "# Command: " + captureCommentText(line) + "\n";
    }
    out += "# A noop of this manifest on that host finds nothing to change.\n";
    if (!capture.skipped.empty()) {
        out += "#\n# Skipped (" + std::to_string(capture.skipped.size()) + "):\n";
        for (const CaptureSkip &skip : capture.skipped)
            out += "#   " + captureCommentText(skip.path) + " (" + captureCommentText(skip.kind)
                + "): " + captureCommentText(skip.reason) + "\n";
    }
    if (!capture.warnings.empty()) {
        out += "#\n# Warnings:\n";
        for (const std::string &warning : capture.warnings)
            out += "#   " + captureCommentText(warning) + "\n";
    }
    return out;
}

/// One list item `- NAME:` with its properties, through the manifest writer so that names and
/// values are quoted and blocked as every saved manifest is.
std::string captureEntry(const CapturedResource &resource)
{
    constexpr int kEntryColumn = 10;
    std::string out;
    if (!resource.comment.empty())
        out += "        # " + captureCommentText(resource.comment) + "\n";
    Json entry = Json::object();
    appendMember(entry, resource.name, resource.properties.is_object() ? resource.properties : Json::object());
    std::string text = toYaml(entry, kEntryColumn);
    // toYaml indents the entry's key by kEntryColumn spaces; the list item's dash takes their place.
    text.replace(0, kEntryColumn, "        - ");
    return out + text;
}

std::vector<std::string> captureBlockTypes(const CapturedManifest &capture)
{
    std::vector<std::string> types(kCaptureBlockOrder.begin(), kCaptureBlockOrder.end());
    for (const CapturedResource &resource : capture.resources) {
        if (std::find(types.begin(), types.end(), resource.type) == types.end())
            types.push_back(resource.type);
    }
    return types;
}

std::string captureResources(const CapturedManifest &capture)
{
    std::string out;
    for (const std::string &type : captureBlockTypes(capture)) {
        std::string entries;
        for (const CapturedResource &resource : capture.resources) {
            if (resource.type == type)
                entries += captureEntry(resource);
        }
        if (entries.empty())
            continue;
        Json key = Json::object();
        appendMember(key, type, nullptr);
        // "KEY: null\n" from the writer, quoted as a key must be; the block's list follows.
        std::string line = toYaml(key, 0);
        line.resize(line.rfind(':') + 1);
        out += "    - " + line + "\n" + entries;
    }
    return out;
}

/// Builds "bad_capture" errors that name the member at fault.
Error badCapture(const std::string &member, const std::string &problem)
{
    return Error {"bad_capture", member + ": " + problem};
}

const Json *captureMember(const Json &object, const char *key)
{
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
}

Result<std::string> captureString(const Json &object, const char *key, const std::string &where)
{
    const Json *value = captureMember(object, key);
    const std::string member = where.empty() ? std::string(key) : where + "." + key;
    if (!value)
        return badCapture(member, "missing");
    if (!value->is_string())
        return badCapture(member, "expected a string, got " + describeJsonType(*value));
    const auto &text = value->get_ref<const std::string &>();
    if (text.find('\0') != std::string::npos)
        return badCapture(member, "contains a NUL character");
    return text;
}

Result<std::vector<std::string>> captureStrings(const Json &object, const char *key, std::size_t limit)
{
    const Json *value = captureMember(object, key);
    if (!value)
        return badCapture(key, "missing");
    if (!value->is_array())
        return badCapture(key, "expected a list, got " + describeJsonType(*value));
    if (value->size() > limit)
        return badCapture(key, "more than " + std::to_string(limit) + " entries");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < value->size(); ++i) {
        const Json &item = (*value)[i];
        const std::string member = std::string(key) + "[" + std::to_string(i) + "]";
        if (!item.is_string())
            return badCapture(member, "expected a string, got " + describeJsonType(item));
        out.push_back(item.get<std::string>());
    }
    return out;
}

const Json *captureList(const Json &object, const char *key, std::size_t limit, Error &error)
{
    const Json *value = captureMember(object, key);
    if (!value)
        error = badCapture(key, "missing");
    else if (!value->is_array())
        error = badCapture(key, "expected a list, got " + describeJsonType(*value));
    else if (value->size() > limit)
        error = badCapture(key, "more than " + std::to_string(limit) + " entries, the capture's limit");
    else
        return value;
    return nullptr;
}

/// data: strings, or maps of strings (hostname, package_versions), as captures make them.
Result<Json> captureData(const Json &object)
{
    const Json *data = captureMember(object, "data");
    if (!data)
        return badCapture("data", "missing");
    if (!data->is_object())
        return badCapture("data", "expected a map, got " + describeJsonType(*data));
    for (const auto &[key, value] : data->items()) {
        const std::string member = "data." + key;
        if (value.is_string())
            continue;
        if (!value.is_object())
            return badCapture(member, "expected a string or a map of strings, got " + describeJsonType(value));
        for (const auto &[inner, text] : value.items()) {
            if (!text.is_string())
                return badCapture(member + "." + inner, "expected a string, got " + describeJsonType(text));
        }
    }
    return *data;
}

struct CapturePropertyRule {
    std::string_view type;
    std::string_view property;
    bool boolean; ///< a boolean, else a string
    std::vector<std::string_view> values; ///< the strings allowed; empty for any
};

/// The properties a capture writes, per type, and what they may hold: a capture from a peer that
/// holds anything else (a package to remove, a require, a health check) is not a capture.
const std::vector<CapturePropertyRule> &capturePropertyRules()
{
    static const std::vector<CapturePropertyRule> rules {
        {"package", "ensure", false, {}},
        {"service", "ensure", false, {"running", "stopped"}},
        {"service", "enable", true, {}},
        {"file", "ensure", false, {"present", "directory"}},
        {"file", "owner", false, {}},
        {"file", "group", false, {}},
        {"file", "mode", false, {}},
        {"file", "content", false, {}},
        {"file", "source", false, {}},
    };
    return rules;
}

Result<void> checkCaptureProperty(
    const std::string &type, const std::string &key, const Json &value, const std::string &member)
{
    const auto &rules = capturePropertyRules();
    const auto rule = std::find_if(
        rules.begin(), rules.end(), [&](const CapturePropertyRule &r) { return r.type == type && r.property == key; });
    if (rule == rules.end())
        return badCapture(member, "a captured " + type + " has no property \"" + key + "\"");
    if (rule->boolean != value.is_boolean() || (!rule->boolean && !value.is_string()))
        return badCapture(member,
            std::string("expected ") + (rule->boolean ? "a boolean" : "a string") + ", got " + describeJsonType(value));
    if (rule->boolean)
        return {};
    const auto &text = value.get_ref<const std::string &>();
    if (text.find('\0') != std::string::npos)
        return badCapture(member, "contains a NUL character");
    if (!rule->values.empty() && std::find(rule->values.begin(), rule->values.end(), text) == rule->values.end())
        return badCapture(member, "\"" + text + "\" is not a state a capture writes");
    if (type == "package" && (text.empty() || text == "absent" || text == "purged" || text == "latest"))
        return badCapture(member, "\"" + text + "\" is not a state a capture writes");
    return {};
}

/// Counts of what a capture from a peer holds, against the limits.
struct CaptureTally {
    std::size_t files = 0;
    std::size_t packages = 0;
    std::size_t services = 0;
    std::size_t bytes = 0;
};

Result<CapturedResource> captureResource(const Json &item, const std::string &where, CaptureTally &tally)
{
    if (!item.is_object())
        return badCapture(where, "expected a map, got " + describeJsonType(item));
    CapturedResource resource;
    auto type = captureString(item, "type", where);
    if (!type)
        return type.error();
    if (std::find(kCaptureBlockOrder.begin(), kCaptureBlockOrder.end(), *type) == kCaptureBlockOrder.end())
        return badCapture(where + ".type", "\"" + *type + "\" is not one of package, service, file");
    resource.type = *type;
    auto name = captureString(item, "name", where);
    if (!name)
        return name.error();
    if (name->empty())
        return badCapture(where + ".name", "empty");
    resource.name = *name;
    auto comment = captureString(item, "comment", where);
    if (!comment)
        return comment.error();
    resource.comment = *comment;
    const Json *properties = captureMember(item, "properties");
    if (!properties)
        return badCapture(where + ".properties", "missing");
    if (!properties->is_object())
        return badCapture(where + ".properties", "expected a map, got " + describeJsonType(*properties));
    for (const auto &[key, value] : properties->items()) {
        if (auto checked = checkCaptureProperty(resource.type, key, value, where + ".properties." + key); !checked)
            return checked.error();
    }
    resource.properties = *properties;
    if (resource.type == "file") {
        ++tally.files;
        if (const Json *content = captureMember(*properties, "content"))
            tally.bytes += content->get_ref<const std::string &>().size();
    } else if (resource.type == "package") {
        ++tally.packages;
    } else {
        ++tally.services;
    }
    return resource;
}

/// A source's path: "files/..." relative, '/'-separated, without empty, "." or ".." parts.
std::optional<std::string> captureSourcePathProblem(std::string_view path)
{
    if (path.substr(0, 6) != "files/")
        return "does not start with \"files/\"";
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            return "has an empty, \".\" or \"..\" part";
        start = end + 1;
    }
    if (path.find('\0') != std::string_view::npos)
        return "contains a NUL character";
    return std::nullopt;
}

Result<CapturedSource> captureSource(const Json &item, const std::string &where, const CaptureLimits &limits)
{
    if (!item.is_object())
        return badCapture(where, "expected a map, got " + describeJsonType(item));
    CapturedSource source;
    auto path = captureString(item, "path", where);
    if (!path)
        return path.error();
    if (const auto problem = captureSourcePathProblem(*path))
        return badCapture(where + ".path", "\"" + *path + "\" " + *problem);
    source.path = *path;
    auto encoded = captureString(item, "content_base64", where);
    if (!encoded)
        return encoded.error();
    if (encoded->size() / 4 * 3 > limits.maxFileBytes + 3)
        return badCapture(where + ".content_base64",
            "larger than the " + std::to_string(limits.maxFileBytes) + " bytes a captured file may have");
    auto content = decodeBase64(*encoded);
    if (!content)
        return badCapture(where + ".content_base64", content.error().message);
    if (content->size() > limits.maxFileBytes)
        return badCapture(where + ".content_base64",
            "larger than the " + std::to_string(limits.maxFileBytes) + " bytes a captured file may have");
    source.content = std::move(*content);
    const Json *isPrivate = captureMember(item, "private");
    if (!isPrivate)
        return badCapture(where + ".private", "missing");
    if (!isPrivate->is_boolean())
        return badCapture(where + ".private", "expected a boolean, got " + describeJsonType(*isPrivate));
    source.privateContent = isPrivate->get<bool>();
    return source;
}

Result<CaptureSkip> captureSkip(const Json &item, const std::string &where)
{
    if (!item.is_object())
        return badCapture(where, "expected a map, got " + describeJsonType(item));
    auto path = captureString(item, "path", where);
    auto kind = captureString(item, "kind", where);
    auto reason = captureString(item, "reason", where);
    for (const auto *part : {&path, &kind, &reason}) {
        if (!*part)
            return part->error();
    }
    if (std::find(kCaptureSkipKinds.begin(), kCaptureSkipKinds.end(), *kind) == kCaptureSkipKinds.end())
        return badCapture(where + ".kind", "\"" + *kind + "\" is not a kind of skip");
    return CaptureSkip {*path, *kind, *reason};
}

Result<void> readCaptureResources(const Json &json, const CaptureLimits &limits, CapturedManifest &capture)
{
    Error error;
    const Json *resources
        = captureList(json, "resources", limits.maxFiles + limits.maxPackages + limits.maxServices, error);
    if (!resources)
        return error;
    CaptureTally tally;
    for (std::size_t i = 0; i < resources->size(); ++i) {
        auto resource = captureResource((*resources)[i], "resources[" + std::to_string(i) + "]", tally);
        if (!resource)
            return resource.error();
        capture.resources.push_back(std::move(*resource));
    }
    if (tally.files > limits.maxFiles)
        return badCapture("resources", "more than " + std::to_string(limits.maxFiles) + " files");
    if (tally.packages > limits.maxPackages)
        return badCapture("resources", "more than " + std::to_string(limits.maxPackages) + " packages");
    if (tally.services > limits.maxServices)
        return badCapture("resources", "more than " + std::to_string(limits.maxServices) + " services");
    const Json *sources = captureList(json, "sources", limits.maxFiles, error);
    if (!sources)
        return error;
    std::set<std::string, std::less<>> paths;
    for (std::size_t i = 0; i < sources->size(); ++i) {
        const std::string where = "sources[" + std::to_string(i) + "]";
        auto source = captureSource((*sources)[i], where, limits);
        if (!source)
            return source.error();
        if (!paths.insert(source->path).second)
            return badCapture(where + ".path", "\"" + source->path + "\" is there twice");
        tally.bytes += source->content.size();
        if (tally.bytes > limits.maxTotalBytes)
            return badCapture(where,
                "the capture holds more than " + std::to_string(limits.maxTotalBytes) + " bytes of content, its limit");
        capture.sources.push_back(std::move(*source));
    }
    if (tally.bytes > limits.maxTotalBytes)
        return badCapture("resources",
            "the capture holds more than " + std::to_string(limits.maxTotalBytes) + " bytes of content, its limit");
    return {};
}

/// Every source is a file of its own (none inside another's path), and every file resource's
/// `source` names one of them: a capture never points at a file of the host it is applied on.
Result<void> checkCaptureSourceReferences(const CapturedManifest &capture)
{
    std::set<std::string, std::less<>> paths;
    for (const CapturedSource &source : capture.sources)
        paths.insert(source.path);
    for (std::size_t i = 0; i < capture.sources.size(); ++i) {
        const std::string &path = capture.sources[i].path;
        for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
            if (paths.count(std::string_view(path).substr(0, slash)))
                return badCapture("sources[" + std::to_string(i) + "].path",
                    "\"" + path + "\" lies inside another source, \"" + path.substr(0, slash) + "\"");
        }
    }
    for (std::size_t i = 0; i < capture.resources.size(); ++i) {
        const Json &properties = capture.resources[i].properties;
        const auto source = properties.find("source");
        if (source == properties.end())
            continue;
        const std::string member = "resources[" + std::to_string(i) + "].properties.source";
        if (properties.contains("content"))
            return badCapture(member, "a file has both content and source");
        if (!paths.count(source->get_ref<const std::string &>()))
            return badCapture(member, "\"" + source->get<std::string>() + "\" is none of the capture's sources");
    }
    return {};
}

Result<void> readCaptureHeader(const Json &json, const CaptureLimits &limits, CapturedManifest &capture)
{
    const std::size_t entries = limits.maxFiles + limits.maxPackages + limits.maxServices;
    auto host = captureString(json, "host", {});
    auto at = captureString(json, "captured_at", {});
    auto by = captureString(json, "captured_by", {});
    for (const auto *part : {&host, &at, &by}) {
        if (!*part)
            return part->error();
    }
    capture.host = *host;
    capture.capturedAt = *at;
    capture.capturedBy = *by;
    auto command = captureStrings(json, "command", entries);
    if (!command)
        return command.error();
    capture.command = std::move(*command);
    auto warnings = captureStrings(json, "warnings", entries);
    if (!warnings)
        return warnings.error();
    capture.warnings = std::move(*warnings);
    auto data = captureData(json);
    if (!data)
        return data.error();
    capture.data = std::move(*data);
    Error error;
    const Json *skipped = captureList(json, "skipped", entries, error);
    if (!skipped)
        return error;
    for (std::size_t i = 0; i < skipped->size(); ++i) {
        auto skip = captureSkip((*skipped)[i], "skipped[" + std::to_string(i) + "]");
        if (!skip)
            return skip.error();
        capture.skipped.push_back(std::move(*skip));
    }
    return {};
}

} // namespace

std::string captureToYaml(const CapturedManifest &capture)
{
    std::string out = captureHeader(capture);
    if (!capture.data.empty()) {
        Json data = Json::object();
        appendMember(data, "data", capture.data);
        out += toYaml(data, 0);
    }
    const std::string resources = captureResources(capture);
    out += resources.empty() ? "ccm:\n  resources: []\n" : "ccm:\n  resources:\n" + resources;
    return out;
}

Json captureToJson(const CapturedManifest &capture)
{
    Json resources = Json::array();
    for (const CapturedResource &resource : capture.resources) {
        Json item = Json::object();
        appendMember(item, "type", resource.type);
        appendMember(item, "name", resource.name);
        appendMember(item, "properties", resource.properties);
        appendMember(item, "comment", resource.comment);
        resources.push_back(std::move(item));
    }
    Json sources = Json::array();
    for (const CapturedSource &source : capture.sources) {
        Json item = Json::object();
        appendMember(item, "path", source.path);
        appendMember(item, "content_base64", encodeBase64(source.content));
        appendMember(item, "private", source.privateContent);
        sources.push_back(std::move(item));
    }
    Json skipped = Json::array();
    for (const CaptureSkip &skip : capture.skipped) {
        Json item = Json::object();
        appendMember(item, "path", skip.path);
        appendMember(item, "kind", skip.kind);
        appendMember(item, "reason", skip.reason);
        skipped.push_back(std::move(item));
    }
    Json out = Json::object();
    appendMember(out, "host", capture.host);
    appendMember(out, "captured_at", capture.capturedAt);
    appendMember(out, "captured_by", capture.capturedBy);
    appendMember(out, "command", capture.command);
    appendMember(out, "data", capture.data);
    appendMember(out, "resources", std::move(resources));
    appendMember(out, "sources", std::move(sources));
    appendMember(out, "skipped", std::move(skipped));
    appendMember(out, "warnings", capture.warnings);
    return out;
}

Result<CapturedManifest> captureFromJson(const Json &json, const CaptureLimits &limits)
{
    if (!json.is_object())
        return badCapture("capture", "expected a map, got " + describeJsonType(json));
    CapturedManifest capture;
    if (auto header = readCaptureHeader(json, limits, capture); !header)
        return header.error();
    if (auto resources = readCaptureResources(json, limits, capture); !resources)
        return resources.error();
    if (auto references = checkCaptureSourceReferences(capture); !references)
        return references.error();
    return capture;
}

} // namespace ccm
