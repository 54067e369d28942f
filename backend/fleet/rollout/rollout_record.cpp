// SPDX-License-Identifier: Apache-2.0
// The CCM_ROLLOUTS record of a rollout: written, and read back strictly.
#include "fleet/rollout/rollout_record.h"

#include "core/model/transaction_event.h"

#include <array>
#include <random>

namespace ccm::fleet {
namespace {

constexpr std::array kRolloutStates {
    std::pair {RolloutState::Running, std::string_view("running")},
    std::pair {RolloutState::Paused, std::string_view("paused")},
    std::pair {RolloutState::Passed, std::string_view("passed")},
    std::pair {RolloutState::Failed, std::string_view("failed")},
    std::pair {RolloutState::RolledBack, std::string_view("rolled_back")},
};

constexpr std::array kRingStates {
    std::pair {RingState::Pending, std::string_view("pending")},
    std::pair {RingState::Publishing, std::string_view("publishing")},
    std::pair {RingState::Waiting, std::string_view("waiting")},
    std::pair {RingState::Settling, std::string_view("settling")},
    std::pair {RingState::Passed, std::string_view("passed")},
    std::pair {RingState::Failed, std::string_view("failed")},
    std::pair {RingState::RollingBack, std::string_view("rolling_back")},
    std::pair {RingState::Restored, std::string_view("restored")},
    std::pair {RingState::RestoreFailed, std::string_view("restore_failed")},
};

/// Rings per rollout, and bytes per text field: a record is small, whoever wrote it.
constexpr std::size_t kMaxRings = 64;
constexpr std::size_t kMaxText = 64 * 1024;
constexpr std::size_t kIdLength = 12;
/// Levels of JSON a record may have: a ring's hosts need a few.
constexpr int kMaxNesting = 64;

template<typename Table, typename E> std::string_view nameIn(const Table &table, E value)
{
    for (const auto &[known, name] : table)
        if (known == value)
            return name;
    return table[0].second;
}

template<typename Table> auto valueIn(const Table &table, std::string_view name)
{
    for (const auto &[value, known] : table)
        if (known == name)
            return std::optional(value);
    return std::optional<decltype(table[0].first)>();
}

/// Reads the fields of one JSON object, each at most once, with messages naming the field.
class FieldReader {
public:
    FieldReader(const Json &object, std::string where)
        : m_object(object)
        , m_where(std::move(where))
    {
    }

    Result<std::string> text(const char *field, bool required = true) const
    {
        const auto member = m_object.find(field);
        if (member == m_object.end())
            return required ? Result<std::string>(bad(field, "is missing")) : std::string();
        if (!member->is_string() || member->get_ref<const std::string &>().size() > kMaxText)
            return bad(field, "is not a string of at most 64 KiB");
        return member->get<std::string>();
    }

    Result<std::uint64_t> count(const char *field) const
    {
        const auto member = m_object.find(field);
        if (member == m_object.end() || !member->is_number_unsigned())
            return bad(field, "is not a count");
        return member->get<std::uint64_t>();
    }

    Result<std::chrono::system_clock::time_point> time(const char *field) const
    {
        auto value = text(field);
        if (!value)
            return value.error();
        const auto parsed = parseTimestamp(*value);
        if (!parsed)
            return bad(field, "is not an RFC 3339 time");
        return *parsed;
    }

    Error bad(const std::string &field, const std::string &what) const
    {
        return Error {"bad_rollout", "rollout record: " + m_where + field + " " + what};
    }

private:
    const Json &m_object;
    std::string m_where;
};

Json ringToJson(const RingRecord &ring)
{
    Json json = Json::object();
    appendMember(json, "name", ring.name);
    appendMember(json, "state", std::string(ringStateName(ring.state)));
    appendMember(json, "previous", ring.previous);
    if (ring.published)
        appendMember(json, "published", formatTimestamp(*ring.published));
    appendMember(json, "hosts", ring.hosts);
    appendMember(json, "verdict", ring.verdict);
    return json;
}

Result<RingRecord> parseRing(const Json &json, std::size_t index)
{
    const FieldReader read(json, "rings." + std::to_string(index) + ".");
    if (!json.is_object())
        return read.bad("", "is not an object");
    RingRecord ring;
    auto name = read.text("name");
    auto state = read.text("state");
    auto previous = read.text("previous");
    auto verdict = read.text("verdict", false);
    for (const auto *field : {&name, &state, &previous, &verdict})
        if (!*field)
            return field->error();
    if (name->empty())
        return read.bad("name", "is empty");
    const auto known = valueIn(kRingStates, *state);
    if (!known)
        return read.bad("state", "is not a ring state");
    ring.name = *name;
    ring.state = *known;
    ring.previous = *previous;
    ring.verdict = *verdict;
    if (json.contains("published")) {
        auto published = read.time("published");
        if (!published)
            return published.error();
        ring.published = *published;
    }
    if (json.contains("hosts")) {
        if (!json["hosts"].is_object())
            return read.bad("hosts", "is not an object");
        ring.hosts = json["hosts"];
    }
    return ring;
}

} // namespace

std::string_view rolloutStateName(RolloutState state)
{
    return nameIn(kRolloutStates, state);
}

std::string_view ringStateName(RingState state)
{
    return nameIn(kRingStates, state);
}

std::size_t RolloutRecord::currentRing() const
{
    for (std::size_t i = 0; i < rings.size(); ++i)
        if (rings[i].state != RingState::Passed)
            return i;
    return rings.size();
}

bool RolloutRecord::abandoned(std::chrono::system_clock::time_point now, std::chrono::seconds silence) const
{
    return now - updated > silence;
}

Json rolloutToJson(const RolloutRecord &record)
{
    Json json = Json::object();
    appendMember(json, "id", record.id);
    appendMember(json, "bucket", record.bucket);
    appendMember(json, "digest", record.digest);
    appendMember(json, "size", record.size);
    appendMember(json, "signer", record.signer);
    appendMember(json, "message", record.message);
    appendMember(json, "owner", record.owner);
    appendMember(json, "max_failed", record.maxFailed);
    appendMember(json, "ring_timeout_seconds", static_cast<std::uint64_t>(record.ringTimeout.count()));
    appendMember(json, "settle_seconds", static_cast<std::uint64_t>(record.settle.count()));
    appendMember(json, "rollback", record.rollback);
    appendMember(json, "state", std::string(rolloutStateName(record.state)));
    appendMember(json, "request", record.request);
    appendMember(json, "created", formatTimestamp(record.created));
    appendMember(json, "updated", formatTimestamp(record.updated));
    Json rings = Json::array();
    for (const RingRecord &ring : record.rings)
        rings.push_back(ringToJson(ring));
    appendMember(json, "rings", std::move(rings));
    appendMember(json, "report", record.report);
    return json;
}

Result<RolloutRecord> parseRollout(std::string_view text)
{
    // Parsing and copying deeper text would recurse as deep as it goes, past the stack's end.
    const bool deep = jsonNestingBeyond(text, kMaxNesting).has_value();
    const Json json = deep ? Json() : parseJson(text, false);
    const FieldReader read(json, "");
    if (deep)
        return read.bad("", "is nested deeper than " + std::to_string(kMaxNesting) + " levels");
    if (!json.is_object())
        return read.bad("", "is not a JSON object");
    RolloutRecord record;
    std::string state;
    const std::pair<const char *, std::string *> texts[] {{"id", &record.id}, {"bucket", &record.bucket},
        {"digest", &record.digest}, {"signer", &record.signer}, {"message", &record.message}, {"owner", &record.owner},
        {"max_failed", &record.maxFailed}, {"state", &state}, {"request", &record.request}, {"report", &record.report}};
    for (const auto &[field, target] : texts) {
        auto value = read.text(field);
        if (!value)
            return value.error();
        *target = std::move(value).value();
    }
    if (!isRolloutId(record.id))
        return read.bad("id", "is not a rollout id");
    const auto known = valueIn(kRolloutStates, state);
    if (!known)
        return read.bad("state", "is not a rollout state");
    record.state = *known;
    if (record.request != "" && record.request != "pause" && record.request != "abort")
        return read.bad("request", "is not \"\", \"pause\" or \"abort\"");
    auto size = read.count("size");
    auto timeout = read.count("ring_timeout_seconds");
    auto settle = read.count("settle_seconds");
    auto created = read.time("created");
    auto updated = read.time("updated");
    if (!size || !timeout || !settle)
        return (!size ? size : !timeout ? timeout : settle).error();
    if (!created || !updated)
        return (!created ? created : updated).error();
    record.size = *size;
    record.ringTimeout = std::chrono::seconds(std::min<std::uint64_t>(*timeout, 365ULL * 24 * 3600));
    record.settle = std::chrono::seconds(std::min<std::uint64_t>(*settle, 365ULL * 24 * 3600));
    record.created = *created;
    record.updated = *updated;
    if (!json.contains("rollback") || !json["rollback"].is_boolean())
        return read.bad("rollback", "is not true or false");
    record.rollback = json["rollback"].get<bool>();
    if (!json.contains("rings") || !json["rings"].is_array() || json["rings"].empty()
        || json["rings"].size() > kMaxRings)
        return read.bad("rings", "is not a list of 1 to 64 rings");
    for (std::size_t i = 0; i < json["rings"].size(); ++i) {
        auto ring = parseRing(json["rings"][i], i);
        if (!ring)
            return ring.error();
        record.rings.push_back(std::move(ring).value());
    }
    return record;
}

std::string newRolloutId()
{
    static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device random;
    std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
    std::string id;
    for (std::size_t i = 0; i < kIdLength; ++i)
        id += kAlphabet[pick(random)];
    return id;
}

bool isRolloutId(std::string_view id)
{
    if (id.size() != kIdLength)
        return false;
    for (const char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            return false;
    return true;
}

} // namespace ccm::fleet
