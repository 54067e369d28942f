// SPDX-License-Identifier: Apache-2.0
// `ccm-backend serve` as a real process given oversized input by its own user: every string
// param has a bound (invalid_params naming the param and the bound), no answer is longer than a
// line may be, and the log quotes no more than a bounded prefix of what the client sent.
#include "daemon_harness.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

constexpr std::size_t kMiB = 1024 * 1024;
/// The longest line the protocol allows (docs/protocol.md, Limits).
constexpr std::size_t kLineLimit = 16 * kMiB;

/// The longest line of the daemon's log.
qsizetype longestLine(const QByteArray &log)
{
    qsizetype longest = 0;
    for (const QByteArray &line : log.split('\n'))
        longest = std::max(longest, line.size());
    return longest;
}

/// A Go template whose output is about `count` cubed times 20 bytes, from a manifest listing
/// 0 to count - 1 in Data.l.
std::pair<std::string, std::string> multiplyingTemplate(int count)
{
    std::string manifest = "data:\n  l:\n";
    for (int i = 0; i < count; ++i)
        manifest += "    - " + std::to_string(i) + "\n";
    return {manifest, "{{range .Data.l}}{{range $.Data.l}}{{range $.Data.l}}xxxxxxxxxxxxxxxxxxxx{{end}}{{end}}{{end}}"};
}

} // namespace

class TestServeParams : public QObject {
    Q_OBJECT

private slots:
    void oversizedParamsAreInvalidParams_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QByteArray>("params");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("limit");
        const auto params = [](const Json &value) { return QByteArray::fromStdString(value.dump()); };
        const std::string longName(300, 'k');
        QTest::newRow("keygen: a file name over NAME_MAX")
            << QStringLiteral("fleet.keygen") << params({{"private", "/tmp/" + longName + ".pem"}})
            << QStringLiteral("private") << 255;
        QTest::newRow("keygen: a 15 MiB path")
            << QStringLiteral("fleet.keygen") << params({{"private", "/" + std::string(15 * kMiB, 'p')}})
            << QStringLiteral("private") << 4096;
        QTest::newRow("publish: an 8 MiB object name")
            << QStringLiteral("bundle.publish")
            << params({{"file", "/nonexistent/site.tar.gz"}, {"bucket", "bundles"},
                   {"name", std::string(8 * kMiB, 'n')}, {"nats", "nats://127.0.0.1:1"}})
            << QStringLiteral("name") << 1024;
        QTest::newRow("preview: a 1 MiB selector")
            << QStringLiteral("fleet.preview")
            << params({{"source", "obj://bundles/site.tar.gz"}, {"key", "/nonexistent/preview.pem"},
                   {"select", "Facts.role == \"" + std::string(kMiB, 'r') + "\""}})
            << QStringLiteral("select") << 4096;
        QTest::newRow("list: one include over PATH_MAX")
            << QStringLiteral("bundle.list")
            << params({{"manifest", "ccm: {}\n"}, {"base_dir", "/tmp"},
                   {"include", Json::array({"a", std::string(5000, 'i')})}})
            << QStringLiteral("include/1") << 4096;
        QTest::newRow("validate: a base_dir component over NAME_MAX")
            << QStringLiteral("manifest.validate")
            << params({{"manifest", "ccm: {}\n"}, {"base_dir", "/srv/" + longName}}) << QStringLiteral("base_dir")
            << 255;
        QTest::newRow("validate: a source URL over 8 KiB")
            << QStringLiteral("manifest.validate")
            << params({{"source", "https://example.com/" + std::string(9000, 'u')}}) << QStringLiteral("source")
            << 8192;
        QTest::newRow("hello: a long client name")
            << QStringLiteral("backend.hello") << params({{"client", std::string(300, 'c')}, {"version", "1"}})
            << QStringLiteral("client") << 256;
        QTest::newRow("cancel: a long run id")
            << QStringLiteral("apply.cancel") << params({{"run", std::string(200, 'r')}}) << QStringLiteral("run")
            << 128;
    }
    void oversizedParamsAreInvalidParams()
    {
        QFETCH(QString, method);
        QFETCH(QByteArray, params);
        QFETCH(QString, path);
        QFETCH(int, limit);
        DaemonProcess daemon({}, QStringLiteral(CCM_BACKEND_BIN), {}, DaemonProcess::Log::Captured);
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call(method.toStdString(), Json::parse(params.toStdString()));
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32602);
        const Json &error = (*reply)["error"];
        QCOMPARE(q(error["data"].value("path", "")), path);
        QCOMPARE(error["data"].value("limit", 0), limit);
        const QString message = q(error.value("message", ""));
        // A list's member is shown as include[1], its path is include/1.
        const QString shown = QString(path).replace(QStringLiteral("/1"), QStringLiteral("[1]"));
        QVERIFY2(message.startsWith(QStringLiteral("params.") + shown), qPrintable(message));
        QVERIFY2(message.contains(QString::number(limit) + QStringLiteral(" bytes")), qPrintable(message));
        QVERIFY2(message.size() < 200, qPrintable(message));
        // The daemon goes on serving the connection.
        const auto hello = client.call("backend.hello", {{"client", "t"}, {"version", "1"}});
        QVERIFY(hello);
        QCOMPARE(errorCode(*hello), 0);
        QCOMPARE(daemon.terminate(), 0);
        const QByteArray log = daemon.log();
        QVERIFY2(longestLine(log) < 1024, log.left(2048).constData());
        QVERIFY2(log.size() < 8192, log.left(2048).constData());
    }

    void manifestsKeepTheLineLimit()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        // 12 MiB of comment: large, but within the line, so no bound of the params refuses it.
        const std::string manifest = "# " + std::string(12 * kMiB, 'c') + "\nccm:\n  resources: []\n";
        const auto reply = client.call("manifest.validate", {{"manifest", manifest}});
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), 0);
        QCOMPARE((*reply)["result"].value("valid", false), true);
    }

    void anAnswerOverTheLineLimitIsTooLarge()
    {
        DaemonProcess daemon({}, QStringLiteral(CCM_BACKEND_BIN), {}, DaemonProcess::Log::Captured);
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        // 100 cubed times 20 bytes: about 20 MB of output from a request of a few hundred bytes.
        const auto [manifest, text] = multiplyingTemplate(100);
        QVERIFY(client.send("template.render", {{"manifest", manifest}, {"engine", "go"}, {"text", text}}, 7));
        pollfd entry {client.fd(), POLLIN, 0};
        QVERIFY(::poll(&entry, 1, kPatienceMs) == 1);
        // Read as the protocol's own clients do: one line of at most the limit.
        std::string line;
        char buffer[65536];
        while (line.find('\n') == std::string::npos && line.size() <= kLineLimit) {
            const ssize_t got = ::recv(client.fd(), buffer, sizeof buffer, 0);
            QVERIFY(got > 0);
            line.append(buffer, static_cast<std::size_t>(got));
        }
        const std::size_t newline = line.find('\n');
        QVERIFY2(newline != std::string::npos && newline <= kLineLimit,
            qPrintable(QStringLiteral("a line of more than %1 bytes").arg(line.size())));
        const Json reply = normalized(Json::parse(line.substr(0, newline)));
        QVERIFY(reply["id"] == Json(7));
        QCOMPARE(errorCode(reply), -32004);
        QCOMPARE(reply["error"]["data"].value("limit", std::size_t(0)), kLineLimit);
        QVERIFY2(q(reply["error"].value("message", "")).contains(QStringLiteral("more than the 16777216")),
            reply.dump().c_str());

        RpcClient other;
        QVERIFY(other.connectTo(daemon.socket()));
        const auto hello = other.call("backend.hello", {{"client", "t"}, {"version", "1"}});
        QVERIFY(hello);
        QCOMPARE(errorCode(*hello), 0);
        QCOMPARE(daemon.terminate(), 0);
        const QByteArray log = daemon.log();
        QVERIFY2(log.contains("sent too_large"), log.constData());
        QVERIFY2(longestLine(log) < 1024, log.left(2048).constData());
    }

    void longIdsAreRefused()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        QVERIFY(client.send("backend.hello", {{"client", "t"}, {"version", "1"}}, std::string(8 * kMiB, 'i')));
        const auto reply = client.next();
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32600);
        QVERIFY((*reply)["id"].is_null());
        QVERIFY2(
            q((*reply)["error"].value("message", "")).contains(QStringLiteral("256 bytes")), reply->dump().c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestServeParams)
#include "tst_serve_params.moc"
