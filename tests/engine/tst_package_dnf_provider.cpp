// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/dnf/dnf_package_provider.h"
#include "engine/resources/package/package_type.h"
#include "engine_test_support.h"
#include "package_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QFile>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <future>
#include <sys/stat.h>
#include <utility>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

/// rpm's answer: a recorded file name (rpm_q_absent.txt exits 1) or a literal line.
CommandResult rpmAnswer(const QString &state)
{
    if (state == QLatin1String("rpm_q_absent.txt"))
        return exited(1, dnfRecorded(state));
    if (state.endsWith(QLatin1String(".txt")))
        return exited(0, dnfRecorded(state));
    return exited(0, state.toStdString() + "\n");
}

ApplyOutcome applyWith(RecordingRunner &runner, const std::string &name, const std::string &ensure, bool noop)
{
    RecordingLogger log;
    const LazyFacts facts;
    ApplyContext context {.noop = noop,
        .runner = runner,
        .log = log,
        .facts = facts,
        .workingDirectory = {},
        .mayShowDiff = {},
        .runChildManifest = {}};
    DnfPackageProvider provider(runner);
    ApplyOutcome outcome;
    outcome.result = PackageType().apply(name, Json {{"ensure", ensure}}, provider, context, outcome.event);
    return outcome;
}

QStringList actions(const RecordingRunner &runner)
{
    QStringList lines;
    for (const Command &command : runner.commands()) {
        if (command.argv.front() != "rpm")
            lines << joined(command.argv);
    }
    return lines;
}

} // namespace

class TestPackageDnfProvider : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void status_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("epoch");
        QTest::addColumn<QString>("release");
        QTest::newRow("installed") << QStringLiteral("rpm_q.txt") << QStringLiteral("5.8-9.el9")
                                   << QStringLiteral("x86_64") << QStringLiteral("0") << QStringLiteral("9.el9");
        QTest::newRow("old") << QStringLiteral("rpm_q_001.txt") << QStringLiteral("0.0.1-9.el9")
                             << QStringLiteral("x86_64") << QStringLiteral("0") << QStringLiteral("9.el9");
        QTest::newRow("new") << QStringLiteral("rpm_q_623.txt") << QStringLiteral("6.2.3-9.el9")
                             << QStringLiteral("x86_64") << QStringLiteral("0") << QStringLiteral("9.el9");
        QTest::newRow("absent") << QStringLiteral("rpm_q_absent.txt") << QStringLiteral("absent") << QString()
                                << QString() << QString();
        QTest::newRow("epoch") << QStringLiteral("zsh 2 5.8 9.el9 x86_64") << QStringLiteral("2:5.8-9.el9")
                               << QStringLiteral("x86_64") << QStringLiteral("2") << QStringLiteral("9.el9");
        QTest::newRow("two instances, highest wins")
            << QStringLiteral("zsh 0 5.8 9.el9 i686\nzsh 0 5.8 10.el9 x86_64") << QStringLiteral("5.8-10.el9")
            << QStringLiteral("x86_64") << QStringLiteral("0") << QStringLiteral("10.el9");
    }

    void status()
    {
        QFETCH(QString, answer);
        QFETCH(QString, ensure);
        QFETCH(QString, arch);
        QFETCH(QString, epoch);
        QFETCH(QString, release);
        RecordingRunner runner;
        runner.expect(rpmStatusArgv("zsh"), rpmAnswer(answer));
        DnfPackageProvider provider(runner);
        const auto state = provider.status("zsh");
        QVERIFY2(state.ok(), state ? "" : state.error().message.c_str());
        QCOMPARE(q(state->ensure()), ensure);
        QCOMPARE(q(state->arch), arch);
        QCOMPARE(q(state->extended.value("epoch", std::string())), epoch);
        QCOMPARE(q(state->extended.value("release", std::string())), release);
        QCOMPARE(q(state->name), QStringLiteral("zsh"));
    }

    void statusGarbage()
    {
        RecordingRunner runner;
        runner.expect(rpmStatusArgv("zsh"), exited(0, "zsh 5.8"));
        DnfPackageProvider provider(runner);
        const auto state = provider.status("zsh");
        QVERIFY(!state.ok());
        QCOMPARE(q(state.error().message),
            QStringLiteral(
                "rpm -q zsh --queryformat '%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}\\n' gave "
                "output that is not name, epoch, version, release and arch: 'zsh 5.8'"));
    }

    void decision_data()
    {
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("noopMessage");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("recorded");
        QTest::addColumn<QString>("after");
        QTest::addColumn<bool>("changed");
        QTest::newRow("present, installed") << QStringLiteral("present") << QStringLiteral("rpm_q.txt") << QString()
                                            << QString() << QString() << QStringLiteral("rpm_q.txt") << false;
        QTest::newRow("present, absent") << QStringLiteral("present") << QStringLiteral("rpm_q_absent.txt")
                                         << QStringLiteral("Would have installed")
                                         << QStringLiteral("dnf install -y zsh")
                                         << QStringLiteral("dnf_install_zsh.txt") << QStringLiteral("rpm_q.txt")
                                         << true;
        QTest::newRow("absent, absent") << QStringLiteral("absent") << QStringLiteral("rpm_q_absent.txt") << QString()
                                        << QString() << QString() << QStringLiteral("rpm_q_absent.txt") << false;
        QTest::newRow("absent, installed")
            << QStringLiteral("absent") << QStringLiteral("rpm_q.txt") << QStringLiteral("Would have uninstalled")
            << QStringLiteral("dnf remove -y zsh") << QStringLiteral("dnf_remove.txt")
            << QStringLiteral("rpm_q_absent.txt") << true;
        QTest::newRow("latest, absent") << QStringLiteral("latest") << QStringLiteral("rpm_q_absent.txt")
                                        << QStringLiteral("Would have installed latest")
                                        << QStringLiteral("dnf install -y zsh") << QStringLiteral("dnf_install_zsh.txt")
                                        << QStringLiteral("rpm_q.txt") << true;
        QTest::newRow("latest, installed")
            << QStringLiteral("latest") << QStringLiteral("rpm_q_001.txt")
            << QStringLiteral("Would have upgraded to latest") << QStringLiteral("dnf install -y zsh")
            << QStringLiteral("dnf_install_zsh.txt") << QStringLiteral("rpm_q_623.txt") << true;
        QTest::newRow("version, same") << QStringLiteral("5.8-9.el9") << QStringLiteral("rpm_q.txt") << QString()
                                       << QString() << QString() << QStringLiteral("rpm_q.txt") << false;
        QTest::newRow("version, older installed")
            << QStringLiteral("5.8-9.el9") << QStringLiteral("rpm_q_001.txt")
            << QStringLiteral("Would have upgraded to 5.8-9.el9") << QStringLiteral("dnf install -y zsh-5.8-9.el9")
            << QStringLiteral("dnf_install_zsh.txt") << QStringLiteral("rpm_q.txt") << true;
        QTest::newRow("version, newer installed")
            << QStringLiteral("5.8-9.el9") << QStringLiteral("rpm_q_623.txt")
            << QStringLiteral("Would have downgraded to 5.8-9.el9") << QStringLiteral("dnf downgrade -y zsh-5.8-9.el9")
            << QStringLiteral("dnf_install_zsh.txt") << QStringLiteral("rpm_q.txt") << true;
        QTest::newRow("version, absent") << QStringLiteral("5.8-9.el9") << QStringLiteral("rpm_q_absent.txt")
                                         << QStringLiteral("Would have installed version 5.8-9.el9")
                                         << QStringLiteral("dnf install -y zsh-5.8-9.el9")
                                         << QStringLiteral("dnf_install_zsh.txt") << QStringLiteral("rpm_q.txt")
                                         << true;
        QTest::newRow("epoch asked, epoch 0 installed")
            << QStringLiteral("1:5.8-9.el9") << QStringLiteral("rpm_q.txt")
            << QStringLiteral("Would have upgraded to 1:5.8-9.el9") << QStringLiteral("dnf install -y zsh-1:5.8-9.el9")
            << QStringLiteral("dnf_install_zsh.txt") << QStringLiteral("zsh 1 5.8 9.el9 x86_64") << true;
    }

    void decision()
    {
        QFETCH(QString, ensure);
        QFETCH(QString, before);
        QFETCH(QString, noopMessage);
        QFETCH(QString, command);
        QFETCH(QString, recorded);
        QFETCH(QString, after);
        QFETCH(bool, changed);
        const std::string wanted = ensure.toStdString();

        RecordingRunner noop;
        noop.expect(rpmStatusArgv("zsh"), rpmAnswer(before));
        const ApplyOutcome previewed = applyWith(noop, "zsh", wanted, true);
        QVERIFY(previewed.result.ok());
        QCOMPARE(q(previewed.event.noopMessage), noopMessage);
        QCOMPARE(previewed.event.changed, !noopMessage.isEmpty());
        QCOMPARE(actions(noop), QStringList());

        RecordingRunner real;
        real.expect(rpmStatusArgv("zsh"), rpmAnswer(before));
        if (!command.isEmpty())
            real.expect(words(command), exited(0, dnfRecorded(recorded)));
        real.expect(rpmStatusArgv("zsh"), rpmAnswer(after));
        const ApplyOutcome applied = applyWith(real, "zsh", wanted, false);
        QVERIFY2(applied.result.ok(), applied.result ? "" : applied.result.error().message.c_str());
        QCOMPARE(actions(real), command.isEmpty() ? QStringList() : QStringList {command});
        QCOMPARE(applied.event.changed, changed);
        QCOMPARE(q(applied.event.status["metadata"].value("provider", std::string())), QStringLiteral("dnf"));

        RecordingRunner again;
        again.expect(rpmStatusArgv("zsh"), rpmAnswer(after));
        const bool latest = ensure == QLatin1String("latest");
        if (latest) {
            again.expect(words(command), exited(0, dnfRecorded(recorded)));
            again.expect(rpmStatusArgv("zsh"), rpmAnswer(after));
        }
        const ApplyOutcome repeated = applyWith(again, "zsh", wanted, false);
        QVERIFY(repeated.result.ok());
        QCOMPARE(repeated.event.changed, false);
        QCOMPARE(actions(again), latest ? QStringList {command} : QStringList());
        QCOMPARE(again.pending().size(), std::size_t(0));
    }

    void failure()
    {
        RecordingRunner runner;
        runner.expect(rpmStatusArgv("nonexistent-pkg"), rpmAnswer(QStringLiteral("rpm_q_absent.txt")));
        runner.expect({"dnf", "install", "-y", "nonexistent-pkg"},
            RecordingRunner::fromFile((kDnfRecordings + QStringLiteral("dnf_install_fail_stdout.txt")).toStdString(), 1,
                (kDnfRecordings + QStringLiteral("dnf_install_fail_stderr.txt")).toStdString()));
        const ApplyOutcome outcome = applyWith(runner, "nonexistent-pkg", "present", false);
        QVERIFY(!outcome.result.ok());
        QCOMPARE(q(outcome.result.error().message),
            QStringLiteral("dnf install -y nonexistent-pkg failed with exit code 1: Error: Unable to find a match: "
                           "nonexistent-pkg"));
    }

    void commandsHoldThePackageLock()
    {
        // Every command is answered with an installed zsh.
        LockProbe probe([](const Command &) { return exited(0, dnfRecorded(QStringLiteral("rpm_q.txt"))); });
        DnfPackageProvider provider(probe);
        QVERIFY(provider.install("zsh", "present").ok());
        QVERIFY(provider.downgrade("zsh", "5.8-9.el9").ok());
        QVERIFY(provider.uninstall("zsh").ok());
        QVERIFY(provider.status("zsh").ok());
        QCOMPARE(probe.lockFree, (std::vector<bool> {false, false, false, false}));
    }

    void compareVersions_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("expected");
        QTest::newRow("same") << QStringLiteral("5.8-9.el9") << QStringLiteral("5.8-9.el9") << 0;
        QTest::newRow("zero epoch") << QStringLiteral("0:5.8-9.el9") << QStringLiteral("5.8-9.el9") << 0;
        QTest::newRow("epoch wins") << QStringLiteral("1:2.0-3.fc39") << QStringLiteral("5.8-9.el9") << 1;
        QTest::newRow("epochs numerically") << QStringLiteral("10:1.0-1") << QStringLiteral("9:2.0-1") << 1;
        QTest::newRow("generic after epoch") << QStringLiteral("1:1.10-1") << QStringLiteral("1:1.9-1") << 1;
        QTest::newRow("release") << QStringLiteral("6.22.03-6.el9") << QStringLiteral("6.22.03-7.el9") << -1;
    }

    void compareVersions()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, expected);
        RecordingRunner runner;
        DnfPackageProvider provider(runner);
        QCOMPARE(*provider.compareVersions(a.toStdString(), b.toStdString(), false), expected);
        QCOMPARE(*provider.compareVersions(b.toStdString(), a.toStdString(), false), -expected);
    }

    void factory_data()
    {
        QTest::addColumn<QStringList>("programs");
        QTest::addColumn<QString>("reason");
        QTest::newRow("both") << QStringList {QStringLiteral("dnf"), QStringLiteral("rpm")} << QString();
        QTest::newRow("no rpm") << QStringList {QStringLiteral("dnf")} << QStringLiteral("rpm is not in PATH");
        QTest::newRow("neither") << QStringList() << QStringLiteral("dnf and rpm are not in PATH");
    }

    void factory()
    {
        QFETCH(QStringList, programs);
        QFETCH(QString, reason);
        QTemporaryDir bin;
        QVERIFY(bin.isValid());
        for (const QString &program : programs) {
            QVERIFY(writeFile(bin.filePath(program), "#!/bin/sh\n"));
            QVERIFY(::chmod(bin.filePath(program).toLocal8Bit().constData(), 0755) == 0);
        }
        DnfPackageProviderFactory factory(bin.path().toStdString());
        const auto manageable = factory.manageable(Json::object(), LazyFacts());
        QVERIFY(manageable.ok());
        QCOMPARE(manageable->has_value(), reason.isEmpty());
        QCOMPARE(q(factory.unavailableReason()),
            reason.isEmpty() ? QString() : reason + QStringLiteral(" (") + bin.path() + QStringLiteral(")"));
    }

    void realHostHasNoDnf()
    {
        // This project's CI runs on Debian: the default search path must not select dnf there.
        DnfPackageProviderFactory factory;
        if (QFile::exists(QStringLiteral("/usr/bin/dnf")))
            QSKIP("dnf is installed on this host");
        QVERIFY(!factory.manageable(Json::object(), LazyFacts())->has_value());
        QVERIFY(q(factory.unavailableReason()).contains(QStringLiteral("not in PATH")));
    }
};

CCM_TEST_GUILESS_MAIN(TestPackageDnfProvider)
#include "tst_package_dnf_provider.moc"
