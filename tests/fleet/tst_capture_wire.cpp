// SPDX-License-Identifier: Apache-2.0
// The fleet capture wire format: a request's "capture" member decoded strictly, as from a hostile
// peer (types, counts, sizes, relative paths, members that must not go with it), preview requests
// unchanged for older agents and requesters, the "capture" answer, and the agent's
// preview.capture key.
#include "fleet/agent/agent_config.h"
#include "fleet/preview/capture_requester.h"
#include "fleet/preview/capture_wire.h"
#include "fleet/preview/preview_wire.h"
#include "test_common.h"
#include "test_main.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::q;

namespace {

const std::string kCaptureId = "capture0123456789abcdef";

CaptureSelection sampleSelection()
{
    CaptureSelection selection;
    selection.host = "web-1";
    selection.packages = {"nginx*"};
    selection.services = {"nginx"};
    selection.files = {"/etc/nginx", "/etc/motd"};
    selection.excludes = {"/etc/nginx/*.bak"};
    selection.data = true;
    selection.pin = true;
    return selection;
}

PreviewRequest captureRequest()
{
    PreviewRequest request;
    request.id = kCaptureId;
    request.issued = Clock::now();
    request.expires = request.issued + std::chrono::minutes(5);
    request.reply = "_INBOX.c1";
    request.capture = sampleSelection();
    return request;
}

/// The JSON body of `request`, as a requester would sign it.
Json bodyOf(const PreviewRequest &request)
{
    return Json::parse(encodeRequestBody(request));
}

/// `body` signed properly, so only its members can be at fault.
std::string signCaptureBody(const Json &body, const SigningKey &key)
{
    const std::string text = body.dump();
    return Json {{"request", encodeBase64(text)}, {"signature", encodeBase64(signEd25519(key, text).value())},
        {"key", encodeBase64(key.publicKey)}}
        .dump();
}

} // namespace

class TestCaptureWire : public QObject {
    Q_OBJECT

private:
    SigningKey m_key = generateSigningKey().value();

    /// The error of decoding `body`, signed; empty when it decodes.
    QString refusal(const Json &body)
    {
        auto decoded = decodeSignedRequest(signCaptureBody(body, m_key));
        return decoded ? QString() : q(decoded.error().code + ": " + decoded.error().message);
    }

private slots:
    void captureRequestRoundTrips()
    {
        const PreviewRequest request = captureRequest();
        auto payload = encodeSignedRequest(request, m_key);
        QVERIFY(payload);
        auto decoded = decodeSignedRequest(*payload);
        QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
        QVERIFY(decoded->request.capture.has_value());
        QVERIFY(*decoded->request.capture == sampleSelection());
        QCOMPARE(decoded->request.id, kCaptureId);
        QVERIFY(decoded->request.noop);
        QVERIFY(checkRequestRules(decoded->request, Clock::now()));
        // The body carries no bundle, no compare and a null selector.
        const Json body = bodyOf(request);
        QVERIFY(!body.contains("bundle") && !body.contains("compare"));
        QVERIFY(body["select"].is_null());
        QCOMPARE(body["capture"]["include_private"], Json(false));
    }

    void previewRequestsAreUnchanged()
    {
        // A preview request is what it was before captures: older agents read it as they did.
        PreviewRequest request = captureRequest();
        request.capture.reset();
        request.bundle = {"CCM_PREVIEW", "preview-" + kCaptureId, "SHA-256=abc="};
        const Json body = bodyOf(request);
        QVERIFY(!body.contains("capture"));
        QVERIFY(body.contains("bundle"));
        auto decoded = decodeSignedRequest(encodeSignedRequest(request, m_key).value());
        QVERIFY(decoded);
        QVERIFY(!decoded->request.capture.has_value());
        QCOMPARE(decoded->request.bundle.digest, std::string("SHA-256=abc="));
    }

    void badCaptureMembersAreRefused_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not an object") << "/capture" << QByteArray("[]") << "\"capture\" must be an object";
        QTest::newRow("extra member") << "/capture/bundle" << QByteArray("{}") << "and nothing else";
        QTest::newRow("host empty") << "/capture/host" << QByteArray("\"\"") << "\"capture.host\"";
        QTest::newRow("host number") << "/capture/host" << QByteArray("7") << "\"capture.host\"";
        QTest::newRow("host too long") << "/capture/host" << QByteArray("\"" + QByteArray(1025, 'h') + "\"")
                                       << "\"capture.host\"";
        QTest::newRow("packages string") << "/capture/packages" << QByteArray("\"nginx\"")
                                         << "\"capture.packages\" must be a list";
        QTest::newRow("services item number")
            << "/capture/services" << QByteArray("[\"a\", 3]") << "\"capture.services[1]\" must be a string";
        QTest::newRow("excludes empty item")
            << "/capture/excludes" << QByteArray("[\"\"]") << "\"capture.excludes[0]\" must be 1 to 4096 bytes";
        QTest::newRow("files relative") << "/capture/files" << QByteArray("[\"/etc\", \"etc/motd\"]")
                                        << "\"capture.files[1]\" must be an absolute path";
        QTest::newRow("files null") << "/capture/files" << QByteArray("null") << "\"capture.files\" must be a list";
        QTest::newRow("data string") << "/capture/data" << QByteArray("\"yes\"")
                                     << "\"capture.data\" must be a boolean";
        QTest::newRow("include_private number")
            << "/capture/include_private" << QByteArray("1") << "\"capture.include_private\" must be a boolean";
        QTest::newRow("with a bundle") << "/bundle"
                                       << QByteArray("{\"bucket\": \"B\", \"name\": \"n\", \"digest\": \"SHA-256=x\"}")
                                       << "has no \"bundle\"";
        QTest::newRow("with compare") << "/compare" << QByteArray("{\"target\": null}") << "has no \"bundle\"";
        QTest::newRow("with a selector") << "/select" << QByteArray("\"true\"") << "\"select\" must be null";
        QTest::newRow("noop missing") << "/noop" << QByteArray() << "\"noop\" must be a boolean";
    }

    void badCaptureMembersAreRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        Json body = bodyOf(captureRequest());
        const Json::json_pointer where(pointer.toStdString());
        if (value.isEmpty())
            body[where.parent_pointer()].erase(where.back());
        else
            body[where] = Json::parse(value.toStdString());
        const QString error = refusal(body);
        QVERIFY2(error.startsWith(QStringLiteral("bad_request: malformed preview request: ")), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void captureListsAreBounded()
    {
        Json body = bodyOf(captureRequest());
        body["capture"]["packages"] = std::vector<std::string>(kMaxCapturePatterns, "p");
        QVERIFY2(refusal(body).isEmpty(), qPrintable(refusal(body)));
        body["capture"]["packages"] = std::vector<std::string>(kMaxCapturePatterns + 1, "p");
        QVERIFY(refusal(body).contains(QStringLiteral("\"capture.packages\" must be a list of at most 256 strings")));
        body = bodyOf(captureRequest());
        body["capture"]["files"] = {"/" + std::string(kMaxCapturePatternBytes - 1, 'f')};
        QVERIFY2(refusal(body).isEmpty(), qPrintable(refusal(body)));
        body["capture"]["files"] = {"/" + std::string(kMaxCapturePatternBytes, 'f')};
        QVERIFY(refusal(body).contains(QStringLiteral("\"capture.files[0]\" must be 1 to 4096 bytes")));
        body["capture"]["files"] = {std::string("/etc/a\0b", 8)};
        QVERIFY(refusal(body).contains(QStringLiteral("without NUL")));
    }

    void captureAnswersAreChecked()
    {
        Json answer = answerHeader(kCaptureId, "web-1", 1, "capture");
        answer["capture"] = Json {{"host", "web-1"}};
        QVERIFY(decodeAnswer(answer.dump()));
        answer["capture"] = "text";
        auto refused = decodeAnswer(answer.dump());
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, std::string("bad_answer"));
        answer.erase("capture");
        QVERIFY(!decodeAnswer(answer.dump()));
    }

    void largeCaptureAnswersTravelInParts()
    {
        Json answer = answerHeader(kCaptureId, "web-1", 1, "capture");
        answer["capture"] = Json {{"text", std::string(20000, 'x') + "\xc3\xa9\"\\"}};
        const std::vector<std::string> payloads = splitAnswer(answer, 4096);
        QVERIFY(payloads.size() > 4);
        PartAssembler assembler(PartAssembler::Limits {});
        std::optional<std::string> whole;
        for (const std::string &payload : payloads) {
            auto part = decodeAnswer(payload);
            QVERIFY(part && part->type == "part");
            auto added = assembler.add(*part);
            QVERIFY(added);
            if (added->has_value())
                whole = **added;
        }
        QVERIFY(whole);
        auto joined = decodeAnswer(*whole);
        QVERIFY(joined && joined->type == "capture");
        QCOMPARE(joined->message["capture"], answer["capture"]);
    }

    void commandLineNamesTheSelection()
    {
        const std::vector<std::string> expected {"ccm-backend", "fleet", "capture", "web-1", "--package", "nginx*",
            "--service", "nginx", "--file", "/etc/nginx", "--file", "/etc/motd", "--exclude", "/etc/nginx/*.bak",
            "--data", "--pin"};
        QVERIFY(captureCommandLine(sampleSelection()) == expected);
        QCOMPARE(durationText(std::chrono::seconds(30)), std::string("30s"));
        QCOMPARE(durationText(std::chrono::minutes(2)), std::string("2m"));
        QCOMPARE(durationText(std::chrono::milliseconds(1500)), std::string("1500ms"));
    }

    void agentConfigReadsPreviewCapture()
    {
        QTemporaryDir dir;
        const QString key = dir.filePath(QStringLiteral("k.pub.pem"));
        QVERIFY(writeKeyPair(m_key, dir.filePath(QStringLiteral("k.pem")).toStdString(), key.toStdString(), false));
        const std::string keys = "  trusted_keys: [" + key.toStdString() + "]\n";
        auto off = parseAgentConfig("preview:\n  enabled: true\n" + keys, "agent.yaml");
        QVERIFY2(off, off ? "" : off.error().message.c_str());
        QVERIFY(!off->preview.capture);
        auto on = parseAgentConfig("preview:\n  enabled: true\n  capture: true\n" + keys, "agent.yaml");
        QVERIFY2(on, on ? "" : on.error().message.c_str());
        QVERIFY(on->preview.capture);
        auto typed = parseAgentConfig("preview:\n  enabled: true\n  capture: yes please\n" + keys, "agent.yaml");
        QVERIFY(!typed);
        QCOMPARE(typed.error().message, std::string("agent.yaml:3:12: preview.capture: must be true or false"));
        auto alone = parseAgentConfig("preview:\n  capture: true\n", "agent.yaml");
        QVERIFY(!alone);
        QVERIFY2(alone.error().message.starts_with("agent.yaml:2:12: preview.capture: true needs enabled: true"),
            alone.error().message.c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestCaptureWire)
#include "tst_capture_wire.moc"
