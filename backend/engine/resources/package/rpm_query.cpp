// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/rpm_query.h"

#include "base/text.h"

#include <vector>

namespace ccm::engine {

EpochVersion splitEpoch(std::string_view version)
{
    EpochVersion split;
    split.rest = version;
    const std::size_t colon = version.find(':');
    if (colon == std::string_view::npos || !isAsciiDigits(version.substr(0, colon)))
        return split;
    const std::string_view digits = version.substr(0, colon);
    const std::size_t significant = digits.find_first_not_of('0');
    split.epoch = significant == std::string_view::npos ? "0" : std::string(digits.substr(significant));
    split.rest = version.substr(colon + 1);
    return split;
}

std::optional<PackageState> parseRpmQueryLine(std::string_view line)
{
    std::vector<std::string> fields;
    while (!line.empty()) {
        const std::size_t space = line.find(' ');
        fields.emplace_back(line.substr(0, space));
        line.remove_prefix(space == std::string_view::npos ? line.size() : space + 1);
    }
    if (fields.size() != 5 || !isAsciiDigits(fields[1]) || fields[2].empty() || fields[3].empty())
        return std::nullopt;
    PackageState state;
    state.installed = true;
    state.name = fields[0];
    const std::string epoch = splitEpoch(fields[1] + ":").epoch;
    // Appended rather than one + chain: GCC 12 -O3 reports -Wrestrict on that (GCC bug 105329).
    if (epoch != "0")
        state.version.append(epoch).append(":");
    state.version.append(fields[2]).append("-").append(fields[3]);
    state.arch = fields[4];
    state.extended["epoch"] = fields[1];
    state.extended["release"] = fields[3];
    return state;
}

} // namespace ccm::engine
