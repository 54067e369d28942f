// SPDX-License-Identifier: Apache-2.0
// Whether a library opened on first use can be used, as an error of the code that needs it.
#pragma once

#include "base/error_code.h"
#include "lazy_libraries/lazy_library.h"

namespace ccm {

enum class LibraryErrc {
    Unavailable, ///< the library is not installed, or lacks a function the program calls
};

} // namespace ccm

template<> struct ccm::ErrorCodeNames<ccm::LibraryErrc> {
    static constexpr std::array kNames {
        std::pair {ccm::LibraryErrc::Unavailable, std::string_view("library_unavailable")},
    };
};

namespace ccm {

/// Nothing when `library` is loaded with every function the program calls in it; otherwise the
/// error "library_unavailable" naming it, what needs it and why it cannot be loaded. Code asks
/// this before its first call into the library, so that a missing library fails that piece of
/// work rather than ending the program.
inline Result<void> requireLibrary(lazy::LazyLibrary &library)
{
    if (auto missing = library.unavailable())
        return makeError(LibraryErrc::Unavailable, std::move(*missing));
    return {};
}

} // namespace ccm
