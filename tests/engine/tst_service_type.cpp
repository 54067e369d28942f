// SPDX-License-Identifier: Apache-2.0
// The service type with the systemd provider, systemctl replayed from recorded output: every row
// of the decision tables in noop and for real, every recorded state, verification, failures,
// property checks, and subscribe refreshes through the run loop.
#include "command_test_support.h"
#include "engine/prepared_manifest.h"
#include "engine/resources/registration.h"
#include "engine/resources/service/service_type.h"
#include "engine/resources/service/systemd/systemd_service_provider.h"
#include "engine/run.h"
#include "engine_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;
using ccm::test::q;

namespace {

const QStringList kActiveWords
    = {QStringLiteral("active"), QStringLiteral("inactive"), QStringLiteral("failed"), QStringLiteral("activating")};
const QStringList kEnabledWords = {QStringLiteral("enabled"), QStringLiteral("enabled-runtime"),
    QStringLiteral("alias"), QStringLiteral("static"), QStringLiteral("indirect"), QStringLiteral("generated"),
    QStringLiteral("transient"), QStringLiteral("linked"), QStringLiteral("linked-runtime"), QStringLiteral("masked"),
    QStringLiteral("masked-runtime"), QStringLiteral("disabled")};
/// The seed's tables: which recorded words mean running and enabled.
const std::set<QString> kRunningWords = {QStringLiteral("active")};
const std::set<QString> kEnabledAtBoot
    = {QStringLiteral("enabled"), QStringLiteral("enabled-runtime"), QStringLiteral("alias"), QStringLiteral("static"),
        QStringLiteral("indirect"), QStringLiteral("generated"), QStringLiteral("transient")};
/// What the harness's refreshes subscribe to.
constexpr std::string_view kSubscribed = "file#/etc/nginx/nginx.conf";

Result<CommandResult> recordedOutput(const QString &query, const QString &word, bool good)
{
    const QString file = QStringLiteral(CCM_FIXTURES_DIR "/tool-output/systemd/%1-%2.txt").arg(query, word);
    // systemctl exits 0 only for the first group of each table (3 is "not active", 1 "not enabled").
    return RecordingRunner::fromFile(file.toStdString(), good ? 0 : query == QStringLiteral("is-active") ? 3 : 1);
}

/// systemctl replayed by a recording runner, one provider (one run) and one apply at a time.
class ServiceHarness {
public:
    ServiceHarness()
        : m_provider(std::make_unique<SystemdServiceProvider>(runner))
    {
    }

    /// Queues the answers of a status query with recorded output.
    void expectStatus(const std::string &service, const QString &active, const QString &enabled)
    {
        runner.expect(systemctl("is-active", service),
            recordedOutput(QStringLiteral("is-active"), active, kRunningWords.count(active) > 0));
        runner.expect(systemctl("is-enabled", service),
            recordedOutput(QStringLiteral("is-enabled"), enabled, kEnabledAtBoot.count(enabled) > 0));
    }

    ApplyOutcome apply(const std::string &name, const Json &properties)
    {
        const LazyFacts facts;
        // A refresh comes from a subscription whose change happened as this run's own would.
        std::vector<RefreshCause> causes;
        if (refresh)
            causes.push_back({.reference = std::string(kSubscribed), .noop = noop});
        ApplyContext context {.noop = noop,
            .refreshCauses = std::move(causes),
            .runner = runner,
            .log = log,
            .facts = facts,
            .workingDirectory = {},
            .mayShowDiff = {},
            .runChildManifest = {}};
        ApplyOutcome outcome;
        outcome.result = ServiceType().apply(name, properties, *m_provider, context, outcome.event);
        return outcome;
    }

    /// A new provider, as the next run creates.
    void nextRun() { m_provider = std::make_unique<SystemdServiceProvider>(runner); }

    [[nodiscard]] std::vector<Argv> commands() const
    {
        std::vector<Argv> list;
        for (const Command &command : runner.commands())
            list.push_back(command.argv);
        return list;
    }

    bool noop = false;
    bool refresh = false;
    RecordingRunner runner;
    RecordingLogger log;

private:
    std::unique_ptr<SystemdServiceProvider> m_provider;
};

Json properties(const QString &ensure, const QString &enable)
{
    Json json = Json::object();
    if (!ensure.isEmpty())
        json["ensure"] = ensure.toStdString();
    if (!enable.isEmpty())
        json["enable"] = enable == QStringLiteral("true");
    return json;
}

Json statusJson(const std::string &name, bool running, bool enabled)
{
    return Json {{"ensure", running ? "running" : "stopped"},
        {"metadata", {{"name", name}, {"provider", "systemd"}, {"enabled", enabled}, {"running", running}}}};
}

/// The words a status query gives after the actions: what was asked for where something was done.
std::pair<QString, QString> wordsAfter(const QStringList &actions, const QString &active, const QString &enabled)
{
    QString activeAfter = active;
    QString enabledAfter = enabled;
    for (const QString &action : actions) {
        if (action == QStringLiteral("start") || action == QStringLiteral("restart"))
            activeAfter = QStringLiteral("active");
        else if (action == QStringLiteral("stop"))
            activeAfter = QStringLiteral("inactive");
        else if (action == QStringLiteral("enable"))
            enabledAfter = QStringLiteral("enabled");
        else if (action == QStringLiteral("disable"))
            enabledAfter = QStringLiteral("disabled");
    }
    return {activeAfter, enabledAfter};
}

/// One row through noop (nothing but the status queries run), for real (the commands in order,
/// verified), and a second run for real (stable).
void checkDecision(const QString &ensure, const QString &enable, bool refresh, const QString &active,
    const QString &enabled, const QStringList &actions, const QString &noopMessage, bool refreshed)
{
    const Json props = properties(ensure, enable);
    const bool wasRunning = kRunningWords.count(active) > 0;
    const bool wasEnabled = kEnabledAtBoot.count(enabled) > 0;
    const std::vector<Argv> queries = {systemctl("is-active", "nginx"), systemctl("is-enabled", "nginx")};

    {
        ServiceHarness noop;
        noop.noop = true;
        noop.refresh = refresh;
        noop.expectStatus("nginx", active, enabled);
        const ApplyOutcome outcome = noop.apply("nginx", props);
        QCOMPARE(outcome.error(), QString());
        QCOMPARE(outcome.event.changed, !actions.isEmpty());
        QCOMPARE(q(outcome.event.noopMessage), noopMessage);
        QCOMPARE(outcome.event.refreshed, refreshed);
        QCOMPARE(noop.commands(), queries);
        QVERIFY(noop.runner.pending().empty());
        QCOMPARE(q(outcome.event.finalEnsure), wasRunning ? QStringLiteral("running") : QStringLiteral("stopped"));
        QCOMPARE(dump(outcome.event.status), dump(statusJson("nginx", wasRunning, wasEnabled)));
    }

    ServiceHarness real;
    real.refresh = refresh;
    real.expectStatus("nginx", active, enabled);
    std::vector<Argv> expected = queries;
    if (!actions.isEmpty()) {
        real.runner.expect({"systemctl", "daemon-reload"}, exited(0));
        expected.push_back({"systemctl", "daemon-reload"});
        for (const QString &action : actions) {
            real.runner.expect(systemctl(action.toStdString(), "nginx"), exited(0));
            expected.push_back(systemctl(action.toStdString(), "nginx"));
        }
    }
    const auto [activeAfter, enabledAfter] = wordsAfter(actions, active, enabled);
    if (!actions.isEmpty()) {
        real.expectStatus("nginx", activeAfter, enabledAfter);
        expected.insert(expected.end(), queries.begin(), queries.end());
    }
    const ApplyOutcome outcome = real.apply("nginx", props);
    QCOMPARE(outcome.error(), QString());
    QCOMPARE(outcome.event.changed, !actions.isEmpty());
    QCOMPARE(outcome.event.refreshed, refreshed);
    QCOMPARE(q(outcome.event.noopMessage), QString());
    QCOMPARE(real.commands(), expected);
    QVERIFY(real.runner.pending().empty());
    const bool runningAfter = kRunningWords.count(activeAfter) > 0;
    const bool enabledAfterBoot = kEnabledAtBoot.count(enabledAfter) > 0;
    QCOMPARE(q(outcome.event.finalEnsure), runningAfter ? QStringLiteral("running") : QStringLiteral("stopped"));
    QCOMPARE(dump(outcome.event.status), dump(statusJson("nginx", runningAfter, enabledAfterBoot)));

    // The next run finds the state it left and changes nothing.
    real.nextRun();
    real.refresh = false;
    real.expectStatus("nginx", activeAfter, enabledAfter);
    const ApplyOutcome second = real.apply("nginx", props);
    QCOMPARE(second.error(), QString());
    QVERIFY(!second.event.changed);
    QCOMPARE(real.commands().size(), expected.size() + 2);
    QVERIFY(real.runner.pending().empty());
}

/// A directory standing in for / on a host where systemd runs.
class BootedRoot {
public:
    BootedRoot()
    {
        const QString systemctl = m_dir.filePath(QStringLiteral("usr/bin/systemctl"));
        m_ok = QDir().mkpath(m_dir.filePath(QStringLiteral("usr/bin")))
            && QDir().mkpath(m_dir.filePath(QStringLiteral("run/systemd/system")))
            && ccm::test::writeFile(systemctl, "#!/bin/sh\n")
            && QFile::setPermissions(systemctl, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    [[nodiscard]] bool isValid() const { return m_dir.isValid() && m_ok; }
    [[nodiscard]] std::filesystem::path path() const { return m_dir.path().toStdString(); }

private:
    QTemporaryDir m_dir;
    bool m_ok = false;
};

class Events : public RunObserver {
public:
    void resourceFinished(const TransactionEvent &event) override { events.push_back(event); }

    [[nodiscard]] const TransactionEvent *event(const std::string &resource) const
    {
        for (const TransactionEvent &event : events)
            if (event.resource() == resource)
                return &event;
        return nullptr;
    }

    std::vector<TransactionEvent> events;
};

} // namespace

class TestServiceType : public QObject {
    Q_OBJECT

private slots:
    void decisions_data()
    {
        QTest::addColumn<QString>("ensure"); // empty: not set
        QTest::addColumn<QString>("enable"); // empty: not set
        QTest::addColumn<bool>("refresh");
        QTest::addColumn<QString>("active");
        QTest::addColumn<QString>("enabled");
        QTest::addColumn<QStringList>("actions");
        QTest::addColumn<QString>("noopMessage");
        QTest::addColumn<bool>("refreshed");

        const QString running = QStringLiteral("running");
        const QString stopped = QStringLiteral("stopped");
        const QString yes = QStringLiteral("true");
        const QString no = QStringLiteral("false");
        const QString unset;
        const QString act = QStringLiteral("active");
        const QString inact = QStringLiteral("inactive");
        const QString on = QStringLiteral("enabled");
        const QString off = QStringLiteral("disabled");
        const QStringList none;
        const auto list = [](std::initializer_list<const char *> verbs) {
            QStringList out;
            for (const char *verb : verbs)
                out << QLatin1String(verb);
            return out;
        };

        // Idempotency table.
        QTest::newRow("running, is running") << running << unset << false << act << on << none << QString() << false;
        QTest::newRow("running, is stopped") << running << unset << false << inact << on << list({"start"})
                                             << QStringLiteral("Would have started") << false;
        QTest::newRow("stopped, is stopped") << stopped << unset << false << inact << on << none << QString() << false;
        QTest::newRow("stopped, is running") << stopped << unset << false << act << on << list({"stop"})
                                             << QStringLiteral("Would have stopped") << false;
        QTest::newRow("enable true, enabled") << running << yes << false << act << on << none << QString() << false;
        QTest::newRow("enable true, disabled") << running << yes << false << act << off << list({"enable"})
                                               << QStringLiteral("Would have enabled") << false;
        QTest::newRow("enable false, enabled") << running << no << false << act << on << list({"disable"})
                                               << QStringLiteral("Would have disabled") << false;
        QTest::newRow("enable false, disabled") << running << no << false << act << off << none << QString() << false;
        QTest::newRow("enable nil, enabled") << running << unset << false << act << on << none << QString() << false;
        QTest::newRow("enable nil, disabled") << running << unset << false << act << off << none << QString() << false;
        QTest::newRow("ensure unset is running") << unset << unset << false << inact << off << list({"start"})
                                                 << QStringLiteral("Would have started") << false;
        QTest::newRow("ensure unset, running") << unset << unset << false << act << off << none << QString() << false;
        QTest::newRow("failed is stopped") << running << unset << false << QStringLiteral("failed") << on
                                           << list({"start"}) << QStringLiteral("Would have started") << false;
        QTest::newRow("activating is stopped") << running << unset << false << QStringLiteral("activating") << on
                                               << list({"start"}) << QStringLiteral("Would have started") << false;
        QTest::newRow("stop a failed service: nothing")
            << stopped << unset << false << QStringLiteral("failed") << on << none << QString() << false;
        QTest::newRow("static counts as enabled")
            << running << yes << false << act << QStringLiteral("static") << none << QString() << false;
        QTest::newRow("masked counts as disabled") << running << yes << false << act << QStringLiteral("masked")
                                                   << list({"enable"}) << QStringLiteral("Would have enabled") << false;
        QTest::newRow("alias disabled") << running << no << false << act << QStringLiteral("alias") << list({"disable"})
                                        << QStringLiteral("Would have disabled") << false;

        // Both phases.
        QTest::newRow("start and enable") << running << yes << false << inact << off << list({"start", "enable"})
                                          << QStringLiteral("Would have started, would have enabled") << false;
        QTest::newRow("stop and disable") << stopped << no << false << act << on << list({"stop", "disable"})
                                          << QStringLiteral("Would have stopped, would have disabled") << false;
        QTest::newRow("start and disable") << running << no << false << inact << on << list({"start", "disable"})
                                           << QStringLiteral("Would have started, would have disabled") << false;
        QTest::newRow("stopped but enabled") << stopped << yes << false << act << off << list({"stop", "enable"})
                                             << QStringLiteral("Would have stopped, would have enabled") << false;

        // Subscribe special cases.
        QTest::newRow("refresh a running service")
            << running << unset << true << act << on << list({"restart"})
            << QStringLiteral("would refresh: subscribed to file#/etc/nginx/nginx.conf, which would change") << true;
        QTest::newRow("refresh starts a stopped service") << running << unset << true << inact << on << list({"start"})
                                                          << QStringLiteral("Would have started") << false;
        QTest::newRow("refresh with ensure stopped, stopped")
            << stopped << unset << true << inact << on << none << QString() << false;
        QTest::newRow("refresh with ensure stopped, running")
            << stopped << unset << true << act << on << list({"stop"}) << QStringLiteral("Would have stopped") << false;
        QTest::newRow("refresh and enable")
            << running << yes << true << act << off << list({"restart", "enable"})
            << QStringLiteral(
                   "would refresh: subscribed to file#/etc/nginx/nginx.conf, which would change; would have enabled")
            << true;
        QTest::newRow("refresh, default ensure")
            << unset << unset << true << act << on << list({"restart"})
            << QStringLiteral("would refresh: subscribed to file#/etc/nginx/nginx.conf, which would change") << true;
    }

    void decisions()
    {
        QFETCH(QString, ensure);
        QFETCH(QString, enable);
        QFETCH(bool, refresh);
        QFETCH(QString, active);
        QFETCH(QString, enabled);
        QFETCH(QStringList, actions);
        QFETCH(QString, noopMessage);
        QFETCH(bool, refreshed);
        checkDecision(ensure, enable, refresh, active, enabled, actions, noopMessage, refreshed);
    }

    void everyRecordedState_data()
    {
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("enable");
        QTest::addColumn<QString>("active");
        QTest::addColumn<QString>("enabled");
        QTest::addColumn<QStringList>("actions");
        QTest::addColumn<QString>("noopMessage");

        for (const QString &active : kActiveWords) {
            for (const QString &ensure : {QStringLiteral("running"), QStringLiteral("stopped")}) {
                for (const QString &enabled : kEnabledWords) {
                    for (const QString &enable : {QString(), QStringLiteral("true"), QStringLiteral("false")}) {
                        const bool isRunning = kRunningWords.count(active) > 0;
                        const bool isEnabled = kEnabledAtBoot.count(enabled) > 0;
                        QStringList actions;
                        QStringList words;
                        if (ensure == QStringLiteral("running") && !isRunning) {
                            actions << QStringLiteral("start");
                            words << QStringLiteral("started");
                        } else if (ensure == QStringLiteral("stopped") && isRunning) {
                            actions << QStringLiteral("stop");
                            words << QStringLiteral("stopped");
                        }
                        if (enable == QStringLiteral("true") && !isEnabled) {
                            actions << QStringLiteral("enable");
                            words << QStringLiteral("enabled");
                        } else if (enable == QStringLiteral("false") && isEnabled) {
                            actions << QStringLiteral("disable");
                            words << QStringLiteral("disabled");
                        }
                        const QString message = words.isEmpty()
                            ? QString()
                            : QStringLiteral("Would have ") + words.join(QStringLiteral(", would have "));
                        const QString row
                            = QStringLiteral("%1 %2, enable %3, %4")
                                  .arg(ensure, active, enable.isEmpty() ? QStringLiteral("unset") : enable, enabled);
                        QTest::newRow(row.toUtf8().constData())
                            << ensure << enable << active << enabled << actions << message;
                    }
                }
            }
        }
    }

    void everyRecordedState()
    {
        QFETCH(QString, ensure);
        QFETCH(QString, enable);
        QFETCH(QString, active);
        QFETCH(QString, enabled);
        QFETCH(QStringList, actions);
        QFETCH(QString, noopMessage);
        checkDecision(ensure, enable, false, active, enabled, actions, noopMessage, false);
    }

    void verificationFails_data()
    {
        QTest::addColumn<QString>("enable");
        QTest::addColumn<QString>("active");
        QTest::addColumn<QString>("enabled");
        QTest::addColumn<QStringList>("actions");
        QTest::addColumn<QString>("activeAfter");
        QTest::addColumn<QString>("enabledAfter");
        QTest::addColumn<QString>("error");

        QTest::newRow("start did not take")
            << QString() << QStringLiteral("inactive") << QStringLiteral("enabled")
            << QStringList {QStringLiteral("start")} << QStringLiteral("failed") << QStringLiteral("enabled")
            << QStringLiteral("desired state not achieved: service is stopped "
                              "(failed), wanted running");
        QTest::newRow("still activating")
            << QString() << QStringLiteral("failed") << QStringLiteral("enabled")
            << QStringList {QStringLiteral("start")} << QStringLiteral("activating") << QStringLiteral("enabled")
            << QStringLiteral("desired state not achieved: service is stopped "
                              "(activating), wanted running");
        QTest::newRow("masked stays") << QStringLiteral("true") << QStringLiteral("active") << QStringLiteral("masked")
                                      << QStringList {QStringLiteral("enable")} << QStringLiteral("active")
                                      << QStringLiteral("masked")
                                      << QStringLiteral("desired state not achieved: service is disabled (masked) at "
                                                        "boot, wanted enabled");
        QTest::newRow("both") << QStringLiteral("true") << QStringLiteral("inactive") << QStringLiteral("disabled")
                              << QStringList {QStringLiteral("start"), QStringLiteral("enable")}
                              << QStringLiteral("inactive") << QStringLiteral("disabled")
                              << QStringLiteral("desired state not achieved: service is stopped (inactive), wanted "
                                                "running; service is disabled at boot, wanted enabled");
    }

    void verificationFails()
    {
        QFETCH(QString, enable);
        QFETCH(QString, active);
        QFETCH(QString, enabled);
        QFETCH(QStringList, actions);
        QFETCH(QString, activeAfter);
        QFETCH(QString, enabledAfter);
        QFETCH(QString, error);

        ServiceHarness harness;
        harness.expectStatus("nginx", active, enabled);
        harness.runner.expect({"systemctl", "daemon-reload"}, exited(0));
        for (const QString &action : actions)
            harness.runner.expect(systemctl(action.toStdString(), "nginx"), exited(0));
        harness.expectStatus("nginx", activeAfter, enabledAfter);
        const ApplyOutcome outcome = harness.apply("nginx", properties(QStringLiteral("running"), enable));
        QCOMPARE(outcome.error(), error);
        QVERIFY(outcome.event.changed);
        QVERIFY(harness.runner.pending().empty());
        QCOMPARE(q(outcome.event.finalEnsure), q(outcome.event.status["ensure"].get<std::string>()));
        QCOMPARE(outcome.event.status["metadata"]["running"].get<bool>(), kRunningWords.count(activeAfter) > 0);
    }

    void failedCommandStopsTheApply()
    {
        ServiceHarness harness;
        harness.expectStatus("nginx", QStringLiteral("inactive"), QStringLiteral("disabled"));
        harness.runner.expect({"systemctl", "daemon-reload"}, exited(0));
        harness.runner.expect(systemctl("start", "nginx"), exited(1, {}, "Job for nginx.service failed.\n"));
        const ApplyOutcome outcome = harness.apply("nginx", Json {{"ensure", "running"}, {"enable", true}});
        QCOMPARE(outcome.error(),
            QStringLiteral("systemctl start --system nginx failed with exit code 1: Job for nginx.service failed."));
        // Neither enable nor the second status query ran.
        QCOMPARE(harness.commands(),
            (std::vector<Argv> {systemctl("is-active", "nginx"), systemctl("is-enabled", "nginx"),
                {"systemctl", "daemon-reload"}, systemctl("start", "nginx")}));
        QVERIFY(outcome.event.changed);
        QCOMPARE(dump(outcome.event.status), dump(statusJson("nginx", false, false)));
        QVERIFY(harness.runner.pending().empty());
    }

    void statusErrors_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::addColumn<QString>("activeOutput");
        QTest::addColumn<QString>("enabledOutput");
        QTest::addColumn<QString>("error");

        for (const bool noop : {true, false}) {
            const char *mode = noop ? "noop" : "real";
            QTest::addRow("%s: not found", mode)
                << noop << QStringLiteral("inactive\n") << QStringLiteral("not-found\n")
                << QStringLiteral("service nginx not found");
            QTest::addRow("%s: bad unit", mode)
                << noop << QStringLiteral("inactive\n") << QStringLiteral("bad\n")
                << QStringLiteral("the unit file of service nginx is invalid (systemctl is-enabled says bad)");
            QTest::addRow("%s: unknown state", mode)
                << noop << QStringLiteral("unknown\n") << QString()
                << QStringLiteral("invalid systemctl is-active output for service nginx: 'unknown'");
        }
    }

    void statusErrors()
    {
        QFETCH(bool, noop);
        QFETCH(QString, activeOutput);
        QFETCH(QString, enabledOutput);
        QFETCH(QString, error);

        ServiceHarness harness;
        harness.noop = noop;
        const auto output = [](int code, const QString &text) {
            CommandResult result;
            result.exitCode = code;
            result.stdoutText = text.toStdString();
            return Result<CommandResult>(result);
        };
        harness.runner.expect(systemctl("is-active", "nginx"), output(3, activeOutput));
        if (!enabledOutput.isEmpty())
            harness.runner.expect(systemctl("is-enabled", "nginx"), output(1, enabledOutput));
        const ApplyOutcome outcome = harness.apply("nginx", Json {{"ensure", "running"}, {"enable", true}});
        QCOMPARE(outcome.error(), error);
        QVERIFY(!outcome.event.changed);
        QVERIFY(outcome.event.noopMessage.empty());
        QVERIFY(harness.runner.pending().empty());
        QCOMPARE(harness.commands().size(), enabledOutput.isEmpty() ? std::size_t(1) : std::size_t(2));
    }

    void invalidProperties_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("error");

        const QString valid = QStringLiteral("{}");
        QTest::newRow("shell metacharacters") << QStringLiteral("app; rm -rf /") << valid
                                              << QStringLiteral("service name 'app; rm -rf /' contains ';'; allowed "
                                                                "are letters, digits and . _ + : ~ -");
        QTest::newRow("at sign") << QStringLiteral("app@instance") << valid
                                 << QStringLiteral("service name 'app@instance' contains '@'; allowed are letters, "
                                                   "digits and . _ + : ~ -");
        QTest::newRow("space") << QStringLiteral("my app") << valid
                               << QStringLiteral("service name 'my app' contains a space; allowed are letters, "
                                                 "digits and . _ + : ~ -");
        QTest::newRow("path") << QStringLiteral("/etc/init.d/nginx") << valid
                              << QStringLiteral("service name '/etc/init.d/nginx' contains '/'; allowed are letters, "
                                                "digits and . _ + : ~ -");
        QTest::newRow("pipe") << QStringLiteral("a|b") << valid
                              << QStringLiteral("service name 'a|b' contains '|'; allowed are letters, digits and . _ "
                                                "+ : ~ -");
        QTest::newRow("newline") << QStringLiteral("a\nb") << valid
                                 << QStringLiteral("service name 'a\nb' contains a non-printable or non-ASCII "
                                                   "character; allowed are letters, digits and . _ + : ~ -");
        QTest::newRow("non-ASCII") << QStringLiteral("caf\u00e9") << valid
                                   << QStringLiteral("service name 'caf\u00e9' contains a non-printable or non-ASCII "
                                                     "character; allowed are letters, digits and . _ + : ~ -");
        QTest::newRow("option") << QStringLiteral("--user") << valid
                                << QStringLiteral("service name '--user' must not start with -");
        QTest::newRow("empty") << QString() << valid << QStringLiteral("service name must not be empty");
        QTest::newRow("ensure restarted") << QStringLiteral("nginx") << QStringLiteral(R"({"ensure": "restarted"})")
                                          << QStringLiteral("ensure must be running or stopped, not 'restarted'");
        QTest::newRow("ensure a number") << QStringLiteral("nginx") << QStringLiteral(R"({"ensure": 1})")
                                         << QStringLiteral("ensure must be running or stopped, not 1");
        QTest::newRow("enable yes") << QStringLiteral("nginx") << QStringLiteral(R"({"enable": "yes"})")
                                    << QStringLiteral("enable must be true or false, not 'yes'");
        QTest::newRow("enable a number") << QStringLiteral("nginx") << QStringLiteral(R"({"enable": 1})")
                                         << QStringLiteral("enable must be true or false, not 1");
        QTest::newRow("enable a list") << QStringLiteral("nginx") << QStringLiteral(R"({"enable": [true]})")
                                       << QStringLiteral("enable must be true or false, not [true]");
        QTest::newRow("not a map") << QStringLiteral("nginx") << QStringLiteral("[]")
                                   << QStringLiteral("service properties must be a map, not array");
    }

    void invalidProperties()
    {
        QFETCH(QString, name);
        QFETCH(QString, properties);
        QFETCH(QString, error);

        for (const bool noop : {true, false}) {
            ServiceHarness harness;
            harness.noop = noop;
            const ApplyOutcome outcome = harness.apply(name.toStdString(), Json::parse(properties.toStdString()));
            QCOMPARE(outcome.error(), error);
            QVERIFY(!outcome.event.changed);
            QVERIFY(harness.runner.commands().empty());
        }
    }

    void acceptedNamesAndForms_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QStringList>("actions");

        const QStringList start {QStringLiteral("start")};
        QTest::newRow("plain") << QStringLiteral("httpd") << QStringLiteral("{}") << start;
        QTest::newRow("unit suffix") << QStringLiteral("nginx.service") << QStringLiteral("{}") << start;
        QTest::newRow("dash and underscore") << QStringLiteral("my-app_v2") << QStringLiteral("{}") << start;
        QTest::newRow("plus colon tilde") << QStringLiteral("a+b:c~d") << QStringLiteral("{}") << start;
        QTest::newRow("ensure null") << QStringLiteral("nginx") << QStringLiteral(R"({"ensure": null})") << start;
        QTest::newRow("ensure empty") << QStringLiteral("nginx") << QStringLiteral(R"({"ensure": ""})") << start;
        QTest::newRow("templated enable true") << QStringLiteral("nginx") << QStringLiteral(R"({"enable": "true"})")
                                               << QStringList {QStringLiteral("start"), QStringLiteral("enable")};
        QTest::newRow("templated enable false with spaces")
            << QStringLiteral("nginx") << QStringLiteral(R"({"ensure": "stopped", "enable": " false "})")
            << QStringList();
        QTest::newRow("enable null") << QStringLiteral("nginx") << QStringLiteral(R"({"enable": null})") << start;
    }

    void acceptedNamesAndForms()
    {
        QFETCH(QString, name);
        QFETCH(QString, properties);
        QFETCH(QStringList, actions);

        const std::string service = name.toStdString();
        ServiceHarness harness;
        harness.expectStatus(service, QStringLiteral("inactive"), QStringLiteral("disabled"));
        std::vector<Argv> expected {systemctl("is-active", service), systemctl("is-enabled", service)};
        if (!actions.isEmpty()) {
            harness.runner.expect({"systemctl", "daemon-reload"}, exited(0));
            expected.push_back({"systemctl", "daemon-reload"});
            for (const QString &action : actions) {
                harness.runner.expect(systemctl(action.toStdString(), service), exited(0));
                expected.push_back(systemctl(action.toStdString(), service));
            }
            const auto [active, enabled] = wordsAfter(actions, QStringLiteral("inactive"), QStringLiteral("disabled"));
            harness.expectStatus(service, active, enabled);
            expected.push_back(systemctl("is-active", service));
            expected.push_back(systemctl("is-enabled", service));
        }
        const ApplyOutcome outcome = harness.apply(service, Json::parse(properties.toStdString()));
        QCOMPARE(outcome.error(), QString());
        QCOMPARE(harness.commands(), expected);
        QCOMPARE(outcome.event.changed, !actions.isEmpty());
        QCOMPARE(q(outcome.event.status["metadata"]["name"].get<std::string>()), name);
    }

    void oneReloadForAllResourcesOfARun()
    {
        ServiceHarness harness;
        for (const std::string service : {"nginx", "redis", "postgresql"}) {
            harness.expectStatus(service, QStringLiteral("inactive"), QStringLiteral("enabled"));
            harness.runner.expect(systemctl("start", service), exited(0));
            harness.expectStatus(service, QStringLiteral("active"), QStringLiteral("enabled"));
        }
        harness.runner.expect({"systemctl", "daemon-reload"}, exited(0));
        for (const std::string service : {"nginx", "redis", "postgresql"}) {
            const ApplyOutcome outcome = harness.apply(service, Json::object());
            QCOMPARE(outcome.error(), QString());
            QVERIFY(outcome.event.changed);
        }
        int reloads = 0;
        for (const Argv &argv : harness.commands())
            reloads += argv == Argv {"systemctl", "daemon-reload"} ? 1 : 0;
        QCOMPARE(reloads, 1);
        QCOMPARE(harness.commands()[2], (Argv {"systemctl", "daemon-reload"}));
        QVERIFY(harness.runner.pending().empty());
    }

    void logsWhatItDoes()
    {
        ServiceHarness harness;
        harness.refresh = true;
        harness.expectStatus("nginx", QStringLiteral("active"), QStringLiteral("disabled"));
        harness.runner.expect({"systemctl", "daemon-reload"}, exited(0));
        harness.runner.expect(systemctl("restart", "nginx"), exited(0));
        harness.runner.expect(systemctl("enable", "nginx"), exited(0));
        harness.expectStatus("nginx", QStringLiteral("active"), QStringLiteral("enabled"));
        QCOMPARE(harness.apply("nginx", Json {{"enable", true}}).error(), QString());
        QCOMPARE(harness.log.messages,
            (std::vector<std::string> {"restarting service: subscribed to file#/etc/nginx/nginx.conf, which changed",
                "enabling service at boot"}));
    }

    void subscribeThroughTheRun_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::newRow("noop") << true;
        QTest::newRow("real") << false;
    }

    void subscribeThroughTheRun()
    {
        QFETCH(bool, noop);

        BootedRoot root;
        QVERIFY(root.isValid());
        Catalog catalog;
        registerExecResources(catalog);
        catalog.addType(std::make_unique<ServiceType>());
        catalog.addProvider(std::make_unique<SystemdServiceProviderFactory>(root.path()));

        const std::string manifest = "ccm:\n  resources:\n"
                                     "    - exec:\n        - /bin/true: {}\n"
                                     "    - service:\n"
                                     "        - web:\n            subscribe: [exec#/bin/true]\n"
                                     "        - cold:\n            subscribe: [exec#/bin/true]\n"
                                     "        - parked:\n            ensure: stopped\n"
                                     "            subscribe: [exec#/bin/true]\n"
                                     "        - quiet: {}\n";
        ResolveOptions inputs;
        const PreparedManifest prepared = prepareManifestText(manifest, "services.yaml", inputs);
        QVERIFY2(prepared.ok(), prepared.diagnosticText().c_str());

        ServiceHarness harness;
        RecordingRunner &runner = harness.runner;
        if (!noop)
            runner.expect({"/bin/true"}, exited(0));
        harness.expectStatus("web", QStringLiteral("active"), QStringLiteral("enabled"));
        harness.expectStatus("cold", QStringLiteral("inactive"), QStringLiteral("enabled"));
        harness.expectStatus("parked", QStringLiteral("inactive"), QStringLiteral("enabled"));
        harness.expectStatus("quiet", QStringLiteral("active"), QStringLiteral("enabled"));
        if (!noop) {
            runner.expect({"systemctl", "daemon-reload"}, exited(0));
            runner.expect(systemctl("restart", "web"), exited(0));
            harness.expectStatus("web", QStringLiteral("active"), QStringLiteral("enabled"));
            runner.expect(systemctl("start", "cold"), exited(0));
            harness.expectStatus("cold", QStringLiteral("active"), QStringLiteral("enabled"));
        }

        Events observer;
        RunOptions options;
        options.noop = noop;
        const RunResult result = runManifest(prepared.resolved, inputs, options, runner, observer, catalog);
        QCOMPARE(result.summary.failed, std::size_t(0));
        QVERIFY(runner.pending().empty());

        const TransactionEvent *web = observer.event("service#web");
        const TransactionEvent *cold = observer.event("service#cold");
        const TransactionEvent *parked = observer.event("service#parked");
        const TransactionEvent *quiet = observer.event("service#quiet");
        QVERIFY(web && cold && parked && quiet);
        QCOMPARE(q(web->provider), QStringLiteral("systemd"));
        QVERIFY(web->changed && web->refreshed);
        QVERIFY(cold->changed && !cold->refreshed);
        QVERIFY(!parked->changed && !parked->refreshed);
        QVERIFY(!quiet->changed && !quiet->refreshed);
        QCOMPARE(q(web->noopMessage),
            noop ? QStringLiteral("would refresh: subscribed to exec#/bin/true, which would change") : QString());
        QCOMPARE(web->refreshedBy, std::vector<std::string> {"exec#/bin/true"});
        QVERIFY(cold->refreshedBy.empty());
        QCOMPARE(q(cold->noopMessage), noop ? QStringLiteral("Would have started") : QString());
        for (const Command &command : runner.commands()) {
            if (noop)
                QVERIFY2(command.argv[1] == "is-active" || command.argv[1] == "is-enabled",
                    describeCommand(command.argv).c_str());
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestServiceType)
#include "tst_service_type.moc"
