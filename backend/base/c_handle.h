// SPDX-License-Identifier: Apache-2.0
// Owning pointers for the objects of C libraries: each frees its object with the library's own
// function when it goes. `CHandle<CURL, curl_easy_cleanup>` replaces a hand-written deleter.
#pragma once

#include <memory>

namespace ccm {

/// A deleter calling the C function `Free` on the object (std::unique_ptr never passes null).
/// Whatever `Free` returns is ignored.
template<auto Free> struct FreeWith {
    template<typename T> void operator()(T *object) const { static_cast<void>(Free(object)); }
};

/// A std::unique_ptr to a T that `Free` frees.
template<typename T, auto Free> using CHandle = std::unique_ptr<T, FreeWith<Free>>;

} // namespace ccm
