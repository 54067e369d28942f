// SPDX-License-Identifier: Apache-2.0
// The dispatcher in process, with applies recorded instead of run: roles, busy, cancel rights
// and what a preview for another user runs with.
#include "daemon/dispatcher.h"
#include "test_common.h"
#include "test_main.h"

#include <QTest>

#include <spdlog/spdlog.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::daemon;
using namespace ccm::test;

namespace {

class RecordingApplies : public ApplyControl {
public:
    Started start(ApplyJob job) override
    {
        if (m_running)
            return {false, m_running->run};
        m_running = Running {"run-" + std::to_string(m_jobs.size() + 1), job.owner};
        m_jobs.push_back(std::move(job));
        return {true, m_running->run};
    }
    [[nodiscard]] std::optional<Running> running() const override { return m_running; }
    bool cancel(std::string_view run) override
    {
        if (!m_running || m_running->run != run)
            return false;
        m_cancelled.emplace_back(run);
        return true;
    }

    std::optional<Running> m_running;
    std::vector<ApplyJob> m_jobs;
    std::vector<std::string> m_cancelled;
};

Result<Json> noFacts()
{
    return Json {{"site", "lab"}};
}

std::string request(const std::string &method, const Json &params)
{
    return Json {{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}}.dump();
}

Json reply(Dispatcher &dispatcher, const Caller &caller, const std::string &line)
{
    const auto text = dispatcher.handleLine(caller, line);
    return text ? Json::parse(*text) : Json();
}

int codeOf(const Json &message)
{
    return message.is_object() && message.contains("error") ? message["error"].value("code", 0) : 0;
}

/// A uid that is neither root nor the test's own.
constexpr uid_t kOtherUid = 4242;

Caller callerWith(Role role, uid_t uid, ConnectionId connection = 1)
{
    Caller caller;
    caller.connection = connection;
    caller.peer = {uid, uid, {uid}, "user" + std::to_string(uid)};
    caller.role = role;
    return caller;
}

const std::string kExecManifest = "ccm:\n  resources:\n    - exec:\n        - /bin/true: {}\n";

} // namespace

class TestDispatcher : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { spdlog::set_level(spdlog::level::off); }

    void rolesDecideWhatMayBeCalled_data()
    {
        QTest::addColumn<int>("role");
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("noop");
        QTest::addColumn<int>("code");
        const int none = static_cast<int>(Role::None);
        const int preview = static_cast<int>(Role::Preview);
        const int apply = static_cast<int>(Role::Apply);
        QTest::newRow("none hello") << none << QStringLiteral("backend.hello") << true << 0;
        QTest::newRow("none validate") << none << QStringLiteral("manifest.validate") << true << -32001;
        QTest::newRow("none render") << none << QStringLiteral("manifest.render") << true << -32001;
        QTest::newRow("none facts") << none << QStringLiteral("facts.get") << true << -32001;
        QTest::newRow("none preview") << none << QStringLiteral("apply.start") << true << -32001;
        QTest::newRow("none unknown method") << none << QStringLiteral("x.y") << true << -32601;
        QTest::newRow("preview validate") << preview << QStringLiteral("manifest.validate") << true << 0;
        QTest::newRow("preview render") << preview << QStringLiteral("manifest.render") << true << 0;
        QTest::newRow("preview facts") << preview << QStringLiteral("facts.get") << true << 0;
        QTest::newRow("preview preview") << preview << QStringLiteral("apply.start") << true << 0;
        QTest::newRow("preview apply") << preview << QStringLiteral("apply.start") << false << -32001;
        QTest::newRow("apply apply") << apply << QStringLiteral("apply.start") << false << 0;
    }
    /// Only what parses a manifest leaves the I/O thread, and only once every check without the
    /// manifest, authorization included, has passed.
    void authorizationComesBeforeParameters_data()
    {
        QTest::addColumn<int>("role");
        QTest::addColumn<uint>("uid");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("params");
        const int none = int(Role::None);
        const uint other = kOtherUid;
        QTest::newRow("none validate, manifest not a string")
            << none << other << QStringLiteral("manifest.validate") << QStringLiteral(R"({"manifest":5})");
        QTest::newRow("none render, manifest and source")
            << none << other << QStringLiteral("manifest.render") << QStringLiteral(R"({"manifest":"","source":"x"})");
        QTest::newRow("none apply, noop missing")
            << none << other << QStringLiteral("apply.start") << QStringLiteral(R"({"manifest":""})");
        QTest::newRow("none cancel, run missing")
            << none << other << QStringLiteral("apply.cancel") << QStringLiteral("{}");
        QTest::newRow("none facts, facts not a map")
            << none << other << QStringLiteral("facts.get") << QStringLiteral(R"({"facts":1})");
        QTest::newRow("none own uid bundle, location missing")
            << none << uint(::geteuid()) << QStringLiteral("bundle.open") << QStringLiteral("{}");
        QTest::newRow("apply other uid bundle, location missing")
            << int(Role::Apply) << other << QStringLiteral("bundle.open") << QStringLiteral("{}");
        for (const char *method : {"fleet.status", "fleet.preview", "fleet.keygen", "fleet.keyinfo", "fleet.releases",
                 "fleet.rollback", "fleet.rollouts", "fleet.rollout", "fleet.rollout.control"}) {
            const QString name = QString::fromLatin1(method);
            QTest::newRow(qPrintable(QStringLiteral("apply other uid ") + name))
                << int(Role::Apply) << other << name << QStringLiteral(R"({"private":"/k.pem","key":"/k.pem"})");
            QTest::newRow(qPrintable(QStringLiteral("none own uid ") + name))
                << none << uint(::geteuid()) << name << QStringLiteral("{}");
        }
    }

    void authorizationComesBeforeParameters()
    {
        QFETCH(int, role);
        QFETCH(uint, uid);
        QFETCH(QString, method);
        QFETCH(QString, params);
        RecordingApplies applies;
        Dispatcher dispatcher(applies, noFacts);
        const Caller caller = callerWith(static_cast<Role>(role), uid_t(uid));
        const Json message
            = reply(dispatcher, caller, request(method.toStdString(), Json::parse(params.toStdString())));
        QCOMPARE(codeOf(message), -32001);
        QCOMPARE(q(message["error"]["data"].value("reason", "")), QStringLiteral("unauthorized"));
        QVERIFY(applies.m_jobs.empty());
    }

    void heavyRequestsBecomeWorkAfterTheChecks_data()
    {
        QTest::addColumn<int>("role");
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("noop");
        QTest::addColumn<bool>("work");
        const int none = static_cast<int>(Role::None);
        const int preview = static_cast<int>(Role::Preview);
        QTest::newRow("hello") << preview << QStringLiteral("backend.hello") << true << false;
        QTest::newRow("facts") << preview << QStringLiteral("facts.get") << true << false;
        QTest::newRow("validate") << preview << QStringLiteral("manifest.validate") << true << true;
        QTest::newRow("render") << preview << QStringLiteral("manifest.render") << true << true;
        QTest::newRow("preview") << preview << QStringLiteral("apply.start") << true << true;
        QTest::newRow("none validate") << none << QStringLiteral("manifest.validate") << true << false;
        QTest::newRow("preview apply") << preview << QStringLiteral("apply.start") << false << false;
    }
    void heavyRequestsBecomeWorkAfterTheChecks()
    {
        QFETCH(int, role);
        QFETCH(QString, method);
        QFETCH(bool, noop);
        QFETCH(bool, work);
        RecordingApplies applies;
        Dispatcher dispatcher(applies, noFacts);
        const Json params = {{"client", "t"}, {"version", "1"}, {"manifest", kExecManifest}, {"noop", noop}};
        const Caller caller = callerWith(static_cast<Role>(role), kOtherUid);
        Dispatched dispatched = dispatcher.dispatch(caller, request(method.toStdString(), params));
        QCOMPARE(static_cast<bool>(dispatched.work), work);
        QCOMPARE(dispatched.reply.has_value(), !work);
        QVERIFY(applies.m_jobs.empty());
    }

    void rolesDecideWhatMayBeCalled()
    {
        QFETCH(int, role);
        QFETCH(QString, method);
        QFETCH(bool, noop);
        QFETCH(int, code);
        RecordingApplies applies;
        Dispatcher dispatcher(applies, noFacts);
        const Json params = {{"client", "t"}, {"version", "1"}, {"manifest", kExecManifest}, {"noop", noop}};
        const Caller caller = callerWith(static_cast<Role>(role), kOtherUid);
        const auto text = dispatcher.handleLine(caller, request(method.toStdString(), params));
        if (method == QStringLiteral("apply.start") && code == 0) {
            QVERIFY(!text);
            QCOMPARE(applies.m_jobs.size(), std::size_t(1));
            return;
        }
        QVERIFY(text);
        const Json message = Json::parse(*text);
        QCOMPARE(codeOf(message), code);
        if (code == -32001)
            QCOMPARE(q(message["error"]["data"].value("role", "")), q(std::string(roleName(static_cast<Role>(role)))));
        QVERIFY(applies.m_jobs.empty());
    }

    void previewForAnotherUserRunsAsThatUser_data()
    {
        QTest::addColumn<uint>("uid");
        QTest::addColumn<bool>("noop");
        QTest::addColumn<bool>("dropped");
        QTest::newRow("other user preview") << uint(kOtherUid) << true << true;
        QTest::newRow("other user apply") << uint(kOtherUid) << false << false;
        QTest::newRow("root preview") << 0U << true << false;
        QTest::newRow("own preview") << uint(::geteuid()) << true << false;
    }
    void previewForAnotherUserRunsAsThatUser()
    {
        QFETCH(uint, uid);
        QFETCH(bool, noop);
        QFETCH(bool, dropped);
        RecordingApplies applies;
        Dispatcher dispatcher(applies, noFacts);
        const Caller caller = callerWith(Role::Apply, static_cast<uid_t>(uid));
        QVERIFY(!dispatcher.handleLine(caller, request("apply.start", {{"manifest", kExecManifest}, {"noop", noop}})));
        QCOMPARE(applies.m_jobs.size(), std::size_t(1));
        const ApplyJob &job = applies.m_jobs.front();
        QCOMPARE(job.options.noop, noop);
        QCOMPARE(job.options.processCredentials.has_value(), dropped);
        QCOMPARE(static_cast<bool>(job.options.mayShowDiff), dropped);
        if (dropped)
            QCOMPARE(job.options.processCredentials->uid, static_cast<uid_t>(uid));
    }

    void secondStartIsBusy()
    {
        RecordingApplies applies;
        Dispatcher dispatcher(applies, noFacts);
        const Caller caller = callerWith(Role::Apply, 0);
        QVERIFY(!dispatcher.handleLine(caller, request("apply.start", {{"manifest", kExecManifest}, {"noop", true}})));
        const Json busy
            = reply(dispatcher, caller, request("apply.start", {{"manifest", kExecManifest}, {"noop", true}}));
        QCOMPARE(codeOf(busy), -32002);
        QCOMPARE(q(busy["error"]["data"].value("run", "")), QStringLiteral("run-1"));
    }

    void previewersCancelOnlyTheirOwnRuns()
    {
        RecordingApplies applies;
        Dispatcher dispatcher(applies, noFacts);
        const Caller owner = callerWith(Role::Preview, kOtherUid, 1);
        const Caller otherPreviewer = callerWith(Role::Preview, kOtherUid + 1, 2);
        const Caller admin = callerWith(Role::Apply, 0, 3);
        QVERIFY(!dispatcher.handleLine(owner, request("apply.start", {{"manifest", kExecManifest}, {"noop", true}})));
        QCOMPARE(codeOf(reply(dispatcher, otherPreviewer, request("apply.cancel", {{"run", "run-1"}}))), -32001);
        QVERIFY(applies.m_cancelled.empty());
        const Json own = reply(dispatcher, owner, request("apply.cancel", {{"run", "run-1"}}));
        QCOMPARE(own["result"].value("cancelling", false), true);
        QCOMPARE(codeOf(reply(dispatcher, admin, request("apply.cancel", {{"run", "run-1"}}))), 0);
        QCOMPARE(applies.m_cancelled.size(), std::size_t(2));
        QCOMPARE(codeOf(reply(dispatcher, admin, request("apply.cancel", {{"run", "run-9"}}))), -32602);
    }

    void renderMergesRequestFacts()
    {
        RecordingApplies applies;
        Dispatcher dispatcher(applies, noFacts);
        const std::string manifest
            = "ccm:\n  resources:\n    - exec:\n        - \"echo {{ Facts.site }} {{ Facts.extra }}\": {}\n";
        const Json rendered = reply(dispatcher, callerWith(Role::Preview, kOtherUid),
            request("manifest.render", {{"manifest", manifest}, {"facts", {{"extra", "more"}}}}));
        QVERIFY2(
            rendered["result"].value("yaml", "").find("echo lab more") != std::string::npos, rendered.dump().c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestDispatcher)
#include "tst_dispatcher.moc"
