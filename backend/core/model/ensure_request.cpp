// SPDX-License-Identifier: Apache-2.0
#include "core/model/ensure_request.h"

#include "core/model/manifest.h"
#include "core/model/manifest_writer.h"
#include "core/model/validator.h"
#include "core/yaml/source_map.h"
#include "core/yaml/yaml_reader.h"

#include <algorithm>
#include <array>
#include <exception>

namespace ccm {
namespace {

/// The types CCM v1's request schema lists (not `apply`, which applies a whole manifest).
constexpr std::array<std::string_view, 6> kRequestTypes = {"package", "service", "file", "exec", "archive", "scaffold"};

/// Levels of nesting a JSON request may have; a resource needs a handful.
constexpr int kMaxRequestNesting = 64;

/// Limits for a YAML request, tighter than a manifest's: one resource needs far fewer nodes, and
/// aliases must not let 4 MiB of text grow past what a resource can use.
constexpr YamlLimits kRequestYamlLimits {100'000, 16 * 1024 * 1024, 100'000};

/// The keys of CCM v1's TransactionEvent, the only ones its response schema allows.
constexpr std::array<std::string_view, 22> kUpstreamEventKeys
    = {"protocol", "event_id", "timestamp", "type", "provider", "name", "alias", "requested_ensure", "final_ensure",
        "duration", "properties", "status", "noop_message", "health_check", "health_check_only", "error", "changed",
        "refreshed", "failed", "skipped", "noop", "unmet_requirements"};
constexpr std::array<std::string_view, 3> kUpstreamHealthCheckKeys = {"status", "tries", "output"};

Error requestError(std::string message)
{
    return Error {"invalid_request", std::move(message)};
}

bool looksLikeJson(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n\v\f");
    return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

/// A string for a message: valid UTF-8 whatever the input held (invalid bytes become U+FFFD).
std::string utf8Text(std::string_view text)
{
    const std::string quoted = Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
    return Json::parse(quoted).get<std::string>();
}

Result<Json> parseJsonRequest(std::string_view text)
{
    if (const auto deep = jsonNestingBeyond(text, kMaxRequestNesting)) {
        return requestError("the request is nested deeper than " + std::to_string(kMaxRequestNesting)
            + " levels at byte " + std::to_string(*deep + 1));
    }
    try {
        return parseJson(text);
    } catch (const std::exception &e) {
        std::string_view what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
        if (const auto end = what.find("] "); what.starts_with("[json.exception") && end != std::string_view::npos)
            what.remove_prefix(end + 2);
        return requestError("the request is not valid JSON: " + utf8Text(what));
    }
}

Result<Json> parseYamlRequest(std::string_view text)
{
    YamlReadResult read = readYaml(text, kRequestYamlLimits);
    if (read.document)
        return std::move(read.document->root);
    std::string message = "the request is not valid YAML";
    for (const Diagnostic &diagnostic : read.diagnostics) {
        if (diagnostic.severity != Severity::Error)
            continue;
        if (diagnostic.position.known()) {
            message += " at line " + std::to_string(diagnostic.position.line) + ", column "
                + std::to_string(diagnostic.position.column);
        }
        message += ": " + utf8Text(diagnostic.message);
        break;
    }
    return requestError(std::move(message));
}

std::string jsonQuoted(std::string_view text)
{
    return Json(utf8Text(text)).dump();
}

/// The protocol, type and no other keys than CCM v1's; gives the type.
Result<std::string> checkEnvelope(const Json &request)
{
    const auto protocol = request.find("protocol");
    if (protocol == request.end() || protocol->is_null())
        return requestError("missing protocol in request; expected " + jsonQuoted(kEnsureRequestProtocol));
    if (!protocol->is_string()) {
        return requestError("invalid protocol: " + describeJsonType(*protocol) + " where the string "
            + jsonQuoted(kEnsureRequestProtocol) + " belongs");
    }
    if (protocol->get<std::string>() != kEnsureRequestProtocol) {
        return requestError("invalid protocol " + jsonQuoted(protocol->get<std::string>()) + "; expected "
            + jsonQuoted(kEnsureRequestProtocol));
    }
    for (const auto &[key, value] : request.items()) {
        if (key != "protocol" && key != "type" && key != "properties")
            return requestError(
                "unknown request key " + jsonQuoted(key) + "; a request has protocol, type and properties");
    }
    const auto type = request.find("type");
    if (type == request.end() || type->is_null() || (type->is_string() && type->get<std::string>().empty()))
        return requestError("missing type in request");
    if (!type->is_string())
        return requestError("type must be a string, not " + describeJsonType(*type));
    const std::string name = type->get<std::string>();
    if (std::find(kRequestTypes.begin(), kRequestTypes.end(), name) == kRequestTypes.end()) {
        std::string message = "unknown resource type " + jsonQuoted(name) + "; expected one of";
        std::vector<std::string> candidates;
        for (std::string_view known : kRequestTypes) {
            message += (candidates.empty() ? " " : ", ") + std::string(known);
            candidates.emplace_back(known);
        }
        if (const auto suggestion = closestMatch(name, candidates))
            message += " (did you mean " + jsonQuoted(*suggestion) + "?)";
        return requestError(std::move(message));
    }
    return name;
}

/// A one-resource manifest block from the request's properties, and the pointer in the request
/// of what the block's entries map to.
struct RequestBlock {
    Json entries = Json::array();
    bool singleMap = false;
};

Result<RequestBlock> blockFromProperties(const Json &properties)
{
    RequestBlock block;
    if (properties.is_array()) {
        block.entries = properties;
        return block;
    }
    if (!properties.is_object()) {
        return requestError("properties must be a map of the resource's properties (or a list of one {NAME: {...}} "
                            "entry), not "
            + describeJsonType(properties));
    }
    const auto name = properties.find("name");
    if (name == properties.end() || name->is_null())
        return requestError("/properties/name: missing name in properties");
    if (!name->is_string())
        return requestError("/properties/name: name must be a string, not " + describeJsonType(*name));
    if (name->get<std::string>().empty())
        return requestError("/properties/name: name must not be empty");
    Json body = Json::object();
    for (const auto &[key, value] : properties.items()) {
        if (key != "name")
            appendMember(body, key, value);
    }
    Json entry = Json::object();
    appendMember(entry, name->get<std::string>(), std::move(body));
    block.entries.push_back(std::move(entry));
    block.singleMap = true;
    return block;
}

/// A diagnostic's pointer into the one-resource manifest, as the pointer into the request.
std::string requestPointer(const std::string &pointer, const std::string &type, const RequestBlock &block)
{
    const std::string blockPointer = appendPointer("/ccm/resources/0", type);
    if (!pointer.starts_with(blockPointer))
        return "/properties";
    std::string rest = pointer.substr(blockPointer.size());
    if (block.singleMap) {
        // "/0/NAME/mode" is "/mode" of the map the request gave.
        const std::string entry = appendPointer("/0", block.entries[0].begin().key());
        if (rest == "/0" || rest == entry)
            rest.clear();
        else if (rest.starts_with(entry + "/"))
            rest = rest.substr(entry.size());
    }
    return "/properties" + rest;
}

std::string describeErrors(const Diagnostics &diagnostics, const std::string &type, const RequestBlock &block)
{
    std::string message;
    for (const Diagnostic &diagnostic : diagnostics) {
        if (diagnostic.severity != Severity::Error)
            continue;
        message += message.empty() ? "invalid properties: " : "; ";
        message += requestPointer(diagnostic.path, type, block) + ": " + utf8Text(diagnostic.message);
    }
    return message;
}

/// Checks the one resource of `block` as a manifest's: its schema and rules, with the same
/// messages; gives its properties with `name` first.
Result<Json> checkRequestResource(const std::string &type, const RequestBlock &block)
{
    Json typed = Json::object();
    typed[type] = block.entries;
    Json resources = Json::array();
    resources.push_back(std::move(typed));
    Json ccmSection = Json::object();
    ccmSection["resources"] = std::move(resources);
    Json manifest = Json::object();
    manifest["ccm"] = std::move(ccmSection);
    const LoadedManifest loaded = loadManifest(toYaml(manifest));
    const std::vector<FlatResource> flat = flatten(loaded.manifest);
    const auto countError = [&flat]() {
        if (flat.empty())
            return requestError("no resources found in properties; a request ensures exactly one");
        return requestError("multiple resources found in properties (" + std::to_string(flat.size())
            + "); a request ensures exactly one");
    };
    if (!hasErrors(loaded.diagnostics) && flat.size() != 1)
        return countError();
    const Diagnostics diagnostics = validateManifest(loaded);
    if (hasErrors(diagnostics))
        return requestError(describeErrors(diagnostics, type, block));
    if (flat.size() != 1)
        return countError();
    Json properties = Json::object();
    appendMember(properties, "name", flat.front().name);
    for (const auto &[key, value] : flat.front().properties.items())
        appendMember(properties, key, value);
    return properties;
}

} // namespace

Result<EnsureRequest> parseEnsureRequest(std::string_view text)
{
    if (text.size() > kMaxEnsureRequestBytes) {
        return requestError("the request is " + std::to_string(text.size()) + " bytes, more than the limit of "
            + std::to_string(kMaxEnsureRequestBytes) + " bytes");
    }
    if (text.find_first_not_of(" \t\r\n\v\f") == std::string_view::npos)
        return requestError("the request is empty");
    EnsureRequest request;
    request.encoding = looksLikeJson(text) ? RequestEncoding::JsonText : RequestEncoding::YamlText;
    Result<Json> parsed = request.encoding == RequestEncoding::JsonText ? parseJsonRequest(text) : parseYamlRequest(text);
    if (!parsed)
        return parsed.error();
    const Json &root = parsed.value();
    if (!root.is_object()) {
        return requestError(
            "the request must be a map with protocol, type and properties, not " + describeJsonType(root));
    }
    auto type = checkEnvelope(root);
    if (!type)
        return type.error();
    request.type = std::move(type).value();
    const auto properties = root.find("properties");
    if (properties == root.end() || properties->is_null())
        return requestError("missing properties in request");
    auto block = blockFromProperties(*properties);
    if (!block)
        return block.error();
    auto checked = checkRequestResource(request.type, block.value());
    if (!checked)
        return checked.error();
    request.properties = std::move(checked).value();
    return request;
}

Json upstreamEventJson(const TransactionEvent &event)
{
    const Json full = eventToJson(event);
    Json strict = Json::object();
    for (const auto &[key, value] : full.items()) {
        if (std::find(kUpstreamEventKeys.begin(), kUpstreamEventKeys.end(), key) == kUpstreamEventKeys.end())
            continue;
        if (key != "health_check") {
            appendMember(strict, key, value);
            continue;
        }
        Json checks = Json::array();
        for (const Json &check : value) {
            Json kept = Json::object();
            for (const auto &[checkKey, checkValue] : check.items()) {
                const auto *known
                    = std::find(kUpstreamHealthCheckKeys.begin(), kUpstreamHealthCheckKeys.end(), checkKey);
                if (known != kUpstreamHealthCheckKeys.end())
                    appendMember(kept, checkKey, checkValue);
            }
            checks.push_back(std::move(kept));
        }
        appendMember(strict, key, std::move(checks));
    }
    return strict;
}

Json ensureStateResponse(const TransactionEvent &event)
{
    return Json::object({{"protocol", kEnsureResponseProtocol}, {"state", upstreamEventJson(event)}});
}

Json ensureErrorResponse(std::string_view message)
{
    return Json::object({{"protocol", kEnsureResponseProtocol}, {"error", utf8Text(message)}});
}

std::string formatEnsureResponse(const Json &response, bool yaml)
{
    // Output of commands and providers inside an event may hold any bytes; JSON carries text only.
    std::string json = response.dump(2, ' ', false, Json::error_handler_t::replace);
    if (!yaml)
        return json + '\n';
    std::string text = toYaml(Json::parse(json));
    if (!text.ends_with('\n'))
        text += '\n';
    return text;
}

} // namespace ccm
