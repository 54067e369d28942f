// SPDX-License-Identifier: Apache-2.0
// The fleet on a three-server JetStream cluster (nats_cluster.h) while one server is killed with
// SIGKILL mid-operation, restarted, and then another one killed:
// - a `publish` given every server either completes or fails with a message saying what, and the
//   bucket never shows an object whose chunks are missing;
// - with one server down, reads of an object and of a key-value bucket go on succeeding, however
//   often the server places their consumers on the dead one;
// - real agents whose context lists every server reconnect to another one, keep watching, apply
//   the next publish within seconds and answer fleet previews; a rollout hears every host;
// - every run an agent makes reaches CCM_STATUS once: none lost, none stored twice.
// The buckets are made with three replicas before anything uses them, so losing one server loses
// no data; the commands then use them as they are.
#include "../backend/backend_process.h"
#include "base/base64.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet_agent_process.h"
#include "nats_cluster.h"
#include "test_common.h"
#include "test_main.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QtTest>

#include <memory>
#include <nats/nats.h>
#include <set>
#include <sstream>

using namespace ccm;
using ccm::test::BackendRun;
using ccm::test::FleetAgent;
using ccm::test::NatsCluster;
using ccm::test::runBackend;

namespace {

/// An agent applies a publish within this, a server down or not. It is measured from the end of the
/// publish or rollout command, which itself rides out the cluster's elections: a few seconds
/// usually (the case prints it), over 30 s on a loaded machine.
constexpr int kApplyMs = 60000;
constexpr const char *kBucket = "bundles";
constexpr const char *kObject = "site.tgz";

/// A connection to a server of `cluster` that runs, other than `avoid`.
std::unique_ptr<fleet::NatsConnection> connectTo(NatsCluster &cluster, int avoid = -1)
{
    for (int i = 0; i < cluster.size(); ++i) {
        if (i == avoid || !cluster.isRunning(i))
            continue;
        fleet::NatsSettings settings;
        settings.url = cluster.url(i).toStdString();
        settings.source = "test";
        if (auto connection = fleet::NatsConnection::connect(settings))
            return std::move(connection).value();
    }
    return nullptr;
}

/// CCM_STATUS with three replicas and 64 values a key, so that the test can count the reports
/// stored (the product keeps one), made as the official clients make a bucket.
bool makeStatusKv(fleet::NatsConnection &connection)
{
    kvConfig config;
    kvConfig_Init(&config);
    config.Bucket = "CCM_STATUS";
    config.History = 64;
    config.StorageType = js_FileStorage;
    config.Replicas = 3;
    kvStore *store = nullptr;
    const natsStatus status = js_CreateKeyValue(&store, connection.jetStream(), &config);
    kvStore_Destroy(store);
    return status == NATS_OK;
}

/// Every bucket the commands and agents use, with three replicas: made as the product makes them,
/// but for CCM_STATUS (makeStatusKv()).
bool makeBuckets(NatsCluster &cluster)
{
    auto connection = connectTo(cluster);
    const fleet::BucketReplicas three {3, "--replicas", {}};
    return connection && fleet::ObjectStore::openOrCreate(*connection, kBucket, {}, three)
        && fleet::ObjectStore::openOrCreate(*connection, "CCM_PREVIEW", {}, three) && makeStatusKv(*connection)
        && fleet::KvBucket::openOrCreate(*connection, "CCM_RELEASES", three)
        && fleet::KvBucket::openOrCreate(*connection, "CCM_ROLLOUTS", three);
}

/// The stream's state as one server sees it: its leader's server index and its message count.
struct StreamState {
    int leader = -1;
    std::uint64_t messages = 0;
};

std::optional<StreamState> streamState(fleet::NatsConnection &connection, const std::string &stream)
{
    jsStreamInfo *info = nullptr;
    if (js_GetStreamInfo(&info, connection.jetStream(), stream.c_str(), nullptr, nullptr) != NATS_OK)
        return std::nullopt;
    StreamState state;
    state.messages = info->State.Msgs;
    if (info->Cluster != nullptr && info->Cluster->Leader != nullptr && info->Cluster->Leader[0] == 'n')
        state.leader = QByteArray(info->Cluster->Leader + 1).toInt();
    jsStreamInfo_Destroy(info);
    return state;
}

/// True when every stream of the buckets has a leader and all its replicas are current: a server
/// that came back has caught up, so losing another keeps a majority of every stream.
bool streamsCurrent(fleet::NatsConnection &connection)
{
    for (const char *stream :
        {"OBJ_bundles", "OBJ_CCM_PREVIEW", "KV_CCM_STATUS", "KV_CCM_RELEASES", "KV_CCM_ROLLOUTS"}) {
        jsStreamInfo *info = nullptr;
        if (js_GetStreamInfo(&info, connection.jetStream(), stream, nullptr, nullptr) != NATS_OK)
            return false;
        bool current = info->Cluster != nullptr && info->Cluster->Leader != nullptr && info->Cluster->ReplicasLen == 2;
        for (int i = 0; current && i < info->Cluster->ReplicasLen; ++i)
            current = info->Cluster->Replicas[i]->Current && !info->Cluster->Replicas[i]->Offline;
        jsStreamInfo_Destroy(info);
        if (!current)
            return false;
    }
    return true;
}

/// Restarts `server` and waits until it has caught up on every stream.
bool restartAndCatchUp(NatsCluster &cluster, int server)
{
    if (!cluster.restart(server))
        return false;
    auto connection = connectTo(cluster);
    if (!connection)
        return false;
    for (QDeadlineTimer deadline(60000); !streamsCurrent(*connection); QThread::msleep(50))
        if (deadline.hasExpired())
            return false;
    return true;
}

/// The names of the objects the bucket lists (its meta records).
std::optional<std::vector<std::string>> listedObjects(fleet::NatsConnection &connection, const std::string &bucket)
{
    const std::string prefix = "$O." + bucket + ".M.";
    const std::string filter = prefix + ">";
    jsOptions options;
    jsOptions_Init(&options);
    options.Stream.Info.SubjectsFilter = filter.c_str();
    jsStreamInfo *info = nullptr;
    const std::string stream = "OBJ_" + bucket;
    if (js_GetStreamInfo(&info, connection.jetStream(), stream.c_str(), &options, nullptr) != NATS_OK)
        return std::nullopt;
    std::vector<std::string> names;
    if (const jsStreamStateSubjects *list = info->State.Subjects)
        for (int i = 0; i < list->Count; ++i)
            if (auto name = decodeBase64Lenient(std::string(list->List[i].Subject).substr(prefix.size())))
                names.push_back(*name);
    jsStreamInfo_Destroy(info);
    return names;
}

/// Every value stored under `key` in the key-value bucket `bucket`, oldest first.
std::vector<QJsonObject> storedValues(
    fleet::NatsConnection &connection, const std::string &bucket, const std::string &key)
{
    const std::string stream = "KV_" + bucket;
    const std::string subject = "$KV." + bucket + "." + key;
    jsStreamInfo *info = nullptr;
    std::vector<QJsonObject> values;
    if (js_GetStreamInfo(&info, connection.jetStream(), stream.c_str(), nullptr, nullptr) != NATS_OK)
        return values;
    const std::uint64_t first = info->State.FirstSeq;
    const std::uint64_t last = info->State.LastSeq;
    jsStreamInfo_Destroy(info);
    for (std::uint64_t sequence = first; sequence <= last && sequence > 0; ++sequence) {
        natsMsg *message = nullptr;
        if (js_GetMsg(&message, connection.jetStream(), stream.c_str(), sequence, nullptr, nullptr) != NATS_OK)
            continue;
        if (subject == natsMsg_GetSubject(message))
            values.push_back(
                QJsonDocument::fromJson(QByteArray(natsMsg_GetData(message), natsMsg_GetDataLength(message))).object());
        natsMsg_Destroy(message);
    }
    return values;
}

/// The run ids a status value names, one per source.
QStringList runIds(const QJsonObject &status)
{
    QStringList ids;
    for (const QJsonValue &run : status[QStringLiteral("runs")].toArray())
        ids << run.toObject()[QStringLiteral("run")].toString();
    ids.sort();
    return ids;
}

/// A bundle of a manifest and `padding` bytes of noise, so that storing it takes many chunks.
QString makeBundle(const QTemporaryDir &dir, const QString &name, qsizetype padding)
{
    const QString root = dir.filePath(name + QStringLiteral(".d"));
    test::writeFile(dir, name + QStringLiteral(".d/manifest.yaml"),
        "ccm:\n  resources:\n    - file:\n        - /nonexistent/" + name.toUtf8() + ":\n            ensure: absent\n");
    QByteArray noise(padding, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(noise.data()), padding / 4);
    test::writeFile(dir, name + QStringLiteral(".d/noise.bin"), noise);
    const QString bundle = dir.filePath(name + QStringLiteral(".tgz"));
    QProcess tar;
    tar.start(QStringLiteral("tar"), {QStringLiteral("-czf"), bundle, QStringLiteral("-C"), root, QStringLiteral(".")});
    return tar.waitForFinished(60000) && tar.exitCode() == 0 ? bundle : QString();
}

std::string fileDigest(const QString &path)
{
    return fleet::objectDigest(test::readAll(path).toStdString());
}

QMap<QString, QJsonObject> previewHosts(const QString &out)
{
    QMap<QString, QJsonObject> hosts;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QJsonObject host = QJsonDocument::fromJson(line.toUtf8()).object();
        hosts.insert(host[QStringLiteral("identity")].toString(), host);
    }
    return hosts;
}

} // namespace

class TestFleetCluster : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_key; ///< signs bundles and preview requests; the agents trust it

    /// Every object the bucket lists reads back whole, with the digest its record gives; the
    /// message says which one does not.
    static QString checkObjects(NatsCluster &cluster, int avoid)
    {
        auto connection = connectTo(cluster, avoid);
        if (!connection)
            return QStringLiteral("no server to check the bucket on");
        // Until the stream has a leader again (an election follows the loss of its leader).
        auto names = listedObjects(*connection, kBucket);
        for (QDeadlineTimer elected(30000); !names && !elected.hasExpired();)
            names = listedObjects(*connection, kBucket);
        if (!names)
            return QStringLiteral("cannot list the bucket within 30 s");
        auto store = fleet::ObjectStore::open(*connection, kBucket);
        if (!store)
            return QString::fromStdString(store.error().message);
        for (const std::string &name : *names) {
            auto info = store.value().info(name);
            if (!info)
                continue; // a deleted object is listed by its delete marker
            // A read that gets no answer is tried again while the stream elects a leader; one whose
            // chunks are missing never completes.
            std::ostringstream contents;
            auto read = store.value().get(name, contents);
            for (QDeadlineTimer elected(30000); !read && !elected.hasExpired();
                 read = store.value().get(name, contents))
                contents.str({});
            if (!read)
                return QString::fromStdString(name + " is listed but does not read back: " + read.error().message);
            if (read->digest != fleet::objectDigest(contents.str()) || read->size != contents.str().size())
                return QString::fromStdString(name + " reads back with another digest");
            if (read->digest != info->digest)
                return QString::fromStdString(name + " reads back other than its record says");
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        if (!NatsCluster::available())
            QSKIP("nats-server is not on PATH");
        if (test::previewUser() == "nobody" && ::getpwnam("nobody") == nullptr)
            QSKIP("needs a user named nobody to run previews as");
        m_key = m_dir.filePath(QStringLiteral("signer.pem"));
        QCOMPARE(
            runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), m_key}).exitCode,
            0);
    }

    /// A publish killed under: the stream's leader first, then (that one back) another server.
    void publishCompletesOrFailsWhole()
    {
        NatsCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        QVERIFY(makeBuckets(cluster));
        const QString bundle = makeBundle(m_dir, QStringLiteral("big"), 24 * 1024 * 1024);
        QVERIFY(!bundle.isEmpty());
        int previous = -1;
        for (int round = 0; round < 2; ++round) {
            auto watcher = connectTo(cluster);
            QVERIFY(watcher);
            auto before = streamState(*watcher, "OBJ_bundles");
            QVERIFY(before);
            const int victim = round == 0 ? std::max(before->leader, 0) : (previous + 1) % cluster.size();
            watcher = connectTo(cluster, victim);
            QVERIFY(watcher);

            QProcess publish;
            publish.start(QStringLiteral(CCM_BACKEND_BIN),
                {QStringLiteral("publish"), bundle, QStringLiteral("--bucket"), QString::fromLatin1(kBucket),
                    QStringLiteral("--name"), QString::fromLatin1(kObject), QStringLiteral("--nats"), cluster.urls(),
                    QStringLiteral("--replicas"), QStringLiteral("3")});
            QVERIFY(publish.waitForStarted());
            // Killed once the chunks are on their way.
            QDeadlineTimer started(60000);
            for (;;) {
                const auto state = streamState(*watcher, "OBJ_bundles");
                if (state && state->messages > before->messages)
                    break;
                QVERIFY2(!publish.waitForFinished(5), "the publish ended before the server could be killed");
                QVERIFY2(!started.hasExpired(), "the publish stored no chunk within 60 s");
            }
            cluster.kill(victim);
            QElapsedTimer sinceKill;
            sinceKill.start();
            QVERIFY(publish.waitForFinished(120000));
            const QString err = QString::fromUtf8(publish.readAllStandardError());
            const QString out = QString::fromUtf8(publish.readAllStandardOutput());
            QCOMPARE(publish.exitStatus(), QProcess::NormalExit);
            qInfo("round %d, server n%d killed: publish exit %d %lld ms after the kill: %s", round, victim,
                publish.exitCode(), static_cast<long long>(sinceKill.elapsed()),
                qPrintable((out + err).trimmed().replace(QLatin1Char('\n'), QStringLiteral(" | "))));
            if (publish.exitCode() == 0) {
                auto store = fleet::ObjectStore::open(*watcher, kBucket);
                QVERIFY(store);
                auto info = store.value().info(kObject);
                QVERIFY2(info, info ? "" : info.error().message.c_str());
                QCOMPARE(info->digest, fileDigest(bundle));
            } else {
                // One line saying what failed where: a lost connection, or the release record
                // of an object that was stored.
                QCOMPARE(publish.exitCode(), 1);
                QVERIFY2(err.startsWith(QStringLiteral("ccm-backend publish: ")) && err.count(QLatin1Char('\n')) == 1
                        && (err.contains(QStringLiteral("in bucket 'bundles'"))
                            || err.contains(QStringLiteral("is published, but its release could not be recorded"))),
                    qPrintable(err));
            }
            const QString problem = checkObjects(cluster, victim);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QVERIFY2(restartAndCatchUp(cluster, victim), qPrintable(cluster.error()));
            previous = victim;
        }
        // With every server back, the object is published whole.
        const BackendRun again
            = runBackend({QStringLiteral("publish"), bundle, QStringLiteral("--bucket"), QString::fromLatin1(kBucket),
                QStringLiteral("--name"), QString::fromLatin1(kObject), QStringLiteral("--nats"), cluster.urls()});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        const QString problem = checkObjects(cluster, -1);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    /// With one of the stream's three servers down, reads go on succeeding, each on an ordered
    /// consumer of its own. nats-server 2.9 places such a consumer on any of the stream's peers, the
    /// dead one included, and nobody answers the request that makes it: the reader must give up on
    /// that request well before its connection's wait and ask again. The connection here waits 30 s,
    /// longer than the reads are asked again for, so one read placed on the dead peer fails unless
    /// the request is given up early; 36 reads all miss it about once in two million.
    void readsWhileAPeerIsDown()
    {
        NatsCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        QVERIFY(makeBuckets(cluster));
        const std::string contents(300 * 1024, 'x');
        {
            auto writer = connectTo(cluster);
            QVERIFY(writer);
            auto store = fleet::ObjectStore::open(*writer, kBucket);
            QVERIFY(store);
            std::istringstream data(contents);
            QVERIFY(store.value().put(kObject, data));
            auto rollouts = fleet::KvBucket::open(*writer, "CCM_ROLLOUTS");
            QVERIFY(rollouts && rollouts.value().put("web", "ring 1"));
        }
        auto watcher = connectTo(cluster);
        QVERIFY(watcher);
        const auto state = streamState(*watcher, "OBJ_bundles");
        QVERIFY(state && state->leader >= 0);
        // Not the object store's leader. The bucket's stream may have led by the victim: this
        // case is about where consumers are placed, not about elections, whose requests would wait
        // the whole 30 s below, so the reads start once both streams lead from a running server.
        const int victim = (state->leader + 1) % cluster.size();
        watcher.reset();
        cluster.kill(victim);
        watcher = connectTo(cluster, victim);
        QVERIFY(watcher);
        const auto ledElsewhere = [&](const char *stream) {
            const auto now = streamState(*watcher, stream);
            return now && now->leader >= 0 && now->leader != victim;
        };
        QTRY_VERIFY_WITH_TIMEOUT(ledElsewhere("OBJ_bundles") && ledElsewhere("KV_CCM_ROLLOUTS"), 60000);

        fleet::NatsSettings settings;
        settings.url = cluster.url((victim + 1) % cluster.size()).toStdString();
        settings.source = "test";
        auto connection = fleet::NatsConnection::connect(settings, 30000);
        QVERIFY(connection);
        auto store = fleet::ObjectStore::open(*connection.value(), kBucket);
        QVERIFY2(store, store ? "" : store.error().message.c_str());
        auto rollouts = fleet::KvBucket::open(*connection.value(), "CCM_ROLLOUTS");
        QVERIFY2(rollouts, rollouts ? "" : rollouts.error().message.c_str());
        const auto problem = [](int read, const auto &result) {
            return result
                ? QByteArray()
                : QStringLiteral("read %1: %2").arg(read).arg(QString::fromStdString(result.error().message)).toUtf8();
        };
        for (int read = 0; read < 12; ++read) {
            std::ostringstream out;
            const auto got = store.value().get(kObject, out);
            QVERIFY2(got, problem(read, got).constData());
            QVERIFY(out.str() == contents);
            // Reading a key-value bucket whole makes an ordered consumer too, as listing its keys does.
            const auto entries = rollouts.value().entries();
            QVERIFY2(entries, problem(read, entries).constData());
            QCOMPARE(entries->size(), std::size_t(1));
            QCOMPARE(entries->front().second, std::string("ring 1"));
            const auto keys = rollouts.value().keys();
            QVERIFY2(keys, problem(read, keys).constData());
            QCOMPARE(*keys, std::vector<std::string>({"web"}));
        }
    }

    /// Two agents; the server one of them is on is killed, a release is published, previewed and
    /// rolled out; it comes back and the server the other agent is on goes.
    void agentsFollowThroughServerLoss();
};

namespace {

QByteArray release(int version)
{
    return "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.target }}\":\n            ensure: present\n"
           "            owner: root\n            group: root\n            mode: \"0644\"\n"
           "            content: \"v"
        + QByteArray::number(version) + " {{ Facts.role }}\\n\"\n";
}

/// The server index an agent's log last named as the one previews are answered on; -1 if none.
int answeringOn(FleetAgent &agent, const NatsCluster &cluster, qsizetype from = 0)
{
    const QString marker = QStringLiteral("fleet preview: answering requests on ");
    const qsizetype at = agent.log().lastIndexOf(marker);
    if (at < from)
        return -1;
    const QString url = agent.log().mid(at + marker.size()).section(QLatin1Char(' '), 0, 0);
    for (int i = 0; i < cluster.size(); ++i)
        if (url == cluster.url(i))
            return i;
    return -1;
}

} // namespace

void TestFleetCluster::agentsFollowThroughServerLoss()
{
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    // Under AddressSanitizer on two cores, two agents, three servers and the commands run slower
    // than the cluster's elections allow for in the preview's wait; the dev tree runs this case.
    QSKIP("too slow under AddressSanitizer for the cluster's failover timings");
#endif
#endif
    NatsCluster cluster;
    QVERIFY2(cluster.start(), qPrintable(cluster.error()));
    QVERIFY(makeBuckets(cluster));
    const QString publicKey = m_dir.filePath(QStringLiteral("signer.pub.pem"));
    const QString source = QStringLiteral("obj://%1/%2").arg(QLatin1String(kBucket), QLatin1String(kObject));
    auto publishVersion = [&](int version) {
        const QString manifest = test::writeFile(m_dir, QStringLiteral("v%1/site.yaml").arg(version), release(version));
        const QString bundle = m_dir.filePath(QStringLiteral("v%1.tgz").arg(version));
        const BackendRun bundled = runBackend(
            {QStringLiteral("bundle"), manifest, QStringLiteral("-o"), bundle, QStringLiteral("--sign"), m_key});
        if (bundled.exitCode != 0)
            return bundled;
        return runBackend({QStringLiteral("publish"), bundle, QStringLiteral("--bucket"), QString::fromLatin1(kBucket),
            QStringLiteral("--name"), QString::fromLatin1(kObject), QStringLiteral("--nats"), cluster.urls(),
            QStringLiteral("--replicas"), QStringLiteral("3")});
    };
    QVERIFY(publishVersion(1).exitCode == 0);

    std::vector<std::unique_ptr<FleetAgent>> agents;
    for (const char *identity : {"web-1", "web-2"}) {
        agents.push_back(std::make_unique<FleetAgent>(QString::fromLatin1(identity), identity, cluster.urls()));
        agents.back()->configure(
            "  enabled: true\n  trusted_keys: [" + publicKey.toUtf8() + "]\n  user: " + test::previewUser() + "\n",
            {source.toUtf8()});
        agents.back()->start();
    }
    auto allOn = [&](int version) {
        for (const auto &agent : agents)
            if (QString::fromUtf8(test::readAll(agent->target()))
                != QStringLiteral("v%1 %2\n").arg(version).arg(agent->identity()))
                return false;
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(allOn(1), ccm::test::kStartup);
    for (const auto &agent : agents)
        QVERIFY2(agent->waitForLog(QStringLiteral("fleet preview: answering requests on ")), qPrintable(agent->log()));

    int previous = -1;
    for (int round = 0; round < 2; ++round) {
        const int version = round + 2;
        // The server of the first agent, then one of the second's other than the server killed
        // before, so that each round leaves an agent without its server.
        FleetAgent &orphan = *agents[std::size_t(round)];
        int victim = answeringOn(orphan, cluster);
        QVERIFY(victim >= 0);
        if (victim == previous)
            victim = (victim + 1) % cluster.size();
        std::vector<qsizetype> logMarks;
        for (const auto &agent : agents)
            logMarks.push_back(agent->log().size());
        cluster.kill(victim);
        QElapsedTimer sinceKill;
        sinceKill.start();

        // Every agent that was on the victim answers on another server again.
        for (std::size_t i = 0; i < agents.size(); ++i) {
            if (answeringOn(*agents[i], cluster) != victim)
                continue;
            QVERIFY2(
                agents[i]->waitForLog(QStringLiteral("fleet preview: answering requests on "), logMarks[i], kApplyMs),
                qPrintable(agents[i]->log().mid(logMarks[i])));
            QVERIFY(answeringOn(*agents[i], cluster, logMarks[i]) != victim);
        }
        const qint64 reconnected = sinceKill.elapsed();

        // A preview while the server is down hears both hosts.
        const BackendRun preview = runBackend({QStringLiteral("fleet"), QStringLiteral("preview"),
            test::writeFile(m_dir, QStringLiteral("preview-%1.yaml").arg(version), release(version)),
            QStringLiteral("--key"), m_key, QStringLiteral("--nats"), cluster.urls(), QStringLiteral("--json"),
            QStringLiteral("--replicas"), QStringLiteral("3")});
        QVERIFY2(preview.exitCode == 0, qPrintable(preview.err + preview.out));
        const auto hosts = previewHosts(preview.out);
        QCOMPARE(hosts.keys(), QStringList({QStringLiteral("web-1"), QStringLiteral("web-2")}));
        for (const QJsonObject &host : hosts)
            QCOMPARE(host[QStringLiteral("state")].toString(), QStringLiteral("done"));

        // The next release: published in the first round, rolled out in the second.
        QElapsedTimer sincePublish;
        sincePublish.start();
        if (round == 0) {
            const BackendRun published = publishVersion(version);
            QVERIFY2(published.exitCode == 0, qPrintable(published.err));
        } else {
            const QString manifest
                = test::writeFile(m_dir, QStringLiteral("v%1/site.yaml").arg(version), release(version));
            // The ring may wait its whole 60 s and the release's publish ride out elections
            // before that: the command gets 3 minutes before it counts as hung.
            const BackendRun rollout = runBackend(
                {QStringLiteral("rollout"), manifest, QStringLiteral("--bucket"), QString::fromLatin1(kBucket),
                    QStringLiteral("--sign"), m_key, QStringLiteral("--ring"), QString::fromLatin1(kObject),
                    QStringLiteral("--ring-timeout"), QStringLiteral("60s"), QStringLiteral("--nats"), cluster.urls(),
                    QStringLiteral("--replicas"), QStringLiteral("3")},
                {}, QProcessEnvironment::systemEnvironment(), 180000);
            QVERIFY2(rollout.exitCode == 0,
                qPrintable(QStringLiteral("exit %1: ").arg(rollout.exitCode) + rollout.out + rollout.err));
            QVERIFY2(rollout.out.contains(QStringLiteral("gate passed: 2 hosts: 2 applied, 0 failed (0 silent)")),
                qPrintable(rollout.out));
        }
        const auto logsSinceKill = [&] {
            QString logs;
            for (std::size_t i = 0; i < agents.size(); ++i)
                logs += agents[i]->identity() + QStringLiteral(":\n") + agents[i]->log().mid(logMarks[i]);
            return logs;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(allOn(version), qPrintable(logsSinceKill()), kApplyMs);
        qInfo("round %d, server n%d killed: agents answering again after %lld ms; v%d applied by both %lld ms after "
              "its publish started",
            round, victim, static_cast<long long>(reconnected), version,
            static_cast<long long>(sincePublish.elapsed()));
        QVERIFY2(restartAndCatchUp(cluster, victim), qPrintable(cluster.error()));
        previous = victim;
    }

    // Every run each agent logged is in CCM_STATUS once: as many stored values as runs, each
    // with its own set of run ids (a report sent twice would repeat one).
    for (const auto &agent : agents) {
        auto connection = connectTo(cluster);
        QVERIFY(connection);
        const std::string key = fleet::statusKey(agent->identity().toStdString());
        auto runsLogged = [&] {
            return agent->log().count(QStringLiteral(": apply: "))
                + agent->log().count(QStringLiteral(": apply could not run"));
        };
        QTRY_COMPARE_WITH_TIMEOUT(
            qsizetype(storedValues(*connection, "CCM_STATUS", key).size()), runsLogged(), kApplyMs);
        std::set<QStringList> seen;
        for (const QJsonObject &value : storedValues(*connection, "CCM_STATUS", key))
            QVERIFY2(seen.insert(runIds(value)).second, qPrintable(runIds(value).join(QLatin1Char(' '))));
        qInfo("%s: %d runs, each stored once", qPrintable(agent->identity()), static_cast<int>(seen.size()));
    }
}

CCM_TEST_GUILESS_MAIN(TestFleetCluster)
#include "tst_fleet_cluster.moc"
