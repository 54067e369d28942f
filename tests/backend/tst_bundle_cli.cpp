// SPDX-License-Identifier: Apache-2.0
// `ccm-backend bundle`, and bundles given to validate, render and apply, as a user runs them: a
// real process, with TMPDIR in the test's own directory so that what unpacking leaves behind shows.
#include "apply_events.h"
#include "backend_process.h"
#include "core/model/json.h"
#include "test_main.h"

#include <QDir>
#include <QTest>

#include <csignal>

using namespace ccm;
using namespace ccm::test;

namespace {

QStringList args(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *arg : list)
        out << QString::fromUtf8(arg);
    return out;
}

constexpr char kFileProperties[] = "            ensure: present\n            owner: root\n            group: root\n"
                                   "            mode: \"0644\"\n";

} // namespace

class TestBundleCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_tmp;
    QProcessEnvironment m_environment = isolatedEnvironment(m_dir);

    BackendRun backend(const QStringList &arguments) { return runBackend(arguments, m_dir.path(), m_environment); }

    /// What the commands left in TMPDIR.
    QStringList leftInTmp() const
    {
        return QDir(m_tmp).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    }

    QString bundleOf(const QString &manifest, const QString &name)
    {
        const QString out = m_dir.filePath(name);
        const BackendRun run = backend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), out});
        if (run.exitCode != 0)
            qWarning("bundle %s: %s", qPrintable(manifest), qPrintable(run.err));
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_tmp = m_dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(m_tmp));
        m_environment.insert(QStringLiteral("TMPDIR"), m_tmp);
    }

    void cleanup() { QCOMPARE(leftInTmp(), QStringList()); }

    void writesAndLists()
    {
        const QString out = m_dir.filePath(QStringLiteral("static-site.tar.gz"));
        const BackendRun list = backend(
            {QStringLiteral("bundle"), examplePath(QStringLiteral("static-site.yaml")), QStringLiteral("--list")});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out, QStringLiteral("files/robots.txt\nmanifest.yaml\nparts/site-logs.yaml\nSHA256SUMS\n"));
        QVERIFY(!QFile::exists(out));

        const BackendRun run = backend(
            {QStringLiteral("bundle"), examplePath(QStringLiteral("static-site.yaml")), QStringLiteral("-o"), out});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.err.contains(QStringLiteral("wrote ") + out));
        QVERIFY(QFileInfo(out).size() > 0);
    }

    void signsAndEveryCommandSaysWhoSigned()
    {
        const BackendRun keygen = backend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"),
            m_dir.filePath(QStringLiteral("keys/ana.pem"))});
        QCOMPARE(keygen.exitCode, 0);
        const QString fingerprint = keygen.out.section(QStringLiteral("fingerprint: "), 1).trimmed();
        QCOMPARE(fingerprint.size(), 16);
        QCOMPARE(backend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"),
                             m_dir.filePath(QStringLiteral("keys/bo.pem"))})
                     .exitCode,
            0);
        const QString key = m_dir.filePath(QStringLiteral("keys/ana.pem"));
        const QString publicKey = m_dir.filePath(QStringLiteral("keys/ana.pub.pem"));
        const QString otherKey = m_dir.filePath(QStringLiteral("keys/bo.pub.pem"));
        const QString manifest = examplePath(QStringLiteral("static-site.yaml"));
        const QString signedBundle = m_dir.filePath(QStringLiteral("signed.tgz"));
        const QString again = m_dir.filePath(QStringLiteral("again.tgz"));
        const QString plain = m_dir.filePath(QStringLiteral("plain.tgz"));

        const BackendRun list
            = backend({QStringLiteral("bundle"), manifest, QStringLiteral("--list"), QStringLiteral("--sign"), key});
        QCOMPARE(list.out,
            QStringLiteral("files/robots.txt\nmanifest.yaml\nparts/site-logs.yaml\nSHA256SUMS\nSHA256SUMS.sig\n"));
        for (const QString &out : {signedBundle, again}) {
            const BackendRun run = backend(
                {QStringLiteral("bundle"), manifest, QStringLiteral("-o"), out, QStringLiteral("--sign"), key});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QVERIFY2(run.err.contains(QStringLiteral("(5 files), signed by key ") + fingerprint), qPrintable(run.err));
        }
        QCOMPARE(readAll(signedBundle), readAll(again));
        QCOMPARE(backend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), plain}).exitCode, 0);

        const QString note = QStringLiteral(": signed.tgz: signed by key ") + fingerprint + QLatin1Char('\n');
        const BackendRun validate = backend({QStringLiteral("validate"), QStringLiteral("signed.tgz")});
        QCOMPARE(validate.exitCode, 0);
        QVERIFY2(validate.err.contains(QStringLiteral("ccm-backend validate") + note), qPrintable(validate.err));
        const BackendRun render = backend({QStringLiteral("render"), QStringLiteral("signed.tgz")});
        QCOMPARE(render.exitCode, 0);
        QVERIFY2(render.err.contains(QStringLiteral("ccm-backend render") + note), qPrintable(render.err));
        const BackendRun apply = backend({QStringLiteral("apply"), QStringLiteral("--noop"),
            QStringLiteral("signed.tgz"), QStringLiteral("--require-signature"), publicKey});
        QVERIFY2(apply.err.contains(QStringLiteral("ccm-backend apply") + note), qPrintable(apply.err));
        const BackendRun json
            = backend({QStringLiteral("validate"), QStringLiteral("--json"), QStringLiteral("signed.tgz")});
        const Json report = Json::parse(json.out.toStdString());
        QCOMPARE(stringMember(report["files"][0]["signature"], "state"), std::string("signed"));
        QCOMPARE(stringMember(report["files"][0]["signature"], "fingerprint"), fingerprint.toStdString());

        const BackendRun unsignedRun = backend({QStringLiteral("validate"), QStringLiteral("plain.tgz")});
        QCOMPARE(unsignedRun.exitCode, 0);
        QVERIFY2(unsignedRun.err.contains(QStringLiteral("plain.tgz: not signed")), qPrintable(unsignedRun.err));
    }

    void requireSignatureRefuses_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("bundle");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("message");
        for (const char *command : {"validate", "render", "apply"}) {
            QTest::addRow("%s unsigned", command)
                << s(command) << s("plain.tgz") << s("keys/ana.pub.pem")
                << s("it is not signed, and only bundles signed by a trusted key are accepted");
            QTest::addRow("%s other key", command)
                << s(command) << s("signed.tgz") << s("keys/bo.pub.pem") << s("which is not trusted");
            QTest::addRow("%s manifest file", command)
                << s(command) << examplePath(QStringLiteral("static-site.yaml")) << s("keys/ana.pem")
                << s("a manifest file cannot carry a signature");
            QTest::addRow("%s no key", command) << s(command) << s("signed.tgz") << s("keys/none.pem")
                                                << s("--require-signature: keys/none.pem: no such key file");
        }
    }

    void requireSignatureRefuses()
    {
        QFETCH(QString, command);
        QFETCH(QString, bundle);
        QFETCH(QString, key);
        QFETCH(QString, message);
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("signed.tgz"))));
        QStringList arguments {command, bundle, QStringLiteral("--require-signature"), key};
        if (command == QLatin1String("apply"))
            arguments.insert(1, QStringLiteral("--noop"));
        const BackendRun run = backend(arguments);
        // A refused bundle is an invalid manifest: apply's status for that is 2, the others' 1.
        const bool usage = key.endsWith(QLatin1String("none.pem")) || command == QLatin1String("apply");
        QVERIFY2(run.exitCode == (usage ? 2 : 1), qPrintable(run.err + run.out));
        QVERIFY2((run.err + run.out).contains(message), qPrintable(run.err + run.out));
        QVERIFY(!(run.err + run.out).contains(QStringLiteral("Applying")));
    }

    void reportsWhatItCannotHold()
    {
        const QString site = writeFile(m_dir, QStringLiteral("site/site.yaml"),
            QByteArray("ccm:\n  resources:\n    - file:\n        - /etc/motd:\n") + kFileProperties
                + "            source: ../secret\n" + "        - /etc/issue:\n" + kFileProperties
                + "            content: \"{{ readFile(Data.issue) }}\"\n");
        writeFile(m_dir, QStringLiteral("secret"), "s");
        const QString out = m_dir.filePath(QStringLiteral("site.tgz"));
        const BackendRun run = backend({QStringLiteral("bundle"), QStringLiteral("site/site.yaml"),
            QStringLiteral("-o"), out, QStringLiteral("--list")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("site/site.yaml:9:21: error: file#/etc/motd: source '../secret' "
                                                 "leaves the manifest's directory")),
            qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("site/site.yaml:15:35: warning: file#/etc/issue: content: the "
                                                 "argument of readFile() is computed at run time")),
            qPrintable(run.err));
        QVERIFY(run.err.contains(QStringLiteral("cannot be bundled; nothing was written")));
        QVERIFY(run.out.isEmpty());
        QVERIFY(!QFile::exists(out));
        QVERIFY(QFile::exists(site));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no manifest") << args({"bundle", "-o", "x.tgz"}) << QStringLiteral("no manifest given");
        QTest::newRow("no output") << args({"bundle", "site.yaml"}) << QStringLiteral("no output file given");
        QTest::newRow("not a bundle name")
            << args({"bundle", "site.yaml", "-o", "x.zip"}) << QStringLiteral("must end in .tar.gz or .tgz");
        QTest::newRow("-o without a value")
            << args({"bundle", "site.yaml", "-o"}) << QStringLiteral("option -o needs a file name");
        QTest::newRow("unknown option") << args({"bundle", "site.yaml", "--nope"})
                                        << QStringLiteral("unknown option '--nope'");
        QTest::newRow("two manifests") << args({"bundle", "a.yaml", "b.yaml", "--list"})
                                       << QStringLiteral("only one manifest may be given");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const BackendRun run = backend(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    }

    void bundleRendersAsItsSource_data()
    {
        QTest::addColumn<QString>("example");
        for (const char *name : {"static-site.yaml", "composition.yaml", "scaffold.yaml", "hiera.yaml",
                 "webserver.yaml", "packages.yaml", "archive-install.yaml"})
            QTest::newRow(name) << QString::fromUtf8(name);
    }

    void bundleRendersAsItsSource()
    {
        QFETCH(QString, example);
        const QString bundle = bundleOf(examplePath(example), example + QStringLiteral(".tgz"));
        const BackendRun source = backend({QStringLiteral("render"), examplePath(example)});
        QVERIFY2(source.exitCode == 0, qPrintable(source.err));
        const BackendRun bundled = backend({QStringLiteral("render"), bundle});
        QVERIFY2(bundled.exitCode == 0, qPrintable(bundled.err));
        QCOMPARE(bundled.out, source.out);
    }

    void bundlesAreNamedInAnyCase()
    {
        const QString example = examplePath(QStringLiteral("static-site.yaml"));
        const BackendRun written = backend(
            {QStringLiteral("bundle"), example, QStringLiteral("-o"), m_dir.filePath(QStringLiteral("SITE.TGZ"))});
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
        const BackendRun source = backend({QStringLiteral("render"), example});
        const BackendRun bundled = backend({QStringLiteral("render"), m_dir.filePath(QStringLiteral("SITE.TGZ"))});
        QVERIFY2(bundled.exitCode == 0, qPrintable(bundled.err));
        QCOMPARE(bundled.out, source.out);
    }

    void bundleAppliesAsItsSource_data()
    {
        QTest::addColumn<QString>("example");
        for (const char *name : {"static-site.yaml", "scaffold.yaml", "composition.yaml"})
            QTest::newRow(name) << QString::fromUtf8(name);
    }

    void bundleAppliesAsItsSource()
    {
        QFETCH(QString, example);
        const QString bundle = bundleOf(examplePath(example), example + QStringLiteral(".tgz"));
        const QStringList noop {QStringLiteral("apply"), QStringLiteral("--noop"), QStringLiteral("--json")};
        const BackendRun source = backend(noop + QStringList {examplePath(example)});
        const BackendRun bundled = backend(noop + QStringList {bundle});
        QCOMPARE(bundled.exitCode, source.exitCode);
        const QList<Json> events = stableEvents(source.out);
        QVERIFY(events.size() > 1);
        QCOMPARE(stableEvents(bundled.out), events);
    }

    void validateNamesTheMember()
    {
        const QString content = m_dir.filePath(QStringLiteral("bad"));
        writeFile(m_dir, QStringLiteral("bad/manifest.yaml"),
            "ccm:\n  resources:\n    - package:\n        - vim:\n            ensrue: present\n");
        QProcess tar;
        tar.start(QStringLiteral("tar"),
            {QStringLiteral("-czf"), m_dir.filePath(QStringLiteral("bad.tgz")), QStringLiteral("-C"), content,
                QStringLiteral("manifest.yaml")});
        QVERIFY(tar.waitForFinished());
        QCOMPARE(tar.exitCode(), 0);
        const BackendRun run = backend({QStringLiteral("validate"), QStringLiteral("bad.tgz")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(QStringLiteral("bad.tgz(manifest.yaml):5:13: error: ")), qPrintable(run.out));
    }

    void hostileBundlesAreRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("expected");
        const QString member = QStringLiteral("member 'link': is a symbolic link");
        QTest::newRow("validate") << QStringLiteral("validate") << QStringLiteral("hostile.tar.gz: error: ") + member;
        QTest::newRow("render") << QStringLiteral("render")
                                << QStringLiteral("ccm-backend render: bundle hostile.tar.gz: ") + member;
        QTest::newRow("apply") << QStringLiteral("apply")
                               << QStringLiteral("ccm-backend apply: bundle hostile.tar.gz: ") + member;
    }

    void hostileBundlesAreRefused()
    {
        QFETCH(QString, command);
        QFETCH(QString, expected);
        const QString content = m_dir.filePath(QStringLiteral("hostile"));
        writeFile(m_dir, QStringLiteral("hostile/manifest.yaml"),
            "ccm:\n  resources:\n    - package:\n        - vim:\n            ensure: present\n");
        QFile::remove(content + QStringLiteral("/link"));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), content + QStringLiteral("/link")));
        QProcess tar;
        tar.start(QStringLiteral("tar"),
            {QStringLiteral("-czf"), m_dir.filePath(QStringLiteral("hostile.tar.gz")), QStringLiteral("-C"), content,
                QStringLiteral("manifest.yaml"), QStringLiteral("link")});
        QVERIFY(tar.waitForFinished());
        QCOMPARE(tar.exitCode(), 0);
        const BackendRun run = backend({command, QStringLiteral("hostile.tar.gz")});
        QCOMPARE(run.exitCode, command == QLatin1String("apply") ? 2 : 1);
        QVERIFY2((run.out + run.err).contains(expected), qPrintable(run.out + run.err));
    }

    void aSignalRemovesTheUnpackedBundle()
    {
        // One resource that runs until it is killed, and says so with its process id.
        const QString marker = m_dir.filePath(QStringLiteral("started"));
        const QString site = writeFile(m_dir, QStringLiteral("slow/site.yaml"),
            QStringLiteral("ccm:\n  resources:\n    - exec:\n        - slow:\n"
                           "            command: echo $$ > %1.tmp && mv %1.tmp %1 && "
                           "exec sleep 60\n            provider: shell\n")
                .arg(marker)
                .toUtf8());
        const QString bundle = bundleOf(site, QStringLiteral("slow.tgz"));
        QProcess process;
        process.setProcessEnvironment(m_environment);
        process.setWorkingDirectory(m_dir.path());
        process.start(QStringLiteral(CCM_BACKEND_BIN), {QStringLiteral("apply"), bundle});
        QVERIFY(process.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
        QFile pidFile(marker);
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const pid_t sleeper = pid_t(pidFile.readAll().trimmed().toInt());
        QVERIFY(sleeper > 0);
        QCOMPARE(leftInTmp().size(), 1);
        // The first signal asks the run to stop after the resource in progress; another ends it.
        // Signals sent at once may merge into one, so one is sent at each poll until it ends.
        QTRY_VERIFY_WITH_TIMEOUT(
            process.state() == QProcess::NotRunning || (::kill(pid_t(process.processId()), SIGTERM), false), 30000);
        ::kill(sleeper, SIGKILL);
        QCOMPARE(process.exitStatus(), QProcess::CrashExit);
        QCOMPARE(leftInTmp(), QStringList());
    }
};

CCM_TEST_GUILESS_MAIN(TestBundleCli)
#include "tst_bundle_cli.moc"
