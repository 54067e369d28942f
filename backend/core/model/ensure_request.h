// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ccm {

/// The protocols of CCM v1's resource ensure API: one request in, one response out.
inline constexpr std::string_view kEnsureRequestProtocol = "io.choria.ccm.v1.resource.ensure.request";
inline constexpr std::string_view kEnsureResponseProtocol = "io.choria.ccm.v1.resource.ensure.response";

/// Requests larger than this are refused before they are parsed: far more than a resource needs
/// (a file's content inline included), small enough that a request cannot hold the process up.
inline constexpr std::size_t kMaxEnsureRequestBytes = 4 * 1024 * 1024;

/// How a request was written; text that starts with '{' or '[' (after white space) is JSON,
/// anything else YAML, as CCM v1 tells them apart.
enum class RequestEncoding { JsonText, YamlText };

/// A request that parsed and whose resource passed the manifest's schema and rules.
struct EnsureRequest {
    std::string type;
    /// The one resource's properties, `name` included; a list of resources with defaults (the
    /// manifest's form) arrives here flattened.
    Json properties = Json::object();
    RequestEncoding encoding = RequestEncoding::JsonText;
};

/// Parses a resource_ensure_request in JSON or YAML and checks it: the protocol, a known type,
/// exactly one resource in `properties` (a map with `name`, or a manifest-style list of one
/// `{NAME: {...}}` entry with optional `defaults`), and its properties against the type's schema
/// and the rules a manifest's resource obeys. Errors say what is wrong and where (a property's
/// path, "/properties/mode"; a line and column for YAML). Templates are not resolved.
Result<EnsureRequest> parseEnsureRequest(std::string_view text);

/// The event as CCM v1's resource_ensure_response schema allows it, which admits no key it does
/// not name: eventToJson() without this project's extensions (`diff`, `refreshed_by`,
/// `resource`, and any added later).
Json upstreamEventJson(const TransactionEvent &event);

/// `{"protocol": ".response", "state": EVENT}` with the event in upstreamEventJson()'s form.
Json ensureStateResponse(const TransactionEvent &event);
/// `{"protocol": ".response", "error": MESSAGE}`.
Json ensureErrorResponse(std::string_view message);

/// A response as written on the wire: JSON indented by two spaces, or YAML, ending in a newline.
std::string formatEnsureResponse(const Json &response, bool yaml);

} // namespace ccm
