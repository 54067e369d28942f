// SPDX-License-Identifier: Apache-2.0
// host.inventory and host.capture: through a real `ccm-backend serve` of the test's own user, its
// answers checked against resources/schemas/protocol.json (a real directory tree, the real dpkg,
// services from a fake systemctl), and in process for a peer of a system backend, who gets only
// what it may read itself.
#include "daemon/dispatcher.h"
#include "daemon_harness.h"
#include "sent_messages.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <memory>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <utility>

using namespace ccm;
using namespace ccm::daemon;
using namespace ccm::test;

namespace {

/// A uid that is neither root nor the test's own, without a user.
constexpr uid_t kCapturePeerUid = 4244;

class CaptureNoApplies : public ApplyControl {
public:
    Started start(ApplyJob) override { return {false, "none"}; }
    [[nodiscard]] std::optional<Running> running() const override { return std::nullopt; }
    bool cancel(std::string_view) override { return false; }
};

Result<Json> captureFacts()
{
    return Json::object();
}

Caller captureCaller(Role role, uid_t uid)
{
    Caller caller;
    caller.connection = 1;
    caller.peer = {uid, uid, {uid}, "user" + std::to_string(uid)};
    caller.role = role;
    return caller;
}

/// The answer of the in-process dispatcher to `method` with `params`.
Json captureAnswer(Dispatcher &dispatcher, const Caller &caller, const std::string &method, const Json &params)
{
    const Json request = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", method}, {"params", params}};
    const auto line = dispatcher.handleLine(caller, request.dump());
    return line ? normalized(Json::parse(*line)) : normalized(Json::object());
}

QString captureText(const Json &value)
{
    return q(value.dump());
}

/// The item of `list` whose member `key` is `value`; an empty map when there is none.
Json captureItemWith(const Json &list, const std::string &key, const std::string &value)
{
    if (list.is_array())
        for (const Json &item : list)
            if (item.is_object() && item.value(key, std::string()) == value)
                return item;
    return Json::object();
}

/// The names of the items of `list`, in order.
QStringList captureNames(const Json &list, const char *key = "name")
{
    QStringList names;
    if (list.is_array())
        for (const Json &item : list)
            names << q(item.value(key, std::string()));
    return names;
}

/// What `dpkg-query` says of one field of the installed package `name`.
QString captureDpkgField(const QString &name, const QString &field)
{
    QProcess query;
    query.start(s("dpkg-query"), {s("-W"), s("-f"), s("${") + field + s("}"), name});
    if (!query.waitForFinished(kPatienceMs) || query.exitCode() != 0)
        return {};
    return QString::fromUtf8(query.readAllStandardOutput());
}

/// A `ccm-backend serve --user` on a host where systemd "runs" with the services of
/// tests/fixtures/capture/fake-systemctl: the backend runs commands with a fixed PATH, so the fake
/// (--isolate) binds itself over the real systemctl in a mount namespace of the backend's own.
/// Null when this host cannot make one (not root, no unshare).
std::unique_ptr<DaemonProcess> captureBackendWithFakeSystemctl()
{
    const QString fake = s(CCM_FIXTURES_DIR "/capture/fake-systemctl");
    if (::getuid() != 0 || runTool(s("unshare"), {s("--mount"), s("true")}) != 0)
        return nullptr;
    // The socket is the one DaemonProcess waits on: beside the config directory it hands over.
    const QString serve = s("exec \"$0\" serve --user --socket \"${XDG_CONFIG_HOME%/config}/backend.sock\"");
    return std::make_unique<DaemonProcess>(
        QStringList {}, fake, QStringList {s("--isolate"), s("sh"), s("-c"), serve, s(CCM_BACKEND_BIN)});
}

} // namespace

class TestServeCapture : public QObject {
    Q_OBJECT

    std::unique_ptr<DaemonProcess> m_daemon;
    RpcClient m_client;
    QTemporaryDir m_files;
    QStringList m_problems;
    CaptureNoApplies m_applies;

    /// Calls `method` and checks the answer against protocol.json: its response, or an error
    /// response when `error` is set.
    Json call(const std::string &method, const Json &params, bool error = false)
    {
        const auto reply = m_client.call(method, params);
        if (!reply) {
            m_problems << q("no answer to " + method);
            return normalized(Json::object());
        }
        m_problems << protocolProblems(error ? s("errorResponse") : q("response." + method), asSent(*reply));
        return *reply;
    }

    [[nodiscard]] std::string path(const char *name) const { return m_files.filePath(s(name)).toStdString(); }

    /// A tree of every kind of entry under `name`: a directory, text, binary, empty and private
    /// files, a symlink and a fifo.
    bool makeTree(const char *name)
    {
        const std::string root = path(name);
        return QDir().mkpath(q(root + "/conf.d")) && ::chmod(root.c_str(), 0755) == 0
            && ::chmod((root + "/conf.d").c_str(), 0750) == 0 && writeFile(q(root + "/motd"), "hello\nworld\n")
            && ::chmod((root + "/motd").c_str(), 0644) == 0
            && writeFile(q(root + "/conf.d/blob.bin"),
                QByteArray("\x7f"
                           "ELF\0\1\2",
                    7))
            && ::chmod((root + "/conf.d/blob.bin").c_str(), 0640) == 0 && writeFile(q(root + "/empty"), "")
            && ::chmod((root + "/empty").c_str(), 0644) == 0 && writeFile(q(root + "/secret"), "s3cret\n")
            && ::chmod((root + "/secret").c_str(), 0600) == 0 && ::symlink("motd", (root + "/link").c_str()) == 0
            && ::mkfifo((root + "/pipe").c_str(), 0644) == 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        spdlog::set_level(spdlog::level::off);
        QVERIFY(m_files.isValid());
        // Other users may search the directory, so that what they may read decides.
        QVERIFY(::chmod(m_files.path().toLocal8Bit().constData(), 0755) == 0);
        QVERIFY(makeTree("tree"));
        m_daemon = std::make_unique<DaemonProcess>(userMode());
        QVERIFY(m_client.connectTo(m_daemon->socket()));
    }

    void cleanup()
    {
        const QStringList problems = std::exchange(m_problems, {});
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void listsADirectoryAsLstatSeesIt()
    {
        const Json reply = call("host.inventory", {{"kind", "files"}, {"path", path("tree")}});
        QCOMPARE(errorCode(reply), 0);
        const Json &result = reply["result"];
        QCOMPARE(q(result.value("path", "")), q(path("tree")));
        QVERIFY(result["truncated"] == Json(false));
        const Json &entries = result["entries"];
        QCOMPARE(captureNames(entries),
            (QStringList {s("conf.d"), s("empty"), s("link"), s("motd"), s("pipe"), s("secret")}));
        const Json motd = captureItemWith(entries, "name", "motd");
        QCOMPARE(q(motd.value("kind", "")), s("file"));
        QCOMPARE(q(motd.value("owner", "")), currentUserName());
        QCOMPARE(q(motd.value("group", "")), currentGroupName());
        QCOMPARE(q(motd.value("mode", "")), s("0644"));
        QCOMPARE(motd.value("size", -1), 12);
        QVERIFY(motd["readable"] == Json(true));
        QVERIFY(motd["private"] == Json(false));
        QVERIFY2(!motd.contains("link_target"), qPrintable(captureText(motd)));
        const Json directory = captureItemWith(entries, "name", "conf.d");
        QCOMPARE(q(directory.value("kind", "")), s("directory"));
        QCOMPARE(q(directory.value("mode", "")), s("0750"));
        const Json link = captureItemWith(entries, "name", "link");
        QCOMPARE(q(link.value("kind", "")), s("symlink"));
        QCOMPARE(q(link.value("link_target", "")), s("motd"));
        QCOMPARE(q(captureItemWith(entries, "name", "pipe").value("kind", "")), s("fifo"));
        const Json secret = captureItemWith(entries, "name", "secret");
        QCOMPARE(q(secret.value("mode", "")), s("0600"));
        QVERIFY(secret["private"] == Json(true));
        // Its owner is the one asking.
        QVERIFY(secret["readable"] == Json(true));
    }

    void listsAtMostMax()
    {
        const Json reply = call("host.inventory", {{"kind", "files"}, {"path", path("tree")}, {"max", 2}});
        QVERIFY(reply["result"]["truncated"] == Json(true));
        QCOMPARE(captureNames(reply["result"]["entries"]), (QStringList {s("conf.d"), s("empty")}));
    }

    void aDirectoryThatIsNotThereOrNotADirectory()
    {
        const Json missing = call("host.inventory", {{"kind", "files"}, {"path", path("none")}}, true);
        QCOMPARE(errorCode(missing), -32011);
        QCOMPARE(q(missing["error"]["data"].value("cause", "")), s("not_found"));
        QVERIFY2(q(missing["error"].value("message", "")).contains(q(path("none"))), qPrintable(captureText(missing)));

        const Json file = call("host.inventory", {{"kind", "files"}, {"path", path("tree/motd")}}, true);
        QCOMPARE(errorCode(file), -32602);
        QCOMPARE(q(file["error"]["data"].value("path", "")), s("path"));
        QCOMPARE(q(file["error"]["data"].value("cause", "")), s("not_directory"));
    }

    void listsThePackagesDpkgHas()
    {
        if (captureDpkgField(s("dpkg"), s("Version")).isEmpty())
            QSKIP("this host has no dpkg");
        const Json reply = call("host.inventory", {{"kind", "packages"}});
        QCOMPARE(errorCode(reply), 0);
        const Json &packages = reply["result"]["packages"];
        QVERIFY(packages.is_array() && packages.size() > 10);
        const QStringList names = captureNames(packages);
        QStringList sorted = names;
        std::sort(
            sorted.begin(), sorted.end(), [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
        QCOMPARE(names, sorted);
        const Json dpkg = captureItemWith(packages, "name", "dpkg");
        QCOMPARE(q(dpkg.value("version", "")), captureDpkgField(s("dpkg"), s("Version")));
        QCOMPARE(q(dpkg.value("arch", "")), captureDpkgField(s("dpkg"), s("Architecture")));
        QVERIFY2(!dpkg.value("summary", std::string()).empty(), qPrintable(captureText(dpkg)));
    }

    void servicesWithoutSystemdAreNotFound()
    {
        if (QFileInfo::exists(s("/run/systemd/system")))
            QSKIP("systemd runs on this host");
        const Json reply = call("host.inventory", {{"kind", "services"}}, true);
        QCOMPARE(errorCode(reply), -32011);
        QCOMPARE(q(reply["error"]["data"].value("cause", "")), s("no_service_manager"));
    }

    void listsTheServicesSystemctlReports()
    {
        const auto daemon = captureBackendWithFakeSystemctl();
        if (!daemon)
            QSKIP("binding the fake systemctl over the real one needs root, unshare and the fixture");
        RpcClient client;
        QVERIFY(client.connectTo(daemon->socket()));
        const auto reply = client.call("host.inventory", {{"kind", "services"}});
        QVERIFY(reply);
        m_problems << sentProblems("response.host.inventory", *reply);
        const Json &services = (*reply)["result"]["services"];
        const Json cron = captureItemWith(services, "name", "cron");
        QVERIFY2(cron["running"] == Json(true) && cron["enabled"] == Json(true), qPrintable(captureText(*reply)));
        QCOMPARE(q(cron.value("active_state", "")), s("active"));
        QCOMPARE(q(cron.value("enabled_state", "")), s("enabled"));
        QVERIFY(cron["capturable"] == Json(true));
        const Json dbus = captureItemWith(services, "name", "dbus");
        QVERIFY2(dbus["capturable"] == Json(false), qPrintable(captureText(dbus)));
        QVERIFY(!dbus.value("reason", std::string()).empty());

        const auto captured = client.call("host.capture", {{"services", {"cron", "nothing-like-this*"}}});
        QVERIFY(captured);
        m_problems << sentProblems("response.host.capture", *captured);
        const Json resource = captureItemWith((*captured)["result"]["resources"], "name", "cron");
        QCOMPARE(q(resource.value("type", "")), s("service"));
        QCOMPARE(captureText(resource["properties"]), s(R"({"ensure":"running","enable":true})"));
        QCOMPARE(q(captureItemWith((*captured)["result"]["skipped"], "kind", "no_match").value("path", "")),
            s("service nothing-like-this*"));
    }

    void capturesATree()
    {
        const Json reply = call("host.capture", {{"files", {path("tree")}}});
        QCOMPARE(errorCode(reply), 0);
        const Json &result = reply["result"];
        const Json &resources = result["resources"];
        QCOMPARE(captureNames(resources),
            (QStringList {q(path("tree")), q(path("tree/conf.d")), q(path("tree/conf.d/blob.bin")),
                q(path("tree/empty")), q(path("tree/motd"))}));
        const Json directory = captureItemWith(resources, "name", path("tree"));
        QCOMPARE(q(directory.value("type", "")), s("file"));
        QCOMPARE(q(directory["properties"].value("ensure", "")), s("directory"));
        QCOMPARE(q(directory["properties"].value("mode", "")), s("0755"));
        QCOMPARE(q(directory["properties"].value("owner", "")), currentUserName());
        const Json motd = captureItemWith(resources, "name", path("tree/motd"));
        QCOMPARE(q(motd["properties"].value("content", "")), s("hello\nworld\n"));
        QCOMPARE(
            q(captureItemWith(resources, "name", path("tree/empty"))["properties"].value("content", "-")), QString());
        // The binary file is a source file the answer carries.
        const std::string blobSource
            = captureItemWith(resources, "name", path("tree/conf.d/blob.bin"))["properties"].value(
                "source", std::string());
        QVERIFY2(!blobSource.empty(), qPrintable(captureText(resources)));
        const Json source = captureItemWith(result["sources"], "path", blobSource);
        QCOMPARE(QByteArray::fromBase64(QByteArray::fromStdString(source.value("content_base64", std::string()))),
            QByteArray("\x7f"
                       "ELF\0\1\2",
                7));
        // What a file resource cannot be, and the file only its owner may read, are left out with why.
        QCOMPARE(q(captureItemWith(result["skipped"], "path", path("tree/link")).value("kind", "")), s("symlink"));
        QCOMPARE(q(captureItemWith(result["skipped"], "path", path("tree/pipe")).value("kind", "")), s("fifo"));
        QCOMPARE(q(captureItemWith(result["skipped"], "path", path("tree/secret")).value("kind", "")), s("private"));
        QVERIFY(!result["warnings"].empty());
        QCOMPARE(q(result.value("captured_by", "")), currentUserName());
        QCOMPARE(captureText(result["command"]), captureText(Json {"ccm-backend", "capture", "--file", path("tree")}));
        const QString yaml = q(result.value("yaml", ""));
        QVERIFY2(yaml.contains(s("ccm:")) && yaml.contains(q(path("tree/motd"))), qPrintable(yaml));
        QVERIFY2(yaml.contains(q(blobSource)), qPrintable(yaml));
    }

    void capturesPrivateFilesWhenAsked()
    {
        const Json reply = call("host.capture", {{"files", {path("tree/secret")}}, {"include_private", true}});
        const Json secret = captureItemWith(reply["result"]["resources"], "name", path("tree/secret"));
        QCOMPARE(q(secret["properties"].value("mode", "")), s("0600"));
        const Json source
            = captureItemWith(reply["result"]["sources"], "path", secret["properties"].value("source", ""));
        QVERIFY2(source["private"] == Json(true), qPrintable(captureText(reply)));
    }

    void keepsTheAnswerWithinALine()
    {
        // Over 4 MiB a file is skipped; the answer carries it in base64 otherwise.
        QVERIFY(QDir().mkpath(q(path("large"))));
        QVERIFY(writeFile(q(path("large/big.bin")), randomBytes(4 * 1024 * 1024 + 1, 35)));
        QVERIFY(::chmod(path("large/big.bin").c_str(), 0644) == 0);
        const Json skipped = call("host.capture", {{"files", {path("large")}}});
        QCOMPARE(q(captureItemWith(skipped["result"]["skipped"], "path", path("large/big.bin")).value("kind", "")),
            s("oversize"));

        // Over 8 MiB in all, the capture is refused with what to do.
        QVERIFY(QDir().mkpath(q(path("many"))));
        for (const char *name : {"many/a.bin", "many/b.bin", "many/c.bin"}) {
            QVERIFY(writeFile(q(path(name)), randomBytes(3 * 1024 * 1024, 36)));
            QVERIFY(::chmod(path(name).c_str(), 0644) == 0);
        }
        const Json refused = call("host.capture", {{"files", {path("many")}}}, true);
        QCOMPARE(errorCode(refused), -32602);
        QCOMPARE(q(refused["error"]["data"].value("path", "")), s("files"));
        QCOMPARE(q(refused["error"]["data"].value("cause", "")), s("limit"));
        QVERIFY2(q(refused["error"].value("message", "")).contains(s("exclude")), qPrintable(captureText(refused)));
    }

    void capturesAnInstalledPackage()
    {
        const QString version = captureDpkgField(s("dpkg"), s("Version"));
        if (version.isEmpty())
            QSKIP("this host has no dpkg");
        const Json present = call("host.capture", {{"packages", {"dpkg", "no-such-package-*"}}});
        const Json dpkg = captureItemWith(present["result"]["resources"], "name", "dpkg");
        QCOMPARE(q(dpkg.value("type", "")), s("package"));
        QCOMPARE(captureText(dpkg["properties"]), s(R"({"ensure":"present"})"));
        QCOMPARE(q(captureItemWith(present["result"]["skipped"], "kind", "no_match").value("path", "")),
            s("package no-such-package-*"));

        const Json pinned = call("host.capture", {{"packages", {"dpkg"}}, {"pin", true}});
        QCOMPARE(q(captureItemWith(pinned["result"]["resources"], "name", "dpkg")["properties"].value("ensure", "")),
            version);
    }

    void badParamsNameTheMember_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("member");
        const QString inventory = s("host.inventory");
        const QString capture = s("host.capture");
        QTest::newRow("no kind") << inventory << s("{}") << s("kind");
        QTest::newRow("unknown kind") << inventory << s(R"({"kind": "users"})") << s("kind");
        QTest::newRow("kind not a string") << inventory << s(R"({"kind": 1})") << s("kind");
        QTest::newRow("files without a path") << inventory << s(R"({"kind": "files"})") << s("path");
        QTest::newRow("relative path") << inventory << s(R"({"kind": "files", "path": "etc"})") << s("path");
        QTest::newRow("NUL in the path") << inventory << s(R"({"kind": "files", "path": "/etc\u0000x"})") << s("path");
        QTest::newRow("path with packages") << inventory << s(R"({"kind": "packages", "path": "/etc"})") << s("path");
        QTest::newRow("max with services") << inventory << s(R"({"kind": "services", "max": 3})") << s("max");
        QTest::newRow("max zero") << inventory << s(R"({"kind": "files", "path": "/etc", "max": 0})") << s("max");
        QTest::newRow("max too high") << inventory << s(R"({"kind": "files", "path": "/etc", "max": 10001})")
                                      << s("max");
        QTest::newRow("max a string") << inventory << s(R"({"kind": "files", "path": "/etc", "max": "5"})") << s("max");
        QTest::newRow("unknown member") << inventory << s(R"({"kind": "packages", "user": "root"})") << s("user");
        QTest::newRow("nothing to capture") << capture << s("{}") << s("files");
        QTest::newRow("only flags") << capture << s(R"({"data": true})") << s("files");
        QTest::newRow("files not a list") << capture << s(R"({"files": "/etc"})") << s("files");
        QTest::newRow("relative file") << capture << s(R"({"files": ["/etc", "motd"]})") << s("files/1");
        QTest::newRow("empty pattern") << capture << s(R"({"packages": [""]})") << s("packages/0");
        QTest::newRow("pattern not a string") << capture << s(R"({"services": ["ssh", 2]})") << s("services/1");
        QTest::newRow("exclude with NUL")
            << capture << s(R"({"files": ["/etc"], "excludes": ["/a\u0000"]})") << s("excludes/0");
        QTest::newRow("data not a boolean") << capture << s(R"({"files": ["/etc"], "data": "yes"})") << s("data");
        QTest::newRow("unknown member of capture")
            << capture << s(R"({"files": ["/etc"], "output": "/tmp/x"})") << s("output");
        QTest::newRow("pattern too long")
            << capture << q(Json {{"packages", {std::string(300, 'a')}}}.dump()) << s("packages/0");
        Json many = Json::array();
        for (int i = 0; i < 257; ++i)
            many.push_back("/etc/f" + std::to_string(i));
        QTest::newRow("too many files") << capture << q(Json {{"files", many}}.dump()) << s("files");
    }
    void badParamsNameTheMember()
    {
        QFETCH(QString, method);
        QFETCH(QString, params);
        QFETCH(QString, member);
        const Json reply = call(method.toStdString(), Json::parse(params.toStdString()), true);
        QCOMPARE(errorCode(reply), -32602);
        QCOMPARE(q(reply["error"]["data"].value("path", "")), member);
        QVERIFY2(q(reply["error"].value("message", "")).contains(s("params.")), qPrintable(captureText(reply)));
    }

    void aPeerOfASystemBackendCapturesOnlyWhatItMayRead()
    {
        if (::geteuid() != 0)
            QSKIP("taking on another user's file system identity needs root");
        QVERIFY(QDir().mkpath(q(path("peer/closed"))));
        QVERIFY(::chmod(path("peer").c_str(), 0755) == 0);
        QVERIFY(::chmod(path("peer/closed").c_str(), 0700) == 0);
        QVERIFY(writeFile(q(path("peer/closed/inside")), "x\n"));
        QVERIFY(writeFile(q(path("peer/public")), "hello\n"));
        QVERIFY(::chmod(path("peer/public").c_str(), 0644) == 0);
        QVERIFY(writeFile(q(path("peer/secret")), "s3cret\n"));
        QVERIFY(::chmod(path("peer/secret").c_str(), 0600) == 0);
        Dispatcher dispatcher(m_applies, captureFacts);
        const Caller peer = captureCaller(Role::Preview, kCapturePeerUid);

        const Json reply
            = captureAnswer(dispatcher, peer, "host.capture", {{"files", {path("peer")}}, {"include_private", true}});
        m_problems << sentProblems("response.host.capture", reply);
        const Json &result = reply["result"];
        QCOMPARE(captureNames(result["resources"]), (QStringList {q(path("peer")), q(path("peer/public"))}));
        QCOMPARE(
            q(captureItemWith(result["resources"], "name", path("peer/public"))["properties"].value("content", "")),
            s("hello\n"));
        QCOMPARE(q(captureItemWith(result["skipped"], "path", path("peer/secret")).value("kind", "")), s("unreadable"));
        QCOMPARE(q(captureItemWith(result["skipped"], "path", path("peer/closed")).value("kind", "")), s("unreadable"));
        QVERIFY2(!captureText(result).contains(s("s3cret")), qPrintable(captureText(result)));
        QCOMPARE(q(result.value("captured_by", "")), q(peer.peer.name));

        // Listing: what it may not read is marked so, and a directory it may not list is refused.
        const Json listing
            = captureAnswer(dispatcher, peer, "host.inventory", {{"kind", "files"}, {"path", path("peer")}});
        m_problems << sentProblems("response.host.inventory", listing);
        QVERIFY(captureItemWith(listing["result"]["entries"], "name", "secret")["readable"] == Json(false));
        QVERIFY(captureItemWith(listing["result"]["entries"], "name", "public")["readable"] == Json(true));
        const Json closed
            = captureAnswer(dispatcher, peer, "host.inventory", {{"kind", "files"}, {"path", path("peer/closed")}});
        m_problems << sentProblems("errorResponse", closed);
        QCOMPARE(errorCode(closed), -32001);
        QCOMPARE(q(closed["error"]["data"].value("cause", "")), s("permission"));
        QCOMPARE(q(closed["error"]["data"].value("role", "")), s("preview"));

        // The backend's own user (root here) reads everything.
        const Json own = captureAnswer(dispatcher, captureCaller(Role::Preview, 0), "host.capture",
            {{"files", {path("peer")}}, {"include_private", true}});
        QVERIFY2(captureItemWith(own["result"]["resources"], "name", path("peer/secret")).contains("type"),
            qPrintable(captureText(own)));
        QVERIFY(captureItemWith(own["result"]["resources"], "name", path("peer/closed/inside")).contains("type"));
    }

    void roleNoneMayNotAsk()
    {
        Dispatcher dispatcher(m_applies, captureFacts);
        const Caller stranger = captureCaller(Role::None, kCapturePeerUid);
        QCOMPARE(errorCode(captureAnswer(dispatcher, stranger, "host.inventory", {{"kind", "packages"}})), -32001);
        // Before its params are looked at.
        QCOMPARE(errorCode(captureAnswer(dispatcher, stranger, "host.inventory", Json::object())), -32001);
        QCOMPARE(errorCode(captureAnswer(dispatcher, stranger, "host.capture", {{"files", {path("tree")}}})), -32001);
    }
};

CCM_TEST_GUILESS_MAIN(TestServeCapture)
#include "tst_serve_capture.moc"
