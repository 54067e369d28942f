// SPDX-License-Identifier: Apache-2.0
// `ccm-backend status` (and its other name, info) as a user runs it, on real temporary paths.
#include "backend_process.h"
#include "test_main.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace ccm::test;

namespace {

QString sha256Of(const QByteArray &content)
{
    return QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
}

QJsonObject jsonOf(const BackendRun &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace

class TestStatusCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcessEnvironment m_environment = isolatedEnvironment(m_dir);

    BackendRun status(const QStringList &arguments)
    {
        return runBackend(QStringList {QStringLiteral("status")} + arguments, m_dir.path(), m_environment);
    }

    [[nodiscard]] QString path(const char *name) const { return m_dir.filePath(QString::fromUtf8(name)); }

    [[nodiscard]] static QString owner() { return currentUserName() + QLatin1Char(':') + currentGroupName(); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void presentFileAsYaml()
    {
        QVERIFY(writeFile(path("motd"), "hello\n"));
        QVERIFY(::chmod(path("motd").toLocal8Bit().constData(), 0640) == 0);
        const BackendRun run = status({QStringLiteral("file"), path("motd")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        const QString sum = sha256Of("hello\n");
        QVERIFY2(run.out.startsWith(
                     QStringLiteral("summary: present, 0640 ") + owner() + QStringLiteral(", sha256 ") + sum.left(12)),
            qPrintable(run.out));
        for (const QString &line : {QStringLiteral("\nensure: present\n"), QStringLiteral("\n  mode: \"0640\"\n"),
                 QStringLiteral("\n  checksum: \"") + sum + QStringLiteral("\"\n"), QStringLiteral("\n  size: 6\n")})
            QVERIFY2(run.out.contains(line), qPrintable(run.out));
        QVERIFY(!run.out.contains(QStringLiteral("differences")));
    }

    void infoIsTheSameCommand()
    {
        QVERIFY(writeFile(path("same"), "x"));
        const BackendRun info
            = runBackend({QStringLiteral("info"), QStringLiteral("file"), path("same")}, m_dir.path(), m_environment);
        QCOMPARE(info.exitCode, 0);
        QVERIFY2(info.out.startsWith(QStringLiteral("summary: present, ")), qPrintable(info.out));
    }

    void absentAndDirectoryAsJson()
    {
        const BackendRun absent = status({QStringLiteral("file"), path("none"), QStringLiteral("--json")});
        QCOMPARE(absent.exitCode, 0);
        QJsonObject json = jsonOf(absent);
        QCOMPARE(json[QStringLiteral("summary")].toString(), QStringLiteral("absent"));
        QCOMPARE(json[QStringLiteral("ensure")].toString(), QStringLiteral("absent"));
        QVERIFY(json[QStringLiteral("metadata")][QStringLiteral("mode")].isNull());

        QVERIFY(QDir().mkpath(path("conf.d")));
        QVERIFY(::chmod(path("conf.d").toLocal8Bit().constData(), 0750) == 0);
        const BackendRun directory
            = status({QStringLiteral("file"), path("conf.d"), QStringLiteral("--json"), QStringLiteral("--property"),
                QStringLiteral("ensure=directory"), QStringLiteral("--property"), QStringLiteral("mode=0755")});
        QCOMPARE(directory.exitCode, 0);
        json = jsonOf(directory);
        QCOMPARE(json[QStringLiteral("summary")].toString(), QStringLiteral("directory, 0750 ") + owner());
        QCOMPARE(json[QStringLiteral("metadata")][QStringLiteral("mode")].toString(), QStringLiteral("0750"));
        const QJsonArray differences = json[QStringLiteral("differences")].toArray();
        QCOMPARE(differences.size(), 1);
        QCOMPARE(differences[0].toObject()[QStringLiteral("property")].toString(), QStringLiteral("mode"));
        QCOMPARE(differences[0].toObject()[QStringLiteral("current")].toString(), QStringLiteral("0750"));
        QCOMPARE(differences[0].toObject()[QStringLiteral("wanted")].toString(), QStringLiteral("0755"));
    }

    void differencesFromPropertiesAsText()
    {
        QVERIFY(writeFile(path("app.conf"), "old\n"));
        QVERIFY(::chmod(path("app.conf").toLocal8Bit().constData(), 0600) == 0);
        const BackendRun run = status({QStringLiteral("file"), path("app.conf"), QStringLiteral("--properties"),
            QStringLiteral(R"({"ensure": "present", "content": "new\n", "owner": "0", "mode": "0600"})")});
        QCOMPARE(run.exitCode, 0);
        const QString expected = QStringLiteral("differences:\n  - property: content\n    current: sha256:")
            + sha256Of("old\n") + QStringLiteral("\n    wanted: sha256:") + sha256Of("new\n") + QStringLiteral("\n");
        // Owner 0 is the file's own owner only when the test runs as root.
        if (::geteuid() == 0)
            QVERIFY2(run.out.endsWith(expected), qPrintable(run.out));
        else
            QVERIFY2(run.out.contains(expected), qPrintable(run.out));
    }

    void execWithAndWithoutCreates()
    {
        const BackendRun unknown = status({QStringLiteral("exec"), QStringLiteral("/bin/true")});
        QCOMPARE(unknown.exitCode, 0);
        QVERIFY2(unknown.out.contains(QStringLiteral("cannot be told without running its command")),
            qPrintable(unknown.out));
        const BackendRun unknownJson
            = status({QStringLiteral("exec"), QStringLiteral("/bin/true"), QStringLiteral("--json")});
        QCOMPARE(jsonOf(unknownJson)[QStringLiteral("supported")].toBool(true), false);

        // A relative creates is found from the working directory.
        QVERIFY(writeFile(path("installed.flag"), ""));
        const BackendRun done = status({QStringLiteral("exec"), QStringLiteral("/bin/true"),
            QStringLiteral("--property"), QStringLiteral("creates=installed.flag"), QStringLiteral("--json")});
        QCOMPARE(done.exitCode, 0);
        QJsonObject json = jsonOf(done);
        QCOMPARE(json[QStringLiteral("metadata")][QStringLiteral("creates_exists")].toBool(), true);
        QCOMPARE(json[QStringLiteral("metadata")][QStringLiteral("provider")].toString(), QStringLiteral("posix"));
        QVERIFY(json[QStringLiteral("differences")].toArray().isEmpty());

        // --provider chooses another provider, as provider: does in a manifest.
        const BackendRun shell = status(
            {QStringLiteral("exec"), QStringLiteral("/bin/true"), QStringLiteral("--provider"), QStringLiteral("shell"),
                QStringLiteral("--property"), QStringLiteral("creates=installed.flag"), QStringLiteral("--json")});
        QCOMPARE(shell.exitCode, 0);
        QCOMPARE(
            jsonOf(shell)[QStringLiteral("metadata")][QStringLiteral("provider")].toString(), QStringLiteral("shell"));

        const BackendRun pending = status({QStringLiteral("exec"), QStringLiteral("/bin/true"),
            QStringLiteral("--property"), QStringLiteral("creates=") + path("never")});
        QCOMPARE(pending.exitCode, 0);
        QVERIFY2(pending.out.contains(QStringLiteral("the command would run")), qPrintable(pending.out));
        QVERIFY2(pending.out.contains(QStringLiteral("  - property: creates\n    current: false\n    wanted: true\n")),
            qPrintable(pending.out));
    }

    void archiveFile()
    {
        const QByteArray content = "archive bytes";
        QVERIFY(writeFile(path("app.tar.gz"), content));
        const BackendRun run = status({QStringLiteral("archive"), path("app.tar.gz"), QStringLiteral("--json"),
            QStringLiteral("--property"), QStringLiteral("checksum=") + sha256Of(content), QStringLiteral("--property"),
            QStringLiteral("creates=") + path("app/bin"), QStringLiteral("--property"),
            QStringLiteral("extract_parent=") + path("app")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(json[QStringLiteral("metadata")][QStringLiteral("checksum")].toString(), sha256Of(content));
        QCOMPARE(json[QStringLiteral("metadata")][QStringLiteral("size")].toInt(), 13);
        const QJsonArray differences = json[QStringLiteral("differences")].toArray();
        QCOMPARE(differences.size(), 1);
        QCOMPARE(differences[0].toObject()[QStringLiteral("property")].toString(), QStringLiteral("creates"));
        QVERIFY2(json[QStringLiteral("summary")].toString().startsWith(QStringLiteral("present, 13 bytes, ")),
            qPrintable(run.out));
    }

    void errorsAndUsage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown type") << QStringList {QStringLiteral("bogus"), QStringLiteral("x")} << 2
                                      << QStringLiteral("the types are archive exec file package scaffold service");
        QTest::newRow("missing name") << QStringList {QStringLiteral("file")} << 2
                                      << QStringLiteral("TYPE and NAME are required");
        QTest::newRow("unknown option") << QStringList {QStringLiteral("file"), QStringLiteral("/x"),
            QStringLiteral("--nope")} << 2
                                        << QStringLiteral("unknown option '--nope'");
        QTest::newRow("bad property") << QStringList {QStringLiteral("file"), QStringLiteral("/x"),
            QStringLiteral("--property"), QStringLiteral("mode")}
                                      << 2 << QStringLiteral("KEY=VALUE");
        QTest::newRow("relative file name") << QStringList {QStringLiteral("file"), QStringLiteral("etc/motd")} << 1
                                            << QStringLiteral("must be a clean absolute path");
        QTest::newRow("unknown provider") << QStringList {QStringLiteral("file"), QStringLiteral("/tmp"),
            QStringLiteral("--provider"), QStringLiteral("nope")}
                                          << 1 << QStringLiteral("unknown file provider 'nope'");
        QTest::newRow("invalid package name") << QStringList {QStringLiteral("package"), QStringLiteral("a b")} << 1
                                              << QStringLiteral("package name 'a b'");
    }
    void errorsAndUsage()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const BackendRun run = status(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    void helpSaysWhatItDoes()
    {
        const BackendRun run = status({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        for (const char *word : {"--json", "--provider", "--property", "--properties", "Exit status"})
            QVERIFY2(run.out.contains(QLatin1String(word)), word);
    }
};

CCM_TEST_GUILESS_MAIN(TestStatusCli)
#include "tst_status_cli.moc"
