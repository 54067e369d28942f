// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/signing_key.h"
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

/// True when `path` names a bundle by its extension: .tar.gz or .tgz, in any case (.TGZ, .Tar.Gz).
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

/// Writes the plan as a reproducible bundle: manifest.yaml first (upstream runs the first one in
/// archive order), the other members sorted, fixed mtime, owner and group 0,
/// modes 0644 (0755 for directories and executables), gzip without a timestamp, so the same
/// input gives the same bytes. Written to a temporary file beside `output`, then renamed. With a
/// `signer`, SHA256SUMS.sig beside SHA256SUMS holds its signature (bundle_signature.h); Ed25519
/// signatures are deterministic, so signed bundles are reproducible too.
Result<void> writeBundle(
    const BundlePlan &plan, const std::filesystem::path &output, const SigningKey *signer = nullptr);

} // namespace ccm
