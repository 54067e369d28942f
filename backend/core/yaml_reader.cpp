// SPDX-License-Identifier: Apache-2.0
#include "yaml_reader.h"

#include "utf8.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <vector>

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

/// The value of a plain scalar that is not a string: null, a boolean or a number.
std::optional<Json> typedPlainScalar(std::string_view text)
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
    return std::nullopt;
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

/// A node of a YAML document as the parser reported it. An alias is no node of its own: the
/// collection that holds it lists the anchored node again, as in yaml-cpp's own node graph, so
/// converting expands aliases the same way.
struct RawNode {
    enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };

    Kind kind = Kind::Null;
    bool nonSpecificTag = false; ///< the "!" tag the parser gives quoted scalars
    bool stringTag = false; ///< an explicit !!str
    YAML::Mark mark;
    std::string scalar;
    std::vector<std::uint32_t> children; ///< items; for maps each key followed by its value
};

/// Keeps the first document of a stream as RawNodes and counts the documents. Building yaml-cpp's
/// node graph only to walk it once cost as much as parsing; these nodes are a fraction of it.
class DocumentRecorder : public YAML::EventHandler {
public:
    static constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

    void OnDocumentStart(const YAML::Mark &mark) override
    {
        ++m_documents;
        m_documentStart = mark;
        m_rootMark = YAML::Mark::null_mark();
        m_rootIsNull = true;
        m_depth = 0;
        m_anchors.assign(1, kNoNode);
    }
    void OnDocumentEnd() override { }

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        leaf(RawNode::Kind::Null, mark, anchor, {}, {});
    }
    void OnScalar(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, const std::string &value) override
    {
        leaf(RawNode::Kind::Scalar, mark, anchor, tag, value);
    }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        if (!recording()) {
            noteTopLevel(mark, false);
            return;
        }
        m_hasAliases = true;
        // The parser refuses unknown anchors; a null node keeps a surprise from reading out of bounds.
        if (anchor < m_anchors.size() && m_anchors[anchor] != kNoNode)
            attach(m_anchors[anchor]);
        else
            attach(add(RawNode::Kind::Null, mark, 0, {}));
    }
    void OnSequenceStart(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(RawNode::Kind::Sequence, mark, anchor, tag);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(RawNode::Kind::Map, mark, anchor, tag);
    }
    void OnMapEnd() override { close(); }

    [[nodiscard]] std::size_t documents() const { return m_documents; }
    [[nodiscard]] const YAML::Mark &documentStart() const { return m_documentStart; }
    /// Whether the latest document is empty, and where its root node starts.
    [[nodiscard]] bool rootIsNull() const { return m_rootIsNull; }
    [[nodiscard]] const YAML::Mark &rootMark() const { return m_rootMark; }
    [[nodiscard]] bool hasAliases() const { return m_hasAliases; }
    [[nodiscard]] std::uint32_t firstRoot() const { return m_firstRoot; }
    [[nodiscard]] std::vector<RawNode> &nodes() { return m_nodes; }

private:
    [[nodiscard]] bool recording() const { return m_documents == 1; }

    void noteTopLevel(const YAML::Mark &mark, bool isNull)
    {
        if (m_depth != 0)
            return;
        m_rootMark = mark;
        m_rootIsNull = isNull;
    }

    std::uint32_t add(RawNode::Kind kind, const YAML::Mark &mark, YAML::anchor_t anchor, const std::string &tag)
    {
        const auto index = static_cast<std::uint32_t>(m_nodes.size());
        RawNode &node = m_nodes.emplace_back();
        node.kind = kind;
        node.mark = mark;
        node.nonSpecificTag = tag == "!";
        node.stringTag = tag == "tag:yaml.org,2002:str";
        if (anchor != 0) {
            if (anchor >= m_anchors.size())
                m_anchors.resize(anchor + 1, kNoNode);
            m_anchors[anchor] = index;
        }
        return index;
    }

    void attach(std::uint32_t index)
    {
        if (m_open.empty())
            m_firstRoot = index;
        else
            m_nodes[m_open.back()].children.push_back(index);
    }

    void leaf(RawNode::Kind kind, const YAML::Mark &mark, YAML::anchor_t anchor, const std::string &tag,
        const std::string &value)
    {
        if (!recording()) {
            noteTopLevel(mark, kind == RawNode::Kind::Null);
            return;
        }
        const std::uint32_t index = add(kind, mark, anchor, tag);
        m_nodes[index].scalar = value;
        attach(index);
    }

    void open(RawNode::Kind kind, const YAML::Mark &mark, YAML::anchor_t anchor, const std::string &tag)
    {
        if (recording()) {
            const std::uint32_t index = add(kind, mark, anchor, tag);
            attach(index);
            m_open.push_back(index);
        } else {
            noteTopLevel(mark, false);
        }
        ++m_depth;
    }

    void close()
    {
        --m_depth;
        if (recording() && !m_open.empty())
            m_open.pop_back();
    }

    std::vector<RawNode> m_nodes;
    std::vector<std::uint32_t> m_open;
    std::vector<std::uint32_t> m_anchors;
    std::uint32_t m_firstRoot = kNoNode;
    std::size_t m_documents = 0;
    std::size_t m_depth = 0;
    YAML::Mark m_documentStart;
    YAML::Mark m_rootMark = YAML::Mark::null_mark();
    bool m_rootIsNull = true;
    bool m_hasAliases = false;
};

/// Aliases can nest a node in itself or stack deep chains; converting such a document would
/// recurse without end. The parser already refuses text nested about 500 levels deep.
constexpr int kMaxExpandedDepth = 1000;

/// Maps with more members than this find duplicate keys through a hash index instead of a scan.
constexpr std::size_t kLinearKeySearch = 16;

class Converter
{
public:
    Converter(std::string_view text, const YamlLimits &limits, std::vector<RawNode> &nodes, bool nodesAreShared,
        SourceMap &map, Diagnostics &diagnostics)
        : m_text(text)
        , m_limits(limits)
        , m_nodes(nodes)
        , m_nodesAreShared(nodesAreShared)
        , m_map(map)
        , m_diagnostics(diagnostics)
    {
    }

    /// False when conversion had to stop (limit reached).
    bool convert(std::uint32_t index, SourcePosition keyPos, Json &out, int depth = 0)
    {
        RawNode &node = m_nodes[index];
        if (++m_count > m_limits.maxNodes) {
            if (!m_limitReported) {
                m_diagnostics.push_back({Severity::Error,
                    "document has more than " + std::to_string(m_limits.maxNodes)
                        + " nodes (are aliases expanding without bound?)",
                    m_pointer, positionOf(node.mark)});
                m_limitReported = true;
            }
            return false;
        }
        if (depth > kMaxExpandedDepth) {
            m_diagnostics.push_back({Severity::Error,
                "document nests more than " + std::to_string(kMaxExpandedDepth)
                    + " levels deep once aliases are expanded (does an alias refer to a node "
                      "that holds it?)",
                m_pointer, positionOf(node.mark)});
            return false;
        }
        const SourcePosition valuePos = positionOf(node.mark);
        m_map.add(m_pointer, NodeLocation {keyPos, valuePos.known() ? valuePos : keyPos});
        switch (node.kind) {
        case RawNode::Kind::Null:
            out = nullptr;
            return true;
        case RawNode::Kind::Scalar:
            if (node.nonSpecificTag && !node.mark.is_null()
                && !quoteIsClosed(m_text, static_cast<std::size_t>(node.mark.pos))) {
                m_diagnostics.push_back(
                    {Severity::Error, "invalid YAML: this quoted string is never closed", m_pointer, valuePos});
                return false;
            }
            out = scalar(node);
            return true;
        case RawNode::Kind::Sequence:
            return convertSequence(node, out, depth);
        case RawNode::Kind::Map:
            return convertMap(node, out, depth);
        }
        return true;
    }

private:
    bool convertSequence(const RawNode &node, Json &out, int depth)
    {
        out = Json::array();
        auto &items = out.get_ref<Json::array_t &>();
        items.reserve(node.children.size());
        const std::size_t base = m_pointer.size();
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            const std::uint32_t child = node.children[i];
            m_pointer += '/';
            m_pointer += std::to_string(i);
            if (!convert(child, positionOf(m_nodes[child].mark), items.emplace_back(), depth + 1))
                return false;
            m_pointer.resize(base);
        }
        return true;
    }

    bool convertMap(const RawNode &node, Json &out, int depth)
    {
        out = Json::object();
        // Keys are checked for duplicates here, so members are appended without the ordered map's
        // own linear search, which made large maps quadratic.
        auto &members = static_cast<Json::object_t::Container &>(out.get_ref<Json::object_t &>());
        members.reserve(node.children.size() / 2);
        std::vector<SourcePosition> keyPositions;
        keyPositions.reserve(members.capacity());
        // Views into the keys of members, which never reallocate after the reservation above.
        std::unordered_map<std::string_view, std::size_t> index;
        const auto find = [&](std::string_view key) -> std::optional<std::size_t> {
            if (members.size() <= kLinearKeySearch) {
                for (std::size_t i = 0; i < members.size(); ++i) {
                    if (members[i].first == key)
                        return i;
                }
                return std::nullopt;
            }
            if (index.empty()) {
                for (std::size_t i = 0; i < members.size(); ++i)
                    index.emplace(members[i].first, i);
            }
            const auto it = index.find(key);
            return it == index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
        };

        const std::size_t base = m_pointer.size();
        for (std::size_t i = 0; i + 1 < node.children.size(); i += 2) {
            RawNode &keyNode = m_nodes[node.children[i]];
            const std::uint32_t valueIndex = node.children[i + 1];
            const SourcePosition keyPos = positionOf(keyNode.mark);
            if (keyNode.kind != RawNode::Kind::Scalar) {
                m_diagnostics.push_back({Severity::Error,
                    "map keys must be plain strings, not "
                        + std::string(keyNode.kind == RawNode::Kind::Map  ? "maps"
                                : keyNode.kind == RawNode::Kind::Sequence ? "lists"
                                                                          : "null"),
                    m_pointer, keyPos});
                continue;
            }
            appendPointerToken(m_pointer, keyNode.scalar);
            if (const auto first = find(keyNode.scalar)) {
                m_diagnostics.push_back({Severity::Error,
                    "duplicate key '" + keyNode.scalar + "' (first defined at line "
                        + std::to_string(keyPositions[*first].line) + ")",
                    m_pointer, keyPos});
                m_pointer.resize(base);
                continue;
            }
            auto &member = members.emplace_back(take(keyNode.scalar), nullptr);
            keyPositions.push_back(keyPos);
            if (!index.empty())
                index.emplace(member.first, members.size() - 1);
            if (!convert(valueIndex, keyPos, member.second, depth + 1))
                return false;
            m_pointer.resize(base);
        }
        return true;
    }

    /// A scalar's text, moved out when no alias can lead to the node again.
    std::string take(std::string &text) const { return m_nodesAreShared ? text : std::move(text); }

    Json scalar(RawNode &node) const
    {
        if (node.nonSpecificTag || node.stringTag)
            return take(node.scalar);
        if (auto typed = typedPlainScalar(node.scalar))
            return std::move(*typed);
        return take(node.scalar);
    }

    std::string_view m_text;
    const YamlLimits &m_limits;
    std::vector<RawNode> &m_nodes;
    bool m_nodesAreShared;
    SourceMap &m_map;
    Diagnostics &m_diagnostics;
    std::string m_pointer;
    std::size_t m_count = 0;
    bool m_limitReported = false;
};

} // namespace

Json resolvePlainScalar(std::string_view text)
{
    if (auto typed = typedPlainScalar(text))
        return std::move(*typed);
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

    DocumentRecorder recorder;
    YAML::Mark secondRoot = YAML::Mark::null_mark();
    try {
        std::istringstream stream {std::string(text)};
        YAML::Parser parser(stream);
        std::size_t previousStart = 0;
        while (parser.HandleNextDocument(recorder)) {
            // yaml-cpp 0.7 never consumes a ',' at the top level: it reports an empty document
            // there again and again, so reading all documents would not end.
            const auto start = static_cast<std::size_t>(recorder.documentStart().pos);
            if (recorder.documents() > 1 && recorder.rootIsNull() && start == previousStart) {
                const bool comma = start < text.size() && text[start] == ',';
                result.diagnostics.push_back(
                    {Severity::Error, std::string("invalid YAML: unexpected ") + (comma ? "','" : "text"), "",
                        positionOf(recorder.documentStart())});
                return result;
            }
            previousStart = start;
            if (recorder.documents() == 2)
                secondRoot = recorder.rootMark();
        }
    } catch (const YAML::Exception &e) {
        std::string message = e.msg;
        if (!message.empty())
            message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
        result.diagnostics.push_back({Severity::Error, "invalid YAML: " + message, "", positionOf(e.mark)});
        return result;
    }
    std::vector<RawNode> &nodes = recorder.nodes();
    const std::uint32_t root = recorder.firstRoot();
    const bool rootIsNull = root == DocumentRecorder::kNoNode || nodes[root].kind == RawNode::Kind::Null;
    if (recorder.documents() == 0 || (recorder.documents() == 1 && rootIsNull)) {
        result.diagnostics.push_back({Severity::Error, "the manifest is empty", "", SourcePosition{1, 1}});
        return result;
    }
    if (recorder.documents() > 1) {
        result.diagnostics.push_back({Severity::Error,
            "the file holds " + std::to_string(recorder.documents()) + " YAML documents; a manifest is exactly one", "",
            positionOf(secondRoot)});
        return result;
    }

    YamlDocument document;
    YamlLimits effective = limits;
    if (effective.maxNodes == 0)
        effective.maxNodes = std::max<std::size_t>(100'000, text.size());
    Converter converter(text, effective, nodes, recorder.hasAliases(), document.sourceMap, result.diagnostics);
    if (!converter.convert(root, positionOf(nodes[root].mark), document.root))
        return result;
    result.document = std::move(document);
    return result;
}

} // namespace ccm
