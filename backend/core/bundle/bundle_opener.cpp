// SPDX-License-Identifier: Apache-2.0
// Opening a bundle: a private directory, an unpack that checks every member, the checksums.
#include "core/bundle/bundle_opener.h"

#include "base/file_reading.h"
#include "base/library_check.h"
#include "base/sha256.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_io.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <zlib.h>

namespace ccm {
namespace fs = std::filesystem;
using bundle_io::archiveMessage;
using bundle_io::systemMessage;

namespace {

/// The name of the archive in a download's directory.
constexpr std::string_view kDownloadedArchive = "bundle.tar.gz";

/// Unpacks one archive into an UnpackedBundle's directory, checking every member.
class Unpacker {
public:
    Unpacker(const fs::path &archivePath, const BundleLimits &limits, const fs::path &directory,
        std::vector<std::string> &created)
        : m_archivePath(archivePath)
        , m_limits(limits)
        , m_directory(directory)
        , m_created(created)
    {
    }

    Result<fs::path> run(BundleSignatureCheck &signature)
    {
        auto stream = verifyGzipStream();
        if (!stream)
            return stream.error();
        if (auto loaded = requireLibrary(lazy::libarchive); !loaded)
            return loaded.error();
        bundle_io::Reader reader(archive_read_new());
        archive_read_support_filter_gzip(reader.get());
        archive_read_support_format_tar(reader.get());
        if (archive_read_open_filename(reader.get(), m_archivePath.c_str(), 64 * 1024) != ARCHIVE_OK)
            return fail("cannot open it: " + archiveMessage(reader.get()));
        archive_entry *header = nullptr;
        std::size_t members = 0;
        for (;;) {
            const int status = archive_read_next_header(reader.get(), &header);
            if (status == ARCHIVE_EOF)
                break;
            if (status != ARCHIVE_OK)
                return fail("not a readable gzip tar archive: " + archiveMessage(reader.get()));
            if (++members > m_limits.maxMembers)
                return fail(
                    "more than " + std::to_string(m_limits.maxMembers) + " members; a bundle is refused past that");
            auto stored = unpackMember(reader.get(), header);
            if (!stored)
                return stored.error();
        }
        if (!m_manifest)
            return fail("holds no " + std::string(kBundleManifestName));
        const fs::path base = fs::path(*m_manifest).parent_path();
        auto verified = verifyChecksums(base.generic_string());
        if (!verified)
            return verified.error();
        signature = checkSignature(base.generic_string());
        return m_directory / *m_manifest;
    }

private:
    Error fail(const std::string &message) const { return Error {"invalid_bundle", message}; }
    Error failMember(const std::string &member, const std::string &message) const
    {
        return fail("member '" + member + "': " + message);
    }

    /// Inflates the whole file once, checking each gzip member's CRC-32 and length, which
    /// libarchive's reader leaves unchecked, and stopping a bomb before anything is written.
    Result<void> verifyGzipStream() const
    {
        const int fd = ::open(m_archivePath.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return fail("cannot open it: " + systemMessage(errno));
        z_stream z {};
        if (inflateInit2(&z, 15 + 16) != Z_OK) {
            ::close(fd);
            throw std::bad_alloc();
        }
        // The tar headers and padding around the members, generously.
        const std::uint64_t cap = m_limits.maxTotalBytes + std::uint64_t(m_limits.maxMembers + 2) * 2048 + 1024 * 1024;
        std::array<unsigned char, 64 * 1024> input {};
        std::array<unsigned char, 64 * 1024> output {};
        std::uint64_t produced = 0;
        std::uint64_t read = 0;
        bool ended = false;
        Result<void> result;
        for (;;) {
            const ssize_t got = ::read(fd, input.data(), input.size());
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                result = fail("cannot read it: " + systemMessage(errno));
                break;
            }
            if (got == 0)
                break;
            read += std::uint64_t(got);
            z.next_in = input.data();
            z.avail_in = uInt(got);
            while (z.avail_in > 0 && result) {
                if (ended) {
                    inflateReset(&z);
                    ended = false;
                }
                z.next_out = output.data();
                z.avail_out = uInt(output.size());
                const int status = inflate(&z, Z_NO_FLUSH);
                produced += output.size() - z.avail_out;
                if (produced > cap)
                    result = fail("unpacks to more than " + std::to_string(m_limits.maxTotalBytes)
                        + " bytes; a bundle is refused past that");
                else if (status == Z_STREAM_END)
                    ended = true;
                else if (status != Z_OK && status != Z_BUF_ERROR)
                    result
                        = fail("not a gzip tar archive, or a damaged one: " + std::string(z.msg ? z.msg : "bad data"));
            }
            if (!result)
                break;
        }
        inflateEnd(&z);
        ::close(fd);
        if (result && read == 0)
            return fail("is empty; a bundle is a gzip tar archive");
        if (result && !ended)
            return fail("is truncated: its gzip data ends early");
        return result;
    }

    Result<void> unpackMember(archive *reader, archive_entry *header)
    {
        const char *rawName = archive_entry_pathname(header);
        const std::string raw = rawName ? rawName : "";
        if (raw.empty())
            return failMember(raw, "has no name");
        if (raw.front() == '/')
            return failMember(raw, "is an absolute path, which is unsafe: bundle members are relative to its root");
        std::vector<std::string> parts;
        std::size_t start = 0;
        while (start <= raw.size()) {
            const std::size_t slash = std::min(raw.find('/', start), raw.size());
            const std::string part = raw.substr(start, slash - start);
            if (part == "..")
                return failMember(raw, "has a '..' component, an unsafe path that would leave the bundle's directory");
            if (!part.empty() && part != ".")
                parts.push_back(part);
            start = slash + 1;
        }
        if (archive_entry_hardlink(header))
            return failMember(raw, "is a hard link; a bundle holds only regular files and directories");
        const mode_t type = archive_entry_filetype(header);
        if (type == AE_IFLNK)
            return failMember(raw, "is a symbolic link; a bundle holds only regular files and directories");
        if (type != AE_IFREG && type != AE_IFDIR)
            return failMember(raw, "is a device, FIFO or socket; a bundle holds only regular files and directories");
        if (parts.empty()) {
            if (type == AE_IFDIR)
                return {};
            return failMember(raw, "has no name");
        }
        std::string path;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            path += (i ? "/" : "") + parts[i];
            if (i + 1 < parts.size() || type == AE_IFDIR) {
                auto made = makeDirectory(raw, path);
                if (!made)
                    return made;
            }
        }
        if (type == AE_IFDIR)
            return {};
        const bool executable = (archive_entry_perm(header) & 0111) != 0;
        auto written = writeFile(reader, raw, path, executable);
        if (!written)
            return written;
        const std::size_t depth = parts.size();
        if (parts.back() == kBundleManifestName && (!m_manifest || depth < m_manifestDepth)) {
            m_manifest = path;
            m_manifestDepth = depth;
        }
        return {};
    }

    Result<void> makeDirectory(const std::string &raw, const std::string &path)
    {
        const fs::path full = m_directory / path;
        if (::mkdir(full.c_str(), 0755) == 0) {
            m_created.push_back(full.string());
            return {};
        }
        struct stat info { };
        if (errno == EEXIST && ::lstat(full.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
            return {};
        return failMember(raw,
            "cannot create directory " + path + ": "
                + (errno == EEXIST ? std::string("a file of that name is in the bundle") : systemMessage(errno)));
    }

    Result<void> writeFile(archive *reader, const std::string &raw, const std::string &path, bool executable)
    {
        const fs::path full = m_directory / path;
        const int fd
            = ::open(full.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, executable ? 0755 : 0644);
        if (fd < 0)
            return failMember(
                raw, errno == EEXIST ? "is in the bundle twice" : "cannot create it: " + systemMessage(errno));
        m_created.push_back(full.string());
        Sha256 sha;
        std::array<char, 64 * 1024> buffer {};
        Result<void> result;
        for (;;) {
            const la_ssize_t got = archive_read_data(reader, buffer.data(), buffer.size());
            if (got == 0)
                break;
            if (got < 0) {
                result = failMember(raw, "damaged data: " + archiveMessage(reader));
                break;
            }
            m_totalBytes += std::uint64_t(got);
            if (m_totalBytes > m_limits.maxTotalBytes) {
                result = fail("unpacks to more than " + std::to_string(m_limits.maxTotalBytes)
                    + " bytes; a bundle is refused past that");
                break;
            }
            sha.add(buffer.data(), std::size_t(got));
            for (la_ssize_t done = 0; done < got;) {
                const ssize_t wrote = ::write(fd, buffer.data() + done, std::size_t(got - done));
                if (wrote < 0 && errno == EINTR)
                    continue;
                if (wrote < 0) {
                    result = failMember(raw, "cannot write it: " + systemMessage(errno));
                    break;
                }
                done += wrote;
            }
            if (!result)
                break;
        }
        ::close(fd);
        if (result)
            m_digests[path] = sha.finishHex();
        return result;
    }

    /// Checks base/SHA256SUMS, when there is one, against every file below base.
    Result<void> verifyChecksums(const std::string &base)
    {
        const std::string prefix = base.empty() ? std::string() : base + '/';
        const std::string sumsPath = prefix + std::string(kBundleChecksumsName);
        if (!m_digests.contains(sumsPath))
            return {};
        auto text = readTextFile(m_directory / sumsPath, 16 * 1024 * 1024);
        if (!text)
            return fail(std::string(kBundleChecksumsName) + ": " + text.error().message);
        std::set<std::string> listed;
        std::size_t lineNumber = 0;
        std::size_t start = 0;
        const std::string &sums = text.value();
        while (start < sums.size()) {
            const std::size_t end = std::min(sums.find('\n', start), sums.size());
            const std::string line = sums.substr(start, end - start);
            start = end + 1;
            ++lineNumber;
            if (line.empty())
                continue;
            const std::string where = std::string(kBundleChecksumsName) + " line " + std::to_string(lineNumber) + ": ";
            if (line.size() < 67 || line[64] != ' ' || (line[65] != ' ' && line[65] != '*'))
                return fail(where + "not a 'DIGEST  FILE' line as sha256sum prints");
            std::string name = line.substr(66);
            while (name.starts_with("./"))
                name.erase(0, 2);
            const auto digest = m_digests.find(prefix + name);
            if (digest == m_digests.end() || name == kBundleChecksumsName)
                return fail(where + "lists '" + name + "', which the bundle does not hold");
            if (digest->second != line.substr(0, 64))
                return fail(where + "the SHA-256 of '" + name + "' does not match; the bundle was changed or damaged");
            listed.insert(prefix + name);
        }
        const std::string signaturePath = prefix + std::string(kBundleSignatureName);
        for (const auto &[path, digest] : m_digests)
            if (path != sumsPath && path != signaturePath && path.starts_with(prefix) && !listed.contains(path))
                return fail("'" + path + "' is not listed in " + std::string(kBundleChecksumsName)
                    + "; the bundle was changed after it was made");
        return {};
    }

    /// What base/SHA256SUMS.sig says about base/SHA256SUMS, which verified against every file
    /// below base; a file outside base is not covered, so a signature cannot vouch for it.
    BundleSignatureCheck checkSignature(const std::string &base) const
    {
        using State = BundleSignatureCheck::State;
        const std::string prefix = base.empty() ? std::string() : base + '/';
        const std::string sumsPath = prefix + std::string(kBundleChecksumsName);
        BundleSignatureCheck check;
        if (!m_digests.contains(prefix + std::string(kBundleSignatureName)))
            return check;
        check.state = State::Invalid;
        if (!m_digests.contains(sumsPath)) {
            check.problem = "the bundle has no " + std::string(kBundleChecksumsName) + " for it to sign";
            return check;
        }
        auto text = readTextFile(m_directory / prefix / kBundleSignatureName, 64 * 1024);
        auto sums = readTextFile(m_directory / sumsPath, 16 * 1024 * 1024);
        if (!text || !sums) {
            check.problem = (!text ? text.error() : sums.error()).message;
            return check;
        }
        auto parsed = parseBundleSignature(text.value());
        if (!parsed) {
            check.problem = parsed.error().message;
            return check;
        }
        check.signature = std::move(parsed).value();
        for (const auto &[path, digest] : m_digests)
            if (!path.starts_with(prefix)) {
                check.problem = "'" + path + "' lies outside the manifest's directory, where "
                    + std::string(kBundleChecksumsName) + " does not cover it";
                return check;
            }
        if (!verifyEd25519(check.signature->publicKey, sums.value(), check.signature->signature)) {
            check.problem = "it does not verify over " + std::string(kBundleChecksumsName) + " with key "
                + check.signature->fingerprint() + "; the bundle was changed after it was signed";
            return check;
        }
        check.state = State::Signed;
        return check;
    }

    const fs::path &m_archivePath;
    const BundleLimits &m_limits;
    const fs::path &m_directory;
    std::vector<std::string> &m_created;
    std::map<std::string, std::string> m_digests;
    std::optional<std::string> m_manifest;
    std::size_t m_manifestDepth = 0;
    std::uint64_t m_totalBytes = 0;
};

} // namespace

Result<BundleDownload> BundleDownload::create(const fs::path &parent)
{
    auto directory = TempDir::create("ccm-source", parent);
    if (!directory)
        return directory.error();
    return BundleDownload(std::move(directory).value());
}

BundleDownload::BundleDownload(TempDir directory)
    : m_directory(std::move(directory))
{
}

fs::path BundleDownload::archivePath() const
{
    return directory() / kDownloadedArchive;
}

std::vector<std::string> BundleDownload::fetchPaths() const
{
    const std::string archive = archivePath().string();
    return {archive + ".part", archive, directory().string()};
}

Result<UnpackedBundle> UnpackedBundle::unpack(
    const fs::path &archive, const BundleLimits &limits, const fs::path &parent)
{
    auto directory = TempDir::create("ccm-bundle", parent);
    if (!directory)
        return directory.error();
    UnpackedBundle bundle;
    bundle.m_directory = std::move(directory).value();
    Unpacker unpacker(archive, limits, bundle.m_directory.path(), bundle.m_created);
    auto manifest = unpacker.run(bundle.m_signature);
    if (!manifest)
        return manifest.error();
    bundle.m_manifest = std::move(manifest).value();
    // Deepest first, so unlink() and rmdir() in that order empty each directory before removing it.
    std::stable_sort(bundle.m_created.begin(), bundle.m_created.end(), [](const std::string &a, const std::string &b) {
        return std::count(a.begin(), a.end(), '/') > std::count(b.begin(), b.end(), '/');
    });
    bundle.m_created.push_back(bundle.directory().string());
    return bundle;
}

Result<UnpackedBundle> UnpackedBundle::unpack(BundleDownload &&download, const BundleLimits &limits)
{
    // Beside the download's directory, which goes with the archive once the bundle is unpacked.
    const BundleDownload fetched = std::move(download);
    return unpack(fetched.archivePath(), limits, fetched.directory().parent_path());
}

fs::path UnpackedBundle::release()
{
    m_created.clear();
    return m_directory.release();
}

} // namespace ccm
