// SPDX-License-Identifier: Apache-2.0
// What a passive listener on ccm.preview.request can do with what it captured, against a real
// nats-server, a real `ccm-backend agent` and a real `ccm-backend fleet preview`: replay a valid
// request after the agent reconnected, reloaded or restarted (refused), and after its record of
// seen requests was damaged (refused); read the files a preview writes (closed to others); and
// what a preview whose requester died leaves in CCM_PREVIEW (removed by the next requester).
#include "base/base64.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/nats/object_store.h"
#include "fleet/preview/preview_requester.h"
#include "fleet/preview/preview_wire.h"
#include "fleet_agent_process.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <atomic>
#include <csignal>
#include <mutex>
#include <nats/nats.h>
#include <poll.h>
#include <sstream>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ccm;
using ccm::test::BackendRun;
using ccm::test::FleetAgent;
using ccm::test::previewUser;
using ccm::test::q;
using ccm::test::runBackend;
using namespace std::chrono_literals;

namespace {

using Subscription = fleet::NatsSubscriptionPtr;
using Message = fleet::NatsMsgPtr;

std::string_view dataOf(natsMsg *message)
{
    return {natsMsg_GetData(message), static_cast<std::size_t>(std::max(0, natsMsg_GetDataLength(message)))};
}

Subscription subscribe(fleet::NatsConnection &connection, const std::string &subject)
{
    natsSubscription *raw = nullptr;
    natsConnection_SubscribeSync(&raw, connection.connection(), subject.c_str());
    natsConnection_Flush(connection.connection());
    return Subscription(raw);
}

/// The first answer of `type` on `subscription` within 20 s.
bool waitForAnswer(natsSubscription *subscription, const std::string &type)
{
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        natsMsg *raw = nullptr;
        if (natsSubscription_NextMsg(&raw, subscription, 200) != NATS_OK)
            continue;
        const Message message(raw);
        auto answer = fleet::decodeAnswer(dataOf(message.get()));
        if (answer && answer->type == type)
            return true;
    }
    return false;
}

/// Records every entry created in (or moved into) a directory, with its mode and owner as soon as
/// it was seen, from a thread of its own while a preview runs.
class CreatedEntries {
public:
    struct Entry {
        QString name;
        mode_t mode = 0;
        uid_t uid = 0;
    };

    explicit CreatedEntries(const QString &directory)
        : m_directory(directory.toStdString())
        , m_fd(::inotify_init1(IN_CLOEXEC | IN_NONBLOCK))
    {
        m_watching = m_fd >= 0 && ::inotify_add_watch(m_fd, m_directory.c_str(), IN_CREATE | IN_MOVED_TO) >= 0;
        m_thread = std::thread([this] { watch(); });
    }
    ~CreatedEntries()
    {
        m_stop = true;
        m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
    }

    bool watching() const { return m_watching; }
    std::vector<Entry> entries()
    {
        const std::lock_guard lock(m_mutex);
        return m_entries;
    }

private:
    void watch()
    {
        alignas(inotify_event) char buffer[16 * 1024];
        while (!m_stop) {
            pollfd ready {m_fd, POLLIN, 0};
            if (::poll(&ready, 1, 50) <= 0)
                continue;
            const ssize_t length = ::read(m_fd, buffer, sizeof buffer);
            for (ssize_t at = 0; at < length;) {
                const auto *event = reinterpret_cast<const inotify_event *>(buffer + at);
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
                if (event->len == 0)
                    continue;
                struct stat info { };
                if (::lstat((m_directory + "/" + event->name).c_str(), &info) != 0)
                    continue; // gone already
                const std::lock_guard lock(m_mutex);
                m_entries.push_back({QString::fromUtf8(event->name), info.st_mode, info.st_uid});
            }
        }
    }

    std::string m_directory;
    int m_fd;
    bool m_watching = false;
    std::atomic<bool> m_stop {false};
    std::mutex m_mutex;
    std::vector<Entry> m_entries;
    std::thread m_thread;
};

mode_t lstatModeOf(const QString &path)
{
    struct stat info { };
    return ::lstat(path.toUtf8().constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

} // namespace

class TestPreviewReplay : public QObject {
    Q_OBJECT

private:
    test::NatsServer m_server;
    QTemporaryDir m_dir;
    QString m_manifest;
    QString m_signer;
    std::unique_ptr<FleetAgent> m_agent;
    QString m_node;

    std::unique_ptr<fleet::NatsConnection> connect()
    {
        fleet::NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = fleet::NatsConnection::connect(settings);
        return connection ? std::move(connection).value() : nullptr;
    }

    BackendRun preview(const QString &source)
    {
        return runBackend({QStringLiteral("fleet"), QStringLiteral("preview"), source, QStringLiteral("--key"),
            m_signer, QStringLiteral("--nats"), m_server.url(), QStringLiteral("--json")});
    }

    /// The agent's state in the output of a `fleet preview --json`.
    static QString stateOf(const BackendRun &run)
    {
        for (const QString &line : run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QJsonObject host = QJsonDocument::fromJson(line.toUtf8()).object();
            if (host[QStringLiteral("identity")].toString() == QStringLiteral("web-1"))
                return host[QStringLiteral("state")].toString();
        }
        return QStringLiteral("absent");
    }

    /// Runs a preview as a passive subscriber to ccm.preview.request watches it; the signed
    /// request it captured, empty when the preview or the capture failed.
    std::string captureValidRequest()
    {
        auto tap = connect();
        if (!tap)
            return {};
        const Subscription requests = subscribe(*tap, std::string(fleet::kPreviewRequestSubject));
        const BackendRun run = preview(m_manifest);
        if (run.exitCode != 0 || stateOf(run) != QStringLiteral("done")) {
            qWarning("%s", qPrintable(run.err + run.out));
            return {};
        }
        natsMsg *raw = nullptr;
        if (natsSubscription_NextMsg(&raw, requests.get(), 10000) != NATS_OK)
            return {};
        const Message message(raw);
        return std::string(dataOf(message.get()));
    }

    /// Publishes `payload` again and checks the agent refused it: one warning naming the request
    /// and `reason`, no answer on its reply subject.
    void replayIsRefused(const std::string &payload, const QString &reason)
    {
        const auto decoded = fleet::decodeSignedRequest(payload);
        QVERIFY(decoded);
        const QString id = q(decoded->request.id);
        auto forger = connect();
        QVERIFY(forger);
        const Subscription answers = subscribe(*forger, decoded->request.reply);
        const qsizetype from = m_agent->log().size();
        // The captured request goes out again through the official JavaScript client, as a peer
        // that is not this product would send it.
        const QString file = m_dir.filePath(QStringLiteral("captured-request"));
        QVERIFY(test::writeFile(file, QByteArray::fromStdString(payload)));
        QProcess node;
        node.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        node.start(m_node,
            {QStringLiteral(CCM_SOURCE_DIR "/tests/fleet/interop/publish.js"), m_server.url(),
                q(std::string(fleet::kPreviewRequestSubject)), file});
        QVERIFY(node.waitForFinished(60000));
        QCOMPARE(node.exitCode(), 0);
        QVERIFY2(m_agent->waitForLog(QStringLiteral("rejected request ") + id + QStringLiteral(": ") + reason, from),
            qPrintable(m_agent->log().mid(from)));
        QCOMPARE(natsConnection_Flush(forger->connection()), NATS_OK);
        int pending = -1;
        natsSubscription_GetPending(answers.get(), &pending, nullptr);
        QCOMPARE(pending, 0);
        QCOMPARE(m_agent->log().mid(from).count(id), 1);
    }

    void freshPreviewIsAnswered()
    {
        const BackendRun run = preview(m_manifest);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QCOMPARE(stateOf(run), QStringLiteral("done"));
    }

    QString seenFile() const { return QFileInfo(m_agent->previewWork()).path() + QStringLiteral("/preview-seen"); }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (m_node.isEmpty())
            QSKIP("node is not installed: replays are sent with the official NATS JavaScript client "
                  "(scripts/install-deps installs it)");
        if (!QFile::exists(QStringLiteral(CCM_SOURCE_DIR "/tests/fleet/interop/node_modules/nats/package.json")))
            QFAIL("the nats npm package is missing from tests/fleet/interop: run scripts/install-deps");
        if (previewUser() == "nobody" && ::getpwnam("nobody") == nullptr)
            QSKIP("needs a user named nobody to run previews as");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        m_signer = m_dir.filePath(QStringLiteral("signer.pem"));
        QCOMPARE(
            runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), m_signer}).exitCode,
            0);
        m_manifest = m_dir.filePath(QStringLiteral("site/manifest.yaml"));
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("site"))));
        QVERIFY(ccm::test::writeFile(m_manifest,
            "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.target }}\":\n            ensure: present\n"
            "            owner: root\n            group: root\n            mode: \"0644\"\n"
            "            content: \"role {{ Facts.role }}\\n\"\n"));
        m_agent = std::make_unique<FleetAgent>(QStringLiteral("web-1"), "web", m_server.url());
        m_agent->configure("  enabled: true\n  trusted_keys: ["
            + m_dir.filePath(QStringLiteral("signer.pub.pem")).toUtf8() + "]\n  user: " + previewUser() + "\n");
        m_agent->start();
        QVERIFY2(m_agent->waitForLog(QStringLiteral("fleet preview: answering requests")), qPrintable(m_agent->log()));
    }

    void replayAfterTheServerRestartsIsRefused()
    {
        const std::string captured = captureValidRequest();
        QVERIFY(!captured.empty());
        const qsizetype from = m_agent->log().size();
        QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
        // A new responder on the new connection: the one that saw the request is gone.
        QVERIFY2(
            m_agent->waitForLog(QStringLiteral("fleet preview: answering requests"), from), qPrintable(m_agent->log()));
        replayIsRefused(captured, QStringLiteral("replayed"));
        if (QTest::currentTestFailed())
            return;
        freshPreviewIsAnswered();
    }

    void replayAfterAReloadIsRefused()
    {
        const std::string captured = captureValidRequest();
        QVERIFY(!captured.empty());
        const qsizetype from = m_agent->log().size();
        m_agent->signal(SIGHUP);
        QVERIFY2(m_agent->waitForLog(QStringLiteral("SIGHUP: reloading"), from), qPrintable(m_agent->log()));
        QVERIFY2(
            m_agent->waitForLog(QStringLiteral("fleet preview: answering requests"), from), qPrintable(m_agent->log()));
        replayIsRefused(captured, QStringLiteral("replayed"));
        if (QTest::currentTestFailed())
            return;
        freshPreviewIsAnswered();
    }

    void replayAfterARestartIsRefused()
    {
        const std::string captured = captureValidRequest();
        QVERIFY(!captured.empty());
        QCOMPARE(m_agent->stop(), 0);
        const qsizetype from = m_agent->log().size();
        m_agent->start();
        QVERIFY2(
            m_agent->waitForLog(QStringLiteral("fleet preview: answering requests"), from), qPrintable(m_agent->log()));
        replayIsRefused(captured, QStringLiteral("replayed"));
        if (QTest::currentTestFailed())
            return;
        freshPreviewIsAnswered();
        if (QTest::currentTestFailed())
            return;
        // The ids outlive the process in a file only its user may read, replaced whole.
        QCOMPARE(lstatModeOf(seenFile()), static_cast<mode_t>(0600));
        struct stat info { };
        QCOMPARE(::stat(seenFile().toUtf8().constData(), &info), 0);
        QCOMPARE(info.st_uid, ::geteuid());
        QVERIFY(QDir(QFileInfo(seenFile()).path()).entryList({QStringLiteral("preview-seen.*")}).isEmpty());
    }

    void previewFilesAreClosedToOthers()
    {
        // Others may pass through to the unpacked bundle they are given, not list either directory.
        QCOMPARE(lstatModeOf(QFileInfo(m_agent->previewWork()).path()), static_cast<mode_t>(0711));
        QCOMPARE(lstatModeOf(m_agent->previewWork()), static_cast<mode_t>(0711));

        // A bundle big enough that its archive lives a while as it is fetched and unpacked.
        const QString site = m_dir.filePath(QStringLiteral("big"));
        QVERIFY(QDir().mkpath(site));
        QVERIFY(QFile::copy(m_manifest, site + QStringLiteral("/manifest.yaml")));
        QVERIFY(ccm::test::writeFile(site + QStringLiteral("/blob.bin"), ccm::test::randomBytes(8 << 20, 3)));
        const QString bundle = m_dir.filePath(QStringLiteral("big.tar.gz"));
        QProcess tar;
        tar.start(QStringLiteral("tar"),
            {QStringLiteral("-czf"), bundle, QStringLiteral("-C"), site, QStringLiteral("manifest.yaml"),
                QStringLiteral("blob.bin")});
        QVERIFY(tar.waitForFinished(60000) && tar.exitCode() == 0);

        // Each entry is looked at as soon as it appears; one removed before that is tried again.
        std::vector<CreatedEntries::Entry> seen;
        for (int attempt = 0; attempt < 3 && seen.empty(); ++attempt) {
            CreatedEntries created(m_agent->previewWork());
            QVERIFY(created.watching());
            const BackendRun run = preview(bundle);
            QVERIFY2(run.exitCode == 0 && stateOf(run) == QStringLiteral("done"), qPrintable(run.err + run.out));
            for (const auto &entry : created.entries())
                if (entry.name.startsWith(QStringLiteral("preview-")))
                    seen.push_back(entry);
            for (const auto &entry : created.entries())
                QVERIFY2((entry.mode & 0007) == 0,
                    qPrintable(entry.name + QStringLiteral(" mode ") + QString::number(entry.mode & 07777, 8)));
        }
        QVERIFY(!seen.empty());
        for (const auto &entry : seen) {
            QVERIFY2(S_ISREG(entry.mode) && (entry.mode & 07777) == 0600 && entry.uid == ::geteuid(),
                qPrintable(entry.name + QStringLiteral(" mode ") + QString::number(entry.mode & 07777, 8)));
        }
    }

    void aStalePreviewObjectIsRemoved()
    {
        auto connection = connect();
        QVERIFY(connection);
        auto opened = fleet::ObjectStore::openOrCreate(*connection, std::string(fleet::kPreviewBucket));
        QVERIFY(opened);
        fleet::ObjectStore store = std::move(opened).value();
        // Left by requesters that died an hour ago, just now, and with a clock two hours ahead, and
        // an object that is not a preview's.
        const std::vector<std::pair<std::string, std::chrono::minutes>> objects
            = {{"preview-deadrequester00000000000", 60min}, {"preview-liverequester00000000000", 0min},
                {"preview-aheadrequester0000000000", -120min}, {"notes-of-someone", 60min}};
        for (const auto &[name, age] : objects) {
            std::istringstream data("bundle bytes");
            QVERIFY(store.put(name, data));
            if (age == 0min)
                continue;
            // Its meta record as the requester wrote it then: official clients keep mtime there.
            const std::string subject = "$O." + std::string(fleet::kPreviewBucket) + ".M." + encodeBase64Url(name);
            natsMsg *raw = nullptr;
            QCOMPARE(js_GetLastMsg(&raw, connection->jetStream(), ("OBJ_" + std::string(fleet::kPreviewBucket)).c_str(),
                         subject.c_str(), nullptr, nullptr),
                NATS_OK);
            const Message message(raw);
            Json meta = parseJson(dataOf(message.get()));
            meta["mtime"] = fleet::formatRfc3339(fleet::Clock::now() - age);
            const std::string text = meta.dump();
            QCOMPARE(natsConnection_Publish(
                         connection->connection(), subject.c_str(), text.data(), static_cast<int>(text.size())),
                NATS_OK);
            QCOMPARE(natsConnection_Flush(connection->connection()), NATS_OK);
        }
        freshPreviewIsAnswered();
        if (QTest::currentTestFailed())
            return;
        const auto dead = store.info("preview-deadrequester00000000000");
        QVERIFY(!dead);
        QCOMPARE(q(dead.error().code), QStringLiteral("object_not_found"));
        QVERIFY(!store.info("preview-aheadrequester0000000000"));
        QVERIFY(store.info("preview-liverequester00000000000"));
        QVERIFY(store.info("notes-of-someone"));
        // The bucket was made without a time to live; the preview gave it one, so the server itself
        // removes what a requester that never comes back leaves.
        jsStreamInfo *info = nullptr;
        QCOMPARE(js_GetStreamInfo(&info, connection->jetStream(), ("OBJ_" + std::string(fleet::kPreviewBucket)).c_str(),
                     nullptr, nullptr),
            NATS_OK);
        const std::int64_t maxAge = info->Config->MaxAge;
        jsStreamInfo_Destroy(info);
        QCOMPARE(maxAge, std::int64_t(std::chrono::nanoseconds(16min).count()));
    }

    /// Last: for a minute after it, the agent refuses requests the requester issues.
    void aDamagedRecordIsReportedAndFailsClosed()
    {
        const std::string captured = captureValidRequest();
        QVERIFY(!captured.empty());
        QCOMPARE(m_agent->stop(), 0);
        QVERIFY(ccm::test::writeFile(seenFile(), "ccm-preview-seen 1\n\x01\xff garbage" + QByteArray(5000, '\0')));
        const qsizetype from = m_agent->log().size();
        m_agent->start();
        QVERIFY2(
            m_agent->waitForLog(QStringLiteral("fleet preview: answering requests"), from), qPrintable(m_agent->log()));
        const QString log = m_agent->log().mid(from);
        QCOMPARE(log.count(QStringLiteral("preview-seen")), 1);
        QVERIFY2(log.contains(QStringLiteral("fleet preview: ") + seenFile() + QStringLiteral(": line 2: "))
                && log.contains(QStringLiteral("the request ids it held are lost")),
            qPrintable(log));
        const auto seen = std::chrono::system_clock::now();

        // What it held may have been the captured request: refused.
        replayIsRefused(captured, QStringLiteral("issued before"));
        if (QTest::currentTestFailed())
            return;

        // A request issued after the loss, plus the skew a captured one could carry, is taken. Its
        // bundle does not exist: an answer at all is what shows it was taken.
        std::this_thread::sleep_until(std::chrono::ceil<std::chrono::seconds>(seen));
        auto key = loadPrivateKey(m_signer.toStdString());
        QVERIFY(key);
        auto forger = connect();
        QVERIFY(forger);
        fleet::PreviewRequest request;
        request.id = fleet::newPreviewId();
        request.issued = std::chrono::floor<std::chrono::seconds>(fleet::Clock::now()) + fleet::kMaxClockSkew;
        request.expires = request.issued + 5min;
        request.reply = "_INBOX.fresh" + fleet::newPreviewId();
        request.bundle = {"CCM_PREVIEW", "preview-none", "SHA-256=x"};
        const Subscription answers = subscribe(*forger, request.reply);
        const std::string payload = fleet::encodeSignedRequest(request, key.value()).value();
        QCOMPARE(natsConnection_Publish(forger->connection(), std::string(fleet::kPreviewRequestSubject).c_str(),
                     payload.data(), static_cast<int>(payload.size())),
            NATS_OK);
        QVERIFY2(waitForAnswer(answers.get(), "accepted"), qPrintable(m_agent->log().mid(from)));
        QCOMPARE(lstatModeOf(seenFile()), static_cast<mode_t>(0600));
    }

    void cleanupTestCase()
    {
        if (m_agent)
            QVERIFY2(m_agent->stop() == 0, qPrintable(m_agent->log()));
    }
};

CCM_TEST_GUILESS_MAIN(TestPreviewReplay)
#include "tst_preview_replay.moc"
