// SPDX-License-Identifier: Apache-2.0
#include "yaml_reader.h"

#include "utf8.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace ccm {
namespace {

SourcePosition positionOf(const YAML::Mark &mark)
{
    if (mark.is_null() || mark.line < 0)
        return {};
    return SourcePosition{mark.line + 1, mark.column + 1};
}

std::optional<std::int64_t> parseInteger(std::string_view s)
{
    bool negative = false;
    if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    if (s.empty())
        return std::nullopt;
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
        base = 8;
        s.remove_prefix(2);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s.remove_prefix(2);
    } else if (s.size() > 1 && s[0] == '0') {
        base = 8;
        s.remove_prefix(1);
    }
    std::uint64_t magnitude = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude, base);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    constexpr auto maxPositive = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (negative) {
        if (magnitude > maxPositive + 1)
            return std::nullopt;
        return magnitude == maxPositive + 1 ? std::numeric_limits<std::int64_t>::min()
                                            : -static_cast<std::int64_t>(magnitude);
    }
    if (magnitude > maxPositive)
        return std::nullopt;
    return static_cast<std::int64_t>(magnitude);
}

std::optional<double> parseFloat(std::string_view s)
{
    if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF")
        return std::numeric_limits<double>::infinity();
    if (s == "-.inf" || s == "-.Inf" || s == "-.INF")
        return -std::numeric_limits<double>::infinity();
    if (s == ".nan" || s == ".NaN" || s == ".NAN")
        return std::numeric_limits<double>::quiet_NaN();
    // Only decimal notation with digits: rejects "inf", "nan" and hexadecimal floats.
    bool digit = false;
    for (char c : s) {
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-')
            return std::nullopt;
    }
    if (!digit)
        return std::nullopt;
    std::string_view body = s;
    if (!body.empty() && body.front() == '+')
        body.remove_prefix(1);
    double value = 0;
    const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), value);
    if (ec != std::errc() || end != body.data() + body.size())
        return std::nullopt;
    return value;
}

/// yaml-cpp accepts a quoted scalar that runs to the end of the text; a forgotten closing quote
/// would then swallow the rest of the manifest. True when the quote opened at offset is closed.
bool quoteIsClosed(std::string_view text, std::size_t offset)
{
    if (offset >= text.size())
        return true;
    const char quote = text[offset];
    if (quote != '"' && quote != '\'')
        return true;
    for (std::size_t i = offset + 1; i < text.size(); ++i) {
        if (quote == '"' && text[i] == '\\') {
            ++i;
        } else if (text[i] == quote) {
            if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
                ++i;
                continue;
            }
            return true;
        }
    }
    return false;
}

class Converter
{
public:
    Converter(std::string_view text, const YamlLimits &limits, SourceMap &map, Diagnostics &diagnostics)
        : m_text(text)
        , m_limits(limits)
        , m_map(map)
        , m_diagnostics(diagnostics)
    {
    }

    /// False when conversion had to stop (limit reached).
    bool convert(const YAML::Node &node, const std::string &pointer, SourcePosition keyPos, Json &out)
    {
        if (++m_nodes > m_limits.maxNodes) {
            if (!m_limitReported) {
                m_diagnostics.push_back({Severity::Error,
                                         "document has more than " + std::to_string(m_limits.maxNodes)
                                             + " nodes (are aliases expanding without bound?)",
                                         pointer, positionOf(node.Mark())});
                m_limitReported = true;
            }
            return false;
        }
        const SourcePosition valuePos = positionOf(node.Mark());
        m_map.add(pointer, NodeLocation{keyPos, valuePos.known() ? valuePos : keyPos});
        switch (node.Type()) {
        case YAML::NodeType::Undefined:
        case YAML::NodeType::Null:
            out = nullptr;
            return true;
        case YAML::NodeType::Scalar:
            if (node.Tag() == "!" && !node.Mark().is_null() && !quoteIsClosed(m_text, static_cast<std::size_t>(node.Mark().pos))) {
                m_diagnostics.push_back({Severity::Error, "invalid YAML: this quoted string is never closed", pointer, valuePos});
                return false;
            }
            out = scalar(node);
            return true;
        case YAML::NodeType::Sequence: {
            out = Json::array();
            std::size_t index = 0;
            for (const YAML::Node &item : node) {
                Json value;
                const std::string childPointer = appendPointer(pointer, index++);
                if (!convert(item, childPointer, positionOf(item.Mark()), value))
                    return false;
                out.push_back(std::move(value));
            }
            return true;
        }
        case YAML::NodeType::Map: {
            out = Json::object();
            std::unordered_map<std::string, SourcePosition> seen;
            for (const auto &member : node) {
                const SourcePosition memberKeyPos = positionOf(member.first.Mark());
                if (!member.first.IsScalar()) {
                    m_diagnostics.push_back({Severity::Error, "map keys must be plain strings, not "
                                                                  + std::string(member.first.IsMap() ? "maps" : member.first.IsSequence() ? "lists" : "null"),
                                             pointer, memberKeyPos});
                    continue;
                }
                const std::string key = member.first.Scalar();
                const std::string childPointer = appendPointer(pointer, key);
                if (auto [it, inserted] = seen.emplace(key, memberKeyPos); !inserted) {
                    m_diagnostics.push_back({Severity::Error,
                                             "duplicate key '" + key + "' (first defined at line "
                                                 + std::to_string(it->second.line) + ")",
                                             childPointer, memberKeyPos});
                    continue;
                }
                Json value;
                if (!convert(member.second, childPointer, memberKeyPos, value))
                    return false;
                out[key] = std::move(value);
            }
            return true;
        }
        }
        return true;
    }

private:
    static Json scalar(const YAML::Node &node)
    {
        const std::string &tag = node.Tag();
        const std::string &text = node.Scalar();
        if (tag == "!" || tag == "tag:yaml.org,2002:str")
            return text;
        return resolvePlainScalar(text);
    }

    std::string_view m_text;
    const YamlLimits &m_limits;
    SourceMap &m_map;
    Diagnostics &m_diagnostics;
    std::size_t m_nodes = 0;
    bool m_limitReported = false;
};

} // namespace

Json resolvePlainScalar(std::string_view text)
{
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
        return nullptr;
    if (text == "true" || text == "True" || text == "TRUE")
        return true;
    if (text == "false" || text == "False" || text == "FALSE")
        return false;
    const char first = text.front();
    const bool numeric = (first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.';
    if (numeric) {
        if (auto integer = parseInteger(text))
            return *integer;
        if (auto real = parseFloat(text))
            return *real;
    }
    return std::string(text);
}

YamlReadResult readYaml(std::string_view text, const YamlLimits &limits)
{
    YamlReadResult result;
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
        result.diagnostics.push_back({Severity::Error,
                                      "not a text file: it contains a NUL byte at offset " + std::to_string(nul),
                                      "", LineIndex(text).at(nul)});
        return result;
    }
    if (const auto bad = invalidUtf8Offset(text); bad != std::string_view::npos) {
        result.diagnostics.push_back({Severity::Error,
                                      "not a UTF-8 text file: invalid byte at offset " + std::to_string(bad),
                                      "", LineIndex(text).at(bad)});
        return result;
    }

    std::vector<YAML::Node> documents;
    try {
        documents = YAML::LoadAll(std::string(text));
    } catch (const YAML::Exception &e) {
        std::string message = e.msg;
        if (!message.empty())
            message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
        result.diagnostics.push_back({Severity::Error, "invalid YAML: " + message, "", positionOf(e.mark)});
        return result;
    }
    if (documents.empty() || (documents.size() == 1 && documents.front().IsNull())) {
        result.diagnostics.push_back({Severity::Error, "the manifest is empty", "", SourcePosition{1, 1}});
        return result;
    }
    if (documents.size() > 1) {
        result.diagnostics.push_back({Severity::Error,
                                      "the file holds " + std::to_string(documents.size())
                                          + " YAML documents; a manifest is exactly one",
                                      "", positionOf(documents[1].Mark())});
        return result;
    }

    YamlDocument document;
    YamlLimits effective = limits;
    if (effective.maxNodes == 0)
        effective.maxNodes = std::max<std::size_t>(100'000, text.size());
    Converter converter(text, effective, document.sourceMap, result.diagnostics);
    if (!converter.convert(documents.front(), "", positionOf(documents.front().Mark()), document.root))
        return result;
    result.document = std::move(document);
    return result;
}

} // namespace ccm
