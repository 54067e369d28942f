// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace ccm {

/// The identity a command runs as: applied in the child before exec (supplementary groups, then
/// group, then user), so only a root caller can switch to it.
struct Credentials {
    uid_t uid = 0;
    gid_t gid = 0;
    std::vector<gid_t> groups;
};

/// One process to run: argv only, never a shell string.
struct Command {
    /// argv[0] is looked up in PATH unless it contains a '/'.
    std::vector<std::string> argv;
    /// Working directory of the child; empty keeps the caller's.
    std::string cwd;
    /// Extra KEY=VALUE entries over the fixed environment; a later KEY replaces an earlier one.
    std::vector<std::string> environment;
    /// Zero means no timeout.
    std::chrono::milliseconds timeout {0};
    /// Bytes kept of each of stdout and stderr; the rest is read and dropped.
    std::size_t outputLimit = 1024 * 1024;
    /// Written to the child's stdin, which is /dev/null when there is none.
    std::optional<std::string> stdinData;
    std::optional<Credentials> runAs;
    /// Sends stderr into stdoutText, interleaved as the child wrote it.
    bool mergeStderr = false;
};

/// What a finished process did. A process that ran and failed is a result, not an Error.
struct CommandResult {
    /// The exit status, or -1 when the process was killed by a signal.
    int exitCode = 0;
    /// The signal that killed the process, 0 when it exited.
    int signal = 0;
    /// The timeout passed and the process group was terminated.
    bool timedOut = false;
    std::string stdoutText;
    std::string stderrText;
    bool stdoutTruncated = false;
    bool stderrTruncated = false;
    std::chrono::nanoseconds duration {0};
};

/// The one way the engine runs processes; providers take a CommandRunner so that tests can
/// replace the system with a recording fake.
class CommandRunner {
public:
    virtual ~CommandRunner();

    /// Runs the command to completion. An Error means the process could not be started (bad
    /// command, program not found or not executable, bad cwd or credentials); everything after
    /// exec, including a non-zero exit, a signal or a timeout, is a CommandResult.
    virtual Result<CommandResult> run(const Command &command) = 0;

    /// The identity every command of this runner runs as, whatever Command::runAs says; nullopt
    /// when each command runs as it asks (as this process unless runAs is set). Callers use it to
    /// hand the files a command must write (a scaffold's staging tree, goss rules) to that user.
    [[nodiscard]] virtual std::optional<Credentials> identity() const;
};

/// Runs every command of another runner as one identity. A run on somebody else's behalf (a noop
/// preview) goes through one of these, so that each process it starts (guards, health checks,
/// goss, provider queries, scaffold post commands, and whatever is added later) runs as that
/// user: a provider cannot start a process as root by forgetting to ask for the identity.
class IdentityRunner final : public CommandRunner {
public:
    IdentityRunner(CommandRunner &inner, Credentials identity);

    Result<CommandResult> run(const Command &command) override;
    [[nodiscard]] std::optional<Credentials> identity() const override { return m_identity; }

private:
    CommandRunner &m_inner;
    Credentials m_identity;
};

/// Runs real processes with fork and execve.
///
/// The child's environment is exactly PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin,
/// LANG=C and LC_ALL=C followed by the command's extra entries; nothing is inherited from the caller
/// (not even HOME or USER, which would be wrong after runAs), so a command that needs more says so.
/// The child leads its own process group, has every signal at its default and unblocked, and keeps
/// only fds 0-2: all other descriptors are closed before exec.
///
/// On timeout the group gets SIGTERM, then SIGKILL once the kill grace has passed. Output is
/// collected until the child has exited and what it wrote has been read; descendants that keep the
/// pipes open are not waited for unless the command timed out. Safe to use from several threads
/// at once; SIGCHLD is not used.
class ProcessRunner : public CommandRunner {
public:
    /// The fixed search path of every child.
    static constexpr const char *kPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    explicit ProcessRunner(std::chrono::milliseconds killGrace = std::chrono::seconds(2));

    Result<CommandResult> run(const Command &command) override;

private:
    std::chrono::milliseconds m_killGrace;
};

/// The first executable regular file called name in the colon-separated directories of searchPath,
/// as the path a process would exec (so without root), or nullopt; with root set, the directories
/// are looked up under root, as on a host mounted there. Empty entries are skipped.
std::optional<std::string> findExecutable(const std::string &name, std::string_view searchPath = ProcessRunner::kPath,
    const std::filesystem::path &root = {});

/// argv as a readable command line for messages: words with spaces or quotes are single-quoted.
std::string describeCommand(const std::vector<std::string> &argv);

} // namespace ccm
