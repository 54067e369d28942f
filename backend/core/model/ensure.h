// SPDX-License-Identifier: Apache-2.0
// The states a resource's `ensure` names. Each type accepts its own few of them (a file: present,
// absent, directory; a service: running, stopped; a package: present, absent, latest or a version
// string, which stays text); in code they are values the compiler knows, and their names are
// what manifests, events and messages spell.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ccm {

enum class Ensure {
    Present,
    Absent,
    Directory,
    Latest,
    Running,
    Stopped,
};

inline constexpr std::array kEnsureNames {
    std::pair {Ensure::Present, std::string_view("present")},
    std::pair {Ensure::Absent, std::string_view("absent")},
    std::pair {Ensure::Directory, std::string_view("directory")},
    std::pair {Ensure::Latest, std::string_view("latest")},
    std::pair {Ensure::Running, std::string_view("running")},
    std::pair {Ensure::Stopped, std::string_view("stopped")},
};

/// The name manifests and events spell `ensure` with.
constexpr std::string_view ensureName(Ensure ensure)
{
    for (const auto &[value, name] : kEnsureNames) {
        if (value == ensure)
            return name;
    }
    return {};
}

/// ensureName as a std::string, for JSON and messages.
inline std::string ensureText(Ensure ensure)
{
    return std::string(ensureName(ensure));
}

/// The state `text` names; nullopt when it names none (a package version, a typo).
constexpr std::optional<Ensure> parseEnsure(std::string_view text)
{
    for (const auto &[value, name] : kEnsureNames) {
        if (name == text)
            return value;
    }
    return std::nullopt;
}

} // namespace ccm
