// SPDX-License-Identifier: Apache-2.0
#include "core/model/json.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <simdjson.h>
#include <vector>

namespace ccm {
namespace {

/// Maps this small are searched directly: building an index would cost more than it saves.
constexpr std::size_t kLinearKeySearch = 8;

Json::object_t::Container &membersOf(Json &object)
{
    if (object.is_null())
        object = Json::object();
    return static_cast<Json::object_t::Container &>(object.get_ref<Json::object_t &>());
}

/// Builds values as the library's own DOM parser does, with map members set through MemberSetter.
class LinearDomBuilder {
public:
    explicit LinearDomBuilder(bool allowExceptions)
        : m_allowExceptions(allowExceptions)
    {
    }

    bool null() { return add(nullptr); }
    bool boolean(bool value) { return add(value); }
    bool number_integer(Json::number_integer_t value) { return add(value); }
    bool number_unsigned(Json::number_unsigned_t value) { return add(value); }
    bool number_float(Json::number_float_t value, const Json::string_t &) { return add(value); }
    bool string(Json::string_t &value) { return add(std::move(value)); }
    bool binary(Json::binary_t &value) { return add(Json::binary(std::move(value))); }

    bool start_object(std::size_t)
    {
        Json &object = place(Json::object());
        m_stack.push_back({&object, MemberSetter(object)});
        return true;
    }
    bool key(Json::string_t &key)
    {
        m_key = std::move(key);
        return true;
    }
    bool end_object()
    {
        m_stack.pop_back();
        return true;
    }
    bool start_array(std::size_t)
    {
        Json &array = place(Json::array());
        m_stack.push_back({&array, std::nullopt});
        return true;
    }
    bool end_array()
    {
        m_stack.pop_back();
        return true;
    }

    /// Called with the concrete exception type, which a throw through a base reference would lose.
    template<typename Exception> bool parse_error(std::size_t, const std::string &, const Exception &error)
    {
        if (m_allowExceptions)
            throw error;
        return false;
    }

    Json takeRoot() { return std::move(m_root); }

private:
    struct Open {
        Json *value;
        std::optional<MemberSetter> members;
    };

    bool add(Json value)
    {
        place(std::move(value));
        return true;
    }

    /// Puts `value` where the parser is: the root, the next list item or the member of the last key.
    /// Values of open containers stay in place, since their parents grow only after they close.
    Json &place(Json value)
    {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return m_root;
        }
        Open &open = m_stack.back();
        if (open.members) {
            Json &member = (*open.members)[m_key];
            member = std::move(value);
            return member;
        }
        return open.value->get_ref<Json::array_t &>().emplace_back(std::move(value));
    }

    bool m_allowExceptions;
    Json m_root;
    std::vector<Open> m_stack;
    std::string m_key;
};

} // namespace

std::string stringMember(const Json &object, const char *key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::string describeJsonType(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::null:
        return "nothing (null)";
    case Json::value_t::object:
        return "a map";
    case Json::value_t::array:
        return "a list";
    case Json::value_t::string:
        return "a string";
    case Json::value_t::boolean:
        return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return "an integer";
    case Json::value_t::number_float:
        return "a number";
    default:
        return "an unsupported value";
    }
}

void appendMember(Json &object, std::string key, Json value)
{
    static_cast<Json::object_t::Container &>(object.get_ref<Json::object_t &>())
        .emplace_back(std::move(key), std::move(value));
}

MemberSetter::MemberSetter(Json &object)
    : m_members(membersOf(object))
{
}

Json *MemberSetter::find(std::string_view key)
{
    if (m_index.empty()) {
        if (m_members.size() <= kLinearKeySearch) {
            for (auto &member : m_members) {
                if (member.first == key)
                    return &member.second;
            }
            return nullptr;
        }
        m_index.reserve(m_members.size());
        for (std::size_t i = 0; i < m_members.size(); ++i)
            m_index.emplace(m_members[i].first, i);
    }
    const auto found = m_index.find(key);
    return found == m_index.end() ? nullptr : &m_members[found->second].second;
}

Json &MemberSetter::operator[](std::string_view key)
{
    if (Json *existing = find(key))
        return *existing;
    auto &member = m_members.emplace_back(std::string(key), nullptr);
    if (!m_index.empty())
        m_index.emplace(member.first, m_members.size() - 1);
    return member.second;
}

const Json *MemberIndex::find(const Json &object, std::string_view key)
{
    const auto &members = static_cast<const Json::object_t::Container &>(object.get_ref<const Json::object_t &>());
    const auto linear = [&]() -> const Json * {
        for (const auto &member : members) {
            if (member.first == key)
                return &member.second;
        }
        return nullptr;
    };
    // Indexing costs a pass over the map, which only pays off for maps read many times.
    constexpr std::size_t kIndexedMapSize = 64;
    if (members.size() < kIndexedMapSize)
        return linear();

    // Addresses are reused once maps are freed, so the maps seen over a long life are forgotten
    // from time to time rather than kept.
    constexpr std::size_t kMaxIndexedMaps = 64;
    auto indexed = m_maps.find(&object);
    if (indexed == m_maps.end()) {
        if (m_maps.size() >= kMaxIndexedMaps)
            m_maps.clear();
        indexed = m_maps.emplace(&object, Indexed {}).first;
        build(members, indexed->second);
    } else if (indexed->second.size != members.size()) {
        build(members, indexed->second);
    }

    const std::size_t hash = std::hash<std::string_view> {}(key);
    for (int attempt = 0; attempt < 2; ++attempt) {
        bool stale = false;
        const auto [first, last] = indexed->second.positions.equal_range(hash);
        for (auto candidate = first; candidate != last; ++candidate) {
            const std::size_t position = candidate->second;
            if (position >= members.size() || std::hash<std::string_view> {}(members[position].first) != hash) {
                stale = true;
                break;
            }
            if (members[position].first == key)
                return &members[position].second;
        }
        if (!stale)
            break;
        build(members, indexed->second);
    }
    // Unknown to the index: absent, or put in place of another key since the index was built.
    return linear();
}

void MemberIndex::build(const Json::object_t::Container &members, Indexed &indexed)
{
    indexed.size = members.size();
    indexed.positions.clear();
    indexed.positions.reserve(members.size());
    for (std::size_t i = 0; i < members.size(); ++i)
        indexed.positions.emplace(std::hash<std::string_view> {}(members[i].first), i);
}

namespace {

/// Nesting simdjson's tree is read to; deeper text (rare, and refused by most callers) goes to
/// the library's parser, which does not recurse.
constexpr std::size_t kSimdMaxDepth = 256;
/// Text up to this size is parsed with a parser kept per thread; larger text gets a parser of its
/// own, so that a thread does not keep the memory of its largest document.
constexpr std::size_t kKeptParserBytes = 1024 * 1024;

/// The value simdjson parsed, built as the library's parser builds it: non-negative integers
/// unsigned, negative ones signed, members through MemberSetter (a duplicate key keeps its first
/// place and its last value). `zero` is set when an integer is 0: simdjson does not say whether
/// it was written "-0", which the library reads as a signed integer.
Json fromSimd(simdjson::dom::element element, bool &zero)
{
    using Type = simdjson::dom::element_type;
    switch (element.type()) {
    case Type::ARRAY: {
        Json array = Json::array();
        auto &items = array.get_ref<Json::array_t &>();
        for (const simdjson::dom::element item : simdjson::dom::array(element))
            items.push_back(fromSimd(item, zero));
        return array;
    }
    case Type::OBJECT: {
        Json object = Json::object();
        MemberSetter members(object);
        for (const simdjson::dom::key_value_pair member : simdjson::dom::object(element))
            members[member.key] = fromSimd(member.value, zero);
        return object;
    }
    case Type::INT64: {
        const std::int64_t value = std::int64_t(element);
        zero = zero || value == 0;
        return value >= 0 ? Json(static_cast<std::uint64_t>(value)) : Json(value);
    }
    case Type::UINT64:
        return Json(std::uint64_t(element));
    case Type::DOUBLE:
        return Json(double(element));
    case Type::STRING:
        return Json(std::string(std::string_view(element)));
    case Type::BOOL:
        return Json(bool(element));
    case Type::NULL_VALUE:
        break;
    }
    return Json(nullptr);
}

/// The offset of the quote that closes the string opened at `open`, or npos: the first quote
/// after it that an odd number of backslashes does not escape.
std::size_t closingQuote(std::string_view text, std::size_t open)
{
    for (std::size_t at = open;;) {
        const void *quote = std::memchr(text.data() + at + 1, '"', text.size() - at - 1);
        if (quote == nullptr)
            return std::string_view::npos;
        at = static_cast<std::size_t>(static_cast<const char *>(quote) - text.data());
        std::size_t backslashes = 0;
        while (text[at - 1 - backslashes] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return at;
    }
}

/// Whether JSON `text` holds, outside its strings, "-0" not followed by a digit, a fraction or an
/// exponent: an integer written as negative zero.
bool holdsNegativeZero(std::string_view text)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') {
            i = closingQuote(text, i);
            if (i == std::string_view::npos)
                return false;
        } else if (text[i] == '-' && i + 1 < text.size() && text[i + 1] == '0') {
            const char next = i + 2 < text.size() ? text[i + 2] : ' ';
            if ((next < '0' || next > '9') && next != '.' && next != 'e' && next != 'E')
                return true;
        }
    }
    return false;
}

/// A simdjson parser for text of at most `capacity` bytes, reading at most kSimdMaxDepth levels.
struct SimdParser {
    explicit SimdParser(std::size_t capacity)
        : parser(capacity)
    {
        ready = parser.allocate(std::min<std::size_t>(capacity, 64 * 1024), kSimdMaxDepth) == simdjson::SUCCESS;
    }
    simdjson::dom::parser parser;
    bool ready = false;
};

/// `text` parsed by simdjson, or nullopt when it refuses it (malformed text, but also numbers
/// beyond 64 bits and deep nesting, which the library's parser reads) or holds a negative zero
/// integer, whose sign simdjson does not keep.
std::optional<Json> parseWithSimd(std::string_view text)
{
    thread_local SimdParser kept(kKeptParserBytes);
    std::optional<SimdParser> own;
    SimdParser *parser = &kept;
    if (text.size() > kKeptParserBytes)
        parser = &own.emplace(text.size());
    simdjson::dom::element root;
    if (!parser->ready || parser->parser.parse(text.data(), text.size()).get(root) != simdjson::SUCCESS)
        return std::nullopt;
    bool zero = false;
    Json value = fromSimd(root, zero);
    if (zero && holdsNegativeZero(text))
        return std::nullopt;
    return value;
}

} // namespace

Json parseJson(std::string_view text, bool allowExceptions)
{
    // simdjson reads valid text several times faster; the library's parser gives the same value
    // and is kept for everything simdjson refuses, so that errors and exceptions stay its own.
    if (auto parsed = parseWithSimd(text))
        return std::move(*parsed);
    LinearDomBuilder builder(allowExceptions);
    if (!Json::sax_parse(text, &builder, Json::input_format_t::json, true, false))
        return Json(Json::value_t::discarded);
    return builder.takeRoot();
}

void deepMerge(Json &base, const Json &overlay)
{
    if (base.is_object() && overlay.is_object()) {
        MemberSetter members(base);
        for (const auto &[key, value] : overlay.get_ref<const Json::object_t &>()) {
            if (Json *existing = members.find(key))
                deepMerge(*existing, value);
            else
                members[key] = value;
        }
        return;
    }
    if (base.is_array() && overlay.is_array()) {
        base.insert(base.end(), overlay.begin(), overlay.end());
        return;
    }
    base = overlay;
}

std::optional<std::size_t> jsonNestingBeyond(std::string_view text, int limit)
{
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            // Most of a message is inside strings: jump to the closing quote.
            i = closingQuote(text, i);
            if (i == std::string_view::npos)
                return std::nullopt;
        } else if (c == '[' || c == '{') {
            if (++depth > limit)
                return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::nullopt;
}

} // namespace ccm
