// SPDX-License-Identifier: Apache-2.0
// `ccm-backend ensure TYPE ...` as a script runs it: real processes in a temporary directory, real
// files, commands, an archive served over HTTP on 127.0.0.1 and a scaffold. What lands on disk,
// the report line, the summary and the exit status.
#include "../fleet/http_server.h"
#include "backend_process.h"
#include "test_main.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTest>

#include <sys/stat.h>

using namespace ccm::test;

class TestEnsureCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const QString &name) const { return m_dir->filePath(name); }

    /// The test's environment without the variables ensure reads, facts from the test's own
    /// directory only.
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = isolatedEnvironment(*m_dir);
        for (const char *name : {"CCM_SESSION_STORE", "CCM_HIERA_DATA", "HTTP_PASSWORD", "CCM_HTTP_PASSWORD"})
            env.remove(s(name));
        return env;
    }

    BackendRun ensure(const QStringList &arguments, const QProcessEnvironment &env) const
    {
        return runBackend(QStringList {s("ensure")} + arguments, m_dir->path(), env);
    }
    BackendRun ensure(const QStringList &arguments) const { return ensure(arguments, environment()); }

    /// A custom fact of the test's facts directory (XDG_CONFIG_HOME/choria/ccm/facts.json).
    void setFacts(const QByteArray &json) { writeFile(*m_dir, s("config/choria/ccm/facts.json"), json); }

    static QString describe(const BackendRun &run)
    {
        return s("exit ") + QString::number(run.exitCode) + s("\nout:\n") + run.out + s("\nerr:\n") + run.err;
    }

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void fileIsCreatedThenStableWithApplysReport()
    {
        const QString file = path(s("motd"));
        BackendRun run = ensure({s("file"), file, s("--content"), s("hello\n"), s("--mode"), s("0640")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(file), QByteArray("hello\n"));
        QCOMPARE(QFileInfo(file).permissions() & 0x7777,
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser
                | QFileDevice::ReadGroup);
        QVERIFY2(run.out.contains(s("file#") + file + s(" changed ensure=present")), qPrintable(run.out));
        QVERIFY2(run.out.contains(s("Resources: total=1 stable=0 changed=1 failed=0")), qPrintable(run.out));

        run = ensure({s("file"), file, s("present"), s("--content"), s("hello\n"), s("--mode"), s("0640")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("file#") + file + s(" stable")), qPrintable(run.out));
        QVERIFY2(run.out.contains(s("Resources: total=1 stable=1 changed=0")), qPrintable(run.out));
    }

    void directoryDefaultsTo0755AndAbsentRemoves()
    {
        const QString directory = path(s("d"));
        BackendRun run = ensure({s("file"), directory, s("directory")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        struct stat info { };
        QCOMPARE(::stat(directory.toLocal8Bit().constData(), &info), 0);
        QVERIFY(S_ISDIR(info.st_mode));
        QCOMPARE(info.st_mode & 07777, 0755u);

        writeFile(*m_dir, s("gone"), "x");
        run = ensure({s("file"), path(s("gone")), s("absent")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("gone"))));
    }

    // Upstream's documentation writes `ensure file F content="..."`; such PROPERTY=VALUE arguments
    // after the name are the options of that name. An exec's command keeps its '='.
    void propertyArgumentsAfterTheName()
    {
        BackendRun run = ensure({s("file"), path(s("listen.conf")), s("content=Listen 8080"), s("mode=0600")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("listen.conf"))), QByteArray("Listen 8080"));
        QCOMPARE(QFileInfo(path(s("listen.conf"))).permissions(),
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);
        run = ensure({s("exec"), s("MARK=1 touch ") + path(s("marked")), s("--noop")});
        QVERIFY2(run.exitCode == 0 && run.out.contains(s("exec#MARK=1 touch ")), qPrintable(describe(run)));
        run = ensure({s("file"), path(s("other.conf")), s("enable=true")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(!QFileInfo::exists(path(s("other.conf"))));
    }

    void contentFileAndSource()
    {
        writeFile(*m_dir, s("template.txt"), "os {{ Facts.role }}\n");
        writeFile(*m_dir, s("verbatim.txt"), "kept {{ as is }}\n");
        setFacts(R"({"role": "web"})");
        BackendRun run = ensure({s("file"), path(s("a")), s("--content-file"), path(s("template.txt"))});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("a"))), QByteArray("os web\n"));
        run = ensure({s("file"), path(s("b")), s("--source"), path(s("verbatim.txt"))});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("b"))), QByteArray("kept {{ as is }}\n"));
    }

    void ownerSplitsAtTheColon()
    {
        const QString file = path(s("owned"));
        BackendRun run = ensure({s("file"), file, s("--owner"), currentUserName() + s(":") + currentGroupName()});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        struct stat info { };
        QCOMPARE(::stat(file.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_uid, ::getuid());
        QCOMPARE(info.st_gid, ::getgid());
        // The group after the colon is used, not dropped for the current one: a group that does
        // not exist fails the resource, naming it.
        run = ensure({s("file"), path(s("other")), s("--owner"), currentUserName() + s(":ccm-no-such-group")});
        QVERIFY2(run.exitCode == 1, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("ccm-no-such-group")), qPrintable(run.out));
        QVERIFY(!QFileInfo::exists(path(s("other"))));
        // A user alone keeps the current group.
        run = ensure({s("file"), path(s("mine")), s("--owner"), currentUserName()});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(::stat(path(s("mine")).toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_gid, ::getgid());
    }

    void noopChangesNothing()
    {
        writeFile(*m_dir, s("keep"), "old\n");
        BackendRun run = ensure({s("--noop"), s("file"), path(s("keep")), s("--content"), s("new\n")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("changed")) && run.out.contains(s("noop=")), qPrintable(run.out));
        QCOMPARE(readFile(path(s("keep"))), QByteArray("old\n"));
        run = ensure({s("file"), path(s("new")), s("--noop")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("new"))));
        run = ensure({s("exec"), s("/bin/touch ") + path(s("ran")), s("--noop")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("ran"))));
    }

    void optionsBeforeAndAfterTheType()
    {
        BackendRun run = ensure({s("--alias"), s("greeting"), s("file"), path(s("g")), s("--content=hi")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("file#greeting (alias) changed")), qPrintable(run.out));
        QCOMPARE(readFile(path(s("g"))), QByteArray("hi"));
    }

    void templatesResolveAgainstTheHieraFile()
    {
        setFacts(R"({"role": "web"})");
        writeFile(*m_dir, s(".hiera"),
            "data:\n  greeting: hello\n  pkg: ccm-no-such-package\nhierarchy:\n  order: [\"role:{{ Facts.role }}\"]\n"
            "overrides:\n  \"role:web\":\n    greeting: hello web\n");
        BackendRun run = ensure({s("file"), path(s("h")), s("--content"), s("{{ lookup(\"data.greeting\") }}")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("h"))), QByteArray("hello web"));

        // --hiera and $CCM_HIERA_DATA name another file; a missing one is no data.
        writeFile(*m_dir, s("other.yaml"), "{\"data\": {\"greeting\": \"from json\"}}");
        run = ensure(
            {s("file"), path(s("j")), s("--hiera"), path(s("other.yaml")), s("--content"), s("{{ Data.greeting }}")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("j"))), QByteArray("from json"));
        QProcessEnvironment env = environment();
        env.insert(s("CCM_HIERA_DATA"), path(s("missing.yaml")));
        run = ensure({s("file"), path(s("k")), s("--content"), s("[{{ lookup(\"data.greeting\", \"none\") }}]")}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("k"))), QByteArray("[none]"));

        if (QStandardPaths::findExecutable(s("dpkg-query")).isEmpty())
            QSKIP("no dpkg-query for the package resource's noop");
        run = ensure({s("package"), s("{{ lookup(\"data.pkg\") }}"), s("absent"), s("--noop")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("package#ccm-no-such-package stable ensure=absent")), qPrintable(run.out));
    }

    void aBrokenHieraFileIsAnErrorWithItsPosition()
    {
        writeFile(*m_dir, s(".hiera"), "data:\n  a: [1, 2\n");
        const BackendRun run = ensure({s("file"), path(s("never"))});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
        QVERIFY2(run.err.contains(s(".hiera:")), qPrintable(run.err));
        QVERIFY(!QFileInfo::exists(path(s("never"))));
    }

    void dotEnvIsReadUnlessTurnedOff()
    {
        writeFile(*m_dir, s(".env"), "# comment\nGREETING=\"hi there\"\nexport OTHER=x\n");
        BackendRun run = ensure({s("file"), path(s("e")), s("--content"), s("{{ Environ.GREETING }}")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("e"))), QByteArray("hi there"));
        for (const char *off : {"--no-read-env", "--read-env=false"}) {
            const QString target = path(s("off") + s(off));
            run = ensure(
                {s("file"), target, s(off), s("--content"), s("{{ lookup(\"environ.GREETING\", \"unset\") }}")});
            QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
            QCOMPARE(readFile(target), QByteArray("unset"));
        }
    }

    void validationErrorsNameTheProperty()
    {
        BackendRun run = ensure({s("file"), path(s("m")), s("--mode"), s("0999")});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
        QVERIFY2(run.err.contains(s("mode")) && run.err.contains(s("0999")), qPrintable(run.err));
        run = ensure({s("file"), path(s("m")), s("--check"), s("true"), s("--check-sleep"), s("1x")});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
        QVERIFY2(run.err.contains(s("health_checks.0.try_sleep")), qPrintable(run.err));
        run = ensure({s("file"), s("relative/path")});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
        run = ensure({s("package"), s("x"), s("--provider"), s("nosuch"), s("--noop")});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
        QVERIFY2(run.err.contains(s("provider")), qPrintable(run.err));
        QVERIFY(!QFileInfo::exists(path(s("m"))));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no type") << QStringList {} << s("no type given");
        QTest::newRow("unknown type") << QStringList {s("user"), s("x")} << s("unknown type 'user'");
        QTest::newRow("no name") << QStringList {s("pkg")} << s("missing argument name");
        QTest::newRow("archive without url") << QStringList {s("archive"), s("/tmp/x")} << s("missing argument url");
        QTest::newRow("too many") << QStringList {s("pkg"), s("a"), s("present"), s("b")}
                                  << s("unexpected argument 'b'");
        QTest::newRow("enable and disable")
            << QStringList {s("svc"), s("sshd"), s("--enable"), s("--disable")} << s("both --enable and --disable");
        QTest::newRow("content and source")
            << QStringList {s("file"), s("/tmp/x"), s("--content"), s("a"), s("--source"), s("/etc/hostname")}
            << s("both --source and --content");
        QTest::newRow("content and content file")
            << QStringList {s("file"), s("/tmp/x"), s("--content"), s("a"), s("--content-file"), s("/etc/hostname")}
            << s("both --content and --content-file");
        QTest::newRow("require without session")
            << QStringList {s("file"), s("/tmp/x"), s("--require"), s("exec#a")} << s("session");
        QTest::newRow("subscribe without session")
            << QStringList {s("exec"), s("/bin/true"), s("-S"), s("file#/tmp/a")} << s("session");
        QTest::newRow("option of another type")
            << QStringList {s("pkg"), s("zsh"), s("--mode"), s("0644")} << s("ensure package does not take --mode");
        QTest::newRow("unknown option") << QStringList {s("pkg"), s("zsh"), s("--frobnicate")} << s("--frobnicate");
        QTest::newRow("missing value") << QStringList {s("exec"), s("/bin/true"), s("--timeout")} << s("needs a value");
        QTest::newRow("bad returns") << QStringList {s("exec"), s("/bin/true"), s("--returns"), s("x")}
                                     << s("--returns expects a whole number");
        QTest::newRow("bad engine") << QStringList {s("scaffold"), s("/tmp/x"), s("--engine"), s("erb")}
                                    << s("--engine must be jet or go");
        QTest::newRow("empty session") << QStringList {s("--session="), s("pkg"), s("zsh")} << s("should not be empty");
        QTest::newRow("missing session store")
            << QStringList {s("--session"), s("/nonexistent/ccm-session"), s("pkg"), s("zsh")} << s("does not exist");
        QTest::newRow("bad header") << QStringList {s("archive"), s("/tmp/a.tgz"), s("http://x/a.tgz"), s("-H"), s("x")}
                                    << s("--header expects K:V");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const BackendRun run = ensure(arguments);
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
    }

    void helpOfEachType()
    {
        for (const char *type : {"package", "pkg", "service", "svc", "file", "exec", "archive", "scaffold"}) {
            const BackendRun run = ensure({s(type), s("--help")});
            QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
            QVERIFY2(run.out.startsWith(s("Usage: ccm-backend ensure ")), qPrintable(run.out));
            QVERIFY2(run.out.contains(s("--check-tries")), qPrintable(run.out));
        }
        const BackendRun run = ensure({s("--help")});
        QVERIFY2(run.exitCode == 0 && run.out.contains(s("Commands:")), qPrintable(describe(run)));
        // The API's group lists its one command, so completion and the manual page find it.
        const BackendRun api = ensure({s("api"), s("--help")});
        QVERIFY2(api.exitCode == 0 && api.out.contains(s("Commands:\n  pipe ")), qPrintable(describe(api)));
        const BackendRun pipe = ensure({s("api"), s("pipe"), s("--help")});
        QVERIFY2(pipe.exitCode == 0 && pipe.out.startsWith(s("Usage: ccm-backend ensure api pipe")),
            qPrintable(describe(pipe)));
    }

    void execFlags()
    {
        const QString marker = path(s("made"));
        BackendRun run = ensure({s("exec"), s("/bin/sh -c 'echo \"$GREETING\" > made; exit 3'"), s("--cwd"),
            m_dir->path(), s("-e"), s("GREETING=hi"), s("--returns"), s("3"), s("--returns"), s("4"), s("--creates"),
            marker, s("--timeout"), s("30s"), s("--path"), s("/usr/bin:/bin"), s("--logoutput")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(marker), QByteArray("hi\n"));
        QVERIFY2(run.out.contains(s(" changed ")), qPrintable(run.out));
        // --creates names a file that exists now: nothing runs.
        run = ensure(
            {s("exec"), s("/bin/sh -c 'echo again >> made'"), s("--cwd"), m_dir->path(), s("--creates"), marker});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(marker), QByteArray("hi\n"));
        // An exit code not in --returns (default 0) fails the resource: exit 1.
        run = ensure({s("exec"), s("/bin/false")});
        QVERIFY2(run.exitCode == 1, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("exec#/bin/false failed")), qPrintable(run.out));
        // The guards: --exec-if and --exec-unless.
        run = ensure({s("exec"), s("/bin/touch ") + path(s("if")), s("--exec-if"), s("/bin/false")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("if"))));
        run = ensure({s("exec"), s("/bin/touch ") + path(s("unless")), s("--exec-unless"), s("/bin/false")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(QFileInfo::exists(path(s("unless"))));
        // A --timeout that is not a duration is refused before anything runs.
        run = ensure({s("exec"), s("/bin/touch ") + path(s("timeout")), s("--timeout"), s("1x")});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
    }

    void controlAndHealthChecks()
    {
        setFacts(R"({"role": "db"})");
        BackendRun run = ensure({s("file"), path(s("c")), s("--if"), s("Facts.role == \"web\"")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("skipped")), qPrintable(run.out));
        QVERIFY(!QFileInfo::exists(path(s("c"))));
        run = ensure({s("file"), path(s("c")), s("--unless"), s("Facts.role == \"web\"")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(QFileInfo::exists(path(s("c"))));

        run = ensure({s("file"), path(s("c")), s("--check"), s("/bin/sh -c 'echo CRITICAL; exit 2'"),
            s("--check-tries"), s("2"), s("--check-sleep"), s("10ms")});
        QVERIFY2(run.exitCode == 1, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("CRITICAL")), qPrintable(run.out));
        QVERIFY2(run.out.contains(s("Checked resources: ok=0 warning=0 critical=1")), qPrintable(run.out));
        run = ensure({s("file"), path(s("c")), s("--check"), s("/bin/true")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY2(run.out.contains(s("Checked resources: ok=1")), qPrintable(run.out));
    }

    void archiveFromHttp()
    {
        if (!HttpServer::available() || QStandardPaths::findExecutable(s("tar")).isEmpty())
            QSKIP("needs python3 and tar");
        HttpServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        QDir(m_dir->path()).mkpath(s("content/app"));
        writeFile(*m_dir, s("content/app/README"), "archived\n");
        QDir().mkpath(server.root());
        const QString tarball = server.root() + s("/app.tar.gz");
        QCOMPARE(QProcess::execute(s("tar"), {s("-czf"), tarball, s("-C"), path(s("content")), s("app")}), 0);
        const QString checksum
            = QString::fromLatin1(QCryptographicHash::hash(readFile(tarball), QCryptographicHash::Sha256).toHex());
        QDir(m_dir->path()).mkpath(s("out"));

        QProcessEnvironment env = environment();
        env.insert(s("HTTP_PASSWORD"), s("secret"));
        BackendRun run
            = ensure({s("archive"), path(s("app.tar.gz")), server.url(s("/auth/app.tar.gz")), s("--username"),
                         s("alice"), s("-H"), s("X-Test:yes"), s("--checksum"), checksum, s("--extract"),
                         path(s("out")), s("--creates"), path(s("out/app/README")), s("--cleanup")},
                env);
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("out/app/README"))), QByteArray("archived\n"));
        QVERIFY(!QFileInfo::exists(path(s("app.tar.gz"))));

        // A wrong password (--password wins over $HTTP_PASSWORD) fails the download.
        run = ensure({s("archive"), path(s("b.tar.gz")), server.url(s("/auth/app.tar.gz")), s("--username"), s("alice"),
                         s("--password"), s("wrong")},
            env);
        QVERIFY2(run.exitCode == 1, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("b.tar.gz"))));
        run = ensure({s("archive"), path(s("c.tar.gz")), server.url(s("/files/app.tar.gz")), s("--extract"),
            path(s("missing-dir"))});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
    }

    void scaffoldRendersATemplateDirectory()
    {
        writeFile(*m_dir, s("templates/hello.txt"), "role [[ Facts.role ]]\n");
        writeFile(*m_dir, s("templates/empty.txt"), "");
        writeFile(*m_dir, s("gotemplates/go.txt"), "<< .Facts.role >>\n");
        setFacts(R"({"role": "web"})");
        BackendRun run = ensure({s("scaffold"), path(s("site")), path(s("templates")), s("--skip-empty")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("site/hello.txt"))), QByteArray("role web\n"));
        QVERIFY(!QFileInfo::exists(path(s("site/empty.txt"))));

        run = ensure({s("scaffold"), path(s("gosite")), path(s("gotemplates")), s("--engine"), s("go"),
            s("--left-delimiter"), s("<<"), s("--right-delimiter"), s(">>")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(readFile(path(s("gosite/go.txt"))), QByteArray("web\n"));

        writeFile(*m_dir, s("site/stray.txt"), "not rendered\n");
        run = ensure({s("scaffold"), path(s("site")), path(s("templates")), s("--skip-empty"), s("--purge")});
        QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QFileInfo::exists(path(s("site/stray.txt"))));
        run = ensure({s("scaffold"), path(s("site")), path(s("no-such-templates"))});
        QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
    }
};

CCM_TEST_GUILESS_MAIN(TestEnsureCli)
#include "tst_ensure_cli.moc"
