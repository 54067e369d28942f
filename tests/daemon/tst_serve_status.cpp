// SPDX-License-Identifier: Apache-2.0
// resource.status: through a real `ccm-backend serve`, its answers checked against
// resources/schemas/protocol.json, and in process for a peer of a system backend, who is told
// only what it may read itself.
#include "base/sha256.h"
#include "daemon/dispatcher.h"
#include "daemon_harness.h"
#include "sent_messages.h"
#include "test_main.h"

#include <QFile>
#include <QTest>

#include <memory>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <utility>

using namespace ccm;
using namespace ccm::daemon;
using namespace ccm::test;

namespace {

/// A uid that is neither root nor the test's own, without a user.
constexpr uid_t kStatusPeerUid = 4243;

class StatusNoApplies : public ApplyControl {
public:
    Started start(ApplyJob) override { return {false, "none"}; }
    [[nodiscard]] std::optional<Running> running() const override { return std::nullopt; }
    bool cancel(std::string_view) override { return false; }
};

Result<Json> statusFacts()
{
    return Json::object();
}

Caller statusCaller(Role role, uid_t uid)
{
    Caller caller;
    caller.connection = 1;
    caller.peer = {uid, uid, {uid}, "user" + std::to_string(uid)};
    caller.role = role;
    return caller;
}

Json statusOf(Dispatcher &dispatcher, const Caller &caller, const Json &params)
{
    const Json request = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "resource.status"}, {"params", params}};
    const auto line = dispatcher.handleLine(caller, request.dump());
    return line ? normalized(Json::parse(*line)) : normalized(Json::object());
}

QString jsonText(const Json &value)
{
    return q(value.dump());
}

} // namespace

class TestServeStatus : public QObject {
    Q_OBJECT

    std::unique_ptr<DaemonProcess> m_daemon;
    RpcClient m_client;
    QTemporaryDir m_files;
    QStringList m_problems;

    /// Calls resource.status and checks the answer against protocol.json: a response, or an
    /// error response when `error` is set.
    Json call(const Json &params, bool error = false)
    {
        const auto reply = m_client.call("resource.status", params);
        if (!reply) {
            m_problems << s("no answer to resource.status");
            return normalized(Json::object());
        }
        m_problems << protocolProblems(error ? s("errorResponse") : s("response.resource.status"), asSent(*reply));
        return *reply;
    }

    [[nodiscard]] std::string path(const char *name) const { return m_files.filePath(s(name)).toStdString(); }

private Q_SLOTS:
    void initTestCase()
    {
        spdlog::set_level(spdlog::level::off);
        QVERIFY(m_files.isValid());
        // Other users may search the directory, so that what they may read decides.
        QVERIFY(::chmod(m_files.path().toLocal8Bit().constData(), 0755) == 0);
        m_daemon = std::make_unique<DaemonProcess>(userMode());
        QVERIFY(m_client.connectTo(m_daemon->socket()));
    }

    void cleanup()
    {
        const QStringList problems = std::exchange(m_problems, {});
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void fileStateAndDifferences()
    {
        QVERIFY(writeFile(q(path("motd")), "hello\n"));
        QVERIFY(::chmod(path("motd").c_str(), 0600) == 0);
        const Json reply = call({{"type", "file"}, {"name", path("motd")},
            {"properties", {{"ensure", "present"}, {"content", "hello\n"}, {"mode", "0644"}}}});
        QCOMPARE(errorCode(reply), 0);
        const Json &result = reply["result"];
        QVERIFY(result["supported"] == Json(true));
        QVERIFY2(q(result.value("summary", "")).startsWith(s("present, 0600 ")), qPrintable(jsonText(result)));
        QCOMPARE(q(result["state"]["metadata"].value("checksum", "")), q(sha256Hex("hello\n")));
        QCOMPARE(jsonText(result["differences"]),
            jsonText(Json::parse(R"([{"property": "mode", "current": "0600", "wanted": "0644"}])")));

        const Json absent = call({{"type", "file"}, {"name", path("none")}});
        QCOMPARE(absent["result"].value("summary", ""), std::string("absent"));
        QCOMPARE(jsonText(absent["result"]["differences"]), s("[]"));
    }

    void templatesInPropertiesAreNotCompared()
    {
        QVERIFY(writeFile(q(path("templated")), "x"));
        const Json reply
            = call({{"type", "file"}, {"name", path("templated")}, {"properties", {{"content", "{{ Data.motd }}"}}}});
        QCOMPARE(jsonText(reply["result"]["differences"]), s("[]"));
        QCOMPARE(jsonText(reply["result"]["notes"]),
            s(R"(["content holds a template and is not compared; send its resolved value"])"));
    }

    void execWithAndWithoutCreates()
    {
        const Json unknown = call({{"type", "exec"}, {"name", "/bin/true"}});
        QVERIFY(unknown["result"]["supported"] == Json(false));
        QVERIFY(q(unknown["result"].value("reason", "")).contains(s("cannot be told without running")));

        const Json told = call({{"type", "exec"}, {"name", "/bin/true"}, {"base_dir", m_files.path().toStdString()},
            {"properties", {{"creates", "motd-missing"}}}});
        QVERIFY(told["result"]["supported"] == Json(true));
        QCOMPARE(jsonText(told["result"]["differences"]),
            jsonText(Json::parse(R"([{"property": "creates", "current": false, "wanted": true}])")));
    }

    void badParamsAreInvalidParams_data()
    {
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown type") << s(R"({"type": "bogus", "name": "x"})") << s("types: archive, exec");
        QTest::newRow("no name") << s(R"({"type": "file"})") << s("name");
        QTest::newRow("empty name") << s(R"({"type": "file", "name": ""})") << s("must not be empty");
        QTest::newRow("properties not a map")
            << s(R"({"type": "file", "name": "/x", "properties": [1]})") << s("properties");
        QTest::newRow("invalid property")
            << s(R"({"type": "file", "name": "/x", "properties": {"mode": "abc"}})") << s("mode");
        QTest::newRow("NUL in the name") << s(R"({"type": "file", "name": "/etc/passwd\u0000x"})") << s("NUL");
        QTest::newRow("NUL in a path property")
            << s(R"({"type": "exec", "name": "/bin/true", "properties": {"creates": "/etc/passwd\u0000x"}})")
            << s("properties.creates");
        QTest::newRow("relative base_dir")
            << s(R"({"type": "exec", "name": "/bin/true", "base_dir": "rel"})") << s("base_dir");
    }
    void badParamsAreInvalidParams()
    {
        QFETCH(QString, params);
        QFETCH(QString, message);
        const Json reply = call(Json::parse(params.toStdString()), true);
        QCOMPARE(errorCode(reply), -32602);
        QVERIFY2(q(reply["error"].value("message", "")).contains(message), qPrintable(jsonText(reply)));
    }

    void aPeerOfASystemBackendIsToldOnlyWhatItMayRead()
    {
        if (::geteuid() != 0)
            QSKIP("taking on another user's file system identity needs root");
        Dispatcher dispatcher(m_applies, statusFacts);
        QVERIFY(writeFile(q(path("secret")), "s3cret\n"));
        QVERIFY(::chmod(path("secret").c_str(), 0600) == 0);
        QVERIFY(writeFile(q(path("public")), "hello\n"));
        QVERIFY(::chmod(path("public").c_str(), 0644) == 0);
        const Caller peer = statusCaller(Role::Preview, kStatusPeerUid);

        const Json secret = statusOf(dispatcher, peer,
            {{"type", "file"}, {"name", path("secret")}, {"properties", {{"content", "other"}, {"mode", "0644"}}}});
        m_problems << sentProblems("response.resource.status", secret);
        const Json &hidden = secret["result"];
        QVERIFY(hidden["supported"] == Json(true));
        QVERIFY(hidden["state"]["metadata"]["checksum"].is_null());
        QVERIFY2(!q(hidden.value("summary", "")).contains(s("sha256")), qPrintable(jsonText(hidden)));
        // The mode the peer could see with ls -l differs; the content is not compared.
        QCOMPARE(jsonText(hidden["differences"]),
            jsonText(Json::parse(R"([{"property": "mode", "current": "0600", "wanted": "0644"}])")));
        QVERIFY2(jsonText(hidden["notes"]).contains(s("is not read")), qPrintable(jsonText(hidden)));

        const Json readable = statusOf(dispatcher, peer, {{"type", "file"}, {"name", path("public")}});
        QCOMPARE(q(readable["result"]["state"]["metadata"].value("checksum", "")), q(sha256Hex("hello\n")));

        // The daemon's own user (root here) is told everything.
        const Json own
            = statusOf(dispatcher, statusCaller(Role::Preview, 0), {{"type", "file"}, {"name", path("secret")}});
        QCOMPARE(q(own["result"]["state"]["metadata"].value("checksum", "")), q(sha256Hex("s3cret\n")));
    }

    void aPeerCannotLookIntoADirectoryItMayNotSearch()
    {
        if (::geteuid() != 0)
            QSKIP("taking on another user's file system identity needs root");
        Dispatcher dispatcher(m_applies, statusFacts);
        QVERIFY(QDir().mkpath(q(path("closed"))));
        QVERIFY(::chmod(path("closed").c_str(), 0700) == 0);
        QVERIFY(writeFile(q(path("closed/inside")), "x"));
        const Json reply = statusOf(dispatcher, statusCaller(Role::Preview, kStatusPeerUid),
            {{"type", "file"}, {"name", path("closed/inside")}});
        m_problems << sentProblems("response.resource.status", reply);
        QVERIFY(reply["result"]["supported"] == Json(false));
        QVERIFY2(q(reply["result"].value("reason", "")).contains(s("ermission denied")), qPrintable(jsonText(reply)));
        QCOMPARE(jsonText(reply["result"]["state"]), s("{}"));
    }

    void roleNoneMayNotAsk()
    {
        Dispatcher dispatcher(m_applies, statusFacts);
        const Json reply = statusOf(
            dispatcher, statusCaller(Role::None, kStatusPeerUid), {{"type", "file"}, {"name", path("motd")}});
        QCOMPARE(errorCode(reply), -32001);
    }

private:
    StatusNoApplies m_applies;
};

CCM_TEST_GUILESS_MAIN(TestServeStatus)
#include "tst_serve_status.moc"
