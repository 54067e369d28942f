// SPDX-License-Identifier: Apache-2.0
#include "command_test_support.h"
#include "recording_runner.h"
#include "test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <vector>

using namespace ccm;
using namespace ccm::test;
using namespace std::chrono_literals;

class TestRecordingRunner : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string inDir(const char *name) const { return (m_dir.path() + QLatin1Char('/')).toStdString() + name; }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void replay()
    {
        RecordingRunner runner;
        CommandResult absent;
        absent.exitCode = 1;
        CommandResult installed;
        installed.stdoutText = "install ok installed\n";
        runner.expect({"dpkg-query", "-W", "nginx"}, absent);
        runner.expect({"apt-get", "install", "-y", "nginx"}, CommandResult {});
        runner.expect({"dpkg-query", "-W", "nginx"}, installed);
        runner.expect({"missing-tool"}, Error {"command_not_found", "command not found: missing-tool"});
        QCOMPARE(runner.pending().size(), std::size_t(4));

        Command query = commandOf({"dpkg-query", "-W", "nginx"});
        Command install = commandOf({"apt-get", "install", "-y", "nginx"});
        install.environment = {"DEBIAN_FRONTEND=noninteractive"};
        install.timeout = 600s;
        const auto first = runner.run(query);
        QVERIFY(first.ok());
        QCOMPARE(first->exitCode, 1);
        const auto second = runner.run(install);
        QVERIFY(second.ok());
        QCOMPARE(second->exitCode, 0);
        const auto third = runner.run(query);
        QVERIFY(third.ok());
        QCOMPARE(third->stdoutText, std::string("install ok installed\n"));
        const auto fourth = runner.run(commandOf({"missing-tool"}));
        QVERIFY(!fourth.ok());
        QCOMPARE(fourth.error().code, std::string("command_not_found"));

        QVERIFY(runner.pending().empty());
        const std::vector<Command> seen = runner.commands();
        QCOMPARE(seen.size(), std::size_t(4));
        QCOMPARE(seen[0].argv, query.argv);
        QCOMPARE(seen[1].argv, install.argv);
        QCOMPARE(seen[1].environment, install.environment);
        QCOMPARE(seen[1].timeout, 600000ms);
        QCOMPARE(seen[2].argv, query.argv);
    }

    void replayOutOfOrder()
    {
        RecordingRunner runner;
        CommandResult a;
        a.stdoutText = "a";
        CommandResult b;
        b.stdoutText = "b";
        runner.expect({"first"}, a);
        runner.expect({"second"}, b);
        const auto second = runner.run(commandOf({"second"}));
        QVERIFY(second.ok());
        QCOMPARE(second->stdoutText, std::string("b"));
        QCOMPARE(runner.pending(), std::vector<Argv> {Argv {"first"}});
    }

    void unexpectedCommand_data()
    {
        QTest::addColumn<Argv>("queued");
        QTest::addColumn<Argv>("argv");
        QTest::addColumn<QString>("message");
        QTest::newRow("nothing queued")
            << Argv {} << Argv {"systemctl", "start", "nginx"}
            << QStringLiteral("unexpected command: systemctl start nginx; no more commands were expected");
        QTest::newRow("other queued") << Argv {"systemctl", "is-active", "nginx"}
                                      << Argv {"systemctl", "start", "nginx"}
                                      << QStringLiteral("unexpected command: systemctl start nginx; still expected: "
                                                        "systemctl is-active nginx");
        QTest::newRow("differs in an argument")
            << Argv {"rpm", "-q", "zsh"} << Argv {"rpm", "-q", "zsh", "--qf", "%{V}"}
            << QStringLiteral("unexpected command: rpm -q zsh --qf '%{V}'; still expected: rpm -q zsh");
    }

    void unexpectedCommand()
    {
        QFETCH(Argv, queued);
        QFETCH(Argv, argv);
        QFETCH(QString, message);
        RecordingRunner runner;
        if (!queued.empty())
            runner.expect(queued, CommandResult {});
        const auto result = runner.run(commandOf(argv));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, std::string("unexpected_command"));
        QVERIFY2(QString::fromStdString(result.error().message).startsWith(message), result.error().message.c_str());
        QCOMPARE(runner.commands().size(), std::size_t(1));
        QCOMPARE(runner.pending().size(), queued.empty() ? std::size_t(0) : std::size_t(1));
    }

    void fromFile()
    {
        const QString dir = QStringLiteral(CCM_FIXTURES_DIR "/tool-output/apt/");
        const std::string out = (dir + QStringLiteral("apt_get_install_fail_stdout.txt")).toStdString();
        const std::string err = (dir + QStringLiteral("apt_get_install_fail_stderr.txt")).toStdString();
        QFile outFile(QString::fromStdString(out));
        QFile errFile(QString::fromStdString(err));
        QVERIFY(outFile.open(QIODevice::ReadOnly));
        QVERIFY(errFile.open(QIODevice::ReadOnly));

        const auto both = RecordingRunner::fromFile(out, 100, err);
        QVERIFY(both.ok());
        QCOMPARE(both->exitCode, 100);
        QCOMPARE(bytes(both->stdoutText), outFile.readAll());
        QCOMPARE(bytes(both->stderrText), errFile.readAll());
        QVERIFY(!both->stdoutText.empty());

        const auto onlyOut = RecordingRunner::fromFile(out);
        QVERIFY(onlyOut.ok());
        QCOMPARE(onlyOut->exitCode, 0);
        QVERIFY(onlyOut->stderrText.empty());

        const auto missing = RecordingRunner::fromFile(out, 0, inDir("no-such-output.txt"));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, std::string("io"));
        QVERIFY2(QString::fromStdString(missing.error().message)
                     .contains(QStringLiteral("no-such-output.txt: No such file")),
            missing.error().message.c_str());

        RecordingRunner runner;
        runner.expect({"apt-get", "install", "nginx"}, RecordingRunner::fromFile(inDir("no-such-output.txt"), 0));
        const auto replayed = runner.run(commandOf({"apt-get", "install", "nginx"}));
        QVERIFY(!replayed.ok());
        QCOMPARE(replayed.error().code, std::string("io"));
    }
};

CCM_TEST_GUILESS_MAIN(TestRecordingRunner)
#include "tst_recording_runner.moc"
