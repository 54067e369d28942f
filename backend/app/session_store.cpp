// SPDX-License-Identifier: Apache-2.0
#include "app/session_store.h"

#include "base/file_reading.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::cli {
namespace {

constexpr const char *kSessionLockFile = ".ccm-session.lock";
constexpr std::string_view kSessionEventSuffix = ".event";
/// An event holds a resource's properties; a file larger than this is not one.
constexpr std::size_t kMaxSessionEventBytes = 16 * 1024 * 1024;

/// A flock on the store's lock file, held for the object's life. A store the caller may read but
/// not write to is read without one when the lock file cannot be made.
class SessionDirectoryLock {
public:
    static Result<SessionDirectoryLock> take(const std::filesystem::path &directory, bool exclusive)
    {
        const std::string path = (directory / kSessionLockFile).string();
        int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0 && !exclusive)
            fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            if (!exclusive && errno == ENOENT)
                return SessionDirectoryLock(-1);
            return systemError("cannot lock the session store " + directory.string(), errno);
        }
        while (::flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0) {
            if (errno != EINTR) {
                const int error = errno;
                ::close(fd);
                return systemError("cannot lock the session store " + directory.string(), error);
            }
        }
        return SessionDirectoryLock(fd);
    }
    SessionDirectoryLock(SessionDirectoryLock &&other) noexcept
        : m_fd(std::exchange(other.m_fd, -1))
    {
    }
    SessionDirectoryLock(const SessionDirectoryLock &) = delete;
    SessionDirectoryLock &operator=(const SessionDirectoryLock &) = delete;
    SessionDirectoryLock &operator=(SessionDirectoryLock &&) = delete;
    ~SessionDirectoryLock()
    {
        if (m_fd >= 0)
            ::close(m_fd); // closing releases the flock
    }

private:
    explicit SessionDirectoryLock(int fd)
        : m_fd(fd)
    {
    }
    int m_fd = -1;
};

/// KSUIDs are 27 base62 characters; anything else could name a path outside the store.
bool isSessionEventId(std::string_view id)
{
    return id.size() == 27 && std::ranges::all_of(id, [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    });
}

Result<void> writeSessionFile(int fd, const std::string &text)
{
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t count = ::write(fd, text.data() + written, text.size() - written);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            return systemError("write", errno);
        written += static_cast<std::size_t>(count);
    }
    return {};
}

/// Upstream writes a health check's status as its number (OK 0, WARNING 1, CRITICAL 2, UNKNOWN 3)
/// and its output under "Output".
int sessionStatusNumber(HealthCheckResult::Status status)
{
    switch (status) {
    case HealthCheckResult::Status::Ok:
        return 0;
    case HealthCheckResult::Status::Warning:
        return 1;
    case HealthCheckResult::Status::Critical:
        return 2;
    case HealthCheckResult::Status::Unknown:
        break;
    }
    return 3;
}

HealthCheckResult::Status sessionStatusOf(const Json &status)
{
    if (status.is_number_integer()) {
        switch (status.get<std::int64_t>()) {
        case 0:
            return HealthCheckResult::Status::Ok;
        case 1:
            return HealthCheckResult::Status::Warning;
        case 2:
            return HealthCheckResult::Status::Critical;
        default:
            return HealthCheckResult::Status::Unknown;
        }
    }
    const std::string name = status.is_string() ? status.get<std::string>() : std::string();
    if (name == "ok" || name == "OK")
        return HealthCheckResult::Status::Ok;
    if (name == "warning" || name == "WARNING")
        return HealthCheckResult::Status::Warning;
    if (name == "critical" || name == "CRITICAL")
        return HealthCheckResult::Status::Critical;
    return HealthCheckResult::Status::Unknown;
}

std::string sessionText(const Json &json, const char *key)
{
    const auto found = json.find(key);
    return found != json.end() && found->is_string() ? found->get<std::string>() : std::string();
}

bool sessionFlag(const Json &json, const char *key)
{
    const auto found = json.find(key);
    return found != json.end() && found->is_boolean() && found->get<bool>();
}

/// An event file's JSON as a record; an error says why it is not an event.
Result<SessionRecord> sessionRecordFromJson(const Json &json)
{
    if (!json.is_object())
        return Error {"invalid_event", "not a JSON object"};
    const std::string protocol = sessionText(json, "protocol");
    SessionRecord record;
    record.eventId = sessionText(json, "event_id");
    const auto timestamp = parseTimestamp(sessionText(json, "timestamp"));
    if (!timestamp)
        return Error {"invalid_event", "'timestamp' is not an RFC 3339 time"};
    record.timestamp = *timestamp;
    if (protocol == kSessionStartProtocol) {
        record.start = true;
        return record;
    }
    if (protocol != kTransactionEventProtocol)
        return Error {"invalid_event", "unknown protocol '" + protocol + "'"};
    record.type = sessionText(json, "type");
    record.name = sessionText(json, "name");
    record.alias = sessionText(json, "alias");
    if (record.type.empty() || record.name.empty())
        return Error {"invalid_event", "a transaction event needs a type and a name"};
    if (const auto duration = json.find("duration"); duration != json.end() && duration->is_number_integer())
        record.duration = std::chrono::nanoseconds(duration->get<std::int64_t>());
    record.changed = sessionFlag(json, "changed");
    record.refreshed = sessionFlag(json, "refreshed");
    record.failed = sessionFlag(json, "failed");
    record.skipped = sessionFlag(json, "skipped");
    record.noop = sessionFlag(json, "noop");
    if (const auto unmet = json.find("unmet_requirements"); unmet != json.end() && unmet->is_array())
        record.unmetRequirements = unmet->size();
    if (const auto checks = json.find("health_check"); checks != json.end() && checks->is_array()) {
        for (const Json &check : *checks)
            record.checks.push_back(sessionStatusOf(check.is_object() ? check.value("status", Json()) : Json()));
    }
    return record;
}

} // namespace

Json sessionEventJson(const TransactionEvent &event)
{
    Json json = eventToJson(event);
    Json checks = Json::array();
    for (const HealthCheckResult &check : event.healthChecks)
        checks.push_back(
            {{"status", sessionStatusNumber(check.status)}, {"tries", check.tries}, {"Output", check.output}});
    if (checks.empty())
        json.erase("health_check");
    else
        json["health_check"] = std::move(checks);
    return json;
}

namespace {

/// A session decides whether resources run (require) and refresh (subscribe), so its events must
/// be this user's: the directory belongs to this user (or root) and nobody else may write to it.
Result<void> checkTrusted(const std::filesystem::path &directory)
{
    struct stat info { };
    if (::stat(directory.c_str(), &info) != 0)
        return systemError("cannot look at the directory", errno);
    if (info.st_uid != ::geteuid() && info.st_uid != 0)
        return Error {"session",
            "it belongs to another user (uid " + std::to_string(info.st_uid)
                + "), whose events could decide what runs here; start a session of your own"};
    if ((info.st_mode & S_IWOTH) != 0 || ((info.st_mode & S_IWGRP) != 0 && info.st_gid != ::getegid()))
        return Error {"session",
            "others may write to it (mode " + std::to_string((info.st_mode >> 6) & 7)
                + std::to_string((info.st_mode >> 3) & 7) + std::to_string(info.st_mode & 7)
                + "), so its events could be forged; make it 0700"};
    return {};
}

} // namespace

Result<SessionStore> SessionStore::open(const std::filesystem::path &directory)
{
    if (directory.empty())
        return Error {"session", "the session store's directory must not be empty"};
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(directory, error).lexically_normal();
    if (error)
        return Error {"session", "session store " + directory.string() + ": " + error.message()};
    if (!std::filesystem::exists(absolute, error))
        return Error {"session",
            "session store " + directory.string()
                + " does not exist; start one with `eval \"$(ccm-backend session new)\"`"};
    if (!std::filesystem::is_directory(absolute, error))
        return Error {"session", "session store " + directory.string() + " is not a directory"};
    if (auto trusted = checkTrusted(absolute); !trusted)
        return trusted.error().withContext("session store " + directory.string());
    return SessionStore(absolute);
}

Result<SessionStore> SessionStore::create(const std::filesystem::path &directory)
{
    if (directory.empty())
        return Error {"session", "the session store's directory must not be empty"};
    std::error_code error;
    if (std::filesystem::exists(std::filesystem::symlink_status(directory, error)))
        return Error {"session", "session store " + directory.string() + " already exists"};
    if (::mkdir(directory.c_str(), 0700) != 0)
        return systemError("cannot create the session store " + directory.string(), errno);
    return start(directory);
}

Result<SessionStore> SessionStore::start(const std::filesystem::path &directory)
{
    auto store = open(directory);
    if (!store)
        return store.error();
    const std::string id = newEventId();
    const Json start {{"protocol", kSessionStartProtocol}, {"event_id", id},
        {"timestamp", formatTimestamp(std::chrono::system_clock::now())}};
    if (auto written = store->write(id, start); !written)
        return written.error();
    return store;
}

Result<void> SessionStore::checkWritable() const
{
    auto lock = SessionDirectoryLock::take(m_directory, true);
    if (!lock)
        return lock.error();
    if (::access(m_directory.c_str(), W_OK) != 0)
        return systemError("cannot write to the session store " + m_directory.string(), errno);
    return {};
}

Result<void> SessionStore::record(const TransactionEvent &event) const
{
    return write(event.eventId, sessionEventJson(event));
}

Result<void> SessionStore::write(const std::string &eventId, const Json &json) const
{
    if (!isSessionEventId(eventId))
        return Error {"session", "invalid event id '" + eventId + "'"};
    auto lock = SessionDirectoryLock::take(m_directory, true);
    if (!lock)
        return lock.error();
    const std::filesystem::path temporary = m_directory / ("." + eventId + ".event.tmp");
    const std::filesystem::path final = m_directory / (eventId + std::string(kSessionEventSuffix));
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return systemError("cannot write to the session store " + m_directory.string(), errno);
    Result<void> written = writeSessionFile(fd, json.dump(2) + "\n");
    if (written && ::fsync(fd) != 0)
        written = systemError("fsync", errno);
    if (::close(fd) != 0 && written)
        written = systemError("close", errno);
    if (written && ::rename(temporary.c_str(), final.c_str()) != 0)
        written = systemError("rename", errno);
    if (!written) {
        ::unlink(temporary.c_str());
        return written.error().withContext("cannot record the event in the session store " + m_directory.string());
    }
    return {};
}

Result<SessionContents> SessionStore::read() const
{
    auto lock = SessionDirectoryLock::take(m_directory, false);
    if (!lock)
        return lock.error();
    SessionContents contents;
    std::error_code error;
    std::set<std::filesystem::path> files;
    for (std::filesystem::directory_iterator it(m_directory, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (name.size() > kSessionEventSuffix.size() && name.ends_with(kSessionEventSuffix) && !name.starts_with('.'))
            files.insert(it->path());
    }
    if (error)
        return Error {"session", "cannot read the session store " + m_directory.string() + ": " + error.message()};
    for (const std::filesystem::path &file : files) {
        auto text = readTextFile(file, kMaxSessionEventBytes);
        if (!text) {
            contents.problems.push_back(text.error().message);
            continue;
        }
        const Json json = Json::parse(text.value(), nullptr, false);
        if (json.is_discarded()) {
            contents.problems.push_back(file.string() + ": not a JSON document");
            continue;
        }
        auto record = sessionRecordFromJson(json);
        if (!record) {
            contents.problems.push_back(file.string() + ": " + record.error().message);
            continue;
        }
        contents.events.push_back(std::move(record).value());
    }
    std::ranges::stable_sort(contents.events, [](const SessionRecord &a, const SessionRecord &b) {
        return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.eventId < b.eventId;
    });
    return contents;
}

std::optional<engine::PriorOutcome> latestOutcome(const SessionContents &contents, const std::string &reference)
{
    const auto hash = reference.find('#');
    if (hash == std::string::npos)
        return std::nullopt;
    const std::string type = reference.substr(0, hash);
    const std::string name = reference.substr(hash + 1);
    for (auto it = contents.events.rbegin(); it != contents.events.rend(); ++it) {
        if (it->start || it->type != type || (it->name != name && it->alias != name))
            continue;
        return engine::PriorOutcome {
            .failed = it->failed, .unmet = it->unmetRequirements > 0, .changed = it->changed, .noop = it->noop};
    }
    return std::nullopt;
}

SessionSummary summarizeSession(const SessionContents &contents)
{
    SessionSummary summary;
    std::optional<std::chrono::system_clock::time_point> start;
    std::optional<std::chrono::system_clock::time_point> end;
    std::chrono::nanoseconds total {0};
    std::set<std::string> unique;
    for (const SessionRecord &record : contents.events) {
        if (record.start) {
            start = record.timestamp;
            continue;
        }
        total += record.duration;
        ++summary.total;
        unique.insert(record.type + '#' + record.name);
        if (!end || record.timestamp > *end)
            end = record.timestamp;
        if (record.failed) {
            ++summary.failed;
            ++summary.errors;
        } else if (record.skipped) {
            ++summary.skipped;
        } else if (record.changed) {
            ++summary.changed;
        } else {
            ++summary.stable;
        }
        summary.unmetRequirements += record.unmetRequirements;
        if (record.refreshed)
            ++summary.refreshed;
    }
    summary.unique = unique.size();
    summary.runTime = start && end ? std::chrono::duration_cast<std::chrono::nanoseconds>(*end - *start) : total;
    return summary;
}

std::string goDuration(std::chrono::nanoseconds duration)
{
    using namespace std::chrono;
    const std::int64_t rounded = (duration.count() + (duration.count() >= 0 ? 500000 : -500000)) / 1000000;
    if (rounded == 0)
        return "0s";
    std::string sign = rounded < 0 ? "-" : "";
    std::int64_t milliseconds = rounded < 0 ? -rounded : rounded;
    if (milliseconds < 1000)
        return sign + std::to_string(milliseconds) + "ms";
    const std::int64_t hours = milliseconds / 3600000;
    const std::int64_t minutes = milliseconds / 60000 % 60;
    const std::int64_t seconds = milliseconds / 1000 % 60;
    const std::int64_t fraction = milliseconds % 1000;
    std::string text = sign;
    if (hours > 0)
        text += std::to_string(hours) + "h";
    if (hours > 0 || minutes > 0)
        text += std::to_string(minutes) + "m";
    text += std::to_string(seconds);
    if (fraction > 0) {
        std::string digits = std::to_string(fraction);
        digits.insert(0, 3 - digits.size(), '0');
        while (digits.back() == '0')
            digits.pop_back();
        text += "." + digits;
    }
    return text + "s";
}

std::string sessionSummaryText(const SessionSummary &summary)
{
    std::string text = "\nSession Summary\n\n";
    if (summary.runTime.count() > 0)
        text += "             Run Time: " + goDuration(summary.runTime) + "\n";
    const auto line = [&](const char *label, std::size_t value) { text += label + std::to_string(value) + "\n"; };
    line("      Total Resources: ", summary.total);
    line("     Unique Resources: ", summary.unique);
    line("     Stable Resources: ", summary.stable);
    line("    Changed Resources: ", summary.changed);
    line("     Failed Resources: ", summary.failed);
    line("    Skipped Resources: ", summary.skipped);
    line("  Refreshed Resources: ", summary.refreshed);
    line("         Total Errors: ", summary.errors);
    return text;
}

} // namespace ccm::cli
