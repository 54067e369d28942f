// SPDX-License-Identifier: Apache-2.0
// Publish to Fleet with the fleet key and a release message, Fleet ▸ Releases… and Fleet ▸ Roll
// Out… against a scripted user backend: what the dialogs send, and what they show of the answers
// and of the fleet.rollout.progress notifications.
#include "designer/core/fleet_history_models.h"
#include "designer/core/rollout_model.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/dialogs/publish_dialog.h"
#include "designer/ui/dialogs/releases_dialog.h"
#include "designer/ui/dialogs/rollout_dialog.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/diff_view.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <map>
#include <mutex>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

Json rpcError(const Json &request, int code, const char *message)
{
    return Json {{"jsonrpc", "2.0"}, {"id", request.value("id", Json())},
        {"error", {{"code", code}, {"message", message}, {"data", {{"reason", "not_found"}}}}}};
}

Json statusWithSources()
{
    const auto host = [](const char *identity, const char *source) {
        return Json {{"identity", identity}, {"time", "2026-11-29T01:00:00Z"}, {"age_seconds", 5}, {"stale", false},
            {"summary", Json::object()}, {"failed_resources", Json::array()},
            {"runs", Json::array({Json {{"source", source}, {"mode", "apply"}}})}};
    };
    return Json {{"hosts",
        Json::array({host("c1", "obj://sites/canary.tar.gz"), host("w1", "obj://sites/web.tar.gz"),
            host("w2", "obj://sites/web.tar.gz"), host("l1", "/etc/ccm/local.yaml")})}};
}

Json release(const char *digest, const char *time, const char *signer, const char *message)
{
    return Json {{"name", "web.tar.gz"}, {"bucket", "sites"}, {"digest", digest}, {"size", 900}, {"time", time},
        {"publisher", "alice@ws"}, {"signer", signer}, {"message", message},
        {"location", std::string("obj://sites/.releases/") + digest}};
}

Json rolloutRecordOf(const char *state, const char *request, const char *ringState)
{
    return Json {{"id", "r0llout00042"}, {"bucket", "sites"}, {"digest", "SHA-256=new"}, {"size", 900},
        {"signer", "bc95f2d449733f04"}, {"message", "motd"}, {"owner", "alice@ws"}, {"max_failed", "10%"},
        {"ring_timeout_seconds", 600}, {"settle_seconds", 0}, {"rollback", true}, {"state", state},
        {"request", request}, {"created", "2026-11-29T01:00:00Z"}, {"updated", "2026-11-29T01:01:00Z"},
        {"rings",
            Json::array({Json {{"name", "canary.tar.gz"}, {"state", "passed"}, {"previous", "SHA-256=old"},
                             {"hosts", {{"c1", {{"state", "applied"}}}}}, {"verdict", "1 of 1 applied"}},
                Json {{"name", "web.tar.gz"}, {"state", ringState}, {"previous", "SHA-256=old"},
                    {"hosts", Json::object()}, {"verdict", ""}}})},
        {"report", std::string(state) == "rolled_back" ? "aborted by alice@ws; every ring is back" : ""}};
}

Json progress(const char *kind, Json fields)
{
    fields["event"] = kind;
    fields["rollout"] = "r0llout00042";
    return notification("fleet.rollout.progress", std::move(fields));
}

/// A scripted user backend that takes any number of connections, each served in a thread of its
/// own as scriptedBackend() serves one: the designer runs rollouts and their controls on
/// connections of their own. A responder gets the connection it answers on and may write to
/// another (a rollout's connection, answered when a control arrives).
class MultiBackend {
public:
    using PeerResponder = std::function<std::vector<Json>(const Json &request, int fd)>;

    MultiBackend(const QString &path, std::map<std::string, PeerResponder> responders)
        : m_responders(std::move(responders))
    {
        m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        const QByteArray bytes = path.toLocal8Bit();
        std::copy(bytes.begin(), bytes.end(), address.sun_path);
        m_ok = ::bind(m_listen, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) == 0
            && ::listen(m_listen, 8) == 0;
        m_acceptor = std::thread([this] { acceptLoop(); });
    }
    ~MultiBackend()
    {
        m_stop = true;
        ::shutdown(m_listen, SHUT_RDWR);
        {
            std::lock_guard lock(m_mutex);
            for (const int fd : m_connections)
                ::shutdown(fd, SHUT_RDWR);
        }
        m_acceptor.join();
        for (std::thread &thread : m_threads)
            thread.join();
        for (const int fd : m_connections)
            ::close(fd);
        ::close(m_listen);
    }
    MultiBackend(const MultiBackend &) = delete;
    MultiBackend &operator=(const MultiBackend &) = delete;

    [[nodiscard]] bool ok() const { return m_ok; }
    /// How many connections the designer opened.
    [[nodiscard]] int connections()
    {
        std::lock_guard lock(m_mutex);
        return int(m_connections.size());
    }

    std::shared_ptr<Recorder> recorder = std::make_shared<Recorder>();

    static bool send(int fd, const std::vector<Json> &replies)
    {
        std::string bytes;
        for (const Json &reply : replies)
            bytes += reply.dump() + "\n";
        for (size_t sent = 0; sent < bytes.size();) {
            const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += size_t(n);
        }
        return true;
    }

private:
    void acceptLoop()
    {
        while (!m_stop) {
            const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                return;
            std::lock_guard lock(m_mutex);
            m_connections.push_back(fd);
            m_threads.emplace_back([this, fd] { serve(fd); });
        }
    }

    void serve(int fd)
    {
        std::string buffer;
        char chunk[4096];
        while (!m_stop) {
            const size_t newline = buffer.find('\n');
            if (newline == std::string::npos) {
                const ssize_t n = ::read(fd, chunk, sizeof(chunk));
                if (n <= 0)
                    return;
                buffer.append(chunk, size_t(n));
                continue;
            }
            const Json request = Json::parse(buffer.substr(0, newline), nullptr, false);
            buffer.erase(0, newline + 1);
            {
                std::lock_guard lock(recorder->mutex);
                recorder->requests.push_back(request);
            }
            const std::string method = request.is_object() ? request.value("method", "") : "";
            std::vector<Json> replies;
            if (method == "backend.hello")
                replies.push_back(answer(request,
                    {{"server", "ccm-backend"}, {"version", "9.9.9"}, {"protocol", 1}, {"role", "apply"},
                        {"user", "alice"}, {"uid", 1000}}));
            else if (const auto found = m_responders.find(method); found != m_responders.end())
                replies = found->second(request, fd);
            else
                replies.push_back(answer(request, Json::object()));
            if (!send(fd, replies))
                return;
        }
    }

    std::map<std::string, PeerResponder> m_responders;
    int m_listen = -1;
    bool m_ok = false;
    std::atomic<bool> m_stop = false;
    std::mutex m_mutex;
    std::vector<int> m_connections;
    std::vector<std::thread> m_threads;
    std::thread m_acceptor;
};

/// A main window whose user backend is a MultiBackend.
struct MultiWindow {
    explicit MultiWindow(std::map<std::string, MultiBackend::PeerResponder> responders)
        : backend(dir.filePath(QStringLiteral("backend.sock")), std::move(responders))
    {
        BackendClient *client = window.previewController()->client();
        client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
        client->setUserSocket(dir.filePath(QStringLiteral("backend.sock")));
        window.connectToBackend();
    }
    bool connected() const
    {
        return backend.ok()
            && QTest::qWaitFor([this] { return window.previewController()->client()->isConnected(); }, kPatienceMs);
    }

    QTemporaryDir dir;
    MultiBackend backend;
    MainWindow window;
};

/// A responder of the shared connection that answers `result`.
MultiBackend::PeerResponder answering(Json result)
{
    return [result](const Json &request, int) { return std::vector<Json> {answer(request, result)}; };
}

/// The fleet.rollout request held unanswered until a control answers it, as a rollout runs on.
struct HeldRollout {
    std::mutex mutex;
    Json request;
    int fd = -1;
};

MultiBackend::PeerResponder rolloutResponder(std::shared_ptr<HeldRollout> held)
{
    return [held](const Json &request, int fd) {
        std::lock_guard lock(held->mutex);
        held->request = request;
        held->fd = fd;
        return std::vector<Json> {progress("started",
                                      {{"digest", "SHA-256=new"}, {"rings", {"canary.tar.gz", "web.tar.gz"}},
                                          {"max_failed", "10%"}, {"ring_timeout_seconds", 600}, {"settle_seconds", 0}}),
            progress("ring", {{"ring", "canary.tar.gz"}, {"index", 0}, {"rings", 2}}),
            progress("published", {{"ring", "canary.tar.gz"}, {"digest", "SHA-256=new"}, {"previous", "SHA-256=old"}}),
            progress("host", {{"ring", "canary.tar.gz"}, {"identity", "c1"}, {"state", "applied"}, {"reason", ""}}),
            progress("host",
                {{"ring", "canary.tar.gz"}, {"identity", "c2"}, {"state", "failed"},
                    {"reason", "exec#migrate failed"}})};
    };
}

/// Answers pause with the record at once and ends the held rollout, on its own connection, as
/// paused; resume runs the last ring to a pass; abort rolls back.
MultiBackend::PeerResponder controlResponder(std::shared_ptr<HeldRollout> held)
{
    return [held](const Json &request, int) {
        const std::string action = request["params"].value("action", "");
        std::vector<Json> replies;
        if (action == "pause") {
            replies.push_back(answer(request, rolloutRecordOf("running", "pause", "pending")));
            std::lock_guard lock(held->mutex);
            MultiBackend::send(held->fd,
                {progress("requested", {{"request", "pause"}}), progress("paused", {{"ring", "web.tar.gz"}}),
                    answer(held->request, rolloutRecordOf("paused", "", "pending"))});
        } else if (action == "resume") {
            replies.push_back(progress("resumed", {{"owner", "alice@ws"}}));
            replies.push_back(progress("ring", {{"ring", "web.tar.gz"}, {"index", 1}, {"rings", 2}}));
            replies.push_back(
                progress("host", {{"ring", "web.tar.gz"}, {"identity", "w1"}, {"state", "applied"}, {"reason", ""}}));
            replies.push_back(
                progress("gate", {{"ring", "web.tar.gz"}, {"passed", true}, {"summary", "1 of 1 applied"}}));
            replies.push_back(progress("done", {{"state", "passed"}, {"report", ""}}));
            replies.push_back(answer(request, rolloutRecordOf("passed", "", "passed")));
        } else {
            replies.push_back(progress("rolling_back", {{"ring", "canary.tar.gz"}, {"previous", "SHA-256=old"}}));
            replies.push_back(
                progress("restored", {{"ring", "canary.tar.gz"}, {"state", "restored"}, {"summary", "back"}}));
            replies.push_back(
                progress("done", {{"state", "rolled_back"}, {"report", "aborted by alice@ws; every ring is back"}}));
            replies.push_back(answer(request, rolloutRecordOf("rolled_back", "", "pending")));
        }
        return replies;
    };
}

/// The params of the first request of `method` the backend read, once it read one.
Json paramsOf(const Recorder &constRecorder, const std::string &method)
{
    auto &recorder = const_cast<Recorder &>(constRecorder);
    std::optional<Json> request;
    if (!QTest::qWaitFor([&] { return (request = recorder.find(method)).has_value(); }, kPatienceMs))
        return Json();
    return request ? request->value("params", Json::object()) : Json();
}

QMessageBox *openMessageBox(QWidget *parent, const QString &name)
{
    QMessageBox *box = nullptr;
    if (!QTest::qWaitFor([&] { return (box = parent->findChild<QMessageBox *>(name)) != nullptr; }, kPatienceMs))
        return nullptr;
    return box;
}

void clickButtonNamed(QMessageBox *box, const QString &text)
{
    for (QAbstractButton *button : box->buttons()) {
        if (button->text() == text) {
            button->click();
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("no button %1").arg(text)));
}

} // namespace

class TestRolloutDialogs : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_key;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_rollout_dialogs"));
        QSettings().clear();
        QVERIFY(m_home.isValid());
        // The scripted backend never reads the key: it only has to exist for the designer.
        m_key = m_home.filePath(QStringLiteral("fleet.pem"));
        QVERIFY(writeFile(m_key, "-----BEGIN PRIVATE KEY-----\n"));
        QSettings().setValue(QStringLiteral("fleet/previewKey"), m_key);
    }

    void publishSignsWithTheFleetKeyAndShowsTheSigner();
    void publishWithoutTheKeyGoesUnsigned();
    void releasesListDiffAndRollBack();
    void releasesErrorsSayWhatToDo();
    void rolloutStartsFollowsPausesAndResumes();
    void rolloutAbortAsksFirstAndRollsBack();
    void rolloutSetupErrors();
};

void TestRolloutDialogs::publishSignsWithTheFleetKeyAndShowsTheSigner()
{
    ScriptedWindow scripted(
        {{"bundle.publish", [](const Json &request) {
              return std::vector<Json> {answer(request,
                  {{"bucket", "sites"}, {"name", "web.tar.gz"}, {"size", 900}, {"digest", "SHA-256=new"},
                      {"url", "obj://sites/web.tar.gz"}, {"signer", "bc95f2d449733f04"},
                      {"release", release("SHA-256=new", "2026-11-29T01:00:00Z", "bc95f2d449733f04", "motd")}})};
          }}});
    QVERIFY(scripted.connected());
    PublishDialog *dialog = scripted.window.fleetController()->showPublishDialog();
    QVERIFY(dialog->signBox()->isChecked());
    QVERIFY(dialog->signBox()->isEnabled());
    QVERIFY(dialog->signBox()->text().contains(m_key));
    // No NATS context in this test's configuration: a server URL instead.
    dialog->serverUrlEdit()->setText(QStringLiteral("nats://127.0.0.1:4222"));
    dialog->bucketEdit()->setText(QStringLiteral("sites"));
    dialog->objectNameEdit()->setText(QStringLiteral("web.tar.gz"));
    dialog->releaseMessageEdit()->setText(QStringLiteral("new motd"));
    dialog->publishButton()->click();
    QTRY_VERIFY2_WITH_TIMEOUT(
        dialog->signerLabel()->isVisibleTo(dialog), qPrintable(dialog->messageLabel()->text()), kPatienceMs);
    QVERIFY(dialog->signerLabel()->text().contains(QStringLiteral("bc95f2d449733f04")));
    QCOMPARE(dialog->resultEdit()->text(), QStringLiteral("obj://sites/web.tar.gz"));
    const Json params = paramsOf(*scripted.recorder, "bundle.publish");
    QCOMPARE(q(params.value("key", "")), m_key);
    QCOMPARE(q(params.value("message", "")), QStringLiteral("new motd"));
    dialog->close();
}

void TestRolloutDialogs::publishWithoutTheKeyGoesUnsigned()
{
    ScriptedWindow scripted(
        {{"bundle.publish", [](const Json &request) {
              return std::vector<Json> {answer(request, {{"url", "obj://sites/web.tar.gz"}, {"signer", ""}})};
          }}});
    QVERIFY(scripted.connected());
    QSettings().setValue(QStringLiteral("fleet/previewKey"), m_home.filePath(QStringLiteral("missing.pem")));
    PublishDialog *dialog = scripted.window.fleetController()->showPublishDialog();
    QSettings().setValue(QStringLiteral("fleet/previewKey"), m_key);
    QVERIFY(!dialog->signBox()->isChecked());
    QVERIFY(!dialog->signBox()->isEnabled());
    QVERIFY(dialog->signBox()->text().contains(QStringLiteral("Fleet Key")));
    // No NATS context in this test's configuration: a server URL instead.
    dialog->serverUrlEdit()->setText(QStringLiteral("nats://127.0.0.1:4222"));
    dialog->bucketEdit()->setText(QStringLiteral("sites"));
    dialog->objectNameEdit()->setText(QStringLiteral("web.tar.gz"));
    dialog->publishButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(dialog->signerLabel()->isVisibleTo(dialog), kPatienceMs);
    QVERIFY(dialog->signerLabel()->text().startsWith(QStringLiteral("Not signed")));
    const Json params = paramsOf(*scripted.recorder, "bundle.publish");
    QVERIFY(!params.contains("key"));
    QVERIFY(!params.contains("message"));
    dialog->close();
}

void TestRolloutDialogs::releasesListDiffAndRollBack()
{
    QTemporaryDir bundles;
    QVERIFY(writeFile(bundles.filePath(QStringLiteral("a.yaml")), "ccm:\n  resources: []\n"));
    QVERIFY(writeFile(bundles.filePath(QStringLiteral("c.yaml")), "ccm:\n  resources:\n    - file: []\n"));
    const std::string base = bundles.path().toStdString();
    ScriptedWindow scripted(
        {{"fleet.status", [](const Json &request) { return std::vector<Json> {answer(request, statusWithSources())}; }},
            {"fleet.releases",
                [](const Json &request) {
                    return std::vector<Json> {answer(request,
                        {{"releases",
                             Json::array({release("SHA-256=ccc", "2026-11-29T01:02:00Z", "bc95f2d449733f04", "third"),
                                 release("SHA-256=bbb", "2026-11-29T01:01:00Z", "0011223344556677", "second"),
                                 release("SHA-256=aaa", "2026-11-29T01:00:00Z", "", "first")})},
                            {"skipped", Json::array({Json {{"key", "sites.d2Vi.9"}, {"message", "bad_release"}}})}})};
                }},
            {"bundle.open",
                [base](const Json &request) {
                    const std::string location = request["params"].value("location", "");
                    const std::string file = location.ends_with("aaa") ? "a.yaml" : "c.yaml";
                    return std::vector<Json> {answer(
                        request, {{"directory", base + "/gone"}, {"manifest", base + "/" + file}, {"base_dir", base}})};
                }},
            {"fleet.rollback", [](const Json &request) {
                 return std::vector<Json> {answer(request,
                     {{"release", release("SHA-256=bbb", "2026-11-29T01:03:00Z", "bc95f2d449733f04", "back")}})};
             }}});
    QVERIFY(scripted.connected());
    ReleasesDialog *dialog = scripted.window.fleetController()->showReleasesDialog();
    QTRY_COMPARE_WITH_TIMEOUT(dialog->objectBox()->count(), 2, kPatienceMs);
    QCOMPARE(dialog->objectBox()->itemText(1), QStringLiteral("obj://sites/web.tar.gz"));
    dialog->objectBox()->setCurrentIndex(1);
    dialog->showButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(dialog->releasesModel()->rowCount(), 3, kPatienceMs);
    QVERIFY(dialog->messageLabel()->text().contains(QStringLiteral("1 record(s) of the history could not be read")));
    const Json listed = paramsOf(*scripted.recorder, "fleet.releases");
    QCOMPARE(q(listed.value("bucket", "")), QStringLiteral("sites"));
    QCOMPARE(q(listed.value("name", "")), QStringLiteral("web.tar.gz"));
    QVERIFY(!dialog->diffButton()->isEnabled());

    QItemSelectionModel *selection = dialog->releasesView()->selectionModel();
    selection->select(dialog->releasesModel()->index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QVERIFY(!dialog->rollBackButton()->isEnabled());
    selection->select(dialog->releasesModel()->index(2, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QVERIFY(dialog->diffButton()->isEnabled());
    dialog->diffButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(
        dialog->diffView()->unifiedView()->toPlainText().contains(QStringLiteral("+    - file: []")), kPatienceMs);
    QVERIFY(dialog->diffView()->unifiedView()->toPlainText().contains(QStringLiteral("-  resources: []")));
    QVERIFY(dialog->diffView()->titleLabel()->text().startsWith(QStringLiteral("manifest.yaml: aaa")));

    selection->clearSelection();
    selection->select(dialog->releasesModel()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QVERIFY(dialog->rollBackButton()->isEnabled());
    dialog->rollBackMessageEdit()->setText(QStringLiteral("third broke the motd"));
    dialog->rollBackButton()->click();
    QMessageBox *box = openMessageBox(dialog, QStringLiteral("rollBackConfirmation"));
    QVERIFY(box);
    QVERIFY(box->text().contains(QStringLiteral("obj://sites/web.tar.gz")));
    QVERIFY(box->text().contains(QStringLiteral("SHA-256=bbb")));
    QVERIFY(box->text().contains(QStringLiteral("0011223344556677")));
    clickButtonNamed(box, QStringLiteral("Roll Back"));
    const Json rolled = paramsOf(*scripted.recorder, "fleet.rollback");
    QCOMPARE(q(rolled.value("to", "")), QStringLiteral("SHA-256=bbb"));
    QCOMPARE(q(rolled.value("key", "")), m_key);
    QCOMPARE(q(rolled.value("message", "")), QStringLiteral("third broke the motd"));
    QCOMPARE(q(rolled.value("bucket", "")), QStringLiteral("sites"));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->messageLabel()->text().startsWith(QStringLiteral("Rolled back")), kPatienceMs);
    QVERIFY(!dialog->messageLabel()->property("error").toBool());
    dialog->close();
}

void TestRolloutDialogs::releasesErrorsSayWhatToDo()
{
    ScriptedWindow scripted({{"fleet.status",
                                 [](const Json &request) {
                                     return std::vector<Json> {
                                         rpcError(request, -32008, "cannot reach the NATS server")};
                                 }},
        {"fleet.releases", [](const Json &request) {
             return std::vector<Json> {rpcError(request, -32011, "bucket 'nope' not found")};
         }}});
    QVERIFY(scripted.connected());
    ReleasesDialog *dialog = scripted.window.fleetController()->showReleasesDialog();
    QTRY_VERIFY_WITH_TIMEOUT(dialog->messageLabel()->text().contains(QStringLiteral("cannot reach")), kPatienceMs);
    QVERIFY(dialog->messageLabel()->text().contains(QStringLiteral("obj://BUCKET/NAME")));
    dialog->objectBox()->setCurrentText(QStringLiteral("nope/web.tar.gz"));
    dialog->showButton()->click();
    QVERIFY(dialog->messageLabel()->property("error").toBool());
    QVERIFY(dialog->messageLabel()->text().contains(QStringLiteral("obj://BUCKET/NAME")));
    dialog->objectBox()->setCurrentText(QStringLiteral("obj://nope/web.tar.gz"));
    dialog->showButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(dialog->messageLabel()->text().contains(QStringLiteral("not found")), kPatienceMs);
    QVERIFY(dialog->messageLabel()->property("error").toBool());
    dialog->close();
}

void TestRolloutDialogs::rolloutStartsFollowsPausesAndResumes()
{
    auto held = std::make_shared<HeldRollout>();
    MultiWindow scripted({{"fleet.status", answering(statusWithSources())}, {"fleet.rollout", rolloutResponder(held)},
        {"fleet.rollout.control", controlResponder(held)}});
    QVERIFY(scripted.connected());
    RolloutDialog *dialog = scripted.window.fleetController()->showRolloutDialog();
    QTRY_COMPARE_WITH_TIMEOUT(dialog->objectBox()->count(), 2, kPatienceMs);
    QVERIFY(!dialog->startButton()->isEnabled());
    dialog->addRing(QStringLiteral("obj://sites/web.tar.gz"));
    dialog->addRing(QStringLiteral("obj://sites/canary.tar.gz"));
    dialog->ringList()->setCurrentRow(1);
    for (QPushButton *button : dialog->findChildren<QPushButton *>()) {
        if (button->text() == QStringLiteral("Move &Up"))
            button->click();
    }
    QCOMPARE(dialog->ringList()->item(0)->text(), QStringLiteral("obj://sites/canary.tar.gz"));
    dialog->maxFailedBox()->setValue(10);
    dialog->maxFailedUnitBox()->setCurrentIndex(1);
    dialog->ringTimeoutBox()->setValue(2);
    dialog->settleBox()->setValue(30);
    dialog->rollbackBox()->setChecked(false);
    dialog->messageEdit()->setText(QStringLiteral("motd"));
    QVERIFY(dialog->startButton()->isEnabled());
    dialog->startButton()->click();

    Json params = paramsOf(*scripted.backend.recorder, "fleet.rollout");
    QCOMPARE(params.value("bucket", ""), std::string("sites"));
    QVERIFY(params["rings"] == Json({"canary.tar.gz", "web.tar.gz"}));
    QCOMPARE(q(params.value("key", "")), m_key);
    QCOMPARE(params.value("max_failed", ""), std::string("10%"));
    QCOMPARE(params.value("ring_timeout_ms", 0), 120000);
    QCOMPARE(params.value("settle_ms", 0), 30000);
    QCOMPARE(params.value("rollback", true), false);
    QCOMPARE(params.value("message", ""), std::string("motd"));
    QVERIFY(params.contains("manifest") && params.contains("base_dir"));
    QCOMPARE(dialog->tabs()->currentIndex(), 1);

    RolloutModel *model = dialog->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rings().value(0).hosts.size(), 2, kPatienceMs);
    const QModelIndex canary = model->index(0, 0);
    QCOMPARE(
        model->index(1, RolloutModel::DetailColumn, canary).data().toString(), QStringLiteral("exec#migrate failed"));
    QVERIFY(dialog->pauseButton()->isEnabled());
    QVERIFY(!dialog->resumeButton()->isEnabled());
    dialog->pauseButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(model->state(), QStringLiteral("paused"), kPatienceMs);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->resumeButton()->isEnabled(), kPatienceMs);
    QVERIFY(!dialog->pauseButton()->isEnabled());
    QVERIFY(dialog->reportLabel()->text().contains(QStringLiteral("Paused")));
    dialog->resumeButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(model->state(), QStringLiteral("passed"), kPatienceMs);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->reportLabel()->text().contains(QStringLiteral("Every ring passed")), kPatienceMs);
    QCOMPARE(model->rings().value(1).state, QStringLiteral("passed"));
    // The shared connection, then one each for the rollout, the pause and the resume: a control
    // is not held up behind the rollout it controls.
    QCOMPARE(scripted.backend.connections(), 4);
    QVERIFY(!dialog->abortButton()->isEnabled());
    QVERIFY(!dialog->resumeButton()->isEnabled());
    dialog->close();
}

void TestRolloutDialogs::rolloutAbortAsksFirstAndRollsBack()
{
    auto held = std::make_shared<HeldRollout>();
    MultiWindow scripted(
        {{"fleet.rollouts", answering({{"rollouts", Json::array({rolloutRecordOf("paused", "", "pending")})}})},
            {"fleet.rollout.control", controlResponder(held)}});
    QVERIFY(scripted.connected());
    RolloutDialog *dialog = scripted.window.fleetController()->showRolloutDialog();
    QTRY_COMPARE_WITH_TIMEOUT(dialog->rolloutsModel()->rowCount(), 1, kPatienceMs);
    QVERIFY(dialog->rolloutsMessage()->text().contains(QStringLiteral("1 rollout")));
    dialog->openRollout(0);
    QCOMPARE(dialog->tabs()->currentIndex(), 1);
    QCOMPARE(dialog->model()->id(), QStringLiteral("r0llout00042"));
    QVERIFY(dialog->resumeButton()->isEnabled());
    QVERIFY(dialog->abortButton()->isEnabled());
    dialog->abortButton()->click();
    QMessageBox *box = openMessageBox(dialog, QStringLiteral("abortConfirmation"));
    QVERIFY(box);
    QVERIFY(box->text().contains(QStringLiteral("r0llout00042")));
    clickButtonNamed(box, QStringLiteral("Abort and Roll Back"));
    QTRY_COMPARE_WITH_TIMEOUT(dialog->model()->state(), QStringLiteral("rolled_back"), kPatienceMs);
    QCOMPARE(paramsOf(*scripted.backend.recorder, "fleet.rollout.control").value("action", ""), std::string("abort"));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->reportLabel()->text().contains(QStringLiteral("every ring is back")), kPatienceMs);
    QVERIFY(dialog->reportLabel()->property("error").toBool());
    QVERIFY(!dialog->abortButton()->isEnabled());
    dialog->close();
}

void TestRolloutDialogs::rolloutSetupErrors()
{
    MultiWindow scripted({{"fleet.rollout", [](const Json &request, int) {
                               return std::vector<Json> {
                                   rpcError(request, -32011, "bucket 'sites' not found; publish to it first")};
                           }}});
    QVERIFY(scripted.connected());
    RolloutDialog *dialog = scripted.window.fleetController()->showRolloutDialog();
    dialog->addRing(QStringLiteral("sites/web.tar.gz"));
    QVERIFY(dialog->setupMessage()->text().contains(QStringLiteral("obj://BUCKET/NAME")));
    QCOMPARE(dialog->ringList()->count(), 0);
    dialog->addRing(QStringLiteral("obj://sites/web.tar.gz"));
    dialog->addRing(QStringLiteral("obj://other/canary.tar.gz"));
    QVERIFY(!dialog->startButton()->isEnabled());
    QVERIFY(dialog->setupMessage()->text().contains(QStringLiteral("one bucket")));
    delete dialog->ringList()->takeItem(1);
    dialog->addRing(QStringLiteral("obj://sites/web.tar.gz"));
    QVERIFY(dialog->setupMessage()->text().contains(QStringLiteral("a ring already")));

    QSettings().setValue(QStringLiteral("fleet/previewKey"), m_home.filePath(QStringLiteral("missing.pem")));
    dialog->start();
    QSettings().setValue(QStringLiteral("fleet/previewKey"), m_key);
    QVERIFY(dialog->setupMessage()->text().contains(QStringLiteral("Fleet Key")));
    QCOMPARE(dialog->tabs()->currentIndex(), 0);

    dialog->start();
    QTRY_VERIFY2_WITH_TIMEOUT(dialog->reportLabel()->text().contains(QStringLiteral("publish to it first")),
        qPrintable(dialog->reportLabel()->text()), kPatienceMs);
    QVERIFY(dialog->reportLabel()->text().startsWith(QStringLiteral("The rollout did not start")));
    QVERIFY(dialog->startButton()->isEnabled());
    dialog->close();
}

CCM_TEST_MAIN(TestRolloutDialogs)
#include "tst_rollout_dialogs.moc"
