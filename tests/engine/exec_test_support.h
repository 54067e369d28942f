// SPDX-License-Identifier: Apache-2.0
// What the exec type tests share: a harness that runs the type with a real command runner.
#pragma once

#include "engine/resources/exec/exec_type.h"
#include "engine/resources/exec/posix/posix_exec_provider.h"
#include "engine/resources/exec/shell/shell_exec_provider.h"
#include "engine/resources/registration.h"
#include "engine_test_support.h"
#include "test_common.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;
using namespace std::chrono_literals;

namespace {

class LevelLogger : public Logger {
public:
    void log(LogLevel level, std::string_view message) override { m_messages.emplace_back(level, message); }

    [[nodiscard]] QStringList lines(LogLevel level) const
    {
        QStringList lines;
        for (const auto &[at, message] : m_messages)
            if (at == level)
                lines << q(message);
        return lines;
    }

private:
    std::vector<std::pair<LogLevel, std::string>> m_messages;
};

enum class Kind { Posix, Shell };

/// A temporary directory to run commands in, a real runner and a logger, and one apply at a time.
class ExecHarness {
public:
    ExecHarness()
        : m_runner(300ms)
    {
    }

    [[nodiscard]] bool isValid() const { return m_dir.isValid(); }
    [[nodiscard]] std::string root() const { return m_dir.path().toStdString(); }
    /// An absolute path in the directory.
    [[nodiscard]] std::string path(const QString &name) const { return m_dir.filePath(name).toStdString(); }
    [[nodiscard]] bool exists(const QString &name) const { return QFileInfo::exists(m_dir.filePath(name)); }
    [[nodiscard]] QByteArray read(const QString &name) const
    {
        QFile file(m_dir.filePath(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }
    [[nodiscard]] const LevelLogger &log() const { return m_log; }

    ApplyOutcome apply(const std::string &name, Json properties, Kind kind = Kind::Posix)
    {
        // Commands run in the directory unless a test sets another.
        if (!properties.contains("cwd"))
            properties["cwd"] = m_dir.path().toStdString();
        // A run on somebody else's behalf gives its types a runner that imposes their identity.
        std::optional<IdentityRunner> imposed;
        CommandRunner &runner
            = identity ? imposed.emplace(m_runner, *identity) : static_cast<CommandRunner &>(m_runner);
        std::vector<RefreshCause> causes;
        if (refresh)
            causes.push_back({.reference = "file#/etc/app.conf", .noop = noop});
        ApplyContext context {.noop = noop,
            .refreshCauses = std::move(causes),
            .runner = runner,
            .log = m_log,
            .facts = m_facts,
            .workingDirectory = workingDirectory,
            .mayShowDiff = {},
            .runChildManifest = {}};
        PosixExecProvider posix(runner);
        ShellExecProvider shell(runner);
        ExecProvider &provider = kind == Kind::Posix ? static_cast<ExecProvider &>(posix) : shell;
        ApplyOutcome outcome;
        outcome.result = ExecType().apply(name, properties, provider, context, outcome.event);
        return outcome;
    }

    bool noop = false;
    bool refresh = false;
    std::filesystem::path workingDirectory;
    std::optional<Credentials> identity;

private:
    QTemporaryDir m_dir;
    ProcessRunner m_runner;
    LevelLogger m_log;
    LazyFacts m_facts;
};

/// A posix command line that runs a shell script: the way to get redirections without the shell provider.
inline std::string script(const std::string &body)
{
    return "/bin/sh -c '" + body + "'";
}

inline Json status(std::optional<int> exitCode, bool creates, std::optional<bool> onlyIf, std::optional<bool> unless)
{
    const auto optional = [](const auto &value) { return value ? Json(*value) : Json(nullptr); };
    return Json {{"ensure", "present"}, {"exit_code", optional(exitCode)}, {"creates_satisfied", creates},
        {"onlyif_satisfied", optional(onlyIf)}, {"unless_satisfied", optional(unless)}};
}

/// Whether the process is gone; a zombie it adopted as subreaper is reaped first.
inline bool processGone(pid_t pid)
{
    for (int i = 0; i < 500; ++i) {
        if (::waitpid(pid, nullptr, WNOHANG) == pid || (::kill(pid, 0) == -1 && errno == ESRCH))
            return ::kill(pid, 0) == -1 && errno == ESRCH;
        QTest::qWait(10);
    }
    return false;
}

} // namespace

Q_DECLARE_METATYPE(Json)
