// SPDX-License-Identifier: Apache-2.0
#include "fleet/registration/registration_store.h"

#include "base/base64.h"
#include "base/hex.h"
#include "core/model/duration.h"
#include "fleet/nats/election_retry.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <nats/nats.h>
#include <set>

namespace ccm::fleet {
namespace {

/// JetStream API error codes the store tells apart.
constexpr int kStreamNotFound = 10059;
constexpr int kNoMessageFound = 10037;
constexpr int kStreamNameInUse = 10058;
constexpr int kStreamNotMatch = 10060;

/// Subjects' tokens: cluster, protocol, service, address, instance after the 4 of the prefix.
constexpr std::size_t kFirstToken = 4;
constexpr std::size_t kSubjectTokens = 9;

/// Entries larger than this, or nested deeper, are not read.
constexpr int kMaxNesting = 16;

Error invalid(const std::string &what)
{
    return Error {"invalid_registration", "registration is invalid: " + what};
}

bool isName(const std::string &text)
{
    if (text.empty() || std::isalpha(static_cast<unsigned char>(text[0])) == 0)
        return false;
    return std::all_of(text.begin(), text.end(),
        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; });
}

bool isIpAddress(const std::string &text)
{
    unsigned char buffer[16];
    return inet_pton(AF_INET, text.c_str(), buffer) == 1 || inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

/// A filter or stream token that keeps the subject it goes into one token: no dots, spaces or
/// wildcards.
bool isSubjectToken(const std::string &text)
{
    return !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
        return c == '.' || c == '*' || c == '>' || std::isspace(static_cast<unsigned char>(c)) != 0
            || static_cast<unsigned char>(c) < 0x20;
    });
}

std::optional<std::int64_t> portNumber(const Json &port)
{
    if (port.is_number_integer())
        return port.get<std::int64_t>();
    if (port.is_number_float()) {
        const double value = port.get<double>();
        if (value >= -9.0e18 && value <= 9.0e18)
            return static_cast<std::int64_t>(value);
    }
    return std::nullopt;
}

/// Go's text for the digits of `value` / `unit` with the fraction's trailing zeros dropped.
std::string fixedPoint(std::int64_t value, std::int64_t unit, int digits)
{
    std::string text = std::to_string(value / unit);
    std::int64_t fraction = value % unit;
    if (fraction == 0)
        return text;
    std::string decimals(static_cast<std::size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i, fraction /= 10)
        decimals[static_cast<std::size_t>(i)] = static_cast<char>('0' + fraction % 10);
    while (!decimals.empty() && decimals.back() == '0')
        decimals.pop_back();
    return text + '.' + decimals;
}

/// A duration as Go's time.Duration.String() writes it: "300ms", "30s", "1m0s", "1h30m0s".
std::string goDuration(std::chrono::nanoseconds duration)
{
    const std::int64_t ns = duration.count();
    if (ns == 0)
        return "0s";
    if (ns < 1000)
        return std::to_string(ns) + "ns";
    if (ns < 1000000)
        return fixedPoint(ns, 1000, 3) + "µs";
    if (ns < 1000000000)
        return fixedPoint(ns, 1000000, 6) + "ms";
    const std::int64_t hours = ns / 3600000000000LL;
    const std::int64_t minutes = ns / 60000000000LL % 60;
    const std::string seconds = fixedPoint(ns % 60000000000LL, 1000000000LL, 9) + 's';
    if (hours > 0)
        return std::to_string(hours) + 'h' + std::to_string(minutes) + 'm' + seconds;
    if (minutes > 0)
        return std::to_string(minutes) + 'm' + seconds;
    return seconds;
}

/// The value of header `name` in NATS header text ("NATS/1.0\r\nName: value\r\n..."), or "".
std::string headerValue(std::string_view headers, std::string_view name)
{
    std::size_t start = headers.find("\r\n");
    while (start != std::string_view::npos) {
        start += 2;
        const std::size_t end = headers.find("\r\n", start);
        const std::string_view line = headers.substr(start, end == std::string_view::npos ? end : end - start);
        const std::size_t colon = line.find(':');
        if (colon == name.size() && std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
            })) {
            std::string_view value = line.substr(colon + 1);
            while (!value.empty() && value.front() == ' ')
                value.remove_prefix(1);
            return std::string(value);
        }
        start = end;
    }
    return {};
}

/// Sends a JetStream API request and reads its JSON answer. `apiError` gets the answer's error
/// code (0 when none) and the answer is returned either way; transport failures are errors.
Result<Json> apiRequest(
    NatsConnection &connection, const std::string &subject, const Json &body, const std::string &what, int &apiError)
{
    const std::string payload = body.dump();
    natsMsg *raw = nullptr;
    const natsStatus status = natsConnection_Request(&raw, connection.connection(), subject.c_str(), payload.data(),
        static_cast<int>(payload.size()), connection.waitMs());
    const NatsMsgPtr reply(raw);
    if (status != NATS_OK)
        return jetStreamError(connection, what, status, 0);
    const int length = natsMsg_GetDataLength(reply.get());
    const std::string_view text(natsMsg_GetData(reply.get()), length < 0 ? 0 : static_cast<std::size_t>(length));
    Json answer = jsonNestingBeyond(text, 64) ? Json() : parseJson(text, false);
    if (!answer.is_object())
        return makeError(NatsErrc::Nats, what + " on " + connection.url() + ": the server's answer is not JSON");
    apiError = 0;
    if (const auto error = answer.find("error"); error != answer.end() && error->is_object()) {
        apiError = error->value("err_code", -1);
        if (apiError == 0)
            apiError = -1;
    }
    return answer;
}

std::string apiErrorText(const Json &answer)
{
    const Json &error = answer.at("error");
    const auto description = error.find("description");
    return description != error.end() && description->is_string() ? description->get<std::string>() : error.dump();
}

Error streamNotFound(const NatsConnection &connection, const std::string &stream)
{
    return Error {"stream_not_found",
        "there is no registration stream '" + stream + "' on " + connection.url()
            + "; create it with 'ccm-backend registration init'"};
}

Result<void> checkStreamName(const std::string &stream)
{
    if (!isSubjectToken(stream) || stream.find_first_of("/\\") != std::string::npos)
        return Error {"usage", "'" + stream + "' is not a stream name (no dots, slashes, spaces or wildcards)"};
    return {};
}

/// What a stream's info says about the subjects matching `filter`.
struct StreamSubjects {
    std::set<std::string> subjects;
    std::int64_t maxAgeNs = 0;
};

/// The stream's subjects matching `filter`, page by page as the server hands them out.
Result<StreamSubjects> streamSubjects(NatsConnection &connection, const std::string &stream, const std::string &filter)
{
    StreamSubjects found;
    const std::string what = "read the subjects of stream " + stream;
    std::size_t offset = 0;
    for (;;) {
        int apiError = 0;
        auto answer = apiRequest(connection, "$JS.API.STREAM.INFO." + stream,
            Json {{"subjects_filter", filter}, {"offset", offset}}, what, apiError);
        if (!answer)
            return answer.error();
        if (apiError == kStreamNotFound)
            return streamNotFound(connection, stream);
        if (apiError != 0)
            return makeError(NatsErrc::Nats, what + " on " + connection.url() + ": " + apiErrorText(answer.value()));
        const Json &info = answer.value();
        if (const auto config = info.find("config"); config != info.end() && config->is_object())
            found.maxAgeNs = portNumber(config->value("max_age", Json(0))).value_or(0);
        std::size_t page = 0;
        const Json state = info.value("state", Json::object());
        if (const auto subjects = state.find("subjects"); subjects != state.end() && subjects->is_object()) {
            for (const auto &[subject, count] : subjects->items()) {
                found.subjects.insert(subject);
                ++page;
            }
        }
        const std::size_t total = info.value("total", std::size_t(0));
        offset += page;
        if (page == 0 || offset >= total)
            return found;
    }
}

/// The newest message of `subject`: its headers and data, or nullopt when there is none.
struct StoredMessage {
    std::string headers;
    std::string data;
};

Result<std::optional<StoredMessage>> lastMessage(
    NatsConnection &connection, const std::string &stream, const std::string &subject)
{
    const std::string what = "read " + subject + " from stream " + stream;
    int apiError = 0;
    auto answer
        = apiRequest(connection, "$JS.API.STREAM.MSG.GET." + stream, Json {{"last_by_subj", subject}}, what, apiError);
    if (!answer)
        return answer.error();
    if (apiError == kNoMessageFound)
        return std::optional<StoredMessage>();
    if (apiError == kStreamNotFound)
        return streamNotFound(connection, stream);
    if (apiError != 0)
        return makeError(NatsErrc::Nats, what + " on " + connection.url() + ": " + apiErrorText(answer.value()));
    const Json message = answer.value().value("message", Json::object());
    StoredMessage stored;
    if (const auto headers = message.find("hdrs"); headers != message.end() && headers->is_string())
        stored.headers = decodeBase64Lenient(headers->get<std::string>()).value_or("");
    if (const auto data = message.find("data"); data != message.end() && data->is_string()) {
        auto decoded = decodeBase64(data->get<std::string>());
        if (!decoded)
            return makeError(NatsErrc::Nats, what + ": the message's data is not base64");
        stored.data = std::move(decoded).value();
    }
    return std::optional<StoredMessage>(std::move(stored));
}

bool isMarkerReason(const std::string &reason)
{
    return !reason.empty();
}

/// cluster, protocol, service and address of a subject; nullopt when it has not the form.
std::optional<RegistrationEntry> entryOfSubject(const std::string &subject)
{
    std::vector<std::string> tokens;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = subject.find('.', start);
        tokens.push_back(subject.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    if (tokens.size() < kSubjectTokens)
        return std::nullopt;
    RegistrationEntry entry;
    entry.cluster = tokens[kFirstToken];
    entry.protocol = tokens[kFirstToken + 1];
    entry.service = tokens[kFirstToken + 2];
    entry.address = tokens[kFirstToken + 3];
    std::replace(entry.address.begin(), entry.address.end(), '_', '.');
    return entry;
}

bool entryOrder(const RegistrationEntry &a, const RegistrationEntry &b)
{
    if (a.address != b.address)
        return a.address < b.address;
    return portNumber(a.port).value_or(0) < portNumber(b.port).value_or(0);
}

Result<void> checkFilterToken(const std::string &value, const char *what)
{
    if (value.empty() || value == "*" || isSubjectToken(value))
        return {};
    return invalid(
        std::string(what) + " '" + value + "' cannot be looked up: no dots, spaces or wildcards but a lone *");
}

} // namespace

Result<void> validateRegistration(const RegistrationEntry &entry)
{
    const std::pair<const std::string *, const char *> names[]
        = {{&entry.cluster, "cluster"}, {&entry.protocol, "protocol"}, {&entry.service, "service"}};
    for (const auto &[value, what] : names) {
        if (value->empty())
            return invalid(std::string(what) + " is required");
        if (!isName(*value))
            return invalid(std::string(what) + " \"" + *value
                + "\" is not a valid name (a letter, then letters, digits, _ and -)");
    }
    if (entry.address.empty())
        return invalid("address is required");
    if (!isIpAddress(entry.address))
        return invalid("address \"" + entry.address + "\" is not a valid IP address");
    if (!entry.port.is_null()) {
        if (!entry.port.is_number_integer())
            return invalid("port must be an integer number, not " + entry.port.dump());
        const std::int64_t port = entry.port.get<std::int64_t>();
        if (port <= 0 || port > 65535)
            return invalid("port '" + std::to_string(port) + "' must be between 1 and 65535");
    }
    if (entry.priority <= 0 || entry.priority > 255)
        return invalid("priority '" + std::to_string(entry.priority) + "' must be between 1 and 255");
    return {};
}

Result<std::string> normalizeRegistrationTtl(const std::string &text)
{
    if (text == "never")
        return text;
    auto duration = parseDuration(text);
    if (!duration)
        return invalid("invalid TTL duration \"" + text + "\": " + duration.error().message);
    return goDuration(duration.value());
}

std::string registrationInstanceId(const RegistrationEntry &entry)
{
    std::string text = entry.cluster + entry.service + entry.protocol + entry.address;
    // Upstream hashes fmt.Sprintf("%d", port): the digits, or Go's text for a missing port.
    if (const auto port = portNumber(entry.port))
        text += std::to_string(*port);
    else
        text += "%!d(<nil>)";
    std::uint64_t hash = 14695981039346656037ull;
    for (const unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    std::string out;
    appendHexDigits(out, hash, 16);
    return out;
}

std::string registrationSubject(const RegistrationEntry &entry)
{
    std::string address = entry.address;
    std::replace(address.begin(), address.end(), '.', '_');
    return std::string(kRegistrationSubjectPrefix) + '.' + entry.cluster + '.' + entry.protocol + '.' + entry.service
        + '.' + address + '.' + registrationInstanceId(entry);
}

std::string registrationFilter(
    const std::string &cluster, const std::string &protocol, const std::string &service, const std::string &address)
{
    const auto any = [](const std::string &value) { return value.empty() ? std::string("*") : value; };
    std::string host = any(address);
    std::replace(host.begin(), host.end(), '.', '_');
    return std::string(kRegistrationSubjectPrefix) + '.' + any(cluster) + '.' + any(protocol) + '.' + any(service) + '.'
        + host + ".*";
}

Json registrationJson(const RegistrationEntry &entry)
{
    Json json = Json::object();
    json["cluster"] = entry.cluster;
    json["service"] = entry.service;
    json["protocol"] = entry.protocol;
    json["address"] = entry.address;
    json["port"] = entry.port;
    json["priority"] = entry.priority;
    if (!entry.annotations.empty()) {
        Json annotations = Json::object();
        for (const auto &[key, value] : entry.annotations)
            annotations[key] = value;
        json["annotations"] = std::move(annotations);
    }
    if (!entry.ttl.empty())
        json["ttl"] = entry.ttl;
    return json;
}

Json registrationTemplateJson(const RegistrationEntry &entry)
{
    Json json = Json::object();
    json["Cluster"] = entry.cluster;
    json["Service"] = entry.service;
    json["Protocol"] = entry.protocol;
    json["Address"] = entry.address;
    json["Port"] = entry.port;
    json["Priority"] = entry.priority;
    Json annotations = Json::object();
    for (const auto &[key, value] : entry.annotations)
        annotations[key] = value;
    json["Annotations"] = std::move(annotations);
    json["TTL"] = entry.ttl.empty() ? Json() : Json(entry.ttl);
    return json;
}

Result<RegistrationEntry> parseRegistration(std::string_view text)
{
    const auto bad = [](const std::string &what) { return Error {"bad_registration", what}; };
    if (jsonNestingBeyond(text, kMaxNesting))
        return bad("the entry is nested too deeply");
    const Json json = parseJson(text, false);
    if (!json.is_object())
        return bad("the entry is not a JSON object");
    RegistrationEntry entry;
    const std::pair<std::string *, const char *> strings[] = {{&entry.cluster, "cluster"}, {&entry.service, "service"},
        {&entry.protocol, "protocol"}, {&entry.address, "address"}};
    for (const auto &[field, name] : strings) {
        const auto value = json.find(name);
        if (value == json.end() || value->is_null())
            continue;
        if (!value->is_string())
            return bad(std::string("\"") + name + "\" is not a string");
        *field = value->get<std::string>();
    }
    if (const auto port = json.find("port"); port != json.end()) {
        if (const auto number = portNumber(*port))
            entry.port = *number;
        else if (port->is_string())
            entry.port = *port;
        else if (!port->is_null())
            return bad("\"port\" is not a number");
    }
    entry.priority = 0;
    if (const auto priority = json.find("priority"); priority != json.end() && !priority->is_null()) {
        const auto number = portNumber(*priority);
        if (!number)
            return bad("\"priority\" is not a number");
        entry.priority = *number;
    }
    if (const auto annotations = json.find("annotations"); annotations != json.end() && !annotations->is_null()) {
        if (!annotations->is_object())
            return bad("\"annotations\" is not a map");
        for (const auto &[key, value] : annotations->items()) {
            if (!value.is_string())
                return bad("annotation \"" + key + "\" is not a string");
            entry.annotations[key] = value.get<std::string>();
        }
    }
    if (const auto ttl = json.find("ttl"); ttl != json.end() && !ttl->is_null()) {
        if (ttl->is_string())
            entry.ttl = ttl->get<std::string>();
        else if (const auto ns = portNumber(*ttl))
            entry.ttl = goDuration(std::chrono::nanoseconds(std::max<std::int64_t>(*ns, 0)));
        else
            return bad("\"ttl\" is not a duration");
    }
    return entry;
}

Result<Json> createOrUpdateRegistrationStream(NatsConnection &connection, const RegistrationStreamSettings &settings)
{
    if (settings.replicas < 1 || settings.replicas > 5)
        return Error {"usage", "replicas must be between 1 and 5"};
    if (auto name = checkStreamName(settings.name); !name)
        return name.error();
    Json config = Json::object();
    config["name"] = settings.name;
    config["subjects"] = Json::array({std::string(kRegistrationSubjectPrefix) + ".>"});
    config["retention"] = "limits";
    config["storage"] = "file";
    config["discard"] = "old";
    config["max_msgs_per_subject"] = 1;
    config["allow_msg_ttl"] = true;
    config["num_replicas"] = settings.replicas;
    config["allow_rollup_hdrs"] = true;
    config["max_age"] = settings.maxAge.count();
    if (settings.maxAge.count() > 0)
        config["subject_delete_marker_ttl"] = settings.maxAge.count();
    config["deny_delete"] = true;
    config["deny_purge"] = false;
    const std::string what = "create or update stream " + settings.name;
    int apiError = 0;
    auto answer = apiRequest(connection, "$JS.API.STREAM.CREATE." + settings.name, config, what, apiError);
    if (answer && apiError == kStreamNameInUse)
        answer = apiRequest(connection, "$JS.API.STREAM.UPDATE." + settings.name, config, what, apiError);
    if (!answer)
        return answer.error();
    if (apiError != 0)
        return makeError(
            NatsErrc::Nats, "could not " + what + " on " + connection.url() + ": " + apiErrorText(answer.value()));
    return answer.value().value("config", Json::object());
}

Result<void> publishRegistrationEntry(
    NatsConnection &connection, const std::string &stream, const RegistrationEntry &entry)
{
    if (auto name = checkStreamName(stream); !name)
        return name.error();
    const std::string subject = registrationSubject(entry);
    const std::string data = registrationJson(entry).dump();
    natsMsg *raw = nullptr;
    if (natsMsg_Create(&raw, subject.c_str(), nullptr, data.data(), static_cast<int>(data.size())) != NATS_OK)
        return makeError(NatsErrc::Nats, "cannot create the registration message for " + subject);
    const NatsMsgPtr message(raw);
    natsMsgHeader_Set(raw, "Nats-Rollup", "sub");
    if (!entry.ttl.empty())
        natsMsgHeader_Set(raw, "Nats-TTL", entry.ttl.c_str());
    natsMsgHeader_Set(raw, "Nats-Expected-Stream", stream.c_str());
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = js_PublishMsg(nullptr, connection.jetStream(), raw, nullptr, &errorCode);
    if (status == NATS_OK)
        return {};
    if (status == NATS_NO_RESPONDERS || errorCode == kStreamNotFound || errorCode == kStreamNotMatch) {
        // Nothing or another stream takes the subject: say which rather than cnats' words.
        auto subjects = streamSubjects(connection, stream, subject);
        if (!subjects && subjects.error().code == "stream_not_found")
            return subjects.error();
        if (errorCode == kStreamNotMatch)
            return makeError(NatsErrc::Nats,
                "publishing the registration " + subject + " on " + connection.url() + ": another stream than '"
                    + stream + "' stores the registration subjects");
    }
    return jetStreamError(connection, "publishing the registration " + subject, status, errorCode);
}

Result<void> removeRegistrationEntry(
    NatsConnection &connection, const std::string &stream, const RegistrationEntry &entry)
{
    if (auto name = checkStreamName(stream); !name)
        return name.error();
    const std::string subject = registrationSubject(entry);
    const std::string what = "purge " + subject + " from stream " + stream;
    int apiError = 0;
    auto answer = apiRequest(connection, "$JS.API.STREAM.PURGE." + stream, Json {{"filter", subject}}, what, apiError);
    if (!answer)
        return answer.error();
    if (apiError == kStreamNotFound)
        return streamNotFound(connection, stream);
    if (apiError != 0)
        return makeError(
            NatsErrc::Nats, "could not " + what + " on " + connection.url() + ": " + apiErrorText(answer.value()));
    return {};
}

Result<RegistrationLookup> lookupRegistrations(NatsConnection &connection, const std::string &stream,
    const std::string &cluster, const std::string &protocol, const std::string &service, const std::string &address)
{
    if (auto name = checkStreamName(stream); !name)
        return name.error();
    const std::pair<const std::string *, const char *> filters[]
        = {{&cluster, "cluster"}, {&protocol, "protocol"}, {&service, "service"}, {&address, "address"}};
    for (const auto &[value, what] : filters) {
        std::string token = *value;
        if (value == &address)
            std::replace(token.begin(), token.end(), '.', '_');
        if (auto checked = checkFilterToken(token, what); !checked)
            return checked.error();
    }
    auto subjects = streamSubjects(connection, stream, registrationFilter(cluster, protocol, service, address));
    if (!subjects)
        return subjects.error();
    RegistrationLookup found;
    for (const std::string &subject : subjects->subjects) {
        auto message = lastMessage(connection, stream, subject);
        if (!message)
            return message.error();
        if (!message.value() || isMarkerReason(headerValue(message.value()->headers, "Nats-Marker-Reason")))
            continue;
        auto entry = parseRegistration(message.value()->data);
        if (!entry) {
            found.skipped.push_back(subject + ": " + entry.error().message);
            continue;
        }
        found.entries.push_back(std::move(entry).value());
    }
    std::stable_sort(found.entries.begin(), found.entries.end(), entryOrder);
    return found;
}

Result<std::unique_ptr<RegistrationWatch>> RegistrationWatch::start(NatsConnection &connection,
    const std::string &stream, const std::string &filter, std::chrono::milliseconds checkInterval)
{
    if (auto name = checkStreamName(stream); !name)
        return name.error();
    // The stream must exist: an ordered consumer on a missing one fails with a vaguer error.
    if (auto subjects = streamSubjects(connection, stream, filter); !subjects)
        return subjects.error();
    jsSubOptions options;
    jsSubOptions_Init(&options);
    options.Stream = stream.c_str();
    options.Ordered = true;
    options.Config.DeliverPolicy = js_DeliverLastPerSubject;
    natsSubscription *subscription = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = retryConsumerCreation(connection.waitMs(), [&](jsOptions *jetStreamOptions) {
        errorCode = static_cast<jsErrCode>(0);
        return js_SubscribeSync(
            &subscription, connection.jetStream(), filter.c_str(), jetStreamOptions, &options, &errorCode);
    });
    if (status != NATS_OK)
        return jetStreamError(connection, "watch " + filter + " in stream " + stream, status, errorCode);
    return std::unique_ptr<RegistrationWatch>(
        new RegistrationWatch(connection, stream, filter, subscription, checkInterval));
}

RegistrationWatch::RegistrationWatch(NatsConnection &connection, std::string stream, std::string filter,
    __natsSubscription *subscription, std::chrono::milliseconds checkInterval)
    : m_connection(connection)
    , m_stream(std::move(stream))
    , m_filter(std::move(filter))
    , m_subscription(subscription)
    , m_checkInterval(checkInterval)
    , m_lastCheck(std::chrono::steady_clock::now())
{
}

RegistrationWatch::~RegistrationWatch()
{
    unsubscribeAndDestroy(m_subscription);
}

Result<std::vector<RegistrationEvent>> RegistrationWatch::next(std::chrono::milliseconds timeout)
{
    std::vector<RegistrationEvent> events;
    std::int64_t wait = std::max<std::int64_t>(timeout.count(), 1);
    for (;;) {
        natsMsg *raw = nullptr;
        const natsStatus status = natsSubscription_NextMsg(&raw, m_subscription, wait);
        const NatsMsgPtr message(raw);
        if (status == NATS_TIMEOUT)
            break;
        if (status == NATS_SLOW_CONSUMER)
            continue;
        if (status != NATS_OK)
            return jetStreamError(m_connection, "watch " + m_filter + " in stream " + m_stream, status, 0);
        wait = 1; // take what is queued already, then return
        const std::string subject = natsMsg_GetSubject(message.get());
        const char *reason = nullptr;
        if (natsMsgHeader_Get(message.get(), "Nats-Marker-Reason", &reason) == NATS_OK && reason != nullptr
            && *reason != '\0') {
            if (m_seen.erase(subject) > 0) {
                if (auto entry = entryOfSubject(subject))
                    events.push_back({RegistrationEvent::Action::Remove, std::move(*entry), reason});
            }
            continue;
        }
        const int length = natsMsg_GetDataLength(message.get());
        auto entry = parseRegistration(
            std::string_view(natsMsg_GetData(message.get()), length < 0 ? 0 : static_cast<std::size_t>(length)));
        if (!entry)
            continue;
        std::int64_t timestamp = 0;
        jsMsgMetaData *meta = nullptr;
        if (natsMsg_GetMetaData(&meta, message.get()) == NATS_OK && meta != nullptr) {
            timestamp = meta->Timestamp;
            jsMsgMetaData_Destroy(meta);
        }
        m_seen[subject] = Seen {timestamp, entry.value()};
        events.push_back({RegistrationEvent::Action::Register, std::move(entry).value(), {}});
    }
    if (std::chrono::steady_clock::now() - m_lastCheck >= m_checkInterval) {
        if (auto checked = findVanished(events); !checked)
            return checked.error();
    }
    return events;
}

Result<void> RegistrationWatch::findVanished(std::vector<RegistrationEvent> &events)
{
    m_lastCheck = std::chrono::steady_clock::now();
    if (m_seen.empty())
        return {};
    auto present = streamSubjects(m_connection, m_stream, m_filter);
    if (!present)
        return present.error();
    const std::int64_t now
        = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    for (auto it = m_seen.begin(); it != m_seen.end();) {
        if (present->subjects.contains(it->first)) {
            ++it;
            continue;
        }
        const std::int64_t age = now - it->second.timestampNs;
        bool expired = present->maxAgeNs > 0 && age >= present->maxAgeNs;
        if (!it->second.entry.ttl.empty() && it->second.entry.ttl != "never") {
            if (auto ttl = parseDuration(it->second.entry.ttl))
                expired = expired || age >= ttl.value().count();
        }
        if (auto entry = entryOfSubject(it->first))
            events.push_back({RegistrationEvent::Action::Remove, std::move(*entry), expired ? "MaxAge" : "Purge"});
        it = m_seen.erase(it);
    }
    return {};
}

RegistrationReader::RegistrationReader(NatsSelection selection, ContextEnvironment environment, std::string stream)
    : m_selection(std::move(selection))
    , m_environment(std::move(environment))
    , m_stream(std::move(stream))
{
}

RegistrationReader::~RegistrationReader() = default;

Result<Json> RegistrationReader::lookup(
    const std::string &cluster, const std::string &protocol, const std::string &service, const std::string &address)
{
    const std::lock_guard lock(m_mutex);
    if (!m_connection && !m_connectError) {
        auto settings = resolveNatsSettings(m_selection, m_environment);
        if (!settings) {
            m_connectError = settings.error().withContext("needs a NATS connection");
        } else {
            auto connection = NatsConnection::connect(settings.value());
            if (connection)
                m_connection = std::move(connection).value();
            else
                m_connectError = connection.error().withContext("needs a NATS connection");
        }
    }
    if (m_connectError)
        return *m_connectError;
    const std::array<std::string, 4> key {cluster, protocol, service, address};
    if (const auto known = m_answers.find(key); known != m_answers.end())
        return known->second;
    auto found = lookupRegistrations(*m_connection, m_stream, cluster, protocol, service, address);
    Result<Json> answer = found ? Result<Json>(Json::array()) : Result<Json>(found.error());
    if (found) {
        for (const RegistrationEntry &entry : found->entries)
            answer.value().push_back(registrationTemplateJson(entry));
    }
    m_answers.emplace(key, answer);
    return answer;
}

} // namespace ccm::fleet
