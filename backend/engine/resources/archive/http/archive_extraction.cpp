// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/archive/http/archive_extraction.h"

#include "base/c_handle.h"
#include "base/library_check.h"
#include "base/temp_dir.h"
#include "engine/resources/archive/archive_entry_checker.h"
#include "engine/resources/archive/archive_type.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <utility>
#include <vector>
#include <zlib.h>

namespace ccm::engine {

namespace {

constexpr std::size_t kReadBlock = 64 * 1024;

using Reader = CHandle<struct archive, ::archive_read_free>;
using Writer = CHandle<struct archive, ::archive_write_free>;

std::string libraryError(struct archive *handle)
{
    const char *text = ::archive_error_string(handle);
    return text ? text : "unknown error";
}

Result<Reader> openArchive(const std::filesystem::path &archive)
{
    if (auto loaded = requireLibrary(lazy::libarchive); !loaded)
        return loaded.error();
    Reader reader(::archive_read_new());
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

/// Inflates a gzip file to nowhere, checking each member's CRC-32 and length: libarchive's gzip
/// filter does not check them, so damage that still inflates would be extracted as the archive's
/// content. Bytes after the last member that do not start another one are ignored, as gzip does.
Result<void> verifyGzip(const std::filesystem::path &archive)
{
    const auto damaged = [&](const std::string &why) {
        return Error {"archive", "cannot read " + archive.string() + ": " + why};
    };
    std::ifstream in(archive, std::ios::binary);
    if (!in)
        return systemError("cannot read " + archive.string(), errno);
    z_stream stream {};
    if (::inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        return damaged("cannot start the gzip decompressor");
    const CHandle<z_stream, ::inflateEnd> owner(&stream);
    std::vector<unsigned char> input(kReadBlock);
    std::vector<unsigned char> output(4 * kReadBlock);
    bool inMember = false;
    bool sawMember = false;
    for (;;) {
        if (stream.avail_in == 0) {
            in.read(reinterpret_cast<char *>(input.data()), static_cast<std::streamsize>(input.size()));
            if (in.bad())
                return systemError("cannot read " + archive.string(), errno);
            stream.next_in = input.data();
            stream.avail_in = static_cast<uInt>(in.gcount());
            if (stream.avail_in == 0) {
                if (inMember || !sawMember)
                    return damaged("the gzip data ends before its end");
                return {};
            }
        }
        if (!inMember) {
            // A member starts with the gzip magic; anything else after a member is trailing bytes.
            if (sawMember && stream.next_in[0] != 0x1f)
                return {};
            inMember = true;
        }
        stream.next_out = output.data();
        stream.avail_out = static_cast<uInt>(output.size());
        const int status = ::inflate(&stream, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            inMember = false;
            sawMember = true;
            ::inflateReset(&stream);
        } else if (status == Z_DATA_ERROR) {
            return damaged(std::string("the gzip data is damaged (") + (stream.msg ? stream.msg : "data error") + ")");
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            return damaged("cannot decompress the gzip data");
        }
    }
}

/// The entry as the checker sees it.
Result<ArchiveEntry> describe(struct archive_entry *entry)
{
    const char *name = ::archive_entry_pathname(entry);
    if (!name)
        return Error {"unsafe_entry", "an entry has a name that cannot be read"};
    ArchiveEntry described {ArchiveEntryKind::Special, name, {}};
    const mode_t type = ::archive_entry_filetype(entry);
    if (const char *hardlink = ::archive_entry_hardlink(entry)) {
        described.kind = ArchiveEntryKind::HardLink;
        described.target = hardlink;
    } else if (type == AE_IFLNK) {
        const char *target = ::archive_entry_symlink(entry);
        described.kind = ArchiveEntryKind::SymbolicLink;
        described.target = target ? target : "";
    } else if (type == AE_IFREG) {
        described.kind = ArchiveEntryKind::File;
    } else if (type == AE_IFDIR) {
        described.kind = ArchiveEntryKind::Directory;
    }
    return described;
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
    const CHandle<char, std::free> resolved(::realpath(directory.c_str(), nullptr));
    if (!resolved)
        return systemError("cannot resolve " + directory.string(), errno);
    return std::string(resolved.get());
}

/// Reads every header and checks the entries together before anything is written.
Result<void> checkAll(const std::filesystem::path &archive, const std::string &root)
{
    auto reader = openArchive(archive);
    if (!reader)
        return reader.error();
    ArchiveEntryChecker checker(root);
    struct archive_entry *entry = nullptr;
    for (;;) {
        const int status = ::archive_read_next_header(reader.value().get(), &entry);
        if (status == ARCHIVE_EOF)
            return checker.finish();
        if (status < ARCHIVE_WARN)
            return Error {"archive", "cannot read " + archive.string() + ": " + libraryError(reader.value().get())};
        auto described = describe(entry);
        if (!described)
            return described.error();
        if (auto checked = checker.add(described.value()); !checked)
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
        // A warning while reading data means the data is damaged (a zip entry whose CRC-32 does
        // not match), which must not be installed as if it were the archive's content.
        if (status != ARCHIVE_OK)
            return Error {"archive", libraryError(reader)};
        if (::archive_write_data_block(writer, block, size, offset) < ARCHIVE_WARN)
            return Error {"io", libraryError(writer)};
    }
}

/// Writes every entry below staging, checking each again: the archive is read a second time.
Result<ExtractionSummary> writeEntries(const std::filesystem::path &archive, const std::string &root,
    const std::string &staging, const ExtractionOptions &options)
{
    auto reader = openArchive(archive);
    if (!reader)
        return reader.error();
    Writer writer(::archive_write_disk_new());
    if (!writer)
        return Error {"io", "out of memory"};
    // Names are made absolute below the staging directory, which has no symbolic links in its
    // path; the absolute-path guard would refuse those names, the checker refuses absolute names
    // in the archive instead.
    int flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT;
    if (options.restoreOwners)
        flags |= ARCHIVE_EXTRACT_OWNER | ARCHIVE_EXTRACT_PERM;
    ::archive_write_disk_set_options(writer.get(), flags);
    ::archive_write_disk_set_standard_lookup(writer.get());

    ArchiveEntryChecker checker(root);
    ExtractionSummary summary;
    struct archive_entry *entry = nullptr;
    for (;;) {
        const int status = ::archive_read_next_header(reader.value().get(), &entry);
        if (status == ARCHIVE_EOF)
            break;
        if (status < ARCHIVE_WARN)
            return Error {"archive", "cannot read " + archive.string() + ": " + libraryError(reader.value().get())};
        auto described = describe(entry);
        if (!described)
            return described.error();
        auto checked = checker.add(described.value());
        if (!checked)
            return checked.error();
        const std::string &name = checked.value().name;
        if (name.empty())
            continue;
        ::archive_entry_copy_pathname(entry, (staging + "/" + name).c_str());
        if (!checked.value().hardLinkTarget.empty())
            ::archive_entry_copy_hardlink(entry, (staging + "/" + checked.value().hardLinkTarget).c_str());
        if (::archive_write_header(writer.get(), entry) < ARCHIVE_WARN)
            return Error {"io", "entry '" + name + "': " + libraryError(writer.get())};
        // Zip entries written as a stream do not record their size up front, so data is always read.
        if (auto copied = copyData(reader.value().get(), writer.get()); !copied)
            return Error {copied.error().code, "entry '" + name + "': " + copied.error().message};
        if (::archive_write_finish_entry(writer.get()) < ARCHIVE_WARN)
            return Error {"io", "entry '" + name + "': " + libraryError(writer.get())};
        ++summary.entries;
    }
    if (auto finished = checker.finish(); !finished)
        return finished.error();
    if (::archive_write_close(writer.get()) < ARCHIVE_WARN)
        return Error {"io", libraryError(writer.get())};
    return summary;
}

/// Merges the tree below from into to: a name missing from to, or not a directory in both, is
/// renamed over; directories in both are merged. Without move it only checks that this is
/// possible: nothing in to is written through a link, replaces a directory or crosses into another
/// filesystem, so that the moves that follow can only fail for reasons outside the archive.
Result<void> placeTree(const std::filesystem::path &from, const std::filesystem::path &to, bool move)
{
    std::error_code error;
    for (std::filesystem::directory_iterator it(from, error), end; !error && it != end; it.increment(error)) {
        const std::filesystem::path destination = to / it->path().filename();
        struct stat staged { };
        struct stat existing { };
        if (::lstat(it->path().c_str(), &staged) != 0)
            return systemError("cannot inspect " + it->path().string(), errno);
        if (::lstat(destination.c_str(), &existing) != 0) {
            if (errno != ENOENT)
                return systemError("cannot inspect " + destination.string(), errno);
        } else if (S_ISDIR(staged.st_mode)) {
            if (S_ISLNK(existing.st_mode))
                return Error {"unsafe_entry",
                    destination.string()
                        + " is a symbolic link; entries are not written through links, remove it "
                          "or extract elsewhere"};
            if (!S_ISDIR(existing.st_mode))
                return Error {"not_directory",
                    destination.string() + " is not a directory but the archive holds one there; remove it"};
            // A rename cannot cross into another filesystem mounted below root; found now, nothing
            // has been moved yet.
            if (existing.st_dev != staged.st_dev)
                return Error {"io",
                    destination.string() + " is another filesystem; extract the archive's part below it separately"};
            if (auto merged = placeTree(it->path(), destination, move); !merged)
                return merged;
            continue;
        } else if (S_ISDIR(existing.st_mode)) {
            return Error {"not_directory",
                destination.string() + " is a directory but the archive holds a file or link there; remove it"};
        }
        if (move && ::rename(it->path().c_str(), destination.c_str()) != 0)
            return systemError("cannot move " + it->path().string() + " to " + destination.string(), errno);
    }
    if (error)
        return Error {"io", "cannot list " + from.string() + ": " + error.message()};
    return {};
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
    if (const std::string extension = archiveExtension(archive.string());
        extension == ".tar.gz" || extension == ".tgz") {
        if (auto intact = verifyGzip(archive); !intact)
            return intact.error().withContext(context);
    }
    if (auto checked = checkAll(archive, root.value()); !checked)
        return checked.error().withContext(context);

    // The entries are written into a new, empty directory below root first: the archive only
    // reaches root once every entry is written, and a failure removes the directory with
    // everything in it.
    auto staging = TempDir::create(".ccm-extract", root.value());
    if (!staging)
        return staging.error().withContext(context);
    auto summary = writeEntries(archive, root.value(), staging.value().path().string(), options);
    if (!summary)
        return summary.error().withContext(context);
    if (auto placeable = placeTree(staging.value().path().string(), root.value(), false); !placeable)
        return placeable.error().withContext(context);
    if (auto placed = placeTree(staging.value().path().string(), root.value(), true); !placed)
        return placed.error().withContext(context);
    return summary;
}

} // namespace ccm::engine
