// SPDX-License-Identifier: Apache-2.0
#include "daemon/server.h"

#include "daemon/apply_worker.h"
#include "daemon/dispatcher.h"
#include "daemon/work_pool.h"
#include "protocol/line_reader.h"
#include "protocol/protocol.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>

namespace ccm::daemon {

using protocol::Frame;
using protocol::LineReader;

namespace {

using Clock = std::chrono::steady_clock;

/// Bytes read from one connection before the others get their turn.
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kReadsPerTurn = 16;
/// How long a stopping daemon keeps trying to deliver what it still has to send.
constexpr auto kFlushGrace = std::chrono::seconds(5);

std::string errnoText(int error)
{
    return std::strerror(error);
}

bool setNonBlocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

struct Connection {
    int fd = -1;
    Caller caller;
    LineReader reader;
    std::string out;
    std::size_t outOffset = 0;
    Clock::time_point lastRequest = Clock::now();
    /// Lines read but not handled yet: they wait while a request of this connection is on the
    /// work pool, so that its responses go out in the order of its requests.
    std::deque<Frame> pending;
    /// A request of this connection is on the work pool; nothing more is read meanwhile.
    bool working = false;
    /// Nothing more is read; the connection closes once its output is sent.
    bool closing = false;
};

/// A line for a connection from another thread. `finishesWork` marks the end of the connection's
/// job on the work pool (with the job's response, or none for an apply that answers later).
struct Outgoing {
    ConnectionId connection = 0;
    std::optional<std::string> line;
    bool finishesWork = false;
};

} // namespace

Result<int> listenAt(const std::filesystem::path &path, AuthMode mode)
{
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const std::string text = path.string();
    if (text.empty() || text.size() >= sizeof address.sun_path)
        return Error {"socket", "socket path '" + text + "' is empty or too long"};
    std::memcpy(address.sun_path, text.c_str(), text.size() + 1);

    const std::filesystem::path parent = path.parent_path();
    if (!parent.empty()) {
        std::error_code error;
        const bool created = std::filesystem::create_directories(parent, error);
        if (error)
            return Error {"socket", "cannot create " + parent.string() + ": " + error.message()};
        if (created && ::chmod(parent.c_str(), mode == AuthMode::User ? 0700 : 0755) != 0)
            return Error {"socket", "cannot set the mode of " + parent.string() + ": " + errnoText(errno)};
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return Error {"socket", "cannot create a socket: " + errnoText(errno)};
    struct stat existing { };
    if (::lstat(text.c_str(), &existing) == 0) {
        if (!S_ISSOCK(existing.st_mode)) {
            ::close(fd);
            return Error {"socket", text + " exists and is not a socket"};
        }
        // A socket somebody still listens on belongs to a running daemon; only a stale one left
        // by a daemon that died is replaced.
        const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const bool live
            = probe >= 0 && ::connect(probe, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
        if (probe >= 0)
            ::close(probe);
        if (live) {
            ::close(fd);
            return Error {"socket", "another daemon is listening on " + text};
        }
        ::unlink(text.c_str());
    }
    // The socket is created with the umask applied, then opened up or narrowed down explicitly.
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0
        || ::chmod(text.c_str(), mode == AuthMode::User ? 0600 : 0666) != 0 || ::listen(fd, 128) != 0) {
        const int error = errno;
        ::close(fd);
        return Error {"socket", "cannot listen on " + text + ": " + errnoText(error)};
    }
    return fd;
}

std::optional<int> activatedSocket()
{
    const char *pid = std::getenv("LISTEN_PID");
    const char *fds = std::getenv("LISTEN_FDS");
    if (pid == nullptr || fds == nullptr)
        return std::nullopt;
    char *end = nullptr;
    const long listenPid = std::strtol(pid, &end, 10);
    const bool pidOk = *pid != '\0' && *end == '\0' && listenPid == ::getpid();
    const long count = std::strtol(fds, &end, 10);
    const bool countOk = *fds != '\0' && *end == '\0' && count >= 1;
    ::unsetenv("LISTEN_PID");
    ::unsetenv("LISTEN_FDS");
    ::unsetenv("LISTEN_FDNAMES");
    if (!pidOk || !countOk)
        return std::nullopt;
    ::fcntl(3, F_SETFD, FD_CLOEXEC);
    return 3;
}

struct Server::State {
    explicit State(ServerOptions serverOptions)
        : options(std::move(serverOptions))
        , worker([this](ConnectionId connection, std::string line) {
            post(Outgoing {connection, std::move(line), false});
        })
        , dispatcher(worker, options.facts,
              [this](ConnectionId connection, std::string line) {
                  post(Outgoing {connection, std::move(line), false});
              })
        , pool(WorkPool::defaultThreads())
    {
    }

    /// Called on the apply worker and the work pool: queues a line and wakes the I/O thread.
    void post(Outgoing outgoing)
    {
        {
            const std::lock_guard lock(outboxMutex);
            outbox.push_back(std::move(outgoing));
        }
        wake();
    }

    void wake() const
    {
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(wakeFd, &one, sizeof one);
    }

    void accept();
    void readFrom(Connection &connection);
    void handlePending(Connection &connection);
    void refuse(int fd, uid_t uid, const std::string &why);
    void writeTo(Connection &connection);
    void queue(Connection &connection, std::string line);
    void close(ConnectionId id, std::string_view why);
    void deliverOutbox();
    int pollTimeout();
    void closeIdle();
    bool doneStopping(std::optional<Clock::time_point> &flushDeadline);
    std::size_t fillPollSet(std::vector<pollfd> &fds, std::vector<ConnectionId> &ids, bool stopping) const;
    void handleEvents(const std::vector<pollfd> &fds, const std::vector<ConnectionId> &ids, std::size_t firstConnection,
        bool stopping);

    ServerOptions options;
    int wakeFd = -1;
    std::atomic<bool> stopRequested {false};
    std::mutex outboxMutex;
    std::deque<Outgoing> outbox;
    std::map<ConnectionId, Connection> connections;
    std::map<uid_t, std::size_t> connectionsPerUid;
    ConnectionId nextId = 1;
    ApplyWorker worker;
    Dispatcher dispatcher;
    /// Declared last: destroyed first, so that no job outlives the dispatcher it calls.
    WorkPool pool;
};

void Server::State::refuse(int fd, uid_t uid, const std::string &why)
{
    dispatcher.reject(uid, "connection_refused", "refusing a connection: " + why);
    // One line to a fresh socket fits its buffer; a peer that does not read it loses nothing else.
    const std::string line = errorLine(nullptr, RpcError {ErrorCode::Busy, why}) + "\n";
    [[maybe_unused]] const ssize_t sent = ::send(fd, line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::close(fd);
}

void Server::State::accept()
{
    while (true) {
        const int fd = ::accept4(options.listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
                spdlog::warn("cannot accept a connection: {}", errnoText(errno));
            return;
        }
        const std::optional<Peer> peer = socketPeer(fd);
        if (!peer) {
            spdlog::warn("refusing a connection whose peer credentials are unknown");
            ::close(fd);
            continue;
        }
        if (connections.size() >= kMaxConnections) {
            refuse(fd, peer->uid,
                std::to_string(kMaxConnections) + " connections are open already; try again when one has closed");
            continue;
        }
        if (connectionsPerUid[peer->uid] >= kMaxConnectionsPerUid) {
            refuse(fd, peer->uid,
                "uid " + std::to_string(peer->uid) + " has " + std::to_string(kMaxConnectionsPerUid)
                    + " connections open already; close one of them first");
            continue;
        }
        ++connectionsPerUid[peer->uid];
        Connection connection;
        connection.fd = fd;
        connection.caller.connection = nextId++;
        connection.caller.peer = *peer;
        connection.caller.role = peerRole(*peer, options.mode, options.owner);
        spdlog::debug("connection {} from uid {} ({}), role {}", connection.caller.connection, peer->uid, peer->name,
            roleName(connection.caller.role));
        connections.emplace(connection.caller.connection, std::move(connection));
    }
}

void Server::State::queue(Connection &connection, std::string line)
{
    if (connection.out.size() - connection.outOffset + line.size() + 1 > kMaxOutputBytes) {
        // The client stopped reading: keeping more would let it hold the daemon's memory.
        spdlog::warn("connection {} (uid {}) does not read its messages; closing it", connection.caller.connection,
            connection.caller.peer.uid);
        connection.closing = true;
        connection.out.clear();
        connection.outOffset = 0;
        ::shutdown(connection.fd, SHUT_RDWR);
        return;
    }
    // A client that reads as fast as it is written to may never let the buffer run empty; what it
    // has read is dropped once it is half of the buffer, which keeps the copying linear.
    if (connection.outOffset > 0 && connection.outOffset * 2 >= connection.out.size()) {
        connection.out.erase(0, connection.outOffset);
        connection.outOffset = 0;
    }
    connection.out += line;
    connection.out += '\n';
}

void Server::State::readFrom(Connection &connection)
{
    std::vector<char> buffer(kReadChunk);
    std::vector<Frame> frames;
    for (int turn = 0; turn < kReadsPerTurn && !connection.closing && !connection.working; ++turn) {
        const ssize_t got = ::recv(connection.fd, buffer.data(), buffer.size(), 0);
        if (got == 0) {
            connection.closing = true;
            connection.out.clear();
            connection.outOffset = 0;
            return;
        }
        if (got < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                connection.closing = true;
                connection.out.clear();
                connection.outOffset = 0;
            }
            return;
        }
        frames.clear();
        connection.reader.feed(std::string_view(buffer.data(), static_cast<std::size_t>(got)), frames);
        std::move(frames.begin(), frames.end(), std::back_inserter(connection.pending));
        handlePending(connection);
    }
}

void Server::State::handlePending(Connection &connection)
{
    while (!connection.pending.empty() && !connection.working && !connection.closing) {
        Frame frame = std::move(connection.pending.front());
        connection.pending.pop_front();
        connection.lastRequest = Clock::now();
        switch (frame.kind) {
        case Frame::Kind::Line: {
            Dispatched dispatched = dispatcher.dispatch(connection.caller, frame.text);
            if (dispatched.reply)
                queue(connection, std::move(*dispatched.reply));
            if (dispatched.work) {
                connection.working = true;
                pool.submit(connection.caller.connection,
                    [this, id = connection.caller.connection, work = std::move(dispatched.work)] {
                        post(Outgoing {id, work(), true});
                    });
            }
            break;
        }
        case Frame::Kind::TooLarge:
            dispatcher.reject(connection.caller.peer.uid, "too_large",
                "rejected a line over " + std::to_string(kMaxLineBytes) + " bytes");
            queue(connection,
                errorLine(nullptr,
                    RpcError {ErrorCode::TooLarge, "a line is longer than 16 MiB; it is skipped up to its newline",
                        {{"limit", kMaxLineBytes}}}));
            break;
        case Frame::Kind::Lost:
            dispatcher.reject(
                connection.caller.peer.uid, "lost", "no newline within 16 MiB after a line over the limit; closing");
            connection.closing = true;
            connection.pending.clear();
            break;
        }
    }
}

void Server::State::writeTo(Connection &connection)
{
    while (connection.outOffset < connection.out.size()) {
        const ssize_t sent = ::send(connection.fd, connection.out.data() + connection.outOffset,
            connection.out.size() - connection.outOffset, MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                connection.closing = true;
                connection.out.clear();
                connection.outOffset = 0;
            }
            return;
        }
        connection.outOffset += static_cast<std::size_t>(sent);
    }
    connection.out.clear();
    connection.outOffset = 0;
}

void Server::State::close(ConnectionId id, std::string_view why)
{
    const auto found = connections.find(id);
    if (found == connections.end())
        return;
    spdlog::debug("connection {} closed: {}", id, why);
    ::close(found->second.fd);
    const auto perUid = connectionsPerUid.find(found->second.caller.peer.uid);
    if (perUid != connectionsPerUid.end() && --perUid->second == 0)
        connectionsPerUid.erase(perUid);
    connections.erase(found);
    worker.connectionClosed(id);
    dispatcher.cancelFleetWork(id);
    // A job that already runs finishes; its response finds no connection and is dropped.
    pool.drop(id);
}

void Server::State::deliverOutbox()
{
    std::deque<Outgoing> lines;
    {
        const std::lock_guard lock(outboxMutex);
        lines.swap(outbox);
    }
    std::vector<ConnectionId> resumed;
    for (Outgoing &outgoing : lines) {
        const auto found = connections.find(outgoing.connection);
        // A closed connection's run is cancelled; what it still reports has nobody to go to.
        if (found == connections.end())
            continue;
        Connection &connection = found->second;
        if (outgoing.line && !connection.closing)
            queue(connection, std::move(*outgoing.line));
        if (outgoing.finishesWork) {
            connection.working = false;
            connection.lastRequest = Clock::now();
            resumed.push_back(outgoing.connection);
        }
    }
    // The lines that waited behind the job, in order, after its response; a stopping daemon takes
    // no new requests.
    if (stopRequested.load())
        return;
    for (const ConnectionId id : resumed) {
        if (const auto found = connections.find(id); found != connections.end())
            handlePending(found->second);
    }
}

int Server::State::pollTimeout()
{
    const auto owner = worker.running();
    std::optional<Clock::time_point> next = dispatcher.rejections().nextSummary();
    for (const auto &[id, connection] : connections) {
        if ((owner && owner->owner == id) || connection.working)
            continue;
        const Clock::time_point deadline = connection.lastRequest + options.idleTimeout;
        if (!next || deadline < *next)
            next = deadline;
    }
    if (!next)
        return -1;
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(wait, 0, 60000));
}

void Server::State::closeIdle()
{
    const auto owner = worker.running();
    const Clock::time_point now = Clock::now();
    std::vector<ConnectionId> idle;
    for (const auto &[id, connection] : connections) {
        if ((!owner || owner->owner != id) && !connection.working
            && now - connection.lastRequest >= options.idleTimeout)
            idle.push_back(id);
    }
    for (const ConnectionId id : idle) {
        spdlog::info("connection {} (uid {}) idle for {} ms; closing", id, connections.at(id).caller.peer.uid,
            options.idleTimeout.count());
        close(id, "idle");
    }
}

/// While stopping: whether no run or job is left and every answer has gone out, or the time to send
/// them is up.
bool Server::State::doneStopping(std::optional<Clock::time_point> &flushDeadline)
{
    const bool working
        = std::any_of(connections.begin(), connections.end(), [](const auto &entry) { return entry.second.working; });
    if (worker.running() || working)
        return false;
    bool outboxEmpty = false;
    {
        const std::lock_guard lock(outboxMutex);
        outboxEmpty = outbox.empty();
    }
    bool sent = outboxEmpty;
    for (const auto &[id, connection] : connections)
        sent = sent && (connection.closing || connection.outOffset == connection.out.size());
    if (!flushDeadline)
        flushDeadline = Clock::now() + kFlushGrace;
    return sent || Clock::now() >= *flushDeadline;
}

/// Lists the descriptors to wait on: the wake descriptor, the listening socket, then each connection.
/// Returns the index of the first connection's entry.
std::size_t Server::State::fillPollSet(std::vector<pollfd> &fds, std::vector<ConnectionId> &ids, bool stopping) const
{
    fds.clear();
    ids.clear();
    fds.push_back({wakeFd, POLLIN, 0});
    if (options.listenFd >= 0)
        fds.push_back({options.listenFd, POLLIN, 0});
    const std::size_t firstConnection = fds.size();
    for (const auto &[id, connection] : connections) {
        short events = 0;
        // A stopping daemon takes no new requests: one could start another apply. A connection
        // with a job on the pool is read again once the job is done.
        if (!connection.closing && !stopping && !connection.working && connection.pending.empty())
            events |= POLLIN;
        if (connection.outOffset < connection.out.size())
            events |= POLLOUT;
        fds.push_back({connection.fd, events, 0});
        ids.push_back(id);
    }
    return firstConnection;
}

/// Acts on what poll reported: wake-ups, new connections, requests to read and answers to write.
void Server::State::handleEvents(
    const std::vector<pollfd> &fds, const std::vector<ConnectionId> &ids, std::size_t firstConnection, bool stopping)
{
    if (fds[0].revents & POLLIN) {
        std::uint64_t count = 0;
        [[maybe_unused]] const ssize_t got = ::read(wakeFd, &count, sizeof count);
    }
    deliverOutbox();
    if (options.listenFd >= 0 && (fds[1].revents & POLLIN))
        accept();
    for (std::size_t i = firstConnection; i < fds.size(); ++i) {
        const auto found = connections.find(ids[i - firstConnection]);
        if (found == connections.end())
            continue;
        Connection &connection = found->second;
        if (!stopping && !connection.working && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
            readFrom(connection);
        } else if (fds[i].revents & (POLLHUP | POLLERR)) {
            // Not read while stopping, a peer that hung up would otherwise wake every poll.
            close(found->first, "hung up");
            continue;
        }
        if (!connection.out.empty())
            writeTo(connection);
        if (connection.closing && connection.outOffset == connection.out.size())
            close(found->first, "closed");
    }
}

Server::Server(ServerOptions options)
    : m_state(std::make_unique<State>(std::move(options)))
{
    m_state->wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

Server::~Server()
{
    for (auto &[id, connection] : m_state->connections)
        ::close(connection.fd);
    m_state->connections.clear();
    if (m_state->options.listenFd >= 0)
        ::close(m_state->options.listenFd);
    // The worker is joined by State's destructor before the wake descriptor goes.
    const int wakeFd = m_state->wakeFd;
    m_state.reset();
    if (wakeFd >= 0)
        ::close(wakeFd);
}

void Server::requestStop()
{
    m_state->stopRequested.store(true);
    m_state->wake();
}

Result<void> Server::run()
{
    State &state = *m_state;
    if (state.wakeFd < 0)
        return Error {"server", "cannot create an eventfd: " + errnoText(errno)};
    if (!setNonBlocking(state.options.listenFd))
        return Error {"server", "the listening socket cannot be made non-blocking: " + errnoText(errno)};
    bool stopping = false;
    std::optional<Clock::time_point> flushDeadline;
    std::vector<pollfd> fds;
    std::vector<ConnectionId> ids;
    while (true) {
        if (state.stopRequested.load() && !stopping) {
            stopping = true;
            spdlog::info("stopping: no new connections; a running apply is cancelled");
            ::close(state.options.listenFd);
            state.options.listenFd = -1;
        }
        // Checked on every turn: a job on the work pool may start an apply after the stop.
        if (stopping) {
            if (const auto going = state.worker.running())
                state.worker.cancel(going->run);
            state.dispatcher.cancelFleetWork(std::nullopt);
        }
        if (stopping && state.doneStopping(flushDeadline)) {
            state.dispatcher.rejections().flushAll();
            return {};
        }

        const std::size_t firstConnection = state.fillPollSet(fds, ids, stopping);
        int timeout = state.pollTimeout();
        if (flushDeadline)
            timeout = timeout < 0 ? 100 : std::min(timeout, 100);
        if (::poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR)
            return Error {"server", "poll failed: " + errnoText(errno)};

        state.handleEvents(fds, ids, firstConnection, stopping);
        state.closeIdle();
        state.dispatcher.rejections().flush();
    }
}

} // namespace ccm::daemon
