// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <unistd.h>
#include <utility>

namespace ccm::fleet {

/// A download's file while it is written: closes its descriptor and, unless kept, removes the file
/// when it goes, so whatever path leaves a download, nothing half-written stays behind.
class PartialFile {
public:
    /// Owns `fd`, open on the new file `path`.
    PartialFile(int fd, std::filesystem::path path)
        : m_fd(fd)
        , m_path(std::move(path))
    {
    }
    PartialFile(const PartialFile &) = delete;
    PartialFile &operator=(const PartialFile &) = delete;
    ~PartialFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        if (!m_kept)
            ::unlink(m_path.c_str());
    }

    int fd() const { return m_fd; }
    const std::filesystem::path &path() const { return m_path; }
    /// Closes the file, reporting what close() reports (on some file systems the write's error).
    bool close()
    {
        const int fd = std::exchange(m_fd, -1);
        return ::close(fd) == 0;
    }
    /// Leaves the file in place when this goes: it was renamed to its final name.
    void keep() { m_kept = true; }

private:
    int m_fd;
    std::filesystem::path m_path;
    bool m_kept = false;
};

} // namespace ccm::fleet
