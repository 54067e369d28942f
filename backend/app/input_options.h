// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/facts/facts.h"
#include "core/model/json.h"
#include "core/model/resolve.h"
#include "fleet/agent/bundle_source.h"

#include <optional>
#include <string>
#include <vector>

namespace ccm::cli {

/// Defaults for remote sources from the environment: $CCM_HTTP_PASSWORD (the password of a
/// --http-user without one) and $CCM_HTTP_STALL_TIMEOUT (seconds without data before a download fails).
fleet::SourceOptions sourceOptionsFromEnvironment();

/// What the facts, render and apply commands resolve against: --fact K=V (repeatable),
/// --facts FILE and --data FILE|URL, and how remote sources and NATS are reached.
struct InputOptions {
    FactSources facts;
    std::optional<std::string> dataFile;
    fleet::SourceOptions sources = sourceOptionsFromEnvironment();
};

/// The usage lines of the options above, for the commands' help texts.
extern const char *const kInputOptionsUsage;
/// The usage lines of --http-user, --http-ca, --context, --nats and --require-signature.
extern const char *const kSourceOptionsUsage;
/// The usage lines of -R/--registration, for the commands that resolve templates.
extern const char *const kRegistrationOptionUsage;

/// Consumes -R STREAM or --registration STREAM at args[index] like takeInputOption(): the stream
/// registrations() in templates and expressions looks entries up in.
Result<bool> takeRegistrationOption(
    const std::vector<std::string> &args, std::size_t &index, fleet::SourceOptions &options);

/// Consumes --require-signature KEY.pem at args[index] like takeInputOption(), reading the key
/// (a public or private Ed25519 PEM) at once so that a bad one is a usage error.
Result<bool> takeSignatureOption(
    const std::vector<std::string> &args, std::size_t &index, fleet::SourceOptions &options);

/// Consumes --http-user, --http-ca, --context or --nats at args[index] like takeInputOption().
Result<bool> takeSourceOption(const std::vector<std::string> &args, std::size_t &index, fleet::SourceOptions &options);

/// Consumes the input option at args[index] (and its value, advancing index) when it is one; with
/// `withData` also --data and the options of takeSourceOption(), takeSignatureOption() and
/// takeRegistrationOption().
/// Returns false when args[index] is not an input option; an error when its value is missing.
Result<bool> takeInputOption(
    const std::vector<std::string> &args, std::size_t &index, InputOptions &options, bool withData);

/// Reads --data: a YAML or JSON map in a file, at an http(s):// URL or in a NATS key-value entry
/// (kv://BUCKET/KEY). Errors say FILE:LINE:COL (or the URL) and what is wrong.
Result<Json> loadDataFile(const std::string &path, const fleet::SourceOptions &sources = {});

/// What a manifest is resolved against: facts with the options' overrides (the system's gathered
/// when first read; the files of the overrides read now, so that their errors come first), the process
/// environment, --data, and kvGet() and registrations() (in the -R stream) through NATS connections
/// made on their first calls. The base directory is left for the caller. Errors say which input
/// failed.
Result<ResolveOptions> resolveInputs(const InputOptions &options);

} // namespace ccm::cli
