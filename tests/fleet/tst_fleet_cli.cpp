// SPDX-License-Identifier: Apache-2.0
// `ccm-backend fleet keygen`, `fleet preview` and `fleet status` as real processes, against a real
// nats-server and a fleet of responders run by ccm-preview-fleet.
#include "backend_process.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using ccm::test::BackendRun;
using ccm::test::runBackend;

namespace {

/// ccm-preview-fleet running until the object goes; ready once it said so.
class FleetProcess {
public:
    bool start(const QStringList &arguments)
    {
        m_process.start(QStringLiteral(CCM_PREVIEW_FLEET_BIN), arguments);
        if (!m_process.waitForStarted(30000))
            return false;
        while (!m_output.contains("ready")) {
            if (!m_process.waitForReadyRead(30000))
                return false;
            m_output += m_process.readAllStandardOutput();
        }
        return true;
    }
    ~FleetProcess()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(30000))
            m_process.kill();
        m_process.waitForFinished();
    }

private:
    QProcess m_process;
    QByteArray m_output;
};

QList<QJsonObject> jsonLines(const QString &text)
{
    QList<QJsonObject> lines;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        lines.append(QJsonDocument::fromJson(line.toUtf8()).object());
    return lines;
}

} // namespace

class TestFleetCli : public QObject {
    Q_OBJECT

private slots:
    void keygen()
    {
        QTemporaryDir dir;
        const QString key = dir.filePath(QStringLiteral("signer.pem"));
        const BackendRun made = runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), key});
        QCOMPARE(made.exitCode, 0);
        QVERIFY2(made.out.contains(QStringLiteral("fingerprint: ")), qPrintable(made.out));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("signer.pub.pem"))));
        struct stat info { };
        QCOMPARE(::stat(key.toUtf8().constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
        const BackendRun again = runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), key});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains(QStringLiteral("--force")), qPrintable(again.err));
        QCOMPARE(runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), key,
                     QStringLiteral("--force")})
                     .exitCode,
            0);
        QCOMPARE(runBackend({QStringLiteral("fleet"), QStringLiteral("keygen")}).exitCode, 2);
        for (const char *command : {"preview", "status", "keygen"}) {
            const BackendRun help = runBackend({QStringLiteral("fleet"), QString::fromLatin1(command), QStringLiteral("--help")});
            QCOMPARE(help.exitCode, 0);
            QVERIFY2(help.out.contains(QStringLiteral("Exit status")), qPrintable(help.out));
        }
    }

    void previewAndStatus()
    {
        if (!ccm::test::NatsServer::available())
            QSKIP("nats-server is not installed");
        ccm::test::NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        QTemporaryDir dir;
        const QString key = dir.filePath(QStringLiteral("signer.pem"));
        QCOMPARE(runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), key}).exitCode, 0);
        FleetProcess fleet;
        QVERIFY(fleet.start({QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"),
            dir.filePath(QStringLiteral("signer.pub.pem")), QStringLiteral("--hosts"), QStringLiteral("2"),
            QStringLiteral("--work"), dir.filePath(QStringLiteral("work")), QStringLiteral("--status"), QStringLiteral("yes")}));
        const QString target = dir.filePath(QStringLiteral("role"));
        QVERIFY(ccm::test::writeFile(target, "role web\n"));
        const QString manifest = ccm::test::writeFile(dir, QStringLiteral("manifest.yaml"),
            "ccm:\n  resources:\n    - file:\n        - " + target.toUtf8()
                + ":\n            ensure: present\n            owner: root\n            group: root\n            mode: \"0644\"\n"
                  "            content: \"role {{ Facts.role }}\\n\"\n");

        const BackendRun table = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), manifest, QStringLiteral("--key"),
            key, QStringLiteral("--nats"), server.url()});
        QVERIFY2(table.exitCode == 0, qPrintable(table.err + table.out));
        QVERIFY2(table.out.contains(QStringLiteral("host-0")) && table.out.contains(QStringLiteral("host-1")), qPrintable(table.out));
        QVERIFY2(table.out.contains(QStringLiteral("2 hosts: 2 answered, 0 silent")), qPrintable(table.out));
        QVERIFY2(table.out.contains(QStringLiteral("1 resources would change")), qPrintable(table.out));

        const BackendRun json = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), manifest, QStringLiteral("--key"),
            key, QStringLiteral("--nats"), server.url(), QStringLiteral("--json"), QStringLiteral("--select"),
            QStringLiteral("Facts.role == \"db\"")});
        QCOMPARE(json.exitCode, 0);
        const QList<QJsonObject> hosts = jsonLines(json.out);
        QCOMPARE(hosts.size(), 2);
        QCOMPARE(hosts[0][QStringLiteral("identity")].toString(), QStringLiteral("host-0"));
        QCOMPARE(hosts[0][QStringLiteral("state")].toString(), QStringLiteral("declined"));
        QCOMPARE(hosts[1][QStringLiteral("state")].toString(), QStringLiteral("done"));
        QCOMPARE(hosts[1][QStringLiteral("events")].toArray().size(), 1);
        QCOMPARE(hosts[1][QStringLiteral("summary")].toObject()[QStringLiteral("changed")].toInt(), 1);

        const BackendRun status = runBackend({QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--json"),
            QStringLiteral("--nats"), server.url()});
        QCOMPARE(status.exitCode, 0);
        const QList<QJsonObject> listed = jsonLines(status.out);
        QCOMPARE(listed.size(), 2);
        QCOMPARE(listed[0][QStringLiteral("stale")].toBool(), false);
        const BackendRun statusTable = runBackend({QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--nats"), server.url()});
        QCOMPARE(statusTable.exitCode, 0);
        QVERIFY2(statusTable.out.contains(QStringLiteral("host-1")), qPrintable(statusTable.out));
        // Seconds-precision time, the age, the counts and the state, one host per line.
        static const QRegularExpression row(
            QStringLiteral("^host-1 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ +\\d+s +\\d+ +\\d+ +\\d+  ok$"),
            QRegularExpression::MultilineOption);
        QVERIFY2(row.match(statusTable.out).hasMatch(), qPrintable(statusTable.out));
    }

    void previewErrors()
    {
        QTemporaryDir dir;
        const BackendRun noKey = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), QStringLiteral("m.yaml")});
        QCOMPARE(noKey.exitCode, 2);
        QVERIFY2(noKey.err.contains(QStringLiteral("--key is required")), qPrintable(noKey.err));
        const BackendRun missing = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), QStringLiteral("m.yaml"),
            QStringLiteral("--key"), dir.filePath(QStringLiteral("none.pem")), QStringLiteral("--nats"), QStringLiteral("nats://127.0.0.1:1")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("fleet keygen")), qPrintable(missing.err));
        const BackendRun badTimeout = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), QStringLiteral("m.yaml"),
            QStringLiteral("--key"), QStringLiteral("k"), QStringLiteral("--timeout"), QStringLiteral("soon")});
        QCOMPARE(badTimeout.exitCode, 2);
    }
};

CCM_TEST_GUILESS_MAIN(TestFleetCli)
#include "tst_fleet_cli.moc"
