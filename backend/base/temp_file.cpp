// SPDX-License-Identifier: Apache-2.0
#include "base/temp_file.h"

#include "base/temp_dir.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ccm {
namespace fs = std::filesystem;

namespace {

/// Makes NAME (ending in XXXXXX and then `suffixLength` characters) in `directory`; the error
/// starts with `failure`.
Result<std::pair<fs::path, int>> makeFile(
    const fs::path &directory, const std::string &name, std::size_t suffixLength, const std::string &failure)
{
    std::string pattern = (directory / name).string();
    // mkostemps() makes the file with mode 0600, opened for reading and writing.
    const int fd = ::mkostemps(pattern.data(), static_cast<int>(suffixLength), O_CLOEXEC);
    if (fd < 0)
        return systemError(failure, errno);
    return std::pair {fs::path(std::move(pattern)), fd};
}

} // namespace

Result<TempFile> TempFile::create(std::string_view prefix, const fs::path &directory, std::string_view suffix)
{
    const fs::path under = directory.empty() ? TempDir::systemDirectory() : directory;
    auto made = makeFile(under, std::string(prefix) + "-XXXXXX" + std::string(suffix), suffix.size(),
        "cannot create a temporary file in " + under.string());
    if (!made)
        return made.error();
    return TempFile(std::move(made.value().first), made->second);
}

Result<TempFile> TempFile::beside(const fs::path &destination)
{
    const fs::path directory = destination.has_parent_path() ? destination.parent_path() : fs::path(".");
    auto made = makeFile(directory, "." + destination.filename().string() + "-XXXXXX", 0,
        "cannot create a temporary file beside " + destination.string());
    if (!made)
        return made.error();
    return TempFile(std::move(made.value().first), made->second);
}

TempFile::TempFile(fs::path path, int fd)
    : m_path(std::move(path))
    , m_fd(fd)
{
}

TempFile::TempFile(TempFile &&other) noexcept
    : m_path(std::exchange(other.m_path, {}))
    , m_fd(std::move(other.m_fd))
{
}

TempFile &TempFile::operator=(TempFile &&other) noexcept
{
    if (this != &other) {
        discard();
        m_path = std::exchange(other.m_path, {});
        m_fd = std::move(other.m_fd);
    }
    return *this;
}

TempFile::~TempFile()
{
    discard();
}

void TempFile::discard()
{
    m_fd.reset();
    if (!m_path.empty())
        ::unlink(m_path.c_str());
    m_path.clear();
}

Result<void> TempFile::close()
{
    if (const int error = m_fd.close(); error != 0)
        return systemError("cannot write " + m_path.string(), error);
    return {};
}

Result<void> TempFile::commit(const fs::path &destination, mode_t mode)
{
    const bool written
        = m_fd ? ::fchmod(m_fd.get(), mode) == 0 && ::fsync(m_fd.get()) == 0 : ::chmod(m_path.c_str(), mode) == 0;
    if (!written)
        return systemError("cannot write " + m_path.string(), errno);
    if (auto closed = close(); !closed)
        return closed;
    if (::rename(m_path.c_str(), destination.c_str()) != 0)
        return systemError("cannot rename " + m_path.string() + " to " + destination.string(), errno);
    m_path.clear();
    return {};
}

} // namespace ccm
