// SPDX-License-Identifier: Apache-2.0
// `ccm-backend apply` as a person or a script runs it: real manifests, real files in temporary
// directories, real commands. What lands on disk, what is printed and the exit status.
#include "backend_process.h"
#include "test_main.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <csignal>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm::test;

namespace {

/// The counts of the "Resources:" summary line, e.g. "total=3 stable=1 changed=2 ...".
QString resourcesLine(const QString &out)
{
    for (const QString &line : out.split(QLatin1Char('\n')))
        if (line.startsWith(s("Resources: ")))
            return line.mid(11);
    return {};
}

bool processAlive(pid_t pid)
{
    return ::kill(pid, 0) == 0;
}

} // namespace

class TestApplyCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const char *name) const { return m_dir->filePath(s(name)); }

    /// Writes the manifest with DIR replaced by the test's directory.
    QString manifest(const char *text, const char *name = "manifest.yaml")
    {
        QString content = s(text);
        content.replace(s("DIR"), m_dir->path());
        return writeFile(*m_dir, s(name), content.toUtf8());
    }

    BackendRun apply(const QStringList &arguments)
    {
        return runBackend(QStringList {s("apply")} + arguments, m_dir->path(), isolatedEnvironment(*m_dir));
    }

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void noopChangesNothingAndARealRunConverges()
    {
        writeFile(*m_dir, s("old.conf"), "old\n");
        writeFile(*m_dir, s("gone.txt"), "remove me\n");
        const QString file = manifest(R"(data:
  port: 8080
ccm:
  pre_message: "configuring port {{ Data.port }}"
  post_message: all done
  resources:
    - file:
        - DIR/app:
            ensure: directory
            owner: root
            group: root
            mode: "0750"
        - DIR/app/app.conf:
            ensure: present
            content: "port = {{ Data.port }}\n"
            owner: root
            group: "0"
            mode: "0640"
            require: [file#DIR/app]
        - DIR/old.conf:
            ensure: present
            content: "new\n"
            owner: "4242"
            group: "4242"
            mode: "0600"
        - DIR/gone.txt:
            ensure: absent
    - exec:
        - stamp:
            command: /bin/sh -c 'echo ran >> DIR/stamp'
            creates: DIR/stamp
        - reload:
            command: /bin/sh -c 'echo reloaded >> DIR/reloads'
            refreshonly: true
            subscribe: [file#DIR/app/app.conf]
)");
        const BackendRun noop = apply({file, s("--noop")});
        QCOMPARE(noop.exitCode, 0);
        QVERIFY2(noop.out.startsWith(s("configuring port 8080\n")), qPrintable(noop.out));
        QCOMPARE(resourcesLine(noop.out), s("total=6 stable=0 changed=6 failed=0 skipped=0 refreshed=1 unmet_requirements=0"));
        QVERIFY(noop.out.contains(s("noop=\"Would have created directory\"")));
        QVERIFY(noop.out.contains(
            s("noop=\"would refresh: subscribed to file#%1/app/app.conf, which would change\"").arg(m_dir->path())));
        QVERIFY(!QFileInfo::exists(path("app")));
        QCOMPARE(readAll(path("old.conf")), QByteArray("old\n"));
        QVERIFY(QFileInfo::exists(path("gone.txt")));
        QVERIFY(!QFileInfo::exists(path("stamp")));
        QVERIFY(!QFileInfo::exists(path("reloads")));

        const BackendRun real = apply({file});
        QCOMPARE(real.exitCode, 0);
        QCOMPARE(resourcesLine(real.out), s("total=6 stable=0 changed=6 failed=0 skipped=0 refreshed=1 unmet_requirements=0"));
        QVERIFY(real.out.trimmed().contains(s("all done")));
        QCOMPARE(readAll(path("app/app.conf")), QByteArray("port = 8080\n"));
        struct stat info {};
        QCOMPARE(::stat(qPrintable(path("app")), &info), 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0750));
        QCOMPARE(::stat(qPrintable(path("old.conf")), &info), 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0600));
        QCOMPARE(info.st_uid, uid_t(4242));
        QCOMPARE(info.st_gid, gid_t(4242));
        QVERIFY(!QFileInfo::exists(path("gone.txt")));
        QCOMPARE(readAll(path("stamp")), QByteArray("ran\n"));
        QCOMPARE(readAll(path("reloads")), QByteArray("reloaded\n"));

        const BackendRun again = apply({file, s("--detailed-exitcodes")});
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(resourcesLine(again.out), s("total=6 stable=6 changed=0 failed=0 skipped=0 refreshed=0 unmet_requirements=0"));
        QCOMPARE(readAll(path("reloads")), QByteArray("reloaded\n"));
    }

    void jsonStreamsOneEventPerResourceThenTheSummary()
    {
        const QString file = manifest(R"(ccm:
  resources:
    - file:
        - DIR/a.txt: {ensure: present, content: "a\n", owner: root, group: root, mode: "0644"}
    - exec:
        - /bin/false: {}
)");
        const BackendRun run = apply({file, s("--json"), s("--noop")});
        QCOMPARE(run.exitCode, 0);
        const QStringList lines = run.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        const QJsonObject first = QJsonDocument::fromJson(lines[0].toUtf8()).object();
        QCOMPARE(first[s("protocol")].toString(), s("io.choria.ccm.v1.transaction.event"));
        QCOMPARE(first[s("resource")].toString(), path("a.txt").prepend(s("file#")));
        QCOMPARE(first[s("noop_message")].toString(), s("Would have created the file"));
        QVERIFY(first[s("changed")].toBool());
        QVERIFY(first[s("noop")].toBool());
        QCOMPARE(first[s("diff")].toString(), s("--- /dev/null\n+++ ") + path("a.txt") + s("\n@@ -0,0 +1 @@\n+a\n"));
        const QJsonObject second = QJsonDocument::fromJson(lines[1].toUtf8()).object();
        QCOMPARE(second[s("noop_message")].toString(), s("Would have executed"));
        const QJsonObject summary = QJsonDocument::fromJson(lines[2].toUtf8()).object();
        QCOMPARE(summary[s("summary")].toObject()[s("changed")].toInt(), 2);
        QCOMPARE(summary[s("noop")].toBool(), true);
    }

    void showDiffPrintsContentChanges()
    {
        writeFile(*m_dir, s("motd"), "Welcome\nto the old host\n");
        const QString file = manifest(R"(ccm:
  resources:
    - file:
        - DIR/motd: {ensure: present, content: "Welcome\nto the new host\n", owner: root, group: root, mode: "0644"}
)");
        const BackendRun run = apply({file, s("--noop"), s("--show-diff")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(s("-to the old host\n+to the new host\n")), qPrintable(run.out));
        const BackendRun plain = apply({file, s("--noop")});
        QVERIFY(!plain.out.contains(s("+to the new host")));
    }

    void exitCodes_data()
    {
        QTest::addColumn<QString>("resources");
        QTest::addColumn<bool>("detailed");
        QTest::addColumn<int>("exitCode");
        const QString change = s("    - exec:\n        - /bin/true: {}\n");
        const QString fail = s("    - exec:\n        - /bin/false: {}\n");
        const QString stable = s("    - exec:\n        - /bin/true: {creates: /}\n");
        QTest::newRow("stable") << stable << false << 0;
        QTest::newRow("changed") << change << false << 0;
        QTest::newRow("failed") << fail << false << 1;
        QTest::newRow("detailed stable") << stable << true << 0;
        QTest::newRow("detailed changed") << change << true << 2;
        QTest::newRow("detailed failed") << fail << true << 4;
        QTest::newRow("detailed both") << change + fail << true << 6;
    }

    void exitCodes()
    {
        QFETCH(QString, resources);
        QFETCH(bool, detailed);
        QFETCH(int, exitCode);
        const QString file = manifest(qPrintable(s("ccm:\n  resources:\n") + resources));
        QStringList arguments {file};
        if (detailed)
            arguments << s("--detailed-exitcodes");
        QCOMPARE(apply(arguments).exitCode, exitCode);
    }

    void invalidManifestsAreRefusedWithTheirPosition()
    {
        const QString file = manifest("ccm:\n  resources:\n    - file:\n        - relative/path: {ensure: present}\n");
        const BackendRun run = apply({file});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(file + s(":4:11: error: ")), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
        QCOMPARE(apply({file, s("--detailed-exitcodes")}).exitCode, 1);
        QCOMPARE(apply({path("missing.yaml")}).exitCode, 2);
        QCOMPARE(apply({}).exitCode, 2);
        QCOMPARE(apply({file, s("--bogus")}).exitCode, 2);
    }

    void failuresAreReportedWithTheirReason()
    {
        const QString file = manifest(R"(ccm:
  resources:
    - file:
        - DIR/missing-dir/file: {ensure: present, content: "x", owner: root, group: root, mode: "0644"}
        - DIR/after: {ensure: present, content: "x", owner: root, group: root, mode: "0644", require: [file#DIR/missing-dir/file]}
)");
        const BackendRun run = apply({file});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(s("error   file#") + path("missing-dir/file") + s(" failed errors=")), qPrintable(run.out));
        QVERIFY(run.out.contains(s(" skipped due to unmet requirement unmet=file#") + path("missing-dir/file")));
        QVERIFY(!QFileInfo::exists(path("after")));
    }

    void deferredTemplatesSeeEarlierResources()
    {
        const QString file = manifest(R"(ccm:
  resources:
    - exec:
        - make-source:
            command: /bin/sh -c 'echo generated > DIR/generated.txt'
            creates: DIR/generated.txt
    - file:
        - DIR/copy.txt:
            ensure: present
            content: "copied: {{ file('generated.txt') }}"
            owner: root
            group: root
            mode: "0644"
)");
        const BackendRun run = apply({file});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readAll(path("copy.txt")), QByteArray("copied: generated\n"));
    }

    void childManifestsRunRelativeToTheirParent()
    {
        manifest(R"(data:
  colour: blue
ccm:
  resources:
    - file:
        - DIR/colour.txt: {ensure: present, content: "{{ Data.colour }}", owner: root, group: root, mode: "0644"}
)", "parts/child.yaml");
        const QString file = manifest(R"(ccm:
  resources:
    - apply:
        - parts/child.yaml:
            data: {colour: red}
)");
        const BackendRun run = apply({file});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readAll(path("colour.txt")), QByteArray("red"));
        QCOMPARE(resourcesLine(run.out), s("total=2 stable=0 changed=2 failed=0 skipped=0 refreshed=0 unmet_requirements=0"));
    }

    void usersCreatedDuringTheRunAreSeenByLaterResources()
    {
        // The file provider remembers user database answers for the run; a user that was missing
        // when earlier resources looked (by id and by name) must be found once a later one made it.
        if (::geteuid() != 0 || !QFileInfo::exists(s("/usr/sbin/useradd")))
            QSKIP("needs root and useradd");
        uid_t uid = 47000;
        while (::getpwuid(uid))
            ++uid;
        const QString user = s("ccmrun") + QString::number(::getpid());
        const auto removeUser = qScopeGuard([&] { QProcess::execute(s("/usr/sbin/userdel"), {user}); });
        for (const char *name : {"by-id", "after"}) {
            writeFile(*m_dir, s(name), "x");
            QCOMPARE(::chown(QFile::encodeName(path(name)).constData(), uid, 0), 0);
            QVERIFY(QFile::setPermissions(path(name), QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        }
        QString text = s(R"(ccm:
  resources:
    - file:
        - DIR/by-id: {ensure: present, content: "x", owner: "UID", group: root, mode: "0600"}
        - DIR/by-name: {ensure: present, content: "x", owner: USER, group: root, mode: "0600"}
    - exec:
        - add-user:
            command: /usr/sbin/useradd --no-create-home --no-user-group --gid 0 --uid UID USER
    - file:
        - DIR/after: {ensure: present, content: "x", owner: USER, group: root, mode: "0600"}
)");
        text.replace(s("UID"), QString::number(uid)).replace(s("USER"), user);
        const BackendRun run = apply({manifest(text.toUtf8().constData()), s("--json")});
        const QStringList lines = run.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 5);
        const QJsonObject byName = QJsonDocument::fromJson(lines[1].toUtf8()).object();
        QVERIFY(byName[s("failed")].toBool());
        QCOMPARE(byName[s("error")].toArray().first().toString(), s("could not lookup user '") + user + s("'"));
        const QJsonObject after = QJsonDocument::fromJson(lines[3].toUtf8()).object();
        QVERIFY2(!after[s("failed")].toBool() && !after[s("changed")].toBool(), qPrintable(lines[3]));
        QCOMPARE(after[s("status")].toObject()[s("metadata")].toObject()[s("owner")].toString(), user);
    }

    void execTimeoutKillsTheWholeProcessGroup()
    {
        const QString file = manifest(R"(ccm:
  resources:
    - exec:
        - spawn:
            command: "sleep 300 & echo $! > DIR/grandchild.pid; wait"
            provider: shell
            timeout: 1s
)");
        const BackendRun run = apply({file});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(s("timed out after 1s")), qPrintable(run.out));
        const pid_t grandchild = readAll(path("grandchild.pid")).trimmed().toInt();
        QVERIFY(grandchild > 0);
        // The group was killed before apply returned; give the kernel a moment to reap it.
        for (int i = 0; i < 50 && processAlive(grandchild); ++i)
            QThread::msleep(20);
        QVERIFY(!processAlive(grandchild));
    }

    void killDuringALargeWriteNeverLeavesAPartialTarget()
    {
        // A 512 MiB source takes long enough to copy that the kill lands in the middle of it.
        const QString source = path("big.bin");
        {
            QFile big(source);
            QVERIFY(big.open(QIODevice::WriteOnly));
            const QByteArray chunk = randomBytes(1 << 20, 7);
            for (int i = 0; i < 512; ++i)
                QCOMPARE(big.write(chunk), qint64(chunk.size()));
        }
        writeFile(*m_dir, s("target.bin"), "the old content\n");
        const QString file = manifest(R"(ccm:
  resources:
    - file:
        - DIR/target.bin: {ensure: present, source: big.bin, owner: root, group: root, mode: "0644"}
)");
        QProcess process;
        process.setProcessEnvironment(isolatedEnvironment(*m_dir));
        process.start(s(CCM_BACKEND_BIN), {s("apply"), file});
        QVERIFY(process.waitForStarted());
        bool sawTemporary = false;
        for (int i = 0; i < 2000 && !sawTemporary; ++i) {
            const QStringList temporaries = QDir(m_dir->path()).entryList({s(".ccm-target.bin.*")}, QDir::Files | QDir::Hidden);
            if (!temporaries.isEmpty() && QFileInfo(m_dir->filePath(temporaries.front())).size() > 0)
                sawTemporary = true;
            else
                QThread::msleep(2);
        }
        QVERIFY2(sawTemporary, "the write never started");
        ::kill(static_cast<pid_t>(process.processId()), SIGKILL);
        QVERIFY(process.waitForFinished());
        QCOMPARE(readAll(path("target.bin")), QByteArray("the old content\n"));

        // The next run completes the job.
        QCOMPARE(apply({file}).exitCode, 0);
        QCOMPARE(QFileInfo(path("target.bin")).size(), qint64(512) << 20);
    }

    /// Report lines are written in batches, but a line never waits for the resources after it: the
    /// first line shows while the second resource is still running (it ends only when told to).
    void aLineShowsWhileTheNextResourceIsStillRunning_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text") << QStringList() << s("file#");
        QTest::newRow("json") << QStringList {s("--json")} << s("\"type\":\"file\"");
    }

    void aLineShowsWhileTheNextResourceIsStillRunning()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        const QString file = manifest(R"(ccm:
  resources:
    - file:
        - DIR/first: {ensure: present, content: "one\n", owner: root, group: root, mode: "0644"}
    - exec:
        - /bin/sh -c 'while [ ! -e DIR/go ]; do sleep 0.02; done': {}
)");
        QProcess process;
        process.setProcessEnvironment(isolatedEnvironment(*m_dir));
        process.start(s(CCM_BACKEND_BIN), QStringList {s("apply")} + options + QStringList {file});
        QVERIFY(process.waitForStarted());
        const auto release = qScopeGuard([&] { writeFile(*m_dir, s("go"), QByteArray()); });
        QString out;
        while (!out.contains(expected) && process.state() == QProcess::Running && process.waitForReadyRead(30000))
            out += QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(out.contains(expected), qPrintable(s("no line before the end of the run: ") + out));
        QCOMPARE(process.state(), QProcess::Running);

        writeFile(*m_dir, s("go"), QByteArray());
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        out += QString::fromUtf8(process.readAllStandardOutput());
        QCOMPARE(out.count(expected), 1);
    }

    void sigtermStopsBeforeTheNextResource()
    {
        const QString file = manifest(R"(ccm:
  resources:
    - exec:
        - /bin/sh -c 'touch DIR/first; sleep 2': {}
        - /bin/sh -c 'echo second > DIR/second': {}
)");
        QProcess process;
        process.setProcessEnvironment(isolatedEnvironment(*m_dir));
        process.start(s(CCM_BACKEND_BIN), {s("apply"), file});
        QVERIFY(process.waitForStarted());
        // The signal comes while the first resource runs, not before the run has begun.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(path("first")), 30000);
        ::kill(static_cast<pid_t>(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 1);
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(out.contains(s("The run was cancelled before all resources ran.")), qPrintable(out));
        QVERIFY(!QFileInfo::exists(path("second")));
    }
};

CCM_TEST_GUILESS_MAIN(TestApplyCli)
#include "tst_apply_cli.moc"
