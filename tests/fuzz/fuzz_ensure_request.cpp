// SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as an ensure API request the way `ensure api pipe` does (JSON or YAML, the
// envelope, the one resource checked against its type's schema and rules; nothing is applied):
// nothing may crash, hang or leak. A request that passes names a known type and a resource with a
// non-empty name; one that fails gives an error response that is valid JSON and YAML text.
#include "core/model/ensure_request.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    const auto request = ccm::parseEnsureRequest(text);
    if (request) {
        const ccm::Json &properties = request->properties;
        if (!properties.is_object() || !properties.contains("name") || !properties["name"].is_string()
            || properties["name"].get<std::string>().empty() || request->type.empty())
            std::abort();
        return 0;
    }
    const ccm::Json response = ccm::ensureErrorResponse(request.error().message);
    const std::string json = ccm::formatEnsureResponse(response, false);
    const ccm::Json back = ccm::Json::parse(json, nullptr, false);
    if (back.is_discarded() || back.value("error", std::string()).empty())
        std::abort();
    (void)ccm::formatEnsureResponse(response, true);
    return 0;
}
