// SPDX-License-Identifier: Apache-2.0
#include "engine/util/command_runner.h"

#include "base/unique_fd.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <grp.h>
#include <optional>
#include <poll.h>
#include <signal.h>
#include <string_view>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>

namespace ccm {

CommandRunner::~CommandRunner() = default;

std::optional<Credentials> CommandRunner::identity() const
{
    return std::nullopt;
}

IdentityRunner::IdentityRunner(CommandRunner &inner, Credentials identity)
    : m_inner(inner)
    , m_identity(std::move(identity))
{
}

Result<CommandResult> IdentityRunner::run(const Command &command)
{
    Command imposed = command;
    imposed.runAs = m_identity;
    return m_inner.run(imposed);
}

namespace {

using Clock = std::chrono::steady_clock;

std::string errorText(int error)
{
    return std::generic_category().message(error);
}

Error spawnError(const std::string &what, int error)
{
    return Error {"spawn_failed", what + ": " + errorText(error)};
}

/// Moves fd above 0-2: the child dup2()s its pipe ends onto 0, 1 and 2 in that order, which would
/// clobber an end that happened to be one of them (a caller may run with stdin closed).
Result<UniqueFd> aboveStandardFds(UniqueFd fd)
{
    if (fd.get() > STDERR_FILENO)
        return fd;
    const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (moved < 0)
        return spawnError("cannot duplicate a descriptor", errno);
    return UniqueFd(moved);
}

struct Pipe {
    UniqueFd read;
    UniqueFd write;
};

Result<Pipe> makePipe()
{
    std::array<int, 2> ends {};
    if (::pipe2(ends.data(), O_CLOEXEC) != 0)
        return spawnError("cannot create a pipe", errno);
    auto read = aboveStandardFds(UniqueFd(ends[0]));
    auto write = aboveStandardFds(UniqueFd(ends[1]));
    if (!read)
        return read.error();
    if (!write)
        return write.error();
    return Pipe {std::move(read).value(), std::move(write).value()};
}

/// Blocks SIGPIPE in the calling thread while stdin is fed to a child that may have exited, so a
/// write to its closed pipe fails with EPIPE instead of killing the whole program.
class SigpipeBlock {
public:
    SigpipeBlock()
    {
        sigemptyset(&m_pipe);
        sigaddset(&m_pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &m_pipe, &m_previous);
    }
    SigpipeBlock(const SigpipeBlock &) = delete;
    SigpipeBlock &operator=(const SigpipeBlock &) = delete;
    ~SigpipeBlock()
    {
        if (m_raised) {
            // The failed write left a SIGPIPE pending on this thread; take it before unblocking.
            const timespec now {0, 0};
            while (sigtimedwait(&m_pipe, nullptr, &now) < 0 && errno == EINTR) { }
        }
        pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
    }

    void noteRaised() { m_raised = true; }

private:
    sigset_t m_pipe {};
    sigset_t m_previous {};
    bool m_raised = false;
};

/// Why the child could not exec, sent to the parent over a close-on-exec pipe: end of file on that
/// pipe means execve succeeded.
enum class Stage : int { Setup, Groups, Gid, Uid, Cwd, Exec };

struct ChildFailure {
    int stage;
    int error;
};

/// Everything the child needs, prepared before fork: after fork only async-signal-safe calls are
/// allowed, so the child must not allocate.
struct ChildSetup {
    const char *program;
    char *const *argv;
    char *const *envp;
    const char *cwd;
    const Credentials *runAs;
    int stdinFd;
    int stdoutFd;
    int stderrFd;
    int reportFd;
    int maxFd;
};

[[noreturn]] void failInChild(int reportFd, Stage stage)
{
    const ChildFailure failure {static_cast<int>(stage), errno};
    [[maybe_unused]] const ssize_t written = ::write(reportFd, &failure, sizeof failure);
    ::_exit(127);
}

/// Closes every descriptor but 0-2 and keep: O_CLOEXEC only covers what this program opens, not
/// descriptors other code in the process opened without it.
void closeOtherFds(int keep, int maxFd)
{
    const bool belowClosed
        = keep == STDERR_FILENO + 1 || ::close_range(STDERR_FILENO + 1, static_cast<unsigned>(keep - 1), 0) == 0;
    if (belowClosed && ::close_range(static_cast<unsigned>(keep + 1), ~0U, 0) == 0)
        return;
    for (int fd = STDERR_FILENO + 1; fd < maxFd; ++fd) {
        if (fd != keep)
            ::close(fd);
    }
}

[[noreturn]] void runChild(const ChildSetup &setup)
{
    struct sigaction defaults { };
    defaults.sa_handler = SIG_DFL;
    sigemptyset(&defaults.sa_mask);
    for (int signal = 1; signal < NSIG; ++signal)
        ::sigaction(signal, &defaults, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);

    if (::setpgid(0, 0) != 0)
        failInChild(setup.reportFd, Stage::Setup);
    if (::dup2(setup.stdinFd, STDIN_FILENO) < 0 || ::dup2(setup.stdoutFd, STDOUT_FILENO) < 0
        || ::dup2(setup.stderrFd, STDERR_FILENO) < 0)
        failInChild(setup.reportFd, Stage::Setup);
    closeOtherFds(setup.reportFd, setup.maxFd);

    if (setup.runAs) {
        if (::setgroups(setup.runAs->groups.size(), setup.runAs->groups.data()) != 0)
            failInChild(setup.reportFd, Stage::Groups);
        if (::setgid(setup.runAs->gid) != 0)
            failInChild(setup.reportFd, Stage::Gid);
        if (::setuid(setup.runAs->uid) != 0)
            failInChild(setup.reportFd, Stage::Uid);
    }
    // After the switch of identity, so that the new user needs the right to enter the directory.
    if (setup.cwd && ::chdir(setup.cwd) != 0)
        failInChild(setup.reportFd, Stage::Cwd);

    ::execve(setup.program, setup.argv, setup.envp);
    failInChild(setup.reportFd, Stage::Exec);
}

Result<std::vector<std::string>> buildEnvironment(const std::vector<std::string> &extra)
{
    std::vector<std::string> environment {std::string("PATH=") + ProcessRunner::kPath, "LANG=C", "LC_ALL=C"};
    for (const std::string &entry : extra) {
        const std::size_t equals = entry.find('=');
        if (equals == std::string::npos || equals == 0)
            return Error {"invalid_command", "environment entry '" + entry + "' is not KEY=VALUE"};
        const std::string_view key(entry.data(), equals + 1);
        const auto existing = std::find_if(
            environment.begin(), environment.end(), [&](const std::string &e) { return e.starts_with(key); });
        if (existing != environment.end())
            *existing = entry;
        else
            environment.push_back(entry);
    }
    return environment;
}

/// What makes the command impossible to run as given, if anything: C strings end at a NUL byte,
/// so one inside would silently run something else.
std::optional<Error> invalidCommand(const Command &command)
{
    if (command.argv.empty() || command.argv.front().empty())
        return Error {"invalid_command", "the command is empty"};
    const auto hasNul = [](const std::string &text) { return text.find('\0') != std::string::npos; };
    for (std::size_t i = 0; i < command.argv.size(); ++i) {
        if (hasNul(command.argv[i]))
            return Error {"invalid_command", "argument " + std::to_string(i) + " contains a NUL byte"};
    }
    for (const std::string &entry : command.environment) {
        if (hasNul(entry))
            return Error {"invalid_command", "an environment entry contains a NUL byte"};
    }
    if (hasNul(command.cwd))
        return Error {"invalid_command", "the working directory contains a NUL byte"};
    return std::nullopt;
}

/// The first regular file called name in a directory of searchPath, looked up under root; with
/// executable set only one the caller may execute counts.
std::optional<std::string> findInPath(
    const std::string &name, std::string_view searchPath, const std::filesystem::path &root, bool executable)
{
    for (std::size_t begin = 0; begin <= searchPath.size();) {
        const std::size_t end = std::min(searchPath.find(':', begin), searchPath.size());
        const std::string directory(searchPath.substr(begin, end - begin));
        begin = end + 1;
        if (directory.empty())
            continue;
        const std::string candidate = directory + "/" + name;
        const std::string onDisk
            = root.empty() ? candidate : (root / std::filesystem::path(candidate).relative_path()).string();
        struct stat info { };
        if (::stat(onDisk.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
            continue;
        if (!executable || ::access(onDisk.c_str(), X_OK) == 0)
            return candidate;
    }
    return std::nullopt;
}

/// The path to exec for name, searched like execvp does: the first executable regular file wins;
/// a match that is not executable is still returned so that exec reports why.
Result<std::string> findProgram(const std::string &name, const std::string &searchPath)
{
    if (name.find('/') != std::string::npos)
        return name;
    if (auto found = findExecutable(name, searchPath))
        return *found;
    if (auto notExecutable = findInPath(name, searchPath, {}, false))
        return *notExecutable;
    return Error {"command_not_found", "command not found: " + name + " (searched PATH=" + searchPath + ")"};
}

Error childError(const ChildFailure &failure, const Command &command, const std::string &program)
{
    const std::string cause = errorText(failure.error);
    switch (static_cast<Stage>(failure.stage)) {
    case Stage::Groups:
    case Stage::Gid:
    case Stage::Uid: {
        static constexpr std::array<const char *, 3> calls {"setgroups", "setgid", "setuid"};
        const auto index = static_cast<std::size_t>(failure.stage - static_cast<int>(Stage::Groups));
        return Error {"run_as_failed",
            "cannot run " + program + " as uid " + std::to_string(command.runAs->uid) + " gid "
                + std::to_string(command.runAs->gid) + ": " + calls[index] + ": " + cause
                + " (switching users needs root)"};
    }
    case Stage::Cwd:
        return Error {"bad_cwd", "cannot run " + program + " in " + command.cwd + ": " + cause};
    case Stage::Exec:
        break;
    case Stage::Setup:
        return Error {"spawn_failed", "cannot prepare the process for " + program + ": " + cause};
    }
    if (failure.error == ENOENT) {
        // The program exists when only its interpreter is missing; a relative one lives in cwd.
        const std::string located
            = program.front() != '/' && !command.cwd.empty() ? command.cwd + "/" + program : program;
        struct stat info { };
        if (::stat(located.c_str(), &info) == 0)
            return Error {"not_executable", "cannot execute " + program + ": its interpreter (#! line) was not found"};
        return Error {"command_not_found", "command not found: " + program};
    }
    if (failure.error == EACCES)
        return Error {"not_executable",
            "cannot execute " + program + ": " + cause
                + " (it must be an executable file; check its mode and its directories)"};
    if (failure.error == ENOEXEC)
        return Error {
            "not_executable", "cannot execute " + program + ": not an executable format (a script needs a #! line)"};
    return Error {"spawn_failed", "cannot execute " + program + ": " + cause};
}

/// Whether the child must take on `runAs`: not when it is what an unprivileged process already is,
/// which that process could not set (setgroups needs root) but already has.
bool needsSwitch(const std::optional<Credentials> &runAs)
{
    if (!runAs)
        return false;
    return ::geteuid() == 0 || runAs->uid != ::geteuid() || runAs->uid != ::getuid() || runAs->gid != ::getegid()
        || runAs->gid != ::getgid();
}

/// Reads the child's report on exec; nullopt when exec succeeded.
std::optional<ChildFailure> readChildFailure(int reportFd)
{
    ChildFailure failure {};
    auto *bytes = reinterpret_cast<char *>(&failure);
    std::size_t received = 0;
    while (received < sizeof failure) {
        const ssize_t n = ::read(reportFd, bytes + received, sizeof failure - received);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        received += static_cast<std::size_t>(n);
    }
    if (received < sizeof failure)
        return std::nullopt;
    return failure;
}

int waitForExit(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    return status;
}

/// One captured output stream of the child.
struct Capture {
    UniqueFd fd;
    std::string *text = nullptr;
    bool *truncated = nullptr;
    /// Bytes still to read once the child has exited: all it wrote fits in the pipe, and the
    /// budget stops the drain when a descendant keeps writing.
    std::optional<std::size_t> drainBudget;
};

void keep(Capture &capture, std::size_t limit, const char *data, std::size_t size)
{
    const std::size_t room = limit > capture.text->size() ? limit - capture.text->size() : 0;
    const std::size_t taken = std::min(room, size);
    capture.text->append(data, taken);
    if (taken < size)
        *capture.truncated = true;
}

void startDrain(Capture &capture)
{
    if (!capture.fd.valid() || capture.drainBudget)
        return;
    const int capacity = ::fcntl(capture.fd.get(), F_GETPIPE_SZ);
    capture.drainBudget = capacity > 0 ? static_cast<std::size_t>(capacity) : std::size_t {1} << 20;
}

/// Reads what is available from a readable capture; closes it at end of file, on an error or when
/// its drain budget is spent.
void readSome(Capture &capture, std::size_t limit)
{
    std::array<char, 65536> buffer {};
    const std::size_t wanted = std::min(buffer.size(), capture.drainBudget.value_or(buffer.size()));
    const ssize_t n = ::read(capture.fd.get(), buffer.data(), wanted);
    if (n > 0) {
        keep(capture, limit, buffer.data(), static_cast<std::size_t>(n));
        if (capture.drainBudget) {
            *capture.drainBudget -= static_cast<std::size_t>(n);
            if (*capture.drainBudget == 0)
                capture.fd.reset();
        }
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        capture.fd.reset();
    }
}

/// Feeds stdinData to the child without ever blocking on it.
struct Feed {
    UniqueFd fd;
    std::string_view rest;
};

void writeSome(Feed &feed, SigpipeBlock &sigpipe)
{
    const ssize_t n = ::write(feed.fd.get(), feed.rest.data(), std::min<std::size_t>(feed.rest.size(), 65536));
    if (n >= 0) {
        feed.rest.remove_prefix(static_cast<std::size_t>(n));
    } else if (errno != EINTR && errno != EAGAIN) {
        if (errno == EPIPE)
            sigpipe.noteRaised();
        feed.rest = {};
    }
    if (feed.rest.empty())
        feed.fd.reset();
}

int pollMilliseconds(Clock::duration remaining)
{
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(remaining).count();
    return static_cast<int>(std::clamp<decltype(ms)>(ms, 0, 1000 * 1000));
}

Clock::time_point deadlineFor(const Command &command, Clock::time_point start)
{
    constexpr Clock::time_point never = Clock::time_point::max();
    const auto longest = std::chrono::duration_cast<std::chrono::milliseconds>(never - start);
    return command.timeout.count() > 0 && command.timeout < longest ? start + command.timeout : never;
}

/// Takes the child's process group down once the deadline passes: SIGTERM first, SIGKILL after
/// the grace period.
struct GroupTimeout {
    pid_t pid;
    Clock::time_point deadline;
    std::chrono::milliseconds killGrace;
    bool &timedOut;
    Clock::time_point killAt = Clock::time_point::max();
    bool killSent = false;

    void escalate(Clock::time_point now)
    {
        if (!timedOut && now >= deadline) {
            timedOut = true;
            ::kill(-pid, SIGTERM);
            killAt = now + killGrace;
        }
        if (timedOut && !killSent && now >= killAt) {
            ::kill(-pid, SIGKILL);
            killSent = true;
        }
    }

    /// When the next signal is due; never once SIGKILL went out.
    [[nodiscard]] Clock::time_point nextSignal() const
    {
        return timedOut ? (killSent ? Clock::time_point::max() : killAt) : deadline;
    }

    void finish() const
    {
        if (timedOut && !killSent) {
            // Members of the group that closed their output but ignore SIGTERM get SIGKILL all the same.
            while (Clock::now() < killAt && ::kill(-pid, 0) == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            ::kill(-pid, SIGKILL);
        }
    }
};

/// The descriptors one poll waits on: the open captures, then stdin while it is being fed.
struct PollSet {
    std::array<pollfd, 3> fds {};
    std::array<Capture *, 3> owners {};
    nfds_t count = 0;
};

PollSet pollSetFor(std::array<Capture, 2> &captures, const Feed &feed, bool feeding)
{
    PollSet set;
    for (Capture &capture : captures) {
        if (capture.fd.valid()) {
            set.owners[set.count] = &capture;
            set.fds[set.count++] = pollfd {capture.fd.get(), POLLIN, 0};
        }
    }
    if (feeding)
        set.fds[set.count++] = pollfd {feed.fd.get(), POLLOUT, 0};
    return set;
}

void serviceReady(const PollSet &set, const Command &command, Feed &feed, SigpipeBlock &sigpipe)
{
    for (nfds_t i = 0; i < set.count; ++i) {
        if (set.fds[i].revents == 0)
            continue;
        if (set.owners[i])
            readSome(*set.owners[i], command.outputLimit);
        else
            writeSome(feed, sigpipe);
    }
}

/// argv-style pointers into strings, ending in a null pointer; the strings must outlive them.
std::vector<char *> nullTerminated(const std::vector<std::string> &strings)
{
    std::vector<char *> pointers;
    for (const std::string &string : strings)
        pointers.push_back(const_cast<char *>(string.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

/// The pipes between parent and child: the exec failure report, stdout, stderr unless it is
/// merged, and stdin.
struct ChildPipes {
    Pipe report;
    Pipe out;
    Pipe err;
    Pipe in;
};

/// The child's stdin: a non-blocking pipe when there is data to feed, /dev/null otherwise.
Result<Pipe> makeStdin(const Command &command)
{
    Pipe in;
    if (command.stdinData) {
        auto made = makePipe();
        if (!made)
            return made.error();
        in = std::move(made).value();
        const int flags = ::fcntl(in.write.get(), F_GETFL);
        if (flags < 0 || ::fcntl(in.write.get(), F_SETFL, flags | O_NONBLOCK) != 0)
            return spawnError("cannot make the stdin pipe non-blocking", errno);
    } else {
        UniqueFd null(::open("/dev/null", O_RDONLY | O_CLOEXEC));
        if (!null.valid())
            return spawnError("cannot open /dev/null", errno);
        auto lifted = aboveStandardFds(std::move(null));
        if (!lifted)
            return lifted.error();
        in.read = std::move(lifted).value();
    }
    return in;
}

Result<ChildPipes> makeChildPipes(const Command &command)
{
    auto madeReport = makePipe();
    auto madeOut = makePipe();
    if (!madeReport)
        return madeReport.error();
    if (!madeOut)
        return madeOut.error();
    ChildPipes pipes {std::move(madeReport).value(), std::move(madeOut).value(), {}, {}};
    if (!command.mergeStderr) {
        auto made = makePipe();
        if (!made)
            return made.error();
        pipes.err = std::move(made).value();
    }
    auto in = makeStdin(command);
    if (!in)
        return in.error();
    pipes.in = std::move(in).value();
    return pipes;
}

/// The ends the child uses; the parent closes its copies after fork so end of file arrives.
void closeChildEnds(ChildPipes &pipes)
{
    pipes.report.write.reset();
    pipes.out.write.reset();
    pipes.err.write.reset();
    pipes.in.read.reset();
}

/// The highest descriptor the child closes before exec, capped so that stays quick.
int descriptorLimit()
{
    rlimit files {};
    return ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
        ? static_cast<int>(std::min<rlim_t>(files.rlim_cur, 1 << 20))
        : 1 << 16;
}

void recordExit(int waitStatus, CommandResult &result)
{
    if (WIFSIGNALED(waitStatus)) {
        result.exitCode = -1;
        result.signal = WTERMSIG(waitStatus);
    } else {
        result.exitCode = WEXITSTATUS(waitStatus);
    }
}

/// Sees the child to its end: feeds its stdin, captures its output, enforces the timeout and
/// returns its wait status.
Result<int> supervise(pid_t pid, const Command &command, Clock::time_point start, std::chrono::milliseconds killGrace,
    std::array<Capture, 2> &captures, Feed &feed, SigpipeBlock &sigpipe, bool &timedOut)
{
    constexpr Clock::time_point never = Clock::time_point::max();
    GroupTimeout timeout {pid, deadlineFor(command, start), killGrace, timedOut};
    bool exited = false;
    int status = 0;
    const auto capturing
        = [&] { return std::any_of(captures.begin(), captures.end(), [](const Capture &c) { return c.fd.valid(); }); };

    while (!exited || capturing()) {
        const Clock::time_point now = Clock::now();
        timeout.escalate(now);
        // Once the child is gone, everything it wrote is in the pipes already; descendants that
        // still hold them are waited for only while a timeout is taking the group down.
        const bool draining = exited && (!timedOut || timeout.killSent);
        if (draining) {
            for (Capture &capture : captures)
                startDrain(capture);
        }
        const Clock::time_point timer = timeout.nextSignal();
        const bool feeding = feed.fd.valid() && !exited;
        if (!exited && !feeding && !capturing() && timer == never) {
            status = waitForExit(pid);
            exited = true;
            continue;
        }

        PollSet set = pollSetFor(captures, feed, feeding);
        Clock::time_point wakeAt = timer;
        if (!exited) {
            // Without SIGCHLD the exit is noticed by polling waitpid: quickly when nothing else can
            // wake us, lazily while end of file on the output will usually tell first.
            wakeAt = std::min(
                wakeAt, now + (capturing() ? std::chrono::milliseconds(100) : std::chrono::milliseconds(10)));
        }

        const int ready = ::poll(set.fds.data(), set.count, draining ? 0 : pollMilliseconds(wakeAt - now));
        if (ready < 0 && errno != EINTR) {
            const int error = errno;
            ::kill(-pid, SIGKILL);
            waitForExit(pid);
            return spawnError("cannot wait for the child", error);
        }
        if (ready > 0)
            serviceReady(set, command, feed, sigpipe);
        if (draining && ready == 0)
            break;
        if (!exited && ::waitpid(pid, &status, WNOHANG) == pid)
            exited = true;
    }

    timeout.finish();
    return status;
}

} // namespace

std::optional<std::string> findExecutable(
    const std::string &name, std::string_view searchPath, const std::filesystem::path &root)
{
    return findInPath(name, searchPath, root, true);
}

ProcessRunner::ProcessRunner(std::chrono::milliseconds killGrace)
    : m_killGrace(killGrace)
{
}

Result<CommandResult> ProcessRunner::run(const Command &command)
{
    if (auto invalid = invalidCommand(command))
        return *invalid;
    auto environment = buildEnvironment(command.environment);
    if (!environment)
        return environment.error();
    const auto pathEntry = std::find_if(
        environment->begin(), environment->end(), [](const std::string &e) { return e.starts_with("PATH="); });
    auto program = findProgram(command.argv.front(), pathEntry->substr(5));
    if (!program)
        return program.error();

    const std::vector<char *> argvPointers = nullTerminated(command.argv);
    const std::vector<char *> envPointers = nullTerminated(*environment);
    auto madePipes = makeChildPipes(command);
    if (!madePipes)
        return madePipes.error();
    ChildPipes pipes = std::move(madePipes).value();
    const ChildSetup setup {program->c_str(), argvPointers.data(), envPointers.data(),
        command.cwd.empty() ? nullptr : command.cwd.c_str(), needsSwitch(command.runAs) ? &*command.runAs : nullptr,
        pipes.in.read.get(), pipes.out.write.get(), command.mergeStderr ? pipes.out.write.get() : pipes.err.write.get(),
        pipes.report.write.get(), descriptorLimit()};

    SigpipeBlock sigpipe;
    const Clock::time_point start = Clock::now();
    const pid_t pid = ::fork();
    if (pid < 0)
        return spawnError("cannot start " + *program, errno);
    if (pid == 0)
        runChild(setup);

    closeChildEnds(pipes);
    if (const auto failure = readChildFailure(pipes.report.read.get())) {
        waitForExit(pid);
        return childError(*failure, command, *program);
    }

    CommandResult result;
    std::array<Capture, 2> captures {
        Capture {std::move(pipes.out.read), &result.stdoutText, &result.stdoutTruncated, {}},
        Capture {std::move(pipes.err.read), &result.stderrText, &result.stderrTruncated, {}}};
    Feed feed {
        std::move(pipes.in.write), command.stdinData ? std::string_view(*command.stdinData) : std::string_view()};
    if (feed.fd.valid() && feed.rest.empty())
        feed.fd.reset();
    const auto waitStatus = supervise(pid, command, start, m_killGrace, captures, feed, sigpipe, result.timedOut);
    if (!waitStatus)
        return waitStatus.error().withContext(*program);
    result.duration = Clock::now() - start;
    recordExit(*waitStatus, result);
    return result;
}

namespace {

bool isPlainWord(const std::string &word)
{
    return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || std::string_view("_-+=.,:/@%").find(c) != std::string_view::npos;
    });
}

} // namespace

std::string describeCommand(const std::vector<std::string> &argv)
{
    std::string line;
    for (const std::string &word : argv) {
        if (!line.empty())
            line += ' ';
        if (isPlainWord(word)) {
            line += word;
            continue;
        }
        line += '\'';
        for (char c : word)
            line += c == '\'' ? std::string("'\\''") : std::string(1, c);
        line += '\'';
    }
    return line;
}

} // namespace ccm
