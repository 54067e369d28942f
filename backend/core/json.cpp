// SPDX-License-Identifier: Apache-2.0
#include "json.h"

namespace ccm {

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

void deepMerge(Json &base, const Json &overlay)
{
    if (base.is_object() && overlay.is_object()) {
        for (const auto &[key, value] : overlay.items()) {
            auto existing = base.find(key);
            if (existing == base.end())
                base[key] = value;
            else
                deepMerge(*existing, value);
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
