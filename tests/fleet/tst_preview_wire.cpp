// SPDX-License-Identifier: Apache-2.0
// The fleet preview wire format: strict decoding of requests and answers (a hostile peer may send
// anything), the time rules, parts split and put back together, and the replay cache.
#include "fleet/preview/preview_requester.h"
#include "fleet/preview/preview_wire.h"
#include "preview_answer_stream.h"
#include "test_common.h"
#include "test_main.h"

#include <QtTest>

#include <algorithm>
#include <functional>
#include <random>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::q;

namespace {

const std::string kId = "abcdefghijklmnop0123";

PreviewRequest sampleRequest()
{
    PreviewRequest request;
    request.id = kId;
    request.issued = Clock::now();
    request.expires = request.issued + std::chrono::minutes(5);
    request.reply = "_INBOX.x1";
    request.bundle = {"CCM_PREVIEW", "preview-" + kId, "SHA-256=abc="};
    return request;
}

/// A payload with body R, signed properly, so only R's fields are at fault.
std::string signedBody(const Json &body, const SigningKey &key)
{
    const std::string text = body.dump();
    return Json {{"request", encodeBase64(text)}, {"signature", encodeBase64(signEd25519(key, text).value())},
        {"key", encodeBase64(key.publicKey)}}
        .dump();
}

} // namespace

class TestPreviewWire : public QObject {
    Q_OBJECT

private slots:
    void requestRoundTrip()
    {
        const auto key = generateSigningKey().value();
        PreviewRequest request = sampleRequest();
        request.select = "Facts.os == 'linux'";
        auto decoded = decodeSignedRequest(encodeSignedRequest(request, key).value());
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        QCOMPARE(decoded->publicKey, key.publicKey);
        QCOMPARE(decoded->request.id, kId);
        QCOMPARE(decoded->request.select.value(), std::string("Facts.os == 'linux'"));
        QCOMPARE(decoded->request.bundle.digest, std::string("SHA-256=abc="));
        QCOMPARE(formatRfc3339(decoded->request.expires), formatRfc3339(request.expires));
        QVERIFY(checkRequestRules(decoded->request, Clock::now()));
    }

    void malformedRequestBodies_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value"); // JSON text; "-" removes the field
        QTest::addColumn<QString>("says");
        QTest::newRow("id missing") << "id"
                                    << "-"
                                    << "\"id\"";
        QTest::newRow("id short") << "id"
                                  << "\"abc\""
                                  << "\"id\"";
        QTest::newRow("id bad characters") << "id"
                                           << "\"abcdefghijklmnop.*\""
                                           << "\"id\"";
        QTest::newRow("id number") << "id"
                                   << "12345678901234567890"
                                   << "\"id\"";
        QTest::newRow("issued bad") << "issued"
                                    << "\"yesterday\""
                                    << "\"issued\"";
        QTest::newRow("expires month 13") << "expires"
                                          << "\"2026-13-01T00:00:00Z\""
                                          << "\"expires\"";
        QTest::newRow("expires no zone") << "expires"
                                         << "\"2026-11-01T00:00:00\""
                                         << "\"expires\"";
        QTest::newRow("reply not inbox") << "reply"
                                         << "\"ccm.agent.x\""
                                         << "\"reply\"";
        QTest::newRow("reply wildcard") << "reply"
                                        << "\"_INBOX.>\""
                                        << "\"reply\"";
        QTest::newRow("bundle string") << "bundle"
                                       << "\"x\""
                                       << "\"bundle\"";
        QTest::newRow("bundle bucket") << "bundle"
                                       << R"({"bucket":"a.b","name":"n","digest":"SHA-256=x"})"
                                       << "bundle.bucket";
        QTest::newRow("bundle name") << "bundle"
                                     << R"({"bucket":"B","name":"","digest":"SHA-256=x"})"
                                     << "bundle.name";
        QTest::newRow("bundle digest") << "bundle"
                                       << R"({"bucket":"B","name":"n","digest":"MD5=x"})"
                                       << "bundle.digest";
        QTest::newRow("select number") << "select"
                                       << "1"
                                       << "\"select\"";
        QTest::newRow("select missing") << "select"
                                        << "-"
                                        << "\"select\"";
        QTest::newRow("noop string") << "noop"
                                     << "\"true\""
                                     << "\"noop\"";
        QTest::newRow("noop missing") << "noop"
                                      << "-"
                                      << "\"noop\"";
        QTest::newRow("compare string") << "compare"
                                        << "\"obj://B/n\""
                                        << "\"compare\"";
        QTest::newRow("compare empty") << "compare"
                                       << "{}"
                                       << "\"compare\"";
        QTest::newRow("compare extra member") << "compare"
                                              << R"({"target":null,"all":true})"
                                              << "\"compare\"";
        QTest::newRow("compare target http") << "compare"
                                             << "{\"target\":\"https://example.com/b.tar.gz\"}"
                                             << "compare.target";
        QTest::newRow("compare target no key") << "compare"
                                               << "{\"target\":\"obj://B\"}"
                                               << "compare.target";
        QTest::newRow("compare target number") << "compare"
                                               << R"({"target":1})"
                                               << "compare.target";
        QTest::newRow("answers zero") << "answers"
                                      << "0"
                                      << "\"answers\"";
        QTest::newRow("answers negative") << "answers"
                                          << "-2"
                                          << "\"answers\"";
        QTest::newRow("answers fraction") << "answers"
                                          << "2.5"
                                          << "\"answers\"";
        QTest::newRow("answers string") << "answers"
                                        << "\"2\""
                                        << "\"answers\"";
        QTest::newRow("answers boolean") << "answers"
                                         << "true"
                                         << "\"answers\"";
        QTest::newRow("answers null") << "answers"
                                      << "null"
                                      << "\"answers\"";
    }

    void malformedRequestBodies()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, says);
        const auto key = generateSigningKey().value();
        Json body = parseJson(encodeRequestBody(sampleRequest()));
        if (value == QStringLiteral("-"))
            body.erase(field.toStdString());
        else
            body[field.toStdString()] = parseJson(value.toStdString());
        auto decoded = decodeSignedRequest(signedBody(body, key));
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().code, std::string("bad_request"));
        QVERIFY2(q(decoded.error().message).contains(says), decoded.error().message.c_str());
    }

    void compareRoundTrip()
    {
        const auto key = generateSigningKey().value();
        PreviewRequest request = sampleRequest();
        request.compare = PreviewCompare {"obj://SITE/site"};
        auto decoded = decodeSignedRequest(encodeSignedRequest(request, key).value());
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        QVERIFY(decoded->request.compare);
        QCOMPARE(decoded->request.compare->target.value(), std::string("obj://SITE/site"));

        request.compare = PreviewCompare {};
        QVERIFY(parseJson(encodeRequestBody(request))["compare"]["target"].is_null());
        decoded = decodeSignedRequest(encodeSignedRequest(request, key).value());
        QVERIFY(decoded && decoded->request.compare && !decoded->request.compare->target);
    }

    void anOlderRequestersBodyIsUnchanged()
    {
        // A requester that predates classes sends no compare member: it is decoded as before,
        // and the body a request without compare encodes to has exactly the older members.
        const Json body = parseJson(encodeRequestBody(sampleRequest()));
        std::vector<std::string> members;
        for (const auto &item : body.items())
            members.push_back(item.key());
        std::sort(members.begin(), members.end());
        QCOMPARE(members, (std::vector<std::string> {"bundle", "expires", "id", "issued", "noop", "reply", "select"}));
        const auto key = generateSigningKey().value();
        auto decoded = decodeSignedRequest(signedBody(body, key));
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        QVERIFY(!decoded->request.compare);
    }

    void answersRoundTrip()
    {
        // A requester that reads format 2 says so; one that predates formats sends no member and
        // gets format 1; a later requester's higher number means "at most", so format 2.
        const auto key = generateSigningKey().value();
        PreviewRequest request = sampleRequest();
        QCOMPARE(answerFormatFor(request), std::uint64_t {1});
        QVERIFY(!parseJson(encodeRequestBody(request)).contains("answers"));
        request.answers = kPreviewAnswersFormat;
        QCOMPARE(parseJson(encodeRequestBody(request))["answers"], Json(2));
        auto decoded = decodeSignedRequest(encodeSignedRequest(request, key).value());
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        QCOMPARE(decoded->request.answers, std::uint64_t {2});
        QCOMPARE(answerFormatFor(decoded->request), std::uint64_t {2});
        Json body = parseJson(encodeRequestBody(sampleRequest()));
        body["answers"] = 7;
        decoded = decodeSignedRequest(signedBody(body, key));
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        QCOMPARE(decoded->request.answers, std::uint64_t {7});
        QCOMPARE(answerFormatFor(decoded->request), std::uint64_t {2});
        body["answers"] = 1;
        decoded = decodeSignedRequest(signedBody(body, key));
        QVERIFY(decoded && answerFormatFor(decoded->request) == 1);
    }

    void formatTwoDoneRoundTrip()
    {
        Json done = answerHeader(kId, "h1", 3, "done");
        done["summary"] = Json {{"total", 3}, {"changed", 1}, {"stable", 2}};
        done["cancelled"] = false;
        done["aborted"] = false;
        done["diagnostics"] = Json::array();
        done["answers"] = 2;
        done["stable"] = Json::array({"file#/etc/a", "package#zsh"});
        auto answer = decodeAnswer(done.dump());
        QVERIFY2(answer, answer ? "" : answer.error().message.c_str());
        const auto names = stableFromJson(answer->message["stable"]);
        QVERIFY(names);
        QCOMPARE(*names, (std::vector<std::string> {"file#/etc/a", "package#zsh"}));
        done["stable"] = Json::array();
        QVERIFY(decodeAnswer(done.dump()));
    }

    void eventBatchesDecode()
    {
        Json batch = answerHeader(kId, "h1", 2, "events");
        batch["events"] = Json::array();
        for (std::size_t i = 0; i < kMaxEventsPerAnswer; ++i)
            batch["events"].push_back(Json {{"resource", "file#/etc/f" + std::to_string(i)}, {"changed", true}});
        auto answer = decodeAnswer(batch.dump());
        QVERIFY2(answer, answer ? "" : answer.error().message.c_str());
        QCOMPARE(answer->type, std::string("events"));
        QCOMPARE(answer->message["events"].size(), kMaxEventsPerAnswer);
        QCOMPARE(answer->message["events"][7]["resource"], Json("file#/etc/f7"));
    }

    void stableEventsCarryNothingToShow()
    {
        TransactionEvent event;
        event.type = "file";
        event.name = "/etc/a";
        event.noop = true;
        QVERIFY(isStableEvent(event));
        QVERIFY(isStableEvent(eventToJson(event)));
        const auto notStable = [&event](const std::function<void(TransactionEvent &)> &change) {
            TransactionEvent changed = event;
            change(changed);
            return !isStableEvent(changed) && !isStableEvent(eventToJson(changed));
        };
        QVERIFY(notStable([](TransactionEvent &e) { e.changed = true; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.fail("boom"); }));
        QVERIFY(notStable([](TransactionEvent &e) { e.skipped = true; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.refreshed = true; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.diff = "--- a\n"; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.noopMessage = "Would have changed"; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.unmetRequirements = {"file#/b"}; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.healthChecks = {HealthCheckResult {}}; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.refreshedBy = {"file#/b"}; }));
        QVERIFY(notStable([](TransactionEvent &e) { e.healthCheckOnly = true; }));
        // From the wire: mistyped members are not stable either.
        Json text = eventToJson(event);
        text["changed"] = "no";
        QVERIFY(!isStableEvent(text));
        QVERIFY(!isStableEvent(Json::array()));
    }

    void aFormatOneHostGivesTheSameTotals()
    {
        // The same run answered in both formats (format 2's events in one batch): the collector
        // ends with the same host.
        std::vector<TransactionEvent> run;
        for (int i = 0; i < 6; ++i) {
            TransactionEvent event;
            event.type = "file";
            event.name = "/etc/f" + std::to_string(i);
            if (i % 3 == 0) {
                event.changed = true;
                event.diff = "--- a\n+++ b\n";
            }
            run.push_back(std::move(event));
        }
        const auto stream = [&run](int format) { return test::answerStream(kId, "h1", run, format); };
        std::vector<HostPreview> hosts;
        for (const int format : {1, 2}) {
            PreviewRequestOptions options;
            std::size_t events = 0;
            PreviewCallbacks callbacks;
            callbacks.event = [&events](const std::string &, const Json &) { ++events; };
            PreviewCollector collector(kId, options, callbacks);
            for (const std::string &line : stream(format))
                collector.receive(line);
            FleetPreview preview = collector.finish(false);
            QCOMPARE(preview.hosts.size(), std::size_t {1});
            QCOMPARE(events, std::size_t {2});
            QCOMPARE(preview.hosts[0].answers, std::uint64_t(format));
            QCOMPARE(fleetPreviewTotals(preview)["stable"], Json(4));
            // In reverse order (done first), the answers are held and applied in seq order.
            const PreviewCallbacks none;
            PreviewCollector reversed(kId, options, none);
            std::vector<std::string> lines = stream(format);
            std::reverse(lines.begin(), lines.end());
            for (const std::string &line : lines)
                reversed.receive(line);
            FleetPreview again = reversed.finish(false);
            QCOMPARE(again.hosts.size(), std::size_t {1});
            QVERIFY(again.hosts[0].state == HostState::Done);
            QCOMPARE(again.hosts[0].stable, preview.hosts[0].stable);
            QCOMPARE(again.hosts[0].events, preview.hosts[0].events);
            hosts.push_back(std::move(preview.hosts[0]));
        }
        QCOMPARE(hosts[0].stable, hosts[1].stable);
        QCOMPARE(hosts[0].stable,
            (std::vector<std::string> {"file#/etc/f1", "file#/etc/f2", "file#/etc/f4", "file#/etc/f5"}));
        QCOMPARE(hosts[0].events, hosts[1].events);
        QCOMPARE(hosts[0].eventCount, hosts[1].eventCount);
        QCOMPARE(hosts[0].summary, hosts[1].summary);
    }

    void comparisonRoundTrip()
    {
        PreviewComparison compared;
        compared.state = PreviewComparison::State::Compared;
        compared.source = "obj://SITE/site";
        compared.digest = "SHA-256=abc=";
        compared.classes = {{"file#/a", ChangeClass::Drift}, {"file#/b", ChangeClass::Intended},
            {"file#/c", ChangeClass::Added}, {"exec#x", ChangeClass::Failed}, {"service#y", ChangeClass::Uncompared}};
        Json done = answerHeader(kId, "h1", 3, "done");
        done["summary"] = Json::object();
        done["cancelled"] = false;
        done["aborted"] = false;
        done["diagnostics"] = Json::array();
        done["compare"] = comparisonToJson(compared);
        auto answer = decodeAnswer(done.dump());
        QVERIFY2(answer, answer ? "" : answer.error().message.c_str());
        auto back = comparisonFromJson(answer->message["compare"]).value();
        QCOMPARE(back.source, compared.source);
        QCOMPARE(back.digest, compared.digest);
        QVERIFY(back.classes == compared.classes);
        QVERIFY(classOf(back, "file#/a") == ChangeClass::Drift);
        QVERIFY(classOf(back, "file#/other") == ChangeClass::Unchanged);

        PreviewComparison none;
        none.state = PreviewComparison::State::None;
        none.reason = "no current bundle: this agent follows no remote source";
        back = comparisonFromJson(comparisonToJson(none)).value();
        QVERIFY(back.state == PreviewComparison::State::None);
        QCOMPARE(back.reason, none.reason);
        QVERIFY(!classOf(back, "file#/a"));
        for (const ChangeClass change : {ChangeClass::Unchanged, ChangeClass::Intended, ChangeClass::Drift,
                 ChangeClass::Added, ChangeClass::Failed, ChangeClass::Uncompared})
            QVERIFY(changeClassFromName(changeClassName(change)) == change);
    }

    void anOlderAgentsDoneIsNotCompared()
    {
        // An agent that predates classes ignores the compare member and sends done without one.
        const Json done {{"id", kId}, {"identity", "h1"}, {"seq", 1}, {"type", "done"}, {"summary", {{"changed", 1}}},
            {"cancelled", false}, {"aborted", false}, {"diagnostics", Json::array()}};
        QVERIFY(decodeAnswer(done.dump()));
        HostPreview host;
        host.state = HostState::Done;
        QVERIFY(host.comparison.state == PreviewComparison::State::Absent);
        QCOMPARE(comparisonNote(host), std::string("not compared: the agent predates drift classes"));
        QCOMPARE(comparisonSummary(host), Json({{"state", "absent"}}));
        QCOMPARE(classCount(host, ChangeClass::Drift), std::size_t {0});
    }

    void malformedEnvelopes_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("code");
        QTest::newRow("empty") << QByteArray() << "bad_request";
        QTest::newRow("not json") << QByteArray("{{{") << "bad_request";
        QTest::newRow("array") << QByteArray("[]") << "bad_request";
        QTest::newRow("deep") << QByteArray(10000, '[') << "bad_request";
        QTest::newRow("no signature") << QByteArray(R"({"request":"e30=","key":"AAAA"})") << "bad_request";
        QTest::newRow("bad base64") << QByteArray(R"({"request":"e30","signature":"AA==","key":"AA=="})")
                                    << "bad_request";
        QTest::newRow("short key") << QByteArray(R"({"request":"e30=","signature":"AA==","key":"AA=="})")
                                   << "bad_request";
        QTest::newRow("huge") << QByteArray(100000, ' ') << "bad_request";
        QTest::newRow("bad signature") << QByteArray(
            R"({"request":"e30=","signature":"AA==","key":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})")
                                       << "bad_signature";
    }

    void malformedEnvelopes()
    {
        QFETCH(QByteArray, payload);
        QFETCH(QString, code);
        auto decoded
            = decodeSignedRequest(std::string_view(payload.constData(), static_cast<std::size_t>(payload.size())));
        QVERIFY(!decoded);
        QCOMPARE(q(decoded.error().code), code);
    }

    void tamperedBodyFailsTheSignature()
    {
        const auto key = generateSigningKey().value();
        Json envelope = parseJson(encodeSignedRequest(sampleRequest(), key).value());
        std::string body = decodeBase64(envelope["request"].get<std::string>()).value();
        body.replace(body.find("\"noop\":true"), 11, "\"noop\":fals");
        envelope["request"] = encodeBase64(body);
        auto decoded = decodeSignedRequest(envelope.dump());
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().code, std::string("bad_signature"));
    }

    void timeRules_data()
    {
        QTest::addColumn<int>("issuedOffset"); // seconds from now
        QTest::addColumn<int>("expiresOffset");
        QTest::addColumn<bool>("noop");
        QTest::addColumn<QString>("code"); // empty: accepted
        QTest::newRow("fine") << -10 << 300 << true << "";
        QTest::newRow("expired") << -600 << -1 << true << "expired";
        QTest::newRow("expires now") << -10 << 0 << true << "expired";
        QTest::newRow("too long") << 0 << 16 * 60 << true << "too_long";
        QTest::newRow("exactly 15 min") << 0 << 15 * 60 << true << "";
        QTest::newRow("future") << 120 << 300 << true << "not_yet_valid";
        QTest::newRow("skew allowed") << 50 << 300 << true << "";
        QTest::newRow("not noop") << 0 << 300 << false << "not_noop";
    }

    void timeRules()
    {
        QFETCH(int, issuedOffset);
        QFETCH(int, expiresOffset);
        QFETCH(bool, noop);
        QFETCH(QString, code);
        const auto now = Clock::now();
        PreviewRequest request = sampleRequest();
        request.issued = now + std::chrono::seconds(issuedOffset);
        request.expires = now + std::chrono::seconds(expiresOffset);
        request.noop = noop;
        const auto checked = checkRequestRules(request, now);
        QCOMPARE(checked ? QString() : q(checked.error().code), code);
    }

    void rfc3339Offsets()
    {
        const auto utc = parseRfc3339("2026-11-25T01:00:00Z").value();
        QCOMPARE(parseRfc3339("2026-11-25T02:00:00.123+01:00").value(), utc + std::chrono::milliseconds(123));
        QCOMPARE(formatRfc3339(utc), std::string("2026-11-25T01:00:00Z"));
        for (const char *bad : {"", "2026-11-25", "2026-11-25T01:00:00Zjunk", "2026-11-25T01:00:00.Z",
                 "x026-11-25T01:00:00Z", "2026-13-25T01:00:00Z", "2026-11-25T01:00:00+0100",
                 // Beyond what the clock's 64-bit nanoseconds hold (found by fuzz_preview_wire).
                 "7740-11-25T01:02:03Z", "1000-01-01T00:00:00Z", "2262-04-12T00:00:00Z"})
            QVERIFY2(!parseRfc3339(bad), bad);
        QVERIFY(parseRfc3339("2261-12-31T23:59:59Z"));
        QVERIFY(parseRfc3339("1678-01-01T00:00:00Z"));
    }

    void malformedAnswers_data()
    {
        QTest::addColumn<QString>("json");
        const std::string head = R"({"id":"abcdefghijklmnop0123","identity":"h1","seq":0,)";
        QTest::newRow("not object") << "[1]";
        QTest::newRow("no id") << R"({"identity":"h","seq":0,"type":"accepted"})";
        QTest::newRow("negative seq") << R"({"id":"abcdefghijklmnop0123","identity":"h","seq":-1,"type":"accepted"})";
        QTest::newRow("empty identity") << R"({"id":"abcdefghijklmnop0123","identity":"","seq":0,"type":"accepted"})";
        QTest::newRow("unknown type") << (head + R"("type":"hello"})").c_str();
        QTest::newRow("accepted digest") << (head + R"("type":"accepted","facts_digest":1})").c_str();
        QTest::newRow("declined reason") << (head + R"("type":"declined","reason":"bored"})").c_str();
        QTest::newRow("declined error") << (head + R"("type":"declined","reason":"error"})").c_str();
        QTest::newRow("progress") << (head + R"("type":"progress","done":1,"total":"2","current":"x"})").c_str();
        QTest::newRow("event") << (head + R"("type":"event","event":[]})").c_str();
        QTest::newRow("events missing") << (head + R"("type":"events"})").c_str();
        QTest::newRow("events empty") << (head + R"("type":"events","events":[]})").c_str();
        QTest::newRow("events not array") << (head + R"("type":"events","events":{}})").c_str();
        QTest::newRow("events not objects") << (head + R"("type":"events","events":[{},1]})").c_str();
        std::string tooMany = head + R"("type":"events","events":[{})";
        for (std::size_t i = 1; i <= kMaxEventsPerAnswer; ++i)
            tooMany += ",{}";
        QTest::newRow("events too many") << (tooMany + "]}").c_str();
        QTest::newRow("done summary")
            << (head + R"("type":"done","cancelled":false,"aborted":false,"diagnostics":[]})").c_str();
        QTest::newRow("done diagnostics")
            << (head + R"("type":"done","summary":{},"cancelled":false,"aborted":false,"diagnostics":[1]})").c_str();
        QTest::newRow("failed") << (head + R"("type":"failed"})").c_str();
        QTest::newRow("part index") << (head + R"("type":"part","part":2,"parts":2,"data":""})").c_str();
        QTest::newRow("part data") << (head + R"("type":"part","part":0,"parts":2})").c_str();
        const std::string done = head
            + "\"type\":\"done\",\"summary\":{},\"cancelled\":false,\"aborted\":false,\"diagnostics\":[],\"compare\":";
        QTest::newRow("compare not object") << (done + "1}").c_str();
        QTest::newRow("compare state") << (done + "{\"state\":\"maybe\",\"reason\":\"x\"}}").c_str();
        QTest::newRow("compare none without reason") << (done + "{\"state\":\"none\"}}").c_str();
        QTest::newRow("compare none extra") << (done + "{\"state\":\"none\",\"reason\":\"x\",\"classes\":{}}}").c_str();
        QTest::newRow("compare no classes")
            << (done + "{\"state\":\"compared\",\"source\":\"obj://B/n\",\"digest\":\"SHA-256=x\"}}").c_str();
        QTest::newRow("compare bad digest")
            << (done + "{\"state\":\"compared\",\"source\":\"obj://B/n\",\"digest\":\"x\",\"classes\":{}}}").c_str();
        QTest::newRow("compare extra member")
            << (done + "{\"state\":\"compared\",\"source\":\"s\",\"digest\":\"SHA-256=x\",\"classes\":{},\"x\":1}}")
                   .c_str();
        QTest::newRow("compare unknown class") << (done
            + "{\"state\":\"compared\",\"source\":\"s\",\"digest\":\"SHA-256=x\",\"classes\":{\"a#b\":\"odd\"}}}")
                                                      .c_str();
        QTest::newRow("compare unchanged sent") << (done
            + "{\"state\":\"compared\",\"source\":\"s\",\"digest\":\"SHA-256=x\",\"classes\":{\"a#b\":\"unchanged\"}}}")
                                                       .c_str();
        QTest::newRow("compare class number")
            << (done + "{\"state\":\"compared\",\"source\":\"s\",\"digest\":\"SHA-256=x\",\"classes\":{\"a#b\":1}}}")
                   .c_str();
        const std::string formatTwo
            = head + "\"type\":\"done\",\"summary\":{},\"cancelled\":false,\"aborted\":false,\"diagnostics\":[],";
        QTest::newRow("stable without answers") << (formatTwo + "\"stable\":[]}").c_str();
        QTest::newRow("answers without stable") << (formatTwo + "\"answers\":2}").c_str();
        QTest::newRow("answers not 2") << (formatTwo + "\"answers\":3,\"stable\":[]}").c_str();
        QTest::newRow("answers string") << (formatTwo + "\"answers\":\"2\",\"stable\":[]}").c_str();
        QTest::newRow("stable not array") << (formatTwo + "\"answers\":2,\"stable\":{}}").c_str();
        QTest::newRow("stable number") << (formatTwo + "\"answers\":2,\"stable\":[1]}").c_str();
        QTest::newRow("stable empty name") << (formatTwo + "\"answers\":2,\"stable\":[\"\"]}").c_str();
        QTest::newRow("stable long name")
            << (formatTwo + "\"answers\":2,\"stable\":[\"" + std::string(kMaxComparedName + 1, 'a') + "\"]}").c_str();
        QTest::newRow("compare empty resource") << (done
            + "{\"state\":\"compared\",\"source\":\"s\",\"digest\":\"SHA-256=x\",\"classes\":{\"\":\"drift\"}}}")
                                                       .c_str();
    }

    void malformedAnswers()
    {
        QFETCH(QString, json);
        auto decoded = decodeAnswer(json.toStdString());
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().code, std::string("bad_answer"));
    }

    void splitAndReassembleInAnyOrder()
    {
        Json message = answerHeader(kId, "host-1", 7, "event");
        std::string text;
        for (int i = 0; i < 5000; ++i)
            text += "line \"" + std::to_string(i) + "\" \\ é ✓\n";
        message["event"] = Json {{"diff", text}};
        std::vector<std::string> payloads = splitAnswer(message, 4096);
        QVERIFY(payloads.size() > 10);
        for (const std::string &payload : payloads)
            QVERIFY(payload.size() <= 4096);
        std::shuffle(payloads.begin(), payloads.end(), std::mt19937(42));
        PartAssembler assembler({});
        std::optional<std::string> whole;
        for (const std::string &payload : payloads) {
            auto part = decodeAnswer(payload);
            QVERIFY2(part, part ? "" : part.error().message.c_str());
            QCOMPARE(part->type, std::string("part"));
            QCOMPARE(part->seq, 7u);
            auto added = assembler.add(*part);
            QVERIFY(added);
            QVERIFY(!whole || !added->has_value());
            if (added->has_value())
                whole = **added;
        }
        QVERIFY(whole);
        QCOMPARE(decodeAnswer(*whole).value().message, message);
        QCOMPARE(assembler.pendingBytes(), 0u);
        QCOMPARE(splitAnswer(answerHeader(kId, "h", 0, "accepted"), 4096).size(), 1u);
    }

    void partsOverTheCapAreDropped()
    {
        Json message = answerHeader(kId, "host-1", 0, "event");
        message["event"] = Json {{"diff", std::string(100000, 'x')}};
        const std::vector<std::string> payloads = splitAnswer(message, 4096);
        PartAssembler assembler({65536, 50000, 1000000});
        bool refused = false;
        for (const std::string &payload : payloads) {
            auto added = assembler.add(decodeAnswer(payload).value());
            if (!added) {
                QCOMPARE(added.error().code, std::string("too_large"));
                refused = true;
                break;
            }
        }
        QVERIFY(refused);
        QCOMPARE(assembler.pendingBytes(), 0u);
    }

    void partsThatDisagreeAreRefused()
    {
        PartAssembler assembler({});
        Json part = answerHeader(kId, "h", 0, "part");
        part["part"] = 0;
        part["parts"] = 3;
        part["data"] = "{";
        QVERIFY(assembler.add(decodeAnswer(part.dump()).value()));
        part["parts"] = 4;
        part["part"] = 1;
        auto added = assembler.add(decodeAnswer(part.dump()).value());
        QVERIFY(!added);
        QCOMPARE(assembler.pendingBytes(), 0u);
    }

    void mutatedInputNeverCrashes()
    {
        const auto key = generateSigningKey().value();
        Json answer = answerHeader(kId, "h", 3, "done");
        answer["summary"] = Json::object();
        answer["cancelled"] = false;
        answer["aborted"] = false;
        answer["diagnostics"] = Json::array();
        const std::string seeds[] = {encodeSignedRequest(sampleRequest(), key).value(),
            encodeRequestBody(sampleRequest()), answer.dump(), splitAnswer(answer, 64).front()};
        std::mt19937 random(7);
        for (const std::string &seed : seeds) {
            for (int round = 0; round < 500; ++round) {
                std::string text = seed;
                for (int edits = 1 + static_cast<int>(random() % 4); edits > 0; --edits) {
                    const std::size_t at = random() % (text.size() + 1);
                    switch (random() % 3) {
                    case 0:
                        text.insert(at, 1, static_cast<char>(random() % 256));
                        break;
                    case 1:
                        text.erase(at, 1 + random() % 8);
                        break;
                    default:
                        if (at < text.size())
                            text[at] = static_cast<char>(random() % 256);
                    }
                }
                (void)decodeSignedRequest(text);
                (void)decodeAnswer(text);
            }
        }
    }

    void totalsIgnoreMistypedSummaries()
    {
        // Summaries come from other hosts: a count that is not one must not throw.
        FleetPreview preview;
        preview.hosts.resize(3);
        preview.hosts[0].state = HostState::Done;
        preview.hosts[0].summary = Json {{"changed", "many"}, {"failed", -1}};
        preview.hosts[1].state = HostState::Done;
        preview.hosts[1].summary = Json {{"changed", 2}, {"failed", 1}};
        preview.hosts[2].summary = Json::array();
        const Json totals = fleetPreviewTotals(preview);
        QCOMPARE(totals["changed"].get<int>(), 2);
        QCOMPARE(totals["resources_failed"].get<int>(), 1);
        QCOMPARE(totals["silent"].get<int>(), 1);
        QCOMPARE(totals["intended"].get<int>(), 0);
        QCOMPARE(totals["uncompared_hosts"].get<int>(), 2);
    }

    void totalsCountTheClasses()
    {
        FleetPreview preview;
        preview.hosts.resize(2);
        for (HostPreview &host : preview.hosts) {
            host.state = HostState::Done;
            host.comparison.state = PreviewComparison::State::Compared;
        }
        preview.hosts[0].comparison.classes = {{"a#1", ChangeClass::Drift}, {"a#2", ChangeClass::Intended}};
        preview.hosts[1].comparison.classes = {{"a#1", ChangeClass::Intended}, {"a#3", ChangeClass::Added}};
        const Json totals = fleetPreviewTotals(preview);
        QCOMPARE(totals["intended"].get<int>(), 2);
        QCOMPARE(totals["drift"].get<int>(), 1);
        QCOMPARE(totals["uncompared_hosts"].get<int>(), 0);
        QCOMPARE(comparisonSummary(preview.hosts[1])["added"].get<int>(), 1);
    }
};

CCM_TEST_GUILESS_MAIN(TestPreviewWire)
#include "tst_preview_wire.moc"
