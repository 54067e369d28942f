// SPDX-License-Identifier: Apache-2.0
#include "archive_extraction.h"

#include "resources/archive/archive_type.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace ccm::engine {

namespace {

constexpr std::size_t kReadBlock = 64 * 1024;

using Reader = std::unique_ptr<struct archive, int (*)(struct archive *)>;
using Writer = std::unique_ptr<struct archive, int (*)(struct archive *)>;

std::string libraryError(struct archive *handle)
{
    const char *text = ::archive_error_string(handle);
    return text ? text : "unknown error";
}

Error systemError(const std::string &what, int errorNumber)
{
    return Error {"io", what + ": " + std::strerror(errorNumber)};
}

Result<Reader> openArchive(const std::filesystem::path &archive)
{
    Reader reader(::archive_read_new(), ::archive_read_free);
    if (!reader)
        return Error {"io", "cannot read " + archive.string() + ": out of memory"};
    const std::string extension = archiveExtension(archive.string());
    // Only the format the name promises is accepted, so a mislabelled download fails clearly here.
    if (extension == ".zip") {
        ::archive_read_support_format_zip(reader.get());
    } else {
        ::archive_read_support_format_tar(reader.get());
        ::archive_read_support_format_gnutar(reader.get());
        if (extension == ".tar.gz" || extension == ".tgz")
            ::archive_read_support_filter_gzip(reader.get());
        else
            ::archive_read_support_filter_none(reader.get());
    }
    if (::archive_read_open_filename(reader.get(), archive.c_str(), kReadBlock) != ARCHIVE_OK)
        return Error {"archive", "cannot read " + archive.string() + ": " + libraryError(reader.get())};
    return reader;
}

std::vector<std::string> components(std::string_view path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        parts.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

/// The name below the extraction directory an entry is written to: leading "./" dropped, empty for
/// the directory itself. An Error for names that leave the directory.
Result<std::string> relativeName(const std::string &name)
{
    if (!name.empty() && name.front() == '/')
        return Error {"unsafe_entry", "is an absolute path"};
    std::string relative;
    for (const std::string &part : components(name)) {
        if (part == "..")
            return Error {"unsafe_entry", "has a '..' component"};
        if (part.empty() || part == ".")
            continue;
        relative += (relative.empty() ? "" : "/") + part;
    }
    return relative;
}

/// Whether a symbolic link at the relative name `link` pointing to `target` stays inside the
/// extraction directory `root` (its real path), judged on the names alone: the second guard keeps
/// anything from being written through a link.
bool linkStaysInside(const std::string &link, const std::string &target, const std::string &root)
{
    if (target.empty())
        return false;
    if (target.front() == '/')
        return target == root || target.rfind(root + "/", 0) == 0;
    // The link's directory is the starting point; each ".." climbs one level.
    std::vector<std::string> parts = components(link);
    parts.pop_back();
    std::ptrdiff_t depth = 0;
    for (const std::string &part : parts)
        depth += part.empty() || part == "." ? 0 : 1;
    for (const std::string &part : components(target)) {
        if (part.empty() || part == ".")
            continue;
        depth += part == ".." ? -1 : 1;
        if (depth < 0)
            return false;
    }
    return true;
}

/// An entry as it is written: its names below the directory, or nothing for the directory itself.
struct CheckedEntry {
    std::string name;
    std::optional<std::string> hardlink;
};

Result<std::optional<CheckedEntry>> checkEntry(struct archive_entry *entry, const std::string &root)
{
    const char *rawName = ::archive_entry_pathname(entry);
    if (!rawName)
        return Error {"unsafe_entry", "an entry has a name that cannot be read"};
    const std::string name = rawName;
    const auto refuse = [&name](const std::string &why) {
        return Error {"unsafe_entry", "entry '" + name + "' " + why};
    };
    auto relative = relativeName(name);
    if (!relative)
        return refuse(relative.error().message);

    CheckedEntry checked {relative.value(), std::nullopt};
    if (const char *hardlink = ::archive_entry_hardlink(entry)) {
        auto target = relativeName(hardlink);
        if (!target)
            return refuse("is a hard link to '" + std::string(hardlink) + "', which " + target.error().message);
        if (target.value().empty())
            return refuse("is a hard link to the extraction directory itself");
        checked.hardlink = target.value();
    }

    const mode_t type = ::archive_entry_filetype(entry);
    if (type == AE_IFLNK) {
        const char *target = ::archive_entry_symlink(entry);
        if (!target || !linkStaysInside(checked.name, target, root))
            return refuse(
                "is a symbolic link to '" + std::string(target ? target : "") + "', which is outside " + root);
    } else if (type != AE_IFREG && type != AE_IFDIR && !checked.hardlink) {
        return refuse("is a device, FIFO or socket; only files, directories and links are extracted");
    }
    if (checked.name.empty()) {
        if (type != AE_IFDIR)
            return refuse("would replace the extraction directory itself");
        return std::optional<CheckedEntry>();
    }
    return std::optional<CheckedEntry>(std::move(checked));
}

Result<void> createDirectories(const std::filesystem::path &directory)
{
    std::filesystem::path partial;
    for (const std::filesystem::path &part : directory) {
        partial /= part;
        if (::mkdir(partial.c_str(), 0755) == 0) {
            // mkdir applies the umask; created directories are meant to be 0755 whatever it is.
            if (::chmod(partial.c_str(), 0755) != 0)
                return systemError("cannot make " + partial.string() + " 0755", errno);
            continue;
        }
        if (errno != EEXIST)
            return systemError("cannot create " + partial.string(), errno);
    }
    struct stat info { };
    if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        return Error {"not_directory", directory.string() + " is not a directory"};
    return {};
}

Result<std::string> realDirectory(const std::filesystem::path &directory)
{
    std::unique_ptr<char, void (*)(void *)> resolved(::realpath(directory.c_str(), nullptr), std::free);
    if (!resolved)
        return systemError("cannot resolve " + directory.string(), errno);
    return std::string(resolved.get());
}

/// Reads every header, checking each entry, before anything is written.
Result<void> checkAll(const std::filesystem::path &archive, const std::string &root)
{
    auto reader = openArchive(archive);
    if (!reader)
        return reader.error();
    struct archive_entry *entry = nullptr;
    for (;;) {
        const int status = ::archive_read_next_header(reader.value().get(), &entry);
        if (status == ARCHIVE_EOF)
            return {};
        if (status < ARCHIVE_WARN)
            return Error {"archive", "cannot read " + archive.string() + ": " + libraryError(reader.value().get())};
        if (auto checked = checkEntry(entry, root); !checked)
            return checked.error();
    }
}

Result<void> copyData(struct archive *reader, struct archive *writer)
{
    const void *block = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    for (;;) {
        const int status = ::archive_read_data_block(reader, &block, &size, &offset);
        if (status == ARCHIVE_EOF)
            return {};
        if (status < ARCHIVE_WARN)
            return Error {"archive", libraryError(reader)};
        if (::archive_write_data_block(writer, block, size, offset) < ARCHIVE_WARN)
            return Error {"io", libraryError(writer)};
    }
}

} // namespace

Result<ExtractionSummary> extractArchive(
    const std::filesystem::path &archive, const std::filesystem::path &directory, const ExtractionOptions &options)
{
    const std::string context = "cannot extract " + archive.string() + " into " + directory.string();
    if (auto created = createDirectories(directory); !created)
        return created.error().withContext(context);
    auto root = realDirectory(directory);
    if (!root)
        return root.error().withContext(context);
    if (auto checked = checkAll(archive, root.value()); !checked)
        return checked.error().withContext(context);

    auto reader = openArchive(archive);
    if (!reader)
        return reader.error().withContext(context);
    Writer writer(::archive_write_disk_new(), ::archive_write_free);
    if (!writer)
        return Error {"io", context + ": out of memory"};
    // Names are made absolute below the real path of the directory, which has no symbolic links in
    // it; the absolute-path guard would refuse those names, the own check above refuses absolute
    // names in the archive instead.
    int flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT;
    if (options.restoreOwners)
        flags |= ARCHIVE_EXTRACT_OWNER | ARCHIVE_EXTRACT_PERM;
    ::archive_write_disk_set_options(writer.get(), flags);
    ::archive_write_disk_set_standard_lookup(writer.get());

    ExtractionSummary summary;
    struct archive_entry *entry = nullptr;
    for (;;) {
        const int status = ::archive_read_next_header(reader.value().get(), &entry);
        if (status == ARCHIVE_EOF)
            break;
        if (status < ARCHIVE_WARN)
            return Error {"archive", context + ": " + libraryError(reader.value().get())};
        auto checked = checkEntry(entry, root.value());
        if (!checked)
            return checked.error().withContext(context);
        if (!checked.value())
            continue;
        const std::string name = checked.value()->name;
        ::archive_entry_copy_pathname(entry, (root.value() + "/" + name).c_str());
        if (checked.value()->hardlink)
            ::archive_entry_copy_hardlink(entry, (root.value() + "/" + *checked.value()->hardlink).c_str());
        if (::archive_write_header(writer.get(), entry) < ARCHIVE_WARN)
            return Error {"io", context + ": entry '" + name + "': " + libraryError(writer.get())};
        // Zip entries written as a stream do not record their size up front, so data is always read.
        if (auto copied = copyData(reader.value().get(), writer.get()); !copied)
            return Error {copied.error().code, context + ": entry '" + name + "': " + copied.error().message};
        if (::archive_write_finish_entry(writer.get()) < ARCHIVE_WARN)
            return Error {"io", context + ": entry '" + name + "': " + libraryError(writer.get())};
        ++summary.entries;
    }
    if (::archive_write_close(writer.get()) < ARCHIVE_WARN)
        return Error {"io", context + ": " + libraryError(writer.get())};
    return summary;
}

} // namespace ccm::engine
