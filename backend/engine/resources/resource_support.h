// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small helpers every resource type needs to read its properties and report its outcome.

#include "base/result.h"
#include "base/text.h"
#include "core/model/json.h"
#include "engine/resource.h"

#include <string>
#include <string_view>
#include <vector>

namespace ccm::engine {

/// Whether the property is present with a value other than null.
inline bool isSet(const Json &properties, const char *key)
{
    const auto it = properties.find(key);
    return it != properties.end() && !it->is_null();
}

/// The error of a property the type cannot use; message says which and why.
inline Error invalidProperty(std::string message)
{
    return Error {"invalid_property", std::move(message)};
}

/// A string property, empty when it is missing or null; an error naming the property when it holds
/// another kind of value.
inline Result<std::string> stringProperty(const Json &properties, const std::string &key)
{
    const auto found = properties.find(key);
    if (found == properties.end() || found->is_null())
        return std::string();
    if (!found->is_string())
        return invalidProperty(key + " must be a string, not " + describeJsonType(*found));
    return found->get<std::string>();
}

/// The error of a type whose provider acted but whose verification still found remaining
/// differences, described by remaining.
inline Error desiredStateNotAchieved(const std::string &remaining)
{
    return Error {"desired_state_not_achieved", std::string(kDesiredStateNotAchieved) + ": " + remaining};
}

/// The error of a type handed a provider that does not implement its interface; kind names the
/// interface wanted (such as "a file provider"). The registry only pairs a type with its own
/// providers, so this guards against wiring mistakes.
inline Error wrongProvider(const Provider &provider, std::string_view kind)
{
    return Error {"wrong_provider", "provider '" + std::string(provider.name()) + "' is not " + std::string(kind)};
}

} // namespace ccm::engine
