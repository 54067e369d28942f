// SPDX-License-Identifier: Apache-2.0
#include "exec_test_support.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

class TestExecType : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void decisionTable_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::addColumn<int>("onlyIf"); // the guard's exit code, -1 for no guard
        QTest::addColumn<int>("unless");
        QTest::addColumn<QString>("creates"); // "", "missing", "exists", "dangling"
        QTest::addColumn<QString>("refreshOnly"); // the spelling used, "" for none
        QTest::addColumn<bool>("refresh");
        QTest::addColumn<bool>("runs");
        struct Row {
            const char *name;
            int onlyIf;
            int unless;
            const char *creates;
            const char *refreshOnly;
            bool refresh;
            bool runs;
        };
        const Row rows[] = {
            {"no guards", -1, -1, "", "", false, true},
            {"creates missing", -1, -1, "missing", "", false, true},
            {"creates exists, guards would allow", 0, 1, "exists", "", false, false},
            {"creates exists, guards would refuse", 1, 0, "exists", "", false, false},
            {"creates is a dangling link", -1, -1, "dangling", "", false, false},
            {"onlyif exits 0", 0, -1, "", "", false, true},
            {"onlyif exits non-zero", 3, -1, "", "", false, false},
            {"unless exits 0", -1, 0, "", "", false, false},
            {"unless exits non-zero", -1, 1, "", "", false, true},
            {"onlyif 0 and unless 0", 0, 0, "", "", false, false},
            {"onlyif 0 and unless non-zero", 0, 2, "", "", false, true},
            {"onlyif non-zero and unless non-zero", 1, 1, "", "", false, false},
            {"creates missing and onlyif non-zero", 1, -1, "missing", "", false, false},
            {"refreshonly without refresh", -1, -1, "", "refreshonly", false, false},
            {"refresh_only without refresh", -1, -1, "", "refresh_only", false, false},
            {"refreshonly, guards allow, no refresh", 0, 1, "missing", "refreshonly", false, false},
            {"refresh", -1, -1, "", "", true, true},
            {"refresh with creates existing", -1, -1, "exists", "", true, true},
            {"refresh with onlyif non-zero", 1, -1, "", "", true, true},
            {"refresh with unless 0", -1, 0, "", "", true, true},
            {"refresh with refreshonly", -1, -1, "", "refreshonly", true, true},
            {"refresh with refresh_only", -1, -1, "", "refresh_only", true, true},
        };
        for (const bool noop : {false, true}) {
            for (const Row &row : rows) {
                QTest::addRow("%s (%s)", row.name, noop ? "noop" : "real")
                    << noop << row.onlyIf << row.unless << QString::fromLatin1(row.creates)
                    << QString::fromLatin1(row.refreshOnly) << row.refresh << row.runs;
            }
        }
    }

    void decisionTable()
    {
        QFETCH(bool, noop);
        QFETCH(int, onlyIf);
        QFETCH(int, unless);
        QFETCH(QString, creates);
        QFETCH(QString, refreshOnly);
        QFETCH(bool, refresh);
        QFETCH(bool, runs);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        harness.noop = noop;
        harness.refresh = refresh;

        Json properties {{"command", script("echo ran >> command-ran")}};
        if (onlyIf >= 0)
            properties["onlyif"] = script("echo ran >> onlyif-ran; exit " + std::to_string(onlyIf));
        if (unless >= 0)
            properties["unless"] = script("echo ran >> unless-ran; exit " + std::to_string(unless));
        if (!creates.isEmpty())
            properties["creates"] = harness.path(QStringLiteral("made"));
        if (creates == QLatin1String("exists"))
            QVERIFY(writeFile(q(harness.path(QStringLiteral("made"))), "made before"));
        if (creates == QLatin1String("dangling"))
            QCOMPARE(::symlink("nowhere", harness.path(QStringLiteral("made")).c_str()), 0);
        if (!refreshOnly.isEmpty())
            properties[refreshOnly.toStdString()] = true;

        const ApplyOutcome outcome = harness.apply("decide", properties);
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));

        const bool createsSatisfied = creates == QLatin1String("exists") || creates == QLatin1String("dangling");
        const bool guardsRun = !createsSatisfied;
        QCOMPARE(harness.exists(QStringLiteral("command-ran")), runs && !noop);
        if (runs && !noop)
            QCOMPARE(harness.read(QStringLiteral("command-ran")), QByteArray("ran\n"));
        // Guards run in noop mode too, but never when creates already exists.
        QCOMPARE(harness.exists(QStringLiteral("onlyif-ran")), onlyIf >= 0 && guardsRun);
        QCOMPARE(harness.exists(QStringLiteral("unless-ran")), unless >= 0 && guardsRun);

        QCOMPARE(outcome.event.changed, runs);
        QCOMPARE(outcome.event.refreshed, runs && refresh);
        const QString noopMessage = !noop || !runs ? QString()
            : refresh ? QStringLiteral("would refresh: subscribed to file#/etc/app.conf, which would change")
                      : QStringLiteral("Would have executed");
        QCOMPARE(q(outcome.event.noopMessage), noopMessage);
        QCOMPARE(q(outcome.event.finalEnsure), QStringLiteral("present"));
        const auto guard
            = [&](int code) { return code >= 0 && guardsRun ? std::optional<bool>(code == 0) : std::nullopt; };
        QCOMPARE(dump(outcome.event.status),
            dump(status(
                runs && !noop ? std::optional<int>(0) : std::nullopt, createsSatisfied, guard(onlyIf), guard(unless))));
    }

    void secondApplyIsStable_data()
    {
        QTest::addColumn<Json>("properties");
        QTest::newRow("creates made by the command")
            << Json {{"command", script("echo ran >> command-ran; touch made")}, {"creates", "made"}};
        QTest::newRow("unless testing what the command made")
            << Json {{"command", script("echo ran >> command-ran; touch made")}, {"unless", "/usr/bin/test -e made"}};
        QTest::newRow("onlyif testing what the command removes") << Json {
            {"command", script("echo ran >> command-ran; rm pending")}, {"onlyif", "/usr/bin/test -e pending"}};
    }

    void secondApplyIsStable()
    {
        QFETCH(Json, properties);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QVERIFY(writeFile(q(harness.path(QStringLiteral("pending"))), "x"));
        // A relative creates is taken from the manifest's directory.
        harness.workingDirectory = harness.root();

        const ApplyOutcome first = harness.apply("twice", properties);
        QVERIFY2(first.result.ok(), qPrintable(first.error()));
        QVERIFY(first.event.changed);
        const ApplyOutcome second = harness.apply("twice", properties);
        QVERIFY2(second.result.ok(), qPrintable(second.error()));
        QVERIFY(!second.event.changed);
        QCOMPARE(harness.read(QStringLiteral("command-ran")), QByteArray("ran\n"));
    }

    void exitCodes_data()
    {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<Json>("returns");
        QTest::addColumn<QString>("error");
        QTest::newRow("0, default") << 0 << Json() << QString();
        QTest::newRow("1, default")
            << 1 << Json()
            << QStringLiteral("desired state not achieved: command exited with code 1 (expected one of 0)");
        QTest::newRow("empty list means 0") << 0 << Json::array() << QString();
        QTest::newRow("2 in [0, 2]") << 2 << Json {0, 2} << QString();
        QTest::newRow("3 not in [0, 2]")
            << 3 << Json {0, 2}
            << QStringLiteral("desired state not achieved: command exited with code 3 (expected one of 0, 2)");
        QTest::newRow("0 not in [1]")
            << 0 << Json {1}
            << QStringLiteral("desired state not achieved: command exited with code 0 (expected one of 1)");
        QTest::newRow("templated codes are text") << 7 << Json {"0", " 7 "} << QString();
        QTest::newRow("255") << 255 << Json {255} << QString();
    }

    void exitCodes()
    {
        QFETCH(int, exitCode);
        QFETCH(Json, returns);
        QFETCH(QString, error);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        Json properties {{"command", script("exit " + std::to_string(exitCode))}};
        if (!returns.is_null())
            properties["returns"] = returns;

        const ApplyOutcome outcome = harness.apply("exits", properties);
        QCOMPARE(outcome.error(), error);
        // It ran either way: that is a change, and the event says how it ended.
        QVERIFY(outcome.event.changed);
        QCOMPARE(dump(outcome.event.status), dump(status(exitCode, false, std::nullopt, std::nullopt)));
    }

    void failureShowsStderrTail_data()
    {
        QTest::addColumn<std::string>("stderr");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("nothing") << std::string() << QString();
        QTest::newRow("one line") << std::string("printf \"no space left\\n\" >&2")
                                  << QStringLiteral("; stderr: no space left");
        QTest::newRow("last five of seven lines")
            << std::string("for i in 1 2 3 4 5 6 7; do echo \"line $i\" >&2; done")
            << QStringLiteral("; stderr: line 3 | line 4 | line 5 | line 6 | line 7");
        QTest::newRow("blank lines skipped")
            << std::string("printf \"first\\n\\n   \\nlast\\n\\n\" >&2") << QStringLiteral("; stderr: first | last");
        QTest::newRow("long output cut to its end")
            << std::string("head -c 2000 /dev/zero | tr \"\\0\" a >&2; echo >&2; echo end >&2")
            << QStringLiteral("; stderr: ...") + QString(506, QLatin1Char('a')) + QStringLiteral(" | end");
    }

    void failureShowsStderrTail()
    {
        QFETCH(std::string, stderr);
        QFETCH(QString, suffix);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        Json properties {{"command", "/bin/sh -c '" + stderr + "\nexit 4'"}};
        const ApplyOutcome outcome = harness.apply("fails", properties);
        QCOMPARE(outcome.error(),
            QStringLiteral("desired state not achieved: command exited with code 4 (expected one of 0)") + suffix);
    }

    void createsMadeDespiteFailureIsDesired()
    {
        // The seed's isDesiredState: an existing creates file wins over the exit code.
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply("partial",
            Json {{"command", script("touch made; exit 3")}, {"creates", harness.path(QStringLiteral("made"))}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QVERIFY(outcome.event.changed);
        QCOMPARE(dump(outcome.event.status), dump(status(3, true, std::nullopt, std::nullopt)));
    }

    void createsUnderAFileIsMissing()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QVERIFY(writeFile(q(harness.path(QStringLiteral("plain"))), "x"));
        const ApplyOutcome outcome = harness.apply("under",
            Json {{"command", script("echo ran > command-ran")},
                {"creates", harness.path(QStringLiteral("plain/made"))}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QVERIFY(harness.exists(QStringLiteral("command-ran")));
    }

    void createsThatCannotBeCheckedFails()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const std::string creates = harness.path(QString(300, QLatin1Char('n')));
        const ApplyOutcome outcome
            = harness.apply("long", Json {{"command", script("echo ran > command-ran")}, {"creates", creates}});
        QCOMPARE(outcome.error(), QStringLiteral("cannot check creates %1: File name too long").arg(q(creates)));
        QVERIFY(!harness.exists(QStringLiteral("command-ran")));
    }

    void killedBySignal()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply("killed", Json {{"command", script("kill -KILL $$")}});
        QCOMPARE(
            outcome.error(), QStringLiteral("desired state not achieved: command was killed by signal 9 (SIGKILL)"));
        QCOMPARE(dump(outcome.event.status), dump(status(-1, false, std::nullopt, std::nullopt)));
    }

    void timeoutStopsTheCommand()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QElapsedTimer timer;
        timer.start();
        const ApplyOutcome outcome = harness.apply("slow", Json {{"command", "sleep 30"}, {"timeout", "1s"}});
        QCOMPARE(outcome.error(), QStringLiteral("command timed out after 1s"));
        QVERIFY(outcome.event.changed);
        QVERIFY(timer.elapsed() >= 1000);
        QVERIFY(timer.elapsed() < 10000);
    }

    void timeoutKillsBackgroundedGrandchildren()
    {
        // Adopting orphans lets the test reap the grandchild even where the container has no init.
        QCOMPARE(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
        const auto restore = qScopeGuard([] { ::prctl(PR_SET_CHILD_SUBREAPER, 0); });
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QElapsedTimer timer;
        timer.start();
        const ApplyOutcome outcome = harness.apply(
            "background", Json {{"command", "sleep 30 & echo $! > pid; wait"}, {"timeout", "1s"}}, Kind::Shell);
        QCOMPARE(outcome.error(), QStringLiteral("command timed out after 1s"));
        QVERIFY(timer.elapsed() < 10000);
        bool parsed = false;
        const pid_t grandchild = harness.read(QStringLiteral("pid")).trimmed().toInt(&parsed);
        QVERIFY(parsed);
        QVERIFY(processGone(grandchild));
    }

    void guardFailures_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::addColumn<Json>("properties");
        QTest::addColumn<QString>("error");
        for (const bool noop : {false, true}) {
            const char *mode = noop ? "noop" : "real";
            QTest::addRow("onlyif cannot start (%s)", mode)
                << noop << Json {{"onlyif", "/nonexistent/guard"}}
                << QStringLiteral("onlyif: command not found: /nonexistent/guard");
            QTest::addRow("unless not found in path (%s)", mode)
                << noop << Json {{"unless", "no-such-guard-program"}}
                << QStringLiteral("unless: command not found: no-such-guard-program (searched PATH=%1)")
                       .arg(QString::fromLatin1(ProcessRunner::kPath));
            QTest::addRow("onlyif timed out (%s)", mode) << noop << Json {{"onlyif", "sleep 30"}, {"timeout", "1s"}}
                                                         << QStringLiteral("onlyif: guard command timed out after 1s");
            QTest::addRow("onlyif with bad quoting (%s)", mode)
                << noop << Json {{"onlyif", "test -f 'unclosed"}}
                << QStringLiteral("onlyif: invalid guard command: unterminated single quote at column 9");
            QTest::addRow("blank unless (%s)", mode)
                << noop << Json {{"unless", "  "}} << QStringLiteral("unless: empty guard command");
        }
    }

    void guardFailures()
    {
        QFETCH(bool, noop);
        QFETCH(Json, properties);
        QFETCH(QString, error);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        harness.noop = noop;
        properties["command"] = script("echo ran >> command-ran");
        const ApplyOutcome outcome = harness.apply("guarded", properties);
        QCOMPARE(outcome.error(), error);
        QVERIFY(!harness.exists(QStringLiteral("command-ran")));
        QVERIFY(!outcome.event.changed);
    }

    void guardKilledBySignalIsNotSatisfied()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply(
            "guarded", Json {{"command", script("echo ran > command-ran")}, {"onlyif", script("kill -KILL $$")}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QVERIFY(!outcome.event.changed);
        QVERIFY(!harness.exists(QStringLiteral("command-ran")));
        QCOMPARE(dump(outcome.event.status), dump(status(std::nullopt, false, false, std::nullopt)));
    }

    void guardsAndCommandRunAsThePeerForReal()
    {
        if (::geteuid() != 0)
            QSKIP("switching users needs root");
        ExecHarness harness;
        QVERIFY(harness.isValid());
        harness.identity = Credentials {4242, 4343, {4444}};
        // The peer cannot enter the temporary directory, so everything runs in /; the command
        // fails unless it too runs as the peer.
        const std::string asPeer = script("test \"$(id -u):$(id -g):$(id -G)\" = \"4242:4343:4343 4444\"");
        const ApplyOutcome outcome = harness.apply(
            "as peer", Json {{"command", asPeer}, {"cwd", "/"}, {"onlyif", asPeer}, {"unless", "false"}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QVERIFY(outcome.event.changed);
        QVERIFY(!outcome.event.failed);
    }

    void guardsShareCwdEnvironmentAndPath()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QVERIFY(QDir(q(harness.root())).mkpath(QStringLiteral("sub/bin")));
        QVERIFY(writeFile(
            q(harness.path(QStringLiteral("sub/bin/check-it"))), "#!/bin/sh\necho \"$(pwd) $FLAVOUR\" > guard-saw\n"));
        QVERIFY(QFile::setPermissions(
            q(harness.path(QStringLiteral("sub/bin/check-it"))), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        const ApplyOutcome outcome = harness.apply("guarded",
            Json {{"command", script("echo ran > command-ran")}, {"cwd", harness.path(QStringLiteral("sub"))},
                {"environment", {"FLAVOUR=salty"}},
                {"path", harness.path(QStringLiteral("sub/bin")) + ":/usr/bin:/bin"}, {"onlyif", "check-it"}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QCOMPARE(harness.read(QStringLiteral("sub/guard-saw")),
            QByteArray::fromStdString(harness.path(QStringLiteral("sub")) + " salty\n"));
        QVERIFY(harness.exists(QStringLiteral("sub/command-ran")));
    }
};

CCM_TEST_GUILESS_MAIN(TestExecType)
#include "tst_exec_type.moc"
