// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/archive/http/http_archive_provider.h"

#include "base/sha256.h"
#include "engine/resources/archive/http/archive_extraction.h"
#include "engine/resources/registration.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <curl/curl.h>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <string>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::engine {

namespace {

// Newly downloaded archives are readable by everyone, as a download with the usual umask would be.
constexpr mode_t kArchiveMode = 0644;
constexpr int kMaximumRedirects = 10;
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
        if (m_fd >= 0)
            ::close(m_fd);
        if (!m_placed)
            ::unlinkat(m_directory, m_name.c_str(), 0);
        ::close(m_directory);
    }

    static Result<std::unique_ptr<TemporaryDownload>> create(const std::filesystem::path &target)
    {
        const std::filesystem::path parent = target.parent_path();
        const int directory = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory < 0) {
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
            const int fd
                = ::openat(directory, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd >= 0)
                return std::unique_ptr<TemporaryDownload>(
                    new TemporaryDownload(directory, parent, std::move(name), fd));
            if ((error = errno) != EEXIST)
                break;
        }
        ::close(directory);
        return systemError("cannot create a temporary file in " + parent.string(), error);
    }

    [[nodiscard]] int fd() const { return m_fd; }
    [[nodiscard]] std::filesystem::path path() const { return m_parent / m_name; }

    /// Flushes and closes the file, then renames it over the target and flushes the directory.
    Result<void> place(const std::filesystem::path &target)
    {
        if (::fsync(m_fd) != 0)
            return systemError("cannot flush " + path().string() + " to disk", errno);
        const int closed = ::close(m_fd);
        m_fd = -1;
        if (closed != 0)
            return systemError("cannot close " + path().string(), errno);
        const std::string name = target.filename().string();
        if (::renameat(m_directory, m_name.c_str(), m_directory, name.c_str()) != 0)
            return systemError("cannot rename " + path().string() + " to " + target.string(), errno);
        m_placed = true;
        if (::fsync(m_directory) != 0)
            return systemError(
                "the archive is in place but " + m_parent.string() + " cannot be flushed to disk", errno);
        return {};
    }

private:
    TemporaryDownload(int directory, std::filesystem::path parent, std::string name, int fd)
        : m_directory(directory)
        , m_parent(std::move(parent))
        , m_name(std::move(name))
        , m_fd(fd)
    {
    }

    int m_directory;
    std::filesystem::path m_parent;
    std::string m_name;
    int m_fd;
    bool m_placed = false;
};

void initializeCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { ::curl_global_init(CURL_GLOBAL_DEFAULT); });
}

/// Where the body goes, and why writing stopped when it did.
struct Sink {
    CURL *handle = nullptr;
    int fd = -1;
    long refusedStatus = 0;
    int writeError = 0;
};

std::size_t writeBody(char *data, std::size_t size, std::size_t count, void *userData)
{
    auto *sink = static_cast<Sink *>(userData);
    const std::size_t total = size * count;
    long status = 0;
    ::curl_easy_getinfo(sink->handle, CURLINFO_RESPONSE_CODE, &status);
    // The body of an error page is not worth receiving; stopping here ends the transfer.
    if (status != 200) {
        sink->refusedStatus = status;
        return 0;
    }
    std::size_t written = 0;
    while (written < total) {
        const ssize_t result = ::write(sink->fd, data + written, total - written);
        if (result < 0) {
            if (errno == EINTR)
                continue;
            sink->writeError = errno;
            return 0;
        }
        written += static_cast<std::size_t>(result);
    }
    return total;
}

using CurlHandle = std::unique_ptr<CURL, void (*)(CURL *)>;
using HeaderList = std::unique_ptr<curl_slist, void (*)(curl_slist *)>;

/// Fetches spec.url into fd; the error says what went wrong without repeating any secret.
Result<void> fetch(const ArchiveSpec &spec, int fd, const DownloadTimeouts &timeouts)
{
    initializeCurl();
    CurlHandle handle(::curl_easy_init(), ::curl_easy_cleanup);
    if (!handle)
        return Error {"download", "cannot set up the HTTP client"};
    CURL *curl = handle.get();
    HeaderList headers(nullptr, ::curl_slist_free_all);
    for (const auto &[header, value] : spec.headers) {
        // "Name;" is curl's way to send a header with an empty value.
        const std::string line = value.empty() ? header + ";" : header + ": " + value;
        curl_slist *appended = ::curl_slist_append(headers.get(), line.c_str());
        if (!appended)
            return Error {"download", "cannot set up the request headers"};
        headers.release();
        headers.reset(appended);
    }

    Sink sink {curl, fd, 0, 0};
    char failure[CURL_ERROR_SIZE] {};
    ::curl_easy_setopt(curl, CURLOPT_URL, spec.url.c_str());
    ::curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    ::curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    ::curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    ::curl_easy_setopt(curl, CURLOPT_MAXREDIRS, static_cast<long>(kMaximumRedirects));
    ::curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    ::curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(timeouts.connect.count()));
    ::curl_easy_setopt(curl, CURLOPT_TIMEOUT, static_cast<long>(timeouts.total.count()));
    ::curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    ::curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(timeouts.stalled.count()));
    ::curl_easy_setopt(curl, CURLOPT_USERAGENT, "ccm");
    ::curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, failure);
    ::curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeBody);
    ::curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
    if (headers)
        ::curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
    if (!spec.username.empty() || !spec.password.empty()) {
        ::curl_easy_setopt(curl, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
        ::curl_easy_setopt(curl, CURLOPT_USERNAME, spec.username.c_str());
        ::curl_easy_setopt(curl, CURLOPT_PASSWORD, spec.password.c_str());
    }

    const CURLcode result = ::curl_easy_perform(curl);
    long status = 0;
    ::curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (sink.refusedStatus != 0 || (result == CURLE_OK && status != 200))
        return Error {"http_status",
            "the server answered with HTTP status " + std::to_string(sink.refusedStatus ? sink.refusedStatus : status)
                + ", expected 200"};
    if (sink.writeError != 0)
        return systemError("writing the download failed", sink.writeError);
    if (result != CURLE_OK) {
        const std::string reason = failure[0] != '\0' ? failure : ::curl_easy_strerror(result);
        return Error {result == CURLE_OPERATION_TIMEDOUT ? "timeout" : "download", reason};
    }
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
