// SPDX-License-Identifier: Apache-2.0
// One `ccm-backend agent` process with its own configuration home (facts naming the file it
// manages, a NATS context), cache and stderr log, for the tests of the agent and of its cache.
// Needs CCM_BACKEND_BIN.
#pragma once

#include "../backend/backend_process.h"
#include "test_common.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::test {

inline constexpr int kConverge = 20000; ///< ms an agent gets to converge on a change

/// The body of GET http://127.0.0.1:PORT/metrics (an agent's metrics endpoint); empty when
/// nothing answers.
inline QString agentMetrics(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QByteArray answer;
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0) {
        const QByteArray request = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
        if (::write(fd, request.data(), static_cast<size_t>(request.size())) == request.size()) {
            char buffer[4096];
            ssize_t n = 0;
            while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
                answer.append(buffer, static_cast<int>(n));
        }
    }
    ::close(fd);
    return QString::fromUtf8(answer.mid(answer.indexOf("\r\n\r\n") + 4));
}

/// One `ccm-backend agent` process with its own configuration home, cache and managed file.
class AgentUnderTest {
public:
    AgentUnderTest(const QString &identity, const QString &natsUrl)
        : m_identity(identity)
    {
        m_outFile = m_dir.filePath(QStringLiteral("managed.txt"));
        test::writeFile(m_dir, QStringLiteral("config/choria/ccm/facts.json"),
            "{\"out\": \"" + m_outFile.toUtf8() + "\", \"tag\": \"" + identity.toUtf8() + "\"}");
        test::writeFile(
            m_dir, QStringLiteral("config/nats/context/CCM.json"), "{\"url\": \"" + natsUrl.toUtf8() + "\"}");
    }
    AgentUnderTest(const AgentUnderTest &) = delete;
    AgentUnderTest &operator=(const AgentUnderTest &) = delete;
    ~AgentUnderTest() { kill(); }

    /// Writes the configuration: `body` plus this agent's identity and cache.
    void configure(const QByteArray &body)
    {
        test::writeFile(m_dir, QStringLiteral("agent.yaml"),
            body + "identity: " + m_identity.toUtf8() + "\ncache_dir: " + cacheDir().toUtf8() + "\n");
    }

    /// Starts the agent with `extra` arguments; JOURNAL_STREAM set to `journalStream` when given.
    void start(const QStringList &extra = {}, const QString &journalStream = {})
    {
        launch(extra, journalStream, false);
    }

    /// Starts the agent under umask 0, so that only the modes the agent asks for keep files private.
    void startWithOpenUmask() { launch({}, {}, true); }

    /// Waits until the log holds `text` at or after `from`; false after `timeoutMs` or an exit.
    bool waitForLog(const QString &text, qsizetype from = 0, int timeoutMs = kConverge)
    {
        QDeadlineTimer deadline(timeoutMs);
        // What the event loop already took in is read first: waitForReadyRead() waits for more.
        for (readLog(); m_log.indexOf(text, from) < 0; readLog()) {
            if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
                return false;
            m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        }
        return true;
    }

    void signal(int number) { ::kill(static_cast<pid_t>(m_process.processId()), number); }
    bool waitForExit(int timeoutMs) { return m_process.waitForFinished(timeoutMs); }
    /// The exit status of the ended agent; -2 when it crashed.
    int exitCode() const { return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -2; }
    /// The exit status once the agent has ended by itself within `timeoutMs`; -1 otherwise.
    int exitCode(int timeoutMs)
    {
        if (!m_process.waitForFinished(timeoutMs) || m_process.exitStatus() != QProcess::NormalExit)
            return -1;
        return m_process.exitCode();
    }
    /// Stops the agent with SIGTERM; true when it ended cleanly.
    bool stop()
    {
        m_process.terminate();
        return m_process.waitForFinished(20000) && m_process.exitStatus() == QProcess::NormalExit
            && m_process.exitCode() == 0;
    }
    void kill()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    const QString &log()
    {
        readLog();
        return m_log;
    }
    QString managed() const { return QString::fromUtf8(readAll(m_outFile)); }
    const QString &identity() const { return m_identity; }
    const QString &outFile() const { return m_outFile; }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString home() const { return m_dir.path(); }
    QString cacheDir() const { return m_dir.filePath(QStringLiteral("cache")); }
    /// The cached bundles (*.tar.gz) in cache_dir.
    QStringList cachedBundles() const
    {
        return QDir(cacheDir()).entryList({QStringLiteral("*.tar.gz")}, QDir::Files | QDir::Hidden);
    }

private:
    void launch(const QStringList &extra, const QString &journalStream, bool openUmask)
    {
        m_log.clear();
        QProcessEnvironment environment = test::isolatedEnvironment(m_dir);
        environment.remove(QStringLiteral("JOURNAL_STREAM"));
        if (!journalStream.isEmpty())
            environment.insert(QStringLiteral("JOURNAL_STREAM"), journalStream);
        m_process.setProcessEnvironment(environment);
        if (openUmask)
            m_process.setChildProcessModifier([] { ::umask(0); });
        // The agent logs to stderr: waitForReadyRead() waits on the read channel.
        m_process.setReadChannel(QProcess::StandardError);
        m_process.start(QStringLiteral(CCM_BACKEND_BIN),
            QStringList {
                QStringLiteral("agent"), QStringLiteral("--config"), m_dir.filePath(QStringLiteral("agent.yaml"))}
                + extra);
        m_process.waitForStarted();
    }

    void readLog() { m_log += QString::fromUtf8(m_process.readAllStandardError()); }

    QString m_identity;
    QTemporaryDir m_dir;
    QString m_outFile;
    QProcess m_process;
    QString m_log;
};

} // namespace ccm::test
