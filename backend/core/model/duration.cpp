// SPDX-License-Identifier: Apache-2.0
#include "core/model/duration.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace ccm {

namespace {

constexpr std::uint64_t kSecondNs = 1'000'000'000;

/// Nanoseconds in one `unit`; 0 for an unknown unit.
std::uint64_t unitNanoseconds(std::string_view unit)
{
    static constexpr std::array<std::pair<std::string_view, std::uint64_t>, 11> units {{
        {"ns", 1},
        {"us", 1'000},
        {"\u00b5s", 1'000},
        {"ms", 1'000'000},
        {"s", kSecondNs},
        {"m", 60 * kSecondNs},
        {"h", 3600 * kSecondNs},
        {"d", 86400 * kSecondNs},
        {"w", 7 * 86400 * kSecondNs},
        {"M", 30 * 86400 * kSecondNs},
        {"y", 365 * 86400 * kSecondNs},
    }};
    std::uint64_t factor = 0;
    for (const auto &[name, value] : units) {
        if (name == unit)
            factor = value;
    }
    return factor;
}

/// `before` + `what` + `after`, built by appending into one string. The same message written as
/// `"'" + std::string(what) + "'..."` trips GCC 12's -Wrestrict false positive at -O3 (GCC bug
/// 105329) and breaks a release build with warnings as errors.
std::string around(std::string_view before, std::string_view what, std::string_view after)
{
    std::string text;
    text.reserve(before.size() + what.size() + after.size());
    text.append(before).append(what).append(after);
    return text;
}

/// The nanoseconds of the digits after a decimal point, in a unit of `factor` nanoseconds. The
/// fraction is exact to the nanosecond: digits beyond what the unit can resolve only round the
/// last one.
std::uint64_t fractionNanoseconds(std::string_view digits, std::uint64_t factor)
{
    std::uint64_t scale = factor;
    std::uint64_t fraction = 0;
    bool roundUp = false;
    for (const char digit : digits) {
        if (scale >= 10) {
            scale /= 10;
            fraction += static_cast<std::uint64_t>(digit - '0') * scale;
        } else if (scale == 1) {
            roundUp = digit >= '5';
            scale = 0;
        }
    }
    return fraction + (roundUp ? 1 : 0);
}

} // namespace

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

    // Whole nanoseconds are counted in integers, as Go does, so that every duration up to the
    // int64 limit reads exactly and no number of digits can overflow a conversion.
    constexpr std::uint64_t limit = std::numeric_limits<std::int64_t>::max();
    const auto tooLong = [&] { return invalid("it is too long"); };
    std::uint64_t total = 0;
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
            return invalid(around("expected a number at '", rest, "'"));
        const std::string_view number = rest.substr(0, i);
        const std::size_t point = number.find('.');
        if (point != number.rfind('.'))
            return invalid(around("'", number, "' has two decimal points"));
        rest.remove_prefix(i);
        std::size_t unitLength = 0;
        while (unitLength < rest.size() && !((rest[unitLength] >= '0' && rest[unitLength] <= '9') || rest[unitLength] == '.'))
            ++unitLength;
        const std::string_view unit = rest.substr(0, unitLength);
        if (unit.empty())
            return invalid(around("the number ", number, " has no unit"));
        const std::uint64_t factor = unitNanoseconds(unit);
        if (factor == 0)
            return invalid(around("unknown unit '", unit, "'"));
        rest.remove_prefix(unitLength);

        std::uint64_t whole = 0;
        for (const char digit : number.substr(0, point)) {
            if (whole > (limit - static_cast<std::uint64_t>(digit - '0')) / 10)
                return tooLong();
            whole = whole * 10 + static_cast<std::uint64_t>(digit - '0');
        }
        if (whole > limit / factor)
            return tooLong();
        std::uint64_t value = whole * factor;
        if (point != std::string_view::npos)
            value += fractionNanoseconds(number.substr(point + 1), factor);
        if (value > limit - total)
            return tooLong();
        total += value;
    }
    return std::chrono::nanoseconds(static_cast<std::int64_t>(total));
}

} // namespace ccm
