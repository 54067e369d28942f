// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/debian_version.h"

#include "base/text.h"

#include <algorithm>

namespace ccm::engine {

namespace {

bool isVersionCharacter(char c, bool allowHyphenAndColon)
{
    return isAsciiDigit(c) || isAsciiLetter(c) || c == '.' || c == '+' || c == '~'
        || (allowHyphenAndColon && (c == '-' || c == ':'));
}

Error invalidVersion(std::string_view text, const std::string &problem)
{
    return Error {"invalid_version", "version '" + std::string(text) + "' is not a Debian version: " + problem};
}

/// The weight of one character in the non-digit part of the comparison: the end of the string
/// and digits weigh 0, '~' less than that, letters their code and everything else more.
int weight(std::string_view text, std::size_t at)
{
    if (at >= text.size())
        return 0;
    const char c = text[at];
    if (isAsciiDigit(c))
        return 0;
    if (isAsciiLetter(c))
        return c;
    if (c == '~')
        return -1;
    return static_cast<unsigned char>(c) + 256;
}

int sign(int value)
{
    return (value > 0) - (value < 0);
}

/// The dpkg comparison of one part (upstream or revision).
int comparePart(std::string_view a, std::string_view b)
{
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() || j < b.size()) {
        while ((i < a.size() && !isAsciiDigit(a[i])) || (j < b.size() && !isAsciiDigit(b[j]))) {
            const int left = weight(a, i);
            const int right = weight(b, j);
            if (left != right)
                return sign(left - right);
            if (i < a.size())
                ++i;
            if (j < b.size())
                ++j;
        }
        while (i < a.size() && a[i] == '0')
            ++i;
        while (j < b.size() && b[j] == '0')
            ++j;
        // Digit runs without their leading zeros: the longer is larger, else the first differing digit.
        int firstDifference = 0;
        while (i < a.size() && isAsciiDigit(a[i]) && j < b.size() && isAsciiDigit(b[j])) {
            if (firstDifference == 0)
                firstDifference = a[i] - b[j];
            ++i;
            ++j;
        }
        if (i < a.size() && isAsciiDigit(a[i]))
            return 1;
        if (j < b.size() && isAsciiDigit(b[j]))
            return -1;
        if (firstDifference != 0)
            return sign(firstDifference);
    }
    return 0;
}

/// Compares two epochs given as digits without leading zeros, whatever their length.
int compareEpochs(const std::string &a, const std::string &b)
{
    if (a.size() != b.size())
        return a.size() < b.size() ? -1 : 1;
    return sign(a.compare(b));
}

} // namespace

Result<DebianVersion> parseDebianVersion(std::string_view text)
{
    if (text.empty())
        return Error {"invalid_version", "an empty version is not a Debian version"};
    DebianVersion version;
    std::string_view rest = text;
    if (const std::size_t colon = rest.find(':'); colon != std::string_view::npos) {
        const std::string_view epoch = rest.substr(0, colon);
        if (epoch.empty())
            return invalidVersion(text, "the epoch before ':' is empty");
        if (!std::all_of(epoch.begin(), epoch.end(), isAsciiDigit))
            return invalidVersion(text, "the epoch '" + std::string(epoch) + "' is not a number");
        const std::size_t significant = epoch.find_first_not_of('0');
        version.epoch = significant == std::string_view::npos ? "0" : std::string(epoch.substr(significant));
        rest.remove_prefix(colon + 1);
    }
    if (const std::size_t hyphen = rest.rfind('-'); hyphen != std::string_view::npos && hyphen + 1 < rest.size()) {
        version.revision = rest.substr(hyphen + 1);
        rest = rest.substr(0, hyphen);
    }
    if (rest.empty())
        return invalidVersion(text, "the upstream version is empty");
    version.upstream = rest;
    for (char c : version.upstream) {
        if (!isVersionCharacter(c, true))
            return invalidVersion(text, std::string("the upstream version contains '") + c + "'");
    }
    for (char c : version.revision) {
        if (!isVersionCharacter(c, false))
            return invalidVersion(text, std::string("the revision contains '") + c + "'");
    }
    return version;
}

Result<int> compareDebianVersions(std::string_view a, std::string_view b)
{
    auto left = parseDebianVersion(a);
    if (!left)
        return left.error();
    auto right = parseDebianVersion(b);
    if (!right)
        return right.error();
    if (const int epoch = compareEpochs(left->epoch, right->epoch); epoch != 0)
        return epoch;
    if (const int upstream = comparePart(left->upstream, right->upstream); upstream != 0)
        return upstream;
    return comparePart(left->revision, right->revision);
}

} // namespace ccm::engine
