// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bundle.h"
#include "result.h"

#include <filesystem>
#include <optional>
#include <string>

namespace ccm::cli {

/// A MANIFEST argument of validate, render or apply: a YAML file as it is, or a local bundle
/// (.tar.gz, .tgz) unpacked into a private temporary directory. The directory is removed when the
/// object goes, and by removeBundlesAndDie() when SIGINT or SIGTERM ends the process first.
class ManifestInput {
public:
    /// Opens `argument`; unpacking errors name the member at fault (callers name the bundle).
    static Result<ManifestInput> open(const std::string &argument);

    ManifestInput(ManifestInput &&other) noexcept;
    ManifestInput &operator=(ManifestInput &&) = delete;
    ManifestInput(const ManifestInput &) = delete;
    ManifestInput &operator=(const ManifestInput &) = delete;
    ~ManifestInput();

    /// The manifest file to read.
    [[nodiscard]] const std::filesystem::path &file() const { return m_file; }
    /// How messages name it: the argument, or "BUNDLE(manifest.yaml)" for a bundle.
    [[nodiscard]] const std::string &shownName() const { return m_shownName; }
    /// Where the manifest's relative files are looked up.
    [[nodiscard]] std::filesystem::path baseDirectory() const;

private:
    ManifestInput() = default;

    std::filesystem::path m_file;
    std::string m_shownName;
    std::optional<UnpackedBundle> m_bundle;
};

/// Removes the unpacked bundles of the ManifestInputs alive, then ends the process by `signal` as
/// its default action would. Async-signal-safe: for signal handlers that end the process.
extern "C" void removeBundlesAndDie(int signal);

} // namespace ccm::cli
