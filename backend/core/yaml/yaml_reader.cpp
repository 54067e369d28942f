// SPDX-License-Identifier: Apache-2.0
#include "core/yaml/yaml_reader.h"

#include "base/text.h"
#include "base/utf8.h"
#include "core/yaml/yaml_block_parser.h"
#include "core/yaml/yaml_mistakes.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <istream>
#include <limits>
#include <optional>
#include <streambuf>
#include <string>
#include <unordered_map>
#include <vector>

namespace ccm {
namespace {

SourcePosition positionOf(const YAML::Mark &mark)
{
    if (mark.is_null() || mark.line < 0)
        return {};
    return SourcePosition {mark.line + 1, mark.column + 1};
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
    return (quote != '"' && quote != '\'') || closingYamlQuote(text, offset) != std::string_view::npos;
}

/// Where an outermost flow collection goes past its item limit, and where it starts.
struct FlowOverrun {
    std::size_t start;
    std::size_t offset;
};

/// yaml-cpp keeps every token of a flow collection ([...] or {...}) that starts a block node until
/// the collection ends, since it might turn out to be a key; at about a hundred bytes a token, a
/// 16 MiB flow list took gigabytes before its first node reached the recorder. This finds, before
/// parsing, the item of an outermost flow collection past `maxItems` (commas and nested
/// collections count). It skips what can hold brackets and commas without opening a collection:
/// comments, quoted scalars, block scalars and plain scalars that merely contain a bracket.
/// The offset of the line break that ends the line holding `i`, or the text's end.
std::size_t lineEnd(std::string_view text, std::size_t i)
{
    while (i < text.size() && text[i] != '\n')
        ++i;
    return i;
}

/// The offset after the quoted scalar that opens at `i`, or the text's end when it is not closed.
std::size_t skipQuotedScalar(std::string_view text, std::size_t i)
{
    const std::size_t n = text.size();
    const char quote = text[i++];
    while (i < n) {
        if (quote == '"' && text[i] == '\\') {
            i += 2;
        } else if (text[i] != quote) {
            ++i;
        } else if (quote == '\'' && i + 1 < n && text[i + 1] == '\'') {
            i += 2;
        } else {
            return i + 1;
        }
    }
    return i;
}

/// The end of the block scalar whose indicator line holds `i`: its lines are blank or indented
/// deeper than `lineIndent`, the indent of the line that opens it.
std::size_t skipBlockScalar(std::string_view text, std::size_t i, std::size_t lineIndent)
{
    const std::size_t n = text.size();
    i = lineEnd(text, i);
    while (i < n) {
        std::size_t next = i + 1;
        std::size_t indent = 0;
        while (next < n && text[next] == ' ') {
            ++next;
            ++indent;
        }
        if (next < n && text[next] != '\n' && text[next] != '\r' && indent <= lineIndent)
            break;
        i = lineEnd(text, next);
    }
    return i;
}

/// Whether a token ends before `at`: the text ends there or a blank or line break follows.
bool endsToken(std::string_view text, std::size_t at)
{
    return at >= text.size() || isInlineBlank(text[at]) || text[at] == '\n';
}

/// Steps over one character or quoted scalar inside a flow collection `depth` levels deep that
/// opened at `start`, counting its items; reports the overrun once they pass `maxItems`.
std::optional<FlowOverrun> stepInsideFlow(std::string_view text, std::size_t &i, std::size_t &depth, std::size_t &items,
    std::size_t start, std::size_t maxItems)
{
    const char c = text[i];
    const char before = i == 0 ? '\n' : text[i - 1];
    const bool afterBlank = i == 0 || isInlineBlank(before) || before == '\n';
    if ((c == '"' || c == '\'') && (afterBlank || before == '[' || before == '{' || before == ',' || before == ':')) {
        i = skipQuotedScalar(text, i);
        return std::nullopt;
    }
    if (c == ']' || c == '}') {
        --depth;
    } else if (c == ',' || c == '[' || c == '{') {
        depth += c == ',' ? 0 : 1;
        if (++items > maxItems)
            return FlowOverrun {start, i};
    }
    ++i;
    return std::nullopt;
}

/// Steps over the token where a node may begin, at `i` outside any flow collection. Returns true,
/// without moving, when that token opens a flow collection; clears `nodeStart` once the node's
/// content has begun.
bool stepAtNodeStart(std::string_view text, std::size_t &i, std::size_t lineIndent, bool &nodeStart)
{
    const char c = text[i];
    if (c == '[' || c == '{') {
        nodeStart = false;
        return true;
    }
    if (c == '"' || c == '\'') {
        i = skipQuotedScalar(text, i);
        nodeStart = false;
    } else if (c == '|' || c == '>') {
        i = skipBlockScalar(text, i, lineIndent);
    } else if (c == '&' || c == '!') {
        while (!endsToken(text, i))
            ++i;
    } else if ((c == '-' || c == '?' || c == ':') && endsToken(text, i + 1)) {
        ++i;
    } else {
        nodeStart = false;
        ++i;
    }
    return false;
}

std::optional<FlowOverrun> findFlowOverrun(std::string_view text, std::size_t maxItems)
{
    const std::size_t n = text.size();
    std::size_t i = 0;

    std::size_t lineIndent = 0;
    bool lineStart = true;
    bool nodeStart = true; ///< a node may begin here: at a line's start, after "key: ", "- ", "? " or a property
    std::size_t depth = 0;
    std::size_t items = 0;
    std::size_t start = 0;
    while (i < n) {
        const char c = text[i];
        if (c == '\n') {
            ++i;
            lineStart = depth == 0;
            lineIndent = 0;
            nodeStart = depth == 0;
            continue;
        }
        if (isInlineBlank(c)) {
            if (lineStart && c == ' ')
                ++lineIndent;
            ++i;
            continue;
        }
        lineStart = false;
        if (c == '#' && (i == 0 || isInlineBlank(text[i - 1]) || text[i - 1] == '\n')) {
            i = lineEnd(text, i);
            continue;
        }
        if (depth > 0) {
            if (auto overrun = stepInsideFlow(text, i, depth, items, start, maxItems))
                return overrun;
            continue;
        }
        if (!nodeStart) {
            if ((c == ':' || c == '-' || c == '?') && endsToken(text, i + 1))
                nodeStart = true;
            ++i;
            continue;
        }
        if (stepAtNodeStart(text, i, lineIndent, nodeStart)) {
            depth = 1;
            items = 0;
            start = i++;
        }
    }
    return std::nullopt;
}

/// A node of a YAML document as the parser reported it. An alias is no node of its own: the
/// collection that holds it lists the anchored node again, as in yaml-cpp's own node graph, so
/// converting expands aliases the same way. Scalar values and child lists live in shared buffers
/// of the DocumentRecorder: a document holds up to YamlLimits::maxNodes of these, and a string and
/// a vector in each cost more than the node itself.
struct RawNode {
    enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };

    Kind kind = Kind::Null;
    bool nonSpecificTag = false; ///< the "!" tag the parser gives quoted scalars
    bool stringTag = false; ///< an explicit !!str
    YAML::Mark mark;
    std::uint32_t scalarOffset = 0; ///< in DocumentRecorder::scalars()
    std::uint32_t scalarSize = 0;
    std::uint32_t firstChild = 0; ///< in DocumentRecorder::children()
    std::uint32_t childCount = 0; ///< items; for maps each key followed by its value
};

/// Thrown by DocumentRecorder to stop the parser where a limit is reached; readYaml() turns it
/// into a diagnostic, so it never leaves this file.
struct LimitReached {
    YAML::Mark mark;
    std::string message;
};

/// Keeps the first document of a stream as RawNodes and counts the documents. Building yaml-cpp's
/// node graph only to walk it once cost as much as parsing; these nodes are a fraction of it.
/// Nodes are counted as they are parsed, an alias as many times as the node it repeats holds,
/// so neither a long text nor an alias bomb can build more than the limit allows.
class DocumentRecorder : public YAML::EventHandler {
public:
    static constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

    DocumentRecorder(std::size_t maxNodes, std::size_t maxScalarBytes)
        : m_maxNodes(maxNodes)
        , m_maxScalarBytes(maxScalarBytes)
    {
    }

    void OnDocumentStart(const YAML::Mark &mark) override
    {
        ++m_documents;
        m_documentStart = mark;
        m_rootMark = YAML::Mark::null_mark();
        m_rootIsNull = true;
        m_depth = 0;
        m_anchors.assign(1, Anchor {});
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
        // The parser refuses unknown anchors; a null node keeps a surprise from reading out of bounds.
        if (anchor >= m_anchors.size() || m_anchors[anchor].node == kNoNode) {
            attach(add(RawNode::Kind::Null, mark, 0, {}));
            return;
        }
        const Anchor &target = m_anchors[anchor];
        if (target.expandedNodes == 0)
            throw LimitReached {mark,
                "this alias refers to a node that holds it, which would nest without end; anchor a node "
                "outside the alias instead"};
        count(target.expandedNodes, mark);
        countBytes(target.expandedBytes, mark);
        m_expandedKeys += target.expandedKeys;
        attach(target.node);
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
    [[nodiscard]] std::uint32_t firstRoot() const { return m_firstRoot; }
    /// Nodes of the first document that are not map keys, aliases expanded: what the source map
    /// will hold.
    [[nodiscard]] std::size_t expandedValues() const { return m_expanded - m_expandedKeys; }
    [[nodiscard]] const std::vector<RawNode> &nodes() const { return m_nodes; }
    [[nodiscard]] std::string_view scalarOf(const RawNode &node) const
    {
        return std::string_view(m_scalars).substr(node.scalarOffset, node.scalarSize);
    }
    [[nodiscard]] std::uint32_t child(const RawNode &node, std::size_t i) const
    {
        return m_children[node.firstChild + i];
    }

private:
    /// An anchored node and how many nodes it holds, itself included; 0 while it is still open.
    struct Anchor {
        std::uint32_t node = kNoNode;
        std::size_t expandedNodes = 0;
        std::size_t expandedKeys = 0; ///< of those, map keys
        std::size_t expandedBytes = 0; ///< of scalar text, what it holds repeats included
    };
    /// A collection whose end has not come yet.
    struct OpenNode {
        std::uint32_t node;
        std::size_t firstPending; ///< its first child in m_pending
        std::size_t expandedBefore; ///< m_expanded before the collection itself was counted
        std::size_t keysBefore; ///< m_expandedKeys then
        std::size_t bytesBefore; ///< m_expandedBytes then
        YAML::anchor_t anchor;
    };

    [[nodiscard]] bool recording() const { return m_documents == 1; }

    void noteTopLevel(const YAML::Mark &mark, bool isNull)
    {
        if (m_depth != 0)
            return;
        m_rootMark = mark;
        m_rootIsNull = isNull;
    }

    void count(std::size_t nodes, const YAML::Mark &mark)
    {
        if (nodes > m_maxNodes - m_expanded)
            throw LimitReached {mark,
                "the document has more than " + std::to_string(m_maxNodes)
                    + " nodes (map keys and what aliases repeat included) by this point; split it into smaller "
                      "manifests (an apply resource runs another manifest) or repeat fewer and smaller anchors"};
        m_expanded += nodes;
    }

    /// The node budget does not bound what an alias to a long scalar repeats: a 4 MiB scalar
    /// repeated 2,000 times is 8 GiB of strings in a few thousand nodes.
    void countBytes(std::size_t bytes, const YAML::Mark &mark)
    {
        if (bytes > m_maxScalarBytes - m_expandedBytes)
            throw LimitReached {mark,
                "the document's strings (map keys and what aliases repeat included) hold more than "
                    + std::to_string(m_maxScalarBytes / (1024 * 1024))
                    + " MiB by this point; repeat fewer and shorter anchored values"};
        m_expandedBytes += bytes;
    }

    std::uint32_t add(RawNode::Kind kind, const YAML::Mark &mark, YAML::anchor_t anchor, const std::string &tag)
    {
        count(1, mark);
        const auto index = static_cast<std::uint32_t>(m_nodes.size());
        RawNode &node = m_nodes.emplace_back();
        node.kind = kind;
        node.mark = mark;
        node.nonSpecificTag = tag == "!";
        node.stringTag = tag == "tag:yaml.org,2002:str";
        if (anchor != 0) {
            if (anchor >= m_anchors.size())
                m_anchors.resize(anchor + 1);
            m_anchors[anchor] = Anchor {index, 0, 0};
        }
        return index;
    }

    void attach(std::uint32_t index)
    {
        if (m_open.empty()) {
            m_firstRoot = index;
            return;
        }
        const OpenNode &parent = m_open.back();
        if (m_nodes[parent.node].kind == RawNode::Kind::Map && (m_pending.size() - parent.firstPending) % 2 == 0)
            ++m_expandedKeys;
        m_pending.push_back(index);
    }

    void leaf(RawNode::Kind kind, const YAML::Mark &mark, YAML::anchor_t anchor, const std::string &tag,
        const std::string &value)
    {
        if (!recording()) {
            noteTopLevel(mark, kind == RawNode::Kind::Null);
            return;
        }
        // Offsets are 32 bits wide; a text of 4 GiB is far past every caller's size limit.
        if (value.size() > std::numeric_limits<std::uint32_t>::max() - m_scalars.size())
            throw LimitReached {mark, "the document's scalars hold more than 4 GiB of text"};
        countBytes(value.size(), mark);
        const std::uint32_t index = add(kind, mark, anchor, tag);
        m_nodes[index].scalarOffset = static_cast<std::uint32_t>(m_scalars.size());
        m_nodes[index].scalarSize = static_cast<std::uint32_t>(value.size());
        m_scalars += value;
        if (anchor != 0) {
            m_anchors[anchor].expandedNodes = 1;
            m_anchors[anchor].expandedBytes = value.size();
        }
        attach(index);
    }

    void open(RawNode::Kind kind, const YAML::Mark &mark, YAML::anchor_t anchor, const std::string &tag)
    {
        if (recording()) {
            const std::size_t before = m_expanded;
            const std::size_t keysBefore = m_expandedKeys;
            const std::size_t bytesBefore = m_expandedBytes;
            const std::uint32_t index = add(kind, mark, anchor, tag);
            attach(index);
            m_open.push_back(OpenNode {index, m_pending.size(), before, keysBefore, bytesBefore, anchor});
        } else {
            noteTopLevel(mark, false);
        }
        ++m_depth;
    }

    void close()
    {
        --m_depth;
        if (!recording() || m_open.empty())
            return;
        const OpenNode open = m_open.back();
        m_open.pop_back();
        RawNode &node = m_nodes[open.node];
        node.firstChild = static_cast<std::uint32_t>(m_children.size());
        node.childCount = static_cast<std::uint32_t>(m_pending.size() - open.firstPending);
        const auto first = m_pending.begin() + static_cast<std::ptrdiff_t>(open.firstPending);
        m_children.insert(m_children.end(), first, m_pending.end());
        m_pending.erase(first, m_pending.end());
        if (open.anchor != 0) {
            m_anchors[open.anchor].expandedNodes = m_expanded - open.expandedBefore;
            m_anchors[open.anchor].expandedKeys = m_expandedKeys - open.keysBefore;
            m_anchors[open.anchor].expandedBytes = m_expandedBytes - open.bytesBefore;
        }
    }

    std::size_t m_maxNodes;
    std::size_t m_maxScalarBytes;
    std::size_t m_expanded = 0; ///< nodes of the first document so far, aliases expanded
    std::size_t m_expandedKeys = 0; ///< of those, map keys
    std::size_t m_expandedBytes = 0; ///< scalar text of those
    std::vector<RawNode> m_nodes;
    std::string m_scalars;
    /// Children of closed collections, each collection's in one run.
    std::vector<std::uint32_t> m_children;
    /// Children of the open collections, innermost last, until their collection closes.
    std::vector<std::uint32_t> m_pending;
    std::vector<OpenNode> m_open;
    std::vector<Anchor> m_anchors;
    std::uint32_t m_firstRoot = kNoNode;
    std::size_t m_documents = 0;
    std::size_t m_depth = 0;
    YAML::Mark m_documentStart;
    YAML::Mark m_rootMark = YAML::Mark::null_mark();
    bool m_rootIsNull = true;
};

/// A read-only stream over text the caller keeps, so the parser reads the text in place instead
/// of from a copy (a 16 MiB manifest would otherwise be held three times).
class TextBuffer : public std::streambuf {
public:
    explicit TextBuffer(std::string_view text)
    {
        // The get area is only read: putting back a different character fails instead of writing.
        char *begin = const_cast<char *>(text.data());
        setg(begin, begin, begin + text.size());
    }
};

/// Aliases can nest a node in itself or stack deep chains; converting such a document would
/// recurse without end. The parser already refuses text nested about 500 levels deep.
constexpr int kMaxExpandedDepth = 1000;

/// Maps with more members than this find duplicate keys through a hash index instead of a scan.
constexpr std::size_t kLinearDuplicateSearch = 16;

class Converter {
public:
    Converter(std::string_view text, const DocumentRecorder &recorder, SourceMap &map, Diagnostics &diagnostics)
        : m_text(text)
        , m_recorder(recorder)
        , m_nodes(recorder.nodes())
        , m_map(map)
        , m_diagnostics(diagnostics)
    {
    }

    /// Converts the root node. False when conversion had to stop.
    bool convertRoot(std::uint32_t index, Json &out)
    {
        const SourcePosition position = positionOf(m_nodes[index].mark);
        return convert(index, m_map.addRoot(NodeLocation {position, position}), out, 0);
    }

private:
    /// The location a node has in the source map: its key's position and its own.
    NodeLocation locationOf(const RawNode &node, SourcePosition keyPos) const
    {
        const SourcePosition valuePos = positionOf(node.mark);
        return NodeLocation {keyPos, valuePos.known() ? valuePos : keyPos};
    }

    /// Converts the node the source map already holds as `entry`. The recorder has already
    /// bounded the number of nodes; pointers are only built for diagnostics, since building one
    /// for every node costs the depth times the length of the keys above it.
    bool convert(std::uint32_t index, SourceMap::EntryId entry, Json &out, int depth)
    {
        const RawNode &node = m_nodes[index];
        if (depth > kMaxExpandedDepth) {
            m_diagnostics.push_back({Severity::Error,
                "document nests more than " + std::to_string(kMaxExpandedDepth)
                    + " levels deep once aliases are expanded; refer to an anchor in fewer steps",
                m_map.pointerOf(entry), positionOf(node.mark)});
            return false;
        }
        const SourcePosition valuePos = positionOf(node.mark);
        switch (node.kind) {
        case RawNode::Kind::Null:
            out = nullptr;
            return true;
        case RawNode::Kind::Scalar:
            if (node.nonSpecificTag && !node.mark.is_null()
                && !quoteIsClosed(m_text, static_cast<std::size_t>(node.mark.pos))) {
                m_diagnostics.push_back({Severity::Error, "invalid YAML: this quoted string is never closed",
                    m_map.pointerOf(entry), valuePos});
                return false;
            }
            out = scalar(node);
            return true;
        case RawNode::Kind::Sequence:
            return convertSequence(node, entry, out, depth);
        case RawNode::Kind::Map:
            return convertMap(node, entry, out, depth);
        }
        return true;
    }

    bool convertSequence(const RawNode &node, SourceMap::EntryId entry, Json &out, int depth)
    {
        out = Json::array();
        auto &items = out.get_ref<Json::array_t &>();
        items.reserve(node.childCount);
        for (std::size_t i = 0; i < node.childCount; ++i) {
            const std::uint32_t child = m_recorder.child(node, i);
            const RawNode &item = m_nodes[child];
            const SourceMap::EntryId itemEntry = m_map.addItem(entry, i, locationOf(item, positionOf(item.mark)));
            if (!convert(child, itemEntry, items.emplace_back(), depth + 1))
                return false;
        }
        return true;
    }

    bool convertMap(const RawNode &node, SourceMap::EntryId entry, Json &out, int depth)
    {
        out = Json::object();
        // Keys are checked for duplicates here, so members are appended without the ordered map's
        // own linear search, which made large maps quadratic.
        auto &members = static_cast<Json::object_t::Container &>(out.get_ref<Json::object_t &>());
        members.reserve(node.childCount / 2);
        std::vector<SourcePosition> keyPositions;
        keyPositions.reserve(members.capacity());
        // Views into the keys of members, which never reallocate after the reservation above.
        std::unordered_map<std::string_view, std::size_t> index;
        const auto find = [&](std::string_view key) -> std::optional<std::size_t> {
            if (members.size() <= kLinearDuplicateSearch) {
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

        for (std::size_t i = 0; i + 1 < node.childCount; i += 2) {
            const RawNode &keyNode = m_nodes[m_recorder.child(node, i)];
            const std::uint32_t valueIndex = m_recorder.child(node, i + 1);
            const SourcePosition keyPos = positionOf(keyNode.mark);
            if (keyNode.kind != RawNode::Kind::Scalar) {
                m_diagnostics.push_back({Severity::Error,
                    "map keys must be plain strings, not "
                        + std::string(keyNode.kind == RawNode::Kind::Map  ? "maps"
                                : keyNode.kind == RawNode::Kind::Sequence ? "lists"
                                                                          : "null"),
                    m_map.pointerOf(entry), keyPos});
                continue;
            }
            const std::string_view key = m_recorder.scalarOf(keyNode);
            if (const auto first = find(key)) {
                m_diagnostics.push_back({Severity::Error,
                    "duplicate key '" + std::string(key) + "' (first defined at line "
                        + std::to_string(keyPositions[*first].line) + ")",
                    appendPointer(m_map.pointerOf(entry), key), keyPos});
                continue;
            }
            auto &member = members.emplace_back(std::string(key), nullptr);
            keyPositions.push_back(keyPos);
            if (!index.empty())
                index.emplace(member.first, members.size() - 1);
            const SourceMap::EntryId memberEntry = m_map.addMember(entry, key, locationOf(m_nodes[valueIndex], keyPos));
            if (!convert(valueIndex, memberEntry, member.second, depth + 1))
                return false;
        }
        return true;
    }

    Json scalar(const RawNode &node) const
    {
        const std::string_view text = m_recorder.scalarOf(node);
        if (node.nonSpecificTag || node.stringTag)
            return std::string(text);
        if (auto typed = typedPlainScalar(text))
            return std::move(*typed);
        return std::string(text);
    }

    std::string_view m_text;
    const DocumentRecorder &m_recorder;
    const std::vector<RawNode> &m_nodes;
    SourceMap &m_map;
    Diagnostics &m_diagnostics;
};

/// Refuses text the YAML parser must not see: binary data, invalid UTF-8 and flow collections
/// too long to hold in memory.
std::optional<Diagnostic> checkReadableText(std::string_view text, const YamlLimits &limits)
{
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
        return Diagnostic {Severity::Error, "not a text file: it contains a NUL byte at offset " + std::to_string(nul),
            "", LineIndex(text).at(nul)};
    }
    if (const auto bad = invalidUtf8Offset(text); bad != std::string_view::npos) {
        return Diagnostic {Severity::Error, "not a UTF-8 text file: invalid byte at offset " + std::to_string(bad), "",
            LineIndex(text).at(bad)};
    }
    if (const auto overrun = findFlowOverrun(text, limits.maxFlowItems)) {
        const LineIndex lines(text);
        const SourcePosition start = lines.at(overrun->start);
        return Diagnostic {Severity::Error,
            "the flow collection ([...] or {...}) that starts at line " + std::to_string(start.line) + ", column "
                + std::to_string(start.column) + " holds more than " + std::to_string(limits.maxFlowItems)
                + " items; the YAML parser keeps all of it in memory before reading any, so write long lists and maps "
                  "in block style, one '- item' or 'key: value' a line",
            "", lines.at(overrun->offset)};
    }
    return std::nullopt;
}

/// Runs the parser over every document of `text` into `recorder`, noting where a second document
/// starts in `secondRoot`.
std::optional<Diagnostic> recordDocuments(std::string_view text, DocumentRecorder &recorder, YAML::Mark &secondRoot)
{
    try {
        if (parseBlockYaml(text, recorder))
            return std::nullopt;
        TextBuffer buffer(text);
        std::istream stream(&buffer);
        YAML::Parser parser(stream);
        std::size_t previousStart = 0;
        while (parser.HandleNextDocument(recorder)) {
            // yaml-cpp 0.7 never consumes a ',' at the top level: it reports an empty document
            // there again and again, so reading all documents would not end.
            const auto start = static_cast<std::size_t>(recorder.documentStart().pos);
            if (recorder.documents() > 1 && recorder.rootIsNull() && start == previousStart) {
                const bool comma = start < text.size() && text[start] == ',';
                return Diagnostic {Severity::Error, std::string("invalid YAML: unexpected ") + (comma ? "','" : "text"),
                    "", positionOf(recorder.documentStart())};
            }
            previousStart = start;
            if (recorder.documents() == 2)
                secondRoot = recorder.rootMark();
        }
    } catch (const LimitReached &limit) {
        return Diagnostic {Severity::Error, limit.message, "", positionOf(limit.mark)};
    } catch (const YAML::Exception &e) {
        // The parser often stops a line or more after the mistake, with a message about its own
        // state ("illegal map value"): the mistake found at or before that line is said instead.
        const SourcePosition stopped = positionOf(e.mark);
        if (auto mistake = findYamlMistake(text);
            mistake && (!stopped.known() || mistake->position.line <= stopped.line))
            return mistake;
        std::string message = e.msg;
        if (!message.empty())
            message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
        return Diagnostic {Severity::Error, "invalid YAML: " + message, "", stopped};
    }
    return std::nullopt;
}

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
    if (auto refused = checkReadableText(text, limits)) {
        result.diagnostics.push_back(std::move(*refused));
        return result;
    }

    DocumentRecorder recorder(limits.maxNodes, limits.maxScalarBytes);
    YAML::Mark secondRoot = YAML::Mark::null_mark();
    if (auto failure = recordDocuments(text, recorder, secondRoot)) {
        result.diagnostics.push_back(std::move(*failure));
        return result;
    }
    const std::vector<RawNode> &nodes = recorder.nodes();
    const std::uint32_t root = recorder.firstRoot();
    const bool rootIsNull = root == DocumentRecorder::kNoNode || nodes[root].kind == RawNode::Kind::Null;
    if (recorder.documents() == 0 || (recorder.documents() == 1 && rootIsNull)) {
        result.diagnostics.push_back({Severity::Error, "the manifest is empty", "", SourcePosition {1, 1}});
        return result;
    }
    if (recorder.documents() > 1) {
        result.diagnostics.push_back({Severity::Error,
            "the file holds " + std::to_string(recorder.documents()) + " YAML documents; a manifest is exactly one", "",
            positionOf(secondRoot)});
        return result;
    }

    YamlDocument document;
    document.sourceMap.reserve(recorder.expandedValues());
    Converter converter(text, recorder, document.sourceMap, result.diagnostics);
    if (!converter.convertRoot(root, document.root))
        return result;
    result.document = std::move(document);
    return result;
}

} // namespace ccm
