// SPDX-License-Identifier: Apache-2.0
#include "engine/util/checksum_read_ahead.h"

#include "base/sha256.h"
#include "base/unique_fd.h"

#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace ccm::engine {

namespace {

std::chrono::nanoseconds sinceEpoch(const timespec &time)
{
    return std::chrono::seconds(time.tv_sec) + std::chrono::nanoseconds(time.tv_nsec);
}

bool sameTime(const timespec &a, const timespec &b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

bool sameFile(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size && a.st_mode == b.st_mode
        && a.st_uid == b.st_uid && a.st_gid == b.st_gid && sameTime(a.st_mtim, b.st_mtim)
        && sameTime(a.st_ctim, b.st_ctim);
}

std::chrono::nanoseconds now()
{
    timespec time {};
    ::clock_gettime(CLOCK_REALTIME, &time);
    return sinceEpoch(time);
}

} // namespace

ChecksumReadAhead::ChecksumReadAhead(std::vector<std::filesystem::path> paths, std::chrono::nanoseconds settledAfter)
    : m_settledAfter(settledAfter)
{
    // The index points into m_paths, reserved in full so that it never moves its elements.
    m_paths.reserve(paths.size());
    m_index.reserve(paths.size());
    for (std::filesystem::path &path : paths) {
        if (m_index.contains(path.native()))
            continue;
        m_paths.push_back(std::move(path));
        m_index.emplace(m_paths.back().native(), m_paths.size() - 1);
    }
    m_entries = std::make_unique<Entry[]>(m_paths.size());
    m_reader = std::thread([this] { readAhead(); });
}

ChecksumReadAhead::~ChecksumReadAhead()
{
    m_stop = true;
    if (m_reader.joinable())
        m_reader.join();
}

void ChecksumReadAhead::waitUntilDone()
{
    if (m_reader.joinable())
        m_reader.join();
}

void ChecksumReadAhead::readAhead()
{
    while (!m_stop.load(std::memory_order_relaxed)) {
        const std::size_t next = m_next.fetch_add(1);
        if (next >= m_paths.size())
            return;
        Entry &entry = m_entries[next];
        State pending = State::Pending;
        if (!entry.state.compare_exchange_strong(pending, State::Reading))
            continue;
        entry.state.store(read(m_paths[next], entry) ? State::Ready : State::Unusable, std::memory_order_release);
        entry.state.notify_one();
    }
}

bool ChecksumReadAhead::read(const std::filesystem::path &path, Entry &entry) const
{
    const std::chrono::nanoseconds started = now();
    // Links are left to the caller, who follows them; O_NONBLOCK keeps a FIFO from blocking open().
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY));
    if (!fd)
        return false;
    bool usable = ::fstat(fd.get(), &entry.seen) == 0 && S_ISREG(entry.seen.st_mode)
        && sinceEpoch(entry.seen.st_mtim) < started - m_settledAfter
        && sinceEpoch(entry.seen.st_ctim) < started - m_settledAfter;
    if (usable) {
        // The size seen saves the read that would find the end: a file that changes after this
        // look no longer matches it when the run compares.
        auto checksum = sha256Descriptor(fd.get(), path, static_cast<std::uint64_t>(entry.seen.st_size));
        usable = checksum.ok();
        if (usable)
            entry.checksum = std::move(checksum).value();
    }
    return usable;
}

std::optional<std::string> ChecksumReadAhead::checksum(const std::filesystem::path &path, const struct stat &current)
{
    const auto found = m_index.find(path.native());
    if (found == m_index.end())
        return std::nullopt;
    Entry &entry = m_entries[found->second];
    State state = State::Pending;
    if (entry.state.compare_exchange_strong(state, State::Taken)) {
        // The reader is behind the run, or this is one of the files it left to the run.
        leaveToRun(found->second);
        return std::nullopt;
    }
    if (state == State::Reading) {
        while (state == State::Reading) {
            entry.state.wait(State::Reading, std::memory_order_acquire);
            state = entry.state.load(std::memory_order_acquire);
        }
        // The run caught up with the reader. Were the reader to go on with the very next file, the
        // run would wait for it again, and for each file after: the two would take turns. Leaving
        // the next few to the run puts the reader ahead again, and both work at once.
        leaveToRun(found->second + 1);
    }
    entry.state.store(State::Taken, std::memory_order_relaxed);
    if (state != State::Ready || !sameFile(entry.seen, current))
        return std::nullopt;
    ++m_hits;
    return std::move(entry.checksum);
}

void ChecksumReadAhead::leaveToRun(std::size_t from)
{
    std::size_t next = m_next.load();
    while (next <= from && !m_next.compare_exchange_weak(next, from + kLead)) {
    }
}

} // namespace ccm::engine
