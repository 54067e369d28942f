// SPDX-License-Identifier: Apache-2.0
// Peer authorization of `ccm-backend serve`: clients that become other users (needs root).
#include "daemon_harness.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <map>
#include <pwd.h>
#include <sys/stat.h>

using namespace ccm;
using namespace ccm::test;

namespace {

const char *const kPreviewer = "ccmtestpreview";

std::string request(int id, const std::string &method, const Json &params)
{
    return Json {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

/// Runs the requests as `user` over the daemon's socket; every message received, in order.
std::vector<Json> exchangeAs(const char *user, const QString &socket, const std::vector<std::string> &requests)
{
    QStringList arguments {s("as"), s(user), socket};
    for (const std::string &line : requests)
        arguments << q(line);
    // The daemon is up once it accepts a connection.
    RpcClient probe;
    if (!probe.connectTo(socket))
        return {};
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(s(CCM_DAEMON_PEER_BIN), arguments);
    std::vector<Json> messages;
    if (!process.waitForFinished(kPatienceMs) || process.exitCode() != 0)
        return messages;
    for (const QByteArray &line : process.readAllStandardOutput().split('\n')) {
        if (!line.isEmpty())
            messages.push_back(normalized(Json::parse(line.toStdString(), nullptr, false)));
    }
    return messages;
}

/// The response with `id` among messages, or an empty object.
Json responseWith(const std::vector<Json> &messages, int id)
{
    for (const Json &message : messages) {
        if (message.is_object() && message.contains("id") && message["id"] == Json(id))
            return message;
    }
    return normalized(Json::object());
}

uid_t uidOf(const char *user)
{
    const passwd *entry = ::getpwnam(user);
    return entry == nullptr ? static_cast<uid_t>(-1) : entry->pw_uid;
}

const Json kHello = {{"client", "test"}, {"version", "1"}};

} // namespace

class TestServeAuth : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (::getuid() != 0)
            QSKIP("authorization tests switch users and need root");
        if (uidOf("nobody") == static_cast<uid_t>(-1))
            QSKIP("there is no user nobody");
        m_createdGroup = runTool(s("getent"), {s("group"), s("ccm-designer")}) != 0;
        if (m_createdGroup)
            QCOMPARE(runTool(s("groupadd"), {s("ccm-designer")}), 0);
        runTool(s("userdel"), {s(kPreviewer)});
        QCOMPARE(runTool(s("useradd"),
                     {s("--no-create-home"), s("--shell"), s("/usr/sbin/nologin"), s("-G"), s("ccm-designer"),
                         s(kPreviewer)}),
            0);
        m_userCreated = true;
    }

    void cleanupTestCase()
    {
        if (m_userCreated)
            runTool(s("userdel"), {s(kPreviewer)});
        if (m_createdGroup)
            runTool(s("groupdel"), {s("ccm-designer")});
    }

    void strangerMayOnlySayHello()
    {
        DaemonProcess daemon;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        const auto messages = exchangeAs("nobody", daemon.socket(),
            {request(1, "backend.hello", kHello), request(2, "manifest.validate", {{"manifest", ""}}),
                request(3, "facts.get", Json::object())});
        QCOMPARE(messages.size(), std::size_t(3));
        const Json hello = responseWith(messages, 1);
        QCOMPARE(hello["result"].value("role", ""), std::string("none"));
        QCOMPARE(hello["result"].value("uid", -1), static_cast<int>(uidOf("nobody")));
        for (int id : {2, 3}) {
            const Json refused = responseWith(messages, id);
            QCOMPARE(errorCode(refused), -32001);
            QCOMPARE(refused["error"]["data"].value("role", ""), std::string("none"));
        }
    }

    void userModeServesOnlyItsOwner()
    {
        DaemonProcess daemon({s("--user")});
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        struct stat info { };
        QCOMPARE(::stat(daemon.socket().toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600U);
        const auto own = client.call("backend.hello", kHello);
        QVERIFY(own);
        QCOMPARE((*own)["result"].value("role", ""), std::string("apply"));
        // The socket's mode already keeps others out; opened up, the daemon still refuses them.
        QCOMPARE(::chmod(daemon.socket().toLocal8Bit().constData(), 0666), 0);
        const auto messages = exchangeAs(
            "nobody", daemon.socket(), {request(1, "backend.hello", kHello), request(2, "facts.get", Json::object())});
        QCOMPARE(responseWith(messages, 1)["result"].value("role", ""), std::string("none"));
        QCOMPARE(errorCode(responseWith(messages, 2)), -32001);
    }

    void previewerMayPreviewButNotApply()
    {
        DaemonProcess daemon;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        const std::string manifest = "ccm:\n  resources:\n    - exec:\n        - /bin/true: {}\n";
        const auto messages = exchangeAs(kPreviewer, daemon.socket(),
            {request(1, "backend.hello", kHello), request(2, "manifest.validate", {{"manifest", manifest}}),
                request(3, "apply.start", {{"manifest", manifest}, {"noop", false}}),
                request(4, "apply.start", {{"manifest", manifest}, {"noop", true}})});
        QCOMPARE(responseWith(messages, 1)["result"].value("role", ""), std::string("preview"));
        QCOMPARE(responseWith(messages, 2)["result"].value("valid", false), true);
        const Json refused = responseWith(messages, 3);
        QCOMPARE(errorCode(refused), -32001);
        QCOMPARE(refused["error"]["data"].value("role", ""), std::string("preview"));
        const Json preview = responseWith(messages, 4);
        QCOMPARE(errorCode(preview), 0);
        QCOMPARE(preview["result"].value("noop", false), true);
    }

    void previewGuardsRunAsThePeer()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0777) == 0);
        const std::string uidFile = dir.filePath(s("guard-uid")).toStdString();
        const std::string manifest
            = "ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            onlyif: /bin/sh -c 'id -u > "
            + uidFile + "'\n";
        const auto messages = exchangeAs(
            kPreviewer, daemon.socket(), {request(1, "apply.start", {{"manifest", manifest}, {"noop", true}})});
        QCOMPARE(errorCode(responseWith(messages, 1)), 0);
        QFile written(q(uidFile));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll().trimmed().toUInt(), static_cast<unsigned>(uidOf(kPreviewer)));
    }

    // A previewer once got root through a scaffold's post command, which ran as the daemon while
    // the guards ran as the previewer. Every process of the preview is the previewer's.
    void previewPostCommandsAndHealthChecksRunAsThePeer()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0777) == 0);
        QVERIFY(QDir(dir.path()).mkpath(s("templates")));
        QVERIFY(writeFile(dir.filePath(s("templates/motd.txt")), "hello\n"));
        const auto marker = [&](const char *name) { return dir.filePath(s(name)).toStdString(); };
        const auto recordUid = [](const std::string &file) { return "\"/bin/sh -c 'id -u > " + file + "'\""; };
        const std::string manifest = "ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            unless: "
            + recordUid(marker("guard")) + "\n            health_checks:\n              - {command: "
            + recordUid(marker("health")) + "}\n    - scaffold:\n        - " + marker("target")
            + ":\n            ensure: present\n            source: " + marker("templates")
            + "\n            post: [{\"*.txt\": " + recordUid(marker("post")) + "}]\n";
        const auto messages = exchangeAs(
            kPreviewer, daemon.socket(), {request(1, "apply.start", {{"manifest", manifest}, {"noop", true}})});
        QCOMPARE(errorCode(responseWith(messages, 1)), 0);
        for (const char *process : {"guard", "health", "post"}) {
            QFile written(q(marker(process)));
            QVERIFY2(written.open(QIODevice::ReadOnly), process);
            QCOMPARE(s(process) + s(" as ") + QString::fromUtf8(written.readAll().trimmed()),
                s(process) + s(" as ") + QString::number(uidOf(kPreviewer)));
        }
        QVERIFY(!QFileInfo::exists(q(marker("target"))));
    }

    void diffOnlyForFilesThePeerCanRead()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
        const QString secret = dir.filePath(s("secret"));
        const QString open = dir.filePath(s("open"));
        QVERIFY(writeFile(secret, "root only\n"));
        QVERIFY(writeFile(open, "everyone\n"));
        QVERIFY(::chmod(secret.toLocal8Bit().constData(), 0600) == 0);
        QVERIFY(::chmod(open.toLocal8Bit().constData(), 0644) == 0);
        const std::string manifest = "ccm:\n  resources:\n    - file:\n"
            + fileEntry(secret.toStdString(), "content: changed") + fileEntry(open.toStdString(), "content: changed");
        const auto messages = exchangeAs(
            kPreviewer, daemon.socket(), {request(1, "apply.start", {{"manifest", manifest}, {"noop", true}})});
        QCOMPARE(errorCode(responseWith(messages, 1)), 0);
        std::map<std::string, Json> events;
        for (const Json &message : messages) {
            if (message.value("method", "") == "apply.event")
                events[message["params"]["event"].value("resource", "")] = message["params"]["event"];
        }
        const Json secretEvent = events["file#" + secret.toStdString()];
        const Json openEvent = events["file#" + open.toStdString()];
        QCOMPARE(secretEvent.value("changed", false), true);
        QVERIFY(!secretEvent.contains("diff"));
        QVERIFY(secretEvent.dump().find("root only") == std::string::npos);
        QVERIFY(openEvent.value("diff", "").find("-everyone") != std::string::npos);
    }

    void previewerSourcesAreAuthorized()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
        const QString open = dir.filePath(s("open.tar.gz"));
        const QString secret = dir.filePath(s("secret.tar.gz"));
        for (const QString &bundle : {open, secret})
            QCOMPARE(runTool(s(CCM_BACKEND_BIN),
                         {s("bundle"), s(CCM_SOURCE_DIR "/resources/examples/static-site.yaml"), s("-o"), bundle}),
                0);
        QVERIFY(::chmod(open.toLocal8Bit().constData(), 0644) == 0);
        QVERIFY(::chmod(secret.toLocal8Bit().constData(), 0600) == 0);
        const auto messages = exchangeAs(kPreviewer, daemon.socket(),
            {request(1, "manifest.render", {{"source", "http://127.0.0.1:1/site.tar.gz"}}),
                request(2, "manifest.validate", {{"source", "obj://sites/site.tar.gz"}}),
                request(3, "manifest.render", {{"source", secret.toStdString()}}),
                request(4, "manifest.render", {{"source", open.toStdString()}}),
                request(5, "apply.start", {{"source", open.toStdString()}, {"noop", true}}),
                request(6, "manifest.render",
                    {{"manifest", "ccm:\n  pre_message: \"{{ kvGet('config', 'motd') }}\"\n  resources: []\n"}})});
        for (int id : {1, 2}) {
            const Json refused = responseWith(messages, id);
            QCOMPARE(errorCode(refused), -32001);
            QVERIFY2(refused["error"].value("message", "").find("remote sources are fetched by the user's own backend")
                    != std::string::npos,
                refused.dump().c_str());
        }
        const Json unreadable = responseWith(messages, 3);
        QCOMPARE(errorCode(unreadable), -32001);
        QVERIFY2(
            unreadable["error"].value("message", "").find("may not read " + secret.toStdString()) != std::string::npos,
            unreadable.dump().c_str());
        // A readable bundle is unpacked for the previewer, whose rights then read its files.
        const Json rendered = responseWith(messages, 4);
        QVERIFY2(rendered["result"].value("yaml", "").find("robots.txt") != std::string::npos, rendered.dump().c_str());
        const Json preview = responseWith(messages, 5);
        QCOMPARE(errorCode(preview), 0);
        QVERIFY2(preview["result"]["summary"].value("failed", -1) == 0, preview.dump().c_str());
        QCOMPARE(daemon.leftInTmp(), QStringList());
        const Json kv = responseWith(messages, 6);
        QCOMPARE(errorCode(kv), -32003);
        QVERIFY2(kv.dump().find("NATS is reached by the user's own backend") != std::string::npos, kv.dump().c_str());
    }

    void previewReadsManifestFilesWithThePeersRights()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
        const QString secret = dir.filePath(s("secret"));
        const QString open = dir.filePath(s("open"));
        QVERIFY(writeFile(secret, "- exec:\n    - \"/bin/echo hidden-words\": {}\n"));
        QVERIFY(writeFile(open, "- exec:\n    - \"/bin/echo public-words\": {}\n"));
        QVERIFY(::chmod(secret.toLocal8Bit().constData(), 0600) == 0);
        QVERIFY(::chmod(open.toLocal8Bit().constData(), 0644) == 0);
        const auto manifestReading
            = [](const QString &file) { return "ccm:\n  resources_jet_file: " + file.toStdString() + "\n"; };
        const auto messages = exchangeAs(kPreviewer, daemon.socket(),
            {request(1, "manifest.render", {{"manifest", manifestReading(secret)}}),
                request(2, "manifest.render", {{"manifest", manifestReading(open)}}),
                request(3, "apply.start", {{"manifest", manifestReading(secret)}, {"noop", true}})});
        const Json refused = responseWith(messages, 1);
        QCOMPARE(errorCode(refused), -32003);
        QVERIFY(refused.dump().find("hidden-words") == std::string::npos);
        QVERIFY(responseWith(messages, 2)["result"].value("yaml", "").find("public-words") != std::string::npos);
        QCOMPARE(errorCode(responseWith(messages, 3)), -32003);
        // The daemon's own rights are back for the next client.
        RpcClient root;
        QVERIFY(root.connectTo(daemon.socket()));
        const auto rendered = root.call("manifest.render", {{"manifest", manifestReading(secret)}});
        QVERIFY(rendered);
        QVERIFY((*rendered)["result"].value("yaml", "").find("hidden-words") != std::string::npos);
    }

    void previewTemplatesSourcesAndChildManifestsReadWithThePeersRights()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        QVERIFY(::chmod(daemon.dir().path().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0777) == 0);
        const QString secret = dir.filePath(s("secret.yaml"));
        QVERIFY(writeFile(secret, "ccm:\n  resources:\n    - exec:\n        - \"/bin/echo hidden-words\": {}\n"));
        QVERIFY(::chmod(secret.toLocal8Bit().constData(), 0600) == 0);
        // Targets the previewer may read, so only the reading of the secret can hold it back.
        const QString templated = dir.filePath(s("templated"));
        const QString sourced = dir.filePath(s("sourced"));
        QVERIFY(writeFile(templated, "everyone\n"));
        QVERIFY(writeFile(sourced, "everyone\n"));
        QVERIFY(::chmod(templated.toLocal8Bit().constData(), 0644) == 0);
        QVERIFY(::chmod(sourced.toLocal8Bit().constData(), 0644) == 0);
        const std::string secretPath = secret.toStdString();
        const std::string manifest = "ccm:\n  resources:\n    - file:\n"
            + fileEntry(templated.toStdString(), "content: '{{ file(\"" + secretPath + "\") }}'")
            + fileEntry(sourced.toStdString(), "source: " + secretPath) + "    - apply:\n        - " + secretPath
            + ": {}\n";
        const auto messages = exchangeAs(
            kPreviewer, daemon.socket(), {request(1, "apply.start", {{"manifest", manifest}, {"noop", true}})});
        QCOMPARE(errorCode(responseWith(messages, 1)), 0);
        std::map<std::string, Json> events;
        for (const Json &message : messages) {
            QVERIFY2(message.dump().find("hidden-words") == std::string::npos, message.dump().c_str());
            if (message.value("method", "") == "apply.event")
                events[message["params"]["event"].value("resource", "")] = message["params"]["event"];
        }
        QCOMPARE(events.size(), std::size_t(3));
        QCOMPARE(events["file#" + templated.toStdString()].value("failed", false), true);
        const Json sourcedEvent = events["file#" + sourced.toStdString()];
        QCOMPARE(sourcedEvent.value("changed", false), true);
        QVERIFY(!sourcedEvent.contains("diff"));
        QCOMPARE(events["apply#" + secretPath].value("failed", false), true);

        // Root reads them all: the same manifest shows the secret's words.
        RpcClient root;
        QVERIFY(root.connectTo(daemon.socket()));
        std::vector<Json> notifications;
        QVERIFY(root.call("apply.start", {{"manifest", manifest}, {"noop", true}}, &notifications));
        std::string seen;
        for (const Json &notification : notifications)
            seen += notification.dump();
        QVERIFY(seen.find("hidden-words") != std::string::npos);
    }

private:
    bool m_createdGroup = false;
    bool m_userCreated = false;
};

CCM_TEST_GUILESS_MAIN(TestServeAuth)
#include "tst_serve_auth.moc"
