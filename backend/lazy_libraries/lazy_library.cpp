// SPDX-License-Identifier: Apache-2.0
#include "lazy_libraries/lazy_library.h"

#include <dlfcn.h>

namespace ccm::lazy {

NeededFunction::NeededFunction(LazyLibrary &library, const char *name)
    : m_name(name)
    , m_next(library.m_needed)
{
    library.m_needed = this;
}

void LazyLibrary::load()
{
    const auto fail = [this](const char *what) {
        const char *reason = ::dlerror();
        m_failure
            = std::string("cannot load ") + what + ", which " + m_purpose + ": " + (reason ? reason : "unknown error");
    };
    void *handle = ::dlopen(m_fileName, RTLD_LAZY | RTLD_LOCAL);
    if (!handle)
        return fail(m_fileName);
    for (const NeededFunction *needed = m_needed; needed; needed = needed->m_next) {
        ::dlerror();
        if (!::dlsym(handle, needed->m_name)) {
            fail((std::string(needed->m_name) + " from " + m_fileName).c_str());
            ::dlclose(handle);
            return;
        }
    }
    m_handle = handle;
}

std::optional<std::string> LazyLibrary::unavailable()
{
    std::call_once(m_loaded, [this] { load(); });
    if (m_handle)
        return std::nullopt;
    return m_failure;
}

void *LazyLibrary::symbol(const char *name)
{
    if (auto missing = unavailable())
        throw LibraryUnavailable(*missing);
    ::dlerror();
    if (void *found = ::dlsym(m_handle, name))
        return found;
    // Every function is registered and was found when the library loaded; one that was not
    // registered is a mistake of this program, reported the same way.
    const char *reason = ::dlerror();
    throw LibraryUnavailable(std::string("cannot load ") + name + " from " + m_fileName + ", which " + m_purpose + ": "
        + (reason ? reason : "not found"));
}

} // namespace ccm::lazy
