// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "protocol/protocol.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <QTimer>

#include <functional>
#include <map>
#include <optional>

class QLocalSocket;

namespace ccm::designer {

/// Who answered backend.hello, and where.
struct BackendInfo {
    QString server;
    QString version;
    QString role; ///< "preview", "apply" or "none"
    QString user; ///< the user name, or the uid when the backend has no name for it
    int protocol = 0;
    QString socketPath;
    bool embedded = false; ///< a user backend this client started and stops
};

/// What apply.start is asked to do.
struct RunRequest {
    QString manifest; ///< the manifest's YAML text
    QString baseDirectory; ///< absolute; empty leaves the backend's default
    bool noop = true;
    ccm::Json facts; ///< an object merged over the gathered facts, or null
    ccm::Json data; ///< an object of data for the manifest, or null
};

class BackendClient;

/// One apply.start on a BackendClient's connection. The client owns it and deletes it later,
/// once finished() or failed() has been emitted; exactly one of them is emitted.
class Run : public QObject {
    Q_OBJECT

public:
    /// The backend's id of the run; empty until its first notification or its answer.
    [[nodiscard]] QString id() const { return m_id; }
    /// Whether finished() or failed() has been emitted.
    [[nodiscard]] bool isDone() const { return m_done; }

    /// Asks the backend to stop before the next resource. The run then finishes with
    /// cancelled: true. Before the id is known, the request is sent as soon as it is.
    void cancel();

signals:
    /// Before each resource: `done` of `total` have run and `current` ("type#name") runs next.
    void progress(int done, int total, const QString &current);
    /// One TransactionEvent, as a line of `ccm-backend apply --json`.
    void transactionEvent(const ccm::Json &event);
    /// A log line of the run; `resource` is empty when the line concerns no single resource.
    void log(const QString &level, const QString &resource, const QString &message);
    /// The manifest's pre_message or post_message.
    void message(const QString &text);
    /// The answer: run, summary, cancelled, aborted, noop.
    void finished(const ccm::Json &result);
    /// The run did not start or did not end with an answer; `data` carries the error's data (for
    /// invalid_manifest its diagnostics), or null.
    void failed(const QString &message, const ccm::Json &data);
    /// The backend answered cancel(): `accepted` when the run was still going and stops before its
    /// next resource, false when it had already ended.
    void cancelAnswered(bool accepted);

private:
    friend class BackendClient;
    explicit Run(BackendClient *client);

    void learnId(const QString &id);
    void sendCancel();
    void finish(const ccm::Json &result);
    void fail(const QString &message, const ccm::Json &data);

    BackendClient *m_client;
    QString m_id;
    bool m_cancelRequested = false;
    bool m_cancelSent = false;
    bool m_done = false;
};

/// The designer's connection to ccm-backend: JSON-RPC 2.0 over a local socket, one JSON object a
/// line. It takes the system backend when its socket exists, else a user backend on the user's
/// runtime socket, started here when none listens there and stopped when this client goes. After
/// the connection drops it reconnects with a growing delay, restarting its own backend if needed.
class BackendClient : public QObject {
    Q_OBJECT

public:
    /// The protocol this client speaks.
    static constexpr int kProtocol = protocol::kProtocolVersion;
    /// Longer lines from the backend are reported and skipped; the backend's own limit is 16 MiB.
    static constexpr qsizetype kMaxLineBytes = qsizetype(64) * 1024 * 1024;
    /// Lines longer than this (a large fleet's preview result, a capture) are parsed on a worker
    /// thread, so that parsing them does not hold up the event loop for a visible time.
    static constexpr qsizetype kBackgroundParseBytes = qsizetype(256) * 1024;

    explicit BackendClient(QObject *parent = nullptr);
    ~BackendClient() override;

    /// The system backend's socket; "/run/ccm-designer/backend.sock" unless set.
    void setSystemSocket(const QString &path) { m_systemSocket = path; }
    /// The user backend's socket; "<runtime dir>/ccm-designer/backend.sock" unless set.
    void setUserSocket(const QString &path) { m_userSocket = path; }
    /// Only the user backend: the system socket is never tried (for the fleet methods, which a
    /// backend serves only to its own user).
    void setUserOnly(bool userOnly) { m_userOnly = userOnly; }
    /// The ccm-backend binary to start; unset means $CCM_BACKEND, then ccm-backend next to this
    /// program, then in PATH.
    void setBackendProgram(const QString &path) { m_program = path; }
    [[nodiscard]] QString systemSocket() const { return m_systemSocket; }
    [[nodiscard]] QString backendProgram() const { return m_program; }
    [[nodiscard]] QString userSocket() const;

    /// Connects as described for the class; connected() or errorOccurred() follows.
    void connectToBackend();
    /// Closes the connection, fails a running run, stops an embedded backend and stops
    /// reconnecting. Emits disconnected() when a connection was up.
    void disconnectFromBackend();

    [[nodiscard]] bool isConnected() const { return m_state == State::Connected; }
    /// The last backend.hello answer; meaningful while connected.
    [[nodiscard]] const BackendInfo &info() const { return m_info; }
    /// The process id of the embedded backend, or 0 when none runs.
    [[nodiscard]] qint64 embeddedProcessId() const;

    /// Starts apply.start with `request`. One run at a time: while another run is going, or when
    /// not connected, the returned run fails right after this returns.
    Run *startRun(const RunRequest &request);
    /// The run going on, or null.
    [[nodiscard]] Run *currentRun() const { return m_run; }

    /// The answer to call(): the result, or an error with its code, message and data.
    struct Answer {
        bool ok = false;
        ccm::Json result;
        int code = 0;
        QString message;
        ccm::Json data;
    };
    using AnswerHandler = std::function<void(const Answer &)>;

    /// Sends `method` with `params`. `done` gets the answer once; when not connected, or when the
    /// connection goes before the answer, it gets an error answer (code 0) saying so, after this
    /// returns. Notifications that come meanwhile are emitted as notificationReceived().
    void call(const QString &method, ccm::Json params, AnswerHandler done);

    /// The text for an error answer: the explanations of unauthorized and busy, the backend's
    /// message otherwise.
    [[nodiscard]] static QString errorText(int code, const QString &message, const ccm::Json &data);

signals:
    /// The backend answered backend.hello with the protocol this client speaks.
    void connected(const ccm::designer::BackendInfo &info);
    /// A connection that was up is gone; a running run has failed before this.
    void disconnected();
    /// A notification that belongs to no run (bundle.progress).
    void notificationReceived(const QString &method, const ccm::Json &params);
    /// Something went wrong with the connection or the backend, in words for the user. A run's
    /// own errors go to its failed() instead.
    void errorOccurred(const QString &message);

private:
    friend class Run;

    enum class State { Idle, Connecting, Starting, Greeting, Connected };

    /// The answer to one request: `result`, or an error.
    struct Reply {
        bool ok = false;
        ccm::Json result;
        int code = 0;
        QString message;
        ccm::Json data;
    };
    using ReplyHandler = std::function<void(const Reply &)>;

    void attempt();
    void connectSocket(const QString &path);
    void socketConnected();
    void socketFailed(const QString &reason);
    void socketClosed();
    void readLines();
    void handleLine(const QByteArray &line);
    /// Parses a long line on a worker thread; the lines after it wait in m_buffer until it is
    /// handled.
    void parseInBackground(QByteArray line);
    /// A parsed line: the message, or `problem` (a LineProblem of the .cpp) with its detail.
    void handleParsed(const ccm::Json &message, int problem, const QString &detail);
    void handleNotification(const std::string &method, const ccm::Json &params);
    void sendHello();
    void helloAnswered(const Reply &reply);
    qint64 request(const QString &method, ccm::Json params, ReplyHandler handler);
    void failCalls(const QString &message);
    void sendCancel(const QString &runId, std::function<void(bool accepted)> answered);

    [[nodiscard]] std::optional<QString> findProgram(QString *lookedIn) const;
    void startEmbedded();
    void retryEmbeddedConnect();
    void embeddedFinished(int exitCode, QProcess::ExitStatus status);
    void stopEmbedded();
    [[nodiscard]] QString stderrTail() const;

    /// A failure that ends this attempt: reported, then retried when reconnecting.
    void attemptFailed(const QString &message, bool retry = true);
    void scheduleReconnect();
    void dropSocket();
    void failRun(const QString &message);
    void report(const QString &message);

    QString m_systemSocket;
    QString m_userSocket;
    QString m_program;
    bool m_userOnly = false;
    /// The ids of call() requests waiting for their answer, failed when the connection goes.
    std::map<qint64, AnswerHandler> m_calls;

    State m_state = State::Idle;
    BackendInfo m_info;
    QString m_socketPath;
    bool m_userSocketMode = false; ///< this attempt is for the user backend
    QString m_exitDescription; ///< how the embedded backend ended, for messages
    QLocalSocket *m_socket = nullptr;
    QByteArray m_buffer;
    bool m_skippingLongLine = false;
    /// A line is being parsed on a worker thread: the lines after it wait in m_buffer.
    bool m_parsing = false;
    /// Counts connections, so that a line parsed for a connection that has gone is dropped.
    quint64 m_connectionSerial = 0;
    qint64 m_nextId = 1;
    std::map<qint64, ReplyHandler> m_pending;

    QProcess *m_process = nullptr;
    QByteArray m_stderr;
    QTimer m_startTimer; ///< retries connecting while the embedded backend comes up
    int m_startTries = 0;

    bool m_reconnecting = false;
    int m_backoffStep = 0;
    QTimer m_reconnectTimer;
    QTimer m_helloTimer;
    QTimer m_keepAlive;
    QString m_lastReported;

    QPointer<Run> m_run;
};

} // namespace ccm::designer
