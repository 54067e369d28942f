// SPDX-License-Identifier: Apache-2.0
#include "source_map.h"

namespace ccm {

std::string escapePointerToken(std::string_view token)
{
    std::string out;
    out.reserve(token.size());
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string appendPointer(std::string_view base, std::string_view token)
{
    std::string out(base);
    out += '/';
    out += escapePointerToken(token);
    return out;
}

std::string appendPointer(std::string_view base, std::size_t index)
{
    std::string out(base);
    out += '/';
    out += std::to_string(index);
    return out;
}

void SourceMap::add(std::string pointer, NodeLocation location)
{
    m_locations.insert_or_assign(std::move(pointer), location);
}

const NodeLocation *SourceMap::nearest(std::string_view pointer) const
{
    std::string key(pointer);
    while (true) {
        if (auto it = m_locations.find(key); it != m_locations.end())
            return &it->second;
        if (key.empty())
            return nullptr;
        key.erase(key.rfind('/'));
    }
}

SourcePosition SourceMap::valueAt(std::string_view pointer) const
{
    const NodeLocation *location = nearest(pointer);
    if (!location)
        return {};
    return location->value.known() ? location->value : location->key;
}

SourcePosition SourceMap::keyAt(std::string_view pointer) const
{
    const NodeLocation *location = nearest(pointer);
    if (!location)
        return {};
    return location->key.known() ? location->key : location->value;
}

} // namespace ccm
