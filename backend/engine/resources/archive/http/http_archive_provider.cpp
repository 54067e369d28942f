// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/archive/http/http_archive_provider.h"

#include "base/http_download.h"
#include "base/sha256.h"
#include "base/unique_fd.h"
#include "engine/resources/archive/http/archive_extraction.h"
#include "engine/resources/registration.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::engine {

namespace {

// Newly downloaded archives are readable by everyone, as a download with the usual umask would be.
constexpr mode_t kArchiveMode = 0644;
constexpr long kMaximumRedirects = 10;
constexpr int kCreateAttempts = 64;

std::string randomSuffix()
{
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char bytes[8] {};
    // The name only has to be unlikely to clash; O_EXCL keeps a clash harmless.
    if (::getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bytes)) {
        static unsigned counter = 0;
        const auto seed = static_cast<unsigned>(::getpid()) * 2654435761U + ++counter;
        std::memcpy(bytes, &seed, sizeof seed);
    }
    std::string suffix;
    for (const unsigned char byte : bytes)
        suffix.push_back(alphabet[byte % (sizeof alphabet - 1)]);
    return suffix;
}

/// The file a download is written to, beside the target; removed unless it was renamed into place.
class TemporaryDownload {
public:
    TemporaryDownload(const TemporaryDownload &) = delete;
    TemporaryDownload &operator=(const TemporaryDownload &) = delete;
    ~TemporaryDownload()
    {
        m_file.reset();
        if (!m_placed)
            ::unlinkat(m_directory.get(), m_name.c_str(), 0);
    }

    static Result<std::unique_ptr<TemporaryDownload>> create(const std::filesystem::path &target)
    {
        const std::filesystem::path parent = target.parent_path();
        UniqueFd directory(::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!directory) {
            const int error = errno;
            if (error == ENOENT || error == ENOTDIR)
                return Error {"not_directory", parent.string() + " is not a directory"};
            return systemError("cannot open " + parent.string(), error);
        }
        // Hidden and bounded in length, so a long archive name still gives a valid name.
        const std::string base = "." + target.filename().string().substr(0, 200) + ".";
        int error = 0;
        for (int attempt = 0; attempt < kCreateAttempts; ++attempt) {
            std::string name = base + randomSuffix();
            UniqueFd file(
                ::openat(directory.get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
            if (file)
                return std::unique_ptr<TemporaryDownload>(
                    new TemporaryDownload(std::move(directory), parent, std::move(name), std::move(file)));
            if ((error = errno) != EEXIST)
                break;
        }
        return systemError("cannot create a temporary file in " + parent.string(), error);
    }

    [[nodiscard]] int fd() const { return m_file.get(); }
    [[nodiscard]] std::filesystem::path path() const { return m_parent / m_name; }

    /// Flushes and closes the file, then renames it over the target and flushes the directory.
    Result<void> place(const std::filesystem::path &target)
    {
        if (::fsync(m_file.get()) != 0)
            return systemError("cannot flush " + path().string() + " to disk", errno);
        if (const int closed = m_file.close(); closed != 0)
            return systemError("cannot close " + path().string(), closed);
        const std::string name = target.filename().string();
        if (::renameat(m_directory.get(), m_name.c_str(), m_directory.get(), name.c_str()) != 0)
            return systemError("cannot rename " + path().string() + " to " + target.string(), errno);
        m_placed = true;
        if (::fsync(m_directory.get()) != 0)
            return systemError(
                "the archive is in place but " + m_parent.string() + " cannot be flushed to disk", errno);
        return {};
    }

private:
    TemporaryDownload(UniqueFd directory, std::filesystem::path parent, std::string name, UniqueFd file)
        : m_directory(std::move(directory))
        , m_parent(std::move(parent))
        , m_name(std::move(name))
        , m_file(std::move(file))
    {
    }

    UniqueFd m_directory;
    std::filesystem::path m_parent;
    std::string m_name;
    UniqueFd m_file;
    bool m_placed = false;
};

/// The download's error in the words archive resources have always used; the context added by
/// the caller names the URL.
Error archiveError(const HttpDownloadError &failed)
{
    const auto code = errorCodeOf<HttpDownloadErrc>(failed);
    // libcurl that cannot be loaded keeps its own code.
    if (!code)
        return Error {failed.code, failed.detail};
    switch (*code) {
    case HttpDownloadErrc::Status:
        return Error {
            "http_status", "the server answered with HTTP status " + std::to_string(failed.status) + ", expected 200"};
    case HttpDownloadErrc::Io:
        return Error {"io", "writing the download failed: " + failed.detail};
    case HttpDownloadErrc::Timeout:
        return Error {"timeout", failed.detail};
    case HttpDownloadErrc::TooLarge:
    case HttpDownloadErrc::Tls:
    case HttpDownloadErrc::Unreachable:
    case HttpDownloadErrc::Transfer:
        break;
    }
    return Error {"download", failed.detail};
}

/// Fetches spec.url into fd; the error says what went wrong without repeating any secret.
Result<void> fetch(const ArchiveSpec &spec, int fd, const DownloadTimeouts &timeouts)
{
    HttpRequest request;
    request.url = spec.url;
    request.shownUrl = redactedUrl(spec.url);
    request.headers = spec.headers;
    request.username = spec.username;
    request.password = spec.password;
    request.userAgent = "ccm";
    request.maxRedirects = kMaximumRedirects;
    request.connectTimeout = timeouts.connect;
    request.timeout = timeouts.total;
    request.stallTimeout = timeouts.stalled;
    request.bodyFd = fd;
    if (auto fetched = httpDownload(request); !fetched)
        return archiveError(fetched.error());
    return {};
}

} // namespace

HttpArchiveProvider::HttpArchiveProvider(DownloadTimeouts timeouts)
    : m_timeouts(timeouts)
{
}

Result<ArchiveState> HttpArchiveProvider::status(const ArchiveSpec &spec)
{
    auto file = m_files.status(spec.path, true, nullptr);
    if (!file)
        return file.error();
    if (file->ensure == Ensure::Directory)
        return Error {"is_directory", "cannot manage " + spec.path.string() + " as an archive: it is a directory"};
    ArchiveState state;
    state.archiveExists = file->ensure == Ensure::Present;
    state.ensure = state.archiveExists ? Ensure::Present : Ensure::Absent;
    if (state.archiveExists) {
        if (!file->checksum)
            return Error {
                "not_regular_file", "cannot manage " + spec.path.string() + " as an archive: it is not a regular file"};
        state.owner = file->owner;
        state.group = file->group;
        state.uid = file->uid;
        state.gid = file->gid;
        state.size = file->size;
        state.mtime = file->mtime;
        state.checksum = file->checksum;
    }
    if (spec.creates) {
        struct stat info { };
        if (::stat(spec.creates->c_str(), &info) == 0)
            state.createsExists = true;
        else if (errno != ENOENT && errno != ENOTDIR)
            return systemError("cannot inspect " + spec.creates->string(), errno);
    }
    return state;
}

Result<void> HttpArchiveProvider::download(const ArchiveSpec &spec, Logger &log)
{
    const std::string shownUrl = redactedUrl(spec.url);
    const std::string context = "cannot download " + shownUrl + " to " + spec.path.string();
    auto uid = m_files.userId(spec.owner);
    if (!uid)
        return uid.error().withContext(context);
    auto gid = m_files.groupId(spec.group);
    if (!gid)
        return gid.error().withContext(context);

    auto temporary = TemporaryDownload::create(spec.path);
    if (!temporary)
        return temporary.error().withContext(context);
    TemporaryDownload &file = *temporary.value();
    // Owned as asked from the start, so the content is never readable by anyone it is not meant for.
    if (::fchown(file.fd(), uid.value(), gid.value()) != 0)
        return systemError(
            context + ": cannot give " + file.path().string() + " owner " + spec.owner + " and group " + spec.group,
            errno);
    log.info("downloading " + shownUrl + " to " + spec.path.string());
    if (auto fetched = fetch(spec, file.fd(), m_timeouts); !fetched)
        return fetched.error().withContext(context);
    if (::fchmod(file.fd(), kArchiveMode) != 0)
        return systemError(context + ": cannot give " + file.path().string() + " mode 0644", errno);

    if (spec.checksum) {
        auto sum = sha256File(file.path());
        if (!sum)
            return sum.error().withContext(context);
        if (sum.value() != *spec.checksum)
            return Error {"checksum_mismatch",
                context + ": checksum mismatch, expected " + *spec.checksum + " got " + sum.value()};
    }
    if (auto placed = file.place(spec.path); !placed)
        return placed.error().withContext(context);
    return {};
}

Result<void> HttpArchiveProvider::extract(const ArchiveSpec &spec, Logger &log)
{
    if (!spec.extractParent)
        return Error {"invalid_property", "cannot extract " + spec.path.string() + ": extract_parent is not set"};
    ExtractionOptions options;
    options.restoreOwners = ::geteuid() == 0;
    auto extracted = extractArchive(spec.path, *spec.extractParent, options);
    if (!extracted)
        return extracted.error();
    log.info("extracted " + std::to_string(extracted->entries) + " entries from " + spec.path.string() + " into "
        + spec.extractParent->string());
    return {};
}

Result<void> HttpArchiveProvider::remove(const std::filesystem::path &path)
{
    struct stat info { };
    if (::lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return {};
        return systemError("cannot remove " + path.string(), errno);
    }
    if (S_ISDIR(info.st_mode))
        return Error {"is_directory", "cannot remove " + path.string() + ": it is a directory, not an archive"};
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
        return systemError("cannot remove " + path.string(), errno);
    return {};
}

Result<uid_t> HttpArchiveProvider::userId(const std::string &owner)
{
    return m_files.userId(owner);
}

Result<gid_t> HttpArchiveProvider::groupId(const std::string &group)
{
    return m_files.groupId(group);
}

Result<std::optional<int>> HttpArchiveProviderFactory::manageable(const Json &properties, const LazyFacts &) const
{
    const auto url = properties.find("url");
    if (url == properties.end() || !url->is_string() || url->get<std::string>().empty())
        return std::optional<int>(1);
    std::string text = url->get<std::string>();
    const auto schemeEnd = text.find("://");
    // Other malformed URLs are left to the type, whose message says what is wrong with them.
    if (schemeEnd == std::string::npos)
        return std::optional<int>(1);
    std::string scheme = text.substr(0, schemeEnd);
    std::transform(scheme.begin(), scheme.end(), scheme.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (scheme != "http" && scheme != "https")
        return std::optional<int>();
    return std::optional<int>(1);
}

std::string HttpArchiveProviderFactory::unavailableReason() const
{
    return "it downloads only http and https URLs";
}

std::unique_ptr<Provider> HttpArchiveProviderFactory::create(CommandRunner &) const
{
    return std::make_unique<HttpArchiveProvider>();
}

void registerHttpArchiveProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<HttpArchiveProviderFactory>());
}

} // namespace ccm::engine
