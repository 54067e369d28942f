// SPDX-License-Identifier: Apache-2.0
// A real `ccm-backend agent` process for fleet tests: its own directory (configuration home with
// facts and a NATS context, cache, a local manifest it keeps applied) and its stderr log, which
// tests wait on. Needs CCM_BACKEND_BIN.
#pragma once

#include "../backend/backend_process.h"
#include "test_common.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <csignal>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::test {

inline constexpr int kStartup = 20000; ///< ms an agent gets to start, run once and report

/// The user previews run as: nobody when the agents run as root, else the agents' own user.
inline QByteArray previewUser()
{
    if (::geteuid() == 0)
        return "nobody";
    const passwd *user = ::getpwuid(::geteuid());
    return user == nullptr ? QByteArray("nobody") : QByteArray(user->pw_name);
}

/// One `ccm-backend agent` process: its own directory (configuration home, cache, a local
/// manifest it keeps applied, the file previews look at) and its stderr log.
class FleetAgent {
public:
    FleetAgent(const QString &identity, const QByteArray &role, const QString &natsUrl)
        : m_identity(identity)
    {
        // The preview user reads the unpacked bundle under cache_dir and the target's directory.
        ::chmod(m_dir.path().toUtf8().constData(), 0711);
        m_target = m_dir.filePath(QStringLiteral("targets/role.conf"));
        QDir(m_dir.path()).mkpath(QStringLiteral("targets"));
        ::chmod(m_dir.filePath(QStringLiteral("targets")).toUtf8().constData(), 0755);
        test::writeFile(m_dir, QStringLiteral("config/choria/ccm/facts.json"),
            "{\"role\": \"" + role + "\", \"target\": \"" + m_target.toUtf8() + "\"}");
        test::writeFile(
            m_dir, QStringLiteral("config/nats/context/CCM.json"), "{\"url\": \"" + natsUrl.toUtf8() + "\"}");
        const QString own = m_dir.filePath(QStringLiteral("own.txt"));
        test::writeFile(m_dir, QStringLiteral("local.yaml"),
            "ccm:\n  resources:\n    - file:\n        - " + own.toUtf8()
                + ":\n            ensure: present\n            owner: root\n            group: root\n"
                  "            mode: \"0644\"\n            content: \"kept\\n\"\n");
    }
    ~FleetAgent() { kill(); }

    /// Writes the configuration; `preview` is the preview section's body (empty: none), `sources`
    /// manifests the agent keeps applied beside its local one (remote bundle URLs, say).
    void configure(const QByteArray &preview, const QByteArrayList &sources = {})
    {
        QByteArray text = "identity: " + m_identity.toUtf8()
            + "\ncache_dir: " + m_dir.filePath(QStringLiteral("cache")).toUtf8() + "\nmanifests:\n  - "
            + m_dir.filePath(QStringLiteral("local.yaml")).toUtf8() + "\n";
        for (const QByteArray &source : sources)
            text += "  - " + source + "\n";
        if (!preview.isEmpty())
            text += "preview:\n" + preview;
        test::writeFile(m_dir, QStringLiteral("agent.yaml"), text);
    }

    void start()
    {
        m_process.setProcessEnvironment(test::isolatedEnvironment(m_dir));
        m_process.setReadChannel(QProcess::StandardError);
        m_process.start(QStringLiteral(CCM_BACKEND_BIN),
            {QStringLiteral("agent"), QStringLiteral("--config"), m_dir.filePath(QStringLiteral("agent.yaml"))});
    }

    /// Waits until the log holds `text` at or after `from`; false after `timeoutMs` or an exit.
    bool waitForLog(const QString &text, qsizetype from = 0, int timeoutMs = kStartup)
    {
        QDeadlineTimer deadline(timeoutMs);
        for (readLog(); m_log.indexOf(text, from) < 0; readLog()) {
            if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
                return false;
            m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        }
        return true;
    }

    void signal(int number) { ::kill(static_cast<pid_t>(m_process.processId()), number); }
    /// Stops the agent with SIGTERM; its exit status (-2: it crashed or had to be killed).
    int stop()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(20000))
            return -2;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -2;
    }
    void kill()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(10000))
                m_process.kill();
            m_process.waitForFinished();
        }
    }

    const QString &log()
    {
        readLog();
        return m_log;
    }
    const QString &identity() const { return m_identity; }
    const QString &target() const { return m_target; }
    QString previewWork() const { return m_dir.filePath(QStringLiteral("cache/preview")); }

private:
    void readLog() { m_log += QString::fromUtf8(m_process.readAllStandardError()); }

    QString m_identity;
    QTemporaryDir m_dir;
    QString m_target;
    QProcess m_process;
    QString m_log;
};

} // namespace ccm::test
