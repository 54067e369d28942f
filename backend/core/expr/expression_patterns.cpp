// SPDX-License-Identifier: Apache-2.0
// Regular expressions in expressions: what a pattern may cost before libstdc++ compiles it, and
// what a match may cost before it runs.
#include "core/expr/expression_parser.h"

#include <charconv>
#include <cstdint>
#include <optional>

namespace ccm::expr {

namespace {

constexpr std::size_t kMaxPatternLength = 1024;
constexpr std::size_t kMaxPatternCost = 20000;
constexpr std::size_t kMaxRepeat = 1000;
constexpr std::size_t kMaxGroupDepth = 100;
// Matching costs about one step per automaton state and subject byte; this keeps the worst match
// around a tenth of a second in a release build, while a pattern of a hundred characters still
// matches against the longest subject allowed.
constexpr double kMaxMatchWork = 1e7;

/// The estimated automaton size of one group of the pattern being costed.
struct PatternGroup {
    double total = 0;
    double last = 0;
};

/// Reads the count of a `{n}`, `{n,}` or `{n,m}` repetition starting at `pattern[i]` and grows
/// `group` by the copies of its last operand; on success `i` is past the closing brace.
std::optional<std::string> addRepetitionCost(const std::string &pattern, std::size_t &i, PatternGroup &group)
{
    // libstdc++ reads counts into an int without an overflow check, and copies the
    // repeated operand once per count; outside brackets '{' always starts a count.
    std::size_t j = i + 1;
    const auto number = [&]() -> std::optional<std::size_t> {
        std::optional<std::size_t> value;
        for (; j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9'; ++j)
            value = std::min(value.value_or(0) * 10 + static_cast<std::size_t>(pattern[j] - '0'), kMaxRepeat + 1);
        return value;
    };
    const std::optional<std::size_t> low = number();
    std::optional<std::size_t> high = low;
    if (j < pattern.size() && pattern[j] == ',') {
        ++j;
        high = number();
    }
    if (!low || j >= pattern.size() || pattern[j] != '}')
        return std::string("'{' must be followed by a repetition count such as {2} or {1,3}");
    if (*low > kMaxRepeat || (high && *high > kMaxRepeat))
        return "a repetition count is above " + std::to_string(kMaxRepeat) + ", the largest allowed";
    if (high && *high < *low)
        return "the repetition " + pattern.substr(i, j + 1 - i) + " has a smaller maximum than minimum";
    // "{n,}" repeats n times and loops once more.
    const double copies = static_cast<double>(high.value_or(*low));
    group.total = std::min(group.total + group.last * copies + 2, 1e12);
    i = j + 1;
    return std::nullopt;
}

/// Moves `i` from the '[' of a bracket expression to just past its closing ']'.
void skipBracketExpression(const std::string &pattern, std::size_t &i)
{
    ++i;
    if (i < pattern.size() && pattern[i] == '^')
        ++i;
    while (i < pattern.size() && pattern[i] != ']')
        i += pattern[i] == '\\' ? 2 : 1;
    ++i;
}

/// A rough size of the automaton libstdc++ builds for `pattern`: counted repetitions copy their
/// operand, so `(a{100}){100}` is ten thousand states although it is a short text. Lookahead is
/// refused here too: it makes matching quadratic, and expr-lang's regular expressions have none.
std::optional<std::string> estimatePatternCost(const std::string &pattern, std::size_t &cost)
{
    std::vector<PatternGroup> groups(1);
    const auto atom = [&](double size) {
        groups.back().total += size;
        groups.back().last = size;
    };
    std::size_t i = 0;
    while (i < pattern.size()) {
        const char c = pattern[i];
        if (c == '\\') {
            // Checked here because libstdc++ reads a back-reference's number without an
            // overflow check before it reports that the polynomial matcher cannot use it.
            if (i + 1 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9')
                return std::string("back-references are not supported");
            i += 2;
            atom(1);
        } else if (c == '[') {
            skipBracketExpression(pattern, i);
            atom(1);
        } else if (c == '(') {
            if (pattern.compare(i, 3, "(?=") == 0 || pattern.compare(i, 3, "(?!") == 0)
                return std::string("lookahead is not supported");
            i += pattern.compare(i, 3, "(?:") == 0 ? 3 : 1;
            // libstdc++ compiles and matches nested groups recursively.
            if (groups.size() > kMaxGroupDepth)
                return "groups are nested deeper than " + std::to_string(kMaxGroupDepth) + " levels";
            groups.emplace_back();
        } else if (c == ')') {
            ++i;
            if (groups.size() > 1) {
                const double size = groups.back().total + 2;
                groups.pop_back();
                atom(size);
            }
        } else if (c == '*' || c == '+' || c == '?') {
            ++i;
            groups.back().total += 2;
        } else if (c == '{') {
            if (auto error = addRepetitionCost(pattern, i, groups.back()))
                return error;
        } else {
            ++i;
            atom(1);
        }
    }
    double total = 0;
    for (const PatternGroup &group : groups)
        total += group.total;
    cost = static_cast<std::size_t>(std::max(total, 1.0));
    if (total > static_cast<double>(kMaxPatternCost))
        return std::string("it repeats too much");
    return std::nullopt;
}

std::string describeRegexError(std::regex_constants::error_type code)
{
    switch (code) {
    case std::regex_constants::error_collate:
        return "invalid collating element";
    case std::regex_constants::error_ctype:
        return "invalid character class";
    case std::regex_constants::error_escape:
        return "invalid escape";
    case std::regex_constants::error_backref:
        return "invalid back-reference";
    case std::regex_constants::error_brack:
        return "unbalanced '['";
    case std::regex_constants::error_paren:
        return "unbalanced parentheses";
    case std::regex_constants::error_brace:
        return "unbalanced '{'";
    case std::regex_constants::error_badbrace:
        return "invalid repetition count";
    case std::regex_constants::error_range:
        return "invalid character range";
    case std::regex_constants::error_space:
        return "it is too large";
    case std::regex_constants::error_badrepeat:
        return "a repetition has nothing to repeat";
    case std::regex_constants::error_complexity:
        return "back-references are not supported";
    case std::regex_constants::error_stack:
        return "it needs too much memory";
    default:
        return "it is not a valid regular expression";
    }
}

} // namespace

ExpressionResult<std::shared_ptr<const CompiledPattern>> compilePattern(const std::string &pattern, int column)
{
    const auto invalid = [&](const std::string &why) {
        const std::string shown = pattern.size() > 60 ? pattern.substr(0, 60) + "..." : pattern;
        return ExpressionError {"invalid pattern '" + shown + "': " + why, column};
    };
    if (pattern.size() > kMaxPatternLength)
        return invalid("it is longer than " + std::to_string(kMaxPatternLength) + " bytes");
    auto compiled = std::make_shared<CompiledPattern>();
    if (auto refused = estimatePatternCost(pattern, compiled->cost))
        return invalid(*refused);
    // libstdc++'s default matcher backtracks with one stack frame per subject character, which
    // overflows on long subjects and is exponential on nested repetitions. Its polynomial mode
    // (a Thompson automaton, no back-references) is safe; searching is done as one anchored
    // match of `[\s\S]*(?:pattern)` so that it stays linear in the subject.
    auto flags = std::regex::ECMAScript;
#if defined(__GLIBCXX__)
    flags |= std::regex_constants::__polynomial;
#endif
    try {
        const std::regex alone(pattern, flags);
        compiled->regex = std::regex("[\\s\\S]*(?:" + pattern + ")[\\s\\S]*", flags);
    } catch (const std::regex_error &error) {
        return invalid(describeRegexError(error.code()));
    } catch (const std::exception &) {
        return invalid("it is too large");
    }
    return std::shared_ptr<const CompiledPattern>(std::move(compiled));
}

std::optional<ExpressionError> checkMatchCost(const CompiledPattern &pattern, std::size_t subjectLength, int column)
{
    if (static_cast<double>(pattern.cost) * static_cast<double>(subjectLength + 1) > kMaxMatchWork)
        return ExpressionError {
            "pattern is too complex to match against " + std::to_string(subjectLength) + " bytes", column};
    return std::nullopt;
}

} // namespace ccm::expr
