// SPDX-License-Identifier: Apache-2.0
// Runs a real `ccm-backend serve` and talks to it over its socket, as the designer would.
#pragma once

#include "core/model/json.h"
#include "test_common.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <grp.h>
#include <optional>
#include <poll.h>
#include <pwd.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ccm::test {

/// How long any single wait of a test may take before it counts as a hang; generous because the
/// tests share slow machines, and never the thing a test asserts.
constexpr int kPatienceMs = 60000;

/// A QString as the UTF-8 std::string the daemon's messages carry.
inline std::string text(const QString &value)
{
    return value.toStdString();
}

/// The arguments that make the daemon a user's own backend, whoever runs the tests.
inline QStringList userMode()
{
    return ::getuid() == 0 ? QStringList {QStringLiteral("--user")} : QStringList {};
}

/// Runs `program` with `arguments`: its exit code, -1 when it did not finish in time, -2 when it
/// crashed.
inline int runTool(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(program, arguments);
    if (!process.waitForFinished(kPatienceMs))
        return -1;
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
}

/// The message with "result" and "error.data" made maps when they are missing, so that a test
/// reading the wrong one fails its comparison instead of throwing.
inline Json normalized(Json message)
{
    if (!message.is_object())
        message = Json {{"unexpected", message}};
    if (!message.contains("result") || !message["result"].is_object())
        message["result"] = Json {{"value", message.contains("result") ? message["result"] : Json()}};
    if (!message.contains("error") || !message["error"].is_object())
        message["error"] = Json::object();
    if (!message["error"].contains("data") || !message["error"]["data"].is_object())
        message["error"]["data"] = Json::object();
    return message;
}

/// A blocking client connection with line framing.
class RpcClient {
public:
    RpcClient() = default;
    ~RpcClient() { disconnect(); }
    RpcClient(const RpcClient &) = delete;
    RpcClient &operator=(const RpcClient &) = delete;

    /// Connects to the socket at `path`, retrying while the daemon is still starting.
    bool connectTo(const QString &path)
    {
        const std::string name = path.toStdString();
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        if (name.size() >= sizeof address.sun_path)
            return false;
        std::memcpy(address.sun_path, name.c_str(), name.size() + 1);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kPatienceMs);
        while (std::chrono::steady_clock::now() < deadline) {
            m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0)
                return true;
            ::close(m_fd);
            m_fd = -1;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    }

    void disconnect()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

    /// Sends raw bytes; false when the daemon closed the connection.
    bool sendRaw(const std::string &bytes)
    {
        std::size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t sent = ::send(m_fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
            if (sent < 0) {
                if (errno == EINTR)
                    continue;
                return false;
            }
            done += static_cast<std::size_t>(sent);
        }
        return true;
    }

    /// Sends a request with `id`.
    bool send(const std::string &method, const Json &params, const Json &id)
    {
        Json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
        return sendRaw(request.dump() + "\n");
    }

    /// The next message, or nullopt when the connection ended or nothing came in time.
    std::optional<Json> next(int timeoutMs = kPatienceMs)
    {
        while (true) {
            const std::size_t newline = m_buffer.find('\n');
            if (newline != std::string::npos) {
                std::string line = m_buffer.substr(0, newline);
                m_buffer.erase(0, newline + 1);
                Json message = Json::parse(line, nullptr, false);
                if (message.is_discarded())
                    return normalized(Json {{"unparsable", line}});
                return normalized(std::move(message));
            }
            if (!fill(timeoutMs))
                return std::nullopt;
        }
    }

    /// Messages up to and including the response with `id`; notifications before it go to
    /// `notifications` when given. nullopt when the connection ended first.
    std::optional<Json> responseTo(const Json &id, std::vector<Json> *notifications = nullptr)
    {
        while (auto message = next()) {
            if (message->contains("id") && (*message)["id"] == id)
                return message;
            if (notifications != nullptr)
                notifications->push_back(*message);
        }
        return std::nullopt;
    }

    /// Sends a request and waits for its response.
    std::optional<Json> call(const std::string &method, const Json &params, std::vector<Json> *notifications = nullptr)
    {
        const int id = ++m_lastId;
        if (!send(method, params, id))
            return std::nullopt;
        return responseTo(id, notifications);
    }

    /// Reads until the daemon closes the connection; false when it is still open after the wait.
    bool waitClosed(int timeoutMs = kPatienceMs)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (std::chrono::steady_clock::now() < deadline) {
            m_buffer.clear();
            if (!fill(timeoutMs))
                return m_closed;
        }
        return false;
    }

    [[nodiscard]] int fd() const { return m_fd; }
    [[nodiscard]] bool closed() const { return m_closed; }

private:
    /// Reads what is there into the buffer; false on end of stream, error or timeout.
    bool fill(int timeoutMs)
    {
        pollfd entry {m_fd, POLLIN, 0};
        const int ready = ::poll(&entry, 1, timeoutMs);
        if (ready <= 0)
            return false;
        char chunk[65536];
        const ssize_t got = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (got <= 0) {
            m_closed = true;
            return false;
        }
        m_buffer.append(chunk, static_cast<std::size_t>(got));
        return true;
    }

    int m_fd = -1;
    int m_lastId = 0;
    bool m_closed = false;
    std::string m_buffer;
};

/// A file resource entry of a manifest's file block owned by the test's own user and group, with
/// `property` (one "key: value" line) added.
inline std::string fileEntry(const std::string &path, const std::string &property)
{
    const passwd *user = ::getpwuid(::getuid());
    const group *primary = ::getgrgid(::getgid());
    return "        - " + path + ":\n            ensure: present\n            owner: " + (user ? user->pw_name : "root")
        + "\n            group: " + (primary ? primary->gr_name : "root") + "\n            mode: \"0644\"\n            "
        + property + "\n";
}

/// Whether a connection to `path` succeeds now (one attempt).
inline bool acceptsConnections(const QString &path)
{
    const std::string name = path.toStdString();
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    if (name.size() >= sizeof address.sun_path)
        return false;
    std::memcpy(address.sun_path, name.c_str(), name.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const bool connected = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

/// A `ccm-backend serve` child process on a socket in its own temporary directory.
class DaemonProcess {
public:
    /// What becomes of the daemon's log (stderr).
    enum class Log { Forwarded, Captured };

    /// Starts the daemon; `--user` is added when the tests do not run as root, so that the
    /// test's own uid has role apply either way.
    explicit DaemonProcess(const QStringList &extra = {}, const QString &program = QStringLiteral(CCM_BACKEND_BIN),
        const QStringList &prefix = {}, Log log = Log::Forwarded)
    {
        m_socket = m_dir.filePath(QStringLiteral("backend.sock"));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        // Its own TMPDIR, so that what a request leaves behind shows.
        QDir().mkpath(tmpDir());
        environment.insert(QStringLiteral("TMPDIR"), tmpDir());
        m_process.setProcessEnvironment(environment);
        if (log == Log::Captured) {
            // A file, not a pipe: a daemon that logs much must not block on a pipe nobody drains.
            m_process.setStandardOutputFile(QProcess::nullDevice());
            m_process.setStandardErrorFile(m_dir.filePath(QStringLiteral("daemon.log")));
        } else {
            m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        }
        QStringList arguments = prefix;
        if (prefix.isEmpty()) {
            arguments << QStringLiteral("serve") << QStringLiteral("--socket") << m_socket;
            if (::getuid() != 0)
                arguments << QStringLiteral("--user");
        }
        arguments << extra;
        m_process.start(program, arguments);
        m_process.waitForStarted(kPatienceMs);
    }

    ~DaemonProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(kPatienceMs);
        }
    }

    [[nodiscard]] const QString &socket() const { return m_socket; }
    QTemporaryDir &dir() { return m_dir; }
    /// The daemon's TMPDIR.
    QString tmpDir() const { return m_dir.filePath(QStringLiteral("tmp")); }
    /// What is in the daemon's TMPDIR.
    QStringList leftInTmp() const
    {
        return QDir(tmpDir()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    }

    /// Whether the process is still running.
    [[nodiscard]] bool running() const { return m_process.state() == QProcess::Running; }

    /// SIGTERM, then the exit code (-1 when it did not end in time, -2 when it crashed).
    int terminate()
    {
        ::kill(static_cast<pid_t>(m_process.processId()), SIGTERM);
        if (!m_process.waitForFinished(kPatienceMs))
            return -1;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -2;
    }

    /// The exit code once the process ends by itself.
    int waitExit()
    {
        if (!m_process.waitForFinished(kPatienceMs))
            return -1;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -2;
    }

    qint64 pid() const { return m_process.processId(); }

    /// The log written so far when started with Log::Captured.
    QByteArray log() const
    {
        QFile file(m_dir.filePath(QStringLiteral("daemon.log")));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private:
    QTemporaryDir m_dir;
    QString m_socket;
    QProcess m_process;
};

/// The error code of a response, 0 when it is a result.
inline int errorCode(const Json &response)
{
    const auto error = response.find("error");
    if (error == response.end() || !error->is_object())
        return 0;
    return error->value("code", 0);
}

} // namespace ccm::test
