// SPDX-License-Identifier: Apache-2.0
#include "base/temp_dir.h"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>
#include <utility>

namespace ccm {
namespace fs = std::filesystem;

namespace {

/// Makes the directories below `root` (and root) writable and searchable by their owner again, so
/// what an archive or a test made read-only can be removed.
void openForRemoval(const fs::path &root)
{
    std::error_code error;
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::add, error);
    for (auto it = fs::recursive_directory_iterator(root, error); !error && it != fs::recursive_directory_iterator();
         it.increment(error)) {
        std::error_code ignored;
        if (it->is_directory(ignored) && !it->is_symlink(ignored))
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ignored);
    }
}

} // namespace

Result<TempDir> TempDir::create(std::string_view prefix, const fs::path &parent)
{
    const fs::path under = parent.empty() ? systemDirectory() : parent;
    std::string pattern = (under / (std::string(prefix) + "-XXXXXX")).string();
    // mkdtemp() makes the directory with mode 0700.
    if (::mkdtemp(pattern.data()) == nullptr)
        return systemError("cannot create a temporary directory in " + under.string(), errno);
    return TempDir(fs::path(std::move(pattern)));
}

fs::path TempDir::systemDirectory()
{
    const char *value = std::getenv("TMPDIR");
    std::error_code error;
    if (value != nullptr && *value != '\0' && fs::is_directory(value, error))
        return value;
    return "/tmp";
}

TempDir::TempDir(fs::path path)
    : m_path(std::move(path))
{
}

TempDir::TempDir(TempDir &&other) noexcept
    : m_path(std::exchange(other.m_path, {}))
{
}

TempDir &TempDir::operator=(TempDir &&other) noexcept
{
    if (this != &other) {
        (void)remove();
        m_path = std::exchange(other.m_path, {});
    }
    return *this;
}

TempDir::~TempDir()
{
    (void)remove();
}

Result<void> TempDir::remove()
{
    if (m_path.empty())
        return {};
    const fs::path path = std::exchange(m_path, {});
    std::error_code error;
    if (fs::remove_all(path, error) != static_cast<std::uintmax_t>(-1) && !error)
        return {};
    openForRemoval(path);
    error.clear();
    fs::remove_all(path, error);
    if (error)
        return Error {"io", "cannot remove the temporary directory " + path.string() + ": " + error.message()};
    return {};
}

fs::path TempDir::release()
{
    return std::exchange(m_path, {});
}

} // namespace ccm
