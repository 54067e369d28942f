// SPDX-License-Identifier: Apache-2.0
// Writing a bundle: a reproducible gzip tar archive of a plan's members and their SHA256SUMS.
#include "base/file_reading.h"
#include "base/library_check.h"
#include "base/sha256.h"
#include "base/temp_file.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_io.h"
#include "core/bundle/bundle_signature.h"

#include <map>
#include <memory>

namespace ccm {
namespace fs = std::filesystem;
using bundle_io::archiveMessage;

namespace {

/// Files larger than this are not bundled: a bundle is configuration, not a software archive.
constexpr std::uintmax_t kMaxBundledFileBytes = 256 * 1024 * 1024;

/// The parent directories of a '/'-separated path, outermost first: "a/b/c" -> {"a", "a/b"}.
std::vector<std::string> parentsOf(const std::string &path)
{
    std::vector<std::string> parents;
    for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1))
        parents.push_back(path.substr(0, slash));
    return parents;
}

/// One member of the archive as it is written.
struct Entry {
    bool directory = false;
    std::string content;
    bool executable = false;
};

/// The members of `plan` with their parent directories, SHA256SUMS over the files, and
/// SHA256SUMS.sig when `signer` is given, by path.
Result<std::map<std::string, Entry>> entriesOf(const BundlePlan &plan, const SigningKey *signer)
{
    std::map<std::string, Entry> entries;
    std::string sums;
    for (const BundleMember &member : plan.members) {
        Entry entry {false, {}, member.executable};
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
            entries.emplace(parent, Entry {true, {}, true});
        entries[member.path] = std::move(entry);
    }
    if (signer) {
        auto signature = signChecksums(*signer, sums);
        if (!signature)
            return signature.error().withContext("cannot sign the bundle");
        entries[std::string(kBundleSignatureName)] = Entry {false, formatBundleSignature(signature.value()), false};
    }
    entries[std::string(kBundleChecksumsName)] = Entry {false, sums, false};
    return entries;
}

/// Writes one member with the reproducible header: mtime 0, owner and group 0, 0644 or 0755.
bool writeEntry(archive *writer, const std::string &path, const Entry &entry)
{
    bundle_io::EntryHeader header(archive_entry_new());
    archive_entry_set_pathname(header.get(), path.c_str());
    archive_entry_set_filetype(header.get(), entry.directory ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(header.get(), entry.executable ? 0755 : 0644);
    archive_entry_set_size(header.get(), entry.directory ? 0 : la_int64_t(entry.content.size()));
    archive_entry_set_mtime(header.get(), 0, 0);
    archive_entry_set_uid(header.get(), 0);
    archive_entry_set_gid(header.get(), 0);
    return archive_write_header(writer, header.get()) == ARCHIVE_OK
        && (entry.directory || entry.content.empty()
            || archive_write_data(writer, entry.content.data(), entry.content.size())
                == la_ssize_t(entry.content.size()));
}

} // namespace

Result<void> writeBundle(const BundlePlan &plan, const fs::path &output, const SigningKey *signer)
{
    if (!plan.ok())
        return Error {"invalid_bundle", "the bundle has errors; nothing was written"};
    auto collected = entriesOf(plan, signer);
    if (!collected)
        return collected.error();
    const std::map<std::string, Entry> &entries = collected.value();
    if (auto loaded = requireLibrary(lazy::libarchive); !loaded)
        return loaded.error();
    auto created = TempFile::beside(output);
    if (!created)
        return created.error();
    TempFile file = std::move(created).value();
    bundle_io::Writer writer(archive_write_new());
    const auto failed = [&](const std::string &what) {
        return Error {"io", "cannot write " + output.string() + ": " + what + ": " + archiveMessage(writer.get())};
    };
    if (archive_write_set_format_pax_restricted(writer.get()) != ARCHIVE_OK
        || archive_write_add_filter_gzip(writer.get()) != ARCHIVE_OK
        || archive_write_set_filter_option(writer.get(), "gzip", "timestamp", nullptr) != ARCHIVE_OK
        || archive_write_open_fd(writer.get(), file.fd()) != ARCHIVE_OK)
        return failed("setting up the archive");
    // Upstream's agent runs the first manifest.yaml in archive order, so the bundle's own goes
    // first, ahead of child manifests of that name in directories that sort before it.
    const std::string manifest(kBundleManifestName);
    if (const auto root = entries.find(manifest);
        root != entries.end() && !writeEntry(writer.get(), manifest, root->second))
        return failed(manifest);
    for (const auto &[path, entry] : entries)
        if (path != manifest && !writeEntry(writer.get(), path, entry))
            return failed(path);
    if (archive_write_close(writer.get()) != ARCHIVE_OK)
        return failed("finishing the archive");
    return file.commit(output, 0644);
}

} // namespace ccm
