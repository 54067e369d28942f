// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/nats_context.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace ccm::fleet {

/// What a MANIFEST argument names.
enum class SourceKind {
    YamlFile, ///< a manifest file on this host
    LocalBundle, ///< a .tar.gz or .tgz on this host
    HttpBundle, ///< an http:// or https:// URL of a bundle
    ObjectBundle, ///< obj://BUCKET/KEY in a NATS JetStream object store
};

/// Classifies `argument` by its form alone: a URL scheme, else the file name's extension.
SourceKind sourceKind(const std::string &argument);

/// How remote sources are reached.
struct SourceOptions {
    NatsSelection nats; ///< --context / --nats, for obj:// and kv://
    /// -R/--registration: the stream registrations() looks entries up in.
    std::string registrationStream = "REGISTRATION";
    ContextEnvironment environment = ContextEnvironment::fromProcess();
    std::string httpUser; ///< --http-user USER[:PASSWORD]; credentials in the URL win
    /// The password when httpUser has none (the CLI fills it from $CCM_HTTP_PASSWORD).
    std::string httpPassword;
    /// A PEM CA bundle that verifies https servers instead of the system's (--http-ca FILE).
    std::string caFile;
    std::chrono::milliseconds timeout {std::chrono::seconds(60)}; ///< a whole transfer
    std::chrono::milliseconds connectTimeout {std::chrono::seconds(15)};
    /// A transfer that receives nothing for this long fails (whole seconds, at least one).
    std::chrono::seconds stallTimeout {std::chrono::seconds(30)};
    std::uint64_t maxBytes = 256ull * 1024 * 1024; ///< the largest body accepted
    /// Called as bytes arrive: (received, total or 0 when unknown). May be empty.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
    /// Raw Ed25519 public keys (--require-signature KEY.pem): when any is given, a bundle must be
    /// signed by one of them, local bundles too; empty: signatures are reported, not required.
    std::vector<std::string> requiredSigners;
};

/// Fetches the bundle at `url` (http(s):// or obj://) into the file `destination`, which appears
/// whole or not at all. Errors say what failed and where: the HTTP status, a refused TLS
/// certificate, the size cap, the timeout, a missing bucket or object, a digest mismatch.
/// The file is written to DESTINATION.part first and renamed.
Result<void> fetchBundle(
    const std::string &url, const SourceOptions &options, const std::filesystem::path &destination);

/// Fetches http(s):// `url` into `destination` as fetchBundle() does. Error codes: "http_status",
/// "too_large", "timeout", "tls", "unreachable", "http" (anything else), "io".
Result<void> fetchHttp(const std::string &url, const SourceOptions &options, const std::filesystem::path &destination);

/// What identifies the version of an HTTP resource, as a server sent it.
struct HttpValidators {
    std::string etag; ///< the ETag header, as sent (quotes included)
    std::string lastModified; ///< the Last-Modified header, as sent
};

/// The outcome of fetchHttpIfChanged().
struct ConditionalFetch {
    bool notModified = false; ///< the server answered 304: `destination` was left alone
    HttpValidators validators; ///< of the version now at `destination`
};

/// fetchHttp() asking the server for the body only when it changed since the version `known`
/// identifies (If-None-Match, If-Modified-Since); a 304 answer is not an error.
Result<ConditionalFetch> fetchHttpIfChanged(const std::string &url, const SourceOptions &options,
    const std::filesystem::path &destination, const HttpValidators &known);

/// True when `text` starts with http:// or https://.
bool isHttpUrl(const std::string &text);

/// `url` with its userinfo (user and password) replaced by "***", for messages and logs.
std::string redactUrl(const std::string &url);

} // namespace ccm::fleet
