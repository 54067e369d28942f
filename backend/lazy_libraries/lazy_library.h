// SPDX-License-Identifier: Apache-2.0
// Shared libraries loaded on first use. libcurl, libarchive and libmicrohttpd bring in about 35
// further libraries (TLS, Kerberos, LDAP, ICU, compressors), libnats two (libssl, protobuf-c), and
// libcrypto alone has 17,000 relocations; their loading and relocation cost a few milliseconds at
// every start, while many runs (validate, render, an empty manifest) call none of them. The programs do not link them; instead each
// of their functions the code calls is defined here with the library's own signature, and forwards
// to the real one, looked up the first time it is called. Call sites stay the library's plain API.
#pragma once

#include <mutex>

namespace ccm::lazy {

/// A shared library opened the first time one of its functions is needed.
class LazyLibrary {
public:
    /// `fileName` is the library's soname ("libcurl.so.4"); `purpose` says what needs it, for the
    /// message when it cannot be loaded.
    constexpr LazyLibrary(const char *fileName, const char *purpose)
        : m_fileName(fileName)
        , m_purpose(purpose)
    {
    }
    LazyLibrary(const LazyLibrary &) = delete;
    LazyLibrary &operator=(const LazyLibrary &) = delete;

    /// The library's function `name` as a pointer of type Function. A library or function that
    /// cannot be found ends the program with a message naming both, as the dynamic loader does
    /// for a library missing at start: there is nothing the call could return instead.
    template<typename Function> Function function(const char *name)
    {
        return reinterpret_cast<Function>(symbol(name));
    }

private:
    void *symbol(const char *name);

    const char *m_fileName;
    const char *m_purpose;
    std::once_flag m_opened;
    void *m_handle = nullptr;
};

} // namespace ccm::lazy

/// Defines the library function `name` (declared by the library's header) to forward to the real
/// one in `library`. The parentheses around the name keep function-like macros of the same name
/// (curl's type checks) from expanding.
#define CCM_LAZY_FUNCTION(library, result, name, parameters, arguments)                                              \
    extern "C" result(name) parameters                                                                                 \
    {                                                                                                                  \
        static const auto real = (library).function<decltype(&::name)>(#name);                                       \
        return real arguments;                                                                                         \
    }
