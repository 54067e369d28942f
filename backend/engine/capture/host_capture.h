// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/capture/captured_manifest.h"
#include "engine/util/command_runner.h"
#include "engine/util/user_identity.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ccm::engine {

/// What to capture (docs/capture.md, "ccm-backend capture").
struct CaptureRequest {
    /// Glob patterns (fnmatch) over installed package names; each becomes a package resource,
    /// `ensure: present`, or its installed version with `pin`. A pattern nothing matches is a
    /// skip of kind no_match.
    std::vector<std::string> packages;
    /// Glob patterns over service names (without ".service"): `ensure: running|stopped` and
    /// `enable: true|false`. Static, masked and template units are skipped with why.
    std::vector<std::string> services;
    /// Absolute paths of files or directories, each taken recursively: directories before their
    /// contents, entries in byte order of their names.
    std::vector<std::filesystem::path> files;
    /// Glob patterns over absolute paths (fnmatch, FNM_PATHNAME off); a matching directory is
    /// left out with everything below it.
    std::vector<std::string> excludes;
    /// Moves host-specific values into `data:` and refers to them with lookups: package
    /// versions (with `pin`) and the host's name where it appears in captured text.
    bool data = false;
    bool pin = false;
    /// Captures files only their owner may read too (into source files written 0600); otherwise
    /// they are skipped with kind "private" and a warning.
    bool includePrivate = false;
    CaptureLimits limits;
    /// Reads files with this user's rights (the daemon's peer, an agent's preview user): a file
    /// the user may not read is skipped as unreadable. Unset: this process's own rights.
    std::optional<UserIdentity> reader;
    /// The selection as a command line, for the header comment.
    std::vector<std::string> command;
};

/// Reads the host: packages and services through `runner`, files from the file system. Inline
/// content is kept for small text without template delimiters and without anything that looks
/// like a secret (private keys, passwords, tokens); everything else becomes a source file under
/// "files/" mirroring its absolute path. Errors: "bad_request" (a relative path, a bad pattern),
/// "limit" (more files or bytes than the limits allow: the message names the limit and says to
/// narrow the capture with --exclude), and the inventory's errors when packages or services are
/// asked for and cannot be listed.
Result<CapturedManifest> captureHost(const CaptureRequest &request, CommandRunner &runner);

/// Writes a capture: `output` ending in .yaml/.yml gets the manifest there and its source files
/// under "files/" beside it (each written to a temporary file and renamed; nothing is left
/// half-written on failure, and an existing files/ entry that differs is an error, not replaced);
/// `output` ending in .tar.gz/.tgz gets a reproducible bundle of both. Returns the manifest's path
/// (inside a bundle: the unpacked path is the caller's business).
Result<std::filesystem::path> writeCapture(const CapturedManifest &capture, const std::filesystem::path &output);

} // namespace ccm::engine
