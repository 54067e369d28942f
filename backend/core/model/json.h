// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ccm {

/// Manifest values keep the key order of the text they came from.
using Json = nlohmann::ordered_json;

/// The kind of a value in words for messages: "a map", "a list", "a string", "an integer", ...
std::string describeJsonType(const Json &value);

/// The member `key` of the map `object` when it is a string; otherwise (missing, or another kind
/// of value) an empty string.
std::string stringMember(const Json &object, const char *key);

/// Appends a member to `object`, a map that does not hold `key` yet. ordered_json's own insertion
/// searches the map first, which makes building a map member by member quadratic.
void appendMember(Json &object, std::string key, Json value);

/// Sets members of one map by key as ordered_json's operator[] does (a new key goes last, a known
/// key keeps its place), but finds keys through a hash index instead of ordered_json's linear
/// search. For building or merging maps whose keys may repeat; keys known to be new go through
/// appendMember(). The map must not be changed by other means while the setter is in use.
class MemberSetter {
public:
    /// `object` becomes an empty map when it is null.
    explicit MemberSetter(Json &object);

    /// The member `key`, a new null member when the map does not hold it yet.
    Json &operator[](std::string_view key);
    /// The member `key`, or nullptr.
    Json *find(std::string_view key);

private:
    struct KeyHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view key) const { return std::hash<std::string_view> {}(key); }
    };

    Json::object_t::Container &m_members;
    /// Position of each key in m_members; empty while the map is small enough to search directly.
    std::unordered_map<std::string, std::size_t, KeyHash, std::equal_to<>> m_index;
};

/// Finds members of large maps through hash indexes built on first use and kept across lookups,
/// instead of ordered_json's linear search, for code that reads the same maps many times (every
/// template of a manifest reads Data). The answer is always the one a linear search gives: an
/// index is checked against the map on every hit, rebuilt when the map has changed, and a key the
/// index does not know is searched linearly. Maps the index sees may change or go away between
/// lookups; it holds no pointer into them that it reads without checking.
class MemberIndex {
public:
    /// The member `key` of the map `object`, or nullptr.
    const Json *find(const Json &object, std::string_view key);

private:
    struct Indexed {
        std::size_t size = 0;
        /// Position of every member by the hash of its key.
        std::unordered_multimap<std::size_t, std::size_t> positions;
    };
    void build(const Json::object_t::Container &members, Indexed &indexed);

    std::unordered_map<const Json *, Indexed> m_maps;
};

/// Json::parse(text, nullptr, allowExceptions) for text that may hold large maps: the library's
/// parser inserts each member with a linear search. Duplicate keys keep their first place and their
/// last value, as with the library's parser.
Json parseJson(std::string_view text, bool allowExceptions = true);

/// Merges `overlay` into `base` as Hiera's deep merge and fact merging do: maps recursively, lists
/// concatenated (base first), anything else replaced by the overlay.
void deepMerge(Json &base, const Json &overlay);

/// Offset of the first bracket of JSON text that opens a level deeper than `limit` (outside
/// strings), or nullopt. Parsing such text recursively could exhaust the stack, so it is refused
/// before it is parsed.
std::optional<std::size_t> jsonNestingBeyond(std::string_view text, int limit);

} // namespace ccm
