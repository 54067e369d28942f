// SPDX-License-Identifier: Apache-2.0
// Real nats-server topologies for the fleet's fault tests, all on 127.0.0.1:
// - NatsCluster: three (or more) servers in one JetStream cluster, each with its own store, that a
//   test kills with SIGKILL and restarts on the same ports with the same store;
// - NatsLeafSite: a hub server with JetStream and a leaf server without it, the leaf's link to the
//   hub running through a relay in this process that a test cuts and restores while both servers
//   keep running.
// The servers log to files, not pipes, so a server that logs much while the test waits on other
// processes never blocks on a full pipe. Readiness is judged by asking the JetStream API, not by time.
#pragma once

#include "fleet/nats/nats_connection.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <atomic>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <nats/nats.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ccm::test {

/// `count` distinct free TCP ports on 127.0.0.1. All are bound at once before any is released, so
/// they differ from each other; another process could still take one before the server does,
/// which the server's start then reports.
inline std::vector<quint16> freeLoopbackPorts(int count)
{
    std::vector<int> sockets;
    std::vector<quint16> ports;
    for (int i = 0; i < count; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0
            || ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
            if (fd >= 0)
                ::close(fd);
            break;
        }
        sockets.push_back(fd);
        ports.push_back(ntohs(address.sin_port));
    }
    for (int fd : sockets)
        ::close(fd);
    return ports;
}

inline QString loopbackUrl(quint16 port)
{
    return QStringLiteral("nats://127.0.0.1:") + QString::number(port);
}

/// True when the server at `url` answers a JetStream API request without an error: it is up, and
/// in a cluster it knows the meta leader, so streams can be created and found through it.
inline bool jetStreamAnswers(const QString &url, int waitMs = 1000)
{
    fleet::NatsSettings settings;
    settings.url = url.toStdString();
    settings.source = "test";
    auto connection = fleet::NatsConnection::connect(settings, waitMs);
    if (!connection)
        return false;
    natsMsg *reply = nullptr;
    const natsStatus status
        = natsConnection_RequestString(&reply, connection.value()->connection(), "$JS.API.INFO", "", waitMs);
    bool answered = false;
    if (status == NATS_OK && reply != nullptr) {
        const QByteArray data(natsMsg_GetData(reply), natsMsg_GetDataLength(reply));
        answered = !data.contains("\"error\"");
    }
    natsMsg_Destroy(reply);
    return answered;
}

/// One nats-server of a topology: fixed ports, a configuration written by the topology, its log in
/// a file of its own directory.
class NatsNode {
public:
    NatsNode() = default;
    NatsNode(const NatsNode &) = delete;
    NatsNode &operator=(const NatsNode &) = delete;
    ~NatsNode() { kill(); }

    QString directory() const { return m_dir.path(); }
    QString storeDirectory() const { return m_dir.filePath(QStringLiteral("store")); }
    QString logPath() const { return m_dir.filePath(QStringLiteral("server.log")); }
    QByteArray log() const
    {
        QFile file(logPath());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
    QString error() const { return m_error; }
    bool isRunning() const { return m_process.state() == QProcess::Running; }
    qint64 pid() const { return m_process.processId(); }

    /// Writes `config` (the log file is added) and starts the server; true once its log says it is
    /// ready, within 30 s.
    bool start(const QByteArray &config)
    {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("no temporary directory");
            return false;
        }
        const QByteArray full = config + "log_file: \"" + logPath().toUtf8() + "\"\n";
        const QString configPath = m_dir.filePath(QStringLiteral("server.conf"));
        QFile file(configPath);
        if (!file.open(QIODevice::WriteOnly) || file.write(full) != full.size()) {
            m_error = QStringLiteral("cannot write ") + configPath;
            return false;
        }
        file.close();
        // A restart appends to the log; readiness is judged from what this start adds.
        const qint64 logStart = QFileInfo(logPath()).size();
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(m_dir.filePath(QStringLiteral("stdout.log")), QIODevice::Append);
        m_process.start(QStringLiteral("nats-server"), {QStringLiteral("-c"), configPath});
        if (!m_process.waitForStarted(30000)) {
            m_error = QStringLiteral("nats-server did not start: ") + m_process.errorString();
            return false;
        }
        QDeadlineTimer deadline(30000);
        while (!log().mid(logStart).contains("Server is ready")) {
            if (!isRunning() || deadline.hasExpired()) {
                QFile output(m_dir.filePath(QStringLiteral("stdout.log")));
                const QByteArray said = output.open(QIODevice::ReadOnly) ? output.readAll() : QByteArray();
                m_error = QStringLiteral("nats-server did not get ready:\n")
                    + QString::fromUtf8(said + log().mid(logStart));
                kill();
                return false;
            }
            QThread::msleep(10);
        }
        return true;
    }

    /// SIGKILL, as a crash or a pulled plug: no goodbye to clients or peers.
    void kill()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished(10000);
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    QString m_error;
};

/// Three or more nats-servers in one JetStream cluster.
class NatsCluster {
public:
    NatsCluster() = default;
    NatsCluster(const NatsCluster &) = delete;
    NatsCluster &operator=(const NatsCluster &) = delete;

    static bool available() { return !QStandardPaths::findExecutable(QStringLiteral("nats-server")).isEmpty(); }

    /// Starts `servers` servers routed to each other and waits until every one answers the
    /// JetStream API (a meta leader is elected). False, with error() saying why, otherwise.
    bool start(int servers = 3)
    {
        const std::vector<quint16> ports = freeLoopbackPorts(servers * 2);
        if (static_cast<int>(ports.size()) != servers * 2) {
            m_error = QStringLiteral("no free ports");
            return false;
        }
        m_clientPorts.assign(ports.begin(), ports.begin() + servers);
        m_routePorts.assign(ports.begin() + servers, ports.end());
        m_nodes.clear();
        for (int i = 0; i < servers; ++i)
            m_nodes.push_back(std::make_unique<NatsNode>());
        for (int i = 0; i < servers; ++i) {
            if (!m_nodes[static_cast<std::size_t>(i)]->start(config(i))) {
                m_error = QStringLiteral("server %1: ").arg(i) + m_nodes[static_cast<std::size_t>(i)]->error();
                return false;
            }
        }
        return waitForJetStream();
    }

    int size() const { return static_cast<int>(m_nodes.size()); }
    QString error() const { return m_error; }
    QString url(int server) const { return loopbackUrl(m_clientPorts.at(static_cast<std::size_t>(server))); }
    /// Every server's URL, comma-separated, as `--nats` and a context's url take them.
    QString urls() const
    {
        QStringList list;
        for (int i = 0; i < size(); ++i)
            list << url(i);
        return list.join(QLatin1Char(','));
    }
    NatsNode &node(int server) { return *m_nodes.at(static_cast<std::size_t>(server)); }
    bool isRunning(int server) const { return m_nodes.at(static_cast<std::size_t>(server))->isRunning(); }

    /// SIGKILL to one server.
    void kill(int server) { node(server).kill(); }

    /// Starts a killed server again, on its ports with its store, and waits until the cluster
    /// answers the JetStream API on every running server.
    bool restart(int server)
    {
        node(server).kill();
        if (!node(server).start(config(server))) {
            m_error = QStringLiteral("server %1: ").arg(server) + node(server).error();
            return false;
        }
        return waitForJetStream();
    }

    /// Waits up to `waitMs` until every running server answers the JetStream API. An election of
    /// the meta leader takes 4 to 9 s on nats-server 2.9 when its first round succeeds, and a
    /// round that splits the vote starts another: on a loaded machine that comes to over 30 s.
    bool waitForJetStream(int waitMs = 90000)
    {
        QDeadlineTimer deadline(waitMs);
        for (int i = 0; i < size(); ++i) {
            while (isRunning(i) && !jetStreamAnswers(url(i))) {
                if (deadline.hasExpired()) {
                    m_error = QStringLiteral("server %1 has no JetStream meta leader:\n").arg(i)
                        + QString::fromUtf8(node(i).log().right(4000));
                    return false;
                }
                QThread::msleep(50);
            }
        }
        return true;
    }

private:
    QByteArray config(int server) const
    {
        QByteArray routes;
        for (quint16 port : m_routePorts)
            routes += "    \"nats-route://127.0.0.1:" + QByteArray::number(port) + "\"\n";
        const auto index = static_cast<std::size_t>(server);
        return "server_name: \"n" + QByteArray::number(server) + "\"\n"
            + "listen: \"127.0.0.1:" + QByteArray::number(m_clientPorts[index]) + "\"\n"
            + "jetstream {\n  store_dir: \"" + m_nodes[index]->storeDirectory().toUtf8() + "\"\n}\n"
            + "cluster {\n  name: \"ccm\"\n  listen: \"127.0.0.1:" + QByteArray::number(m_routePorts[index])
            + "\"\n  routes: [\n" + routes + "  ]\n}\n";
    }

    std::vector<std::unique_ptr<NatsNode>> m_nodes;
    std::vector<quint16> m_clientPorts;
    std::vector<quint16> m_routePorts;
    QString m_error;
};

/// A TCP relay on 127.0.0.1 to another port, run by a thread of its own so that it keeps
/// forwarding while the test blocks on other processes. cut() closes every relayed connection and
/// the listener (the peer sees connection refused), restore() listens again on the same port.
class TcpRelay {
public:
    TcpRelay() = default;
    TcpRelay(const TcpRelay &) = delete;
    TcpRelay &operator=(const TcpRelay &) = delete;
    ~TcpRelay() { stop(); }

    bool start(quint16 listenPort, quint16 targetPort)
    {
        m_listenPort = listenPort;
        m_targetPort = targetPort;
        if (::pipe2(m_wake, O_CLOEXEC | O_NONBLOCK) != 0)
            return false;
        if (!listen())
            return false;
        m_thread = std::thread([this] { run(); });
        return true;
    }

    quint16 port() const { return m_listenPort; }

    void cut() { command('c'); }
    void restore() { command('r'); }

    void stop()
    {
        if (!m_thread.joinable())
            return;
        command('q');
        m_thread.join();
        ::close(m_wake[0]);
        ::close(m_wake[1]);
    }

private:
    struct Pair {
        int a;
        int b;
    };

    bool listen()
    {
        m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        const int on = 1;
        ::setsockopt(m_listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(m_listenPort);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(m_listener, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0
            || ::listen(m_listener, 16) != 0) {
            ::close(m_listener);
            m_listener = -1;
            return false;
        }
        return true;
    }

    int connectTarget() const
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(m_targetPort);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0)
            return fd;
        if (fd >= 0)
            ::close(fd);
        return -1;
    }

    void command(char c)
    {
        const std::lock_guard lock(m_mutex);
        m_acted = false;
        [[maybe_unused]] const auto written = ::write(m_wake[1], &c, 1);
        // Wait until the thread acted, so a cut is complete when cut() returns.
        while (!m_acted.load() && m_thread.joinable() && c != 'q')
            std::this_thread::yield();
    }

    void closeAll()
    {
        for (const Pair &pair : m_pairs) {
            ::close(pair.a);
            ::close(pair.b);
        }
        m_pairs.clear();
        if (m_listener >= 0)
            ::close(m_listener);
        m_listener = -1;
    }

    /// Copies what is readable on `from` to `to`; false when either side is done.
    static bool forward(int from, int to)
    {
        char buffer[65536];
        const ssize_t got = ::read(from, buffer, sizeof buffer);
        if (got <= 0)
            return false;
        ssize_t sent = 0;
        while (sent < got) {
            const ssize_t n = ::write(to, buffer + sent, static_cast<std::size_t>(got - sent));
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }

    void run()
    {
        for (;;) {
            std::vector<pollfd> fds;
            fds.push_back({m_wake[0], POLLIN, 0});
            if (m_listener >= 0)
                fds.push_back({m_listener, POLLIN, 0});
            const std::size_t firstPair = fds.size();
            for (const Pair &pair : m_pairs) {
                fds.push_back({pair.a, POLLIN, 0});
                fds.push_back({pair.b, POLLIN, 0});
            }
            if (::poll(fds.data(), fds.size(), -1) < 0)
                continue;
            if (fds[0].revents & POLLIN) {
                char c = 0;
                while (::read(m_wake[0], &c, 1) == 1) {
                    if (c == 'q') {
                        closeAll();
                        return;
                    }
                    if (c == 'c')
                        closeAll();
                    if (c == 'r' && m_listener < 0)
                        listen();
                }
                m_acted = true;
                continue;
            }
            // Only the pairs polled above have revents; one accepted now is polled next time.
            const std::size_t polledPairs = m_pairs.size();
            if (m_listener >= 0 && (fds[1].revents & POLLIN)) {
                const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
                if (client >= 0) {
                    const int target = connectTarget();
                    if (target >= 0)
                        m_pairs.push_back({client, target});
                    else
                        ::close(client);
                }
            }
            std::vector<Pair> alive(m_pairs.begin() + static_cast<std::ptrdiff_t>(polledPairs), m_pairs.end());
            for (std::size_t i = 0; i < polledPairs; ++i) {
                const Pair pair = m_pairs[i];
                const short ra = fds[firstPair + 2 * i].revents;
                const short rb = fds[firstPair + 2 * i + 1].revents;
                bool open = true;
                if (ra & (POLLIN | POLLHUP | POLLERR))
                    open = forward(pair.a, pair.b);
                if (open && (rb & (POLLIN | POLLHUP | POLLERR)))
                    open = forward(pair.b, pair.a);
                if (open) {
                    alive.push_back(pair);
                } else {
                    ::close(pair.a);
                    ::close(pair.b);
                }
            }
            m_pairs = std::move(alive);
        }
    }

    quint16 m_listenPort = 0;
    quint16 m_targetPort = 0;
    int m_listener = -1;
    int m_wake[2] = {-1, -1};
    std::vector<Pair> m_pairs;
    std::thread m_thread;
    std::mutex m_mutex;
    std::atomic<bool> m_acted {false};
};

/// An edge site: a hub with JetStream and a leaf server without it whose leaf node link to the hub
/// runs through a TcpRelay. Clients of the leaf reach the hub's JetStream while the link is up.
class NatsLeafSite {
public:
    static bool available() { return NatsCluster::available(); }

    bool start()
    {
        const std::vector<quint16> ports = freeLoopbackPorts(4);
        if (ports.size() != 4) {
            m_error = QStringLiteral("no free ports");
            return false;
        }
        m_hubPort = ports[0];
        m_hubLeafPort = ports[1];
        m_leafPort = ports[3];
        // The relay listens first: the hub advertises it as its leaf node address.
        if (!m_relay.start(ports[2], m_hubLeafPort)) {
            m_error = QStringLiteral("cannot start the relay on port ") + QString::number(ports[2]);
            return false;
        }
        if (!m_hub.start(hubConfig())) {
            m_error = QStringLiteral("hub: ") + m_hub.error();
            return false;
        }
        if (!m_leaf.start(leafConfig())) {
            m_error = QStringLiteral("leaf: ") + m_leaf.error();
            return false;
        }
        return waitForLink(true) && jetStreamAnswers(hubUrl(), 5000);
    }

    QString error() const { return m_error; }
    QString hubUrl() const { return loopbackUrl(m_hubPort); }
    QString leafUrl() const { return loopbackUrl(m_leafPort); }
    NatsNode &hub() { return m_hub; }
    NatsNode &leaf() { return m_leaf; }

    /// Cuts the leaf off from the hub (both keep running) and waits until the leaf no longer
    /// reaches the hub's JetStream.
    bool cutLink()
    {
        m_relay.cut();
        return waitForLink(false);
    }
    /// Lets the leaf reconnect and waits until it reaches the hub's JetStream again.
    bool restoreLink()
    {
        m_relay.restore();
        return waitForLink(true);
    }

    /// Waits up to 30 s until a client of the leaf does (`up`) or does not reach the hub's
    /// JetStream.
    bool waitForLink(bool up, int waitMs = 30000)
    {
        QDeadlineTimer deadline(waitMs);
        while (jetStreamAnswers(leafUrl(), 500) != up) {
            if (deadline.hasExpired()) {
                m_error = QStringLiteral("the leaf's link did not go ") + QLatin1String(up ? "up" : "down")
                    + QStringLiteral(":\n") + QString::fromUtf8(m_leaf.log().right(3000))
                    + QStringLiteral("\nThe hub's log:\n") + QString::fromUtf8(m_hub.log().right(3000));
                return false;
            }
            QThread::msleep(50);
        }
        return true;
    }

private:
    /// Both servers have the same two accounts: CCM, the fleet's (clients without credentials land
    /// in it), and SYS, the system account. The leaf has JetStream off and the hint that it
    /// extends the hub's, and links both accounts: so a client of the leaf uses the hub's
    /// JetStream, as at an edge site without storage of its own. CCM's default JetStream domain is
    /// the hub's (""): without it the servers deny $KV.> on the CCM link of such an extension, so a
    /// client of the leaf could read the hub's buckets but not put key-value entries in them.
    static QByteArray accounts()
    {
        return "accounts {\n  CCM { jetstream: enabled, users: [ { user: ccm, password: ccm } ] }\n"
               "  SYS { users: [ { user: sys, password: sys } ] }\n}\nsystem_account: SYS\nno_auth_user: ccm\n"
               "default_js_domain: { CCM: \"\" }\n";
    }
    QByteArray hubConfig() const
    {
        return "server_name: \"hub\"\nlisten: \"127.0.0.1:" + QByteArray::number(m_hubPort) + "\"\n" + accounts()
            + "jetstream {\n  store_dir: \"" + m_hub.storeDirectory().toUtf8()
            + "\"\n}\nleafnodes {\n  listen: \"127.0.0.1:"
            + QByteArray::number(m_hubLeafPort)
            // The relay's address is the one advertised: a leaf learns the advertised address and
            // would otherwise reconnect straight to the hub's leaf port, around a cut relay.
            + "\"\n  advertise: \"127.0.0.1:" + QByteArray::number(m_relay.port()) + "\"\n}\n";
    }
    QByteArray leafConfig() const
    {
        const QByteArray relay = "@127.0.0.1:" + QByteArray::number(m_relay.port());
        // A reconnect every second (the shortest the server takes) keeps the waits for the link short.
        return "server_name: \"leaf\"\nlisten: \"127.0.0.1:" + QByteArray::number(m_leafPort) + "\"\n" + accounts()
            + "jetstream {\n  enabled: false\n  extension_hint: will_extend\n}\nleafnodes {\n  reconnect: 1\n"
              "  remotes: [\n    { url: \"nats-leaf://ccm:ccm"
            + relay + "\", account: CCM }\n    { url: \"nats-leaf://sys:sys" + relay + "\", account: SYS }\n  ]\n}\n";
    }

    NatsNode m_hub;
    NatsNode m_leaf;
    TcpRelay m_relay;
    quint16 m_hubPort = 0;
    quint16 m_hubLeafPort = 0;
    quint16 m_leafPort = 0;
    QString m_error;
};

} // namespace ccm::test
