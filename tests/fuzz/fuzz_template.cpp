// SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary bytes to the template scanner and resolver: neither may crash, hang or leak,
// and the scanner's segments must always cover the input exactly.
#include "core/template/template_string.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

const ccm::StandardScope &scope()
{
    static const ccm::Json facts = ccm::Json::parse(R"({"host": {"info": {"platformFamily": "debian"}}})");
    static const ccm::Json data = ccm::Json::parse(R"({"package": "nginx", "port": 80, "users": ["a", "b"]})");
    static const ccm::Json environment = ccm::Json::parse(R"({"HOME": "/root"})");
    static const ccm::StandardScope standard(facts, data, environment);
    return standard;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);

    // Text segments hold the input as written and expressions sit between their delimiters, so
    // the segments appear in the input in order without overlapping.
    std::size_t end = 0;
    for (const ccm::TemplateSegment &segment : ccm::scanTemplate(text)) {
        if (segment.offset < end || segment.offset + segment.text.size() > size
            || text.substr(segment.offset, segment.text.size()) != segment.text)
            std::abort();
        end = segment.offset + segment.text.size();
    }

    (void)ccm::resolveTemplate(text, scope(), ccm::TemplateValue::String);
    (void)ccm::resolveTemplate(text, scope(), ccm::TemplateValue::Typed);
    return 0;
}
