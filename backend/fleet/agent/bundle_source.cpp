// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/bundle_source.h"

#include "core/bundle/bundle.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"
#include "fleet/nats/partial_file.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <curl/curl.h>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace ccm::fleet {
namespace {

constexpr long kMaxRedirects = 5;

/// Where userinfo ends in a URL, or npos when it has none: the '@' before the first '/', '?' or
/// '#' of the authority.
std::size_t userinfoEnd(const std::string &url, std::size_t &authorityStart)
{
    const std::size_t scheme = url.find("://");
    if (scheme == std::string::npos)
        return std::string::npos;
    authorityStart = scheme + 3;
    const std::size_t authorityEnd = url.find_first_of("/?#", authorityStart);
    const std::size_t at = url.rfind('@', authorityEnd == std::string::npos ? url.size() : authorityEnd);
    if (at == std::string::npos || at < authorityStart)
        return std::string::npos;
    return at;
}

/// The state of one transfer, shared with libcurl's callbacks.
struct Transfer {
    int fd = -1;
    std::uint64_t received = 0;
    std::uint64_t maxBytes = 0;
    bool tooLarge = false;
    bool writeFailed = false;
    std::string reason; ///< of the last status line seen, as the server sent it
    HttpValidators validators; ///< of the last response seen
    const SourceOptions *options = nullptr;
    /// When bytes last arrived (or the transfer started), to notice a server that stalls.
    std::chrono::steady_clock::time_point lastActivity = std::chrono::steady_clock::now();
    curl_off_t lastReceived = 0;
    bool stalled = false;
};

/// The value of header line `line` when it is the header `name` (lower case), trimmed.
std::optional<std::string> headerValue(std::string_view line, std::string_view name)
{
    if (line.size() <= name.size() || line[name.size()] != ':')
        return std::nullopt;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(line[i])) != name[i])
            return std::nullopt;
    std::string_view value = line.substr(name.size() + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
        value.remove_suffix(1);
    return std::string(value.substr(0, 1024));
}

size_t onHeader(char *data, size_t size, size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const std::string_view line(data, size * count);
    // Each response of a redirect chain starts with its status line: the last one is kept.
    if (line.starts_with("HTTP/")) {
        const std::size_t code = line.find(' ');
        const std::size_t reason = code == std::string_view::npos ? code : line.find(' ', code + 1);
        transfer->reason.clear();
        if (reason != std::string_view::npos) {
            std::string_view text = line.substr(reason + 1);
            while (!text.empty() && (text.back() == '\r' || text.back() == '\n'))
                text.remove_suffix(1);
            transfer->reason = std::string(text.substr(0, 100));
        }
        transfer->validators = {};
    } else if (auto value = headerValue(line, "etag")) {
        transfer->validators.etag = *value;
    } else if (auto lastModified = headerValue(line, "last-modified")) {
        transfer->validators.lastModified = *lastModified;
    }
    return size * count;
}

size_t onBody(char *data, size_t size, size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const std::size_t bytes = size * count;
    transfer->received += bytes;
    if (transfer->received > transfer->maxBytes) {
        transfer->tooLarge = true;
        return 0;
    }
    std::size_t written = 0;
    while (written < bytes) {
        const ssize_t n = ::write(transfer->fd, data + written, bytes - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            transfer->writeFailed = true;
            return 0;
        }
        written += static_cast<std::size_t>(n);
    }
    return bytes;
}

/// Called by libcurl at least once a second, data or not.
int onProgress(void *user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t)
{
    auto *transfer = static_cast<Transfer *>(user);
    const auto clock = std::chrono::steady_clock::now();
    if (now != transfer->lastReceived) {
        transfer->lastReceived = now;
        transfer->lastActivity = clock;
        if (transfer->options->progress)
            transfer->options->progress(static_cast<std::uint64_t>(now), static_cast<std::uint64_t>(total));
    } else if (clock - transfer->lastActivity >= transfer->options->stallTimeout) {
        // libcurl's own low-speed check averages over several seconds, so it notices a stall late.
        transfer->stalled = true;
        return 1;
    }
    return 0;
}

void initialiseCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string sizeWords(std::uint64_t bytes)
{
    if (bytes % (1024 * 1024) == 0)
        return std::to_string(bytes / (1024 * 1024)) + " MiB";
    return std::to_string(bytes) + " bytes";
}

struct CurlDeleter {
    void operator()(CURL *curl) const { curl_easy_cleanup(curl); }
};

/// Closes `partial` and renames it to `destination`.
Result<void> keepAs(PartialFile &partial, const std::filesystem::path &destination)
{
    if (!partial.close())
        return Error {"io", "cannot write " + partial.path().string() + ": " + std::strerror(errno)};
    if (::rename(partial.path().c_str(), destination.c_str()) != 0)
        return Error {"io",
            "cannot rename " + partial.path().string() + " to " + destination.string() + ": " + std::strerror(errno)};
    partial.keep();
    return {};
}

std::filesystem::path partialPath(const std::filesystem::path &destination)
{
    std::filesystem::path partial = destination;
    partial += ".part";
    return partial;
}

Error curlError(const std::string &shown, CURLcode code, const char *detail, const SourceOptions &options)
{
    const std::string why = detail[0] != '\0' ? detail : curl_easy_strerror(code);
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
        return {"timeout", shown + ": timed out (" + why + ")"};
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
        return {"tls",
            shown + ": TLS failed: " + why
                + (options.caFile.empty() ? "; give the CA that signed the server's certificate with --http-ca FILE"
                                          : std::string())};
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
        return {"unreachable", shown + ": cannot connect: " + why};
    case CURLE_TOO_MANY_REDIRECTS:
        return {"http", shown + ": more than " + std::to_string(kMaxRedirects) + " redirects"};
    case CURLE_UNSUPPORTED_PROTOCOL:
        return {"http", shown + ": " + why + " (redirects from https:// to http:// are refused)"};
    default:
        return {"http", shown + ": " + why};
    }
}

} // namespace

bool isHttpUrl(const std::string &text)
{
    return text.starts_with("http://") || text.starts_with("https://");
}

std::string redactUrl(const std::string &url)
{
    std::size_t start = 0;
    const std::size_t at = userinfoEnd(url, start);
    if (at == std::string::npos)
        return url;
    return url.substr(0, start) + "***" + url.substr(at);
}

SourceKind sourceKind(const std::string &argument)
{
    if (isHttpUrl(argument))
        return SourceKind::HttpBundle;
    if (isObjectUrl(argument))
        return SourceKind::ObjectBundle;
    if (isBundlePath(argument))
        return SourceKind::LocalBundle;
    return SourceKind::YamlFile;
}

namespace {

/// Sets up the request: protocols, redirects, TLS checks, limits, callbacks and credentials.
void configureRequest(
    CURL *handle, const std::string &url, const SourceOptions &options, Transfer &transfer, char *detail)
{
    const bool https = url.starts_with("https://");
    curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, https ? "https" : "http,https");
    curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, https ? "https" : "http,https");
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(handle, CURLOPT_MAXREDIRS, kMaxRedirects);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!options.caFile.empty())
        curl_easy_setopt(handle, CURLOPT_CAINFO, options.caFile.c_str());
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connectTimeout.count()));
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(
        handle, CURLOPT_LOW_SPEED_TIME, std::max<long>(1, static_cast<long>(options.stallTimeout.count())));
    curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.maxBytes));
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, detail);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(handle, CURLOPT_USERAGENT, "ccm-backend");
    // Error statuses end the transfer before any body is written; the status goes in the message.
    curl_easy_setopt(handle, CURLOPT_FAILONERROR, 1L);
    std::size_t start = 0;
    if (userinfoEnd(url, start) == std::string::npos && !options.httpUser.empty()) {
        std::string user = options.httpUser;
        if (user.find(':') == std::string::npos)
            user += ':' + options.httpPassword;
        curl_easy_setopt(handle, CURLOPT_USERPWD, user.c_str());
        curl_easy_setopt(handle, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        std::fill(user.begin(), user.end(), '\0');
    }
}

/// Turns how the transfer ended into an error, if it did not end with the whole body of a 200 answer.
Result<void> checkTransfer(CURLcode code, long status, const Transfer &transfer, const std::string &shown,
    const SourceOptions &options, const std::filesystem::path &destination, const char *detail)
{
    if (transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED)
        return Error {"too_large", shown + ": larger than the limit of " + sizeWords(options.maxBytes)};
    if (transfer.stalled)
        return Error {"timeout",
            shown + ": timed out: nothing received for " + std::to_string(options.stallTimeout.count())
                + " s (the server stalled)"};
    if (transfer.writeFailed)
        return Error {"io", "cannot write " + partialPath(destination).string() + ": " + std::strerror(errno)};
    if (code == CURLE_HTTP_RETURNED_ERROR || (code == CURLE_OK && status >= 400)) {
        std::string message = shown + ": HTTP " + std::to_string(status);
        if (!transfer.reason.empty())
            message += ' ' + transfer.reason;
        if (status == 401)
            message += " (give credentials with --http-user USER[:PASSWORD] or in the URL)";
        return Error {"http_status", message};
    }
    if (code != CURLE_OK)
        return curlError(shown, code, detail, options);
    if (status != 200)
        return Error {"http_status",
            shown + ": HTTP " + std::to_string(status)
                + (transfer.reason.empty() ? std::string() : ' ' + transfer.reason) + " (expected 200)"};
    return {};
}

} // namespace

namespace {

struct SlistDeleter {
    void operator()(curl_slist *list) const { curl_slist_free_all(list); }
};

/// fetchHttp() sending `known` as If-None-Match / If-Modified-Since when set; a 304 leaves
/// `destination` alone and says so.
Result<ConditionalFetch> fetchHttpWith(const std::string &url, const SourceOptions &options,
    const std::filesystem::path &destination, const HttpValidators &known)
{
    const std::string shown = redactUrl(url);
    if (!isHttpUrl(url))
        return Error {"bad_url", "'" + shown + "' is not an http:// or https:// URL"};
    if (url.find_first_of(std::string_view(" \r\n\t\0", 5)) != std::string::npos)
        return Error {"bad_url", "'" + shown + "' holds white space or control characters"};
    initialiseCurl();
    const std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl)
        return Error {"http", shown + ": cannot initialise libcurl"};

    const std::filesystem::path partialFile = partialPath(destination);
    const int fd = ::open(partialFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int openError = errno;
        return Error {"io", "cannot create " + partialFile.string() + ": " + std::strerror(openError)};
    }
    PartialFile partial(fd, partialFile);

    Transfer transfer;
    transfer.fd = partial.fd();
    transfer.maxBytes = options.maxBytes;
    transfer.options = &options;
    char detail[CURL_ERROR_SIZE] = {};
    CURL *handle = curl.get();
    configureRequest(handle, url, options, transfer, detail);
    std::unique_ptr<curl_slist, SlistDeleter> headers;
    for (const auto &[name, value] :
        {std::pair {"If-None-Match: ", known.etag}, {"If-Modified-Since: ", known.lastModified}})
        if (!value.empty() && value.find_first_of("\r\n") == std::string::npos)
            headers.reset(curl_slist_append(headers.release(), (name + value).c_str()));
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());

    const CURLcode code = curl_easy_perform(handle);
    long status = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    if (code == CURLE_OK && status == 304 && !transfer.tooLarge && !transfer.writeFailed)
        return ConditionalFetch {true, known};
    if (auto checked = checkTransfer(code, status, transfer, shown, options, destination, detail); !checked)
        return checked.error();
    if (auto kept = keepAs(partial, destination); !kept)
        return kept.error();
    return ConditionalFetch {false, transfer.validators};
}

} // namespace

Result<void> fetchHttp(const std::string &url, const SourceOptions &options, const std::filesystem::path &destination)
{
    auto fetched = fetchHttpWith(url, options, destination, {});
    if (!fetched)
        return fetched.error();
    return {};
}

Result<ConditionalFetch> fetchHttpIfChanged(const std::string &url, const SourceOptions &options,
    const std::filesystem::path &destination, const HttpValidators &known)
{
    return fetchHttpWith(url, options, destination, known);
}

Result<void> fetchBundle(const std::string &url, const SourceOptions &options, const std::filesystem::path &destination)
{
    switch (sourceKind(url)) {
    case SourceKind::HttpBundle:
        return fetchHttp(url, options, destination);
    case SourceKind::ObjectBundle: {
        auto settings = resolveNatsSettings(options.nats, options.environment);
        if (!settings)
            return settings.error().withContext("fetching " + url);
        auto parsed = parseObjectUrl(url);
        if (!parsed)
            return parsed.error();
        auto connection = NatsConnection::connect(settings.value());
        if (!connection)
            return connection.error().withContext("fetching " + url);
        auto store = ObjectStore::open(*connection.value(), parsed->bucket);
        if (!store)
            return store.error().withContext("fetching " + url);
        auto info = store.value().info(parsed->key);
        if (!info)
            return info.error().withContext("fetching " + url);
        if (info->size > options.maxBytes)
            return Error {"too_large", url + ": larger than the limit of " + sizeWords(options.maxBytes)};
        auto fetched = store.value().getToFile(parsed->key, destination);
        if (!fetched)
            return fetched.error().withContext("fetching " + url);
        if (options.progress)
            options.progress(fetched->size, fetched->size);
        return {};
    }
    case SourceKind::YamlFile:
    case SourceKind::LocalBundle:
        break;
    }
    // Appended rather than "'" + ...: GCC 12 -O3 reports -Wrestrict on that (GCC bug 105329).
    std::string message = "'";
    message += redactUrl(url);
    message += "' is not an http://, https:// or obj:// URL";
    return Error {"bad_url", std::move(message)};
}

} // namespace ccm::fleet
