// SPDX-License-Identifier: Apache-2.0
// Fleet capture end to end: one real nats-server, two real `ccm-backend agent` processes with
// previews on (cap-on with preview.capture: true, cap-off without it), asked by a real
// `ccm-backend fleet capture`. cap-off never answers; cap-on answers with a capture of a real
// temporary tree read as its preview user, which, written with -o, runs in noop on this host
// with nothing to change. A key the agents do not trust, and a capture addressed to another
// identity, get no answer.
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_reader.h"
#include "fleet_agent_process.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using ccm::test::BackendRun;
using ccm::test::FleetAgent;
using ccm::test::kStartup;
using ccm::test::previewUser;
using ccm::test::runBackend;

namespace {

/// The request id the no-answer message tells to grep the agent's log for.
QString requestIdOf(const QString &message)
{
    const QRegularExpressionMatch match = QRegularExpression(QStringLiteral("grep ([A-Za-z0-9]{32})")).match(message);
    return match.hasMatch() ? match.captured(1) : QString();
}

/// `apply --noop --json MANIFEST` on this host: its exit status, and each resource with whether
/// it would change.
QMap<QString, bool> noopOf(const QString &manifest, int &exitCode, QString &err)
{
    const BackendRun run
        = runBackend({QStringLiteral("apply"), QStringLiteral("--noop"), QStringLiteral("--json"), manifest});
    exitCode = run.exitCode;
    err = run.err;
    QMap<QString, bool> changes;
    for (const QString &line : run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const Json event = Json::parse(line.toStdString(), nullptr, false);
        if (event.is_object() && event.contains("resource") && event["resource"].is_string())
            changes.insert(test::q(event["resource"].get<std::string>()),
                event.value("changed", false) || event.value("failed", false));
    }
    return changes;
}

bool writeMode(const QString &path, const QByteArray &content, mode_t mode)
{
    return test::writeFile(path, content) && ::chmod(path.toUtf8().constData(), mode) == 0;
}

} // namespace

class TestFleetCapture : public QObject {
    Q_OBJECT

private:
    test::NatsServer m_server;
    QTemporaryDir m_dir;
    QTemporaryDir m_tree; ///< what cap-on captures
    QString m_signer; ///< private key the agents trust
    QString m_intruder; ///< private key no agent trusts
    std::unique_ptr<FleetAgent> m_on;
    std::unique_ptr<FleetAgent> m_off;

    QByteArray previewSection(bool capture) const
    {
        return "  enabled: true\n  trusted_keys: [" + m_dir.filePath(QStringLiteral("signer.pub.pem")).toUtf8()
            + "]\n  user: " + previewUser() + "\n  capture: " + (capture ? "true" : "false") + "\n";
    }

    BackendRun capture(const QString &host, const QStringList &extra, const QString &key = {})
    {
        return runBackend(
            QStringList {QStringLiteral("fleet"), QStringLiteral("capture"), host, QStringLiteral("--key"),
                key.isEmpty() ? m_signer : key, QStringLiteral("--nats"), m_server.url()}
            + extra);
    }

    bool reported(const std::string &identity)
    {
        fleet::NatsSelection selection;
        selection.url = m_server.urlString();
        fleet::KvReader reader(selection, fleet::ContextEnvironment::fromProcess());
        return reader.get(std::string(fleet::kStatusBucket), fleet::statusKey(identity)).ok();
    }

private slots:
    void initTestCase();
    void captureOffGetsNoAnswer();
    void captureOfATreeIsNoopClean();
    void unreadableFilesStayOnTheHost();
    void printsYamlAndJson();
    void packagesArriveToo();
    void untrustedKeyGetsNoAnswer();
    void otherIdentityIsNotAnswered();
    void badCommandLines();
    void agentsStopCleanly();
};

void TestFleetCapture::initTestCase()
{
    if (!test::NatsServer::available())
        QSKIP("nats-server is not installed");
    if (previewUser() == "nobody" && ::getpwnam("nobody") == nullptr)
        QSKIP("needs a user named nobody to read captures as");
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_signer = m_dir.filePath(QStringLiteral("signer.pem"));
    m_intruder = m_dir.filePath(QStringLiteral("intruder.pem"));
    for (const QString &key : {m_signer, m_intruder})
        QCOMPARE(
            runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), key}).exitCode, 0);

    // The tree: text, an empty file, a nested directory; the preview user may read all of it but
    // group-only.conf (root's group may read it, nobody may not).
    ::chmod(m_tree.path().toUtf8().constData(), 0755);
    QVERIFY(QDir(m_tree.path()).mkpath(QStringLiteral("conf.d")));
    ::chmod(m_tree.filePath(QStringLiteral("conf.d")).toUtf8().constData(), 0755);
    QVERIFY(writeMode(m_tree.filePath(QStringLiteral("motd")), "welcome to the golden host\n", 0644));
    QVERIFY(writeMode(m_tree.filePath(QStringLiteral("empty")), "", 0644));
    QVERIFY(writeMode(m_tree.filePath(QStringLiteral("conf.d/app.conf")), "workers = 4\nlisten = 8080\n", 0640 | 0004));
    QVERIFY(writeMode(m_tree.filePath(QStringLiteral("group-only.conf")), "only for the group\n", 0640));

    m_on = std::make_unique<FleetAgent>(QStringLiteral("cap-on"), "web", m_server.url());
    m_off = std::make_unique<FleetAgent>(QStringLiteral("cap-off"), "web", m_server.url());
    m_on->configure(previewSection(true));
    m_off->configure(previewSection(false));
    for (FleetAgent *agent : {m_on.get(), m_off.get()}) {
        agent->start();
        QVERIFY2(agent->waitForLog(QStringLiteral("fleet preview: answering requests")), qPrintable(agent->log()));
        QTRY_VERIFY_WITH_TIMEOUT(reported(agent->identity().toStdString()), kStartup);
    }
    QVERIFY2(m_on->log().contains(QStringLiteral("captures on")), qPrintable(m_on->log()));
}

void TestFleetCapture::captureOffGetsNoAnswer()
{
    const qsizetype onLogged = m_on->log().size();
    const BackendRun run = capture(QStringLiteral("cap-off"),
        {QStringLiteral("--file"), m_tree.path(), QStringLiteral("--timeout"), QStringLiteral("3s")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("ccm-backend fleet capture: no answer from cap-off within 3s")),
        qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("preview.capture is off")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("does not trust the key")), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    // The agent dropped it with a warning naming the request; the other agent ignored it silently.
    const QString id = requestIdOf(run.err);
    QVERIFY2(!id.isEmpty(), qPrintable(run.err));
    QVERIFY2(m_off->waitForLog(QStringLiteral("dropped capture request ") + id
                 + QStringLiteral(": preview.capture is off on this host")),
        qPrintable(m_off->log()));
    QVERIFY2(!m_on->log().mid(onLogged).contains(id), qPrintable(m_on->log()));
}

void TestFleetCapture::captureOfATreeIsNoopClean()
{
    const QString output = m_dir.filePath(QStringLiteral("golden.yaml"));
    const BackendRun run = capture(QStringLiteral("cap-on"),
        {QStringLiteral("--file"), m_tree.path(), QStringLiteral("-o"), output, QStringLiteral("--timeout"),
            QStringLiteral("60s")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(
        run.err.contains(QStringLiteral(" on cap-on as ") + QString::fromUtf8(previewUser())), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("Wrote ") + output), qPrintable(run.err));
    const QByteArray yaml = test::readFile(output);
    QVERIFY2(yaml.contains(m_tree.filePath(QStringLiteral("motd")).toUtf8()), yaml.constData());
    QVERIFY2(yaml.contains("fleet capture cap-on"), yaml.constData());

    // What the capture describes is this host: its noop finds nothing to change.
    int exitCode = -1;
    QString err;
    const QMap<QString, bool> changes = noopOf(output, exitCode, err);
    QVERIFY2(exitCode == 0, qPrintable(err));
    for (const char *path : {"", "/motd", "/empty", "/conf.d", "/conf.d/app.conf"})
        QVERIFY2(changes.contains(QStringLiteral("file#") + m_tree.path() + QLatin1String(path)),
            qPrintable(QStringList(changes.keys()).join(QLatin1Char(' '))));
    for (auto change = changes.begin(); change != changes.end(); ++change)
        QVERIFY2(!change.value(), qPrintable(change.key() + QStringLiteral(" would change")));
    QVERIFY2(m_on->waitForLog(QStringLiteral("fleet capture ")), qPrintable(m_on->log()));
}

void TestFleetCapture::unreadableFilesStayOnTheHost()
{
    const BackendRun run = capture(QStringLiteral("cap-on"),
        {QStringLiteral("--file"), m_tree.path(), QStringLiteral("--json"), QStringLiteral("--timeout"),
            QStringLiteral("60s")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Json result = Json::parse(run.out.toStdString(), nullptr, false);
    QVERIFY2(result.is_object(), qPrintable(run.out));
    const std::string hidden = m_tree.filePath(QStringLiteral("group-only.conf")).toStdString();
    bool skipped = false;
    for (const Json &skip : result["skipped"])
        skipped = skipped || (skip["path"] == hidden && skip["kind"] == "unreadable");
    QVERIFY2(skipped, result["skipped"].dump().c_str());
    QVERIFY2(run.err.contains(QString::fromStdString(hidden)), qPrintable(run.err));
    // Neither its content nor a resource for it left the host.
    const std::string yaml = result["yaml"].get<std::string>();
    QVERIFY(yaml.find("only for the group") == std::string::npos);
    QVERIFY(yaml.find("- " + hidden + ":") == std::string::npos);
}

void TestFleetCapture::printsYamlAndJson()
{
    const BackendRun yaml = capture(QStringLiteral("cap-on"),
        {QStringLiteral("--file"), m_tree.filePath(QStringLiteral("motd")), QStringLiteral("--timeout"),
            QStringLiteral("60s")});
    QVERIFY2(yaml.exitCode == 0, qPrintable(yaml.err));
    QVERIFY2(yaml.out.contains(QStringLiteral("welcome to the golden host")), qPrintable(yaml.out));
    QVERIFY2(yaml.out.contains(QStringLiteral("ccm:")), qPrintable(yaml.out));

    const BackendRun json = capture(QStringLiteral("cap-on"),
        {QStringLiteral("--file"), m_tree.filePath(QStringLiteral("motd")), QStringLiteral("--json"),
            QStringLiteral("--timeout"), QStringLiteral("60s")});
    QVERIFY2(json.exitCode == 0, qPrintable(json.err));
    const Json result = Json::parse(json.out.toStdString(), nullptr, false);
    QVERIFY2(result.is_object(), qPrintable(json.out));
    QCOMPARE(result["identity"], Json("cap-on"));
    QCOMPARE(result["resources"], Json(1));
    QCOMPARE(result["resources_by_type"], Json({{"file", 1}}));
    QVERIFY(result["output"].is_null());
    QVERIFY(result["yaml"].get<std::string>().find("welcome to the golden host") != std::string::npos);
}

void TestFleetCapture::packagesArriveToo()
{
    if (QStandardPaths::findExecutable(QStringLiteral("dpkg-query")).isEmpty())
        QSKIP("needs dpkg-query: the package of the test is dpkg");
    // The query runs as the preview user; what it finds is what this host has installed.
    const QString output = m_dir.filePath(QStringLiteral("packages.yaml"));
    const BackendRun run = capture(QStringLiteral("cap-on"),
        {QStringLiteral("--package"), QStringLiteral("dpkg"), QStringLiteral("-o"), output, QStringLiteral("--timeout"),
            QStringLiteral("60s")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    int exitCode = -1;
    QString err;
    const QMap<QString, bool> changes = noopOf(output, exitCode, err);
    QVERIFY2(exitCode == 0, qPrintable(err));
    QCOMPARE(changes.keys(), QStringList {QStringLiteral("package#dpkg")});
    QVERIFY(!changes.value(QStringLiteral("package#dpkg")));
}

void TestFleetCapture::untrustedKeyGetsNoAnswer()
{
    const BackendRun run = capture(QStringLiteral("cap-on"),
        {QStringLiteral("--file"), m_tree.path(), QStringLiteral("--timeout"), QStringLiteral("3s")}, m_intruder);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("no answer from cap-on within 3s")), qPrintable(run.err));
    const QString id = requestIdOf(run.err);
    QVERIFY2(!id.isEmpty(), qPrintable(run.err));
    QVERIFY2(
        m_on->waitForLog(QStringLiteral("rejected request ") + id + QStringLiteral(": signed by the untrusted key")),
        qPrintable(m_on->log()));
}

void TestFleetCapture::otherIdentityIsNotAnswered()
{
    // Both agents get the request; neither is cap-elsewhere, so neither answers nor logs it.
    const qsizetype onLogged = m_on->log().size();
    const qsizetype offLogged = m_off->log().size();
    const BackendRun run = capture(QStringLiteral("cap-elsewhere"),
        {QStringLiteral("--file"), m_tree.path(), QStringLiteral("--timeout"), QStringLiteral("2s")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("no answer from cap-elsewhere within 2s")), qPrintable(run.err));
    const QString id = requestIdOf(run.err);
    QVERIFY(!id.isEmpty());
    // A request each agent does log, sent after, arrives after it: once cap-off logged that one,
    // it and cap-on had read the first.
    const BackendRun marker = capture(QStringLiteral("cap-off"),
        {QStringLiteral("--file"), m_tree.path(), QStringLiteral("--timeout"), QStringLiteral("1s")});
    const QString markerId = requestIdOf(marker.err);
    QVERIFY(!markerId.isEmpty());
    QVERIFY2(m_off->waitForLog(markerId, offLogged), qPrintable(m_off->log()));
    QVERIFY2(!m_off->log().mid(offLogged).contains(id), qPrintable(m_off->log()));
    QVERIFY2(!m_on->log().mid(onLogged).contains(id), qPrintable(m_on->log()));
}

void TestFleetCapture::badCommandLines()
{
    const auto usage = [this](const QStringList &arguments, const QString &expected) {
        const BackendRun run = runBackend(QStringList {QStringLiteral("fleet"), QStringLiteral("capture")} + arguments
            + QStringList {QStringLiteral("--nats"), m_server.url()});
        QVERIFY2(run.exitCode == 2, qPrintable(QString::number(run.exitCode) + run.err));
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    };
    usage({QStringLiteral("--key"), m_signer, QStringLiteral("--file"), QStringLiteral("/etc")},
        QStringLiteral("a HOST (the agent's identity) is required"));
    usage({QStringLiteral("cap-on"), QStringLiteral("--file"), QStringLiteral("/etc")},
        QStringLiteral("--key is required"));
    usage({QStringLiteral("cap-on"), QStringLiteral("--key"), m_signer},
        QStringLiteral("nothing to capture: give --package, --service or --file"));
    usage({QStringLiteral("cap-on"), QStringLiteral("--key"), m_signer, QStringLiteral("--file"),
              QStringLiteral("etc/motd")},
        QStringLiteral("--file 'etc/motd': must be an absolute path on the host"));
    usage({QStringLiteral("cap-on"), QStringLiteral("--key"), m_signer, QStringLiteral("--file"),
              QStringLiteral("/etc"), QStringLiteral("-o"), QStringLiteral("out.txt")},
        QStringLiteral("the output must end in .yaml, .yml, .tar.gz or .tgz"));
    usage({QStringLiteral("cap-on"), QStringLiteral("--key"), m_signer, QStringLiteral("--file"),
              QStringLiteral("/etc"), QStringLiteral("--timeout"), QStringLiteral("soon")},
        QStringLiteral("--timeout 'soon': is not a positive duration"));
    usage({QStringLiteral("cap-on"), QStringLiteral("web-2"), QStringLiteral("--key"), m_signer},
        QStringLiteral("unexpected argument 'web-2'"));
    QStringList many {QStringLiteral("cap-on"), QStringLiteral("--key"), m_signer};
    for (int i = 0; i < 257; ++i)
        many << QStringLiteral("--package") << QStringLiteral("p%1").arg(i);
    usage(many, QStringLiteral("\"capture.packages\" must be a list of at most 256 strings"));

    const BackendRun help = runBackend({QStringLiteral("fleet"), QStringLiteral("--help")});
    QVERIFY(help.out.contains(QStringLiteral("capture HOST --key PEM")));
    // A selection an agent would refuse as too large for one request is refused before it is sent.
    QStringList large {
        QStringLiteral("cap-on"), QStringLiteral("--key"), m_signer, QStringLiteral("--nats"), m_server.url()};
    for (int i = 0; i < 40; ++i)
        large << QStringLiteral("--file") << QStringLiteral("/") + QString(4000, QLatin1Char('a' + i % 26));
    const BackendRun tooLarge = runBackend(QStringList {QStringLiteral("fleet"), QStringLiteral("capture")} + large);
    QCOMPARE(tooLarge.exitCode, 1);
    QVERIFY2(tooLarge.err.contains(QStringLiteral("more than the 65536 an agent reads")), qPrintable(tooLarge.err));
}

void TestFleetCapture::agentsStopCleanly()
{
    QCOMPARE(m_on->stop(), 0);
    QCOMPARE(m_off->stop(), 0);
}

CCM_TEST_GUILESS_MAIN(TestFleetCapture)
#include "tst_fleet_capture.moc"
