// SPDX-License-Identifier: Apache-2.0
#include "designer/core/backend_client.h"

#include "designer/core/json_members.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocalSocket>
#include <QStandardPaths>
#include <QThreadPool>

#include <array>
#include <memory>

namespace ccm::designer {
namespace {

using protocol::kMaxNesting;
/// How often, 50 ms apart, a freshly started backend is tried before giving up (10 s).
constexpr int kStartTries = 200;
constexpr int kStartRetryMs = 50;
constexpr int kHelloTimeoutMs = 10000;
/// The backend closes connections idle for 60 s; a hello now and then keeps ours open.
constexpr int kKeepAliveMs = 30000;
constexpr qsizetype kStderrTailBytes = 2000;
constexpr std::array kBackoffMs {200, 1000, 3000, 5000};

QString socketErrorText(QLocalSocket::LocalSocketError error, const QString &fallback)
{
    switch (error) {
    case QLocalSocket::ConnectionRefusedError:
        return BackendClient::tr("connection refused; the backend is not running");
    case QLocalSocket::ServerNotFoundError:
        return BackendClient::tr("the socket is not there");
    case QLocalSocket::SocketAccessError:
        return BackendClient::tr("permission denied; join the group ccm-designer, then log in again");
    default:
        return fallback;
    }
}

QString unauthorizedText(const QString &role)
{
    return BackendClient::tr("your role on this backend is '%1': join the group ccm-designer to preview and "
                             "ccm-apply to apply, then log in again")
        .arg(role);
}

} // namespace

Run::Run(BackendClient *client)
    : QObject(client)
    , m_client(client)
{
}

void Run::cancel()
{
    if (m_done)
        return;
    m_cancelRequested = true;
    if (!m_id.isEmpty())
        sendCancel();
}

void Run::learnId(const QString &id)
{
    m_id = id;
    if (m_cancelRequested)
        sendCancel();
}

void Run::sendCancel()
{
    if (m_cancelSent)
        return;
    m_cancelSent = true;
    m_client->sendCancel(m_id, [self = QPointer<Run>(this)](bool accepted) {
        if (self)
            emit self->cancelAnswered(accepted);
    });
}

void Run::finish(const Json &result)
{
    if (m_done)
        return;
    m_done = true;
    if (m_id.isEmpty())
        m_id = stringOf(result, "run");
    if (m_client->m_run == this)
        m_client->m_run = nullptr;
    emit finished(result);
    deleteLater();
}

void Run::fail(const QString &message, const Json &data)
{
    if (m_done)
        return;
    m_done = true;
    if (m_client->m_run == this)
        m_client->m_run = nullptr;
    emit failed(message, data);
    deleteLater();
}

BackendClient::BackendClient(QObject *parent)
    : QObject(parent)
    , m_systemSocket(QStringLiteral("/run/ccm-designer/backend.sock"))
{
    m_startTimer.setSingleShot(true);
    connect(&m_startTimer, &QTimer::timeout, this, [this] { connectSocket(userSocket()); });
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &BackendClient::attempt);
    m_helloTimer.setSingleShot(true);
    connect(&m_helloTimer, &QTimer::timeout, this, [this] {
        attemptFailed(tr("the backend at %1 did not answer backend.hello within %2 seconds")
                          .arg(m_socketPath)
                          .arg(kHelloTimeoutMs / 1000));
    });
    m_keepAlive.setInterval(kKeepAliveMs);
    connect(&m_keepAlive, &QTimer::timeout, this, [this] {
        if (m_state == State::Connected && !m_run)
            sendHello();
    });
}

BackendClient::~BackendClient()
{
    m_reconnectTimer.stop();
    dropSocket();
    stopEmbedded();
}

QString BackendClient::userSocket() const
{
    // Looked up when needed: the lookup warns when XDG_RUNTIME_DIR is unset, which a client given
    // its own socket should not do.
    if (!m_userSocket.isEmpty())
        return m_userSocket;
    return QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation)
        + QStringLiteral("/ccm-designer/backend.sock");
}

qint64 BackendClient::embeddedProcessId() const
{
    return m_process && m_process->state() != QProcess::NotRunning ? m_process->processId() : 0;
}

void BackendClient::connectToBackend()
{
    if (m_state != State::Idle)
        return;
    m_reconnectTimer.stop();
    m_reconnecting = false;
    m_backoffStep = 0;
    m_lastReported.clear();
    attempt();
}

void BackendClient::disconnectFromBackend()
{
    m_reconnecting = false;
    m_reconnectTimer.stop();
    m_startTimer.stop();
    const bool wasConnected = m_state == State::Connected;
    failRun(tr("the connection to the backend was closed"));
    dropSocket();
    m_state = State::Idle;
    stopEmbedded();
    if (wasConnected)
        emit disconnected();
}

void BackendClient::attempt()
{
    m_state = State::Connecting;
    m_userSocketMode = m_userOnly || !QFileInfo::exists(m_systemSocket);
    connectSocket(m_userSocketMode ? userSocket() : m_systemSocket);
}

void BackendClient::connectSocket(const QString &path)
{
    dropSocket();
    m_socketPath = path;
    m_socket = new QLocalSocket(this);
    connect(m_socket, &QLocalSocket::connected, this, &BackendClient::socketConnected);
    connect(m_socket, &QLocalSocket::readyRead, this, &BackendClient::readLines);
    connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
        if (m_state == State::Connecting || m_state == State::Starting)
            socketFailed(socketErrorText(error, m_socket ? m_socket->errorString() : QString()));
    });
    connect(m_socket, &QLocalSocket::disconnected, this, [this] {
        if (m_state == State::Greeting || m_state == State::Connected)
            socketClosed();
    });
    m_socket->connectToServer(path);
}

void BackendClient::socketFailed(const QString &reason)
{
    if (m_state == State::Starting) {
        retryEmbeddedConnect();
        return;
    }
    if (m_userSocketMode) {
        if (m_process && m_process->state() != QProcess::NotRunning) {
            // Our backend runs but refused: it may be restarting its listener; give it time.
            m_state = State::Starting;
            m_startTries = 0;
            retryEmbeddedConnect();
        } else {
            startEmbedded();
        }
        return;
    }
    attemptFailed(tr("cannot connect to the backend at %1: %2").arg(m_socketPath, reason));
}

void BackendClient::retryEmbeddedConnect()
{
    dropSocket();
    if (++m_startTries > kStartTries) {
        attemptFailed(tr("the backend was started but does not accept connections on %1; its output: %2")
                          .arg(userSocket(), stderrTail()));
        return;
    }
    m_startTimer.start(kStartRetryMs);
}

void BackendClient::socketConnected()
{
    m_state = State::Greeting;
    m_buffer.clear();
    m_skippingLongLine = false;
    m_helloTimer.start(kHelloTimeoutMs);
    sendHello();
}

void BackendClient::sendHello()
{
    Json params {{"client", "ccm-designer"}, {"version", QCoreApplication::applicationVersion().toStdString()}};
    request(QStringLiteral("backend.hello"), std::move(params), [this](const Reply &reply) {
        if (m_state == State::Greeting)
            helloAnswered(reply);
    });
}

void BackendClient::helloAnswered(const Reply &reply)
{
    m_helloTimer.stop();
    if (!reply.ok) {
        attemptFailed(tr("the backend refused backend.hello: %1").arg(reply.message), false);
        return;
    }
    const std::optional<qint64> protocol = integerOf(reply.result, "protocol");
    if (protocol != kProtocol) {
        const QString spoken = protocol ? QString::number(*protocol) : tr("an unknown version");
        stopEmbedded();
        attemptFailed(tr("the backend speaks protocol %1; this designer needs %2. Install the ccm-backend "
                         "that belongs to this designer.")
                          .arg(spoken)
                          .arg(kProtocol),
            false);
        return;
    }
    BackendInfo info;
    info.server = stringOf(reply.result, "server");
    info.version = stringOf(reply.result, "version");
    info.role = stringOf(reply.result, "role");
    info.user = stringOf(reply.result, "user");
    if (info.user.isEmpty()) {
        if (const auto uid = integerOf(reply.result, "uid"))
            info.user = QString::number(*uid);
    }
    info.protocol = kProtocol;
    info.socketPath = m_socketPath;
    info.embedded = m_userSocketMode && m_process && m_process->state() != QProcess::NotRunning;
    m_info = info;
    m_state = State::Connected;
    m_reconnecting = false;
    m_backoffStep = 0;
    m_lastReported.clear();
    m_keepAlive.start();
    emit connected(m_info);
    if (m_info.role != QLatin1String("preview") && m_info.role != QLatin1String("apply"))
        report(unauthorizedText(m_info.role));
}

void BackendClient::socketClosed()
{
    const bool wasConnected = m_state == State::Connected;
    if (!wasConnected) {
        attemptFailed(tr("the backend at %1 closed the connection before answering backend.hello").arg(m_socketPath));
        return;
    }
    if (m_run && m_process && m_process->state() != QProcess::NotRunning)
        m_process->waitForFinished(500); // to say why the run failed when our backend died
    const QString why = m_exitDescription.isEmpty() ? tr("the connection closed") : m_exitDescription;
    failRun(tr("the backend stopped during the run (%1)").arg(why));
    dropSocket();
    m_state = State::Idle;
    emit disconnected();
    m_reconnecting = true;
    m_backoffStep = 0;
    m_lastReported.clear();
    report(tr("the connection to the backend at %1 was lost (%2); reconnecting").arg(m_socketPath, why));
    scheduleReconnect();
}

void BackendClient::readLines()
{
    if (!m_socket)
        return;
    m_buffer += m_socket->readAll();
    qsizetype start = 0;
    while (!m_parsing) {
        const qsizetype newline = m_buffer.indexOf('\n', start);
        if (newline < 0)
            break;
        const qsizetype length = newline - start;
        if (m_skippingLongLine)
            m_skippingLongLine = false;
        else if (length > kMaxLineBytes)
            report(tr("the backend sent a line longer than %1 bytes; it was skipped").arg(kMaxLineBytes));
        else if (length > kBackgroundParseBytes)
            parseInBackground(m_buffer.mid(start, length));
        else
            handleLine(m_buffer.mid(start, length));
        if (!m_socket)
            return; // the line ended the connection, and the buffer with it
        start = newline + 1;
    }
    m_buffer.remove(0, start);
    // While a line is parsed, the lines after it wait here whole; only a line without its end
    // counts against the limit.
    const qsizetype unfinished = m_buffer.size() - (m_buffer.lastIndexOf('\n') + 1);
    if (unfinished > kMaxLineBytes) {
        if (!m_skippingLongLine)
            report(tr("the backend sent a line longer than %1 bytes; it was skipped").arg(kMaxLineBytes));
        m_skippingLongLine = true;
        m_buffer.truncate(m_buffer.size() - unfinished);
    }
}

namespace {

/// Why a line of the backend is not a message.
enum class LineProblem { None, Blank, TooDeep, NotJson, NotObject };

struct ParsedLine {
    Json message;
    LineProblem problem = LineProblem::None;
    QString detail;
};

/// Parses one line of the backend. Safe on any thread: it touches nothing but its argument.
ParsedLine parseBackendLine(const QByteArray &line)
{
    const QByteArray text = line.endsWith('\r') ? line.chopped(1) : line;
    if (text.trimmed().isEmpty())
        return {{}, LineProblem::Blank, {}};
    const std::string_view view(text.constData(), std::size_t(text.size()));
    if (jsonNestingBeyond(view, kMaxNesting))
        return {{}, LineProblem::TooDeep, {}};
    ParsedLine parsed;
    try {
        parsed.message = Json::parse(view);
    } catch (const Json::exception &error) {
        return {{}, LineProblem::NotJson, QString::fromUtf8(error.what())};
    }
    if (!parsed.message.is_object())
        return {{}, LineProblem::NotObject, {}};
    return parsed;
}

} // namespace

void BackendClient::handleLine(const QByteArray &line)
{
    const ParsedLine parsed = parseBackendLine(line);
    handleParsed(parsed.message, int(parsed.problem), parsed.detail);
}

void BackendClient::parseInBackground(QByteArray line)
{
    m_parsing = true;
    const quint64 serial = m_connectionSerial;
    const QPointer<BackendClient> guard(this);
    QThreadPool::globalInstance()->start([guard, serial, line = std::move(line)] {
        auto parsed = std::make_shared<ParsedLine>(parseBackendLine(line));
        // Back on the client's thread; dropped when the client or its connection has gone.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, serial, parsed] {
                if (!guard || guard->m_connectionSerial != serial)
                    return;
                guard->m_parsing = false;
                guard->handleParsed(parsed->message, int(parsed->problem), parsed->detail);
                guard->readLines();
            },
            Qt::QueuedConnection);
    });
}

void BackendClient::handleParsed(const Json &message, int problem, const QString &detail)
{
    switch (LineProblem(problem)) {
    case LineProblem::None:
        break;
    case LineProblem::Blank:
        return;
    case LineProblem::TooDeep:
        report(tr("the backend sent JSON nested deeper than %1 levels; the line was skipped").arg(kMaxNesting));
        return;
    case LineProblem::NotJson:
        report(tr("the backend sent a line that is not JSON (%1); it was skipped").arg(detail));
        return;
    case LineProblem::NotObject:
        report(tr("the backend sent a line that is not a JSON object; it was skipped"));
        return;
    }
    const protocol::MessageKind kind = protocol::classify(message);
    if (kind == protocol::MessageKind::Notification) {
        handleNotification(message["method"].get<std::string>(), message.value("params", Json::object()));
        return;
    }
    if (kind == protocol::MessageKind::Invalid) {
        report(tr("the backend sent a message without an id or a method; it was skipped"));
        return;
    }
    const auto id = message.find("id");
    Reply reply;
    if (const auto result = message.find("result"); result != message.end()) {
        reply.ok = true;
        reply.result = *result;
    } else if (const auto error = message.find("error"); error != message.end() && error->is_object()) {
        reply.code = int(integerOf(*error, "code").value_or(0));
        reply.message = stringOf(*error, "message");
        if (reply.message.isEmpty())
            reply.message = tr("the backend gave an error without a message (code %1)").arg(reply.code);
        reply.data = error->value("data", Json());
    } else {
        report(tr("the backend sent an answer with neither result nor error; it was skipped"));
        return;
    }
    if (!id->is_number_integer()) {
        if (!reply.ok)
            report(tr("the backend reported: %1").arg(reply.message));
        return;
    }
    const auto pending = m_pending.find(id->get<qint64>());
    if (pending == m_pending.end())
        return;
    const ReplyHandler handler = std::move(pending->second);
    m_pending.erase(pending);
    handler(reply);
}

void BackendClient::handleNotification(const std::string &method, const Json &params)
{
    if (!method.starts_with("apply.")) {
        emit notificationReceived(QString::fromStdString(method), params);
        return;
    }
    if (!m_run || !params.is_object())
        return;
    const QString runId = stringOf(params, "run");
    if (runId.isEmpty())
        return;
    if (m_run->id().isEmpty())
        m_run->learnId(runId);
    else if (m_run->id() != runId)
        return;
    if (!m_run)
        return;
    if (method == "apply.progress") {
        emit m_run->progress(int(integerOf(params, "done").value_or(0)), int(integerOf(params, "total").value_or(0)),
            stringOf(params, "current"));
    } else if (method == "apply.event") {
        const auto event = params.find("event");
        if (event != params.end() && event->is_object())
            emit m_run->transactionEvent(*event);
    } else if (method == "apply.log") {
        emit m_run->log(stringOf(params, "level"), stringOf(params, "resource"), stringOf(params, "message"));
    } else if (method == "apply.message") {
        emit m_run->message(stringOf(params, "text"));
    }
}

qint64 BackendClient::request(const QString &method, Json params, ReplyHandler handler)
{
    if (!m_socket)
        return 0;
    const qint64 id = m_nextId++;
    const Json message {
        {"jsonrpc", "2.0"}, {"id", id}, {"method", method.toStdString()}, {"params", std::move(params)}};
    std::string line = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    line += '\n';
    m_pending.emplace(id, std::move(handler));
    m_socket->write(line.data(), qint64(line.size()));
    return id;
}

void BackendClient::call(const QString &method, Json params, AnswerHandler done)
{
    if (m_state != State::Connected) {
        QTimer::singleShot(0, this, [done = std::move(done)] {
            done(Answer {false, Json(), 0, tr("not connected to the backend"), Json()});
        });
        return;
    }
    // The id request() is about to give.
    const qint64 id = m_nextId;
    m_calls.emplace(id, std::move(done));
    request(method, std::move(params), [this, id](const Reply &reply) {
        const auto found = m_calls.find(id);
        if (found == m_calls.end())
            return;
        const AnswerHandler handler = std::move(found->second);
        m_calls.erase(found);
        handler(Answer {reply.ok, reply.result, reply.code,
            reply.ok ? QString() : errorText(reply.code, reply.message, reply.data), reply.data});
    });
}

void BackendClient::failCalls(const QString &message)
{
    if (m_calls.empty())
        return;
    std::map<qint64, AnswerHandler> calls;
    calls.swap(m_calls);
    // Later, so that no caller's handler runs inside the socket's teardown.
    QTimer::singleShot(0, this, [calls = std::move(calls), message] {
        for (const auto &[id, handler] : calls)
            handler(Answer {false, Json(), 0, message, Json()});
    });
}

void BackendClient::sendCancel(const QString &runId, std::function<void(bool accepted)> answered)
{
    // The run may end before the cancel arrives; the backend then answers "unknown run".
    request(QStringLiteral("apply.cancel"), Json {{"run", runId.toStdString()}},
        [answered = std::move(answered)](const Reply &reply) { answered(reply.ok); });
}

Run *BackendClient::startRun(const RunRequest &runRequest)
{
    auto *run = new Run(this);
    QString refusal;
    if (m_run)
        refusal = tr("a run is already going on this connection; wait for it to end or cancel it");
    else if (m_state != State::Connected)
        refusal = tr("not connected to the backend");
    if (!refusal.isEmpty()) {
        QTimer::singleShot(0, run, [run, refusal] { run->fail(refusal, Json()); });
        return run;
    }
    m_run = run;
    Json params {{"manifest", runRequest.manifest.toStdString()}};
    if (!runRequest.baseDirectory.isEmpty())
        params["base_dir"] = runRequest.baseDirectory.toStdString();
    params["noop"] = runRequest.noop;
    if (runRequest.facts.is_object())
        params["facts"] = runRequest.facts;
    if (runRequest.data.is_object())
        params["data"] = runRequest.data;
    const QPointer<Run> guard(run);
    request(QStringLiteral("apply.start"), std::move(params), [guard](const Reply &reply) {
        if (!guard)
            return;
        if (!reply.ok)
            guard->fail(errorText(reply.code, reply.message, reply.data), reply.data);
        else if (!reply.result.is_object())
            guard->fail(tr("the backend's answer to apply.start is not an object"), Json());
        else
            guard->finish(reply.result);
    });
    return run;
}

QString BackendClient::errorText(int code, const QString &message, const Json &data)
{
    if (code == static_cast<int>(protocol::ErrorCode::Unauthorized))
        return tr("%1: %2").arg(message, unauthorizedText(stringOf(data, "role")));
    if (code == static_cast<int>(protocol::ErrorCode::Busy))
        return tr("another apply is running on this backend; try again when it has ended");
    return message;
}

std::optional<QString> BackendClient::findProgram(QString *lookedIn) const
{
    const auto usable = [](const QString &path) {
        const QFileInfo info(path);
        return info.isFile() && info.isExecutable();
    };
    if (!m_program.isEmpty()) {
        *lookedIn = m_program;
        return usable(m_program) ? std::optional(m_program) : std::nullopt;
    }
    const QString fromEnvironment = qEnvironmentVariable("CCM_BACKEND");
    if (!fromEnvironment.isEmpty()) {
        *lookedIn = tr("%1 (from CCM_BACKEND)").arg(fromEnvironment);
        return usable(fromEnvironment) ? std::optional(fromEnvironment) : std::nullopt;
    }
    const QString besideUs = QCoreApplication::applicationDirPath() + QStringLiteral("/ccm-backend");
    if (usable(besideUs))
        return besideUs;
    const QString inPath = QStandardPaths::findExecutable(QStringLiteral("ccm-backend"));
    if (!inPath.isEmpty())
        return inPath;
    *lookedIn = tr("%1 and the directories of PATH").arg(besideUs);
    return std::nullopt;
}

void BackendClient::startEmbedded()
{
    dropSocket();
    QString lookedIn;
    const std::optional<QString> program = findProgram(&lookedIn);
    if (!program) {
        attemptFailed(tr("the backend program ccm-backend was not found (looked in %1); install it or set "
                         "CCM_BACKEND to its path")
                          .arg(lookedIn));
        return;
    }
    stopEmbedded();
    m_stderr.clear();
    m_exitDescription.clear();
    m_process = new QProcess(this);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_process->readAllStandardError();
        if (m_stderr.size() > kStderrTailBytes)
            m_stderr = m_stderr.right(kStderrTailBytes);
    });
    connect(m_process, &QProcess::finished, this, &BackendClient::embeddedFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this, program = *program](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        const QString reason = m_process->errorString();
        m_process->deleteLater();
        m_process = nullptr;
        if (m_state == State::Starting)
            attemptFailed(tr("could not start the backend %1: %2").arg(program, reason));
    });
    m_state = State::Starting;
    m_startTries = 0;
    m_process->start(
        *program, {QStringLiteral("serve"), QStringLiteral("--user"), QStringLiteral("--socket"), userSocket()});
    m_startTimer.start(kStartRetryMs);
}

void BackendClient::embeddedFinished(int exitCode, QProcess::ExitStatus status)
{
    m_stderr += m_process->readAllStandardError();
    m_exitDescription = status == QProcess::CrashExit ? tr("the backend process was killed or crashed")
                                                      : tr("the backend process exited with status %1").arg(exitCode);
    m_process->deleteLater();
    m_process = nullptr;
    if (m_state == State::Starting) {
        m_startTimer.stop();
        attemptFailed(tr("%1 while starting: %2").arg(m_exitDescription, stderrTail()));
    }
}

void BackendClient::stopEmbedded()
{
    if (!m_process)
        return;
    QProcess *process = m_process;
    m_process = nullptr;
    disconnect(process, nullptr, this, nullptr);
    if (process->state() != QProcess::NotRunning) {
        process->terminate();
        if (!process->waitForFinished(3000)) {
            process->kill();
            process->waitForFinished(1000);
        }
    }
    delete process;
}

QString BackendClient::stderrTail() const
{
    const QString text = QString::fromUtf8(m_stderr).trimmed();
    return text.isEmpty() ? tr("(no output)") : text;
}

void BackendClient::attemptFailed(const QString &message, bool retry)
{
    m_helloTimer.stop();
    m_startTimer.stop();
    dropSocket();
    m_state = State::Idle;
    if (m_reconnecting && retry) {
        if (message != m_lastReported)
            report(message);
        scheduleReconnect();
        return;
    }
    m_reconnecting = false;
    report(message);
}

void BackendClient::scheduleReconnect()
{
    const auto step = std::min<std::size_t>(std::size_t(m_backoffStep), kBackoffMs.size() - 1);
    ++m_backoffStep;
    m_reconnectTimer.start(kBackoffMs.at(step));
}

void BackendClient::dropSocket()
{
    failCalls(tr("the connection to the backend was lost before it answered"));
    m_helloTimer.stop();
    m_keepAlive.stop();
    m_pending.clear();
    m_buffer.clear();
    m_skippingLongLine = false;
    // A line still being parsed belongs to this connection: it is dropped when it comes back.
    m_parsing = false;
    ++m_connectionSerial;
    if (!m_socket)
        return;
    QLocalSocket *socket = m_socket;
    m_socket = nullptr;
    disconnect(socket, nullptr, this, nullptr);
    socket->abort();
    socket->deleteLater();
}

void BackendClient::failRun(const QString &message)
{
    if (m_run)
        m_run->fail(message, Json());
}

void BackendClient::report(const QString &message)
{
    m_lastReported = message;
    emit errorOccurred(message);
}

} // namespace ccm::designer
