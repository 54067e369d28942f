// SPDX-License-Identifier: Apache-2.0
// Shared libraries loaded on first use. libcurl, libarchive and libmicrohttpd bring in about 35
// further libraries (TLS, Kerberos, LDAP, ICU, compressors), libnats two (libssl, protobuf-c), and
// libcrypto alone has 17,000 relocations; their loading and relocation cost a few milliseconds at
// every start, while many runs (validate, render, an empty manifest) call none of them. The
// programs do not link them; instead each of their functions the code calls is defined here with
// the library's own signature, and forwards to the real one, looked up the first time it is
// called. Call sites stay the library's plain API.
//
// A library that cannot be loaded (not installed, or too old to have a function the program
// calls) is an error of what needed it, never the end of the program: the daemon serves everyone,
// and one request needing a missing libcurl must not end it. Code that starts to use a library
// asks `unavailable()` first and turns the answer into its own error; a first call that was not
// asked for throws LibraryUnavailable before anything of the library exists.
#pragma once

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace ccm::lazy {

/// Thrown by the first call of a function of a library that cannot be loaded, when the code did
/// not ask `unavailable()` first. what() names the library (or the missing function), what needs
/// it and the loader's reason.
class LibraryUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class LazyLibrary;

/// One function the program forwards to a library, registered with it when the program starts,
/// so that loading the library checks every function is there before any is called.
class NeededFunction {
public:
    NeededFunction(LazyLibrary &library, const char *name);

private:
    friend class LazyLibrary;
    const char *m_name;
    const NeededFunction *m_next;
};

/// A shared library opened the first time one of its functions is needed.
class LazyLibrary {
public:
    /// `fileName` is the library's soname ("libcurl.so.4"); `purpose` says what needs it, for the
    /// message when it cannot be loaded ("archive downloads need").
    constexpr LazyLibrary(const char *fileName, const char *purpose)
        : m_fileName(fileName)
        , m_purpose(purpose)
    {
    }
    LazyLibrary(const LazyLibrary &) = delete;
    LazyLibrary &operator=(const LazyLibrary &) = delete;

    /// Loads the library and looks up every function the program calls in it, the first time it
    /// is asked; after that the answer is at hand. Nothing when all are there; otherwise the
    /// message: "cannot load libcurl.so.4, which archive downloads need: <the loader's reason>".
    [[nodiscard]] std::optional<std::string> unavailable();

    /// The library's function `name` as a pointer of type Function. Throws LibraryUnavailable
    /// when the library cannot be loaded.
    template<typename Function> Function function(const char *name)
    {
        return reinterpret_cast<Function>(symbol(name));
    }

    [[nodiscard]] const char *fileName() const { return m_fileName; }

private:
    friend class NeededFunction;
    void load();
    void *symbol(const char *name);

    const char *m_fileName;
    const char *m_purpose;
    const NeededFunction *m_needed = nullptr;
    std::once_flag m_loaded;
    void *m_handle = nullptr;
    std::string m_failure;
};

/// The libraries the programs open on first use.
extern LazyLibrary libcurl;
extern LazyLibrary libarchive;
extern LazyLibrary libmicrohttpd;
extern LazyLibrary libnats;
extern LazyLibrary libcrypto;

} // namespace ccm::lazy

/// Registers the function `name` with `library` as one the program calls; CCM_LAZY_FUNCTION does
/// it for the functions it defines, the hand-written forwarders (variadic ones) say it themselves.
#define CCM_LAZY_NEEDS(library, name)                                                                                  \
    namespace {                                                                                                        \
    const ccm::lazy::NeededFunction needs_##name((library), #name);                                                    \
    }

/// Defines the library function `name` (declared by the library's header) to forward to the real
/// one in `library`. The parentheses around the name keep function-like macros of the same name
/// (curl's type checks) from expanding.
#define CCM_LAZY_FUNCTION(library, result, name, parameters, arguments)                                                \
    CCM_LAZY_NEEDS(library, name)                                                                                      \
    extern "C" result(name) parameters                                                                                 \
    {                                                                                                                  \
        static const auto real = (library).function<decltype(&::name)>(#name);                                         \
        return real arguments;                                                                                         \
    }
