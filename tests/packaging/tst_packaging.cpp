// SPDX-License-Identifier: Apache-2.0
// The systemd units and sysusers.d file the system backend is installed with.
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm::test;

namespace {

QString packagingPath(const QString &relative)
{
    return QStringLiteral(CCM_SOURCE_DIR "/packaging/") + relative;
}

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

/// The settings of one section of a unit file; a key given twice keeps its last value, as systemd
/// does for the settings checked here.
QMap<QString, QString> sectionSettings(const QString &text, const QString &section)
{
    QMap<QString, QString> settings;
    bool inside = false;
    for (const QString &rawLine : text.split(QLatin1Char('\n'))) {
        const QString line = rawLine.trimmed();
        if (line.startsWith(QLatin1Char('['))) {
            inside = line == QLatin1Char('[') + section + QLatin1Char(']');
            continue;
        }
        if (!inside || line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals > 0)
            settings.insert(line.left(equals), line.mid(equals + 1));
    }
    return settings;
}

struct ProcessResult {
    int exitCode = -1;
    QString output;
};

ProcessResult runProgram(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {
        process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2, QString::fromUtf8(process.readAll())};
}

} // namespace

class TestPackaging : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void socketSettings_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("path") << QStringLiteral("ListenStream") << QStringLiteral("/run/ccm-designer/backend.sock");
        QTest::newRow("mode") << QStringLiteral("SocketMode") << QStringLiteral("0660");
        QTest::newRow("owner") << QStringLiteral("SocketUser") << QStringLiteral("root");
        QTest::newRow("group") << QStringLiteral("SocketGroup") << QStringLiteral("ccm-designer");
        QTest::newRow("directory") << QStringLiteral("DirectoryMode") << QStringLiteral("0755");
        QTest::newRow("one daemon") << QStringLiteral("Accept") << QStringLiteral("no");
    }

    void socketSettings()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        const auto settings = sectionSettings(
            readText(packagingPath(QStringLiteral("systemd/ccm-backend.socket"))), QStringLiteral("Socket"));
        QVERIFY2(settings.contains(key), qPrintable(key));
        QCOMPARE(settings.value(key), value);
    }

    void serviceSettings_data()
    {
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        const QString service = QStringLiteral("Service");
        QTest::newRow("exec") << service << QStringLiteral("ExecStart") << QStringLiteral("/usr/bin/ccm-backend serve");
        QTest::newRow("requires socket") << QStringLiteral("Unit") << QStringLiteral("Requires")
                                         << QStringLiteral("ccm-backend.socket");
        QTest::newRow("writes /usr and /etc") << service << QStringLiteral("ProtectSystem") << QStringLiteral("no");
        QTest::newRow("writes /home") << service << QStringLiteral("ProtectHome") << QStringLiteral("no");
        QTest::newRow("real /tmp") << service << QStringLiteral("PrivateTmp") << QStringLiteral("no");
        QTest::newRow("setuid programs") << service << QStringLiteral("NoNewPrivileges") << QStringLiteral("no");
        QTest::newRow("devices") << service << QStringLiteral("PrivateDevices") << QStringLiteral("no");
        QTest::newRow("setuid files") << service << QStringLiteral("RestrictSUIDSGID") << QStringLiteral("no");
        QTest::newRow("address families") << service << QStringLiteral("RestrictAddressFamilies")
                                          << QStringLiteral("AF_UNIX AF_INET AF_INET6 AF_NETLINK");
        QTest::newRow("realtime") << service << QStringLiteral("RestrictRealtime") << QStringLiteral("yes");
        QTest::newRow("personality") << service << QStringLiteral("LockPersonality") << QStringLiteral("yes");
        QTest::newRow("namespaces") << service << QStringLiteral("RestrictNamespaces") << QStringLiteral("yes");
    }

    void serviceSettings()
    {
        QFETCH(QString, section);
        QFETCH(QString, key);
        QFETCH(QString, value);
        const auto settings
            = sectionSettings(readText(packagingPath(QStringLiteral("systemd/ccm-backend.service"))), section);
        QVERIFY2(settings.contains(key), qPrintable(key));
        QCOMPARE(settings.value(key), value);
    }

    void everyHardeningOptionSaysWhy()
    {
        const QStringList lines
            = readText(packagingPath(QStringLiteral("systemd/ccm-backend.service"))).split(QLatin1Char('\n'));
        const QStringList options {QStringLiteral("ProtectSystem"), QStringLiteral("ProtectHome"),
            QStringLiteral("PrivateTmp"), QStringLiteral("NoNewPrivileges"), QStringLiteral("PrivateDevices"),
            QStringLiteral("ProtectKernelTunables"), QStringLiteral("ProtectKernelModules"),
            QStringLiteral("ProtectKernelLogs"), QStringLiteral("ProtectControlGroups"), QStringLiteral("ProtectClock"),
            QStringLiteral("ProtectHostname"), QStringLiteral("RestrictSUIDSGID"),
            QStringLiteral("SystemCallArchitectures"), QStringLiteral("SystemCallFilter"),
            QStringLiteral("MemoryDenyWriteExecute"), QStringLiteral("CapabilityBoundingSet"),
            QStringLiteral("RestrictAddressFamilies"), QStringLiteral("RestrictRealtime"),
            QStringLiteral("LockPersonality"), QStringLiteral("RestrictNamespaces"), QStringLiteral("KeyringMode"),
            QStringLiteral("UMask")};
        for (const QString &option : options) {
            qsizetype index = -1;
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (lines[i].startsWith(option + QLatin1Char('=')))
                    index = i;
            }
            QVERIFY2(index > 0, qPrintable(option + QStringLiteral(" is not set")));
            QVERIFY2(lines[index - 1].startsWith(QLatin1Char('#')),
                qPrintable(option + QStringLiteral(" has no comment saying why")));
        }
    }

    void unitsVerify()
    {
        const QString analyze = QStandardPaths::findExecutable(QStringLiteral("systemd-analyze"));
        if (analyze.isEmpty())
            QSKIP("systemd-analyze is not installed");
        // verify insists that ExecStart names an executable that exists here.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString service = readText(packagingPath(QStringLiteral("systemd/ccm-backend.service")));
        QVERIFY(service.contains(QStringLiteral("ExecStart=/usr/bin/ccm-backend ")));
        service.replace(
            QStringLiteral("ExecStart=/usr/bin/ccm-backend "), QStringLiteral("ExecStart=" CCM_BACKEND_BIN " "));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("ccm-backend.service")), service.toUtf8()));
        QVERIFY(QFile::copy(packagingPath(QStringLiteral("systemd/ccm-backend.socket")),
            dir.filePath(QStringLiteral("ccm-backend.socket"))));
        const ProcessResult result = runProgram(analyze,
            {QStringLiteral("verify"), QStringLiteral("--man=no"), dir.filePath(QStringLiteral("ccm-backend.socket")),
                dir.filePath(QStringLiteral("ccm-backend.service"))});
        QVERIFY2(result.exitCode == 0, qPrintable(result.output));
        // Unknown keys and bad values are only warnings to verify; the units must have none.
        QVERIFY2(!result.output.contains(QStringLiteral("ccm-backend")), qPrintable(result.output));
    }

    void sysusersCreatesBothGroups()
    {
        const QString sysusers = QStandardPaths::findExecutable(QStringLiteral("systemd-sysusers"));
        if (sysusers.isEmpty())
            QSKIP("systemd-sysusers is not installed");
        QTemporaryDir root;
        QVERIFY(root.isValid());
        QVERIFY(QDir(root.path()).mkpath(QStringLiteral("etc")));
        QVERIFY(writeFile(root.filePath(QStringLiteral("etc/passwd")), {}));
        QVERIFY(writeFile(root.filePath(QStringLiteral("etc/group")), {}));
        const ProcessResult result = runProgram(sysusers,
            {QStringLiteral("--dry-run"), QStringLiteral("--root=") + root.path(),
                packagingPath(QStringLiteral("sysusers.d/ccm-designer.conf"))});
        QVERIFY2(result.exitCode == 0, qPrintable(result.output));
        QVERIFY2(result.output.contains(QStringLiteral("Creating group 'ccm-designer'")), qPrintable(result.output));
        QVERIFY2(result.output.contains(QStringLiteral("Creating group 'ccm-apply'")), qPrintable(result.output));
    }
};

CCM_TEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
