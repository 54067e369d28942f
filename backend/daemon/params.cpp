// SPDX-License-Identifier: Apache-2.0
#include "daemon/params.h"

#include <filesystem>

namespace ccm::daemon {

using protocol::ErrorCode;
using protocol::RpcError;
using protocol::RpcResult;

RpcError Params::invalid(std::string_view name, std::string_view problem)
{
    return invalidAt(name, name, problem);
}

RpcError Params::invalidAt(std::string_view pointer, std::string_view shown, std::string_view problem)
{
    return RpcError {ErrorCode::InvalidParams, "params." + std::string(shown) + " " + std::string(problem),
        Json {{"path", std::string(pointer)}}};
}

bool Params::has(std::string_view name) const
{
    return m_params.contains(name);
}

RpcResult<const Json *> Params::member(
    std::string_view name, bool required, TypeCheck isRightType, std::string_view words) const
{
    const auto found = m_params.find(name);
    if (found == m_params.end()) {
        if (required)
            return invalid(name, "is required: " + std::string(words));
        return static_cast<const Json *>(nullptr);
    }
    if (!isRightType(*found))
        return invalid(name, "must be " + std::string(words) + ", not " + describeJsonType(*found));
    return &*found;
}

RpcResult<std::string_view> Params::string(std::string_view name) const
{
    auto found = member(
        name, true, [](const Json &value) { return value.is_string(); }, "a string");
    if (!found)
        return found.error();
    return std::string_view((*found)->get_ref<const std::string &>());
}

RpcResult<std::optional<std::string_view>> Params::optionalString(std::string_view name) const
{
    auto found = member(
        name, false, [](const Json &value) { return value.is_string(); }, "a string");
    if (!found)
        return found.error();
    if (*found == nullptr)
        return std::optional<std::string_view>();
    return std::optional<std::string_view>((*found)->get_ref<const std::string &>());
}

RpcResult<void> Params::checkText(std::string_view name, std::string_view value)
{
    if (value.empty() || value.find('\0') != std::string_view::npos)
        return invalid(name, "must be a non-empty string without NUL characters");
    return {};
}

RpcResult<std::string> Params::text(std::string_view name) const
{
    auto value = string(name);
    if (!value)
        return value.error();
    if (auto checked = checkText(name, *value); !checked)
        return checked.error();
    return std::string(*value);
}

RpcResult<std::optional<std::string>> Params::optionalText(std::string_view name) const
{
    if (!has(name))
        return std::optional<std::string>();
    auto value = text(name);
    if (!value)
        return value.error();
    return std::optional<std::string>(std::move(value).value());
}

RpcResult<std::string> Params::path(std::string_view name) const
{
    auto value = text(name);
    if (value && !std::filesystem::path(*value).is_absolute())
        return invalid(name, "must be an absolute path");
    return value;
}

RpcResult<std::optional<std::string>> Params::optionalPath(std::string_view name) const
{
    if (!has(name))
        return std::optional<std::string>();
    auto value = path(name);
    if (!value)
        return value.error();
    return std::optional<std::string>(std::move(value).value());
}

RpcResult<bool> Params::boolean(std::string_view name) const
{
    auto found = member(
        name, true, [](const Json &value) { return value.is_boolean(); }, "a boolean");
    if (!found)
        return found.error();
    return (*found)->get<bool>();
}

RpcResult<std::optional<bool>> Params::optionalBoolean(std::string_view name) const
{
    auto found = member(
        name, false, [](const Json &value) { return value.is_boolean(); }, "a boolean");
    if (!found)
        return found.error();
    if (*found == nullptr)
        return std::optional<bool>();
    return std::optional<bool>((*found)->get<bool>());
}

RpcResult<bool> Params::flag(std::string_view name) const
{
    auto value = optionalBoolean(name);
    if (!value)
        return value.error();
    return value->value_or(false);
}

RpcResult<std::optional<std::int64_t>> Params::optionalInteger(std::string_view name) const
{
    auto found = member(
        name, false, [](const Json &value) { return value.is_number_integer(); }, "an integer");
    if (!found)
        return found.error();
    if (*found == nullptr)
        return std::optional<std::int64_t>();
    return std::optional<std::int64_t>((*found)->get<std::int64_t>());
}

RpcResult<const Json *> Params::optionalObject(std::string_view name) const
{
    return member(
        name, false, [](const Json &value) { return value.is_object(); }, "a map");
}

RpcResult<const Json *> Params::optionalList(std::string_view name, std::string_view words) const
{
    return member(
        name, false, [](const Json &value) { return value.is_array(); }, words);
}

} // namespace ccm::daemon
