// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/bundle_source.h"

#include "base/http_download.h"
#include "core/bundle/bundle.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"
#include "fleet/nats/partial_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
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

/// The download of `url` by the agent's rules: an https URL never redirects to http, at most
/// kMaxRedirects redirects, the size limit, stalls noticed each second, `known` as If-None-Match /
/// If-Modified-Since, and --http-user unless the URL has credentials of its own.
HttpRequest bundleRequest(const std::string &url, const SourceOptions &options, const HttpValidators &known, int bodyFd)
{
    HttpRequest request;
    request.url = url;
    request.shownUrl = redactUrl(url);
    for (const auto &[name, value] :
        {std::pair {"If-None-Match", known.etag}, {"If-Modified-Since", known.lastModified}})
        if (!value.empty() && value.find_first_of("\r\n") == std::string::npos)
            request.headers.emplace_back(name, value);
    std::size_t start = 0;
    if (userinfoEnd(url, start) == std::string::npos && !options.httpUser.empty()) {
        const std::size_t colon = options.httpUser.find(':');
        request.username = options.httpUser.substr(0, colon);
        request.password = colon == std::string::npos ? options.httpPassword : options.httpUser.substr(colon + 1);
    }
    request.caFile = options.caFile;
    request.userAgent = "ccm-backend";
    request.maxRedirects = kMaxRedirects;
    request.refuseDowngrade = true;
    request.connectTimeout = options.connectTimeout;
    request.timeout = options.timeout;
    request.stallTimeout = options.stallTimeout;
    request.watchStalls = true;
    request.maxBytes = options.maxBytes;
    // Error statuses end the transfer before any body is written; the status goes in the message.
    request.failOnErrorStatus = true;
    request.acceptNotModified = true;
    request.bodyFd = bodyFd;
    request.progress = options.progress;
    return request;
}

/// The download's error with what the command line adds: the options that help, the file that
/// could not be written.
Error fetchError(const HttpDownloadError &failed, const SourceOptions &options, const std::filesystem::path &partial)
{
    Error error = failed;
    if (hasCode(failed, HttpDownloadErrc::Io))
        return Error {error.code, "cannot write " + partial.string() + ": " + failed.detail};
    if (hasCode(failed, HttpDownloadErrc::Status) && failed.status == 401)
        error.message += " (give credentials with --http-user USER[:PASSWORD] or in the URL)";
    if (hasCode(failed, HttpDownloadErrc::Tls) && options.caFile.empty())
        error.message += "; give the CA that signed the server's certificate with --http-ca FILE";
    return error;
}

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

    const std::filesystem::path partialFile = partialPath(destination);
    const int fd = ::open(partialFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int openError = errno;
        return Error {"io", "cannot create " + partialFile.string() + ": " + std::strerror(openError)};
    }
    PartialFile partial(fd, partialFile);
    auto fetched = httpDownload(bundleRequest(url, options, known, partial.fd()));
    if (!fetched)
        return fetchError(fetched.error(), options, partialFile);
    if (fetched->status == 304)
        return ConditionalFetch {true, known};
    if (auto kept = keepAs(partial, destination); !kept)
        return kept.error();
    return ConditionalFetch {false, HttpValidators {fetched->etag, fetched->lastModified}};
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
            return Error {"too_large", url + ": larger than the limit of " + byteLimitWords(options.maxBytes)};
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
