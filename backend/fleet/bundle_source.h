// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "nats_context.h"
#include "result.h"

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
    ContextEnvironment environment = ContextEnvironment::fromProcess();
    std::string httpUser; ///< --http-user USER[:PASSWORD]; credentials in the URL win
    std::chrono::milliseconds timeout {std::chrono::seconds(60)}; ///< a whole transfer
    std::uint64_t maxBytes = 256ull * 1024 * 1024; ///< the largest body accepted
    /// Called as bytes arrive: (received, total or 0 when unknown). May be empty.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

/// Fetches the bundle at `url` (http(s):// or obj://) into the file `destination`, which appears
/// whole or not at all. Errors say what failed and where: the HTTP status, a refused TLS
/// certificate, the size cap, the timeout, a missing bucket or object, a digest mismatch.
Result<void> fetchBundle(const std::string &url, const SourceOptions &options, const std::filesystem::path &destination);

} // namespace ccm::fleet
