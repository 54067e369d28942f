// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ccm::engine {

/// The SHA-256 checksums of files a run is about to compare, read and hashed in declaration order
/// on a thread of their own while the run works through the resources before them, so that
/// reading files uses the second core. The run still looks at each file itself when its resource
/// comes (a stat), and takes the checksum read ahead only when that look shows the very file that
/// was read, unchanged since: same device, inode, size, mode, owner, group, modification and change
/// times. Anything else (not read ahead yet, not a regular file, a symbolic link, changed, or
/// changed so recently that a change in the same timestamp tick could go unseen) is read by the
/// caller as if there were no read-ahead, so what a run finds is what it would find without it.
class ChecksumReadAhead {
public:
    /// Files whose modification or change time is less than this before they were read ahead are
    /// not trusted: a write in the same tick of the file system's clock would leave the times as
    /// they were. Two seconds covers the coarsest common timestamps (FAT); on other file systems
    /// it only means that files changed in the last two seconds are read by the caller.
    static constexpr std::chrono::nanoseconds kSettledAfter = std::chrono::seconds(2);

    /// Starts reading `paths` ahead, in their order; a path given twice is read once.
    explicit ChecksumReadAhead(std::vector<std::filesystem::path> paths, std::chrono::nanoseconds settledAfter = kSettledAfter);
    /// Stops reading ahead and waits for the file being read.
    ~ChecksumReadAhead();
    ChecksumReadAhead(const ChecksumReadAhead &) = delete;
    ChecksumReadAhead &operator=(const ChecksumReadAhead &) = delete;

    /// The checksum of `path` as read ahead, when `current` (the caller's stat of it, just taken)
    /// shows the same file unchanged; nullopt when the caller must read it itself. Waits while the
    /// file is being read; one not started yet is left to the caller. Whenever the caller has
    /// caught up with the reader, reading ahead moves on a few files past this one, leaving those
    /// to the caller. Each path's checksum is given once. Called from one thread, the run's.
    [[nodiscard]] std::optional<std::string> checksum(const std::filesystem::path &path, const struct stat &current);

    /// Waits until the reading thread has been through every path.
    void waitUntilDone();

    /// How many checksums were given from the read-ahead so far.
    [[nodiscard]] std::size_t hits() const { return m_hits; }

private:
    enum class State : std::uint8_t { Pending, Reading, Ready, Unusable, Taken };
    struct Entry {
        std::atomic<State> state {State::Pending};
        struct stat seen { };
        std::string checksum;
    };

    /// How many files, from where the run caught up with the reader, are left to the run.
    static constexpr std::size_t kLead = 16;

    void readAhead();
    /// Leaves the kLead files from `from` on to the run, unless the reader took `from` already.
    void leaveToRun(std::size_t from);
    [[nodiscard]] bool read(const std::filesystem::path &path, Entry &entry) const;

    std::vector<std::filesystem::path> m_paths;
    std::unique_ptr<Entry[]> m_entries;
    std::unordered_map<std::string_view, std::size_t> m_index;
    std::chrono::nanoseconds m_settledAfter;
    /// The next entry the reading thread takes; the caller moves it on when it gets ahead.
    std::atomic<std::size_t> m_next {0};
    std::atomic<bool> m_stop {false};
    std::size_t m_hits = 0;
    std::thread m_reader;
};

} // namespace ccm::engine
