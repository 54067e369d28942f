// SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary text to the Go template engine with a fixed dot of data, facts and environment:
// parsing and executing may fail but never crash, hang or leak, and executing a parsed template
// twice gives the same outcome.
#include "core/template/go_template.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

const ccm::Json &dot()
{
    static const ccm::Json value = ccm::Json::parse(R"({
        "Data": {"package": "nginx", "port": 80, "ratio": 2.5, "enabled": true, "nothing": null,
                 "users": ["alice", "bob"], "limits": {"cpu": 2, "memory": "1G"}, "empty": []},
        "Facts": {"host": {"info": {"platformFamily": "debian", "hostname": "web1"}}},
        "Environ": {"HOME": "/root", "PATH": "/usr/bin:/bin"}})");
    return value;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    ccm::GoTemplateOptions options;
    // Hostile templates may build large strings; the limit keeps each input cheap.
    options.maxOutputBytes = 1024 * 1024;
    // Nested loops reach the step limit; likewise a smaller one than the product's.
    options.maxSteps = 100'000;
    const ccm::Result<ccm::GoTemplate> parsed = ccm::GoTemplate::parse(text, options);
    if (!parsed)
        return 0;
    const ccm::Result<std::string> first = parsed.value().execute(dot());
    const ccm::Result<std::string> second = parsed.value().execute(dot());
    if (first.ok() != second.ok() || (first.ok() && first.value() != second.value()))
        std::abort();
    return 0;
}
