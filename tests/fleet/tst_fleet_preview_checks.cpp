// SPDX-License-Identifier: Apache-2.0
// What `ccm-backend fleet` catches before or instead of a silent fleet, as real processes against a
// real nats-server and responders run by ccm-preview-fleet: keygen making the directories of a
// fresh home, a --select that does not parse refused before anything is sent, and the notice
// naming the untrusted key when no host answers.
#include "backend_process.h"
#include "base/signing_key.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/preview/preview_wire.h"
#include "nats_server.h"
#include "preview_fleet_process.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nats/nats.h>
#include <sys/stat.h>

using namespace ccm;
using ccm::test::BackendRun;
using ccm::test::runBackend;

namespace {

/// The permission bits of `path`, or -1 when it does not exist.
int modeOf(const QString &path)
{
    struct stat info { };
    if (::stat(path.toUtf8().constData(), &info) != 0)
        return -1;
    return int(info.st_mode & 07777);
}

BackendRun keygen(const QString &out, const QStringList &extra = {})
{
    return runBackend(
        QStringList {QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), out} + extra);
}

/// The fingerprint `fleet keygen` printed.
QString fingerprintOf(const BackendRun &run)
{
    static const QRegularExpression line(QStringLiteral("fingerprint: ([0-9a-f]{16})"));
    return line.match(run.out).captured(1);
}

/// `err` without the note a first preview on a server prints as it creates CCM_PREVIEW.
QString afterBucketNote(const QString &err)
{
    static const QString note = QStringLiteral("ccm-backend fleet preview: creating bucket 'CCM_PREVIEW' with ");
    return err.startsWith(note) ? err.mid(err.indexOf(QLatin1Char('\n')) + 1) : err;
}

} // namespace

class TestFleetPreviewChecks : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString trustedKey() const { return m_dir.filePath(QStringLiteral("trusted.pem")); }

    QString manifest() const
    {
        return ccm::test::writeFile(m_dir, QStringLiteral("manifest.yaml"),
            "ccm:\n  resources:\n    - file:\n        - " + m_dir.filePath(QStringLiteral("role")).toUtf8()
                + ":\n            ensure: present\n            owner: root\n            group: root\n            mode: "
                  "\"0644\"\n            content: \"role {{ Facts.role }}\\n\"\n");
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(keygen(trustedKey()).exitCode, 0);
    }

    void keygenMakesTheDirectoriesOfAFreshHome()
    {
        QTemporaryDir home;
        QVERIFY(QFile::setPermissions(home.path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
                | QFile::ReadOther | QFile::ExeOther));
        const QString key = home.filePath(QStringLiteral(".config/ccm/preview.pem"));
        const BackendRun made = keygen(key);
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        QCOMPARE(modeOf(home.filePath(QStringLiteral(".config"))), 0700);
        QCOMPARE(modeOf(home.filePath(QStringLiteral(".config/ccm"))), 0700);
        QCOMPARE(modeOf(key), 0600);
        QCOMPARE(modeOf(home.filePath(QStringLiteral(".config/ccm/preview.pub.pem"))), 0644);
        // The directory that was there keeps its mode.
        QCOMPARE(modeOf(home.path()), 0755);

        // Existing files are still refused without --force, and replaced with it, 0600 again.
        const BackendRun again = keygen(key);
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains(QStringLiteral("the file exists; use --force")), qPrintable(again.err));
        QCOMPARE(keygen(key, {QStringLiteral("--force")}).exitCode, 0);
        QCOMPARE(modeOf(key), 0600);

        // A --public elsewhere gets its directories too; one that exists keeps its mode.
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral("shared")));
        QVERIFY(QFile::setPermissions(home.filePath(QStringLiteral("shared")),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup));
        const BackendRun split = keygen(home.filePath(QStringLiteral("keys/ci/ci.pem")),
            {QStringLiteral("--public"), home.filePath(QStringLiteral("shared/pub/ci.pem"))});
        QVERIFY2(split.exitCode == 0, qPrintable(split.err));
        QCOMPARE(modeOf(home.filePath(QStringLiteral("keys"))), 0700);
        QCOMPARE(modeOf(home.filePath(QStringLiteral("keys/ci"))), 0700);
        QCOMPARE(modeOf(home.filePath(QStringLiteral("shared"))), 0750);
        QCOMPARE(modeOf(home.filePath(QStringLiteral("shared/pub"))), 0700);

        // A parent that is a file: the message names the directory that could not be made.
        QVERIFY(ccm::test::writeFile(home.filePath(QStringLiteral("plain")), "x"));
        const BackendRun blocked = keygen(home.filePath(QStringLiteral("plain/sub/k.pem")));
        QCOMPARE(blocked.exitCode, 1);
        QVERIFY2(blocked.err.contains(
                     QStringLiteral("cannot create the directory ") + home.filePath(QStringLiteral("plain/sub"))),
            qPrintable(blocked.err));
    }

    void selectThatDoesNotParseIsRefusedBeforeSending()
    {
        if (!ccm::test::NatsServer::available())
            QSKIP("nats-server is not installed");
        ccm::test::NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        ccm::test::PreviewFleetProcess fleet;
        QVERIFY(fleet.start({QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"),
            m_dir.filePath(QStringLiteral("trusted.pub.pem")), QStringLiteral("--hosts"), QStringLiteral("2"),
            QStringLiteral("--work"), m_dir.filePath(QStringLiteral("work")), QStringLiteral("--status"),
            QStringLiteral("yes")}));
        fleet::NatsSettings settings;
        settings.url = server.url().toStdString();
        auto watcher = fleet::NatsConnection::connect(settings);
        QVERIFY(watcher);
        natsSubscription *raw = nullptr;
        QCOMPARE(natsConnection_SubscribeSync(
                     &raw, watcher.value()->connection(), std::string(fleet::kPreviewRequestSubject).c_str()),
            NATS_OK);
        const fleet::NatsSubscriptionPtr requests(raw);
        QCOMPARE(natsConnection_Flush(watcher.value()->connection()), NATS_OK);

        const QString path = manifest();
        const BackendRun bad = runBackend(
            {QStringLiteral("fleet"), QStringLiteral("preview"), path, QStringLiteral("--key"), trustedKey(),
                QStringLiteral("--nats"), server.url(), QStringLiteral("--select"), QStringLiteral("Facts.role ==")});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.out, QString());
        QCOMPARE(bad.err,
            QStringLiteral("ccm-backend fleet preview: --select: unexpected end of expression, expected a value at "
                           "column 14\n  Facts.role ==\n               ^\nnothing was sent\n"));
        const BackendRun unclosed = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), path,
            QStringLiteral("--key"), trustedKey(), QStringLiteral("--nats"), server.url(), QStringLiteral("--select"),
            QStringLiteral("Facts.role in [\"web\", \"db\"")});
        QCOMPARE(unclosed.exitCode, 2);
        QVERIFY2(unclosed.err.contains(QStringLiteral("--select: ")) && unclosed.err.contains(QStringLiteral("column")),
            qPrintable(unclosed.err));

        // The first request the fleet sees is the valid one sent after the refused ones.
        const BackendRun good = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), path,
            QStringLiteral("--key"), trustedKey(), QStringLiteral("--nats"), server.url(), QStringLiteral("--select"),
            QStringLiteral("Facts.role == \"web\"")});
        QVERIFY2(good.exitCode == 0, qPrintable(good.err + good.out));
        QVERIFY2(good.out.contains(QStringLiteral("2 hosts: 2 answered, 0 silent, 1 declined")), qPrintable(good.out));
        natsMsg *first = nullptr;
        QCOMPARE(natsSubscription_NextMsg(&first, requests.get(), 10000), NATS_OK);
        const fleet::NatsMsgPtr message(first);
        auto request = fleet::decodeSignedRequest(std::string_view(
            natsMsg_GetData(first), static_cast<std::size_t>(std::max(0, natsMsg_GetDataLength(first)))));
        QVERIFY(request);
        QCOMPARE(request->request.select.value_or(""), std::string("Facts.role == \"web\""));
    }

    void silentFleetNamesTheUntrustedKey()
    {
        if (!ccm::test::NatsServer::available())
            QSKIP("nats-server is not installed");
        ccm::test::NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        ccm::test::PreviewFleetProcess fleet;
        QVERIFY(fleet.start({QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"),
            m_dir.filePath(QStringLiteral("trusted.pub.pem")), QStringLiteral("--hosts"), QStringLiteral("2"),
            QStringLiteral("--work"), m_dir.filePath(QStringLiteral("work")), QStringLiteral("--status"),
            QStringLiteral("yes")}));
        const QString other = m_dir.filePath(QStringLiteral("keys/other.pem"));
        const BackendRun made = keygen(other);
        QCOMPARE(made.exitCode, 0);
        const QString fingerprint = fingerprintOf(made);
        QVERIFY(!fingerprint.isEmpty());

        const BackendRun run
            = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), manifest(), QStringLiteral("--key"),
                other, QStringLiteral("--nats"), server.url(), QStringLiteral("--timeout"), QStringLiteral("2s")});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.out.contains(QStringLiteral("2 hosts: 0 answered, 2 silent")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("no answer: this agent may not trust the signing key (fingerprint ")
                     + fingerprint + QLatin1Char(')')),
            qPrintable(run.out));
        QVERIFY2(afterBucketNote(run.err).startsWith(
                     QStringLiteral("ccm-backend fleet preview: none of the 2 agents CCM_STATUS lists "
                                    "as alive answered within 2s. The likely reason: none trusts the "
                                    "key that signed the request (fingerprint ")
                     + fingerprint + QStringLiteral(").")),
            qPrintable(run.err));
        QVERIFY2(
            run.err.contains(QStringLiteral("To trust the key: copy ")
                + m_dir.filePath(QStringLiteral("keys/other.pub.pem")) + QStringLiteral(" (fingerprint ") + fingerprint
                + QStringLiteral(") to every agent, list it under preview.trusted_keys in "
                                 "/etc/choria/ccm/agent.yaml with preview.enabled: true, and run systemctl "
                                 "reload ccm-agent.")),
            qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("journalctl -u ccm-agent -p warning | grep ")), qPrintable(run.err));

        // The trusted key gets answers and no notice.
        const BackendRun trusted = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), manifest(),
            QStringLiteral("--key"), trustedKey(), QStringLiteral("--nats"), server.url()});
        QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.err + trusted.out));
        QCOMPARE(trusted.err, QString());
    }

    void noAgentAtAll()
    {
        if (!ccm::test::NatsServer::available())
            QSKIP("nats-server is not installed");
        ccm::test::NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        const BackendRun run = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), manifest(),
            QStringLiteral("--key"), trustedKey(), QStringLiteral("--nats"), server.url(), QStringLiteral("--timeout"),
            QStringLiteral("1s"), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.out, QString());
        QVERIFY2(afterBucketNote(run.err).startsWith(
                     QStringLiteral("ccm-backend fleet preview: no agent answered within 1s, and "
                                    "CCM_STATUS lists no live agent. Either no agent with "
                                    "preview.enabled reports to this NATS server, or none trusts the "
                                    "key that signed the request (fingerprint ")),
            qPrintable(run.err));
        QVERIFY2(run.err.contains(m_dir.filePath(QStringLiteral("trusted.pub.pem"))), qPrintable(run.err));
    }
};

CCM_TEST_GUILESS_MAIN(TestFleetPreviewChecks)
#include "tst_fleet_preview_checks.moc"
