// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/apt/apt_package_provider.h"
#include "engine/resources/package/package_type.h"
#include "engine_test_support.h"
#include "package_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QFile>
#include <QStringList>
#include <QTest>

#include <utility>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

/// dpkg-query's answer for a state: "installed" and "epoch" are recorded output, "absent" the
/// recorded message with exit code 1, anything else a line of the same format.
CommandResult dpkgAnswer(const QString &state)
{
    if (state == QLatin1String("installed"))
        return exited(0, aptRecorded(QStringLiteral("dpkg_query_installed.txt")));
    if (state == QLatin1String("epoch"))
        return exited(0, aptRecorded(QStringLiteral("dpkg_query_epoch.txt")));
    if (state == QLatin1String("absent"))
        return exited(1, {}, aptRecorded(QStringLiteral("dpkg_query_absent.txt")));
    return exited(0, state.toStdString() + "\n");
}

/// An apt provider on recorded answers, and one apply at a time.
class PackageHarness {
public:
    ApplyOutcome apply(const std::string &name, const Json &properties, bool noop)
    {
        ApplyContext context {.noop = noop,
            .runner = runner,
            .log = m_log,
            .facts = m_facts,
            .workingDirectory = {},
            .mayShowDiff = {},
            .runChildManifest = {}};
        AptPackageProvider provider(runner);
        ApplyOutcome outcome;
        outcome.result = PackageType().apply(name, properties, provider, context, outcome.event);
        return outcome;
    }

    /// The commands received that are not status queries, each as one line.
    [[nodiscard]] QStringList actions() const
    {
        QStringList lines;
        for (const Command &command : runner.commands()) {
            if (command.argv.front() != "dpkg-query")
                lines << joined(command.argv);
        }
        return lines;
    }

    RecordingRunner runner;

private:
    RecordingLogger m_log;
    LazyFacts m_facts;
};

const QString kInstallLine = QStringLiteral("apt-get install -y -q -o DPkg::Options::=--force-confold ");

} // namespace

class TestPackageType : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void decision_data()
    {
        QTest::addColumn<QString>("package");
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("noopMessage");
        QTest::addColumn<QStringList>("commands");
        QTest::addColumn<QString>("after");
        QTest::addColumn<bool>("changed");
        QTest::addColumn<QString>("finalEnsure");

        const QString policy = QStringLiteral("apt-cache policy zsh");
        const QString newer = QStringLiteral("zsh 5.9-9 amd64 installed");
        const QString older = QStringLiteral("zsh 5.9-3 amd64 installed");
        QTest::newRow("present, installed")
            << QStringLiteral("zsh") << QStringLiteral("present") << QStringLiteral("installed") << QString()
            << QStringList() << QStringLiteral("installed") << false << QStringLiteral("5.9-4+b15");
        QTest::newRow("present, absent") << QStringLiteral("zsh") << QStringLiteral("present")
                                         << QStringLiteral("absent") << QStringLiteral("Would have installed")
                                         << QStringList {kInstallLine + QStringLiteral("zsh")}
                                         << QStringLiteral("installed") << true << QStringLiteral("5.9-4+b15");
        QTest::newRow("absent, absent") << QStringLiteral("zsh") << QStringLiteral("absent") << QStringLiteral("absent")
                                        << QString() << QStringList() << QStringLiteral("absent") << false
                                        << QStringLiteral("absent");
        QTest::newRow("absent, installed")
            << QStringLiteral("zsh") << QStringLiteral("absent") << QStringLiteral("installed")
            << QStringLiteral("Would have uninstalled") << QStringList {QStringLiteral("apt-get -q -y remove zsh")}
            << QStringLiteral("absent") << true << QStringLiteral("absent");
        QTest::newRow("latest, absent") << QStringLiteral("zsh") << QStringLiteral("latest") << QStringLiteral("absent")
                                        << QStringLiteral("Would have installed latest")
                                        << QStringList {policy, kInstallLine + QStringLiteral("zsh=5.9-4+b15")}
                                        << QStringLiteral("installed") << true << QStringLiteral("5.9-4+b15");
        // The candidate is what is installed: nothing to do, in noop as for real.
        QTest::newRow("latest, installed at the candidate")
            << QStringLiteral("zsh") << QStringLiteral("latest") << QStringLiteral("installed") << QString()
            << QStringList {policy} << QStringLiteral("installed") << false << QStringLiteral("5.9-4+b15");
        QTest::newRow("latest, older installed")
            << QStringLiteral("zsh") << QStringLiteral("latest") << QStringLiteral("zsh 5.9-3 amd64 installed")
            << QStringLiteral("Would have upgraded to latest")
            << QStringList {policy, policy, kInstallLine + QStringLiteral("zsh=5.9-4+b15")}
            << QStringLiteral("installed") << true << QStringLiteral("5.9-4+b15");
        QTest::newRow("version, same") << QStringLiteral("zsh") << QStringLiteral("5.9-4+b15")
                                       << QStringLiteral("installed") << QString() << QStringList()
                                       << QStringLiteral("installed") << false << QStringLiteral("5.9-4+b15");
        QTest::newRow("version, older installed")
            << QStringLiteral("zsh") << QStringLiteral("5.9-9") << QStringLiteral("installed")
            << QStringLiteral("Would have upgraded to 5.9-9")
            << QStringList {kInstallLine + QStringLiteral("--allow-downgrades zsh=5.9-9")} << newer << true
            << QStringLiteral("5.9-9");
        QTest::newRow("version, newer installed")
            << QStringLiteral("zsh") << QStringLiteral("5.9-3") << QStringLiteral("installed")
            << QStringLiteral("Would have downgraded to 5.9-3")
            << QStringList {kInstallLine + QStringLiteral("--allow-downgrades zsh=5.9-3")} << older << true
            << QStringLiteral("5.9-3");
        QTest::newRow("version, absent") << QStringLiteral("zsh") << QStringLiteral("5.9-4+b15")
                                         << QStringLiteral("absent")
                                         << QStringLiteral("Would have installed version 5.9-4+b15")
                                         << QStringList {kInstallLine
                                                + QStringLiteral("--allow-downgrades zsh=5.9-4+b15")}
                                         << QStringLiteral("installed") << true << QStringLiteral("5.9-4+b15");
        QTest::newRow("version, half-installed")
            << QStringLiteral("zsh") << QStringLiteral("5.9-4+b15")
            << QStringLiteral("zsh 5.9-4+b15 amd64 half-installed")
            << QStringLiteral("Would have installed version 5.9-4+b15")
            << QStringList {kInstallLine + QStringLiteral("--allow-downgrades zsh=5.9-4+b15")}
            << QStringLiteral("installed") << true << QStringLiteral("5.9-4+b15");
        QTest::newRow("present, config-files")
            << QStringLiteral("zsh") << QStringLiteral("present") << QStringLiteral("zsh 5.9-4+b15 amd64 config-files")
            << QStringLiteral("Would have installed") << QStringList {kInstallLine + QStringLiteral("zsh")}
            << QStringLiteral("installed") << true << QStringLiteral("5.9-4+b15");
        QTest::newRow("epoch, same") << QStringLiteral("bsdutils") << QStringLiteral("1:2.38.1-5+deb12u3")
                                     << QStringLiteral("epoch") << QString() << QStringList() << QStringLiteral("epoch")
                                     << false << QStringLiteral("1:2.38.1-5+deb12u3");
        QTest::newRow("epoch, higher than asked")
            << QStringLiteral("bsdutils") << QStringLiteral("2.39-1") << QStringLiteral("epoch")
            << QStringLiteral("Would have downgraded to 2.39-1")
            << QStringList {kInstallLine + QStringLiteral("--allow-downgrades bsdutils=2.39-1")}
            << QStringLiteral("bsdutils 2.39-1 amd64 installed") << true << QStringLiteral("2.39-1");
    }

    void decision()
    {
        QFETCH(QString, package);
        QFETCH(QString, ensure);
        QFETCH(QString, before);
        QFETCH(QString, noopMessage);
        QFETCH(QStringList, commands);
        QFETCH(QString, after);
        QFETCH(bool, changed);
        QFETCH(QString, finalEnsure);
        const std::string name = package.toStdString();
        const Json properties = {{"ensure", ensure.toStdString()}};
        const auto queue = [&](PackageHarness &harness, const QString &first, const QString &then) {
            harness.runner.expect(dpkgStatusArgv(name), dpkgAnswer(first));
            for (const QString &command : commands) {
                if (command.startsWith(QLatin1String("apt-cache")))
                    harness.runner.expect(words(command),
                        RecordingRunner::fromFile(
                            (kAptRecordings + QStringLiteral("apt_cache_policy.txt")).toStdString()));
                else
                    harness.runner.expect(
                        words(command), exited(0, aptRecorded(QStringLiteral("apt_get_install.txt"))));
            }
            harness.runner.expect(dpkgStatusArgv(name), dpkgAnswer(then));
        };

        const QStringList queries = commands.filter(QStringLiteral("apt-cache"));
        const auto expectPolicy = [&](PackageHarness &harness, qsizetype times) {
            for (qsizetype i = 0; i < times; ++i)
                harness.runner.expect(words(queries.first()),
                    RecordingRunner::fromFile((kAptRecordings + QStringLiteral("apt_cache_policy.txt")).toStdString()));
        };

        // Noop: the state is read (for latest, the candidate too), nothing changes anything, and the
        // message says what would have.
        PackageHarness noop;
        noop.runner.expect(dpkgStatusArgv(name), dpkgAnswer(before));
        const bool asksCandidate = ensure == QLatin1String("latest") && before != QLatin1String("absent");
        expectPolicy(noop, asksCandidate ? 1 : 0);
        const ApplyOutcome previewed = noop.apply(name, properties, true);
        QCOMPARE(previewed.error(), QString());
        QCOMPARE(noop.actions(), asksCandidate ? queries.mid(0, 1) : QStringList());
        QCOMPARE(q(previewed.event.noopMessage), noopMessage);
        QCOMPARE(previewed.event.changed, !noopMessage.isEmpty());
        QCOMPARE(noop.runner.pending().size(), std::size_t(0));

        // For real: exactly the seed's commands with the non-interactive environment.
        PackageHarness real;
        queue(real, before, after);
        const ApplyOutcome applied = real.apply(name, properties, false);
        QCOMPARE(applied.error(), QString());
        QCOMPARE(real.actions(), commands);
        for (const Command &command : real.runner.commands())
            QCOMPARE(command.environment, AptPackageProvider::environment());
        QCOMPARE(applied.event.changed, changed);
        QCOMPARE(q(applied.event.finalEnsure), finalEnsure);
        QCOMPARE(q(applied.event.status.value("ensure", std::string())), finalEnsure);
        QVERIFY(applied.event.noopMessage.empty());

        // A second apply finds the state it left; latest finds the candidate installed.
        PackageHarness again;
        const bool latest = ensure == QLatin1String("latest");
        again.runner.expect(dpkgStatusArgv(name), dpkgAnswer(after));
        expectPolicy(again, latest ? 1 : 0);
        const ApplyOutcome repeated = again.apply(name, properties, false);
        QCOMPARE(repeated.error(), QString());
        QCOMPARE(repeated.event.changed, false);
        QCOMPARE(again.actions(), latest ? queries.mid(0, 1) : QStringList());
        QCOMPARE(q(repeated.event.finalEnsure), finalEnsure);
        QCOMPARE(again.runner.pending().size(), std::size_t(0));
    }

    void status()
    {
        PackageHarness harness;
        harness.runner.expect(dpkgStatusArgv("zsh"), dpkgAnswer(QStringLiteral("installed")));
        const ApplyOutcome outcome = harness.apply("zsh", Json {{"ensure", "present"}}, false);
        QCOMPARE(outcome.error(), QString());
        const Json expected = Json::parse(R"({"ensure": "5.9-4+b15", "metadata": {"name": "zsh",
            "version": "5.9-4+b15", "arch": "amd64", "provider": "apt", "extended": {"status": "installed"}}})");
        QCOMPARE(q(outcome.event.status.dump()), q(expected.dump()));

        PackageHarness absent;
        absent.runner.expect(dpkgStatusArgv("zsh"), dpkgAnswer(QStringLiteral("absent")));
        const ApplyOutcome gone = absent.apply("zsh", Json {{"ensure", "absent"}}, false);
        QCOMPARE(gone.error(), QString());
        const Json none = Json::parse(R"({"ensure": "absent", "metadata": {"name": "zsh", "version": null,
            "arch": null, "provider": "apt", "extended": {}}})");
        QCOMPARE(q(gone.event.status.dump()), q(none.dump()));
    }

    void notAchieved_data()
    {
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("message");
        QTest::newRow("still old version")
            << QStringLiteral("5.9-9") << QStringLiteral("installed")
            << kInstallLine + QStringLiteral("--allow-downgrades zsh=5.9-9") << QStringLiteral("installed")
            << QStringLiteral("desired state not achieved: package zsh is at version 5.9-4+b15, not 5.9-9");
        QTest::newRow("not installed") << QStringLiteral("present") << QStringLiteral("absent")
                                       << kInstallLine + QStringLiteral("zsh")
                                       << QStringLiteral("zsh 5.9-4+b15 amd64 half-configured")
                                       << QStringLiteral("desired state not achieved: package zsh is not installed");
        QTest::newRow("still installed")
            << QStringLiteral("absent") << QStringLiteral("installed") << QStringLiteral("apt-get -q -y remove zsh")
            << QStringLiteral("installed")
            << QStringLiteral("desired state not achieved: package zsh is still installed (version 5.9-4+b15)");
    }

    void notAchieved()
    {
        QFETCH(QString, ensure);
        QFETCH(QString, before);
        QFETCH(QString, command);
        QFETCH(QString, after);
        QFETCH(QString, message);
        PackageHarness harness;
        harness.runner.expect(dpkgStatusArgv("zsh"), dpkgAnswer(before));
        harness.runner.expect(words(command), exited(0));
        harness.runner.expect(dpkgStatusArgv("zsh"), dpkgAnswer(after));
        const ApplyOutcome outcome = harness.apply("zsh", Json {{"ensure", ensure.toStdString()}}, false);
        QCOMPARE(outcome.error(), message);
        QCOMPARE(harness.runner.pending().size(), std::size_t(0));
    }

    void providerFailure_data()
    {
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("message");
        QTest::newRow("install fails") << QStringLiteral("present") << QStringLiteral("absent")
                                       << kInstallLine
                + QStringLiteral(
                    "nonexistent-pkg failed with exit code 100: E: Unable to locate package nonexistent-pkg");
        QTest::newRow("remove fails") << QStringLiteral("absent")
                                      << QStringLiteral("nonexistent-pkg 1.0 amd64 installed")
                                      << QStringLiteral(
                                             "apt-get -q -y remove nonexistent-pkg failed with exit code 100: E: "
                                             "Unable to locate package nonexistent-pkg");
        QTest::newRow("no candidate") << QStringLiteral("latest") << QStringLiteral("absent")
                                      << QStringLiteral("no version of package nonexistent-pkg is available to install "
                                                        "(apt-cache policy nonexistent-pkg shows no candidate)");
    }

    void providerFailure()
    {
        QFETCH(QString, ensure);
        QFETCH(QString, before);
        QFETCH(QString, message);
        const std::string name = "nonexistent-pkg";
        const auto recorded = [](const char *out, const char *err) {
            return RecordingRunner::fromFile((kAptRecordings + QString::fromLatin1(out)).toStdString(), 100,
                (kAptRecordings + QString::fromLatin1(err)).toStdString());
        };
        PackageHarness harness;
        harness.runner.expect(dpkgStatusArgv(name), dpkgAnswer(before));
        harness.runner.expect(words(kInstallLine + QStringLiteral("nonexistent-pkg")),
            recorded("apt_get_install_fail_stdout.txt", "apt_get_install_fail_stderr.txt"));
        harness.runner.expect(words(QStringLiteral("apt-get -q -y remove nonexistent-pkg")),
            recorded("apt_get_remove_fail_stdout.txt", "apt_get_remove_fail_stderr.txt"));
        harness.runner.expect(words(QStringLiteral("apt-cache policy nonexistent-pkg")),
            RecordingRunner::fromFile((kAptRecordings + QStringLiteral("apt_cache_policy_absent.txt")).toStdString()));
        const ApplyOutcome outcome = harness.apply(name, Json {{"ensure", ensure.toStdString()}}, false);
        QCOMPARE(outcome.error(), message);
        QCOMPARE(outcome.event.changed, false);
    }

    void invalidProperties_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("message");
        const QString allowed = QStringLiteral("; allowed are letters, digits and . _ + : ~ -");
        QTest::newRow("semicolon") << QStringLiteral("zsh;reboot") << QStringLiteral(R"({"ensure": "present"})")
                                   << QStringLiteral("package name 'zsh;reboot' contains ';'") + allowed;
        QTest::newRow("space") << QStringLiteral("zsh vim") << QStringLiteral(R"({"ensure": "present"})")
                               << QStringLiteral("package name 'zsh vim' contains a space") + allowed;
        QTest::newRow("slash") << QStringLiteral("../zsh") << QStringLiteral(R"({"ensure": "present"})")
                               << QStringLiteral("package name '../zsh' contains '/'") + allowed;
        QTest::newRow("option") << QStringLiteral("-oAPT::Get=x") << QStringLiteral(R"({"ensure": "present"})")
                                << QStringLiteral("package name '-oAPT::Get=x' contains '='") + allowed;
        QTest::newRow("leading hyphen") << QStringLiteral("--purge") << QStringLiteral(R"({"ensure": "present"})")
                                        << QStringLiteral("package name '--purge' must not start with '-'");
        QTest::newRow("empty name") << QString() << QStringLiteral(R"({"ensure": "present"})")
                                    << QStringLiteral("package name is empty");
        QTest::newRow("version with backtick") << QStringLiteral("zsh") << QStringLiteral(R"({"ensure": "1.0`id`"})")
                                               << QStringLiteral("version '1.0`id`' contains '`'") + allowed;
        QTest::newRow("version with dollar") << QStringLiteral("zsh") << QStringLiteral(R"j({"ensure": "$(id)"})j")
                                             << QStringLiteral("version '$(id)' contains '$'") + allowed;
        QTest::newRow("empty ensure") << QStringLiteral("zsh") << QStringLiteral(R"({"ensure": ""})")
                                      << QStringLiteral("ensure must be present, absent, latest or a version");
        QTest::newRow("no ensure") << QStringLiteral("zsh") << QStringLiteral("{}")
                                   << QStringLiteral("ensure is required (present, absent, latest or a version)");
        QTest::newRow("number ensure") << QStringLiteral("zsh") << QStringLiteral(R"({"ensure": 5})")
                                       << QStringLiteral("ensure must be a string, not number");
        QTest::newRow("not a map") << QStringLiteral("zsh") << QStringLiteral("[]")
                                   << QStringLiteral("package properties must be a map, not array");
    }

    void invalidProperties()
    {
        QFETCH(QString, name);
        QFETCH(QString, properties);
        QFETCH(QString, message);
        PackageHarness harness;
        const ApplyOutcome outcome = harness.apply(name.toStdString(), Json::parse(properties.toStdString()), false);
        QCOMPARE(outcome.error(), message);
        QVERIFY(harness.runner.commands().empty());
    }

    void versionInvalidForProvider()
    {
        PackageHarness harness;
        harness.runner.expect(dpkgStatusArgv("zsh"), dpkgAnswer(QStringLiteral("installed")));
        const ApplyOutcome outcome = harness.apply("zsh", Json {{"ensure", ":1.0"}}, false);
        QCOMPARE(
            outcome.error(), QStringLiteral("version ':1.0' is not a Debian version: the epoch before ':' is empty"));
        QCOMPARE(harness.actions(), QStringList());
    }
};

CCM_TEST_GUILESS_MAIN(TestPackageType)
#include "tst_package_type.moc"
