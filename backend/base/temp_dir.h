// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <filesystem>
#include <string_view>

namespace ccm {

/// A private (0700) temporary directory, removed with everything in it when the object goes.
/// Move-only; a default-constructed or released one holds nothing.
class TempDir {
public:
    /// Makes PREFIX-XXXXXX (the Xs random) in `parent`, or in systemDirectory() when `parent` is
    /// empty. Errors name the directory it was to be made in and the system's reason.
    static Result<TempDir> create(std::string_view prefix, const std::filesystem::path &parent = {});

    /// The system's temporary directory: $TMPDIR when it names a directory, else /tmp.
    static std::filesystem::path systemDirectory();

    TempDir() = default;
    TempDir(TempDir &&other) noexcept;
    TempDir &operator=(TempDir &&other) noexcept;
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    ~TempDir();

    /// The directory; empty when the object holds none.
    [[nodiscard]] const std::filesystem::path &path() const { return m_path; }
    [[nodiscard]] bool empty() const { return m_path.empty(); }

    /// Removes the directory with everything in it now, directories made read-only inside it
    /// too. The object holds nothing after, also when something could not be removed, which
    /// the error names.
    Result<void> remove();

    /// Keeps the directory: it is no longer removed when the object goes and becomes the
    /// caller's to remove. Returns it.
    std::filesystem::path release();

private:
    explicit TempDir(std::filesystem::path path);

    std::filesystem::path m_path;
};

} // namespace ccm
