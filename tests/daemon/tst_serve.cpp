// SPDX-License-Identifier: Apache-2.0
// `ccm-backend serve` as a real process, driven over its socket: every method, streamed applies,
// busy, cancel, disconnects, concurrent clients and every kind of malformed input.
#include "daemon_harness.h"
#include "test_main.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <atomic>
#include <memory>
#include <sys/syscall.h>
#include <thread>

using namespace ccm;
using namespace ccm::test;

namespace {

std::string path(const QTemporaryDir &dir, const char *name)
{
    return dir.filePath(s(name)).toStdString();
}

/// A manifest whose first resource waits until the file GO exists, and whose second creates MARK:
/// a run the test can hold between resources without timing anything.
std::string slowManifest(const QTemporaryDir &dir)
{
    return "ccm:\n  resources:\n    - exec:\n        - wait:\n            command: /bin/sh -c 'while [ ! -e "
        + path(dir, "go") + " ]; do sleep 0.02; done'\n        - mark:\n            command: /bin/sh -c 'touch "
        + path(dir, "mark") + "'\n";
}

bool release(const QTemporaryDir &dir)
{
    return writeFile(dir.filePath(s("go")), QByteArray());
}

/// Reads notifications until the first apply.progress and returns its run id.
std::string awaitRun(RpcClient &client)
{
    while (auto message = client.next()) {
        if (message->value("method", "") == "apply.progress")
            return (*message)["params"].value("run", "");
    }
    return {};
}

/// Connects `client` with `uid` as its peer credentials: a thread of its own takes on the uid
/// (the raw system call changes only the calling thread), so the test itself stays root.
bool connectAs(RpcClient &client, const QString &socket, uid_t uid)
{
    bool connected = false;
    std::thread([&] {
        if (::syscall(SYS_setresuid, -1, uid, -1) == 0)
            connected = client.connectTo(socket);
    }).join();
    return connected;
}

} // namespace

class TestServe : public QObject {
    Q_OBJECT

private slots:
    void helloReportsRoleAndUser()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call("backend.hello", {{"client", "test"}, {"version", "1"}});
        QVERIFY(reply);
        const Json &result = (*reply)["result"];
        QCOMPARE(result.value("server", ""), std::string("ccm-backend"));
        QCOMPARE(result.value("protocol", 0), 1);
        QCOMPARE(result.value("role", ""), std::string("apply"));
        QCOMPARE(result.value("uid", -1), static_cast<int>(::getuid()));
        QVERIFY(!result.value("user", "").empty());
        QVERIFY(!result.value("version", "").empty());
    }

    void validateReportsPositions_data()
    {
        QTest::addColumn<QString>("manifest");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("pointer");
        QTest::newRow("valid") << s("ccm:\n  resources:\n    - file:\n        - /tmp/x:\n            ensure: absent\n")
                               << true << 0 << QString();
        QTest::newRow("bad timeout") << s(
            "ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            timeout: soon\n")
                                     << false << 5 << s("/ccm/resources/0/exec/0/~1bin~1true/timeout");
        QTest::newRow("yaml syntax") << s("ccm:\n  resources: [\n") << false << -1 << QString();
    }
    void validateReportsPositions()
    {
        QFETCH(QString, manifest);
        QFETCH(bool, valid);
        QFETCH(int, line);
        QFETCH(QString, pointer);
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call("manifest.validate", {{"manifest", manifest.toStdString()}});
        QVERIFY(reply);
        const Json &result = (*reply)["result"];
        QCOMPARE(result.value("valid", !valid), valid);
        if (valid) {
            QVERIFY(result["diagnostics"].empty());
            return;
        }
        QVERIFY(!result["diagnostics"].empty());
        const Json &first = result["diagnostics"][0];
        QCOMPARE(first.value("severity", ""), std::string("error"));
        QVERIFY(!first.value("message", "").empty());
        if (line > 0)
            QCOMPARE(first.value("line", 0), line);
        QVERIFY(first.value("line", 0) > 0);
        QVERIFY(first.value("column", 0) > 0);
        QVERIFY2(q(first.value("path", "")).endsWith(pointer), first.dump().c_str());
    }

    void renderResolvesTemplatesAndFacts()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const std::string manifest = "data:\n  greeting: hello\nccm:\n  resources:\n    - exec:\n        - \"echo "
                                     "{{ Data.greeting }} {{ Facts.site }}\": {}\n";
        const auto reply = client.call("manifest.render", {{"manifest", manifest}, {"facts", {{"site", "lab"}}}});
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), 0);
        const std::string yaml = (*reply)["result"].value("yaml", "");
        QVERIFY2(yaml.find("echo hello lab") != std::string::npos, yaml.c_str());

        const auto invalid = client.call("manifest.render", {{"manifest", "ccm: 5\n"}});
        QVERIFY(invalid);
        QCOMPARE(errorCode(*invalid), -32003);
        QCOMPARE((*invalid)["error"]["data"].value("reason", ""), std::string("invalid_manifest"));
        QVERIFY(!(*invalid)["error"]["data"]["diagnostics"].empty());
    }

    void factsAreGathered()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call("facts.get", Json::object());
        QVERIFY(reply);
        QVERIFY((*reply)["result"]["facts"].is_object());
        QVERIFY((*reply)["result"]["facts"].contains("host"));
    }

    void noopApplyStreamsProgressThenEvents()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        const std::string a = path(dir, "a.txt");
        const std::string b = path(dir, "b.txt");
        const std::string manifest
            = "ccm:\n  resources:\n    - file:\n" + fileEntry(a, "content: one") + fileEntry(b, "content: two");
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        std::vector<Json> notifications;
        const auto reply = client.call("apply.start", {{"manifest", manifest}, {"noop", true}}, &notifications);
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), 0);
        const Json &result = (*reply)["result"];
        const std::string run = result.value("run", "");
        QVERIFY(!run.empty());
        QCOMPARE(result.value("noop", false), true);
        QCOMPARE(result.value("cancelled", true), false);
        QCOMPARE(result["summary"].value("changed", 0), 2);

        QStringList sequence;
        for (const Json &message : notifications) {
            const std::string method = message.value("method", "");
            QCOMPARE(message["params"].value("run", ""), run);
            if (method == "apply.progress")
                sequence << s("progress %1/%2 %3")
                                .arg(message["params"].value("done", -1))
                                .arg(message["params"].value("total", -1))
                                .arg(q(message["params"].value("current", "")));
            else if (method == "apply.event")
                sequence << s("event %1").arg(q(message["params"]["event"].value("resource", "")));
        }
        const QStringList expected {s("progress 0/2 file#%1").arg(q(a)), s("event file#%1").arg(q(a)),
            s("progress 1/2 file#%1").arg(q(b)), s("event file#%1").arg(q(b))};
        QCOMPARE(sequence, expected);
        QVERIFY(!QFileInfo::exists(q(a)));
    }

    void realApplyChangesTheHost()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        const std::string target = path(dir, "motd");
        const std::string manifest = "ccm:\n  resources:\n    - file:\n" + fileEntry(target, "content: \"welcome\\n\"");
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call("apply.start", {{"manifest", manifest}, {"noop", false}});
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), 0);
        QCOMPARE((*reply)["result"]["summary"].value("changed", 0), 1);
        QCOMPARE((*reply)["result"].value("noop", true), false);
        QFile file(q(target));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("welcome\n"));
    }

    void messagesAndLogsAreStreamed()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        const std::string target = path(dir, "motd");
        const std::string manifest = "ccm:\n  pre_message: before\n  post_message: after\n  resources:\n    - file:\n"
            + fileEntry(target, "content: hello");
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        std::vector<Json> notifications;
        const auto reply = client.call("apply.start", {{"manifest", manifest}, {"noop", true}}, &notifications);
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), 0);
        QStringList texts;
        QStringList logs;
        for (const Json &message : notifications) {
            const std::string method = message.value("method", "");
            if (method == "apply.message")
                texts << q(message["params"].value("text", ""));
            if (method == "apply.log")
                logs << q(message["params"].value("level", "") + " " + message["params"].value("resource", "") + " "
                    + (message["params"].value("message", "").empty() ? "empty" : "text"));
        }
        QCOMPARE(texts, (QStringList {s("before"), s("after")}));
        QCOMPARE(notifications.front().value("method", ""), std::string("apply.message"));
        QCOMPARE(notifications.back().value("method", ""), std::string("apply.message"));
        QCOMPARE(logs, QStringList {s("debug file#%1 text").arg(q(target))});
    }

    void badCommandLineIsAUsageError_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("idle timeout zero") << QStringList {s("--idle-timeout"), s("0")};
        QTest::newRow("idle timeout word") << QStringList {s("--idle-timeout"), s("soon")};
        QTest::newRow("socket without path") << QStringList {s("--socket")};
        QTest::newRow("unknown option") << QStringList {s("--bogus")};
    }
    void badCommandLineIsAUsageError()
    {
        QFETCH(QStringList, arguments);
        QProcess process;
        process.start(s(CCM_BACKEND_BIN), QStringList {s("serve")} + arguments);
        QVERIFY(process.waitForFinished(kPatienceMs));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(process.readAllStandardError().contains("ccm-backend serve:"));
    }

    void invalidManifestStartsNoRun()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        std::vector<Json> notifications;
        const auto reply
            = client.call("apply.start", {{"manifest", "ccm:\n  resources: 5\n"}, {"noop", true}}, &notifications);
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32003);
        QVERIFY(notifications.empty());
    }

    void secondApplyIsBusyAndCancelStopsTheRun()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        RpcClient owner;
        QVERIFY(owner.connectTo(daemon.socket()));
        QVERIFY(owner.send("apply.start", {{"manifest", slowManifest(dir)}, {"noop", false}}, "start"));
        const std::string run = awaitRun(owner);
        QVERIFY(!run.empty());

        RpcClient other;
        QVERIFY(other.connectTo(daemon.socket()));
        const auto busy = other.call("apply.start", {{"manifest", "ccm:\n  resources: []\n"}, {"noop", true}});
        QVERIFY(busy);
        QCOMPARE(errorCode(*busy), -32002);
        QCOMPARE((*busy)["error"]["data"].value("run", ""), run);

        const auto unknown = other.call("apply.cancel", {{"run", "no-such-run"}});
        QVERIFY(unknown);
        QCOMPARE(errorCode(*unknown), -32602);

        const auto cancel = other.call("apply.cancel", {{"run", run}});
        QVERIFY(cancel);
        QCOMPARE((*cancel)["result"].value("cancelling", false), true);
        QVERIFY(release(dir));
        const auto finished = owner.responseTo("start");
        QVERIFY(finished);
        QCOMPARE((*finished)["result"].value("cancelled", false), true);
        QCOMPARE((*finished)["result"].value("run", ""), run);
        QVERIFY(!QFileInfo::exists(dir.filePath(s("mark"))));

        const auto afterwards = other.call("apply.cancel", {{"run", run}});
        QVERIFY(afterwards);
        QCOMPARE(errorCode(*afterwards), -32602);
    }

    void disconnectCancelsTheRun()
    {
        DaemonProcess daemon({}, QStringLiteral(CCM_BACKEND_BIN), {}, DaemonProcess::Log::Captured);
        QTemporaryDir dir;
        {
            RpcClient owner;
            QVERIFY(owner.connectTo(daemon.socket()));
            QVERIFY(owner.send("apply.start", {{"manifest", slowManifest(dir)}, {"noop", false}}, 1));
            QVERIFY(!awaitRun(owner).empty());
        }
        // The first resource is released only once the daemon has seen the hang-up: released at
        // once, it could end, and the next one start, before the daemon read the closed socket.
        QTRY_VERIFY_WITH_TIMEOUT(daemon.log().contains("its client disconnected; cancelling"), kPatienceMs);
        QVERIFY(release(dir));
        RpcClient next;
        QVERIFY(next.connectTo(daemon.socket()));
        // The cancelled run ends once its current resource has; until then the daemon is busy.
        std::optional<Json> reply;
        for (int attempt = 0; attempt < 3000; ++attempt) {
            reply = next.call("apply.start", {{"manifest", "ccm:\n  resources: []\n"}, {"noop", true}});
            QVERIFY(reply);
            if (errorCode(*reply) != -32002)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        QCOMPARE(errorCode(*reply), 0);
        QVERIFY(!QFileInfo::exists(dir.filePath(s("mark"))));
    }

    void manyClientsAreServedDuringAnApply()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        RpcClient owner;
        QVERIFY(owner.connectTo(daemon.socket()));
        QVERIFY(owner.send("apply.start", {{"manifest", slowManifest(dir)}, {"noop", false}}, 1));
        QVERIFY(!awaitRun(owner).empty());

        std::atomic<int> served {0};
        std::vector<std::thread> clients;
        // The owner and 15 more: every connection one uid may hold at once.
        constexpr int kClients = 15;
        for (int i = 0; i < kClients; ++i) {
            clients.emplace_back([&] {
                RpcClient client;
                if (!client.connectTo(daemon.socket()))
                    return;
                const auto hello = client.call("backend.hello", {{"client", "probe"}, {"version", "1"}});
                const auto valid = client.call("manifest.validate", {{"manifest", "ccm:\n  resources: []\n"}});
                if (hello && errorCode(*hello) == 0 && valid && (*valid)["result"].value("valid", false))
                    ++served;
            });
        }
        for (std::thread &client : clients)
            client.join();
        QCOMPARE(served.load(), kClients);
        QVERIFY(release(dir));
        const auto finished = owner.responseTo(1);
        QVERIFY(finished);
        QCOMPARE((*finished)["result"].value("cancelled", true), false);
        QVERIFY(QFileInfo::exists(dir.filePath(s("mark"))));
    }

    void malformedInputGetsAnError_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("code");
        QTest::addColumn<bool>("nullId");
        QTest::addColumn<QString>("paramPath");
        QTest::newRow("bad json") << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": 1,") << -32700 << true << QString();
        QTest::newRow("invalid utf-8") << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"\xff\xfe\"}")
                                       << -32700 << true << QString();
        QTest::newRow("not an object") << QByteArray("42") << -32600 << true << QString();
        QTest::newRow("batch") << QByteArray("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"facts.get\"}]") << -32600
                               << true << QString();
        QTest::newRow("id is a map") << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": {}, \"method\": \"facts.get\"}")
                                     << -32600 << true << QString();
        QTest::newRow("wrong jsonrpc") << QByteArray("{\"jsonrpc\": \"1.0\", \"id\": 7, \"method\": \"facts.get\"}")
                                       << -32600 << false << QString();
        QTest::newRow("method not a string")
            << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": 3}") << -32600 << false << QString();
        QTest::newRow("unknown method") << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"host.reboot\"}")
                                        << -32601 << false << QString();
        QTest::newRow("params a list") << QByteArray(
            "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"facts.get\", \"params\": []}")
                                       << -32602 << false << s("params");
        QTest::newRow("manifest a number") << QByteArray(
            "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"manifest.validate\", \"params\": {\"manifest\": 5}}")
                                           << -32602 << false << s("manifest");
        QTest::newRow("noop missing") << QByteArray(
            "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"apply.start\", \"params\": {\"manifest\": \"\"}}")
                                      << -32602 << false << s("noop");
        QTest::newRow("relative base_dir")
            << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"manifest.render\", "
                          "\"params\": {\"manifest\": \"\", \"base_dir\": \"etc\"}}")
            << -32602 << false << s("base_dir");
        QTest::newRow("facts a string") << QByteArray(
            "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"manifest.render\", "
            "\"params\": {\"manifest\": \"\", \"facts\": \"x\"}}")
                                        << -32602 << false << s("facts");
        QTest::newRow("cancel without run")
            << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"apply.cancel\"}") << -32602 << false
            << s("run");
        QTest::newRow("hello without client")
            << QByteArray("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"backend.hello\"}") << -32602 << false
            << s("client");
        QTest::newRow("deep nesting") << QByteArray(100000, '[') << -32700 << true << QString();
        QTest::newRow("empty line") << QByteArray() << -32700 << true << QString();
    }
    void malformedInputGetsAnError()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, code);
        QFETCH(bool, nullId);
        QFETCH(QString, paramPath);
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        QVERIFY(client.sendRaw(line.toStdString() + "\n"));
        const auto reply = client.next();
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), code);
        QCOMPARE((*reply)["id"].is_null(), nullId);
        QVERIFY(!(*reply)["error"].value("message", "").empty());
        QVERIFY(!(*reply)["error"]["data"].value("reason", "").empty());
        if (!paramPath.isEmpty())
            QCOMPARE(q((*reply)["error"]["data"].value("path", "")), paramPath);
        // The same connection, and the daemon, keep serving.
        const auto hello = client.call("backend.hello", {{"client", "test"}, {"version", "1"}});
        QVERIFY(hello);
        QCOMPARE(errorCode(*hello), 0);
    }

    void notificationsFromTheClientGetNoAnswer()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        QVERIFY(client.sendRaw(
            "{\"jsonrpc\": \"2.0\", \"method\": \"facts.get\"}\n{\"jsonrpc\": \"1.0\", \"method\": 5}\n"));
        const auto hello = client.call("backend.hello", {{"client", "test"}, {"version", "1"}});
        QVERIFY(hello);
        QVERIFY((*hello)["id"] == Json(1));
    }

    void overlongLineIsSkipped()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        QVERIFY(client.sendRaw(std::string(16 * 1024 * 1024 + 1, 'x') + "\n"));
        const auto reply = client.next();
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32004);
        QVERIFY((*reply)["id"].is_null());
        const auto hello = client.call("backend.hello", {{"client", "test"}, {"version", "1"}});
        QVERIFY(hello);
        QCOMPARE(errorCode(*hello), 0);
    }

    void lineLimitIsExact()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        // Exactly 16 MiB: valid JSON padded with spaces, answered normally.
        std::string request
            = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"backend.hello\", \"params\": {\"client\": \"t\", "
              "\"version\": \"1\"}}";
        request.append(16 * 1024 * 1024 - request.size(), ' ');
        QVERIFY(client.sendRaw(request + "\n"));
        const auto reply = client.next();
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), 0);
    }

    void endlessLineClosesTheConnection()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        // Sent from a thread: the daemon stops reading once it closes, which would block a
        // blocking send of everything at once here.
        std::thread writer([&client] { client.sendRaw(std::string(33 * 1024 * 1024, 'x')); });
        const auto reply = client.next();
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32004);
        QVERIFY(client.waitClosed());
        writer.join();
        RpcClient other;
        QVERIFY(other.connectTo(daemon.socket()));
        QVERIFY(other.call("backend.hello", {{"client", "test"}, {"version", "1"}}));
    }

    void silentClientIsClosedAfterTheIdleTimeout()
    {
        DaemonProcess daemon({s("--idle-timeout"), s("1")});
        RpcClient silent;
        QVERIFY(silent.connectTo(daemon.socket()));
        RpcClient partial;
        QVERIFY(partial.connectTo(daemon.socket()));
        QVERIFY(partial.sendRaw("{\"jsonrpc\": \"2.0\""));
        QVERIFY(silent.waitClosed());
        QVERIFY(partial.waitClosed());
        RpcClient other;
        QVERIFY(other.connectTo(daemon.socket()));
        QVERIFY(other.call("backend.hello", {{"client", "test"}, {"version", "1"}}));
    }

    void clientThatNeverReadsIsDropped()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        // Each resource's event carries a diff of almost 1 MiB: 100 of them are far more than the
        // 64 MiB a connection may have waiting.
        std::string line(99, 'y');
        line += '\n';
        std::string big;
        while (big.size() + line.size() < 1000 * 1000)
            big += line;
        QVERIFY(writeFile(dir.filePath(s("big.txt")), QByteArray::fromStdString(big)));
        std::string manifest = "ccm:\n  resources:\n    - file:\n";
        for (int i = 0; i < 100; ++i)
            manifest += fileEntry(path(dir, "out") + std::to_string(i), "source: big.txt");
        RpcClient greedy;
        QVERIFY(greedy.connectTo(daemon.socket()));
        const int small = 4096;
        ::setsockopt(greedy.fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        QVERIFY(greedy.send(
            "apply.start", {{"manifest", manifest}, {"base_dir", dir.path().toStdString()}, {"noop", true}}, 1));
        // The manifest is prepared on the work pool: the probe below must not start its run first.
        QVERIFY(!awaitRun(greedy).empty());

        // The daemon notices once its buffer for this client is full; the run is then cancelled,
        // which shows as the daemon accepting the next apply.
        RpcClient next;
        QVERIFY(next.connectTo(daemon.socket()));
        std::optional<Json> reply;
        for (int attempt = 0; attempt < 3000; ++attempt) {
            reply = next.call("apply.start", {{"manifest", "ccm:\n  resources: []\n"}, {"noop", true}});
            QVERIFY(reply);
            if (errorCode(*reply) != -32002)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        QCOMPARE(errorCode(*reply), 0);

        // What reached the greedy client ends without the response to its apply.start.
        bool answered = false;
        while (auto message = greedy.next()) {
            if (message->contains("id"))
                answered = true;
        }
        QVERIFY(greedy.closed());
        QVERIFY(!answered);
    }

    void secondDaemonLeavesALiveSocketAlone()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        QProcess second;
        QStringList arguments {s("serve"), s("--socket"), daemon.socket()};
        if (::getuid() != 0)
            arguments << s("--user");
        second.start(s(CCM_BACKEND_BIN), arguments);
        QVERIFY(second.waitForFinished(kPatienceMs));
        QCOMPARE(second.exitCode(), 1);
        QVERIFY(second.readAllStandardError().contains("another daemon is listening"));
        QVERIFY(client.call("backend.hello", {{"client", "test"}, {"version", "1"}}));
        RpcClient next;
        QVERIFY(next.connectTo(daemon.socket()));
        QVERIFY(next.call("backend.hello", {{"client", "test"}, {"version", "1"}}));
    }

    void connectionsBeyondTheLimitAreClosed()
    {
        if (::geteuid() != 0)
            QSKIP("64 connections need 4 uids (16 each at most), and taking on another uid needs root");
        DaemonProcess daemon;
        // The other uids need to reach the socket in the daemon's directory.
        QVERIFY(QFile::setPermissions(daemon.dir().path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
        std::vector<std::unique_ptr<RpcClient>> clients;
        for (const uid_t uid : {1, 2, 3, 65534}) {
            for (int i = 0; i < 16; ++i) {
                clients.push_back(std::make_unique<RpcClient>());
                QVERIFY(connectAs(*clients.back(), daemon.socket(), uid));
                QVERIFY(clients.back()->call("backend.hello", {{"client", "test"}, {"version", "1"}}));
            }
        }
        RpcClient extra;
        QVERIFY(extra.connectTo(daemon.socket()));
        const auto why = extra.next();
        QVERIFY(why);
        QCOMPARE(errorCode(*why), -32002);
        QVERIFY2(q((*why)["error"].value("message", "")).contains(s("64 connections")), why->dump().c_str());
        QVERIFY(extra.waitClosed());
        clients.pop_back();
        // Once the daemon has seen that close, there is room again.
        bool served = false;
        for (int attempt = 0; attempt < 3000 && !served; ++attempt) {
            RpcClient again;
            QVERIFY(again.connectTo(daemon.socket()));
            served = again.call("backend.hello", {{"client", "test"}, {"version", "1"}}).has_value();
        }
        QVERIFY(served);
        for (const auto &client : clients)
            QVERIFY(client->call("backend.hello", {{"client", "test"}, {"version", "1"}}));
    }

    void socketActivationServesThePassedSocket()
    {
        QTemporaryDir dir;
        const QString socket = dir.filePath(s("activated.sock"));
        QStringList prefix {s("activate"), socket, s(CCM_BACKEND_BIN), s("serve")};
        if (::getuid() != 0)
            prefix << s("--user");
        DaemonProcess daemon({}, s(CCM_DAEMON_PEER_BIN), prefix);
        RpcClient client;
        QVERIFY(client.connectTo(socket));
        const auto hello = client.call("backend.hello", {{"client", "test"}, {"version", "1"}});
        QVERIFY(hello);
        QCOMPARE((*hello)["result"].value("role", ""), std::string("apply"));
        QCOMPARE(daemon.terminate(), 0);
        // The service manager's socket is not the daemon's to remove.
        QVERIFY(QFileInfo::exists(socket));
    }

    void terminateCancelsTheRunAndAnswers()
    {
        DaemonProcess daemon;
        QTemporaryDir dir;
        RpcClient owner;
        QVERIFY(owner.connectTo(daemon.socket()));
        QVERIFY(owner.send("apply.start", {{"manifest", slowManifest(dir)}, {"noop", false}}, 1));
        QVERIFY(!awaitRun(owner).empty());
        ::kill(static_cast<pid_t>(daemon.pid()), SIGTERM);
        // The daemon stops accepting at once; only then may the first resource end, so that the
        // cancellation is known before the second one could start.
        QTRY_VERIFY_WITH_TIMEOUT(!acceptsConnections(daemon.socket()), kPatienceMs);
        QVERIFY(release(dir));
        const auto finished = owner.responseTo(1);
        QVERIFY(finished);
        QCOMPARE((*finished)["result"].value("cancelled", false), true);
        QCOMPARE(daemon.waitExit(), 0);
        QVERIFY(!QFileInfo::exists(dir.filePath(s("mark"))));
        QVERIFY(!QFileInfo::exists(daemon.socket()));
    }
};

CCM_TEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
