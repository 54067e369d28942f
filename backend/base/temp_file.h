// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/unique_fd.h"

#include <filesystem>
#include <string_view>
#include <sys/types.h>

namespace ccm {

/// A new private (0600) file, open for reading and writing, removed when the object goes unless it
/// was committed over its destination. Move-only; a default-constructed one holds nothing.
class TempFile {
public:
    /// Makes PREFIX-XXXXXXSUFFIX (the Xs random) in `directory`, or in the system's temporary
    /// directory when empty. Errors name the directory and the system's reason.
    static Result<TempFile> create(
        std::string_view prefix, const std::filesystem::path &directory = {}, std::string_view suffix = {});
    /// One beside `destination` (.NAME-XXXXXX in its directory), to write it whole and commit() it
    /// over the destination, which is never seen half written.
    static Result<TempFile> beside(const std::filesystem::path &destination);

    TempFile() = default;
    TempFile(TempFile &&other) noexcept;
    TempFile &operator=(TempFile &&other) noexcept;
    TempFile(const TempFile &) = delete;
    TempFile &operator=(const TempFile &) = delete;
    ~TempFile();

    /// The open descriptor; -1 once closed.
    [[nodiscard]] int fd() const { return m_fd.get(); }
    /// The file; empty when the object holds none.
    [[nodiscard]] const std::filesystem::path &path() const { return m_path; }

    /// Closes the descriptor; the file stays until the object goes.
    Result<void> close();
    /// Gives the file `mode`, writes it to disk, closes it and renames it over `destination`; from
    /// then on it is the destination, no longer removed. On failure the file goes with the object.
    Result<void> commit(const std::filesystem::path &destination, mode_t mode = 0644);

private:
    TempFile(std::filesystem::path path, int fd);
    void discard();

    std::filesystem::path m_path;
    UniqueFd m_fd;
};

} // namespace ccm
