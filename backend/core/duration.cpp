// SPDX-License-Identifier: Apache-2.0
#include "duration.h"

#include <array>
#include <cmath>
#include <utility>

namespace ccm {

Result<std::chrono::nanoseconds> parseDuration(std::string_view text)
{
    using namespace std::chrono_literals;
    const auto invalid = [&](const std::string &why) {
        std::string message = "'";
        message.append(text);
        message += "' is not a duration: " + why + " (examples: 30s, 5m, 1h30m, 2d)";
        return Error{"invalid_duration", std::move(message)};
    };
    if (text.empty())
        return invalid("it is empty");
    if (text.front() == '-')
        return invalid("it is negative");
    std::string_view rest = text;
    if (rest.front() == '+')
        rest.remove_prefix(1);
    if (rest == "0")
        return std::chrono::nanoseconds(0);

    static constexpr std::array<std::pair<std::string_view, double>, 11> units{{
        {"ns", 1.0},
        {"us", 1e3},
        {"\u00b5s", 1e3},
        {"ms", 1e6},
        {"s", 1e9},
        {"m", 60e9},
        {"h", 3600e9},
        {"d", 86400e9},
        {"w", 7 * 86400e9},
        {"M", 30 * 86400e9},
        {"y", 365 * 86400e9},
    }};
    double total = 0;
    if (rest.empty())
        return invalid("it has no number");
    while (!rest.empty()) {
        std::size_t i = 0;
        bool digits = false;
        while (i < rest.size() && ((rest[i] >= '0' && rest[i] <= '9') || rest[i] == '.')) {
            digits = digits || rest[i] != '.';
            ++i;
        }
        if (!digits)
            return invalid("expected a number at '" + std::string(rest) + "'");
        const std::string number(rest.substr(0, i));
        if (number.find('.') != number.rfind('.'))
            return invalid("'" + number + "' has two decimal points");
        rest.remove_prefix(i);
        std::size_t unitLength = 0;
        while (unitLength < rest.size() && !((rest[unitLength] >= '0' && rest[unitLength] <= '9') || rest[unitLength] == '.'))
            ++unitLength;
        const std::string_view unit = rest.substr(0, unitLength);
        if (unit.empty())
            return invalid("the number " + number + " has no unit");
        double factor = 0;
        for (const auto &[name, value] : units) {
            if (name == unit)
                factor = value;
        }
        if (factor == 0)
            return invalid("unknown unit '" + std::string(unit) + "'");
        total += std::stod(number) * factor;
        rest.remove_prefix(unitLength);
    }
    if (!std::isfinite(total) || total > 9.2e18)
        return invalid("it is too long");
    return std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(total)));
}

} // namespace ccm
