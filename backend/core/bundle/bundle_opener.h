// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/temp_dir.h"
#include "core/bundle/bundle_signature.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ccm {

/// Opening a bundle, written once for every program: a bundle fetched from elsewhere goes to a
/// private temporary directory first (BundleDownload); then the archive is unpacked, member by
/// member checked, into a private temporary directory that the UnpackedBundle owns.

/// Caps that keep a hostile bundle from filling the disk.
struct BundleLimits {
    std::uint64_t maxTotalBytes = 512ULL * 1024 * 1024; ///< bytes of all unpacked files together
    std::size_t maxMembers = 20'000;
};

/// A private (0700) temporary directory a bundle from elsewhere (a URL, an object store) is
/// fetched into, before UnpackedBundle::unpack() opens it. Move-only; the directory goes with the
/// object unless an UnpackedBundle took it.
class BundleDownload {
public:
    /// Makes the directory in `parent`, or in the system's temporary directory when empty; the
    /// bundle is unpacked beside it.
    static Result<BundleDownload> create(const std::filesystem::path &parent = {});

    [[nodiscard]] const std::filesystem::path &directory() const { return m_directory.path(); }
    /// The file the fetch writes the archive to.
    [[nodiscard]] std::filesystem::path archivePath() const;
    /// What a fetch may create (the archive and its ".part" file), the directory itself last: what
    /// a signal handler removes with unlink() and rmdir() while the fetch runs.
    [[nodiscard]] std::vector<std::string> fetchPaths() const;

private:
    explicit BundleDownload(TempDir directory);

    TempDir m_directory;
};

/// A bundle unpacked into a private (0700) temporary directory, removed with everything in it
/// when the object goes, on errors too. Move-only.
class UnpackedBundle {
public:
    /// Unpacks the local `archive` under `parent` (the system's temporary directory when empty)
    /// with upstream's rules: regular files and directories only; no `..`, absolute paths, links
    /// or devices; caps on size and member count. The first manifest.yaml at the shallowest depth
    /// is the manifest and its directory the base directory. A SHA256SUMS beside it must list
    /// every file below the base directory with its digest. Errors name the member and what is
    /// wrong.
    static Result<UnpackedBundle> unpack(const std::filesystem::path &archive, const BundleLimits &limits = {},
        const std::filesystem::path &parent = {});
    /// Unpacks the archive fetched into `download` with the same rules, into a private directory
    /// beside the download's, which goes with the archive before this returns.
    static Result<UnpackedBundle> unpack(BundleDownload &&download, const BundleLimits &limits = {});

    UnpackedBundle(UnpackedBundle &&other) noexcept = default;
    UnpackedBundle &operator=(UnpackedBundle &&other) noexcept = default;
    UnpackedBundle(const UnpackedBundle &) = delete;
    UnpackedBundle &operator=(const UnpackedBundle &) = delete;
    ~UnpackedBundle() = default;

    /// The private directory everything was unpacked into.
    [[nodiscard]] const std::filesystem::path &directory() const { return m_directory.path(); }
    /// The manifest, and the directory relative files resolve against.
    [[nodiscard]] const std::filesystem::path &manifestPath() const { return m_manifest; }
    [[nodiscard]] std::filesystem::path baseDirectory() const { return m_manifest.parent_path(); }
    /// What SHA256SUMS.sig says, checked against SHA256SUMS once that verified: whether the
    /// bundle is signed, by whom, or why its signature does not hold. Whether that is enough is
    /// the caller's to decide (an agent with bundle_keys, --require-signature).
    [[nodiscard]] const BundleSignatureCheck &signatureCheck() const { return m_signature; }
    /// Every file and directory unpacking created, the directory itself last, deepest first: what
    /// a signal handler removes with unlink() and rmdir() when the process is stopped.
    [[nodiscard]] const std::vector<std::string> &createdPaths() const { return m_created; }

    /// Keeps the directory: it is no longer removed when the object goes, and becomes the
    /// caller's to remove. Returns it.
    std::filesystem::path release();

private:
    UnpackedBundle() = default;

    TempDir m_directory; ///< removed with everything in it when the object goes
    std::filesystem::path m_manifest;
    BundleSignatureCheck m_signature;
    std::vector<std::string> m_created;
};

} // namespace ccm
