// SPDX-License-Identifier: Apache-2.0
// Writing a bundle: a reproducible gzip tar archive of a plan's members and their SHA256SUMS.
#include "base/file_reading.h"
#include "base/sha256.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_io.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <map>
#include <memory>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace ccm {
namespace fs = std::filesystem;
using bundle_io::archiveMessage;
using bundle_io::systemMessage;

namespace {

/// Files larger than this are not bundled: a bundle is configuration, not a software archive.
constexpr std::uintmax_t kMaxBundledFileBytes = 256 * 1024 * 1024;

/// A temporary file beside the destination, renamed over it on commit and removed otherwise.
class TemporaryFile {
public:
    explicit TemporaryFile(const fs::path &destination)
        : m_destination(destination)
    {
        const fs::path directory = destination.has_parent_path() ? destination.parent_path() : fs::path(".");
        std::string pattern = (directory / ("." + destination.filename().string() + ".XXXXXX")).string();
        m_fd = ::mkstemp(pattern.data());
        if (m_fd >= 0)
            m_path = pattern;
        else
            m_error = errno;
    }
    ~TemporaryFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        if (!m_path.empty())
            ::unlink(m_path.c_str());
    }
    TemporaryFile(const TemporaryFile &) = delete;
    TemporaryFile &operator=(const TemporaryFile &) = delete;

    [[nodiscard]] int fd() const { return m_fd; }
    [[nodiscard]] int openError() const { return m_error; }

    Result<void> commit()
    {
        if (::fchmod(m_fd, 0644) != 0 || ::fsync(m_fd) != 0 || ::close(m_fd) != 0) {
            m_fd = -1;
            return Error {"io", "cannot write " + m_path + ": " + systemMessage(errno)};
        }
        m_fd = -1;
        if (::rename(m_path.c_str(), m_destination.c_str()) != 0)
            return Error {
                "io", "cannot rename " + m_path + " to " + m_destination.string() + ": " + systemMessage(errno)};
        m_path.clear();
        return {};
    }

private:
    fs::path m_destination;
    std::string m_path;
    int m_fd = -1;
    int m_error = 0;
};

/// The parent directories of a '/'-separated path, outermost first: "a/b/c" -> {"a", "a/b"}.
std::vector<std::string> parentsOf(const std::string &path)
{
    std::vector<std::string> parents;
    for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1))
        parents.push_back(path.substr(0, slash));
    return parents;
}

} // namespace

Result<void> writeBundle(const BundlePlan &plan, const fs::path &output)
{
    if (!plan.ok())
        return Error {"invalid_bundle", "the bundle has errors; nothing was written"};
    struct Entry {
        std::string path;
        bool directory = false;
        std::string content;
        bool executable = false;
    };
    std::map<std::string, Entry> entries;
    std::string sums;
    for (const BundleMember &member : plan.members) {
        Entry entry {member.path, false, {}, member.executable};
        if (member.content) {
            entry.content = *member.content;
        } else {
            auto content = readTextFile(member.source, kMaxBundledFileBytes);
            if (!content)
                return content.error().withContext("cannot bundle " + member.path);
            entry.content = std::move(content).value();
        }
        sums += sha256Hex(entry.content) + "  " + member.path + '\n';
        for (const std::string &parent : parentsOf(member.path))
            entries.emplace(parent, Entry {parent, true, {}, true});
        entries[member.path] = std::move(entry);
    }
    entries[std::string(kBundleChecksumsName)] = Entry {std::string(kBundleChecksumsName), false, sums, false};

    TemporaryFile file(output);
    if (file.fd() < 0)
        return Error {"io", "cannot create a file beside " + output.string() + ": " + systemMessage(file.openError())};
    std::unique_ptr<archive, bundle_io::WriterFree> writer(archive_write_new());
    const auto failed = [&](const std::string &what) {
        return Error {"io", "cannot write " + output.string() + ": " + what + ": " + archiveMessage(writer.get())};
    };
    if (archive_write_set_format_pax_restricted(writer.get()) != ARCHIVE_OK
        || archive_write_add_filter_gzip(writer.get()) != ARCHIVE_OK
        || archive_write_set_filter_option(writer.get(), "gzip", "timestamp", nullptr) != ARCHIVE_OK
        || archive_write_open_fd(writer.get(), file.fd()) != ARCHIVE_OK)
        return failed("setting up the archive");
    for (const auto &[path, entry] : entries) {
        std::unique_ptr<archive_entry, bundle_io::EntryFree> header(archive_entry_new());
        archive_entry_set_pathname(header.get(), path.c_str());
        archive_entry_set_filetype(header.get(), entry.directory ? AE_IFDIR : AE_IFREG);
        archive_entry_set_perm(header.get(), entry.executable ? 0755 : 0644);
        archive_entry_set_size(header.get(), entry.directory ? 0 : la_int64_t(entry.content.size()));
        archive_entry_set_mtime(header.get(), 0, 0);
        archive_entry_set_uid(header.get(), 0);
        archive_entry_set_gid(header.get(), 0);
        if (archive_write_header(writer.get(), header.get()) != ARCHIVE_OK)
            return failed(path);
        if (!entry.directory && !entry.content.empty()
            && archive_write_data(writer.get(), entry.content.data(), entry.content.size())
                != la_ssize_t(entry.content.size()))
            return failed(path);
    }
    if (archive_write_close(writer.get()) != ARCHIVE_OK)
        return failed("finishing the archive");
    return file.commit();
}

} // namespace ccm
