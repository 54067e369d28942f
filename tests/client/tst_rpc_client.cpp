// SPDX-License-Identifier: Apache-2.0
// RpcClient against a scripted server: matching responses, notifications, the line limit and the
// ways a server can misbehave.
#include "daemon/client/rpc_client.h"
#include "fake_server.h"
#include "protocol/protocol.h"
#include "test_common.h"
#include "test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>

using namespace ccm;
using namespace ccm::test;
using namespace std::chrono_literals;

namespace {

QByteArray result(int id, const QByteArray &value)
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) + ",\"result\":" + value + "}\n";
}

} // namespace

class TestRpcClient : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString socketPath() const { return m_dir.filePath(QStringLiteral("backend.sock")); }

    /// Connects a client to a server running script.
    bool connectTo(FakeServer &server, RpcClient &client)
    {
        if (!server.ok())
            return false;
        return client.connect(socketPath().toStdString()).ok();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void requestLineAndResult()
    {
        FakeServer server(socketPath(), answerWith(result(1, R"({"server":"ccm-backend","protocol":1})")));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        auto response = client.call("backend.hello", Json {{"client", "test"}, {"version", "1"}});
        QVERIFY2(response.ok(), response.ok() ? "" : response.error().message.c_str());
        QVERIFY(!response->error);
        QVERIFY(response->id == Json(1));
        QVERIFY(response->result["protocol"] == Json(1));
        const QList<QByteArray> received = server.received();
        QCOMPARE(received.size(), 1);
        QCOMPARE(received[0],
            QByteArray(
                R"({"jsonrpc":"2.0","id":1,"method":"backend.hello","params":{"client":"test","version":"1"}})"));
    }

    void callsCountTheirIds()
    {
        FakeServer server(socketPath(), [](FakeConnection &peer, QList<QByteArray> &received) {
            for (int id = 1; id <= 2; ++id) {
                if (const auto request = peer.readLine())
                    received << *request;
                peer.write(result(id, QByteArray::number(id * 10)));
            }
        });
        RpcClient client;
        QVERIFY(connectTo(server, client));
        for (int id = 1; id <= 2; ++id) {
            auto response = client.call("facts.get", Json::object());
            QVERIFY(response.ok());
            QVERIFY(response->id == Json(id));
            QVERIFY(response->result == Json(id * 10));
        }
        const QList<QByteArray> received = server.received();
        QCOMPARE(received.size(), 2);
        QVERIFY(received[1].startsWith(R"({"jsonrpc":"2.0","id":2,)"));
    }

    void notificationsBeforeResponse_data()
    {
        QTest::addColumn<qsizetype>("piece");
        QTest::newRow("one write") << qsizetype(0);
        QTest::newRow("byte by byte") << qsizetype(1);
        QTest::newRow("seven bytes at a time") << qsizetype(7);
        QTest::newRow("a line and a half at a time") << qsizetype(90);
    }

    void notificationsBeforeResponse()
    {
        QFETCH(qsizetype, piece);
        const QByteArray reply
            = line(
                  R"({"jsonrpc":"2.0","method":"apply.progress","params":{"run":"r1","done":0,"total":1,"current":"file#/a"}})")
            + line(R"({"jsonrpc":"2.0","method":"apply.log","params":{"run":"r1","level":"info","message":"hi"}})")
            + result(1, R"({"run":"r1","cancelled":false})");
        FakeServer server(socketPath(), answerWith(reply, piece));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        QStringList methods;
        auto response = client.call("apply.start", Json {{"noop", true}},
            [&](const Json &notification) { methods << q(notification["method"].get<std::string>()); });
        QVERIFY2(response.ok(), response.ok() ? "" : response.error().message.c_str());
        QCOMPARE(methods, (QStringList {QStringLiteral("apply.progress"), QStringLiteral("apply.log")}));
        QVERIFY(response->result["run"] == Json("r1"));
    }

    void errorResponse()
    {
        FakeServer server(socketPath(),
            answerWith(line(
                R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"not allowed","data":{"reason":"unauthorized","role":"none"}}})")));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        auto response = client.call("facts.get", Json::object());
        QVERIFY(response.ok());
        QVERIFY(response->error.has_value());
        QCOMPARE(response->error->code, -32001);
        QCOMPARE(q(response->error->message), QStringLiteral("not allowed"));
        QVERIFY(response->error->data["role"] == Json("none"));
        QVERIFY(response->result.is_null());
    }

    void errorWithNullIdAnswersTheRequest()
    {
        FakeServer server(
            socketPath(), answerWith(line(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}})")));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        auto response = client.call("x", Json::object());
        QVERIFY(response.ok());
        QVERIFY(response->error.has_value());
        QCOMPARE(response->error->code, -32600);
        QVERIFY(response->error->data.is_null());
    }

    void responsesToOtherRequestsAreKept()
    {
        FakeServer server(socketPath(), [](FakeConnection &peer, QList<QByteArray> &received) {
            for (int i = 0; i < 2; ++i) {
                if (const auto request = peer.readLine())
                    received << *request;
            }
            peer.write(result(2, "\"second\"") + result(1, "\"first\""));
        });
        RpcClient client;
        QVERIFY(connectTo(server, client));
        QVERIFY(client.sendRequest(1, "a", Json::object()).ok());
        QVERIFY(client.sendRequest(2, "b", Json::object()).ok());
        auto first = client.waitForResponse(1);
        QVERIFY(first.ok());
        QVERIFY(first->result == Json("first"));
        auto second = client.waitForResponse(2);
        QVERIFY(second.ok());
        QVERIFY(second->result == Json("second"));
    }

    void lineAtTheLimitIsRead()
    {
        QByteArray reply = R"({"jsonrpc":"2.0","id":1,"result":")";
        const QByteArray tail = "\"}";
        const std::size_t text = protocol::kMaxLineBytes - std::size_t(reply.size() + tail.size());
        reply += QByteArray(qsizetype(protocol::kMaxLineBytes) - reply.size() - tail.size(), 'x') + tail;
        QCOMPARE(reply.size(), qsizetype(protocol::kMaxLineBytes));
        FakeServer server(socketPath(), answerWith(reply + '\n'));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        auto response = client.call("x", Json::object());
        QVERIFY2(response.ok(), response.ok() ? "" : response.error().message.c_str());
        QCOMPARE(response->result.get<std::string>().size(), text);
    }

    void lineOverTheLimit_data()
    {
        QTest::addColumn<bool>("newline");
        QTest::newRow("no newline in sight") << false;
        QTest::newRow("newline one byte too late") << true;
    }

    void lineOverTheLimit()
    {
        QFETCH(bool, newline);
        QByteArray reply(qsizetype(protocol::kMaxLineBytes) + 1, 'x');
        if (newline)
            reply += '\n';
        FakeServer server(socketPath(), answerWith(reply));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        auto response = client.call("x", Json::object());
        QVERIFY(!response.ok());
        QCOMPARE(q(response.error().code), QStringLiteral("too_large"));
        QVERIFY(!client.connected());
    }

    void serverClosesEarly_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("message");
        QTest::newRow("nothing sent") << QByteArray() << QStringLiteral("closed the connection");
        QTest::newRow("after a notification")
            << line(R"({"jsonrpc":"2.0","method":"apply.log","params":{"run":"r","level":"info","message":"m"}})")
            << QStringLiteral("closed the connection");
        QTest::newRow("in the middle of the response")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"res") << QStringLiteral("middle of a message (28 bytes");
    }

    void serverClosesEarly()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QString, message);
        FakeServer server(socketPath(), answerWith(reply));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        int notifications = 0;
        auto response = client.call("x", Json::object(), [&](const Json &) { ++notifications; });
        QVERIFY(!response.ok());
        QCOMPARE(q(response.error().code), QStringLiteral("closed"));
        QVERIFY2(q(response.error().message).contains(message), response.error().message.c_str());
        QCOMPARE(notifications, reply.contains("apply.log") ? 1 : 0);
        QVERIFY(!client.connected());
    }

    void invalidMessages_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << line("hello") << QStringLiteral("not JSON");
        QTest::newRow("invalid utf-8") << line("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\xff\"}")
                                       << QStringLiteral("not valid UTF-8");
        QTest::newRow("array") << line("[1]") << QStringLiteral("a list instead of an object");
        QTest::newRow("no jsonrpc") << line(R"({"id":1,"result":1})") << QStringLiteral("jsonrpc");
        QTest::newRow("wrong jsonrpc") << line(R"({"jsonrpc":"1.0","id":1,"result":1})") << QStringLiteral("jsonrpc");
        QTest::newRow("result and error")
            << line(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}})")
            << QStringLiteral("exactly one");
        QTest::newRow("neither result nor error")
            << line(R"({"jsonrpc":"2.0","id":1})") << QStringLiteral("exactly one");
        QTest::newRow("error without code")
            << line(R"({"jsonrpc":"2.0","id":1,"error":{"message":"m"}})") << QStringLiteral("integer \"code\"");
        QTest::newRow("error code out of range")
            << line(R"({"jsonrpc":"2.0","id":1,"error":{"code":99999999999,"message":"m"}})")
            << QStringLiteral("out of range");
        QTest::newRow("id of the wrong kind")
            << line(R"({"jsonrpc":"2.0","id":[1],"result":1})") << QStringLiteral("response id is a list");
        QTest::newRow("neither id nor method")
            << line(R"({"jsonrpc":"2.0","params":{}})") << QStringLiteral("neither an id nor a method");
        QTest::newRow("a request from the server")
            << line(R"({"jsonrpc":"2.0","id":5,"method":"x"})") << QStringLiteral("sent a request");
        QTest::newRow("nested too deeply") << QByteArray(100000, '[') + QByteArray(100000, ']') + '\n'
                                           << QStringLiteral("nested deeper");
    }

    void invalidMessages()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QString, message);
        FakeServer server(socketPath(), answerWith(reply));
        RpcClient client;
        QVERIFY(connectTo(server, client));
        auto response = client.call("x", Json::object());
        QVERIFY(!response.ok());
        QCOMPARE(q(response.error().code), QStringLiteral("invalid_message"));
        QVERIFY2(q(response.error().message).contains(message), response.error().message.c_str());
    }

    void timeout()
    {
        FakeServer server(socketPath(), [](FakeConnection &peer, QList<QByteArray> &) {
            while (peer.readLine()) { }
        });
        RpcClient client;
        QVERIFY(connectTo(server, client));
        const auto start = std::chrono::steady_clock::now();
        auto response = client.call("x", Json::object(), {}, 100ms);
        QVERIFY(!response.ok());
        QCOMPARE(q(response.error().code), QStringLiteral("timeout"));
        QVERIFY(std::chrono::steady_clock::now() - start >= 100ms);
        client.close();
    }

    void interruptDescriptor()
    {
        FakeServer server(socketPath(), [](FakeConnection &peer, QList<QByteArray> &) {
            while (peer.readLine()) { }
        });
        RpcClient client;
        QVERIFY(connectTo(server, client));
        int pipe[2];
        QCOMPARE(::pipe2(pipe, O_CLOEXEC), 0);
        client.setInterruptFd(pipe[0]);
        QCOMPARE(::write(pipe[1], "x", 1), ssize_t(1));
        auto response = client.call("x", Json::object());
        QVERIFY(!response.ok());
        QCOMPARE(q(response.error().code), QStringLiteral("interrupted"));
        QVERIFY(client.connected());
        ::close(pipe[0]);
        ::close(pipe[1]);
        client.close();
    }

    void connectFailures_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("no such socket") << QStringLiteral("/nonexistent/backend.sock")
                                        << QStringLiteral("cannot connect to /nonexistent/backend.sock: No such file");
        QTest::newRow("too long") << QStringLiteral("/") + QString(200, QLatin1Char('a')) << QStringLiteral("too long");
        QTest::newRow("empty") << QString() << QStringLiteral("empty");
    }

    void connectFailures()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        RpcClient client;
        auto connected = client.connect(path.toStdString());
        QVERIFY(!connected.ok());
        QCOMPARE(q(connected.error().code), QStringLiteral("connect_failed"));
        QVERIFY2(q(connected.error().message).contains(message), connected.error().message.c_str());
        QVERIFY(!client.connected());
    }

    void sendRefuses_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("id of the wrong kind") << QStringLiteral("id") << QStringLiteral("string or an integer");
        QTest::newRow("params not a map") << QStringLiteral("params") << QStringLiteral("params must be a map");
        QTest::newRow("invalid utf-8") << QStringLiteral("utf8") << QStringLiteral("not valid UTF-8");
        QTest::newRow("over the limit") << QStringLiteral("size") << QStringLiteral("more than the protocol's limit");
    }

    void sendRefuses()
    {
        QFETCH(QString, what);
        QFETCH(QString, message);
        FakeServer server(socketPath(), [](FakeConnection &peer, QList<QByteArray> &received) {
            while (const auto request = peer.readLine())
                received << *request;
        });
        RpcClient client;
        QVERIFY(connectTo(server, client));
        Json id = 1;
        Json params = Json::object();
        if (what == QStringLiteral("id"))
            id = true;
        else if (what == QStringLiteral("params"))
            params = Json::array();
        else if (what == QStringLiteral("utf8"))
            params["manifest"] = std::string("\xff");
        else
            params["manifest"] = std::string(protocol::kMaxLineBytes, 'x');
        auto sent = client.sendRequest(id, "x", params);
        QVERIFY(!sent.ok());
        QCOMPARE(q(sent.error().code), QStringLiteral("invalid_request"));
        QVERIFY2(q(sent.error().message).contains(message), sent.error().message.c_str());
        client.close();
        QVERIFY(server.received().isEmpty());
    }

    void notificationsAreSent()
    {
        FakeServer server(socketPath(), [](FakeConnection &peer, QList<QByteArray> &received) {
            while (const auto request = peer.readLine())
                received << *request;
        });
        RpcClient client;
        QVERIFY(connectTo(server, client));
        QVERIFY(client.sendNotification("ping", Json {{"a", 1}}).ok());
        client.close();
        const QList<QByteArray> received = server.received();
        QCOMPARE(received, (QList<QByteArray> {R"({"jsonrpc":"2.0","method":"ping","params":{"a":1}})"}));
    }

    void sendAfterServerClosed()
    {
        FakeServer server(socketPath(), [](FakeConnection &, QList<QByteArray> &) {});
        RpcClient client;
        QVERIFY(connectTo(server, client));
        server.received();
        // The first send may still land in the socket buffer; a later one sees the closed peer.
        Result<void> sent;
        for (int i = 0; i < 100 && sent.ok(); ++i)
            sent = client.sendRequest(i, "x", Json::object());
        QVERIFY(!sent.ok());
        QCOMPARE(q(sent.error().code), QStringLiteral("closed"));
    }
};

CCM_TEST_GUILESS_MAIN(TestRpcClient)
#include "tst_rpc_client.moc"
