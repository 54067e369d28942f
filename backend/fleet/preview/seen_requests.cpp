// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/seen_requests.h"

#include "base/private_files.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::fleet {
namespace {

constexpr std::string_view kHeader = "ccm-preview-seen 1";
constexpr std::string_view kNotBefore = "not-before ";
/// A line is at most 19 digits, a space, a 64-character id and a newline.
constexpr std::size_t kMaxLineBytes = 85;
/// The latest a request that passes checkRequestRules at `now` can expire is now plus this.
constexpr auto kLongestValidity = kMaxRequestLifetime + kMaxClockSkew;

std::int64_t toMs(Clock::time_point time)
{
    return std::chrono::ceil<std::chrono::milliseconds>(time.time_since_epoch()).count();
}

Clock::time_point fromMs(std::int64_t ms)
{
    return Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::milliseconds(ms)));
}

std::string errnoText(int number)
{
    return std::strerror(number);
}

bool validId(std::string_view id)
{
    if (id.size() < 16 || id.size() > 64)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

/// Unix milliseconds in decimal, up to the year 2096: later ones would overflow the clock's
/// nanoseconds, and no request lives that long.
std::optional<std::int64_t> parseMs(std::string_view text)
{
    constexpr std::int64_t kLatest = 4'000'000'000'000;
    std::int64_t value = 0;
    if (text.empty() || text.front() == '-')
        return std::nullopt;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value > kLatest)
        return std::nullopt;
    return value;
}

/// The file's text, nullopt when it does not exist. Only a regular file of this user that nobody
/// else may write is read: anyone who could change it could make this host forget its ids.
Result<std::optional<std::string>> readOwnFile(const std::filesystem::path &file, std::size_t maxBytes)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return std::optional<std::string>();
        return Error {"io", "cannot open it: " + errnoText(errno)};
    }
    struct stat info { };
    std::string text;
    std::optional<Error> problem;
    if (::fstat(fd, &info) != 0)
        problem = Error {"io", "cannot stat it: " + errnoText(errno)};
    else if (!S_ISREG(info.st_mode) || info.st_uid != ::geteuid() || (info.st_mode & 022) != 0)
        problem = Error {"untrusted", "it is not a regular file of this user that only this user may write"};
    else if (static_cast<std::uint64_t>(info.st_size) > maxBytes)
        problem = Error {"too_large", std::to_string(info.st_size) + " bytes is more than it can hold"};
    else {
        text.resize(static_cast<std::size_t>(info.st_size));
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t got = ::read(fd, text.data() + done, text.size() - done);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                problem = Error {"io", "cannot read it: " + errnoText(got < 0 ? errno : EIO)};
                break;
            }
            done += static_cast<std::size_t>(got);
        }
    }
    ::close(fd);
    if (problem)
        return *problem;
    return std::optional<std::string>(std::move(text));
}

} // namespace

SeenRequests::SeenRequests(std::size_t capacity)
    : m_capacity(capacity)
{
}

SeenRequests::SeenRequests(std::filesystem::path file, std::size_t capacity)
    : m_file(std::move(file))
    , m_capacity(capacity)
{
}

SeenRequests::Loaded SeenRequests::load(const std::filesystem::path &file, Clock::time_point now, std::size_t capacity)
{
    std::shared_ptr<SeenRequests> store(new SeenRequests(file, capacity));
    auto read = readOwnFile(file, kHeader.size() + 1 + kMaxLineBytes * (capacity + 1));
    std::optional<Error> problem;
    if (!read)
        problem = read.error();
    else if (read->has_value())
        problem = store->parse(**read, now);
    if (!problem)
        return {store, std::nullopt};
    store->m_expiry.clear();
    store->m_byExpiry.clear();
    // A captured request may carry an issue time up to the allowed skew ahead of this clock.
    store->m_notBefore = now + kMaxClockSkew;
    std::string message = file.string() + ": " + problem->message
        + "; the request ids it held are lost, so requests issued before "
        + formatRfc3339(std::chrono::ceil<std::chrono::seconds>(*store->m_notBefore)) + " are refused";
    if (auto saved = store->save(); !saved)
        message += " (" + saved.error().message + ")";
    return {store, Error {problem->code, message}};
}

std::optional<Error> SeenRequests::parse(std::string_view text, Clock::time_point now)
{
    std::size_t number = 0;
    while (!text.empty()) {
        ++number;
        const std::size_t end = text.find('\n');
        if (end == std::string_view::npos)
            return Error {"malformed", "line " + std::to_string(number) + ": the line does not end"};
        const std::string_view line = text.substr(0, end);
        text.remove_prefix(end + 1);
        const auto at = [number](const std::string &what) {
            return Error {"malformed", "line " + std::to_string(number) + ": " + what};
        };
        if (number == 1) {
            if (line != kHeader)
                return at(
                    "not a file of seen preview requests (it does not start with '" + std::string(kHeader) + "')");
            continue;
        }
        if (number == 2 && line.starts_with(kNotBefore)) {
            const auto ms = parseMs(line.substr(kNotBefore.size()));
            if (!ms)
                return at("not-before is not a time in milliseconds");
            // Never later than a horizon this host could have set itself.
            const Clock::time_point notBefore = std::min(fromMs(*ms), now + kMaxClockSkew);
            if (now - notBefore < kMaxRequestLifetime)
                m_notBefore = notBefore;
            continue;
        }
        const std::size_t space = line.find(' ');
        const auto ms = parseMs(line.substr(0, space == std::string_view::npos ? 0 : space));
        if (!ms)
            return at("expected '<expires in unix milliseconds> <request id>'");
        const std::string_view id = line.substr(space + 1);
        if (!validId(id))
            return at("not a request id");
        if (m_expiry.size() >= m_capacity)
            return at("more than " + std::to_string(m_capacity) + " request ids");
        if (m_expiry.contains(std::string(id)))
            return at("the request id " + std::string(id) + " is listed twice");
        const Clock::time_point expires = fromMs(*ms);
        // An expiry no valid request can have would hold its place for ever.
        if (expires > now)
            add(std::string(id), std::min(expires, now + kLongestValidity));
    }
    if (number == 0)
        return Error {"malformed", "the file is empty"};
    return std::nullopt;
}

void SeenRequests::add(const std::string &id, Clock::time_point expires)
{
    m_expiry.emplace(id, expires);
    m_byExpiry.emplace(expires, id);
}

void SeenRequests::dropExpired(Clock::time_point now)
{
    while (!m_byExpiry.empty() && m_byExpiry.begin()->first <= now) {
        m_expiry.erase(m_byExpiry.begin()->second);
        m_byExpiry.erase(m_byExpiry.begin());
    }
    // A request issued before the horizon expired by now: it lives at most kMaxRequestLifetime.
    if (m_notBefore && now - *m_notBefore >= kMaxRequestLifetime)
        m_notBefore.reset();
}

Result<void> SeenRequests::save() const
{
    if (m_file.empty())
        return {};
    std::string text(kHeader);
    text += '\n';
    if (m_notBefore) {
        text += kNotBefore;
        text += std::to_string(toMs(*m_notBefore)) + '\n';
    }
    for (const auto &[expires, id] : m_byExpiry)
        text += std::to_string(toMs(expires)) + ' ' + id + '\n';
    return writePrivateFile(m_file, text);
}

Result<void> SeenRequests::remember(const PreviewRequest &request, Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    dropExpired(now);
    if (m_notBefore && request.issued < *m_notBefore)
        return Error {"issued_before_loss",
            "issued before " + formatRfc3339(std::chrono::ceil<std::chrono::seconds>(*m_notBefore))
                + ", when this host lost its record of the requests it had seen"};
    if (m_expiry.contains(request.id))
        return Error {"replayed", "replayed (its id was seen before)"};
    if (m_expiry.size() >= m_capacity)
        return Error {"full",
            "this host holds " + std::to_string(m_capacity) + " unexpired request ids already; try again later"};
    const Clock::time_point expires = std::min(request.expires, now + kLongestValidity);
    add(request.id, expires);
    if (auto saved = save(); !saved) {
        const auto [first, last] = m_byExpiry.equal_range(expires);
        m_byExpiry.erase(
            std::find_if(first, last, [&request](const auto &entry) { return entry.second == request.id; }));
        m_expiry.erase(request.id);
        return Error {"io", "its id cannot be recorded, so a restart would forget it: " + saved.error().message};
    }
    return {};
}

Result<void> SeenRequests::absorb(const SeenRequests &other, Clock::time_point now)
{
    if (&other == this)
        return {};
    const std::scoped_lock lock(m_mutex, other.m_mutex);
    dropExpired(now);
    for (const auto &[expires, id] : other.m_byExpiry) {
        if (expires <= now || m_expiry.contains(id))
            continue;
        if (m_expiry.size() >= m_capacity) {
            // The ids that do not fit are lost: refuse what they could have let through.
            m_notBefore = now + kMaxClockSkew;
            break;
        }
        add(id, expires);
    }
    if (other.m_notBefore && (!m_notBefore || *other.m_notBefore > *m_notBefore))
        m_notBefore = other.m_notBefore;
    dropExpired(now);
    return save();
}

std::size_t SeenRequests::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_expiry.size();
}

} // namespace ccm::fleet
