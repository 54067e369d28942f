// SPDX-License-Identifier: Apache-2.0
#include "base/http_download.h"

#include "base/c_handle.h"
#include "base/library_check.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <curl/curl.h>
#include <mutex>
#include <sys/types.h>
#include <unistd.h>

namespace ccm {
namespace {

using CurlHandle = CHandle<CURL, curl_easy_cleanup>;
using HeaderList = CHandle<curl_slist, curl_slist_free_all>;

/// The state of one transfer, shared with libcurl's callbacks.
struct Transfer {
    const HttpRequest *request = nullptr;
    CURL *handle = nullptr;
    HttpResponse response;
    long refusedStatus = 0; ///< the status whose body was refused
    bool tooLarge = false;
    int writeError = 0; ///< errno of a failed write of the body
    bool stalled = false;
    /// When bytes last arrived (or the transfer started), to notice a server that stalls.
    std::chrono::steady_clock::time_point lastActivity = std::chrono::steady_clock::now();
    curl_off_t lastReceived = 0;
};

bool acceptedStatus(long status, const HttpRequest &request)
{
    return status == 200 || (status == 304 && request.acceptNotModified);
}

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

std::size_t onHeader(char *data, std::size_t size, std::size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const std::string_view line(data, size * count);
    HttpResponse &response = transfer->response;
    // Each response of a redirect chain starts with its status line: the last one is kept.
    if (line.starts_with("HTTP/")) {
        const std::size_t code = line.find(' ');
        const std::size_t reason = code == std::string_view::npos ? code : line.find(' ', code + 1);
        response.reason.clear();
        if (reason != std::string_view::npos) {
            std::string_view text = line.substr(reason + 1);
            while (!text.empty() && (text.back() == '\r' || text.back() == '\n'))
                text.remove_suffix(1);
            response.reason = std::string(text.substr(0, 100));
        }
        response.etag.clear();
        response.lastModified.clear();
    } else if (auto etag = headerValue(line, "etag")) {
        response.etag = *etag;
    } else if (auto lastModified = headerValue(line, "last-modified")) {
        response.lastModified = *lastModified;
    }
    return size * count;
}

/// Writes all of `data` to `fd`; 0 or the errno of the failure.
int writeAll(int fd, const char *data, std::size_t size)
{
    std::size_t written = 0;
    while (written < size) {
        const ssize_t n = ::write(fd, data + written, size - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return EIO;
        written += static_cast<std::size_t>(n);
    }
    return 0;
}

std::size_t onBody(char *data, std::size_t size, std::size_t count, void *user)
{
    auto *transfer = static_cast<Transfer *>(user);
    const HttpRequest &request = *transfer->request;
    const std::size_t bytes = size * count;
    long status = 0;
    curl_easy_getinfo(transfer->handle, CURLINFO_RESPONSE_CODE, &status);
    // The body of an answer that will not be accepted is not worth receiving: returning less than
    // was given ends the transfer.
    if (!acceptedStatus(status, request)) {
        transfer->refusedStatus = status;
        return 0;
    }
    if (request.maxBytes && transfer->response.bytes + bytes > *request.maxBytes) {
        transfer->tooLarge = true;
        return 0;
    }
    if (request.bodyFd < 0)
        transfer->response.body.append(data, bytes);
    else if ((transfer->writeError = writeAll(request.bodyFd, data, bytes)) != 0)
        return 0;
    transfer->response.bytes += bytes;
    return bytes;
}

/// Called by libcurl at least once a second, data or not.
int onProgress(void *user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t)
{
    auto *transfer = static_cast<Transfer *>(user);
    const HttpRequest &request = *transfer->request;
    const auto clock = std::chrono::steady_clock::now();
    if (now != transfer->lastReceived) {
        transfer->lastReceived = now;
        transfer->lastActivity = clock;
        if (request.progress)
            request.progress(static_cast<std::uint64_t>(now), static_cast<std::uint64_t>(total));
    } else if (request.watchStalls && clock - transfer->lastActivity >= request.stallTimeout) {
        transfer->stalled = true;
        return 1;
    }
    return 0;
}

HttpDownloadError downloadError(
    HttpDownloadErrc code, const std::string &shown, std::string what, std::string detail, long status = 0)
{
    HttpDownloadError error;
    error.code = std::string(codeName(code));
    error.message = shown + ": " + std::move(what);
    error.status = status;
    error.detail = std::move(detail);
    return error;
}

HttpDownloadError setupError(const std::string &shown, const std::string &what)
{
    return downloadError(HttpDownloadErrc::Transfer, shown, what, what);
}

/// The request's headers as libcurl takes them; refuses a header that would split the request.
Result<HeaderList, HttpDownloadError> headerList(const HttpRequest &request, const std::string &shown)
{
    HeaderList headers;
    for (const auto &[name, value] : request.headers) {
        if ((name + value).find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
            return setupError(shown, "the header " + name + " holds a line break");
        // "Name;" is curl's way to send a header with an empty value.
        const std::string line = value.empty() ? name + ";" : name + ": " + value;
        curl_slist *appended = curl_slist_append(headers.get(), line.c_str());
        if (!appended)
            return setupError(shown, "cannot set up the request headers");
        static_cast<void>(headers.release());
        headers.reset(appended);
    }
    return headers;
}

/// Protocols, redirects, TLS checks and time limits.
void setRules(CURL *handle, const HttpRequest &request)
{
    const char *protocols = request.refuseDowngrade && request.url.starts_with("https://") ? "https" : "http,https";
    curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, protocols);
    curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, protocols);
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(handle, CURLOPT_MAXREDIRS, request.maxRedirects);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!request.caFile.empty())
        curl_easy_setopt(handle, CURLOPT_CAINFO, request.caFile.c_str());
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.connectTimeout.count()));
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(
        handle, CURLOPT_LOW_SPEED_TIME, std::max<long>(1, static_cast<long>(request.stallTimeout.count())));
    if (request.maxBytes)
        curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(*request.maxBytes));
    if (request.failOnErrorStatus)
        curl_easy_setopt(handle, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(handle, CURLOPT_USERAGENT, request.userAgent.c_str());
    if (!request.username.empty() || !request.password.empty()) {
        curl_easy_setopt(handle, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
        curl_easy_setopt(handle, CURLOPT_USERNAME, request.username.c_str());
        curl_easy_setopt(handle, CURLOPT_PASSWORD, request.password.c_str());
    }
}

/// The callbacks, all with `transfer`; the progress callback only when it has something to do.
void setCallbacks(CURL *handle, Transfer &transfer, char *detail)
{
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, detail);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
    if (transfer.request->progress || transfer.request->watchStalls) {
        curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, onProgress);
        curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);
        curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    }
}

HttpDownloadError statusError(long status, const std::string &reason, const std::string &shown)
{
    std::string what = "HTTP " + std::to_string(status);
    if (!reason.empty())
        what += ' ' + reason;
    // An error status speaks for itself; any other is only not the one asked for.
    if (status < 400)
        what += " (expected 200)";
    return downloadError(HttpDownloadErrc::Status, shown, what, what, status);
}

HttpDownloadError curlError(CURLcode code, const char *detail, const HttpRequest &request, const std::string &shown)
{
    const std::string why = detail[0] != '\0' ? detail : curl_easy_strerror(code);
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
        return downloadError(HttpDownloadErrc::Timeout, shown, "timed out (" + why + ")", why);
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
        return downloadError(HttpDownloadErrc::Tls, shown, "TLS failed: " + why, why);
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
        return downloadError(HttpDownloadErrc::Unreachable, shown, "cannot connect: " + why, why);
    case CURLE_TOO_MANY_REDIRECTS:
        return downloadError(
            HttpDownloadErrc::Transfer, shown, "more than " + std::to_string(request.maxRedirects) + " redirects", why);
    case CURLE_UNSUPPORTED_PROTOCOL:
        return downloadError(HttpDownloadErrc::Transfer, shown,
            request.refuseDowngrade ? why + " (redirects from https:// to http:// are refused)" : why, why);
    default:
        return downloadError(HttpDownloadErrc::Transfer, shown, why, why);
    }
}

/// How the transfer ended, as an error unless it brought the whole body of an accepted answer.
Result<void, HttpDownloadError> outcome(CURLcode code, long status, const Transfer &transfer, const char *detail)
{
    const HttpRequest &request = *transfer.request;
    const std::string &shown = request.shownUrl.empty() ? request.url : request.shownUrl;
    if (transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED) {
        const std::string what = "larger than the limit of " + byteLimitWords(request.maxBytes.value_or(0));
        return downloadError(HttpDownloadErrc::TooLarge, shown, what, what, status);
    }
    if (transfer.stalled) {
        const std::string what
            = "nothing received for " + std::to_string(request.stallTimeout.count()) + " s (the server stalled)";
        return downloadError(HttpDownloadErrc::Timeout, shown, "timed out: " + what, what, status);
    }
    if (transfer.refusedStatus != 0)
        return statusError(transfer.refusedStatus, transfer.response.reason, shown);
    if (transfer.writeError != 0) {
        const std::string why = std::strerror(transfer.writeError);
        return downloadError(HttpDownloadErrc::Io, shown, "cannot write the body: " + why, why, status);
    }
    if (code == CURLE_HTTP_RETURNED_ERROR || (code == CURLE_OK && status >= 400))
        return statusError(status, transfer.response.reason, shown);
    if (code != CURLE_OK) {
        HttpDownloadError error = curlError(code, detail, request, shown);
        error.status = status;
        return error;
    }
    if (!acceptedStatus(status, request))
        return statusError(status, transfer.response.reason, shown);
    return {};
}

/// Cuts a regular file back to `start`, so that a failed download leaves nothing of its body.
void discardWritten(int fd, off_t start)
{
    if (start < 0)
        return;
    if (::ftruncate(fd, start) == 0)
        ::lseek(fd, start, SEEK_SET);
}

} // namespace

std::string byteLimitWords(std::uint64_t bytes)
{
    if (bytes % (1024 * 1024) == 0)
        return std::to_string(bytes / (1024 * 1024)) + " MiB";
    return std::to_string(bytes) + " bytes";
}

Result<HttpResponse, HttpDownloadError> httpDownload(const HttpRequest &request)
{
    if (auto loaded = requireLibrary(lazy::libcurl); !loaded) {
        HttpDownloadError error;
        error.code = loaded.error().code;
        error.message = loaded.error().message;
        error.detail = loaded.error().message;
        return error;
    }
    static std::once_flag initialised;
    std::call_once(initialised, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });

    const std::string &shown = request.shownUrl.empty() ? request.url : request.shownUrl;
    const CurlHandle curl(curl_easy_init());
    if (!curl)
        return setupError(shown, "cannot set up the HTTP client");
    auto headers = headerList(request, shown);
    if (!headers)
        return headers.error();

    Transfer transfer;
    transfer.request = &request;
    transfer.handle = curl.get();
    char detail[CURL_ERROR_SIZE] = {};
    setRules(curl.get(), request);
    setCallbacks(curl.get(), transfer, detail);
    if (headers.value())
        curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers.value().get());

    const off_t start = request.bodyFd >= 0 ? ::lseek(request.bodyFd, 0, SEEK_CUR) : -1;
    const CURLcode code = curl_easy_perform(curl.get());
    long status = 0;
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
    if (auto ended = outcome(code, status, transfer, detail); !ended) {
        if (request.bodyFd >= 0 && transfer.response.bytes > 0)
            discardWritten(request.bodyFd, start);
        return ended.error();
    }
    transfer.response.status = status;
    return std::move(transfer.response);
}

} // namespace ccm
