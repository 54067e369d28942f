// SPDX-License-Identifier: Apache-2.0
#include "lazy_libraries/lazy_library.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace ccm::lazy {

namespace {

[[noreturn]] void cannotLoad(const char *what, const char *purpose)
{
    const char *reason = ::dlerror();
    std::fprintf(stderr, "%s: cannot load %s, which %s: %s\n", program_invocation_short_name, what, purpose,
        reason ? reason : "unknown error");
    // The status the dynamic loader exits with when a library is missing at start.
    std::_Exit(127);
}

} // namespace

void *LazyLibrary::symbol(const char *name)
{
    std::call_once(m_opened, [this] {
        m_handle = ::dlopen(m_fileName, RTLD_LAZY | RTLD_LOCAL);
        if (!m_handle)
            cannotLoad(m_fileName, m_purpose);
    });
    ::dlerror();
    void *found = ::dlsym(m_handle, name);
    if (!found)
        cannotLoad(name, m_purpose);
    return found;
}

} // namespace ccm::lazy
