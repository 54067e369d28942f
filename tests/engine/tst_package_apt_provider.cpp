// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/apt/apt_package_provider.h"
#include "engine_test_support.h"
#include "package_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <future>
#include <sys/stat.h>
#include <utility>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

const std::vector<std::string> kInstall = {"apt-get", "install", "-y", "-q", "-o", "DPkg::Options::=--force-confold"};

std::vector<std::string> install(std::vector<std::string> tail)
{
    std::vector<std::string> argv = kInstall;
    argv.insert(argv.end(), tail.begin(), tail.end());
    return argv;
}

} // namespace

class TestPackageAptProvider : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void status_data()
    {
        QTest::addColumn<QString>("package");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("dpkgStatus");
        QTest::newRow("installed") << QStringLiteral("zsh") << 0
                                   << q(aptRecorded(QStringLiteral("dpkg_query_installed.txt")))
                                   << QStringLiteral("5.9-4+b15") << QStringLiteral("amd64")
                                   << QStringLiteral("installed");
        QTest::newRow("epoch") << QStringLiteral("bsdutils") << 0
                               << q(aptRecorded(QStringLiteral("dpkg_query_epoch.txt")))
                               << QStringLiteral("1:2.38.1-5+deb12u3") << QStringLiteral("amd64")
                               << QStringLiteral("installed");
        QTest::newRow("unknown package") << QStringLiteral("nonexistent-pkg") << 1 << QString()
                                         << QStringLiteral("absent") << QString() << QString();
        for (const char *state :
            {"config-files", "half-installed", "half-configured", "unpacked", "triggers-awaited"}) {
            QTest::newRow(state) << QStringLiteral("zsh") << 0
                                 << QStringLiteral("zsh 5.9-4+b15 amd64 ") + QString::fromLatin1(state)
                                 << QStringLiteral("absent") << QString() << QString::fromLatin1(state);
        }
        QTest::newRow("not-installed, no version")
            << QStringLiteral("hello") << 0 << QStringLiteral("hello   not-installed\n") << QStringLiteral("absent")
            << QString() << QStringLiteral("not-installed");
        QTest::newRow("multiarch, second installed")
            << QStringLiteral("libc6") << 0
            << QStringLiteral("libc6 2.36-9 i386 config-files\nlibc6 2.36-9 amd64 installed\n")
            << QStringLiteral("2.36-9") << QStringLiteral("amd64") << QStringLiteral("installed");
    }

    void status()
    {
        QFETCH(QString, package);
        QFETCH(int, exitCode);
        QFETCH(QString, output);
        QFETCH(QString, ensure);
        QFETCH(QString, arch);
        QFETCH(QString, dpkgStatus);
        RecordingRunner runner;
        const std::string name = package.toStdString();
        runner.expect(dpkgStatusArgv(name),
            exitCode == 1 ? exited(1, {}, aptRecorded(QStringLiteral("dpkg_query_absent.txt")))
                          : exited(exitCode, output.toStdString()));
        AptPackageProvider provider(runner);
        const auto state = provider.status(name);
        QVERIFY2(state.ok(), state ? "" : state.error().message.c_str());
        QCOMPARE(q(state->ensure()), ensure);
        QCOMPARE(q(state->arch), arch);
        QCOMPARE(q(state->extended.value("status", std::string())), dpkgStatus);
        QCOMPARE(runner.commands().front().environment, AptPackageProvider::environment());
    }

    void statusFailure_data()
    {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("message");
        const QString command
            = QStringLiteral("dpkg-query -W '-f=${Package} ${Version} ${Architecture} ${db:Status-Status}\\n' zsh");
        QTest::newRow("database error") << 2 << QStringLiteral("dpkg-query: error: parsing file '/var/lib/dpkg/status'")
                                        << command
                + QStringLiteral(" failed with exit code 2: dpkg-query: error: parsing "
                                 "file '/var/lib/dpkg/status'");
        QTest::newRow("garbage") << 0 << QStringLiteral("nonsense")
                                 << command
                + QStringLiteral(" gave output that is not package, version, architecture and status: 'nonsense'");
    }

    void statusFailure()
    {
        QFETCH(int, exitCode);
        QFETCH(QString, output);
        QFETCH(QString, message);
        RecordingRunner runner;
        runner.expect(dpkgStatusArgv("zsh"),
            exitCode == 0 ? exited(0, output.toStdString()) : exited(exitCode, {}, output.toStdString()));
        AptPackageProvider provider(runner);
        const auto state = provider.status("zsh");
        QVERIFY(!state.ok());
        QCOMPARE(q(state.error().message), message);
    }

    void candidate_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("candidate"); // empty: none
        QTest::newRow("recorded") << q(aptRecorded(QStringLiteral("apt_cache_policy.txt")))
                                  << QStringLiteral("5.9-4+b15");
        QTest::newRow("unknown package") << q(aptRecorded(QStringLiteral("apt_cache_policy_absent.txt"))) << QString();
        QTest::newRow("none") << QStringLiteral("zsh:\n  Installed: (none)\n  Candidate: (none)\n  Version table:\n")
                              << QString();
        QTest::newRow("not installed") << QStringLiteral("hello:\n  Installed: (none)\n  Candidate: 2.10-3\n")
                                       << QStringLiteral("2.10-3");
    }

    void candidate()
    {
        QFETCH(QString, output);
        QFETCH(QString, candidate);
        RecordingRunner runner;
        runner.expect({"apt-cache", "policy", "zsh"}, exited(0, output.toStdString()));
        AptPackageProvider provider(runner);
        const auto found = provider.candidateVersion("zsh");
        if (candidate.isEmpty()) {
            QVERIFY(!found.ok());
            QCOMPARE(q(found.error().message),
                QStringLiteral(
                    "no version of package zsh is available to install (apt-cache policy zsh shows no candidate)"));
        } else {
            QVERIFY(found.ok());
            QCOMPARE(q(*found), candidate);
        }
    }

    void mutatingCommands_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QStringList>("argv");
        const auto list = [](std::vector<std::string> argv) {
            QStringList words;
            for (const std::string &word : argv)
                words << q(word);
            return words;
        };
        QTest::newRow("install present") << QStringLiteral("install") << QStringLiteral("present")
                                         << list(install({"zsh"}));
        QTest::newRow("install latest") << QStringLiteral("install") << QStringLiteral("latest")
                                        << list(install({"zsh=5.9-4+b15"}));
        QTest::newRow("install version") << QStringLiteral("install") << QStringLiteral("5.9-8")
                                         << list(install({"--allow-downgrades", "zsh=5.9-8"}));
        QTest::newRow("upgrade latest") << QStringLiteral("upgrade") << QStringLiteral("latest")
                                        << list(install({"zsh=5.9-4+b15"}));
        QTest::newRow("upgrade version") << QStringLiteral("upgrade") << QStringLiteral("5.9-9")
                                         << list(install({"--allow-downgrades", "zsh=5.9-9"}));
        QTest::newRow("downgrade version") << QStringLiteral("downgrade") << QStringLiteral("1:5.0")
                                           << list(install({"--allow-downgrades", "zsh=1:5.0"}));
        QTest::newRow("uninstall") << QStringLiteral("uninstall") << QString()
                                   << QStringList {QStringLiteral("apt-get"), QStringLiteral("-q"),
                                          QStringLiteral("-y"), QStringLiteral("remove"), QStringLiteral("zsh")};
    }

    void mutatingCommands()
    {
        QFETCH(QString, operation);
        QFETCH(QString, version);
        QFETCH(QStringList, argv);
        // Every command is answered with exit 0, apt-cache with recorded output.
        LockProbe probe([](const Command &command) {
            return command.argv.front() == "apt-cache" ? exited(0, aptRecorded(QStringLiteral("apt_cache_policy.txt")))
                                                       : exited(0);
        });
        AptPackageProvider provider(probe);
        const std::string v = version.toStdString();
        Result<void> done;
        if (operation == QLatin1String("install"))
            done = provider.install("zsh", v);
        else if (operation == QLatin1String("upgrade"))
            done = provider.upgrade("zsh", v);
        else if (operation == QLatin1String("downgrade"))
            done = provider.downgrade("zsh", v);
        else
            done = provider.uninstall("zsh");
        QVERIFY(done.ok());
        QStringList last;
        for (const std::string &word : probe.commands.back())
            last << q(word);
        QCOMPARE(last, argv);
        // Every command, apt-cache included, ran while the lock was held.
        for (bool free : probe.lockFree)
            QVERIFY(!free);
        QVERIFY(packageLock().try_lock());
        packageLock().unlock();
    }

    void environment()
    {
        const std::vector<std::string> expected
            = {"DEBIAN_FRONTEND=noninteractive", "APT_LISTBUGS_FRONTEND=none", "APT_LISTCHANGES_FRONTEND=none"};
        QVERIFY(AptPackageProvider::environment() == expected);
        RecordingRunner runner;
        runner.expect(install({"zsh"}), exited(0));
        AptPackageProvider provider(runner);
        QVERIFY(provider.install("zsh", "present").ok());
        QVERIFY(runner.commands().front().environment == expected);
    }

    void compareVersions()
    {
        RecordingRunner runner;
        AptPackageProvider provider(runner);
        QCOMPARE(*provider.compareVersions("2.9-1", "2.10-3", false), -1);
        QCOMPARE(*provider.compareVersions("1.0~rc1", "1.0", false), -1);
        QCOMPARE(*provider.compareVersions("1:1.0", "2.0", false), 1);
        QVERIFY(!provider.compareVersions("a:1", "1", false).ok());
    }

    void factory_data()
    {
        QTest::addColumn<QStringList>("programs");
        QTest::addColumn<QString>("reason");
        QTest::newRow("both") << QStringList {QStringLiteral("apt-get"), QStringLiteral("dpkg-query")} << QString();
        QTest::newRow("no apt-get") << QStringList {QStringLiteral("dpkg-query")}
                                    << QStringLiteral("apt-get is not in PATH");
        QTest::newRow("no dpkg-query") << QStringList {QStringLiteral("apt-get")}
                                       << QStringLiteral("dpkg-query is not in PATH");
        QTest::newRow("neither") << QStringList() << QStringLiteral("apt-get and dpkg-query are not in PATH");
    }

    void factory()
    {
        QFETCH(QStringList, programs);
        QFETCH(QString, reason);
        QTemporaryDir bin;
        QTemporaryDir other;
        QVERIFY(bin.isValid() && other.isValid());
        for (const QString &program : programs) {
            QVERIFY(writeFile(bin.filePath(program), "#!/bin/sh\n"));
            QVERIFY(::chmod(bin.filePath(program).toLocal8Bit().constData(), 0755) == 0);
        }
        // A directory or a file without the execute bit is not a program.
        QVERIFY(QDir(other.path()).mkdir(QStringLiteral("apt-get")));
        QVERIFY(writeFile(other.filePath(QStringLiteral("dpkg-query")), "#!/bin/sh\n"));
        const std::string path = other.path().toStdString() + ":" + bin.path().toStdString();
        AptPackageProviderFactory factory(path);
        const auto manageable = factory.manageable(Json::object(), LazyFacts());
        QVERIFY(manageable.ok());
        QCOMPARE(manageable->has_value(), reason.isEmpty());
        if (reason.isEmpty()) {
            QCOMPARE(**manageable, 1);
            QCOMPARE(q(factory.unavailableReason()), QString());
        } else {
            QCOMPARE(q(factory.unavailableReason()), reason + QStringLiteral(" (") + q(path) + QStringLiteral(")"));
        }
        QCOMPARE(q(std::string(factory.typeName())), QStringLiteral("package"));
        RecordingRunner runner;
        QCOMPARE(q(std::string(factory.create(runner)->name())), QStringLiteral("apt"));
    }
};

CCM_TEST_GUILESS_MAIN(TestPackageAptProvider)
#include "tst_package_apt_provider.moc"
