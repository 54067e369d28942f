// SPDX-License-Identifier: Apache-2.0
// `ccm-backend session new|report` and `ensure` within a session, as scripts run them: real
// processes, real session directories in upstream's format, many ensure calls at once.
#include "backend_process.h"
#include "test_main.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <csignal>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace ccm::test;

namespace {

/// An event as upstream's ccm writes it into a session directory (json.MarshalIndent of its
/// TransactionEvent: health check statuses as numbers, the output under "Output").
QByteArray upstreamEvent(
    const char *id, const char *time, const char *type, const char *name, const char *alias, bool changed, bool failed)
{
    QJsonObject event {{s("protocol"), s("io.choria.ccm.v1.transaction.event")}, {s("event_id"), s(id)},
        {s("timestamp"), s(time)}, {s("type"), s(type)}, {s("provider"), s("posix")}, {s("name"), s(name)},
        {s("requested_ensure"), s("present")}, {s("final_ensure"), s("present")}, {s("duration"), 1500000},
        {s("properties"), QJsonObject {{s("name"), s(name)}}}, {s("status"), QJsonValue()},
        {s("health_check"),
            QJsonArray {QJsonObject {{s("status"), failed ? 2 : 0}, {s("tries"), 1}, {s("Output"), s("checked")}}}},
        {s("error"), failed ? QJsonArray {s("exit status 1")} : QJsonArray {}}, {s("changed"), changed},
        {s("refreshed"), false}, {s("failed"), failed}, {s("skipped"), false}, {s("noop"), false},
        {s("unmet_requirements"), QJsonArray {}}};
    if (*alias)
        event.insert(s("alias"), s(alias));
    return QJsonDocument(event).toJson(QJsonDocument::Indented);
}

} // namespace

class TestSessionCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const QString &name) const { return m_dir->filePath(name); }

    QProcessEnvironment environment(const QString &session = {}) const
    {
        QProcessEnvironment env = isolatedEnvironment(*m_dir);
        for (const char *name : {"CCM_SESSION_STORE", "CCM_HIERA_DATA"})
            env.remove(s(name));
        if (!session.isEmpty())
            env.insert(s("CCM_SESSION_STORE"), session);
        return env;
    }

    BackendRun backend(const QStringList &arguments, const QProcessEnvironment &env) const
    {
        return runBackend(arguments, m_dir->path(), env);
    }

    /// A new session in the test's directory; its path.
    QString newSession(const QString &name = s("session"))
    {
        const BackendRun run = backend({s("session"), s("new"), s("--directory"), path(name)}, environment());
        if (run.exitCode != 0 || run.out != s("export CCM_SESSION_STORE=") + path(name) + s("\n"))
            qWarning("session new: %s %s", qPrintable(run.out), qPrintable(run.err));
        return path(name);
    }

    static QString describe(const BackendRun &run)
    {
        return s("exit ") + QString::number(run.exitCode) + s("\nout:\n") + run.out + s("\nerr:\n") + run.err;
    }

    /// The value of a "  Label: N" line of the session report.
    static QString reportValue(const QString &out, const char *label)
    {
        for (const QString &line : out.split(QLatin1Char('\n'))) {
            if (line.trimmed().startsWith(s(label) + s(":")))
                return line.mid(line.indexOf(QLatin1Char(':')) + 1).trimmed();
        }
        return {};
    }

    static QStringList eventFiles(const QString &session)
    {
        return QDir(session).entryList({s("*.event")}, QDir::Files | QDir::Hidden, QDir::Name);
    }

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void newCreatesAStoreWithAStartEvent()
    {
        const QString session = newSession();
        const QStringList files = eventFiles(session);
        QCOMPARE(files.size(), 1);
        QVERIFY(QRegularExpression(s("^[0-9A-Za-z]{27}\\.event$")).match(files[0]).hasMatch());
        const QJsonObject start = QJsonDocument::fromJson(readFile(session + s("/") + files[0])).object();
        QCOMPARE(start[s("protocol")].toString(), s("io.choria.ccm.v1.session.start"));
        QCOMPARE(start[s("event_id")].toString() + s(".event"), files[0]);

        BackendRun run = backend({s("session"), s("create"), s("--directory"), session}, environment());
        QVERIFY2(run.exitCode == 1 && run.err.contains(s("already exists")), qPrintable(describe(run)));
        QVERIFY(run.out.isEmpty());

        // Without --directory: a new directory in $TMPDIR, printed for eval.
        QDir(m_dir->path()).mkpath(s("tmp"));
        QProcessEnvironment env = environment();
        env.insert(s("TMPDIR"), path(s("tmp")));
        run = backend({s("session"), s("start")}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.startsWith(s("export CCM_SESSION_STORE=") + path(s("tmp/ccm-session-"))), qPrintable(run.out));
        const QString made = run.out.trimmed().mid(QStringLiteral("export CCM_SESSION_STORE=").size());
        QCOMPARE(eventFiles(made).size(), 1);
    }

    void reportCountsTheSessionsEvents()
    {
        const QString session = newSession();
        const QProcessEnvironment env = environment(session);
        QCOMPARE(backend({s("ensure"), s("file"), path(s("a"))}, env).exitCode, 0);
        QCOMPARE(backend({s("ensure"), s("file"), path(s("a"))}, env).exitCode, 0);
        QCOMPARE(backend({s("ensure"), s("exec"), s("/bin/false")}, env).exitCode, 1);
        QCOMPARE(backend({s("ensure"), s("file"), path(s("b")), s("--if"), s("false")}, env).exitCode, 0);

        const BackendRun run = backend({s("session"), s("report")}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.startsWith(s("\nSession Summary\n\n")), qPrintable(run.out));
        QVERIFY2(!reportValue(run.out, "Run Time").isEmpty(), qPrintable(run.out));
        QCOMPARE(reportValue(run.out, "Total Resources"), s("4"));
        QCOMPARE(reportValue(run.out, "Unique Resources"), s("3"));
        QCOMPARE(reportValue(run.out, "Stable Resources"), s("1"));
        QCOMPARE(reportValue(run.out, "Changed Resources"), s("1"));
        QCOMPARE(reportValue(run.out, "Failed Resources"), s("1"));
        QCOMPARE(reportValue(run.out, "Skipped Resources"), s("1"));
        QCOMPARE(reportValue(run.out, "Refreshed Resources"), s("0"));
        QCOMPARE(reportValue(run.out, "Total Errors"), s("1"));

        // --session names the store as well as $CCM_SESSION_STORE; a missing one is an error.
        const BackendRun named = backend({s("session"), s("report"), s("--session"), session}, environment());
        QCOMPARE(reportValue(named.out, "Total Resources"), s("4"));
        const BackendRun none = backend({s("session"), s("report")}, environment());
        QVERIFY2(none.exitCode == 2 && none.err.contains(s("no session store")), qPrintable(describe(none)));
        const BackendRun missing = backend({s("session"), s("report"), s("--session"), path(s("nope"))}, environment());
        QVERIFY2(missing.exitCode == 1 && missing.err.contains(s("does not exist")), qPrintable(describe(missing)));
    }

    void eventsAreWrittenInUpstreamsFormat()
    {
        const QString session = newSession();
        const BackendRun run
            = backend({s("ensure"), s("file"), path(s("a")), s("--alias"), s("motd"), s("--check"), s("/bin/echo OK")},
                environment(session));
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QJsonObject event;
        for (const QString &file : eventFiles(session)) {
            const QJsonObject object = QJsonDocument::fromJson(readFile(session + s("/") + file)).object();
            if (object[s("protocol")].toString() == s("io.choria.ccm.v1.transaction.event"))
                event = object;
        }
        QCOMPARE(event[s("type")].toString(), s("file"));
        QCOMPARE(event[s("name")].toString(), path(s("a")));
        QCOMPARE(event[s("alias")].toString(), s("motd"));
        QVERIFY(event[s("duration")].isDouble());
        QVERIFY(event[s("changed")].toBool());
        const QJsonObject check = event[s("health_check")].toArray().at(0).toObject();
        QVERIFY2(check[s("status")].isDouble() && check[s("status")].toInt() == 0,
            QJsonDocument(event).toJson().constData());
        QVERIFY(check.contains(s("Output")));
    }

    void requireFailsWhenTheRequiredResourceFailed()
    {
        const QString session = newSession();
        const QProcessEnvironment env = environment(session);
        QCOMPARE(backend({s("ensure"), s("exec"), s("/bin/false"), s("--alias"), s("setup")}, env).exitCode, 1);
        BackendRun run = backend({s("ensure"), s("file"), path(s("after")), s("--require"), s("exec#setup")}, env);
        QVERIFY2(run.exitCode == 1, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("unmet requirement")) && run.out.contains(s("exec#setup")), qPrintable(run.out));
        QVERIFY(!QFileInfo::exists(path(s("after"))));
        // A resource skipped for unmet requirements fails what requires it in turn.
        run = backend({s("ensure"), s("file"), path(s("later")), s("--require"), s("file#") + path(s("after"))}, env);
        QVERIFY2(run.exitCode == 1, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("later"))));

        // Once the requirement succeeded (its latest event), the requiring resource runs.
        QCOMPARE(backend({s("ensure"), s("exec"), s("/bin/true"), s("--alias"), s("setup")}, env).exitCode, 0);
        run = backend({s("ensure"), s("file"), path(s("after")), s("--require"), s("exec#setup")}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(QFileInfo::exists(path(s("after"))));
        // A requirement the session never saw fails the resource.
        run = backend({s("ensure"), s("file"), path(s("x")), s("--require"), s("package#never-seen")}, env);
        QVERIFY2(run.exitCode == 1 && run.out.contains(s("no such resource")), qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("x"))));
    }

    // Events decide what runs, so a store somebody else owns or may write to is refused before
    // anything is applied.
    void aStoreOthersControlIsRefused()
    {
        const QString session = newSession();
        QVERIFY(::chmod(session.toUtf8().constData(), 0777) == 0);
        BackendRun run = backend({s("ensure"), s("file"), path(s("f")), s("--session"), session}, environment());
        QVERIFY2(
            run.exitCode == 2 && run.err.contains(s("others may write to it (mode 777)")), qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("f"))));
        QVERIFY(::chmod(session.toUtf8().constData(), 0700) == 0);
        QCOMPARE(backend({s("ensure"), s("file"), path(s("f")), s("--session"), session}, environment()).exitCode, 0);
        if (::geteuid() != 0)
            QSKIP("handing the store to another user needs root");
        QVERIFY(::chown(session.toUtf8().constData(), 65534, 65534) == 0);
        run = backend({s("session"), s("report"), s("--session"), session}, environment());
        QVERIFY2(
            run.exitCode != 0 && run.err.contains(s("belongs to another user (uid 65534)")), qPrintable(describe(run)));
        run = backend({s("ensure"), s("file"), path(s("g")), s("--session"), session}, environment());
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("g"))));
    }

    void subscribeRefreshesWhenTheResourceChangedEarlier()
    {
        const QString session = newSession();
        const QProcessEnvironment env = environment(session);
        const QString config = path(s("app.conf"));
        const auto restart = [&](const char *marker) {
            return backend({s("ensure"), s("exec"), s("/bin/touch ") + path(s(marker)), s("--refresh-only"), s("-S"),
                               s("file#") + config},
                env);
        };
        QCOMPARE(backend({s("ensure"), s("file"), config, s("--content"), s("v1")}, env).exitCode, 0);
        BackendRun run = restart("first");
        QVERIFY2(run.exitCode == 0 && run.out.contains(s("refreshed")), qPrintable(describe(run)));
        QVERIFY(QFileInfo::exists(path(s("first"))));

        QCOMPARE(backend({s("ensure"), s("file"), config, s("--content"), s("v1")}, env).exitCode, 0);
        run = restart("second");
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("second"))));

        // A change that only would have happened (noop) does not make a real run refresh.
        QCOMPARE(backend({s("ensure"), s("--noop"), s("file"), config, s("--content"), s("v2")}, env).exitCode, 0);
        run = restart("third");
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("third"))));

        const BackendRun report = backend({s("session"), s("report")}, env);
        QCOMPARE(reportValue(report.out, "Refreshed Resources"), s("1"));
    }

    void anUpstreamSessionDirectoryIsRead()
    {
        const QString session = path(s("upstream"));
        QDir().mkpath(session);
        // Upstream's `session new` writes no start event; its events are ksuid-named JSON files.
        writeFile(*m_dir, s("upstream/2Bq1aNHcLE1y3dCw0q1ZlW9Eq0A.event"),
            upstreamEvent("2Bq1aNHcLE1y3dCw0q1ZlW9Eq0A", "2026-01-01T10:00:00.5Z", "exec", "/usr/bin/setup", "setup",
                false, true));
        writeFile(*m_dir, s("upstream/2Bq1aP0rK3mVbW4XyZ5aBcDeFgH.event"),
            upstreamEvent("2Bq1aP0rK3mVbW4XyZ5aBcDeFgH", "2026-01-01T10:00:02Z", "file", "/etc/motd", "", true, false));
        writeFile(*m_dir, s("upstream/notes.txt"), "not an event\n");
        const QProcessEnvironment env = environment(session);
        BackendRun run = backend({s("session"), s("report")}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(reportValue(run.out, "Total Resources"), s("2"));
        QCOMPARE(reportValue(run.out, "Failed Resources"), s("1"));
        QCOMPARE(reportValue(run.out, "Changed Resources"), s("1"));
        QCOMPARE(reportValue(run.out, "Total Errors"), s("1"));
        // No start event: the run time is the sum of the durations, as upstream's.
        QCOMPARE(reportValue(run.out, "Run Time"), s("3ms"));

        run = backend({s("ensure"), s("file"), path(s("needs-setup")), s("--require"), s("exec#setup")}, env);
        QVERIFY2(run.exitCode == 1 && run.out.contains(s("unmet")), qPrintable(describe(run)));
        run = backend({s("ensure"), s("exec"), s("/bin/touch ") + path(s("restarted")), s("--refresh-only"), s("-S"),
                          s("file#/etc/motd")},
            env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(QFileInfo::exists(path(s("restarted"))));

        // A broken event file is skipped, and said so.
        writeFile(*m_dir, s("upstream/2Bq1aZZZZZZZZZZZZZZZZZZZZZZ.event"), "{\"protocol\": ");
        run = backend({s("session"), s("report")}, env);
        QVERIFY2(run.exitCode == 0 && run.err.contains(s("skipped")), qPrintable(describe(run)));
        QCOMPARE(reportValue(run.out, "Total Resources"), s("4"));
    }

    void concurrentEnsureCallsLoseNoEvent()
    {
        const QString session = newSession();
        const QProcessEnvironment env = environment(session);
        QCOMPARE(backend({s("ensure"), s("exec"), s("/bin/true"), s("--alias"), s("ready")}, env).exitCode, 0);
        // Half the calls write only; the other half read the session for their requirement first.
        constexpr int kCalls = 16;
        std::vector<std::unique_ptr<QProcess>> processes;
        for (int i = 0; i < kCalls; ++i) {
            auto process = std::make_unique<QProcess>();
            process->setProcessEnvironment(env);
            process->setWorkingDirectory(m_dir->path());
            QStringList arguments {s("ensure"), s("file"), path(s("f%1").arg(i)), s("--content"), QString::number(i)};
            if (i % 2 == 1)
                arguments << s("--require") << s("exec#ready");
            process->start(s(CCM_BACKEND_BIN), arguments);
            processes.push_back(std::move(process));
        }
        for (auto &process : processes) {
            QVERIFY(process->waitForFinished(60000));
            QVERIFY2(process->exitStatus() == QProcess::NormalExit && process->exitCode() == 0,
                qPrintable(QString::fromUtf8(process->readAllStandardOutput() + process->readAllStandardError())));
        }
        for (int i = 0; i < kCalls; ++i)
            QCOMPARE(readFile(path(s("f%1").arg(i))), QString::number(i).toUtf8());
        const BackendRun run = backend({s("session"), s("report")}, env);
        QVERIFY2(run.exitCode == 0 && run.err.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(reportValue(run.out, "Total Resources"), QString::number(kCalls + 1));
        QCOMPARE(reportValue(run.out, "Changed Resources"), QString::number(kCalls + 1));
        const QStringList files = eventFiles(session);
        QCOMPARE(files.size(), kCalls + 2);
        for (const QString &file : files) {
            QJsonParseError error {};
            const QJsonDocument document = QJsonDocument::fromJson(readFile(session + s("/") + file), &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(file + s(": ") + error.errorString()));
            QVERIFY(document.object()[s("protocol")].toString().startsWith(s("io.choria.ccm.v1.")));
        }
        // No temporary file is left behind: the events, the start event and the lock file.
        QCOMPARE(QDir(session).entryList(QDir::Files | QDir::Hidden).size(), kCalls + 3);
    }

    void aSignalLetsTheResourceFinishAndBeRecorded()
    {
        const QString session = newSession();
        QProcess process;
        process.setProcessEnvironment(environment(session));
        process.setWorkingDirectory(m_dir->path());
        process.start(s(CCM_BACKEND_BIN),
            {s("ensure"), s("exec"), s("/bin/sh -c 'touch started; sleep 1; touch finished'"), s("--cwd"),
                m_dir->path()});
        QVERIFY(process.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(path(s("started"))), 30000);
        ::kill(static_cast<pid_t>(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(QFileInfo::exists(path(s("finished"))));
        QCOMPARE(eventFiles(session).size(), 2);
    }

    void theSessionOptionAfterTheType()
    {
        const QString session = newSession();
        const BackendRun run = backend(
            {s("ensure"), s("file"), path(s("a")), s("--session"), session, s("-R"), s("REGISTRATION")}, environment());
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(eventFiles(session).size(), 2);
    }

    void removeOnlyRemovesAStoreInTheTemporaryDirectory()
    {
        QDir(m_dir->path()).mkpath(s("tmp"));
        QProcessEnvironment env = environment();
        env.insert(s("TMPDIR"), path(s("tmp")));
        const QString outside = newSession(s("kept"));
        BackendRun run = backend({s("session"), s("report"), s("--session"), outside, s("--remove")}, env);
        QVERIFY2(run.exitCode == 0 && run.err.contains(s("not removing")), qPrintable(describe(run)));
        QVERIFY(QFileInfo::exists(outside));

        run = backend({s("session"), s("new")}, env);
        const QString inside = run.out.trimmed().mid(QStringLiteral("export CCM_SESSION_STORE=").size());
        QVERIFY2(inside.startsWith(path(s("tmp/"))), qPrintable(describe(run)));
        env.insert(s("CCM_SESSION_STORE"), inside);
        run = backend({s("session"), s("report"), s("--remove")}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(reportValue(run.out, "Total Resources"), s("0"));
        QVERIFY(!QFileInfo::exists(inside));
    }

    void usage()
    {
        BackendRun run = backend({s("session")}, environment());
        QCOMPARE(run.exitCode, 2);
        run = backend({s("session"), s("frob")}, environment());
        QVERIFY2(run.exitCode == 2 && run.err.contains(s("unknown command 'frob'")), qPrintable(describe(run)));
        run = backend({s("session"), s("new"), s("--directory")}, environment());
        QVERIFY2(run.exitCode == 2 && run.err.contains(s("needs a value")), qPrintable(describe(run)));
        run = backend({s("session"), s("report"), s("--help")}, environment());
        QVERIFY2(run.exitCode == 0 && run.out.startsWith(s("Usage: ccm-backend session")), qPrintable(describe(run)));
    }
};

CCM_TEST_GUILESS_MAIN(TestSessionCli)
#include "tst_session_cli.moc"
