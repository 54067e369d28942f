// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/temp_dir.h"
#include "core/bundle/bundle_opener.h"
#include "fleet/agent/bundle_source.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ccm::cli {

/// Paths that SIGINT and SIGTERM remove (with unlink(), else rmdir(), in order: deepest first)
/// while the object lives, before the process ends as the signal's default action would.
/// Several may live at once (a fetched --data file while a bundle is open).
class RemoveOnSignal {
public:
    explicit RemoveOnSignal(std::vector<std::string> paths);
    ~RemoveOnSignal();
    RemoveOnSignal(const RemoveOnSignal &) = delete;
    RemoveOnSignal &operator=(const RemoveOnSignal &) = delete;

    /// Removes `paths` instead from now on, without a moment in which neither list is covered.
    void replace(std::vector<std::string> paths);

private:
    int m_slot = -1;
    std::unique_ptr<std::vector<std::string>> m_paths;
};

/// A private (0700) temporary directory, removed with its contents when the object goes or when
/// SIGINT or SIGTERM ends the process. `files` names what will be created in it, so a signal
/// handler can remove them without listing the directory.
class PrivateDirectory {
public:
    static Result<std::unique_ptr<PrivateDirectory>> create(const std::vector<std::string> &files);
    ~PrivateDirectory();
    PrivateDirectory(const PrivateDirectory &) = delete;
    PrivateDirectory &operator=(const PrivateDirectory &) = delete;

    [[nodiscard]] const std::filesystem::path &path() const { return m_directory.path(); }

private:
    PrivateDirectory() = default;

    TempDir m_directory;
    std::optional<RemoveOnSignal> m_onSignal;
};

/// A MANIFEST argument of validate, render or apply: a YAML file as it is, a local bundle (.tar.gz,
/// .tgz), or a bundle at an http(s):// or obj:// URL fetched into a private temporary directory;
/// bundles are unpacked into a private temporary directory. Everything created is removed when the
/// object goes, and by removeBundlesAndDie() when SIGINT or SIGTERM ends the process first.
class ManifestInput {
public:
    /// Opens `argument`; errors say what failed (the HTTP status, the member at fault) without
    /// naming the argument, which callers name with displayName(). With
    /// `sources.requiredSigners`, a bundle not signed by one of them (and a manifest file, which
    /// cannot be signed) is refused with a BundleSignatureErrc.
    static Result<ManifestInput> open(const std::string &argument, const fleet::SourceOptions &sources = {});

    /// How messages name `argument`: as given, with a URL's credentials hidden.
    static std::string displayName(const std::string &argument);

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
    /// Who signed the bundle, for the commands to print: "site.tar.gz: signed by key
    /// 3f9a0c2e81b7d465", "...: not signed", "...: warning: its signature is invalid: ...";
    /// empty for a manifest file.
    [[nodiscard]] std::string signatureNote() const;
    /// The bundle's signature, or nullptr for a manifest file.
    [[nodiscard]] const BundleSignatureCheck *signatureCheck() const
    {
        return m_bundle ? &m_bundle->signatureCheck() : nullptr;
    }

private:
    ManifestInput() = default;

    std::filesystem::path m_file;
    std::string m_shownName;
    std::string m_displayName;
    std::optional<UnpackedBundle> m_bundle;
    std::unique_ptr<RemoveOnSignal> m_onSignal;
};

/// Fetches the http(s):// `url` into a private temporary directory and returns its text, removing
/// the directory after (and on SIGINT or SIGTERM). Errors name the URL.
Result<std::string> fetchText(const std::string &url, const fleet::SourceOptions &sources, std::uint64_t maxBytes);

/// Removes the paths of every RemoveOnSignal alive, then ends the process by `signal` as its
/// default action would. Async-signal-safe: for signal handlers that end the process.
extern "C" void removeBundlesAndDie(int signal);

} // namespace ccm::cli
