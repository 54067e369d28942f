// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading members of the JSON the backend sends, for the designer's models: a member that is
// missing or of another kind reads as nothing, never as an error.

#include "core/model/json.h"

#include <QString>

#include <optional>

namespace ccm::designer {

/// The member `key` of `object` when it is a string; otherwise an empty string.
inline QString stringOf(const Json &object, const char *key)
{
    return QString::fromStdString(stringMember(object, key));
}

/// Whether the member `key` of `object` is the boolean true.
inline bool boolOf(const Json &object, const char *key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_boolean() && found->get<bool>();
}

/// The member `key` of `object` when it is an integer.
inline std::optional<qint64> integerOf(const Json &object, const char *key)
{
    const auto found = object.find(key);
    if (found == object.end() || !found->is_number_integer())
        return std::nullopt;
    return found->get<qint64>();
}

} // namespace ccm::designer
