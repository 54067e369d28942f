// SPDX-License-Identifier: Apache-2.0
// A scripted stand-in for the backend, for the tests of its clients (the command line client, the
// designer): listens on a Unix socket, accepts one connection and runs a script on it in a thread
// of its own, recording the lines it read.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace ccm::test {

/// One accepted connection, as the script sees it.
class FakeConnection {
public:
    explicit FakeConnection(int fd)
        : m_fd(fd)
    {
    }

    /// The next line the client sent (without the newline); nullopt when the client closed the
    /// connection or sent nothing for 10 s.
    std::optional<QByteArray> readLine()
    {
        while (true) {
            const qsizetype newline = m_buffer.indexOf('\n');
            if (newline >= 0) {
                QByteArray line = m_buffer.left(newline);
                m_buffer.remove(0, newline + 1);
                return line;
            }
            pollfd fd {m_fd, POLLIN, 0};
            if (::poll(&fd, 1, 10000) <= 0)
                return std::nullopt;
            char chunk[4096];
            const ssize_t n = ::read(m_fd, chunk, sizeof(chunk));
            if (n <= 0)
                return std::nullopt;
            m_buffer.append(chunk, n);
        }
    }

    /// Writes all of bytes; false when the client has gone.
    bool write(const QByteArray &bytes)
    {
        qsizetype sent = 0;
        while (sent < bytes.size()) {
            const ssize_t n
                = ::send(m_fd, bytes.constData() + sent, static_cast<size_t>(bytes.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }

    /// Writes bytes in pieces of `piece` bytes with a pause between them, so that the client
    /// reads them in several parts.
    bool writeSlowly(const QByteArray &bytes, qsizetype piece)
    {
        for (qsizetype at = 0; at < bytes.size(); at += piece) {
            if (!write(bytes.mid(at, piece)))
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return true;
    }

private:
    int m_fd;
    QByteArray m_buffer;
};

class FakeServer {
public:
    using Script = std::function<void(FakeConnection &, QList<QByteArray> &received)>;

    /// Listens on path and runs script on the first connection; ok() tells whether listening
    /// worked.
    FakeServer(const QString &path, Script script)
    {
        m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        const QByteArray bytes = path.toLocal8Bit();
        if (m_listen < 0 || static_cast<size_t>(bytes.size()) >= sizeof(address.sun_path))
            return;
        std::copy(bytes.begin(), bytes.end(), address.sun_path);
        ::unlink(address.sun_path);
        if (::bind(m_listen, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) != 0
            || ::listen(m_listen, 4) != 0)
            return;
        m_ok = true;
        m_thread = std::thread([this, script = std::move(script)] {
            pollfd fd {m_listen, POLLIN, 0};
            if (::poll(&fd, 1, 20000) <= 0)
                return;
            const int connection = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (connection < 0)
                return;
            {
                std::lock_guard lock(m_mutex);
                m_connection = connection;
            }
            FakeConnection peer(connection);
            QList<QByteArray> received;
            script(peer, received);
            std::lock_guard lock(m_mutex);
            ::close(connection);
            m_connection = -1;
            m_received = std::move(received);
        });
    }

    /// Ends a script still waiting for the client by closing the connection under it.
    ~FakeServer()
    {
        if (m_listen >= 0)
            ::shutdown(m_listen, SHUT_RDWR);
        {
            std::lock_guard lock(m_mutex);
            if (m_connection >= 0)
                ::shutdown(m_connection, SHUT_RDWR);
        }
        if (m_thread.joinable())
            m_thread.join();
        if (m_listen >= 0)
            ::close(m_listen);
    }

    FakeServer(const FakeServer &) = delete;
    FakeServer &operator=(const FakeServer &) = delete;

    [[nodiscard]] bool ok() const { return m_ok; }

    /// Waits for the script to end and gives the lines it recorded.
    QList<QByteArray> received()
    {
        if (m_thread.joinable())
            m_thread.join();
        std::lock_guard lock(m_mutex);
        return m_received;
    }

private:
    int m_listen = -1;
    /// The accepted connection while the script runs, -1 otherwise; guarded by m_mutex.
    int m_connection = -1;
    bool m_ok = false;
    std::thread m_thread;
    std::mutex m_mutex;
    QList<QByteArray> m_received;
};

/// A JSON-RPC line as the backend writes it.
inline QByteArray line(const char *json)
{
    return QByteArray(json) + '\n';
}

/// A script that reads the request and answers with reply, in pieces of `piece` bytes when given,
/// then closes the connection.
inline FakeServer::Script answerWith(const QByteArray &reply, qsizetype piece = 0)
{
    return [reply, piece](FakeConnection &peer, QList<QByteArray> &received) {
        if (const auto request = peer.readLine())
            received << *request;
        if (piece > 0)
            peer.writeSlowly(reply, piece);
        else
            peer.write(reply);
    };
}

} // namespace ccm::test
