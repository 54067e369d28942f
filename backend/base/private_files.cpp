// SPDX-License-Identifier: Apache-2.0
#include "base/private_files.h"

#include "base/unique_fd.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::fleet {

Result<void> writePrivateFile(const std::filesystem::path &file, const std::string &text)
{
    std::filesystem::path temporary = file;
    temporary += ".new";
    // Left behind by a crash at most; O_EXCL below makes sure what is written is our own file.
    ::unlink(temporary.c_str());
    UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd)
        return Error {"io", "cannot create " + temporary.string() + ": " + std::strerror(errno)};
    std::size_t done = 0;
    int failure = 0;
    while (done < text.size() && failure == 0) {
        const ssize_t wrote = ::write(fd.get(), text.data() + done, text.size() - done);
        if (wrote < 0 && errno != EINTR)
            failure = errno;
        else if (wrote > 0)
            done += static_cast<std::size_t>(wrote);
    }
    if (failure == 0 && ::fsync(fd.get()) != 0)
        failure = errno;
    if (const int closed = fd.close(); closed != 0 && failure == 0)
        failure = closed;
    if (failure == 0 && ::rename(temporary.c_str(), file.c_str()) != 0)
        failure = errno;
    if (failure != 0) {
        ::unlink(temporary.c_str());
        return Error {"io", "cannot write " + file.string() + ": " + std::strerror(failure)};
    }
    const std::filesystem::path parent = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    if (const UniqueFd directory(::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); directory)
        ::fsync(directory.get());
    return {};
}

Result<void> createPrivateDirectory(const std::filesystem::path &path)
{
    const auto failed = [&path](const std::string &reason) {
        return Error {"io", "cannot create the directory " + path.string() + ": " + reason};
    };
    std::error_code error;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), error);
    if (error)
        return failed(error.message());
    // Made 0700 by mkdir itself: a directory made wider and narrowed after could be opened between.
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
        return failed(std::strerror(errno));
    if (!std::filesystem::is_directory(path, error))
        return failed(error ? error.message() : "it exists and is not a directory");
    return {};
}

} // namespace ccm::fleet
