// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace ccm {

/// Owns a file descriptor and closes it when it goes. Move-only; a default-constructed, moved-from
/// or released one holds none (-1).
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) noexcept
        : m_fd(fd)
    {
    }
    UniqueFd(UniqueFd &&other) noexcept
        : m_fd(other.release())
    {
    }
    UniqueFd &operator=(UniqueFd &&other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    ~UniqueFd() { reset(); }

    [[nodiscard]] int get() const noexcept { return m_fd; }
    [[nodiscard]] bool valid() const noexcept { return m_fd >= 0; }
    explicit operator bool() const noexcept { return valid(); }

    /// Gives the descriptor up without closing it: it becomes the caller's to close.
    [[nodiscard]] int release() noexcept
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

    /// Closes the descriptor held, if any, and holds `fd` instead.
    void reset(int fd = -1) noexcept;

    /// Closes the descriptor now and returns 0, or the errno of a close that failed (EIO, ENOSPC
    /// on some file systems: data written may be lost). Holds none after, also on failure.
    int close() noexcept;

private:
    int m_fd = -1;
};

/// Closes `fd`. Linux releases the descriptor even when close() is interrupted, so an EINTR is
/// not retried (a retry could close a descriptor another thread has opened since) and counts as
/// closed. Returns 0 or the errno of the failure.
int closeDescriptor(int fd) noexcept;

} // namespace ccm
