// SPDX-License-Identifier: Apache-2.0
// A real nats-server for a test: on 127.0.0.1, a port the server picks itself (so no two tests
// race for one), its store in a temporary directory, stopped when the object goes.
#pragma once

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ccm::test {

class NatsServer {
public:
    struct Options {
        bool jetStream = true;
        QByteArray extraConfig; ///< appended to the configuration file, e.g. an authorization block
    };

    NatsServer() = default;
    NatsServer(const NatsServer &) = delete;
    NatsServer &operator=(const NatsServer &) = delete;
    ~NatsServer() { stop(); }

    /// True when nats-server is on PATH.
    static bool available() { return !QStandardPaths::findExecutable(QStringLiteral("nats-server")).isEmpty(); }

    /// Starts the server and waits until it accepts connections. False, with error() saying why,
    /// when it exits or does not get ready within 30 s.
    bool start() { return start(Options {}); }
    bool start(const Options &options)
    {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("no temporary directory");
            return false;
        }
        m_options = options;
        m_log.clear();
        // The first start lets the server pick a port; a restart takes the same one again.
        QByteArray config
            = "listen: \"127.0.0.1:" + (m_port == 0 ? QByteArray("-1") : QByteArray::number(m_port)) + "\"\n";
        if (options.jetStream)
            config += "jetstream {\n  store_dir: \"" + m_dir.filePath(QStringLiteral("store")).toUtf8() + "\"\n}\n";
        config += options.extraConfig;
        const QString configPath = m_dir.filePath(QStringLiteral("server.conf"));
        QFile file(configPath);
        if (!file.open(QIODevice::WriteOnly) || file.write(config) != config.size()) {
            m_error = QStringLiteral("cannot write ") + configPath;
            return false;
        }
        file.close();

        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(QStringLiteral("nats-server"), {QStringLiteral("-c"), configPath});
        if (!m_process.waitForStarted(30000)) {
            m_error = QStringLiteral("nats-server did not start: ") + m_process.errorString();
            return false;
        }
        // The log names the port once the listener is open; "Server is ready" follows once
        // JetStream is up too.
        static const QRegularExpression listening(
            QStringLiteral(R"(Listening for client connections on 127\.0\.0\.1:(\d+))"));
        QDeadlineTimer deadline(30000);
        while (!m_log.contains("Server is ready")) {
            if (m_process.state() != QProcess::Running || deadline.hasExpired()
                || !m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())))) {
                m_log += m_process.readAll();
                m_error = QStringLiteral("nats-server did not get ready:\n") + QString::fromUtf8(m_log);
                return false;
            }
            m_log += m_process.readAll();
        }
        const auto match = listening.match(QString::fromUtf8(m_log));
        if (!match.hasMatch()) {
            m_error = QStringLiteral("nats-server did not say its port:\n") + QString::fromUtf8(m_log);
            return false;
        }
        m_port = match.captured(1).toUShort();
        if (!acceptsConnections()) {
            m_error = QStringLiteral("nats-server does not accept connections on port ") + QString::number(m_port);
            return false;
        }
        return true;
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    /// Stops the server and starts it again on the same port with the same store, as a server
    /// coming back after an outage.
    bool restart()
    {
        stop();
        return start(m_options);
    }

    quint16 port() const { return m_port; }
    QString url() const { return QStringLiteral("nats://127.0.0.1:") + QString::number(m_port); }
    std::string urlString() const { return url().toStdString(); }
    QString error() const { return m_error; }

private:
    bool acceptsConnections() const
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return false;
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(m_port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const bool connected = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
        ::close(fd);
        return connected;
    }

    QTemporaryDir m_dir;
    Options m_options;
    QProcess m_process;
    QByteArray m_log;
    QString m_error;
    quint16 m_port = 0;
};

} // namespace ccm::test
