// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstring>
#include <string>
#include <utility>
#include <variant>

namespace ccm {

/// An error travelling up through the modules: a stable code and a message for people.
/// Context is added on the way up with withContext("loading manifest").
struct Error {
    std::string code;
    std::string message;

    /// Returns a copy whose message is prefixed with "context: ".
    [[nodiscard]] Error withContext(const std::string &context) const { return Error {code, context + ": " + message}; }
};

/// An "io" error: `what` failed, with the system's text for `errorNumber` (an errno value).
inline Error systemError(const std::string &what, int errorNumber)
{
    return Error {"io", what + ": " + std::strerror(errorNumber)};
}

/// Either a value or an error (an Error unless a module needs more, such as a column). No exception
/// crosses a module boundary; functions that can fail return a Result instead.
template<typename T, typename E = Error> class Result {
public:
    Result(T value)
        : m_state(std::move(value))
    {
    }
    Result(E error)
        : m_state(std::move(error))
    {
    }

    [[nodiscard]] bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    /// The value; only valid when ok().
    [[nodiscard]] const T &value() const & { return std::get<T>(m_state); }
    [[nodiscard]] T &value() & { return std::get<T>(m_state); }
    [[nodiscard]] T &&value() && { return std::get<T>(std::move(m_state)); }
    const T &operator*() const & { return value(); }
    const T *operator->() const { return &value(); }

    /// The error; only valid when !ok().
    [[nodiscard]] const E &error() const { return std::get<E>(m_state); }

private:
    std::variant<T, E> m_state;
};

/// The result of an operation that gives nothing back but can fail: default-constructed it is a
/// success.
template<typename E> class Result<void, E> {
public:
    Result() = default;
    Result(E error)
        : m_error(std::move(error))
        , m_failed(true)
    {
    }

    [[nodiscard]] bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }

    /// The error; only valid when !ok().
    [[nodiscard]] const E &error() const { return m_error; }

private:
    E m_error {};
    bool m_failed = false;
};

} // namespace ccm
