// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ccm {

/// A module's error codes as an enum, so that a code is a name the compiler knows rather than a
/// string a typo can change. A module specialises ErrorCodeNames for its enum with the wire name of
/// every enumerator (the names travel in Error::code, JSON-RPC error data and command output, and
/// do not change):
///
///     enum class NatsErrc { Unreachable, AuthFailed };
///     template<> struct ErrorCodeNames<NatsErrc> {
///         static constexpr std::array kNames {std::pair {NatsErrc::Unreachable, std::string_view("unreachable")},
///         ...};
///     };
///
/// Errors are then made with makeError(NatsErrc::Unreachable, message), tested with
/// hasCode(error, NatsErrc::Unreachable), and read back with errorCodeOf<NatsErrc>(error), which a
/// switch can take whole.
template<typename E> struct ErrorCodeNames;

template<typename E>
concept ErrorCodeEnum = std::is_enum_v<E> && requires
{
    ErrorCodeNames<E>::kNames;
};

/// The wire name of `code`.
template<ErrorCodeEnum E> constexpr std::string_view codeName(E code)
{
    for (const auto &[value, name] : ErrorCodeNames<E>::kNames) {
        if (value == code)
            return name;
    }
    return {};
}

/// An Error with the wire name of `code`.
template<ErrorCodeEnum E> Error makeError(E code, std::string message)
{
    return Error {std::string(codeName(code)), std::move(message)};
}

/// The code of `error` as a value of E; nullopt when it is none of E's (another module's).
template<ErrorCodeEnum E> std::optional<E> errorCodeOf(const Error &error)
{
    for (const auto &[value, name] : ErrorCodeNames<E>::kNames) {
        if (name == error.code)
            return value;
    }
    return std::nullopt;
}

/// Whether `error` carries `code`.
template<ErrorCodeEnum E> bool hasCode(const Error &error, E code)
{
    return error.code == codeName(code);
}

} // namespace ccm
