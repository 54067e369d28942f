// SPDX-License-Identifier: Apache-2.0
// What anybody who reaches an agent can send it without end, against a real nats-server and a
// real `ccm-backend agent` with fleet preview on and its metrics endpoint: garbage on
// ccm.preview.request and connections to /metrics that never finish their request. The log
// stays bounded and says how much it left out; scrapes are served while the connections are held.
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_wire.h"
#include "fleet_agent_process.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QRegularExpression>
#include <QtTest>

#include <arpa/inet.h>
#include <nats/nats.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace ccm;
using ccm::test::FleetAgent;
using ccm::test::freePort;
using ccm::test::previewUser;
using ccm::test::runBackend;

namespace {

/// The slow-loris clients of the attack: more than the endpoint serves at once.
constexpr int kSlowClients = 64;
/// How long one socket call of the test may wait before it counts as a hang.
constexpr int kPatienceMs = 30000;

/// A TCP connection to 127.0.0.1:`port`, closed when it goes; -1 when it could not be made.
class Client {
public:
    explicit Client(quint16 port)
        : m_fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0))
    {
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const timeval patience {kPatienceMs / 1000, 0};
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
        if (::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~Client()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Client(Client &&other) noexcept
        : m_fd(std::exchange(other.m_fd, -1))
    {
    }
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;
    Client &operator=(Client &&) = delete;

    [[nodiscard]] int fd() const { return m_fd; }

    /// Sends `text`; false when the server closed the connection.
    bool send(const QByteArray &text) const
    {
        return ::send(m_fd, text.constData(), static_cast<size_t>(text.size()), MSG_NOSIGNAL) == text.size();
    }

    /// Everything the server sends until it closes the connection.
    QByteArray readAll() const
    {
        QByteArray answer;
        char buffer[4096];
        ssize_t got = 0;
        while ((got = ::read(m_fd, buffer, sizeof buffer)) > 0)
            answer.append(buffer, static_cast<int>(got));
        return answer;
    }

    /// Whether the server closed the connection within `timeoutMs`.
    bool closedWithin(int timeoutMs) const
    {
        pollfd entry {m_fd, POLLIN, 0};
        if (::poll(&entry, 1, timeoutMs) != 1)
            return false;
        char byte = 0;
        return ::recv(m_fd, &byte, 1, MSG_DONTWAIT) <= 0;
    }

private:
    int m_fd;
};

/// GET /metrics on a connection of its own: the whole answer, headers included.
QByteArray scrape(quint16 port)
{
    const Client client(port);
    if (client.fd() < 0 || !client.send("GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"))
        return {};
    return client.readAll();
}

/// A request that never ends: the request line and one header, more headers to come.
Client slowClient(quint16 port)
{
    Client client(port);
    client.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    return client;
}

int linesWith(const QString &log, const QString &text)
{
    int count = 0;
    for (const QString &line : log.split(QLatin1Char('\n')))
        count += line.contains(text) ? 1 : 0;
    return count;
}

/// The sum of the counts of the summaries "KEY: N more WHAT (REASON) in the last S s" in `log`,
/// and how many there are.
std::pair<qint64, int> summarized(const QString &log, const QString &key, const QString &what, const QString &reason)
{
    const QRegularExpression summary(QRegularExpression::escape(key) + QStringLiteral(": (\\d+) more ")
        + QRegularExpression::escape(what) + QStringLiteral(" \\(") + QRegularExpression::escape(reason)
        + QStringLiteral("\\) in the last \\d+ s"));
    qint64 sum = 0;
    int count = 0;
    for (auto match = summary.globalMatch(log); match.hasNext(); ++count)
        sum += match.next().captured(1).toLongLong();
    return {sum, count};
}

} // namespace

class TestAgentLimits : public QObject {
    Q_OBJECT

private:
    test::NatsServer m_server;
    QTemporaryDir m_dir;
    QString m_trusted; ///< the public key the agents trust

    /// The configuration after the identity: preview on, then metrics on `port` (configure()
    /// writes it after "preview:", so the last line is back at the top level).
    QByteArray configuration(quint16 port) const
    {
        return "  enabled: true\n  trusted_keys: [" + m_trusted.toUtf8() + "]\n  user: " + previewUser()
            + "\nmonitor_port: " + QByteArray::number(port) + "\n";
    }

    /// An agent with preview on and metrics on `port`, started and answering both.
    std::unique_ptr<FleetAgent> startAgent(const QString &identity, quint16 port)
    {
        auto agent = std::make_unique<FleetAgent>(identity, "web", m_server.url());
        agent->configure(configuration(port));
        agent->start();
        if (!agent->waitForLog(QStringLiteral("fleet preview: answering requests"))
            || !agent->waitForLog(QStringLiteral("serving metrics on http://127.0.0.1:")))
            qWarning("%s", qPrintable(agent->log()));
        return agent;
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        if (previewUser() == "nobody" && ::getpwnam("nobody") == nullptr)
            QSKIP("needs a user named nobody to run previews as");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        QCOMPARE(runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"),
                                m_dir.filePath(QStringLiteral("signer.pem"))})
                     .exitCode,
            0);
        m_trusted = m_dir.filePath(QStringLiteral("signer.pub.pem"));
    }

    void garbagePreviewRequestsAreLoggedRateLimited()
    {
        auto agent = startAgent(QStringLiteral("flood-1"), freePort());
        QVERIFY2(agent->log().contains(QStringLiteral("answering requests")), qPrintable(agent->log()));
        fleet::NatsSettings settings;
        settings.url = m_server.urlString();
        auto flooder = fleet::NatsConnection::connect(settings);
        QVERIFY(flooder);
        constexpr int kGarbage = 50000;
        const std::string subject(fleet::kPreviewRequestSubject);
        for (int i = 0; i < kGarbage; ++i) {
            const QByteArray garbage = test::randomBytes(64, static_cast<quint32>(i));
            QCOMPARE(natsConnection_Publish(flooder.value()->connection(), subject.c_str(), garbage.constData(),
                         static_cast<int>(garbage.size())),
                NATS_OK);
        }
        QCOMPARE(natsConnection_FlushTimeout(flooder.value()->connection(), kPatienceMs), NATS_OK);
        // Stopping drains the subscription: every request the server forwarded is handled and
        // the summary of what was left out is written.
        QCOMPARE(agent->stop(), 0);
        const QString log = agent->log();
        const int written = linesWith(log, QStringLiteral("fleet preview: rejected request (unreadable)"));
        const auto [left, summaries] = summarized(
            log, QStringLiteral("fleet preview"), QStringLiteral("rejected"), QStringLiteral("unreadable"));
        QVERIFY2(summaries >= 1, qPrintable(log.left(4096)));
        // Five lines of each 10 s and one summary: every request counted, few written.
        QCOMPARE(written + left, qint64(kGarbage));
        QVERIFY2(written <= 5 * summaries, qPrintable(log.left(4096)));
        QVERIFY2(log.size() < 16384, qPrintable(log.left(4096)));
    }

    void scrapesAreServedWhileSlowClientsHoldConnections()
    {
        const quint16 port = freePort();
        auto agent = startAgent(QStringLiteral("loris-1"), port);
        QVERIFY2(agent->log().contains(QStringLiteral("serving metrics")), qPrintable(agent->log()));
        std::vector<Client> slow;
        for (int i = 0; i < kSlowClients; ++i) {
            slow.push_back(slowClient(port));
            QVERIFY(slow.back().fd() >= 0);
        }
        // As in the attack, every held connection sends one more header line between scrapes.
        for (int round = 0; round < 4; ++round) {
            for (const Client &client : slow)
                client.send("X-Slow: " + QByteArray::number(round) + "\r\n");
            const QByteArray answer = scrape(port);
            QVERIFY2(answer.startsWith("HTTP/1.0 200") || answer.startsWith("HTTP/1.1 200"),
                qPrintable(QStringLiteral("round %1: '%2'").arg(round).arg(QString::fromUtf8(answer.left(200)))));
            QVERIFY(answer.contains("# TYPE ccm_agent_runs_total counter"));
        }
        // Connections in their thousands, each closed at once, then a scrape still served.
        for (int i = 0; i < 2000; ++i)
            QVERIFY(Client(port).fd() >= 0);
        QVERIFY(scrape(port).contains("# TYPE ccm_agent_runs_total counter"));
        QCOMPARE(agent->stop(), 0);
        const QString log = agent->log();
        const int metricsLines
            = linesWith(log, QStringLiteral("metrics: ")) + linesWith(log, QStringLiteral("connection limit"));
        QVERIFY2(metricsLines <= 30, qPrintable(log.left(8192)));
        const auto [left, summaries]
            = summarized(log, QStringLiteral("metrics"), QStringLiteral("messages"), QStringLiteral("endpoint full"));
        QVERIFY2(summaries >= 1 && left > 0, qPrintable(log.left(8192)));
    }

    void aRequestThatOutlivesItsDeadlineIsClosed()
    {
        const quint16 port = freePort();
        auto agent = startAgent(QStringLiteral("deadline-1"), port);
        QVERIFY2(agent->log().contains(QStringLiteral("serving metrics")), qPrintable(agent->log()));
        // Never idle, never finished: only a deadline for the whole request ends it.
        const Client slow = slowClient(port);
        QDeadlineTimer deadline(60000);
        bool closed = false;
        while (!closed && !deadline.hasExpired()) {
            QVERIFY(slow.send("X-Slow: 1\r\n") || slow.closedWithin(0));
            // The deadline is looked at when a connection arrives.
            QVERIFY(scrape(port).contains("# TYPE ccm_agent_runs_total counter"));
            closed = slow.closedWithin(1000);
        }
        QVERIFY2(closed, "a request that never ended kept its connection for a minute");
        QVERIFY2(agent->waitForLog(QStringLiteral("metrics: closed a connection that took more than 10 s")),
            qPrintable(agent->log()));
    }

    void cleanupTestCase() { m_server.stop(); }
};

CCM_TEST_GUILESS_MAIN(TestAgentLimits)
#include "tst_agent_limits.moc"
