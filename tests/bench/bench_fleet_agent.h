// SPDX-License-Identifier: Apache-2.0
// Real `ccm-backend agent` processes for the fleet benchmarks: each its own identity, facts ("role"
// and "target", its own directory of target files), NATS context, cache and log, started with the
// configuration the benchmark gives and stopped when the object goes. An agent also gets SIGTERM
// when the benchmark dies, so none outlives it.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <csignal>
#include <cstdint>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::bench {

inline bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

inline QByteArray fileText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The user previews run as: nobody when the benchmark runs as root, else the benchmark's user.
inline QByteArray previewUser()
{
    const passwd *user = ::getpwuid(::geteuid());
    return ::geteuid() == 0 || user == nullptr ? QByteArray("nobody") : QByteArray(user->pw_name);
}

struct BenchAgentOptions {
    int index = 0; ///< the identity is "agent-INDEX"
    QString natsUrl;
    QByteArray role = "web"; ///< the "role" fact
    QStringList manifests; ///< the agent's sources, in order
    bool localManifest = false; ///< a local empty manifest first, before `manifests`
    QString previewKey; ///< a trusted preview key file; empty: previews off
    QByteArray extraConfig; ///< appended to agent.yaml, e.g. "interval: 1h\n"
};

/// One agent process: its directory holds its configuration home, cache, log and target files.
class BenchAgent {
public:
    explicit BenchAgent(const BenchAgentOptions &options)
        : m_role(options.role)
        , m_index(options.index)
    {
        // The preview user reads the target files: the directories above them must let it search.
        ::chmod(m_dir.path().toUtf8().constData(), 0711);
        m_targets = m_dir.filePath(QStringLiteral("targets"));
        QDir().mkpath(m_targets);
        ::chmod(m_targets.toUtf8().constData(), 0755);
        writeFile(m_dir.filePath(QStringLiteral("config/choria/ccm/facts.json")),
            "{\"role\": \"" + m_role + "\", \"target\": \"" + m_targets.toUtf8() + "\"}");
        writeFile(m_dir.filePath(QStringLiteral("config/nats/context/CCM.json")),
            "{\"url\": \"" + options.natsUrl.toUtf8() + "\"}");
        QStringList manifests = options.manifests;
        if (options.localManifest) {
            writeFile(m_dir.filePath(QStringLiteral("local.yaml")), "ccm:\n  resources: []\n");
            manifests.prepend(m_dir.filePath(QStringLiteral("local.yaml")));
        }
        QByteArray config = "identity: agent-" + QByteArray::number(options.index)
            + "\ncache_dir: " + m_dir.filePath(QStringLiteral("cache")).toUtf8() + "\nmanifests: ["
            + manifests.join(QStringLiteral(", ")).toUtf8() + "]\n";
        if (!options.previewKey.isEmpty())
            config += "preview:\n  enabled: true\n  trusted_keys: [" + options.previewKey.toUtf8()
                + "]\n  user: " + previewUser() + "\n";
        writeFile(m_dir.filePath(QStringLiteral("agent.yaml")), config + options.extraConfig);
    }
    ~BenchAgent()
    {
        terminate();
        waitForExit();
    }
    BenchAgent(const BenchAgent &) = delete;
    BenchAgent &operator=(const BenchAgent &) = delete;

    /// Starts `backend agent --config DIR/agent.yaml`; stdin and stdout are /dev/null (no pipes
    /// held open per agent), stderr goes to DIR/agent.log.
    void start(const QString &backend)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_process.setProcessEnvironment(environment);
        m_process.setStandardInputFile(QProcess::nullDevice());
        m_process.setStandardOutputFile(QProcess::nullDevice());
        m_process.setStandardErrorFile(m_dir.filePath(QStringLiteral("agent.log")));
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        m_process.start(backend,
            {QStringLiteral("agent"), QStringLiteral("--config"), m_dir.filePath(QStringLiteral("agent.yaml"))});
        m_process.waitForStarted();
    }

    /// Asks the agent to stop (SIGTERM); waitForExit() waits for it.
    void terminate()
    {
        if (m_process.state() != QProcess::NotRunning)
            m_process.terminate();
    }

    /// Waits up to 10 s for the agent to exit, then kills it.
    void waitForExit()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    /// Whether the process is still there, as far as the event loop has seen.
    bool running() const { return m_process.state() != QProcess::NotRunning; }
    qint64 processId() const { return m_process.processId(); }
    QString identity() const { return QStringLiteral("agent-") + QString::number(m_index); }
    const QString &targets() const { return m_targets; }
    const QByteArray &role() const { return m_role; }
    QByteArray log() const { return fileText(m_dir.filePath(QStringLiteral("agent.log"))); }

    /// Whether the agent's log says it answers previews.
    bool answering() const { return log().contains("fleet preview: answering requests"); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    QString m_targets;
    QByteArray m_role;
    int m_index = 0;
};

} // namespace ccm::bench
