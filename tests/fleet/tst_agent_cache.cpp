// SPDX-License-Identifier: Apache-2.0
// The agent's cache of last good bundles and its queue of unsent reports, with real agent
// processes against a real nats-server: refused bundles (hostile, invalid, too large) never
// replace the last good one, the files under cache_dir are born private, and run reports made
// during an outage survive reloads and restarts.
#include "../backend/backend_process.h"
#include "agent_under_test.h"
#include "base/base64.h"
#include "fleet/agent/agent_report.h"
#include "fleet/nats/kv_reader.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "http_server.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <arpa/inet.h>
#include <atomic>
#include <csignal>
#include <map>
#include <mutex>
#include <nats/nats.h>
#include <netinet/in.h>
#include <poll.h>
#include <sstream>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::AgentUnderTest;
using ccm::test::freePort;
using ccm::test::kConverge;
using ccm::test::q;
using ccm::test::readAll;

namespace {

/// ms until the next poll of a source has surely happened: the agents here poll every second.
constexpr int kNextPoll = 15000;

/// A manifest writing "VERSION TAG" to Facts.out, with a health check that is critical while the
/// file does not hold VERSION (so a file changed by hand is remediated at the next check).
QByteArray versionCheckedManifest(const QByteArray &version)
{
    return "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.out }}\":\n"
           "            ensure: present\n            owner: root\n            group: root\n"
           "            mode: \"0644\"\n            content: \""
        + version
        + " {{ Facts.tag }}\\n\"\n            health_checks:\n"
          "              - {command: \"/bin/sh -c 'grep -q "
        + version + " {{ Facts.out }} || exit 2'\"}\n";
}

/// A gzip tar archive of `files` (name -> content; a content starting with "->" is a symbolic
/// link to the rest), with a SHA256SUMS over the regular files (wrong ones with `wrongSums`), as
/// `tar` writes it.
QByteArray tarBundle(const std::map<QString, QByteArray> &files, bool wrongSums = false)
{
    QTemporaryDir dir;
    QByteArray sums;
    QStringList members;
    for (const auto &[name, content] : files) {
        members << name;
        if (content.startsWith("->")) {
            QFile::link(QString::fromUtf8(content.mid(2)), dir.filePath(name));
            continue;
        }
        test::writeFile(dir, name, content);
        sums += QCryptographicHash::hash(wrongSums ? content + "!" : content, QCryptographicHash::Sha256).toHex() + "  "
            + name.toUtf8() + "\n";
    }
    test::writeFile(dir, QStringLiteral("SHA256SUMS"), sums);
    members << QStringLiteral("SHA256SUMS");
    QProcess tar;
    tar.start(QStringLiteral("tar"),
        QStringList {
            QStringLiteral("-czf"), dir.filePath(QStringLiteral("out.tar.gz")), QStringLiteral("-C"), dir.path()}
            + members);
    tar.waitForFinished();
    return readAll(dir.filePath(QStringLiteral("out.tar.gz")));
}

/// Records the mode every file and directory had when it appeared under a directory (and in the
/// `cache` directory below it once that appears), seen through inotify as it happens.
class CreationWatcher {
public:
    explicit CreationWatcher(const QString &parent)
        : m_parent(parent.toStdString())
        , m_fd(::inotify_init1(IN_CLOEXEC | IN_NONBLOCK))
        , m_parentWatch(::inotify_add_watch(m_fd, m_parent.c_str(), IN_CREATE | IN_MOVED_TO))
    {
        m_thread = std::thread([this] { watch(); });
    }
    ~CreationWatcher()
    {
        m_stop = true;
        m_thread.join();
        ::close(m_fd);
    }

    /// "NAME 0MODE" of every file seen with group or other permissions.
    QStringList open() const
    {
        const std::lock_guard lock(m_mutex);
        return m_open;
    }
    int seen() const
    {
        const std::lock_guard lock(m_mutex);
        return m_seen;
    }

private:
    void watch()
    {
        std::map<int, std::string> directories {{m_parentWatch, m_parent}};
        alignas(inotify_event) char buffer[16 * 1024];
        while (!m_stop) {
            pollfd ready {m_fd, POLLIN, 0};
            if (::poll(&ready, 1, 50) <= 0)
                continue;
            const ssize_t length = ::read(m_fd, buffer, sizeof buffer);
            for (ssize_t at = 0; at < length;) {
                const auto *event = reinterpret_cast<const inotify_event *>(buffer + at);
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
                if (event->len == 0 || !directories.contains(event->wd))
                    continue;
                const std::string path = directories[event->wd] + "/" + event->name;
                struct stat info { };
                if (::lstat(path.c_str(), &info) != 0)
                    continue;
                if (S_ISDIR(info.st_mode) && std::string_view(event->name) == "cache")
                    directories[::inotify_add_watch(m_fd, path.c_str(), IN_CREATE | IN_MOVED_TO)] = path;
                else if (event->wd == m_parentWatch)
                    continue;
                const std::lock_guard lock(m_mutex);
                ++m_seen;
                if ((info.st_mode & 077) != 0)
                    m_open << QString::fromStdString(path) + QStringLiteral(" 0")
                            + QString::number(info.st_mode & 0777, 8);
            }
        }
    }

    std::string m_parent;
    int m_fd;
    int m_parentWatch;
    std::atomic<bool> m_stop {false};
    mutable std::mutex m_mutex;
    QStringList m_open;
    int m_seen = 0;
    std::thread m_thread;
};

} // namespace

class TestAgentCache : public QObject {
    Q_OBJECT

private:
    test::NatsServer m_server;
    QTemporaryDir m_dir;

    std::unique_ptr<NatsConnection> connect()
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        return connection ? std::move(connection).value() : nullptr;
    }

    /// versionCheckedManifest(version) bundled by `ccm-backend bundle`.
    QByteArray goodBundle(const QByteArray &version)
    {
        const QString manifest
            = test::writeFile(m_dir, QStringLiteral("site/site.yaml"), versionCheckedManifest(version));
        const QString out
            = m_dir.filePath(QStringLiteral("site-") + QString::fromUtf8(version) + QStringLiteral(".tar.gz"));
        const test::BackendRun run = test::runBackend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), out});
        if (run.exitCode != 0)
            qWarning("bundle failed: %s", qPrintable(run.err));
        return readAll(out);
    }

    bool publish(const std::string &name, const QByteArray &bytes)
    {
        auto connection = connect();
        if (!connection)
            return false;
        auto store = ObjectStore::openOrCreate(*connection, "bundles");
        if (!store)
            return false;
        std::istringstream data(bytes.toStdString());
        return store.value().put(name, data).ok();
    }

    /// Replaces the meta record of `name` with one claiming `size` bytes of the contents `digest`
    /// (its chunks stay those of the object there now).
    bool publishMeta(const std::string &name, std::uint64_t size, const std::string &digest)
    {
        auto connection = connect();
        if (!connection)
            return false;
        auto store = ObjectStore::open(*connection, "bundles");
        auto info = store ? store.value().info(name) : Result<ObjectInfo>(store.error());
        if (!info)
            return false;
        const Json meta {{"name", name}, {"options", {{"max_chunk_size", ObjectStore::kChunkSize}}},
            {"bucket", "bundles"}, {"nuid", info->nuid}, {"size", size}, {"mtime", info->mtime},
            {"chunks", size / ObjectStore::kChunkSize + 1}, {"digest", digest}};
        const std::string subject = "$O.bundles.M." + encodeBase64Url(name);
        const std::string text = meta.dump();
        natsMsg *message = nullptr;
        if (natsMsg_Create(&message, subject.c_str(), nullptr, text.data(), static_cast<int>(text.size())) != NATS_OK)
            return false;
        natsMsgHeader_Set(message, "Nats-Rollup", "sub");
        jsErrCode error = static_cast<jsErrCode>(0);
        const natsStatus status = js_PublishMsg(nullptr, connection->jetStream(), message, nullptr, &error);
        natsMsg_Destroy(message);
        return status == NATS_OK;
    }

    Result<Json> status(const QString &identity)
    {
        NatsSelection selection;
        selection.url = m_server.urlString();
        KvReader reader(selection, ContextEnvironment::fromProcess());
        auto value = reader.get(std::string(kStatusBucket), statusKey(identity.toStdString()));
        if (!value)
            return value.error();
        return Json::parse(*value, nullptr, false);
    }

    /// The status of `identity` as an object; an empty one while there is none or it is not an
    /// object, so that a test polling it never reads into a value that is not there yet.
    Json statusOf(const QString &identity)
    {
        auto value = status(identity);
        return value && value->is_object() ? *value : Json::object();
    }

    /// The bundles the status of `identity` lists as refused; empty while there are none.
    Json refusedBundles(const QString &identity)
    {
        const Json refused = statusOf(identity).value("refused_bundles", Json::array());
        return refused.is_array() ? refused : Json::array();
    }

    /// The digest of the bundle the latest run in the status of `identity` says was refused.
    std::string latestRunRefusal(const QString &identity)
    {
        const Json runs = statusOf(identity).value("runs", Json::array());
        if (!runs.is_array() || runs.empty() || !runs[0].is_object())
            return {};
        const Json refused = runs[0].value("refused_bundle", Json::object());
        return refused.is_object() ? refused.value("digest", std::string()) : std::string();
    }

    /// The changed count of the status of `identity`, -1 while there is none.
    int changedInStatus(const QString &identity)
    {
        const Json summary = statusOf(identity).value("summary", Json::object());
        const Json changed = summary.is_object() ? summary.value("changed", Json()) : Json();
        return changed.is_number_integer() ? changed.get<int>() : -1;
    }

    /// Every status value stored for `identity` that the bucket's history keeps, oldest first.
    std::vector<Json> statusHistory(const QString &identity)
    {
        std::vector<Json> values;
        auto connection = connect();
        if (!connection)
            return values;
        kvStore *kv = nullptr;
        if (js_KeyValue(&kv, connection->jetStream(), std::string(kStatusBucket).c_str()) != NATS_OK)
            return values;
        kvEntryList list {};
        if (kvStore_History(&list, kv, statusKey(identity.toStdString()).c_str(), nullptr) == NATS_OK) {
            for (int i = 0; i < list.Count; ++i)
                values.push_back(Json::parse(std::string(static_cast<const char *>(kvEntry_Value(list.Entries[i])),
                                                 static_cast<std::size_t>(kvEntry_ValueLen(list.Entries[i]))),
                    nullptr, false));
            kvEntryList_Destroy(&list);
        }
        kvStore_Destroy(kv);
        return values;
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        // Made before any agent (which then uses it) with a history, so that every status an
        // agent stores can be read back, not only the latest.
        auto connection = connect();
        QVERIFY(connection);
        kvConfig config;
        kvConfig_Init(&config);
        const std::string bucket(kStatusBucket);
        config.Bucket = bucket.c_str();
        config.History = 64;
        kvStore *kv = nullptr;
        QCOMPARE(js_CreateKeyValue(&kv, connection->jetStream(), &config), NATS_OK);
        kvStore_Destroy(kv);
    }

    void refusedBundleKeepsTheLastGood_data();
    void refusedBundleKeepsTheLastGood();
    void firstBundleRefusedLeavesNothingToRun();
    void oversizeObjectIsRefusedUnfetched();
    void refusedHttpBundleIsNotFetchedAgain();
    void cacheFilesAreBornPrivate();
    void unsentReportSurvives_data();
    void unsentReportSurvives();
};

void TestAgentCache::refusedBundleKeepsTheLastGood_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bad");
    const QByteArray valid = "ccm:\n  resources:\n    - exec:\n        - /bin/true: {}\n";
    QTest::newRow("a link member") << QStringLiteral("link")
                                   << tarBundle({{QStringLiteral("manifest.yaml"), valid},
                                          {QStringLiteral("shadow"), QByteArray("->/etc/shadow")}});
    QTest::newRow("a wrong checksum") << QStringLiteral("sums")
                                      << tarBundle({{QStringLiteral("manifest.yaml"), valid}}, true);
    QTest::newRow("an invalid manifest") << QStringLiteral("invalid")
                                         << tarBundle({{QStringLiteral("manifest.yaml"),
                                                "ccm:\n  resources:\n    - nosuchtype:\n        - x: {}\n"}});
}

void TestAgentCache::refusedBundleKeepsTheLastGood()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bad);
    const std::string object = "prod/" + name.toStdString() + ".tar.gz";
    const QString source = QStringLiteral("obj://bundles/") + q(object);
    const QByteArray good = goodBundle("v1");
    QVERIFY(publish(object, good));
    const quint16 port = freePort();
    AgentUnderTest agent(QStringLiteral("refuse-") + name, m_server.url());
    agent.configure("interval: 5m\nhealth_check_interval: 1s\nlog_level: debug\nmonitor_port: "
        + QByteArray::number(port) + "\nmanifests:\n  - " + source.toUtf8() + "\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 refuse-") + name + QStringLiteral("\n"), kConverge);

    // Published over the good one: refused, reported once, and the good one stays cached.
    const qsizetype mark = agent.log().size();
    QVERIFY(publish(object, bad));
    const QString digest = q(objectDigest(bad.toStdString()));
    const QString refusal = source + QStringLiteral(": refused the bundle ") + digest + QStringLiteral(": ");
    QVERIFY2(agent.waitForLog(refusal, mark), qPrintable(agent.log()));
    QVERIFY2(
        agent.log().contains(QStringLiteral("; running the last good bundle ") + q(objectDigest(good.toStdString()))),
        qPrintable(agent.log()));
    QVERIFY2(test::agentMetrics(port).contains(
                 QStringLiteral("ccm_agent_bundles_refused_total{source=\"") + source + QStringLiteral("\"} 1")),
        qPrintable(test::agentMetrics(port)));
    QTRY_VERIFY_WITH_TIMEOUT(refusedBundles(agent.identity()).size() == 1, kConverge);
    const Json refused = refusedBundles(agent.identity())[0];
    QCOMPARE(q(refused.value("source", "")), source);
    QCOMPARE(q(refused.value("digest", "")), digest);
    QCOMPARE(agent.cachedBundles().size(), 1);
    QCOMPARE(readAll(agent.cacheDir() + QLatin1Char('/') + agent.cachedBundles().front()), good);

    // With NATS down, a file changed by hand is put back from the last good bundle.
    m_server.stop();
    QVERIFY(test::writeFile(agent.outFile(), "changed by hand\n"));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 refuse-") + name + QStringLiteral("\n"), kConverge);

    // Back online, the agent catches up: the refused object is not fetched or reported again,
    // and the runs meanwhile say which bundle was refused.
    const qsizetype outage = agent.log().size();
    QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
    QVERIFY2(agent.waitForLog(digest + QStringLiteral(" was refused: not fetched again"), outage),
        qPrintable(agent.log().mid(outage)));
    QCOMPARE(agent.log().count(refusal), 1);
    // One line, however many diagnostics it carries: the next line is another message.
    const qsizetype end = agent.log().indexOf(QLatin1Char('\n'), agent.log().indexOf(refusal));
    static const QRegularExpression message(QStringLiteral("^(debug|info|warn|error): "));
    QVERIFY2(message.match(agent.log().mid(end + 1)).hasMatch(), qPrintable(agent.log().mid(end - 500, 1000)));
    QVERIFY(test::agentMetrics(port).contains(
        QStringLiteral("ccm_agent_bundles_refused_total{source=\"") + source + QStringLiteral("\"} 1")));
    QTRY_VERIFY_WITH_TIMEOUT(latestRunRefusal(agent.identity()) == digest.toStdString(), kConverge);

    // A good bundle published next is taken and clears the refusal.
    QVERIFY(publish(object, goodBundle("v2")));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v2 refuse-") + name + QStringLiteral("\n"), kConverge);
    QTRY_VERIFY_WITH_TIMEOUT(refusedBundles(agent.identity()).empty() && status(agent.identity()).ok(), kConverge);
}

void TestAgentCache::firstBundleRefusedLeavesNothingToRun()
{
    const QByteArray bad = tarBundle({{QStringLiteral("manifest.yaml"), "ccm:\n  resources: 12\n"}});
    QVERIFY(publish("prod/first.tar.gz", bad));
    AgentUnderTest agent(QStringLiteral("first"), m_server.url());
    agent.configure("manifests:\n  - obj://bundles/prod/first.tar.gz\n");
    agent.start({QStringLiteral("--once")});
    QCOMPARE(agent.exitCode(kConverge), 1);
    const QString digest = q(objectDigest(bad.toStdString()));
    QVERIFY2(agent.log().contains(QStringLiteral("obj://bundles/prod/first.tar.gz: refused the bundle ") + digest
                 + QStringLiteral(": ")),
        qPrintable(agent.log()));
    QVERIFY2(agent.log().contains(QStringLiteral("; no good bundle to run yet")), qPrintable(agent.log()));
    QVERIFY2(agent.log().contains(QStringLiteral("apply could not run: no good bundle fetched yet: refused ") + digest),
        qPrintable(agent.log()));
    QVERIFY(agent.cachedBundles().isEmpty());
}

void TestAgentCache::oversizeObjectIsRefusedUnfetched()
{
    const std::string object = "prod/big.tar.gz";
    const QString source = QStringLiteral("obj://bundles/prod/big.tar.gz");
    const QByteArray good = goodBundle("v1");
    QVERIFY(publish(object, good));
    const quint16 port = freePort();
    AgentUnderTest agent(QStringLiteral("big"), m_server.url());
    agent.configure("interval: 5m\npoll_interval: 1s\nlog_level: debug\nmonitor_port: " + QByteArray::number(port)
        + "\nmanifests:\n  - " + source.toUtf8() + "\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 big\n"), kConverge);

    // A meta record claiming 300 MiB: refused from the record alone. Its chunks are those of the
    // small object, so a fetch would fail on the size instead, and say so.
    const qsizetype mark = agent.log().size();
    const std::string digest = objectDigest("300 MiB of something");
    QVERIFY(publishMeta(object, 300ull * 1024 * 1024, digest));
    const QString refusal = source + QStringLiteral(": refused the bundle ") + q(digest)
        + QStringLiteral(": larger than the limit of 256 MiB (314572800 bytes)");
    QVERIFY2(agent.waitForLog(refusal, mark), qPrintable(agent.log().mid(mark)));

    // The next poll reads the record again and leaves the object alone, without a word above debug.
    QVERIFY2(agent.waitForLog(q(digest) + QStringLiteral(" was refused: not fetched again"), mark, kNextPoll),
        qPrintable(agent.log().mid(mark)));
    QCOMPARE(agent.log().count(refusal), 1);
    QVERIFY2(!agent.log().mid(mark).contains(QStringLiteral("fetch failed")), qPrintable(agent.log().mid(mark)));
    const QString text = test::agentMetrics(port);
    QVERIFY2(
        text.contains(QStringLiteral("ccm_agent_bundles_refused_total{source=\"") + source + QStringLiteral("\"} 1")),
        qPrintable(text));
    QVERIFY2(
        !text.contains(QStringLiteral("ccm_agent_source_fetch_errors_total{source=\"") + source), qPrintable(text));
    QCOMPARE(readAll(agent.cacheDir() + QLatin1Char('/') + agent.cachedBundles().front()), good);
}

void TestAgentCache::refusedHttpBundleIsNotFetchedAgain()
{
    if (!test::HttpServer::available())
        QSKIP("python3 is not installed");
    test::HttpServer http;
    QVERIFY2(http.start(), qPrintable(http.error()));
    const QByteArray good = goodBundle("v1");
    QVERIFY(test::writeFile(http.root() + QStringLiteral("/site.tar.gz"), good));
    const QString source = http.url(QStringLiteral("/etag/site.tar.gz"));
    AgentUnderTest agent(QStringLiteral("http-refuse"), m_server.url());
    agent.configure("interval: 5m\npoll_interval: 1s\nmanifests:\n  - " + source.toUtf8() + "\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 http-refuse\n"), kConverge);

    // The next poll downloads the new file and refuses it; the ones after ask with its ETag and
    // get 304: the refused bundle is neither downloaded nor reported again.
    const QByteArray bad = tarBundle({{QStringLiteral("manifest.yaml"), "ccm:\n  resources: 12\n"}});
    QVERIFY(test::writeFile(http.root() + QStringLiteral("/site.tar.gz"), bad));
    const QString refusal
        = source + QStringLiteral(": refused the bundle ") + q(objectDigest(bad.toStdString())) + QStringLiteral(": ");
    QVERIFY2(agent.waitForLog(refusal, 0, kNextPoll), qPrintable(agent.log()));
    const QString requests = http.root() + QStringLiteral("/requests.log");
    const auto afterRefusal = [&] {
        const QString log = QString::fromUtf8(readAll(requests));
        return log.mid(log.lastIndexOf(QStringLiteral(" 200\n")));
    };
    QTRY_VERIFY_WITH_TIMEOUT(afterRefusal().count(QStringLiteral("etag site.tar.gz 304\n")) >= 2, kNextPoll);
    QCOMPARE(QString::fromUtf8(readAll(requests)).count(QStringLiteral(" 200\n")), 2);
    QCOMPARE(agent.log().count(refusal), 1);
    QCOMPARE(agent.cachedBundles().size(), 1);
    QCOMPARE(readAll(agent.cacheDir() + QLatin1Char('/') + agent.cachedBundles().front()), good);
}

void TestAgentCache::cacheFilesAreBornPrivate()
{
    // Under umask 0, a file the agent did not create with its final mode shows group and other
    // permissions at some point: the watcher looks at each as it appears.
    const std::string object = "prod/private.tar.gz";
    QVERIFY(publish(object, goodBundle("v1")));
    AgentUnderTest agent(QStringLiteral("private"), m_server.url());
    agent.configure("interval: 5m\nmanifests:\n  - obj://bundles/prod/private.tar.gz\n");
    std::optional<CreationWatcher> watcher;
    watcher.emplace(agent.home());
    agent.startWithOpenUmask();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 private\n"), kConverge);
    QVERIFY(publish(object, goodBundle("v2")));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v2 private\n"), kConverge);
    QVERIFY(agent.stop());
    const QStringList open = watcher->open();
    QVERIFY(watcher->seen() > 0);
    watcher.reset();
    QVERIFY2(open.isEmpty(), qPrintable(open.join(QLatin1Char('\n'))));

    struct stat info { };
    QCOMPARE(::stat(agent.cacheDir().toUtf8().constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, 0700u);
    const QFileInfoList files = QDir(agent.cacheDir()).entryInfoList(QDir::Files | QDir::Hidden);
    QVERIFY(files.size() >= 3); // the bundle, its record and the reports
    for (const QFileInfo &file : files) {
        QCOMPARE(::stat(file.filePath().toUtf8().constData(), &info), 0);
        QVERIFY2((info.st_mode & 0777) == 0600, qPrintable(file.fileName()));
    }
}

void TestAgentCache::unsentReportSurvives_data()
{
    QTest::addColumn<bool>("restart");
    QTest::newRow("a reload") << false;
    QTest::newRow("a restart") << true;
}

void TestAgentCache::unsentReportSurvives()
{
    QFETCH(bool, restart);
    const QString identity = restart ? QStringLiteral("outbox-restart") : QStringLiteral("outbox-reload");
    AgentUnderTest agent(identity, m_server.url());
    const QString manifest = test::writeFile(m_dir, QStringLiteral("local/") + identity + QStringLiteral(".yaml"),
        "ccm:\n  resources:\n    - file:\n        - " + agent.outFile().toUtf8()
            + ":\n            ensure: present\n            owner: root\n            group: root\n"
              "            mode: \"0644\"\n            content: \"kept\\n\"\n");
    // The file is right from the start: the only run that changes something is the one below.
    QVERIFY(test::writeFile(agent.outFile(), "kept\n"));
    QVERIFY(QFile::setPermissions(
        agent.outFile(), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    agent.configure("interval: 5m\nmanifests:\n  - " + manifest.toUtf8() + "\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(changedInStatus(identity), 0, kConverge);
    // The first run's own line, which may come after its status: the line waited for below must be
    // the next run's.
    QVERIFY2(agent.waitForLog(manifest + QStringLiteral(": apply: ")), qPrintable(agent.log()));

    // During an outage a run puts the file back (changed 1); then the workers are rebuilt and run
    // again (changed 0) before NATS returns.
    m_server.stop();
    QVERIFY(test::writeFile(agent.outFile(), "changed by hand\n"));
    qsizetype mark = agent.log().size();
    agent.signal(SIGHUP);
    QVERIFY2(agent.waitForLog(manifest + QStringLiteral(": apply: "), mark), qPrintable(agent.log().mid(mark)));
    QCOMPARE(agent.managed(), QStringLiteral("kept\n"));
    if (restart) {
        QVERIFY(agent.stop());
        agent.start();
        mark = 0;
        QVERIFY2(
            agent.waitForLog(QStringLiteral("unsent report(s) of an earlier run queued")), qPrintable(agent.log()));
    } else {
        mark = agent.log().size();
        agent.signal(SIGHUP);
    }
    QVERIFY2(agent.waitForLog(manifest + QStringLiteral(": apply: "), mark), qPrintable(agent.log().mid(mark)));

    // Back online, every status goes out in turn: the changed run reaches CCM_STATUS.
    QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
    const auto changedStored = [&] {
        for (const Json &value : statusHistory(identity))
            if (value.is_object() && value.value("summary", Json()).is_object()
                && value["summary"].value("changed", 0) == 1)
                return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(changedStored(), kConverge);
    QTRY_VERIFY_WITH_TIMEOUT(changedInStatus(identity) == 0, kConverge);
    QVERIFY(agent.stop());
    QCOMPARE(readAll(agent.cacheDir() + QStringLiteral("/reports.json")), QByteArray("[]\n"));
}

CCM_TEST_GUILESS_MAIN(TestAgentCache)
#include "tst_agent_cache.moc"
