// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/preview/preview_wire.h"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ccm::fleet {

/// The ids of the fleet preview requests a host accepted, each kept until its request expires, so
/// that a captured request runs at most once. One store serves every responder of a process (a
/// responder lives as long as one NATS connection or one configuration), and a store with a file
/// writes every id to it before the request runs, so a restarted agent still knows it.
///
/// The file (mode 0600, replaced atomically) holds a version line, an optional
/// `not-before <unix ms>` line and one `<expires unix ms> <id>` line per id. When a file exists
/// but cannot be trusted (unreadable, malformed, hostile, too large), its ids are lost: every
/// request issued before the load, plus the clock skew agents allow, is then refused until such a
/// request would have expired anyway, and that horizon is written to the new file too.
class SeenRequests {
public:
    static constexpr std::size_t kDefaultCapacity = 100'000;

    /// A store kept in memory only.
    explicit SeenRequests(std::size_t capacity = kDefaultCapacity);

    struct Loaded {
        std::shared_ptr<SeenRequests> store;
        /// Why the file's ids were not taken (the store then refuses older requests); empty when
        /// the file was read or did not exist.
        std::optional<Error> problem;
    };
    /// A store kept in `file`, with the ids of the file that have not expired at `now`. Never
    /// fails: a file that cannot be used is reported in `problem` and replaced on the next write.
    static Loaded load(
        const std::filesystem::path &file, Clock::time_point now, std::size_t capacity = kDefaultCapacity);

    SeenRequests(const SeenRequests &) = delete;
    SeenRequests &operator=(const SeenRequests &) = delete;

    /// Records the id of `request`, which passed its signature and time checks at `now`, and with
    /// a file, writes the file before returning. Error codes: "replayed" (the id was seen and has
    /// not expired), "issued_before_loss" (issued before the store lost the ids of a broken file),
    /// "full" (capacity unexpired ids: a flood is refused rather than forgotten), "io" (the file
    /// cannot be written: the request is refused, as a restart would forget it).
    Result<void> remember(const PreviewRequest &request, Clock::time_point now);

    /// Takes the unexpired ids and horizon of `other` (the store of a cache_dir given up on a
    /// reload) and writes the file. Error code "io".
    Result<void> absorb(const SeenRequests &other, Clock::time_point now);

    [[nodiscard]] std::size_t size() const;
    /// The file, empty for a store in memory.
    [[nodiscard]] const std::filesystem::path &file() const { return m_file; }

private:
    SeenRequests(std::filesystem::path file, std::size_t capacity);

    /// Takes the ids of a file's `text`; the problem with the first line that is not right.
    std::optional<Error> parse(std::string_view text, Clock::time_point now);
    void dropExpired(Clock::time_point now);
    void add(const std::string &id, Clock::time_point expires);
    Result<void> save() const;

    std::filesystem::path m_file;
    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, Clock::time_point> m_expiry;
    std::multimap<Clock::time_point, std::string> m_byExpiry;
    std::optional<Clock::time_point> m_notBefore;
};

} // namespace ccm::fleet
