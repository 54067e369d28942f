// SPDX-License-Identifier: Apache-2.0
// Feeds gjson paths to queryJson: the first line of the input is the path, the rest a JSON
// document (a fixed one when the rest is not JSON). A path may be refused but never crash, hang
// or leak; an answer prints as JSON, and the same query gives the same answer twice.
#include "core/model/json_query.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

const ccm::Json &fixedDocument()
{
    static const ccm::Json value = ccm::Json::parse(R"({"name": {"first": "Tom", "last": "Anderson"},
        "age": 37, "children": ["Sara", "Alex", "Jack"], "fav.movie": "Deer Hunter", "empty": {}, "none": null,
        "friends": [{"first": "Dale", "last": "Murphy", "age": 44, "nets": ["ig", "fb", "tw"]},
                    {"first": "Roger", "last": "Craig", "age": 68, "nets": ["fb", "tw"]},
                    {"first": "Jane", "last": "Murphy", "age": 47, "nets": ["ig", "tw"], "on": true}],
        "nested": [1, [2], [3, [4, [5]]]], "": ""})");
    return value;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(bytes), size);
    const std::size_t newline = input.find('\n');
    const std::string_view path = input.substr(0, newline);
    ccm::Json parsed;
    if (newline != std::string_view::npos)
        parsed = ccm::Json::parse(input.substr(newline + 1), nullptr, false);
    const ccm::Json &document = newline == std::string_view::npos || parsed.is_discarded() ? fixedDocument() : parsed;

    const auto first = ccm::queryJson(document, path);
    const auto second = ccm::queryJson(document, path);
    if (first.ok() != second.ok())
        std::abort();
    if (!first.ok()) {
        if (first.error().message != second.error().message || first.error().message.empty())
            std::abort();
        return 0;
    }
    if (first.value().has_value() != second.value().has_value())
        std::abort();
    if (first.value()) {
        const std::string text = first.value()->dump(-1, ' ', false, ccm::Json::error_handler_t::replace);
        if (text != second.value()->dump(-1, ' ', false, ccm::Json::error_handler_t::replace))
            std::abort();
    }
    return 0;
}
