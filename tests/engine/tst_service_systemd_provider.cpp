// SPDX-License-Identifier: Apache-2.0
// The systemd service provider against recorded systemctl output: how every is-active and
// is-enabled answer is read, the exact commands, one daemon-reload per provider, the global lock,
// and when the provider can be chosen (also on this host).
#include "command_test_support.h"
#include "engine/prepared_manifest.h"
#include "engine/resources/service/service_type.h"
#include "engine/resources/service/systemd/systemd_service_provider.h"
#include "engine/run.h"
#include "engine_test_support.h"
#include "recording_runner.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace ccm;
using namespace ccm::engine;
using ccm::test::Argv;
using ccm::test::exited;
using ccm::test::q;
using ccm::test::systemctl;

namespace {

/// The recorded output of one systemctl call in the project's fixtures.
std::string recorded(const QString &file)
{
    return (QStringLiteral(CCM_FIXTURES_DIR "/tool-output/systemd/") + file).toStdString();
}

std::vector<Argv> argvOf(const RecordingRunner &runner)
{
    std::vector<Argv> list;
    for (const Command &command : runner.commands())
        list.push_back(command.argv);
    return list;
}

QString errorOf(const Result<void> &result)
{
    return result ? QString() : q(result.error().message);
}

/// A runner that checks from another thread whether the service lock is held while it runs.
class LockProbeRunner : public CommandRunner {
public:
    Result<CommandResult> run(const Command &command) override
    {
        bool locked = false;
        std::thread probe([&] {
            if (serviceGlobalLock().try_lock()) {
                serviceGlobalLock().unlock();
            } else {
                locked = true;
            }
        });
        probe.join();
        lockedDuring.emplace_back(command.argv[1], locked);
        return exited(0, command.argv[1] == "is-active" ? "active\n" : "enabled\n");
    }

    std::vector<std::pair<std::string, bool>> lockedDuring;
};

/// A directory standing in for / with what the availability probes look at.
class FakeRoot {
public:
    [[nodiscard]] bool isValid() const { return m_dir.isValid(); }
    [[nodiscard]] std::filesystem::path path() const { return m_dir.path().toStdString(); }

    bool addSystemctl(const QString &directory, QFile::Permissions permissions)
    {
        const QString file = m_dir.filePath(directory + QStringLiteral("/systemctl"));
        return QDir().mkpath(QFileInfo(file).absolutePath()) && ccm::test::writeFile(file, "#!/bin/sh\n")
            && QFile::setPermissions(file, permissions);
    }
    bool addBootedMarker() { return QDir().mkpath(m_dir.filePath(QStringLiteral("run/systemd/system"))); }
    bool addMarkerAsFile()
    {
        return QDir().mkpath(m_dir.filePath(QStringLiteral("run/systemd")))
            && ccm::test::writeFile(m_dir.filePath(QStringLiteral("run/systemd/system")), "");
    }

private:
    QTemporaryDir m_dir;
};

constexpr auto kExecutable = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
    | QFile::ReadOther | QFile::ExeOther;
constexpr auto kNotExecutable = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;

} // namespace

class TestServiceSystemdProvider : public QObject {
    Q_OBJECT

private slots:
    void isActiveOutput_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrText");
        QTest::addColumn<bool>("running");
        QTest::addColumn<QString>("error");

        const QString none;
        QTest::newRow("active") << QStringLiteral("is-active-active.txt") << none << 0 << none << true << none;
        QTest::newRow("inactive") << QStringLiteral("is-active-inactive.txt") << none << 3 << none << false << none;
        QTest::newRow("failed") << QStringLiteral("is-active-failed.txt") << none << 3 << none << false << none;
        QTest::newRow("activating") << QStringLiteral("is-active-activating.txt") << none << 3 << none << false << none;
        QTest::newRow("reloading") << none << QStringLiteral("reloading\n") << 0 << none << true << none;
        QTest::newRow("deactivating") << none << QStringLiteral("deactivating\n") << 3 << none << false << none;
        QTest::newRow("unknown") << none << QStringLiteral("unknown\n") << 3 << none << false
                                 << QStringLiteral("invalid systemctl is-active output for service nginx: 'unknown'");
        QTest::newRow("two words") << none << QStringLiteral("active\nactive\n") << 0 << none << false
                                   << QStringLiteral(
                                          "invalid systemctl is-active output for service nginx: 'active\nactive'");
        QTest::newRow("no output, stderr says why")
            << none << QString() << 1
            << QStringLiteral("System has not been booted with systemd as init system (PID 1). Can't operate.\n"
                              "Failed to connect to bus: Host is down\n")
            << false
            << QStringLiteral("invalid systemctl is-active output for service nginx: '' (System has not been booted "
                              "with systemd as init system (PID 1). Can't operate. | Failed to connect to bus: Host "
                              "is down)");
    }

    void isActiveOutput()
    {
        QFETCH(QString, file);
        QFETCH(QString, text);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrText);
        QFETCH(bool, running);
        QFETCH(QString, error);

        RecordingRunner runner;
        runner.expect(systemctl("is-active", "nginx"),
            file.isEmpty() ? exited(exitCode, text.toStdString(), stderrText.toStdString())
                           : RecordingRunner::fromFile(recorded(file), exitCode));
        runner.expect(systemctl("is-enabled", "nginx"),
            RecordingRunner::fromFile(recorded(QStringLiteral("is-enabled-enabled.txt"))));
        SystemdServiceProvider provider(runner);
        const auto state = provider.status("nginx");
        if (!error.isEmpty()) {
            QVERIFY(!state);
            QCOMPARE(q(state.error().message), error);
            QCOMPARE(argvOf(runner), std::vector<Argv> {systemctl("is-active", "nginx")});
            return;
        }
        QVERIFY2(state, state ? "" : state.error().message.c_str());
        QCOMPARE(state->running, running);
        QCOMPARE(q(state->ensure()), running ? QStringLiteral("running") : QStringLiteral("stopped"));
        QVERIFY(state->enabled);
        QCOMPARE(
            argvOf(runner), (std::vector<Argv> {systemctl("is-active", "nginx"), systemctl("is-enabled", "nginx")}));
        QVERIFY(runner.pending().empty());
    }

    void isEnabledOutput_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<bool>("recordedFile");
        QTest::addColumn<QString>("stderrText");
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<QString>("error");

        const QString none;
        for (const char *word : {"enabled", "enabled-runtime", "alias", "static", "indirect", "generated", "transient"})
            QTest::newRow(word) << QString::fromLatin1(word) << true << none << true << none;
        for (const char *word : {"linked", "linked-runtime", "masked", "masked-runtime", "disabled"})
            QTest::newRow(word) << QString::fromLatin1(word) << true << none << false << none;
        QTest::newRow("not-found") << QStringLiteral("not-found") << false
                                   << QStringLiteral("Failed to get unit file state for nginx.service: No such file "
                                                     "or directory")
                                   << false << QStringLiteral("service nginx not found");
        QTest::newRow("bad") << QStringLiteral("bad") << false << none << false
                             << QStringLiteral(
                                    "the unit file of service nginx is invalid (systemctl is-enabled says bad)");
        QTest::newRow("unknown word") << QStringLiteral("sometimes") << false << none << false
                                      << QStringLiteral(
                                             "invalid systemctl is-enabled output for service nginx: 'sometimes'");
        QTest::newRow("no output")
            << QString() << false << QStringLiteral("Failed to get unit file state for nginx.service: Access denied\n")
            << false
            << QStringLiteral("invalid systemctl is-enabled output for service nginx: '' (Failed to get unit file "
                              "state for nginx.service: Access denied)");
    }

    void isEnabledOutput()
    {
        QFETCH(QString, word);
        QFETCH(bool, recordedFile);
        QFETCH(QString, stderrText);
        QFETCH(bool, enabled);
        QFETCH(QString, error);

        RecordingRunner runner;
        runner.expect(systemctl("is-active", "nginx"),
            RecordingRunner::fromFile(recorded(QStringLiteral("is-active-inactive.txt")), 3));
        const int exitCode = enabled ? 0 : 1;
        runner.expect(systemctl("is-enabled", "nginx"),
            recordedFile ? RecordingRunner::fromFile(recorded(QStringLiteral("is-enabled-%1.txt").arg(word)), exitCode)
                         : exited(exitCode, word.isEmpty() ? std::string() : word.toStdString() + "\n",
                             stderrText.toStdString()));
        SystemdServiceProvider provider(runner);
        const auto state = provider.status("nginx");
        QCOMPARE(
            argvOf(runner), (std::vector<Argv> {systemctl("is-active", "nginx"), systemctl("is-enabled", "nginx")}));
        if (!error.isEmpty()) {
            QVERIFY(!state);
            QCOMPARE(q(state.error().message), error);
            return;
        }
        QVERIFY2(state, state ? "" : state.error().message.c_str());
        QCOMPARE(state->enabled, enabled);
        QCOMPARE(q(state->enabledState), word);
        QVERIFY(!state->running);
        QCOMPARE(q(state->activeState), QStringLiteral("inactive"));
    }

    void statusFailures_data()
    {
        QTest::addColumn<int>("failing"); // 0: is-active, 1: is-enabled
        QTest::addColumn<int>("kind"); // 0: cannot start, 1: killed, 2: timed out
        QTest::addColumn<QString>("error");

        QTest::newRow("is-active cannot run")
            << 0 << 0 << QStringLiteral("cannot run systemctl is-active --system nginx: program not found");
        QTest::newRow("is-active killed")
            << 0 << 1 << QStringLiteral("systemctl is-active --system nginx was killed by signal 9");
        QTest::newRow("is-enabled timed out")
            << 1 << 2 << QStringLiteral("systemctl is-enabled --system nginx timed out");
    }

    void statusFailures()
    {
        QFETCH(int, failing);
        QFETCH(int, kind);
        QFETCH(QString, error);

        Result<CommandResult> failure = Error {"program_not_found", "program not found"};
        if (kind == 1) {
            CommandResult killed;
            killed.exitCode = -1;
            killed.signal = 9;
            failure = killed;
        } else if (kind == 2) {
            CommandResult slow;
            slow.timedOut = true;
            slow.exitCode = -1;
            slow.signal = 15;
            failure = slow;
        }
        RecordingRunner runner;
        runner.expect(systemctl("is-active", "nginx"),
            failing == 0 ? failure : RecordingRunner::fromFile(recorded(QStringLiteral("is-active-active.txt"))));
        if (failing == 1)
            runner.expect(systemctl("is-enabled", "nginx"), failure);
        SystemdServiceProvider provider(runner);
        const auto state = provider.status("nginx");
        QVERIFY(!state);
        QCOMPARE(q(state.error().message), error);
        QVERIFY(runner.pending().empty());
    }

    void changesRunOneCommandAfterOneReload_data()
    {
        QTest::addColumn<QString>("verb");
        for (const char *verb : {"start", "stop", "restart", "enable", "disable"})
            QTest::newRow(verb) << QString::fromLatin1(verb);
    }

    void changesRunOneCommandAfterOneReload()
    {
        QFETCH(QString, verb);
        const std::string word = verb.toStdString();
        const auto call = [&](SystemdServiceProvider &provider, const std::string &service) {
            if (word == "start")
                return provider.start(service);
            if (word == "stop")
                return provider.stop(service);
            if (word == "restart")
                return provider.restart(service);
            if (word == "enable")
                return provider.enable(service);
            return provider.disable(service);
        };

        RecordingRunner runner;
        runner.expect({"systemctl", "daemon-reload"}, exited(0));
        runner.expect(systemctl(word, "nginx"), exited(0));
        runner.expect(systemctl(word, "redis-server"), exited(0));
        SystemdServiceProvider provider(runner);
        QCOMPARE(errorOf(call(provider, "nginx")), QString());
        QCOMPARE(errorOf(call(provider, "redis-server")), QString());
        QCOMPARE(argvOf(runner),
            (std::vector<Argv> {
                {"systemctl", "daemon-reload"}, systemctl(word, "nginx"), systemctl(word, "redis-server")}));

        // A new provider (the next run) reloads again.
        RecordingRunner next;
        next.expect({"systemctl", "daemon-reload"}, exited(0));
        next.expect(systemctl(word, "nginx"), exited(0));
        SystemdServiceProvider another(next);
        QCOMPARE(errorOf(call(another, "nginx")), QString());
        QCOMPARE(argvOf(next), (std::vector<Argv> {{"systemctl", "daemon-reload"}, systemctl(word, "nginx")}));
    }

    void statusDoesNotReload()
    {
        RecordingRunner runner;
        runner.expect(systemctl("is-active", "nginx"),
            RecordingRunner::fromFile(recorded(QStringLiteral("is-active-active.txt"))));
        runner.expect(systemctl("is-enabled", "nginx"),
            RecordingRunner::fromFile(recorded(QStringLiteral("is-enabled-enabled.txt"))));
        SystemdServiceProvider provider(runner);
        QVERIFY(provider.status("nginx"));
        QCOMPARE(
            argvOf(runner), (std::vector<Argv> {systemctl("is-active", "nginx"), systemctl("is-enabled", "nginx")}));
    }

    void failedChangeNamesCommandAndStderr()
    {
        RecordingRunner runner;
        runner.expect({"systemctl", "daemon-reload"}, exited(0));
        runner.expect(systemctl("start", "nginx"),
            exited(1, "",
                "Job for nginx.service failed because the control process exited with error code.\n"
                "See \"systemctl status nginx.service\" and \"journalctl -xeu nginx.service\" for details.\n"));
        SystemdServiceProvider provider(runner);
        QCOMPARE(errorOf(provider.start("nginx")),
            QStringLiteral("systemctl start --system nginx failed with exit code 1: Job for nginx.service failed "
                           "because the control process exited with error code. | See \"systemctl status "
                           "nginx.service\" and \"journalctl -xeu nginx.service\" for details."));
    }

    void failedChangeWithoutStderr()
    {
        RecordingRunner runner;
        runner.expect({"systemctl", "daemon-reload"}, exited(0));
        runner.expect(systemctl("enable", "nginx"), exited(1));
        SystemdServiceProvider provider(runner);
        QCOMPARE(errorOf(provider.enable("nginx")),
            QStringLiteral("systemctl enable --system nginx failed with exit code 1"));
    }

    void failedReloadStopsAndIsRetried()
    {
        RecordingRunner runner;
        runner.expect({"systemctl", "daemon-reload"}, exited(1, "", "Access denied\n"));
        runner.expect({"systemctl", "daemon-reload"}, exited(0));
        runner.expect(systemctl("start", "nginx"), exited(0));
        runner.expect(systemctl("stop", "redis"), exited(0));
        SystemdServiceProvider provider(runner);
        QCOMPARE(errorOf(provider.start("nginx")),
            QStringLiteral("systemctl daemon-reload failed with exit code 1: Access denied"));
        QCOMPARE(argvOf(runner), (std::vector<Argv> {{"systemctl", "daemon-reload"}}));
        QCOMPARE(errorOf(provider.start("nginx")), QString());
        QCOMPARE(errorOf(provider.stop("redis")), QString());
        QCOMPARE(argvOf(runner),
            (std::vector<Argv> {{"systemctl", "daemon-reload"}, {"systemctl", "daemon-reload"},
                systemctl("start", "nginx"), systemctl("stop", "redis")}));
    }

    void changeThatCannotRun()
    {
        RecordingRunner runner;
        runner.expect({"systemctl", "daemon-reload"}, exited(0));
        runner.expect(systemctl("stop", "nginx"), Error {"program_not_found", "program not found"});
        SystemdServiceProvider provider(runner);
        QCOMPARE(errorOf(provider.stop("nginx")),
            QStringLiteral("cannot run systemctl stop --system nginx: program not found"));
    }

    void everySystemctlCallHoldsTheLock()
    {
        LockProbeRunner runner;
        SystemdServiceProvider provider(runner);
        QVERIFY(provider.status("nginx"));
        QVERIFY(provider.start("nginx"));
        QVERIFY(provider.disable("nginx"));
        const std::vector<std::pair<std::string, bool>> expected {
            {"is-active", true}, {"is-enabled", true}, {"daemon-reload", true}, {"start", true}, {"disable", true}};
        QCOMPARE(runner.lockedDuring, expected);
        // And it is free again afterwards.
        QVERIFY(serviceGlobalLock().try_lock());
        serviceGlobalLock().unlock();
    }

    void availability_data()
    {
        QTest::addColumn<QString>("systemctlIn");
        QTest::addColumn<bool>("executable");
        QTest::addColumn<int>("marker"); // 0: none, 1: directory, 2: a plain file
        QTest::addColumn<bool>("manageable");
        QTest::addColumn<QString>("reason"); // ROOT stands for the fake root

        const QString path = QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        const QString notFound = QStringLiteral("systemctl is not in PATH (") + path + QStringLiteral(")");
        const QString notRunning
            = QStringLiteral("systemd is not running on this host (ROOT/run/systemd/system does not exist)");
        QTest::newRow("usr/bin and booted") << QStringLiteral("usr/bin") << true << 1 << true << QString();
        QTest::newRow("bin and booted") << QStringLiteral("bin") << true << 1 << true << QString();
        QTest::newRow("usr/local/sbin and booted")
            << QStringLiteral("usr/local/sbin") << true << 1 << true << QString();
        QTest::newRow("not booted") << QStringLiteral("usr/bin") << true << 0 << false << notRunning;
        QTest::newRow("marker is a file") << QStringLiteral("usr/bin") << true << 2 << false << notRunning;
        QTest::newRow("no systemctl") << QString() << true << 1 << false << notFound;
        QTest::newRow("systemctl outside PATH") << QStringLiteral("opt/bin") << true << 1 << false << notFound;
        QTest::newRow("systemctl not executable") << QStringLiteral("usr/bin") << false << 1 << false << notFound;
        QTest::newRow("neither") << QString() << true << 0 << false << notFound + QStringLiteral(" and ") + notRunning;
    }

    void availability()
    {
        QFETCH(QString, systemctlIn);
        QFETCH(bool, executable);
        QFETCH(int, marker);
        QFETCH(bool, manageable);
        QFETCH(QString, reason);

        FakeRoot root;
        QVERIFY(root.isValid());
        if (!systemctlIn.isEmpty())
            QVERIFY(root.addSystemctl(systemctlIn, executable ? kExecutable : kNotExecutable));
        if (marker == 1)
            QVERIFY(root.addBootedMarker());
        if (marker == 2)
            QVERIFY(root.addMarkerAsFile());

        const SystemdServiceProviderFactory factory(root.path());
        QCOMPARE(q(std::string(factory.typeName())), QStringLiteral("service"));
        QCOMPARE(q(std::string(factory.name())), QStringLiteral("systemd"));
        const auto priority = factory.manageable(Json::object(), LazyFacts());
        QVERIFY(priority);
        QCOMPARE(priority->has_value(), manageable);
        if (manageable)
            QCOMPARE(**priority, 1);
        reason.replace(QStringLiteral("ROOT/"), q(root.path().string()) + QStringLiteral("/"));
        QCOMPARE(q(factory.unavailableReason()), reason);
    }

    void createsASystemdProvider()
    {
        RecordingRunner runner;
        const auto provider = SystemdServiceProviderFactory().create(runner);
        QVERIFY(dynamic_cast<SystemdServiceProvider *>(provider.get()));
        QCOMPARE(q(std::string(provider->name())), QStringLiteral("systemd"));
    }

    void thisHostWithoutSystemd()
    {
        if (QFileInfo(QStringLiteral("/run/systemd/system")).isDir())
            QSKIP("systemd runs on this host");
        const ProviderRegistry &providers = standardCatalog().providers();
        const auto chosen = providers.select("service", Json {{"ensure", "running"}}, LazyFacts());
        QVERIFY(!chosen);
        QVERIFY2(
            q(chosen.error().message)
                .startsWith(QStringLiteral("no suitable provider for this service resource on this host (systemd: ")),
            chosen.error().message.c_str());
        QVERIFY2(
            q(chosen.error().message)
                .endsWith(QStringLiteral("systemd is not running on this host (/run/systemd/system does not exist))")),
            chosen.error().message.c_str());

        const auto forced = providers.select("service", Json {{"provider", "systemd"}}, LazyFacts());
        QVERIFY(!forced);
        QVERIFY2(q(forced.error().message)
                     .startsWith(QStringLiteral("provider 'systemd' cannot manage this service resource: ")),
            forced.error().message.c_str());
        QVERIFY2(
            q(forced.error().message)
                .endsWith(QStringLiteral("systemd is not running on this host (/run/systemd/system does not exist)")),
            forced.error().message.c_str());
    }

    void thisHostRunFailsTheServiceClearly()
    {
        if (QFileInfo(QStringLiteral("/run/systemd/system")).isDir())
            QSKIP("systemd runs on this host");
        const std::string manifest
            = "ccm:\n  resources:\n    - service:\n        - nginx:\n            ensure: running\n"
              "            enable: true\n        - forced:\n            provider: systemd\n";
        ResolveOptions inputs;
        const PreparedManifest prepared = prepareManifestText(manifest, "services.yaml", inputs);
        QVERIFY2(prepared.ok(), prepared.diagnosticText().c_str());

        // Nothing may run: the recording runner fails any command.
        RecordingRunner runner;
        class Events : public RunObserver {
        public:
            void resourceFinished(const TransactionEvent &event) override { events.push_back(event); }
            std::vector<TransactionEvent> events;
        } observer;
        const RunResult result = runManifest(prepared.resolved, inputs, RunOptions {}, runner, observer);
        QCOMPARE(result.summary.failed, std::size_t(2));
        QVERIFY(runner.commands().empty());
        QCOMPARE(observer.events.size(), std::size_t(2));
        QVERIFY(observer.events[0].failed);
        QCOMPARE(observer.events[0].errors.size(), std::size_t(1));
        QVERIFY2(
            q(observer.events[0].errors.front())
                .startsWith(QStringLiteral("no suitable provider for this service resource on this host (systemd: ")),
            observer.events[0].errors.front().c_str());
        QCOMPARE(observer.events[1].errors.size(), std::size_t(1));
        QVERIFY2(
            q(observer.events[1].errors.front())
                .endsWith(QStringLiteral("systemd is not running on this host (/run/systemd/system does not exist)")),
            observer.events[1].errors.front().c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestServiceSystemdProvider)
#include "tst_service_systemd_provider.moc"
