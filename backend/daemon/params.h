// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "protocol/protocol.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ccm::daemon {

/// The params of a JSON-RPC request, read member by member. Each accessor checks one member and
/// answers either its value or the invalid_params error the client sees: the message names the
/// member ("params.run is required: a string", "params.noop must be a boolean, not a number") and
/// data.path holds its name. An optional accessor answers nullopt (or nullptr) when the member is
/// absent. The Params refers to the JSON it reads, which must outlive it and what it answers.
class Params {
public:
    explicit Params(const Json &params)
        : m_params(params)
    {
    }

    /// The invalid_params error of the member `name`: the message says what is wrong with it,
    /// data.path names it.
    static protocol::RpcError invalid(std::string_view name, std::string_view problem);
    /// The invalid_params error of a part of a member: `pointer` is its JSON pointer below params
    /// ("items/2/kind"), which data.path holds, and `shown` how the message names it ("items[2].kind").
    static protocol::RpcError invalidAt(std::string_view pointer, std::string_view shown, std::string_view problem);

    /// The JSON read.
    [[nodiscard]] const Json &json() const { return m_params; }
    /// Whether the member `name` is there, whatever its type.
    [[nodiscard]] bool has(std::string_view name) const;

    /// A string, the empty one too.
    [[nodiscard]] protocol::RpcResult<std::string_view> string(std::string_view name) const;
    [[nodiscard]] protocol::RpcResult<std::optional<std::string_view>> optionalString(std::string_view name) const;
    /// A string that is not empty and holds no NUL: a name, a URL, a key.
    [[nodiscard]] protocol::RpcResult<std::string> text(std::string_view name) const;
    [[nodiscard]] protocol::RpcResult<std::optional<std::string>> optionalText(std::string_view name) const;
    /// A text() that is an absolute path.
    [[nodiscard]] protocol::RpcResult<std::string> path(std::string_view name) const;
    [[nodiscard]] protocol::RpcResult<std::optional<std::string>> optionalPath(std::string_view name) const;
    /// A boolean.
    [[nodiscard]] protocol::RpcResult<bool> boolean(std::string_view name) const;
    [[nodiscard]] protocol::RpcResult<std::optional<bool>> optionalBoolean(std::string_view name) const;
    /// An optional boolean that is false when absent.
    [[nodiscard]] protocol::RpcResult<bool> flag(std::string_view name) const;
    /// An integer (JSON's, within int64).
    [[nodiscard]] protocol::RpcResult<std::optional<std::int64_t>> optionalInteger(std::string_view name) const;
    /// A map; nullptr when absent.
    [[nodiscard]] protocol::RpcResult<const Json *> optionalObject(std::string_view name) const;
    /// A list; nullptr when absent. `words` says what it lists in the error ("a list of paths").
    [[nodiscard]] protocol::RpcResult<const Json *> optionalList(
        std::string_view name, std::string_view words = "a list") const;

private:
    using TypeCheck = bool (*)(const Json &);
    /// The member `name`, nullptr when absent and not `required`; an error when it is required and
    /// absent or fails `isRightType`. `words` is the type as the error says it ("a string").
    protocol::RpcResult<const Json *> member(
        std::string_view name, bool required, TypeCheck isRightType, std::string_view words) const;
    /// Whether `value` (a present string member `name`) is a text(), else its error.
    static protocol::RpcResult<void> checkText(std::string_view name, std::string_view value);

    const Json &m_params;
};

} // namespace ccm::daemon
