// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/archive/archive_type.h"
#include "engine/resources/file/posix/posix_file_provider.h"

#include <chrono>

namespace ccm::engine {

/// How long a download may take before it is given up.
struct DownloadTimeouts {
    std::chrono::seconds connect {30};
    /// The whole transfer, redirects included.
    std::chrono::seconds total {600};
    /// A transfer that receives nothing for this long is given up before the total is reached.
    std::chrono::seconds stalled {60};
};

/// Archives fetched with libcurl over http or https and unpacked with libarchive.
class HttpArchiveProvider : public ArchiveProvider {
public:
    explicit HttpArchiveProvider(DownloadTimeouts timeouts = {});

    [[nodiscard]] std::string_view name() const override { return "http"; }

    /// Metadata of the archive file through stat (a symbolic link is followed), its SHA-256, and
    /// whether creates exists. A directory at the archive's path is an Error.
    [[nodiscard]] Result<ArchiveState> status(const ArchiveSpec &spec) override;

    /// GET with redirects followed (http and https only), the headers and basic authentication of
    /// spec. The body goes to a new temporary file beside the target (created exclusively, never
    /// through a link), which gets owner, group and mode 0644, is flushed, checked against
    /// spec.checksum and only then renamed over the target. Any status but 200, a transfer error,
    /// a timeout or a checksum mismatch removes the temporary file and leaves the target as it
    /// was. Messages show the URL with its password redacted and never a header value.
    [[nodiscard]] Result<void> download(const ArchiveSpec &spec, Logger &log) override;

    /// extractArchive() into spec.extractParent; running as root, owners and permissions recorded
    /// in the archive are restored as tar does.
    [[nodiscard]] Result<void> extract(const ArchiveSpec &spec, Logger &log) override;

    /// Refuses a directory rather than removing it.
    [[nodiscard]] Result<void> remove(const std::filesystem::path &path) override;

    /// As PosixFileProvider::userId.
    [[nodiscard]] Result<uid_t> userId(const std::string &owner) override;

    /// As PosixFileProvider::groupId.
    [[nodiscard]] Result<gid_t> groupId(const std::string &group) override;

private:
    DownloadTimeouts m_timeouts;
    // Attributes and user database answers come from the file provider, kept for the run.
    PosixFileProvider m_files;
};

/// Makes HttpArchiveProvider: priority 1 for an archive resource without url or with an http or
/// https url; not manageable for other schemes.
class HttpArchiveProviderFactory : public ProviderFactory {
public:
    [[nodiscard]] std::string_view typeName() const override { return "archive"; }
    [[nodiscard]] std::string_view name() const override { return "http"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    [[nodiscard]] std::string unavailableReason() const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;
};

} // namespace ccm::engine
