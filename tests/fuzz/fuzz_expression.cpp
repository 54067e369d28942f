// SPDX-License-Identifier: Apache-2.0
// Any bytes are an expression to parse; whatever parses is evaluated against fixed facts and data
// and printed. Errors are expected, crashes, hangs, leaks and undefined behaviour are bugs. The
// same bytes also go through lookupPath as a path.
#include "core/expr/expression.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

const ccm::Json &fixedFacts()
{
    static const ccm::Json value = ccm::Json::parse(R"({
        "os": {"family": "debian", "release": 12},
        "hostname": "web1",
        "cpus": 4,
        "interfaces": [{"name": "eth0", "ip": "10.0.0.1"}, {"name": "lo"}],
        "largest": 18446744073709551615,
        "smallest": -9223372036854775808,
        "ratio": 0.5
    })");
    return value;
}

const ccm::Json &fixedData()
{
    static const ccm::Json value = ccm::Json::parse(R"({
        "port": 8080,
        "packages": ["nginx", "curl", "git"],
        "empty": null,
        "name": "web",
        "text": "h\u00e9llo w\u00f6rld",
        "dotted.key": true,
        "nested": {"a": {"b": {"c": [1, 2.5, {"d": "e"}]}}},
        "pattern": "^w[a-z]+$"
    })");
    return value;
}

const ccm::Json &fixedEnviron()
{
    static const ccm::Json value = ccm::Json::parse(R"({"HOME": "/root", "PATH": "/usr/bin:/bin"})");
    return value;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    (void)ccm::lookupPath(fixedData(), text);
    const auto expression = ccm::Expression::parse(text);
    if (!expression) {
        (void)expression.error().describe();
        return 0;
    }
    const ccm::StandardScope scope(fixedFacts(), fixedData(), fixedEnviron());
    const auto value = expression->evaluate(scope);
    if (value)
        (void)ccm::formatValue(value.value());
    else
        (void)value.error().toError();
    return 0;
}
