// SPDX-License-Identifier: Apache-2.0
// Drift versus intent, end to end: a real nats-server, real `ccm-backend agent` processes and a
// real `ccm-backend fleet preview`. web-1 keeps a published bundle applied; one of its files is
// then changed behind its back. A proposal that edits another file, keeps the drifted one as the
// bundle has it and adds a third is classed by web-1 as intended, drift and added; web-2, which
// follows no remote source, says it has no current bundle.
#include "fleet_agent_process.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <pwd.h>
#include <sys/stat.h>

using namespace ccm;
using ccm::test::BackendRun;
using ccm::test::FleetAgent;
using ccm::test::kStartup;
using ccm::test::previewUser;
using ccm::test::runBackend;

namespace drift_test {

QMap<QString, QJsonObject> driftHosts(const QString &out)
{
    QMap<QString, QJsonObject> hosts;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QJsonObject host = QJsonDocument::fromJson(line.toUtf8()).object();
        hosts.insert(host[QStringLiteral("identity")].toString(), host);
    }
    return hosts;
}

/// The class of each event of a host, by the event's resource.
QMap<QString, QString> classesOf(const QJsonObject &host)
{
    QMap<QString, QString> classes;
    for (const QJsonValue &event : host[QStringLiteral("events")].toArray())
        classes.insert(event[QStringLiteral("resource")].toString(), event[QStringLiteral("class")].toString());
    return classes;
}

QByteArray readOrAbsent(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("absent");
}

QByteArray fileResource(const char *suffix, const char *content)
{
    return QByteArray("        - \"{{ Facts.target }}") + suffix
        + "\":\n            ensure: present\n            owner: root\n            group: root\n"
          "            mode: \"0644\"\n            content: \""
        + content + "\\n\"\n";
}

} // namespace drift_test

using namespace drift_test;

class TestFleetDrift : public QObject {
    Q_OBJECT

private:
    test::NatsServer m_server;
    QTemporaryDir m_dir;
    QString m_signer;
    QString m_proposal;
    QString m_marker; ///< written by the current bundle's exec guard whenever it runs
    std::unique_ptr<FleetAgent> m_web1; ///< follows obj://SITE/site
    std::unique_ptr<FleetAgent> m_web2; ///< follows no remote source

    BackendRun preview(const QStringList &extra = {})
    {
        return runBackend(QStringList {QStringLiteral("fleet"), QStringLiteral("preview"), m_proposal,
                              QStringLiteral("--key"), m_signer, QStringLiteral("--nats"), m_server.url()}
            + extra);
    }

private slots:
    void initTestCase();
    void classesDriftApartFromIntent();
    void tableCountsTheClasses();
    void aTargetTheAgentDoesNotFollowIsNoCurrentBundle();
    void cleanupTestCase();
};

void TestFleetDrift::initTestCase()
{
    if (!test::NatsServer::available())
        QSKIP("nats-server is not installed");
    if (previewUser() == "nobody" && ::getpwnam("nobody") == nullptr)
        QSKIP("needs a user named nobody to run previews as");
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_signer = m_dir.filePath(QStringLiteral("signer.pem"));
    QCOMPARE(
        runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), m_signer}).exitCode, 0);
    // A directory the preview user may write to: the guard leaves its mark there as that user too.
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("marks")));
    ::chmod(m_dir.path().toUtf8().constData(), 0755);
    ::chmod(m_dir.filePath(QStringLiteral("marks")).toUtf8().constData(), 0777);
    m_marker = m_dir.filePath(QStringLiteral("marks/guard-ran"));

    const QString current = test::writeFile(m_dir, QStringLiteral("current/manifest.yaml"),
        "ccm:\n  resources:\n    - file:\n" + fileResource(".drift", "kept") + fileResource(".edit", "one")
            + "    - exec:\n        - /bin/true:\n            unless: /usr/bin/touch " + m_marker.toUtf8() + "\n");
    m_proposal = test::writeFile(m_dir, QStringLiteral("proposal/manifest.yaml"),
        "ccm:\n  resources:\n    - file:\n" + fileResource(".drift", "kept") + fileResource(".edit", "two")
            + fileResource(".new", "new"));
    const QString bundle = m_dir.filePath(QStringLiteral("current.tar.gz"));
    const BackendRun bundled = runBackend({QStringLiteral("bundle"), current, QStringLiteral("-o"), bundle});
    QVERIFY2(bundled.exitCode == 0, qPrintable(bundled.err));
    const BackendRun published
        = runBackend({QStringLiteral("publish"), bundle, QStringLiteral("--bucket"), QStringLiteral("SITE"),
            QStringLiteral("--name"), QStringLiteral("site"), QStringLiteral("--nats"), m_server.url()});
    QVERIFY2(published.exitCode == 0, qPrintable(published.err));

    const QByteArray section = "  enabled: true\n  trusted_keys: ["
        + m_dir.filePath(QStringLiteral("signer.pub.pem")).toUtf8() + "]\n  user: " + previewUser() + "\n";
    m_web1 = std::make_unique<FleetAgent>(QStringLiteral("web-1"), "web", m_server.url());
    m_web1->configure(section, {"obj://SITE/site"});
    m_web2 = std::make_unique<FleetAgent>(QStringLiteral("web-2"), "web", m_server.url());
    m_web2->configure(section);
    m_web1->start();
    m_web2->start();
    for (FleetAgent *agent : {m_web1.get(), m_web2.get()})
        QVERIFY2(agent->waitForLog(QStringLiteral("fleet preview: answering requests")), qPrintable(agent->log()));
    // web-1 applied its current bundle; then its .drift file is changed behind its back.
    const QString target = m_web1->target();
    QTRY_VERIFY_WITH_TIMEOUT(readOrAbsent(target + QStringLiteral(".edit")) == "one\n"
            && readOrAbsent(target + QStringLiteral(".drift")) == "kept\n" && QFile::exists(m_marker),
        kStartup);
    QVERIFY(test::writeFile(target + QStringLiteral(".drift"), "drifted\n"));
    QVERIFY(QFile::remove(m_marker));
}

void TestFleetDrift::classesDriftApartFromIntent()
{
    const BackendRun run = preview({QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const auto hosts = driftHosts(run.out);
    QCOMPARE(hosts.keys(), QStringList({QStringLiteral("web-1"), QStringLiteral("web-2")}));

    const QJsonObject web1 = hosts.value(QStringLiteral("web-1"));
    const QString target = m_web1->target();
    const QMap<QString, QString> classes = classesOf(web1);
    QCOMPARE(classes.value(QStringLiteral("file#") + target + QStringLiteral(".drift")), QStringLiteral("drift"));
    QCOMPARE(classes.value(QStringLiteral("file#") + target + QStringLiteral(".edit")), QStringLiteral("intended"));
    QCOMPARE(classes.value(QStringLiteral("file#") + target + QStringLiteral(".new")), QStringLiteral("added"));
    const QJsonObject compare = web1[QStringLiteral("compare")].toObject();
    QCOMPARE(compare[QStringLiteral("state")].toString(), QStringLiteral("compared"));
    QCOMPARE(compare[QStringLiteral("source")].toString(), QStringLiteral("obj://SITE/site"));
    QVERIFY(compare[QStringLiteral("digest")].toString().startsWith(QStringLiteral("SHA-256=")));
    QCOMPARE(compare[QStringLiteral("intended")].toInt(-1), 1);
    QCOMPARE(compare[QStringLiteral("drift")].toInt(-1), 1);
    QCOMPARE(compare[QStringLiteral("added")].toInt(-1), 1);

    // web-2 changes the same files, and says it has nothing to compare them with.
    const QJsonObject web2 = hosts.value(QStringLiteral("web-2"));
    QCOMPARE(web2[QStringLiteral("summary")].toObject()[QStringLiteral("changed")].toInt(-1), 3);
    const QJsonObject none = web2[QStringLiteral("compare")].toObject();
    QCOMPARE(none[QStringLiteral("state")].toString(), QStringLiteral("none"));
    QVERIFY2(none[QStringLiteral("reason")].toString().contains(QStringLiteral("no current bundle")),
        qPrintable(none[QStringLiteral("reason")].toString()));
    for (const QString &change : classesOf(web2))
        QCOMPARE(change, QString());

    // Neither noop changed anything, and the current bundle ran only for the resources the
    // proposal changes: its exec (left alone by the proposal) did not run its guard.
    QCOMPARE(readOrAbsent(target + QStringLiteral(".drift")), QByteArray("drifted\n"));
    QCOMPARE(readOrAbsent(target + QStringLiteral(".edit")), QByteArray("one\n"));
    QVERIFY(!QFile::exists(target + QStringLiteral(".new")));
    QVERIFY2(!QFile::exists(m_marker), "the current bundle's untouched exec ran");
    QVERIFY(QDir(m_web1->previewWork()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
}

void TestFleetDrift::tableCountsTheClasses()
{
    const BackendRun run = preview();
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const QStringList lines = run.out.split(QLatin1Char('\n'));
    QVERIFY2(lines.value(0).contains(QStringLiteral("CHANGED INTENDED DRIFT")), qPrintable(run.out));
    const QRegularExpression web1(QStringLiteral("^web-1 +done +3 +1 +1 +0 +3  $"));
    const QRegularExpression web2(
        QStringLiteral("^web-2 +done +3 +- +- +0 +3  no current bundle: this agent follows no remote source$"));
    QVERIFY2(lines.filter(web1).size() == 1, qPrintable(run.out));
    QVERIFY2(lines.filter(web2).size() == 1, qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("6 resources would change (1 intended, 1 drift)")), qPrintable(run.out));
}

void TestFleetDrift::aTargetTheAgentDoesNotFollowIsNoCurrentBundle()
{
    const BackendRun run
        = preview({QStringLiteral("--json"), QStringLiteral("--target"), QStringLiteral("obj://SITE/other")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const QJsonObject compare
        = driftHosts(run.out).value(QStringLiteral("web-1"))[QStringLiteral("compare")].toObject();
    QCOMPARE(compare[QStringLiteral("state")].toString(), QStringLiteral("none"));
    QCOMPARE(compare[QStringLiteral("reason")].toString(),
        QStringLiteral("no current bundle: this agent does not follow obj://SITE/other"));

    const BackendRun named
        = preview({QStringLiteral("--json"), QStringLiteral("--target"), QStringLiteral("obj://SITE/site")});
    QVERIFY2(named.exitCode == 0, qPrintable(named.err + named.out));
    const QJsonObject web1 = driftHosts(named.out).value(QStringLiteral("web-1"));
    QCOMPARE(web1[QStringLiteral("compare")].toObject()[QStringLiteral("drift")].toInt(-1), 1);

    const BackendRun bad = preview({QStringLiteral("--target"), QStringLiteral("https://example.com/site.tar.gz")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QStringLiteral("--target")) && bad.err.contains(QStringLiteral("nothing was sent")),
        qPrintable(bad.err));
}

void TestFleetDrift::cleanupTestCase()
{
    for (FleetAgent *agent : {m_web1.get(), m_web2.get()})
        if (agent != nullptr)
            QVERIFY2(agent->stop() == 0, qPrintable(agent->log()));
}

CCM_TEST_GUILESS_MAIN(TestFleetDrift)
#include "tst_fleet_drift.moc"
