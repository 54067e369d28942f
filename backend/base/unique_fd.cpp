// SPDX-License-Identifier: Apache-2.0
#include "base/unique_fd.h"

#include <cerrno>
#include <unistd.h>

namespace ccm {

int closeDescriptor(int fd) noexcept
{
    if (::close(fd) == 0 || errno == EINTR)
        return 0;
    return errno;
}

void UniqueFd::reset(int fd) noexcept
{
    if (m_fd >= 0 && m_fd != fd) {
        const int saved = errno;
        closeDescriptor(m_fd);
        errno = saved;
    }
    m_fd = fd;
}

int UniqueFd::close() noexcept
{
    if (m_fd < 0)
        return 0;
    return closeDescriptor(release());
}

} // namespace ccm
