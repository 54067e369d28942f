// SPDX-License-Identifier: Apache-2.0
#include "core/model/json.h"

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

Json parseJson(std::string_view text, bool allowExceptions)
{
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
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
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
