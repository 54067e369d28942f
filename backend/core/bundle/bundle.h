// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/diagnostic.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// Bundles are gzip tar archives holding `manifest.yaml` at the root, the files it reaches in their
/// layout relative to it, and `SHA256SUMS` (`sha256sum -c` format) covering every other member.

inline constexpr std::string_view kBundleManifestName = "manifest.yaml";
inline constexpr std::string_view kBundleChecksumsName = "SHA256SUMS";

/// True when `path` names a bundle by its extension: .tar.gz or .tgz.
bool isBundlePath(std::string_view path);

/// One file of a bundle besides SHA256SUMS.
struct BundleMember {
    std::string path; ///< relative to the bundle's root, '/'-separated
    std::filesystem::path source; ///< the file whose content goes in, when `content` is not set
    std::optional<std::string> content; ///< the text that goes in (manifests, after normalising)
    bool executable = false;
};

/// A finding about a file the bundle is made from, with the file it is about.
struct BundleFinding {
    std::string file;
    Diagnostic diagnostic;
};

/// "FILE:LINE:COL: severity: message".
std::string formatBundleFinding(const BundleFinding &finding);

/// What goes into a bundle, and what was wrong or doubtful on the way.
struct BundlePlan {
    std::vector<BundleMember> members; ///< sorted by path; manifest.yaml among them
    std::vector<BundleFinding> findings;

    [[nodiscard]] bool ok() const;
};

struct BundleOptions {
    /// Files or directories (taken whole) added by hand; they must sit below the manifest's directory.
    std::vector<std::filesystem::path> includes;
    /// The root manifest's text, read in place of the file's content (an editor's unsaved
    /// edits); the manifest path still places it and names it in findings.
    std::optional<std::string> manifestText;
};

/// Collects what the manifest at `manifestPath` reaches, with the engine's path rules: file and
/// scaffold `source`, files read by template(), readFile(), file() and jet() with literal
/// arguments (in the manifest and in the .templ and .jet files they read), resources_jet_file,
/// and apply child manifests with their own files, relative to each child's directory. The
/// manifest's directory is the bundle's root: a reference that leaves it is an error, one that is
/// computed at run time or absolute (read on the host, not bundled) a warning. Manifests are
/// validated and normalised for upstream's CCM v1 schema (normaliseForUpstream()).
BundlePlan planBundle(const std::filesystem::path &manifestPath, const BundleOptions &options = {});

/// Rewrites what upstream's CCM v1 manifest schema is stricter on, editing only the text that
/// changes so comments and layout stay: file modes become 4-digit quoted octal strings,
/// refresh_only becomes refreshonly, null resource bodies and sections become {} (or [] for
/// resources). Manifests the loader or validator reject are returned unchanged; findings name
/// what could not be normalised (modes computed at run time).
std::string normaliseForUpstream(std::string_view text, std::vector<Diagnostic> *findings = nullptr);

/// Writes the plan as a reproducible bundle: sorted members, fixed mtime, owner and group 0,
/// modes 0644 (0755 for directories and executables), gzip without a timestamp, so the same
/// input gives the same bytes. Written to a temporary file beside `output`, then renamed.
Result<void> writeBundle(const BundlePlan &plan, const std::filesystem::path &output);

/// Caps that keep a hostile bundle from filling the disk.
struct BundleLimits {
    std::uint64_t maxTotalBytes = 512ULL * 1024 * 1024; ///< bytes of all unpacked files together
    std::size_t maxMembers = 20'000;
};

/// A bundle unpacked into a private (0700) temporary directory, removed with everything in it
/// when the object goes, on errors too. Move-only.
class UnpackedBundle {
public:
    /// Unpacks `archive` under `parent` (the system's temporary directory when empty) with
    /// upstream's rules: regular files and directories only; no `..`, absolute paths, links or
    /// devices; caps on size and member count. The first manifest.yaml at the shallowest depth is
    /// the manifest and its directory the base directory. A SHA256SUMS beside it must list every
    /// file below the base directory with its digest. Errors name the member and what is wrong.
    static Result<UnpackedBundle> unpack(const std::filesystem::path &archive, const BundleLimits &limits = {},
        const std::filesystem::path &parent = {});

    UnpackedBundle(UnpackedBundle &&other) noexcept;
    UnpackedBundle &operator=(UnpackedBundle &&other) noexcept;
    UnpackedBundle(const UnpackedBundle &) = delete;
    UnpackedBundle &operator=(const UnpackedBundle &) = delete;
    ~UnpackedBundle();

    /// The private directory everything was unpacked into.
    [[nodiscard]] const std::filesystem::path &directory() const { return m_directory; }
    /// The manifest, and the directory relative files resolve against.
    [[nodiscard]] const std::filesystem::path &manifestPath() const { return m_manifest; }
    [[nodiscard]] std::filesystem::path baseDirectory() const { return m_manifest.parent_path(); }
    /// Every file and directory unpacking created, the directory itself last, deepest first: what
    /// a signal handler removes with unlink() and rmdir() when the process is stopped.
    [[nodiscard]] const std::vector<std::string> &createdPaths() const { return m_created; }

    /// Keeps the directory: it is no longer removed when the object goes, and becomes the
    /// caller's to remove. Returns it.
    std::filesystem::path release();

private:
    UnpackedBundle() = default;
    void remove();

    std::filesystem::path m_directory;
    std::filesystem::path m_manifest;
    std::vector<std::string> m_created;
};

} // namespace ccm
