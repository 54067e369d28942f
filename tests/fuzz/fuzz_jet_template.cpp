// SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary text to the Jet template engine with a fixed scope of facts, data and
// environment: parsing and rendering may fail but never crash, hang or leak, and rendering a
// parsed template twice gives the same outcome.
#include "core/expr/expression.h"
#include "core/template/jet_template.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

const ccm::StandardScope &scope()
{
    static const ccm::Json facts = ccm::Json::parse(R"({"host": {"info": {"platformFamily": "debian",
        "hostname": "web1"}}})");
    static const ccm::Json data = ccm::Json::parse(R"({"package": "nginx", "port": 80, "ratio": 2.5,
        "enabled": true, "nothing": null, "users": ["alice", "bob"], "limits": {"cpu": 2, "memory": "1G"}})");
    static const ccm::Json environment = ccm::Json::parse(R"({"HOME": "/root"})");
    static const ccm::StandardScope standard(facts, data, environment);
    return standard;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    ccm::JetOptions options;
    // Nested loops reach the step limit; a smaller one than the product's keeps each input cheap
    // under the sanitizers (a step costs some microseconds there).
    options.maxSteps = 100'000;
    const ccm::Result<ccm::JetTemplate> parsed = ccm::JetTemplate::parse(text, options);
    if (!parsed)
        return 0;
    const ccm::Result<std::string> first = parsed.value().render(scope());
    const ccm::Result<std::string> second = parsed.value().render(scope());
    if (first.ok() != second.ok() || (first.ok() && first.value() != second.value()))
        std::abort();
    return 0;
}
