// SPDX-License-Identifier: Apache-2.0
#include "designer/core/backend_client.h"
#include "fake_server.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <grp.h>
#include <memory>
#include <optional>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>

using ccm::Json;
using ccm::designer::BackendClient;
using ccm::designer::BackendInfo;
using ccm::designer::Run;
using ccm::designer::RunRequest;

using namespace ccm::test;

namespace {

/// What one run reported.
struct RunWatch {
    int progress = 0;
    int lastTotal = 0;
    std::vector<Json> events;
    std::optional<Json> result;
    std::optional<QString> failure;
    Json failureData;

    void watch(Run *run)
    {
        QObject::connect(run, &Run::progress, run, [this](int, int total, const QString &) {
            ++progress;
            lastTotal = total;
        });
        QObject::connect(run, &Run::transactionEvent, run, [this](const Json &event) { events.push_back(event); });
        QObject::connect(run, &Run::finished, run, [this](const Json &value) { result = value; });
        QObject::connect(run, &Run::failed, run, [this](const QString &message, const Json &data) {
            failure = message;
            failureData = data;
        });
    }
    [[nodiscard]] bool done() const { return result || failure; }
};

/// A client of a user backend that the client itself starts on a socket in `dir`.
struct Client {
    explicit Client(const QTemporaryDir &dir)
    {
        client.setBackendProgram(s(CCM_BACKEND_BIN));
        client.setUserSocket(dir.filePath(s("backend.sock")));
        client.setSystemSocket(dir.filePath(s("no-system.sock")));
        QObject::connect(
            &client, &BackendClient::errorOccurred, &client, [this](const QString &message) { errors << message; });
        QObject::connect(&client, &BackendClient::connected, &client, [this](const BackendInfo &) { ++connects; });
        QObject::connect(&client, &BackendClient::disconnected, &client, [this] { ++disconnects; });
    }
    bool connect()
    {
        client.connectToBackend();
        return QTest::qWaitFor([this] { return client.isConnected() || !errors.isEmpty(); }, kPatienceMs)
            && client.isConnected();
    }
    bool errorContaining(const QString &part)
    {
        return QTest::qWaitFor(
            [&] {
                for (const QString &error : std::as_const(errors)) {
                    if (error.contains(part))
                        return true;
                }
                return false;
            },
            kPatienceMs);
    }

    BackendClient client;
    QStringList errors;
    int connects = 0;
    int disconnects = 0;
};

/// Holds a real run between its first and second resource: the first waits until the file "go"
/// exists, the second creates "mark".
QString slowManifest(const QTemporaryDir &dir)
{
    return s("ccm:\n  resources:\n    - exec:\n        - wait:\n            command: /bin/sh -c 'while [ ! -e ")
        + dir.filePath(s("go"))
        + s(" ]; do sleep 0.02; done'\n        - mark:\n            command: /bin/sh -c 'touch ")
        + dir.filePath(s("mark")) + s("'\n");
}

bool release(const QTemporaryDir &dir)
{
    return writeFile(dir.filePath(s("go")), QByteArray());
}

/// A script answering every request with `answer` (its id replaced by the request's), after first
/// sending `preamble`.
FakeServer::Script answering(QByteArray preamble, Json answer)
{
    return [preamble = std::move(preamble), answer = std::move(answer)](FakeConnection &peer, QList<QByteArray> &) {
        if (!peer.write(preamble))
            return;
        while (const auto request = peer.readLine()) {
            Json reply = answer;
            try {
                reply["id"] = Json::parse(request->toStdString()).value("id", Json());
            } catch (const Json::exception &) {
                continue;
            }
            if (!peer.write(QByteArray::fromStdString(reply.dump() + "\n")))
                return;
        }
    };
}

Json helloAnswer(int protocol)
{
    return Json {{"jsonrpc", "2.0"}, {"id", 0},
        {"result",
            {{"server", "ccm-backend"}, {"version", "9.9.9"}, {"protocol", protocol}, {"role", "preview"},
                {"user", "alice"}, {"uid", 1000}}}};
}

} // namespace

class TestBackendClient : public QObject {
    Q_OBJECT

private slots:
    void connectsToAnEmbeddedUserBackend()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qint64 pid = 0;
        {
            Client c(dir);
            QVERIFY2(c.connect(), qPrintable(c.errors.join(QLatin1Char('\n'))));
            QCOMPARE(c.connects, 1);
            const BackendInfo &info = c.client.info();
            QCOMPARE(info.server, s("ccm-backend"));
            QCOMPARE(info.role, s("apply"));
            QCOMPARE(info.user, currentUserName());
            QCOMPARE(info.protocol, 1);
            QCOMPARE(info.socketPath, dir.filePath(s("backend.sock")));
            QVERIFY(info.embedded);
            pid = c.client.embeddedProcessId();
            QVERIFY(pid > 0);
            QCOMPARE(::kill(pid_t(pid), 0), 0);
        }
        // The client stopped the backend it started.
        QCOMPARE(::kill(pid_t(pid), 0), -1);
    }

    void secondClientUsesTheRunningUserBackend()
    {
        QTemporaryDir dir;
        Client first(dir);
        QVERIFY(first.connect());
        Client second(dir);
        QVERIFY(second.connect());
        QVERIFY(!second.client.info().embedded);
        QCOMPARE(second.client.embeddedProcessId(), 0);
    }

    void noopPreviewReportsEachResource()
    {
        QTemporaryDir dir;
        const QString existing = dir.filePath(s("existing.txt"));
        const QString missing = dir.filePath(s("missing.txt"));
        QVERIFY(writeFile(existing, "hello\n"));
        QVERIFY(QFile::setPermissions(
            existing, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        const auto file = [](const QString &path) {
            return s("        - ") + path + s(":\n            ensure: present\n            owner: ") + currentUserName()
                + s("\n            group: ") + currentGroupName()
                + s("\n            mode: \"0644\"\n            content: \"hello\\n\"\n");
        };
        RunRequest request;
        request.manifest = s("ccm:\n  resources:\n    - file:\n") + file(existing) + file(missing);
        request.baseDirectory = dir.path();

        Client c(dir);
        QVERIFY(c.connect());
        RunWatch watch;
        Run *run = c.client.startRun(request);
        watch.watch(run);
        QCOMPARE(c.client.currentRun(), run);
        QVERIFY(QTest::qWaitFor([&] { return watch.done(); }, kPatienceMs));
        QVERIFY2(!watch.failure, qPrintable(watch.failure.value_or(QString())));
        QCOMPARE(watch.progress, 2);
        QCOMPARE(watch.lastTotal, 2);
        QCOMPARE(watch.events.size(), std::size_t(2));
        QCOMPARE(watch.events[0].value("resource", ""), "file#" + existing.toStdString());
        QCOMPARE(watch.events[0].value("changed", true), false);
        QCOMPARE(watch.events[1].value("changed", false), true);
        const Json &result = *watch.result;
        QVERIFY(result["summary"]["total"] == 2);
        QVERIFY(result["summary"]["stable"] == 1);
        QVERIFY(result["summary"]["changed"] == 1);
        QVERIFY(result["noop"] == true);
        QVERIFY(result["cancelled"] == false);
        QVERIFY(!QFile::exists(missing));
        QCOMPARE(c.client.currentRun(), nullptr);
    }

    void cancelStopsTheRun()
    {
        QTemporaryDir dir;
        Client c(dir);
        QVERIFY(c.connect());
        RunRequest request;
        request.manifest = slowManifest(dir);
        request.noop = false;
        RunWatch watch;
        Run *run = c.client.startRun(request);
        watch.watch(run);
        std::optional<bool> cancelAccepted;
        QObject::connect(run, &Run::cancelAnswered, run, [&](bool accepted) { cancelAccepted = accepted; });
        // Asked before the run's id is known: sent as soon as it is.
        run->cancel();
        QVERIFY(QTest::qWaitFor([&] { return watch.progress > 0; }, kPatienceMs));
        QVERIFY(!run->id().isEmpty());
        // The first resource waits for "go" until the backend has taken the cancel.
        QVERIFY(QTest::qWaitFor([&] { return cancelAccepted.has_value(); }, kPatienceMs));
        QVERIFY(*cancelAccepted);
        QVERIFY(release(dir));
        QVERIFY(QTest::qWaitFor([&] { return watch.done(); }, kPatienceMs));
        QVERIFY2(watch.result, qPrintable(watch.failure.value_or(QString())));
        QVERIFY((*watch.result)["cancelled"] == true);
        QVERIFY(!QFile::exists(dir.filePath(s("mark"))));
    }

    void invalidManifestFailsWithDiagnostics()
    {
        QTemporaryDir dir;
        Client c(dir);
        QVERIFY(c.connect());
        RunRequest request;
        request.manifest = s("ccm:\n  resources:\n    - file:\n        - /tmp/x:\n            ensure: presnt\n");
        RunWatch watch;
        watch.watch(c.client.startRun(request));
        QVERIFY(QTest::qWaitFor([&] { return watch.done(); }, kPatienceMs));
        QVERIFY(watch.failure);
        QVERIFY(!watch.failure->isEmpty());
        QVERIFY(watch.failureData["diagnostics"].is_array());
        QVERIFY(!watch.failureData["diagnostics"].empty());
    }

    void secondApplyOnTheBackendIsBusy()
    {
        QTemporaryDir dir;
        Client first(dir);
        QVERIFY(first.connect());
        Client second(dir);
        QVERIFY(second.connect());
        RunRequest slow;
        slow.manifest = slowManifest(dir);
        slow.noop = false;
        RunWatch running;
        running.watch(first.client.startRun(slow));
        QVERIFY(QTest::qWaitFor([&] { return running.progress > 0; }, kPatienceMs));

        RunWatch refused;
        refused.watch(second.client.startRun(slow));
        QVERIFY(QTest::qWaitFor([&] { return refused.done(); }, kPatienceMs));
        QVERIFY(refused.failure);
        QVERIFY2(
            refused.failure->contains(s("another apply is running on this backend")), qPrintable(*refused.failure));

        QVERIFY(release(dir));
        QVERIFY(QTest::qWaitFor([&] { return running.done(); }, kPatienceMs));
        QVERIFY(running.result);
    }

    void oneRunAtATimePerClient()
    {
        QTemporaryDir dir;
        Client c(dir);
        QVERIFY(c.connect());
        RunRequest slow;
        slow.manifest = slowManifest(dir);
        slow.noop = false;
        RunWatch running;
        running.watch(c.client.startRun(slow));
        RunWatch refused;
        refused.watch(c.client.startRun(slow));
        QVERIFY(QTest::qWaitFor([&] { return refused.done(); }, kPatienceMs));
        QVERIFY(refused.failure);
        QVERIFY(refused.failure->contains(s("already going")));
        QVERIFY(release(dir));
        QVERIFY(QTest::qWaitFor([&] { return running.done(); }, kPatienceMs));
        QVERIFY(running.result);
    }

    void runWithoutConnectionFails()
    {
        BackendClient client;
        RunWatch watch;
        watch.watch(client.startRun(RunRequest {}));
        QVERIFY(QTest::qWaitFor([&] { return watch.done(); }, kPatienceMs));
        QVERIFY(watch.failure);
        QVERIFY(watch.failure->contains(s("not connected")));
    }

    void callsAnswerOnceAndFailWithoutAConnection()
    {
        BackendClient offline;
        std::optional<BackendClient::Answer> refused;
        offline.call(s("bundle.list"), Json::object(), [&](const BackendClient::Answer &answer) { refused = answer; });
        QVERIFY(!refused); // not from inside call()
        QVERIFY(QTest::qWaitFor([&] { return refused.has_value(); }, kPatienceMs));
        QVERIFY(!refused->ok);
        QVERIFY(refused->message.contains(s("not connected")));

        QTemporaryDir dir;
        Client c(dir);
        QVERIFY(c.connect());
        std::optional<BackendClient::Answer> listed;
        c.client.call(s("bundle.list"),
            Json {{"manifest", "ccm:\n  resources: []\n"}, {"base_dir", dir.path().toStdString()}},
            [&](const BackendClient::Answer &answer) { listed = answer; });
        QVERIFY(QTest::qWaitFor([&] { return listed.has_value(); }, kPatienceMs));
        QVERIFY2(listed->ok, qPrintable(listed->message));
        QVERIFY(listed->result["members"] == (Json {"manifest.yaml", "SHA256SUMS"}));

        std::optional<BackendClient::Answer> badParams;
        c.client.call(
            s("bundle.list"), Json::object(), [&](const BackendClient::Answer &answer) { badParams = answer; });
        QVERIFY(QTest::qWaitFor([&] { return badParams.has_value(); }, kPatienceMs));
        QVERIFY(!badParams->ok);
        QCOMPARE(badParams->code, -32602);
        QVERIFY(badParams->message.contains(s("params.manifest")));

        // A call still waiting when the connection goes is answered with an error.
        int answers = 0;
        std::optional<BackendClient::Answer> dropped;
        c.client.call(
            s("backend.hello"), Json {{"client", "t"}, {"version", "1"}}, [&](const BackendClient::Answer &answer) {
                ++answers;
                dropped = answer;
            });
        c.client.disconnectFromBackend();
        QVERIFY(QTest::qWaitFor([&] { return dropped.has_value(); }, kPatienceMs));
        QVERIFY(!dropped->ok);
        QVERIFY(dropped->message.contains(s("connection")));
        QTest::qWait(0);
        QCOMPARE(answers, 1);
    }

    void killedBackendFailsTheRunAndIsRestarted()
    {
        QTemporaryDir dir;
        Client c(dir);
        QVERIFY(c.connect());
        const qint64 firstPid = c.client.embeddedProcessId();
        QVERIFY(firstPid > 0);
        RunRequest slow;
        slow.manifest = slowManifest(dir);
        slow.noop = false;
        RunWatch killed;
        killed.watch(c.client.startRun(slow));
        QVERIFY(QTest::qWaitFor([&] { return killed.progress > 0; }, kPatienceMs));
        QCOMPARE(::kill(pid_t(firstPid), SIGKILL), 0);
        QVERIFY(QTest::qWaitFor([&] { return killed.done(); }, kPatienceMs));
        QVERIFY(killed.failure);
        QVERIFY2(killed.failure->startsWith(s("the backend stopped during the run (")), qPrintable(*killed.failure));
        QCOMPARE(c.disconnects, 1);
        QVERIFY(c.errorContaining(s("reconnecting")));
        // The orphaned wait command of the killed run ends once released.
        QVERIFY(release(dir));

        QVERIFY(QTest::qWaitFor([&] { return c.connects == 2; }, kPatienceMs));
        QVERIFY(c.client.isConnected());
        const qint64 secondPid = c.client.embeddedProcessId();
        QVERIFY(secondPid > 0);
        QVERIFY(secondPid != firstPid);

        RunRequest preview;
        preview.manifest = s("ccm:\n  resources:\n    - exec:\n        - again:\n            command: /bin/true\n");
        RunWatch again;
        again.watch(c.client.startRun(preview));
        QVERIFY(QTest::qWaitFor([&] { return again.done(); }, kPatienceMs));
        QVERIFY2(again.result, qPrintable(again.failure.value_or(QString())));
        QVERIFY((*again.result)["summary"]["total"] == 1);
    }

    void disconnectStopsTheEmbeddedBackend()
    {
        QTemporaryDir dir;
        Client c(dir);
        QVERIFY(c.connect());
        const qint64 pid = c.client.embeddedProcessId();
        c.client.disconnectFromBackend();
        QVERIFY(!c.client.isConnected());
        QCOMPARE(c.disconnects, 1);
        QCOMPARE(c.client.embeddedProcessId(), 0);
        QCOMPARE(::kill(pid_t(pid), 0), -1);
    }

    void missingBinaryIsNamed()
    {
        QTemporaryDir dir;
        Client c(dir);
        const QString program = dir.filePath(s("nowhere/ccm-backend"));
        c.client.setBackendProgram(program);
        QVERIFY(!c.connect());
        QCOMPARE(c.errors.size(), 1);
        QVERIFY2(c.errors[0].contains(s("was not found")), qPrintable(c.errors[0]));
        QVERIFY(c.errors[0].contains(program));
    }

    void backendExitingAtStartIsReported()
    {
        QTemporaryDir dir;
        Client c(dir);
        // A regular file where the socket should be: the backend refuses to replace it and exits.
        const QString notASocket = dir.filePath(s("plain-file"));
        QVERIFY(writeFile(notASocket, "x"));
        c.client.setUserSocket(notASocket);
        QVERIFY(!c.connect());
        QVERIFY2(c.errors[0].contains(s("while starting")), qPrintable(c.errors[0]));
    }

    void refusedSystemSocketIsReported()
    {
        QTemporaryDir dir;
        // A socket file nobody listens on: what a crashed system backend leaves behind.
        const QByteArray path = dir.filePath(s("stale.sock")).toLocal8Bit();
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        qstrncpy(address.sun_path, path.constData(), sizeof(address.sun_path));
        QCOMPARE(::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)), 0);
        ::close(fd);

        Client c(dir);
        c.client.setSystemSocket(QString::fromLocal8Bit(path));
        QVERIFY(!c.connect());
        QVERIFY2(c.errors[0].contains(s("connection refused")), qPrintable(c.errors[0]));
        QVERIFY(c.errors[0].contains(QString::fromLocal8Bit(path)));
        QCOMPARE(c.client.embeddedProcessId(), 0);
    }

    void otherProtocolIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(s("fake.sock"));
        FakeServer server(path, answering({}, helloAnswer(2)));
        QVERIFY(server.ok());
        Client c(dir);
        c.client.setSystemSocket(path);
        QVERIFY(!c.connect());
        QVERIFY2(
            c.errors[0].contains(s("the backend speaks protocol 2; this designer needs 1")), qPrintable(c.errors[0]));
        QCOMPARE(c.connects, 0);
    }

    void garbageLinesAreSkipped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(s("fake.sock"));
        const QByteArray deep = QByteArray(600, '[') + QByteArray(600, ']') + '\n';
        FakeServer server(
            path, answering("this is not JSON\n[1, 2]\n{\"id\": 99, \"result\": {}}\n\n" + deep, helloAnswer(1)));
        QVERIFY(server.ok());
        Client c(dir);
        c.client.setSystemSocket(path);
        c.client.connectToBackend();
        QVERIFY(QTest::qWaitFor([&] { return c.client.isConnected(); }, kPatienceMs));
        QCOMPARE(c.client.info().role, s("preview"));
        QCOMPARE(c.client.info().user, s("alice"));
        QVERIFY(!c.client.info().embedded);
        QVERIFY(c.errorContaining(s("not JSON")));
        QVERIFY(c.errorContaining(s("not a JSON object")));
        QVERIFY(c.errorContaining(s("nested deeper")));
    }

    void longLinesKeepTheirOrder()
    {
        // Lines over BackendClient::kBackgroundParseBytes are parsed on a worker thread; the lines
        // after one wait for it, so notifications arrive in the order they were sent, and a long
        // line that is not JSON is still reported.
        QTemporaryDir dir;
        const QString path = dir.filePath(s("fake.sock"));
        const auto notification = [](int n, std::size_t padding) {
            return QByteArray::fromStdString(Json {{"jsonrpc", "2.0"}, {"method", "fleet.host"},
                                                 {"params", {{"n", n}, {"padding", std::string(padding, 'p')}}}}
                                                 .dump()
                + "\n");
        };
        const auto longBytes = std::size_t(BackendClient::kBackgroundParseBytes) + 1000;
        const QByteArray preamble = notification(1, longBytes) + notification(2, 10) + notification(3, longBytes) + "{"
            + QByteArray(qsizetype(longBytes), 'x') + "\n" + notification(4, 10);
        FakeServer server(path, answering(preamble, helloAnswer(1)));
        QVERIFY(server.ok());
        Client c(dir);
        QList<int> order;
        connect(
            &c.client, &BackendClient::notificationReceived, this, [&order](const QString &method, const Json &params) {
                if (method == s("fleet.host"))
                    order << int(params.value("n", 0));
            });
        c.client.setSystemSocket(path);
        c.client.connectToBackend();
        QVERIFY(QTest::qWaitFor([&] { return c.client.isConnected() && order.size() == 4; }, kPatienceMs));
        QCOMPARE(order, (QList<int> {1, 2, 3, 4}));
        QVERIFY(c.errorContaining(s("not JSON")));
        QCOMPARE(c.client.info().user, s("alice"));
    }

    void unauthorizedIsExplained()
    {
        const QString text = BackendClient::errorText(
            -32001, s("role preview may not apply for real"), Json {{"reason", "unauthorized"}, {"role", "preview"}});
        QVERIFY(text.contains(s("role preview may not apply for real")));
        QVERIFY(text.contains(s("join the group ccm-designer to preview and ccm-apply to apply, then log in again")));
        QCOMPARE(BackendClient::errorText(-32603, s("internal error"), Json()), s("internal error"));
    }

    void roleNoneIsReportedOnConnect()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(s("fake.sock"));
        Json answer = helloAnswer(1);
        answer["result"]["role"] = "none";
        FakeServer server(path, answering({}, answer));
        Client c(dir);
        c.client.setSystemSocket(path);
        c.client.connectToBackend();
        QVERIFY(c.errorContaining(s("join the group ccm-designer")));
        QVERIFY(c.client.isConnected());
    }
};

CCM_TEST_GUILESS_MAIN(TestBackendClient)
#include "tst_backend_client.moc"
