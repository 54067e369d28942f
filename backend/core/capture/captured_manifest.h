// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ccm {

// A host written down as a manifest (docs/capture.md): what `ccm-backend capture`, the daemon's
// host.capture and an agent's answer to `fleet capture` produce. The model is independent of how
// it was read, so the same one is written as YAML and files, carried as JSON over the daemon's
// socket and NATS, and turned into resources by the designer.

/// The limits of one capture; docs/capture.md states them.
struct CaptureLimits {
    std::size_t maxFiles = 10'000; ///< files and directories captured; more is an error
    std::size_t maxInlineBytes = 16 * 1024; ///< larger text goes to a source file
    std::size_t maxFileBytes = 64ull * 1024 * 1024; ///< a larger file is skipped as oversize
    std::size_t maxTotalBytes = 256ull * 1024 * 1024; ///< content of every file; more is an error
    std::size_t maxPackages = 100'000;
    std::size_t maxServices = 10'000;
};

/// One resource of the capture, in the order it is written.
struct CapturedResource {
    std::string type; ///< package, service or file
    std::string name;
    /// Its properties in the order a person writes them (ensure first), without the name.
    Json properties = Json::object();
    /// A one-line comment written above it (why it is written this way), empty for none.
    std::string comment;
};

/// A file the manifest refers to by `source:`, relative to the manifest ("files/etc/motd").
struct CapturedSource {
    std::string path;
    std::string content; ///< the bytes, any content
    /// Only its owner could read the captured file: written with mode 0600.
    bool privateContent = false;
};

/// Something under a captured path, or a pattern, that is not in the manifest, and why.
struct CaptureSkip {
    std::string path; ///< the path, or "package PATTERN" / "service PATTERN"
    /// A machine-readable kind: symlink, socket, device, fifo, oversize, unreadable, private,
    /// excluded_by_limit, not_found, no_match, unsupported (a service unit no resource can express).
    std::string kind;
    std::string reason; ///< a sentence for people
};

/// A capture: the resources, the data they look up (with --data), the source files, what was
/// skipped and warnings, and where and when it was made.
struct CapturedManifest {
    std::string host; ///< the host name it was read on
    std::string capturedAt; ///< RFC 3339 UTC, whole seconds
    std::string capturedBy; ///< the user whose rights it was read with
    std::vector<std::string> command; ///< the selection as a command line, for the header comment
    Json data = Json::object(); ///< empty unless values were moved to data
    std::vector<CapturedResource> resources;
    std::vector<CapturedSource> sources;
    std::vector<CaptureSkip> skipped;
    std::vector<std::string> warnings;
};

/// The manifest's YAML: a header comment (host, time, user, command, what was skipped), `data:`
/// when there is any, and `ccm.resources` with one block per type (package, file, service, in
/// that order), each resource with its comment, multi-line content as a literal block. The text
/// loads as a valid manifest for this project and for upstream's schema, and the same capture
/// always gives the same bytes.
std::string captureToYaml(const CapturedManifest &capture);

/// The capture as JSON for the protocol and the fleet: {host, captured_at, captured_by, command,
/// data, resources: [{type, name, properties, comment}], sources: [{path, content_base64,
/// private}], skipped: [{path, kind, reason}], warnings}.
Json captureToJson(const CapturedManifest &capture);

/// Reads what captureToJson wrote, strictly and as from a hostile peer: every member of the
/// right type, resource types among package/service/file, source paths relative, '/'-separated,
/// without "." or ".." parts and unique, and the limits' counts and total bytes kept. Error code
/// "bad_capture" with the member at fault ("resources[3].type").
Result<CapturedManifest> captureFromJson(const Json &json, const CaptureLimits &limits = {});

} // namespace ccm
