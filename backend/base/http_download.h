// SPDX-License-Identifier: Apache-2.0
// The one HTTP(S) download of the backend, on libcurl: archive resources fetch their source with
// it, the agent and the command line their bundles. Where its users' rules differ (redirects,
// limits, which statuses end the transfer) the request says which; the transfer itself, its
// callbacks and the wording of its errors are written here once.
#pragma once

#include "base/error_code.h"
#include "base/result.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccm {

/// Why a download failed, as its callers tell the reasons apart.
enum class HttpDownloadErrc {
    Status, ///< the server answered with a status the request does not accept
    TooLarge, ///< the body is larger than the request's limit
    Timeout, ///< connecting, the whole transfer or a stalled server took too long
    Tls, ///< the TLS handshake failed or the server's certificate was not trusted
    Unreachable, ///< the host name does not resolve, or nothing answers on its port
    Transfer, ///< anything else: too many redirects, a protocol refused, libcurl could not be set up
    Io, ///< the body could not be written where it was to go
};

} // namespace ccm

template<> struct ccm::ErrorCodeNames<ccm::HttpDownloadErrc> {
    static constexpr std::array kNames {
        std::pair {ccm::HttpDownloadErrc::Status, std::string_view("http_status")},
        std::pair {ccm::HttpDownloadErrc::TooLarge, std::string_view("too_large")},
        std::pair {ccm::HttpDownloadErrc::Timeout, std::string_view("timeout")},
        std::pair {ccm::HttpDownloadErrc::Tls, std::string_view("tls")},
        std::pair {ccm::HttpDownloadErrc::Unreachable, std::string_view("unreachable")},
        std::pair {ccm::HttpDownloadErrc::Transfer, std::string_view("http")},
        std::pair {ccm::HttpDownloadErrc::Io, std::string_view("io")},
    };
};

namespace ccm {

/// What to fetch, and the rules of the transfer.
struct HttpRequest {
    /// http:// or https://; user and password in it are used.
    std::string url;
    /// The URL as errors name it, its credentials hidden; `url` itself when empty.
    std::string shownUrl;
    /// Sent in this order, "Name: value"; an empty value is sent as an empty header. A name or
    /// value holding a line break is refused rather than sent.
    std::vector<std::pair<std::string, std::string>> headers;
    /// Basic authentication, when either is set.
    std::string username;
    std::string password;
    /// A PEM CA bundle that verifies https servers instead of the system's. Certificates and host
    /// names are always verified.
    std::string caFile;
    std::string userAgent = "ccm";
    long maxRedirects = 10;
    /// An https URL may redirect only to https; the error of a refused redirect says so.
    bool refuseDowngrade = false;
    std::chrono::milliseconds connectTimeout {std::chrono::seconds(30)};
    /// The whole transfer, redirects included.
    std::chrono::milliseconds timeout {std::chrono::seconds(600)};
    /// A transfer that receives nothing for this long fails (whole seconds, at least one).
    std::chrono::seconds stallTimeout {60};
    /// Checks for a stall each second rather than by libcurl's low-speed average, which notices it
    /// late; the error then says how long nothing came.
    bool watchStalls = false;
    /// The largest body accepted; none when unset.
    std::optional<std::uint64_t> maxBytes;
    /// A status of 400 or more ends the transfer as soon as its headers are in (libcurl's
    /// FAILONERROR) rather than at its first byte of body.
    bool failOnErrorStatus = false;
    /// A 304 (Not Modified) answer is a success, without a body; otherwise only 200 is.
    bool acceptNotModified = false;
    /// Where the body is written, at the descriptor's offset; not owned. When -1, the body is
    /// kept in HttpResponse::body.
    int bodyFd = -1;
    /// Called as bytes arrive: (received, total or 0 when unknown). May be empty.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

/// The answer of a download that succeeded.
struct HttpResponse {
    long status = 0; ///< 200, or 304 when the request accepts it
    std::string reason; ///< of the status line, as the server sent it ("OK")
    std::uint64_t bytes = 0; ///< of the body
    std::string etag; ///< the ETag header, as sent (quotes included)
    std::string lastModified; ///< the Last-Modified header, as sent
    std::string body; ///< when the request has no bodyFd
};

/// The error of a download: its message names the shown URL and what failed; code is one of
/// HttpDownloadErrc's, or "library_unavailable" when libcurl cannot be loaded.
struct HttpDownloadError : Error {
    long status = 0; ///< the last status received, 0 when none
    /// What failed without the URL: libcurl's reason, the system's text for a failed write, or
    /// the message itself where there is nothing more.
    std::string detail;
};

/// GETs request.url with redirects followed (http and https only) and writes the body where the
/// request says. It succeeds only with the whole body of a 200 answer (or a 304 the request
/// accepts); the body of any other answer is never written, and after a failure nothing of the
/// body is left where it was to go (a regular file is cut back to where it started).
Result<HttpResponse, HttpDownloadError> httpDownload(const HttpRequest &request);

/// A size limit in words: "256 MiB" for whole mebibytes, else "102400 bytes".
std::string byteLimitWords(std::uint64_t bytes);

} // namespace ccm
