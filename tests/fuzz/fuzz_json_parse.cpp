// SPDX-License-Identifier: Apache-2.0
// parseJson (simdjson, with nlohmann's parser for what simdjson refuses) against nlohmann's own
// parser on any text: both accept or both refuse it, and an accepted text gives the same value
// with the same type at every node (a non-negative integer unsigned, a negative one or -0
// signed), so the fast path changes nothing any reader of the product sees. jsonNestingBeyond
// agrees with the depth of what was parsed. Crashes, leaks and a broken check (abort) are bugs.
#include "core/model/json.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

/// The depth of `json`'s deepest container (a scalar has 0).
int depthOf(const ccm::Json &json)
{
    if (!json.is_structured())
        return 0;
    int deepest = 0;
    for (const ccm::Json &item : json)
        deepest = std::max(deepest, depthOf(item));
    return deepest + 1;
}

/// Whether `a` and `b` hold the same values with the same types, members in the same order.
bool sameTree(const ccm::Json &a, const ccm::Json &b)
{
    if (a.type() != b.type())
        return false;
    if (a.is_object()) {
        if (a.size() != b.size())
            return false;
        auto left = a.begin();
        auto right = b.begin();
        for (; left != a.end(); ++left, ++right)
            if (left.key() != right.key() || !sameTree(left.value(), right.value()))
                return false;
        return true;
    }
    if (a.is_array()) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!sameTree(a[i], b[i]))
                return false;
        return true;
    }
    // Floats compare by their bits' meaning: NaN cannot be written in JSON, -0.0 == 0.0 is
    // told apart by the dump.
    return a == b && a.dump() == b.dump();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    // Deep text is left to the nesting check: comparing trees recurses as deep as they go.
    constexpr int kDepth = 200;
    const auto beyond = ccm::jsonNestingBeyond(text, kDepth);
    if (beyond)
        return 0;
    const ccm::Json parsed = ccm::parseJson(text, false);
    const ccm::Json library = ccm::Json::parse(text, nullptr, false);
    if (parsed.is_discarded() != library.is_discarded())
        std::abort();
    if (parsed.is_discarded())
        return 0;
    if (!sameTree(parsed, library) || depthOf(parsed) > kDepth)
        std::abort();
    return 0;
}
