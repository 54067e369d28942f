// SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as an ensure API request the way `ensure api pipe` does (JSON or YAML, the
// envelope, the one resource checked against its type's schema and rules; nothing is applied):
// nothing may crash, hang or leak, and:
// - a request is read as JSON exactly when its first non-blank character is '{' or '[';
// - a request that passes names a known type and a resource with a non-empty name, and written
//   again as a JSON request and as a YAML request (with its checked properties) it passes again
//   with the same type and properties;
// - one that fails is "invalid_request" and gives an error response that reads back, as the JSON
//   and as the YAML `ensure api pipe --yaml` writes, with the protocol and the same message.
#include "core/model/ensure_request.h"
#include "core/model/manifest_writer.h"
#include "core/yaml/yaml_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void require(bool condition)
{
    if (!condition)
        std::abort();
}

bool startsAsJson(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n\v\f");
    return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

/// The accepted request, written again in each encoding, passes to the same resource.
void checkAccepted(const ccm::EnsureRequest &request)
{
    const ccm::Json &properties = request.properties;
    require(properties.is_object() && properties.contains("name") && properties["name"].is_string()
        && !properties["name"].get<std::string>().empty() && !request.type.empty());
    ccm::Json again = ccm::Json::object();
    again["protocol"] = std::string(ccm::kEnsureRequestProtocol);
    again["type"] = request.type;
    again["properties"] = properties;
    const auto fromJson = ccm::parseEnsureRequest(again.dump());
    require(fromJson.ok() && fromJson->encoding == ccm::RequestEncoding::JsonText);
    require(fromJson->type == request.type && fromJson->properties == properties);
    const std::string yaml = ccm::toYaml(again);
    if (startsAsJson(yaml))
        return; // a document the writer starts with a flow collection is JSON to the pipe
    const auto fromYaml = ccm::parseEnsureRequest(yaml);
    require(fromYaml.ok() && fromYaml->encoding == ccm::RequestEncoding::YamlText);
    require(fromYaml->type == request.type && fromYaml->properties == properties);
}

/// The error response reads back in both encodings with the message it was given.
void checkRefused(const ccm::Error &error)
{
    require(error.code == "invalid_request" && !error.message.empty());
    const ccm::Json response = ccm::ensureErrorResponse(error.message);
    const ccm::Json back = ccm::Json::parse(ccm::formatEnsureResponse(response, false), nullptr, false);
    require(!back.is_discarded() && back.value("protocol", std::string()) == ccm::kEnsureResponseProtocol);
    const std::string message = back.value("error", std::string());
    require(!message.empty());
    const ccm::YamlReadResult yaml = ccm::readYaml(ccm::formatEnsureResponse(response, true));
    require(yaml.document && yaml.document->root.is_object());
    const ccm::Json &root = yaml.document->root;
    require(root.contains("error") && root["error"].is_string() && root["error"].get<std::string>() == message);
    require(root.contains("protocol") && root["protocol"] == back["protocol"]);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    const auto request = ccm::parseEnsureRequest(text);
    if (!request) {
        checkRefused(request.error());
        return 0;
    }
    require(
        request->encoding == (startsAsJson(text) ? ccm::RequestEncoding::JsonText : ccm::RequestEncoding::YamlText));
    checkAccepted(*request);
    return 0;
}
