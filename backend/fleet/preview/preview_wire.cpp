// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/preview_wire.h"

#include "core/model/transaction_event.h"
#include "fleet/nats/object_url.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <random>

namespace ccm::fleet {
namespace {

constexpr int kMaxJsonDepth = 64;
constexpr std::size_t kMaxFieldLength = 4096;

Error badRequest(const std::string &what)
{
    return Error {"bad_request", "malformed preview request: " + what};
}

Error badAnswer(const std::string &what)
{
    return Error {"bad_answer", "malformed preview answer: " + what};
}

bool isIdCharacter(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

bool isValidId(std::string_view id)
{
    return id.size() >= 16 && id.size() <= 64 && std::all_of(id.begin(), id.end(), isIdCharacter);
}

/// The JSON object in `text`, or nullopt when it is not one (too deep, malformed, another type).
std::optional<Json> parseObject(std::string_view text)
{
    if (jsonNestingBeyond(text, kMaxJsonDepth))
        return std::nullopt;
    Json value = parseJson(text, false);
    if (!value.is_object())
        return std::nullopt;
    return value;
}

/// The string member `key` of `object`, at most kMaxFieldLength bytes; nullopt otherwise.
std::optional<std::string> stringField(const Json &object, const char *key, std::size_t maxLength = kMaxFieldLength)
{
    const auto found = object.find(key);
    if (found == object.end() || !found->is_string() || found->get_ref<const std::string &>().size() > maxLength)
        return std::nullopt;
    return found->get<std::string>();
}

std::optional<std::uint64_t> countField(const Json &object, const char *key)
{
    const auto found = object.find(key);
    if (found == object.end() || !found->is_number_unsigned())
        return std::nullopt;
    return found->get<std::uint64_t>();
}

bool hasType(const Json &object, const char *key, Json::value_t type)
{
    const auto found = object.find(key);
    return found != object.end() && found->type() == type;
}

Result<PreviewBundleRef> decodeBundleRef(const Json &body)
{
    const auto bundle = body.find("bundle");
    if (bundle == body.end() || !bundle->is_object())
        return badRequest("\"bundle\" must be an object");
    auto bucket = stringField(*bundle, "bucket", 255);
    auto name = stringField(*bundle, "name", 1024);
    auto digest = stringField(*bundle, "digest", 128);
    if (!bucket || bucket->empty() || !std::all_of(bucket->begin(), bucket->end(), isIdCharacter))
        return badRequest("\"bundle.bucket\" must be a bucket name ([A-Za-z0-9_-]+)");
    if (!name || name->empty())
        return badRequest("\"bundle.name\" must be a non-empty string");
    if (!digest || !digest->starts_with("SHA-256="))
        return badRequest("\"bundle.digest\" must be \"SHA-256=...\"");
    return PreviewBundleRef {*bucket, *name, *digest};
}

/// The optional "compare" member: exactly {"target": "obj://BUCKET/NAME" or null}.
Result<std::optional<PreviewCompare>> decodeCompare(const Json &body)
{
    const auto compare = body.find("compare");
    if (compare == body.end())
        return std::optional<PreviewCompare>();
    if (!compare->is_object() || compare->size() != 1 || !compare->contains("target"))
        return badRequest("\"compare\" must be an object with \"target\" alone");
    const Json &target = (*compare)["target"];
    if (target.is_null())
        return std::optional<PreviewCompare>(PreviewCompare {});
    auto text = stringField(*compare, "target", 1024);
    if (!text || !parseObjectUrl(*text) || text->find_first_of(" \t\r\n") != std::string::npos)
        return badRequest("\"compare.target\" must be an obj://BUCKET/NAME URL or null");
    return std::optional<PreviewCompare>(PreviewCompare {*text});
}

/// The rest of a capture request's body: "capture", "select" null, "noop", and neither "bundle"
/// nor "compare".
Result<PreviewRequest> decodeCaptureBody(const Json &body, PreviewRequest request)
{
    if (body.contains("bundle") || body.contains("compare"))
        return badRequest("a request with \"capture\" has no \"bundle\" and no \"compare\"");
    const auto select = body.find("select");
    if (select == body.end() || !select->is_null())
        return badRequest("\"select\" must be null in a capture request");
    if (!hasType(body, "noop", Json::value_t::boolean))
        return badRequest("\"noop\" must be a boolean");
    request.noop = body["noop"].get<bool>();
    auto capture = captureSelectionFromJson(body["capture"]);
    if (!capture)
        return capture.error();
    request.capture = std::move(capture).value();
    return request;
}

Result<PreviewRequest> decodeRequestBody(std::string_view text)
{
    const auto body = parseObject(text);
    if (!body)
        return badRequest("the signed request is not a JSON object");
    PreviewRequest request;
    auto id = stringField(*body, "id", 64);
    if (!id || !isValidId(*id))
        return badRequest("\"id\" must match [A-Za-z0-9_-]{16,64}");
    request.id = *id;
    for (const auto &[key, target] : {std::pair {"issued", &request.issued}, std::pair {"expires", &request.expires}}) {
        auto timeText = stringField(*body, key, 64);
        auto time = timeText ? parseRfc3339(*timeText) : Result<Clock::time_point>(Error {});
        if (!time)
            return badRequest(std::string("\"") + key + "\" must be an RFC 3339 time");
        *target = *time;
    }
    auto reply = stringField(*body, "reply", 255);
    if (!reply || !reply->starts_with("_INBOX.") || reply->find_first_of(" \t\r\n*>") != std::string::npos)
        return badRequest("\"reply\" must be an _INBOX. subject without wildcards");
    request.reply = *reply;
    if (const auto answers = body->find("answers"); answers != body->end()) {
        if (!answers->is_number_unsigned() || answers->get<std::uint64_t>() < 1)
            return badRequest("\"answers\" must be an integer of at least 1");
        request.answers = answers->get<std::uint64_t>();
    }
    if (body->contains("capture"))
        return decodeCaptureBody(*body, std::move(request));
    auto bundle = decodeBundleRef(*body);
    if (!bundle)
        return bundle.error();
    request.bundle = *bundle;
    const auto select = body->find("select");
    if (select == body->end()
        || !(select->is_null()
            || (select->is_string() && select->get_ref<const std::string &>().size() <= kMaxFieldLength)))
        return badRequest("\"select\" must be a string or null");
    if (select->is_string())
        request.select = select->get<std::string>();
    if (!hasType(*body, "noop", Json::value_t::boolean))
        return badRequest("\"noop\" must be a boolean");
    request.noop = (*body)["noop"].get<bool>();
    auto compare = decodeCompare(*body);
    if (!compare)
        return compare.error();
    request.compare = std::move(compare).value();
    return request;
}

Result<std::string> base64Field(const Json &envelope, const char *key)
{
    auto text = stringField(envelope, key, kMaxRequestPayload);
    if (!text)
        return badRequest(std::string("\"") + key + "\" must be a base64 string");
    auto decoded = decodeBase64(*text);
    if (!decoded)
        return badRequest(std::string("\"") + key + "\" is not valid base64");
    return decoded;
}

/// Checks the classes without copying them: decodeAnswer() checks every done, and only the
/// requester's collector keeps them.
Result<void> checkClasses(const Json &json)
{
    if (!json.is_object() || json.size() > kMaxComparedResources)
        return badAnswer(
            "\"compare.classes\" must be an object of at most " + std::to_string(kMaxComparedResources) + " resources");
    for (const auto &[resource, value] : json.items()) {
        const auto change = value.is_string() ? changeClassFromName(value.get_ref<const std::string &>())
                                              : std::optional<ChangeClass>();
        if (resource.empty() || resource.size() > kMaxComparedName || !change || *change == ChangeClass::Unchanged)
            return badAnswer("\"compare.classes\" maps resources to intended, drift, added, failed or uncompared");
    }
    return {};
}

/// The state of a comparison whose members are all as they must be.
Result<PreviewComparison::State> checkComparison(const Json &json)
{
    const auto state = json.is_object() ? stringField(json, "state", 16) : std::nullopt;
    if (state == "none") {
        if (json.size() != 2 || !stringField(json, "reason"))
            return badAnswer("\"compare\" of state none has \"reason\" and nothing else");
        return PreviewComparison::State::None;
    }
    if (state != "compared")
        return badAnswer("\"compare.state\" must be \"compared\" or \"none\"");
    auto digest = stringField(json, "digest", 128);
    if (json.size() != 4 || !stringField(json, "source", 1024) || !digest || !digest->starts_with("SHA-256=")
        || !json.contains("classes"))
        return badAnswer("\"compare\" of state compared has \"source\", \"digest\" and \"classes\" only");
    if (auto classes = checkClasses(json["classes"]); !classes)
        return classes.error();
    return PreviewComparison::State::Compared;
}

Result<void> checkStable(const Json &stable)
{
    if (!stable.is_array() || stable.size() > kMaxComparedResources)
        return badAnswer("\"stable\" must be an array of at most " + std::to_string(kMaxComparedResources) + " names");
    for (const Json &name : stable)
        if (!name.is_string() || name.get_ref<const std::string &>().empty()
            || name.get_ref<const std::string &>().size() > kMaxComparedName)
            return badAnswer(
                "\"stable\" must hold resource names of 1 to " + std::to_string(kMaxComparedName) + " bytes");
    return {};
}

/// A done's "answers" and "stable": both (format 2, "answers" exactly 2) or neither (format 1).
Result<void> checkDoneFormat(const Json &done)
{
    const auto answers = done.find("answers");
    const auto stable = done.find("stable");
    if (answers == done.end() && stable == done.end())
        return {};
    if (answers == done.end() || stable == done.end() || !answers->is_number_unsigned()
        || answers->get<std::uint64_t>() != 2)
        return badAnswer("\"done\" in format 2 has \"answers\": 2 and \"stable\" together");
    if (auto names = checkStable(*stable); !names)
        return names.error();
    return {};
}

Result<void> checkAnswerFields(const PreviewAnswer &answer)
{
    const Json &m = answer.message;
    const std::string &type = answer.type;
    if (type == "accepted")
        return !m.contains("facts_digest") || stringField(m, "facts_digest")
            ? Result<void>()
            : badAnswer("\"facts_digest\" must be a string");
    if (type == "declined") {
        const auto reason = stringField(m, "reason");
        if (reason == "selector" || (reason == "error" && stringField(m, "message", kMaxAnswerPayload)))
            return {};
        return badAnswer("\"declined\" needs \"reason\": \"selector\", or \"error\" with a \"message\"");
    }
    if (type == "progress")
        return countField(m, "done") && countField(m, "total") && stringField(m, "current")
            ? Result<void>()
            : badAnswer("\"progress\" needs \"done\", \"total\" and \"current\"");
    if (type == "event")
        return hasType(m, "event", Json::value_t::object) ? Result<void>() : badAnswer("\"event\" must be an object");
    if (type == "events") {
        const auto events = m.find("events");
        return events != m.end() && events->is_array() && !events->empty() && events->size() <= kMaxEventsPerAnswer
                && std::all_of(events->begin(), events->end(), [](const Json &event) { return event.is_object(); })
            ? Result<void>()
            : badAnswer("\"events\" must be an array of 1 to " + std::to_string(kMaxEventsPerAnswer) + " objects");
    }
    if (type == "done") {
        if (auto format = checkDoneFormat(m); !format)
            return format.error();
        if (const auto compare = m.find("compare"); compare != m.end())
            if (auto comparison = checkComparison(*compare); !comparison)
                return comparison.error();
        const auto diagnostics = m.find("diagnostics");
        const bool diagnosticsOk = diagnostics != m.end() && diagnostics->is_array()
            && std::all_of(diagnostics->begin(), diagnostics->end(), [](const Json &d) { return d.is_string(); });
        return hasType(m, "summary", Json::value_t::object) && hasType(m, "cancelled", Json::value_t::boolean)
                && hasType(m, "aborted", Json::value_t::boolean) && diagnosticsOk
            ? Result<void>()
            : badAnswer("\"done\" needs \"summary\", \"cancelled\", \"aborted\" and \"diagnostics\"");
    }
    if (type == "failed")
        return stringField(m, "message", kMaxAnswerPayload) ? Result<void>()
                                                            : badAnswer("\"failed\" needs a \"message\"");
    if (type == "capture")
        return checkCaptureAnswer(m);
    if (type == "part") {
        const auto part = countField(m, "part");
        const auto parts = countField(m, "parts");
        return part && parts && *part < *parts && stringField(m, "data", kMaxAnswerPayload)
            ? Result<void>()
            : badAnswer("\"part\" needs \"part\" < \"parts\" and \"data\"");
    }
    return badAnswer("unknown \"type\"");
}

/// How many bytes `c` takes inside a JSON string: quotes and backslashes gain a backslash, control
/// characters (none in dumped JSON text outside strings' escapes) take \u00XX.
std::size_t escapedSize(unsigned char c)
{
    if (c == '"' || c == '\\')
        return 2;
    return c < 0x20 ? 6 : 1;
}

} // namespace

namespace {

constexpr std::array<std::pair<ChangeClass, std::string_view>, 6> kChangeClassNames {{
    {ChangeClass::Unchanged, "unchanged"},
    {ChangeClass::Intended, "intended"},
    {ChangeClass::Drift, "drift"},
    {ChangeClass::Added, "added"},
    {ChangeClass::Failed, "failed"},
    {ChangeClass::Uncompared, "uncompared"},
}};

} // namespace

std::string_view changeClassName(ChangeClass change)
{
    for (const auto &[value, name] : kChangeClassNames)
        if (value == change)
            return name;
    return "unchanged";
}

std::optional<ChangeClass> changeClassFromName(std::string_view name)
{
    for (const auto &[value, text] : kChangeClassNames)
        if (text == name)
            return value;
    return std::nullopt;
}

Json comparisonToJson(const PreviewComparison &comparison)
{
    if (comparison.state != PreviewComparison::State::Compared)
        return Json {{"state", "none"}, {"reason", comparison.reason}};
    Json classes = Json::object();
    for (const auto &[resource, change] : comparison.classes)
        if (change != ChangeClass::Unchanged)
            classes[resource] = changeClassName(change);
    return Json {{"state", "compared"}, {"source", comparison.source}, {"digest", comparison.digest},
        {"classes", std::move(classes)}};
}

Result<PreviewComparison> comparisonFromJson(const Json &json)
{
    auto state = checkComparison(json);
    if (!state)
        return state.error();
    PreviewComparison comparison;
    comparison.state = *state;
    if (*state == PreviewComparison::State::None) {
        comparison.reason = json["reason"].get<std::string>();
        return comparison;
    }
    comparison.source = json["source"].get<std::string>();
    comparison.digest = json["digest"].get<std::string>();
    for (const auto &[resource, value] : json["classes"].items())
        comparison.classes.emplace_hint(
            comparison.classes.end(), resource, *changeClassFromName(value.get_ref<const std::string &>()));
    return comparison;
}

std::optional<ChangeClass> classOf(const PreviewComparison &comparison, const std::string &resource)
{
    if (comparison.state != PreviewComparison::State::Compared)
        return std::nullopt;
    const auto found = comparison.classes.find(resource);
    return found == comparison.classes.end() ? ChangeClass::Unchanged : found->second;
}

std::uint64_t answerFormatFor(const PreviewRequest &request)
{
    return std::min(request.answers, kPreviewAnswersFormat);
}

bool isStableEvent(const TransactionEvent &event)
{
    return !event.changed && !event.failed && !event.skipped && !event.refreshed && !event.healthCheckOnly
        && !event.diff && event.errors.empty() && event.unmetRequirements.empty() && event.noopMessage.empty()
        && event.healthChecks.empty() && event.refreshedBy.empty();
}

bool isStableEvent(const Json &event)
{
    if (!event.is_object())
        return false;
    for (const char *flag : {"changed", "failed", "skipped", "refreshed", "health_check_only"}) {
        const auto found = event.find(flag);
        if (found != event.end() && !(found->is_boolean() && !found->get<bool>()))
            return false;
    }
    for (const char *detail : {"diff", "noop_message", "refreshed_by"})
        if (event.contains(detail))
            return false;
    for (const char *list : {"error", "unmet_requirements", "health_check"}) {
        const auto found = event.find(list);
        if (found != event.end() && !(found->is_array() && found->empty()))
            return false;
    }
    return true;
}

Result<std::vector<std::string>> stableFromJson(const Json &json)
{
    if (auto checked = checkStable(json); !checked)
        return checked.error();
    std::vector<std::string> names;
    names.reserve(json.size());
    for (const Json &name : json)
        names.push_back(name.get<std::string>());
    return names;
}

std::string newPreviewId()
{
    static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device device;
    std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
    std::string id;
    for (int i = 0; i < 32; ++i)
        id += kAlphabet[pick(device)];
    return id;
}

std::string formatRfc3339(Clock::time_point time)
{
    const std::time_t seconds = Clock::to_time_t(std::chrono::floor<std::chrono::seconds>(time));
    std::tm utc {};
    ::gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

Result<Clock::time_point> parseRfc3339(std::string_view text)
{
    if (auto time = parseTimestamp(text))
        return *time;
    // Appended rather than "'" + ...: GCC 12 -O3 reports -Wrestrict on that (GCC bug 105329).
    std::string message = "'";
    message.append(text.substr(0, 64));
    message += "' is not an RFC 3339 time";
    return Error {"bad_time", std::move(message)};
}

std::string encodeRequestBody(const PreviewRequest &request)
{
    if (request.capture) {
        const Json body {{"id", request.id}, {"issued", formatRfc3339(request.issued)},
            {"expires", formatRfc3339(request.expires)}, {"reply", request.reply}, {"select", nullptr},
            {"noop", request.noop}, {"capture", captureSelectionToJson(*request.capture)}};
        return body.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    Json body {{"id", request.id}, {"issued", formatRfc3339(request.issued)},
        {"expires", formatRfc3339(request.expires)}, {"reply", request.reply},
        {"bundle",
            {{"bucket", request.bundle.bucket}, {"name", request.bundle.name}, {"digest", request.bundle.digest}}},
        {"select", request.select ? Json(*request.select) : Json(nullptr)}, {"noop", request.noop}};
    if (request.compare)
        body["compare"] = Json {{"target", request.compare->target ? Json(*request.compare->target) : Json(nullptr)}};
    if (request.answers > 1)
        body["answers"] = request.answers;
    return body.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<std::string> encodeSignedRequest(const PreviewRequest &request, const SigningKey &key)
{
    const std::string body = encodeRequestBody(request);
    auto signature = signEd25519(key, body);
    if (!signature)
        return signature.error();
    const Json envelope {
        {"request", encodeBase64(body)}, {"signature", encodeBase64(*signature)}, {"key", encodeBase64(key.publicKey)}};
    return envelope.dump();
}

Result<VerifiedRequest> decodeSignedRequest(std::string_view payload)
{
    if (payload.size() > kMaxRequestPayload)
        return badRequest("larger than " + std::to_string(kMaxRequestPayload) + " bytes");
    const auto envelope = parseObject(payload);
    if (!envelope)
        return badRequest("not a JSON object");
    auto body = base64Field(*envelope, "request");
    auto signature = body ? base64Field(*envelope, "signature") : body;
    auto key = signature ? base64Field(*envelope, "key") : signature;
    if (!key)
        return key.error();
    if (key->size() != kEd25519KeySize)
        return badRequest("\"key\" must be a raw 32-byte Ed25519 public key");
    if (!verifyEd25519(*key, *body, *signature))
        return Error {"bad_signature", "the request's signature does not verify with the key it names"};
    auto request = decodeRequestBody(*body);
    if (!request)
        return request.error();
    return VerifiedRequest {std::move(request).value(), std::move(key).value()};
}

Result<void> checkRequestRules(const PreviewRequest &request, Clock::time_point now)
{
    if (request.expires <= now)
        return Error {"expired", "the request expired at " + formatRfc3339(request.expires)};
    if (request.expires - request.issued > kMaxRequestLifetime)
        return Error {"too_long", "the request is valid for more than 15 minutes"};
    if (request.issued > now + kMaxClockSkew)
        return Error {"not_yet_valid", "the request was issued in the future (" + formatRfc3339(request.issued) + ")"};
    if (!request.noop)
        return Error {"not_noop", "the request is not a noop preview"};
    return {};
}

Json answerHeader(const std::string &id, const std::string &identity, std::uint64_t seq, std::string_view type)
{
    return Json {{"id", id}, {"identity", identity}, {"seq", seq}, {"type", type}};
}

Result<PreviewAnswer> decodeAnswer(std::string_view payload)
{
    if (payload.size() > kMaxAnswerPayload)
        return badAnswer("larger than the largest payload");
    auto message = parseObject(payload);
    if (!message)
        return badAnswer("not a JSON object");
    PreviewAnswer answer;
    auto id = stringField(*message, "id", 64);
    auto identity = stringField(*message, "identity", 1024);
    auto seq = countField(*message, "seq");
    auto type = stringField(*message, "type", 32);
    if (!id || !isValidId(*id))
        return badAnswer("\"id\" must be a request id");
    if (!identity || identity->empty())
        return badAnswer("\"identity\" must be a non-empty string");
    if (!seq || !type)
        return badAnswer("\"seq\" must be a count and \"type\" a string");
    answer.id = std::move(*id);
    answer.identity = std::move(*identity);
    answer.seq = *seq;
    answer.type = std::move(*type);
    answer.message = std::move(*message);
    auto checked = checkAnswerFields(answer);
    if (!checked)
        return checked.error();
    return answer;
}

std::vector<std::string> splitAnswer(const Json &message, std::size_t maxPayload)
{
    std::string text = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (text.size() <= maxPayload)
        return {std::move(text)};
    const Json header
        = answerHeader(message.value("id", ""), message.value("identity", ""), message.value("seq", 0ull), "part");
    // Room for the header, the part numbers and the data's quotes.
    const std::size_t overhead = header.dump().size() + 64;
    const std::size_t budget = maxPayload > overhead + 64 ? maxPayload - overhead : 64;
    std::vector<std::string> slices;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = start;
        std::size_t size = 0;
        while (end < text.size() && size + escapedSize(static_cast<unsigned char>(text[end])) <= budget)
            size += escapedSize(static_cast<unsigned char>(text[end++]));
        while (end < text.size() && end > start + 1 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
            --end;
        slices.push_back(text.substr(start, end - start));
        start = end;
    }
    std::vector<std::string> payloads;
    for (std::size_t i = 0; i < slices.size(); ++i) {
        Json part = header;
        part["part"] = i;
        part["parts"] = slices.size();
        part["data"] = std::move(slices[i]);
        payloads.push_back(part.dump(-1, ' ', false, Json::error_handler_t::replace));
    }
    return payloads;
}

PartAssembler::PartAssembler(Limits limits)
    : m_limits(limits)
{
}

Result<std::optional<std::string>> PartAssembler::add(const PreviewAnswer &part)
{
    const auto index = part.message["part"].get<std::uint64_t>();
    const auto parts = part.message["parts"].get<std::uint64_t>();
    const std::string &data = part.message["data"].get_ref<const std::string &>();
    if (parts > m_limits.maxParts) {
        forget(part.identity);
        return Error {"too_large", part.identity + ": a message in " + std::to_string(parts) + " parts is too large"};
    }
    Host &host = m_hosts[part.identity];
    Pending &pending = host.messages[part.seq];
    if (pending.parts == 0)
        pending.parts = parts;
    if (pending.parts != parts || pending.data.contains(index)) {
        forget(part.identity);
        return badAnswer(part.identity + ": parts of message " + std::to_string(part.seq) + " disagree");
    }
    if (host.bytes + data.size() > m_limits.maxHostBytes || m_total + data.size() > m_limits.maxTotalBytes) {
        forget(part.identity);
        return Error {"too_large", part.identity + ": the answer exceeds the size limit for one preview"};
    }
    pending.data.emplace(index, data);
    pending.bytes += data.size();
    host.bytes += data.size();
    m_total += data.size();
    if (pending.data.size() < pending.parts)
        return std::optional<std::string>();
    std::string whole;
    whole.reserve(pending.bytes);
    for (const auto &entry : pending.data)
        whole += entry.second;
    host.bytes -= pending.bytes;
    m_total -= pending.bytes;
    host.messages.erase(part.seq);
    return std::optional<std::string>(std::move(whole));
}

void PartAssembler::forget(const std::string &identity)
{
    const auto found = m_hosts.find(identity);
    if (found == m_hosts.end())
        return;
    m_total -= found->second.bytes;
    m_hosts.erase(found);
}

} // namespace ccm::fleet
