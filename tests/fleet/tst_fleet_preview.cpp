// SPDX-License-Identifier: Apache-2.0
// Fleet previews end to end against a real nats-server: responders in this process, each with its
// own connection, identity and facts, and the requester as the CLI and the daemon use it.
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet/preview/preview_requester.h"
#include "fleet/preview/preview_responder.h"
#include "fleet/preview/preview_wire.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <mutex>
#include <nats/nats.h>
#include <pwd.h>
#include <set>
#include <sstream>
#include <sys/stat.h>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::q;

namespace {

/// A fleet of in-process responders on one server, with the key that signs and the one they trust.
class Fleet {
public:
    bool start(const QByteArray &serverConfig = {})
    {
        if (!m_server.start(ccm::test::NatsServer::Options {true, serverConfig}))
            return false;
        m_key = generateSigningKey().value();
        m_publicKey = m_dir.filePath(QStringLiteral("trusted.pub.pem")).toStdString();
        const std::string privatePath = m_dir.filePath(QStringLiteral("signer.pem")).toStdString();
        return writeKeyPair(m_key, privatePath, m_publicKey, false).ok();
    }

    std::unique_ptr<NatsConnection> connect()
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        return NatsConnection::connect(settings).value();
    }

    /// Starts a responder for `identity` with `facts`, listed in CCM_STATUS unless `unlisted`.
    PreviewResponder &addHost(const std::string &identity, Json facts, const std::string &user = "root",
        std::optional<CurrentBundle> current = std::nullopt)
    {
        m_connections.push_back(connect());
        PreviewResponderOptions options;
        options.identity = identity;
        options.trustedKeys = {m_publicKey};
        options.previewUser = user;
        options.facts = [facts] { return facts; };
        options.workDirectory = m_work.filePath(q(identity)).toStdString();
        options.log = [this](engine::LogLevel, const std::string &line) {
            const std::lock_guard lock(m_logMutex);
            m_log.push_back(line);
        };
        if (current)
            options.currentBundle = [current](const std::optional<std::string> &) { return *current; };
        m_responders.push_back(PreviewResponder::start(*m_connections.back(), options).value());
        listStatus(identity, std::chrono::system_clock::now());
        return *m_responders.back();
    }

    /// Writes a CCM_STATUS value for `identity` as its agent would.
    void listStatus(const std::string &identity, std::chrono::system_clock::time_point time)
    {
        auto connection = connect();
        auto bucket = KvBucket::openOrCreate(*connection, std::string(kStatusBucket)).value();
        const Json value {{"identity", identity}, {"time", formatRfc3339(time)}, {"interval_seconds", 300},
            {"version", "test"}, {"summary", Json::object()}, {"failed_resources", Json::array()},
            {"runs", Json::array()}};
        QVERIFY(bucket.put(statusKey(identity), value.dump()));
    }

    Result<FleetPreview> preview(const std::string &source, std::optional<std::string> select = std::nullopt,
        std::chrono::milliseconds timeout = std::chrono::seconds(60))
    {
        auto connection = connect();
        PreviewRequestOptions options;
        options.source = source;
        options.key = m_key;
        options.select = std::move(select);
        options.timeout = timeout;
        return runFleetPreview(*connection, options);
    }

    std::vector<std::string> log()
    {
        const std::lock_guard lock(m_logMutex);
        return m_log;
    }

    const SigningKey &key() const { return m_key; }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString error() const { return m_server.error(); }
    QString workDirectory() const { return m_work.path(); }

private:
    ccm::test::NatsServer m_server;
    QTemporaryDir m_dir;
    QTemporaryDir m_work;
    SigningKey m_key;
    std::string m_publicKey;
    std::vector<std::unique_ptr<NatsConnection>> m_connections;
    std::vector<std::unique_ptr<PreviewResponder>> m_responders;
    std::mutex m_logMutex;
    std::vector<std::string> m_log;
};

/// A manifest of one file whose content depends on the host's role.
std::string roleManifest(const QString &target)
{
    return "ccm:\n  resources:\n    - file:\n        - " + target.toStdString()
        + ":\n            ensure: present\n            owner: root\n            group: root\n"
          "            mode: \"0644\"\n            content: \"role {{ Facts.role }}\\n\"\n";
}

const HostPreview *findHost(const FleetPreview &preview, const std::string &identity)
{
    for (const HostPreview &host : preview.hosts)
        if (host.identity == identity)
            return &host;
    return nullptr;
}

std::size_t changed(const HostPreview &host)
{
    return host.summary.is_object() ? host.summary.value("changed", std::size_t {0}) : 0;
}

struct Inbox {
    natsSubscription *subscription = nullptr;
    std::string subject;
    ~Inbox()
    {
        if (subscription != nullptr)
            natsSubscription_Destroy(subscription);
    }
};

/// Publishes `payload` as a request and returns the subscription to its (hoped-for) answers.
void publishRaw(NatsConnection &connection, const std::string &payload)
{
    QCOMPARE(natsConnection_Publish(connection.connection(), std::string(kPreviewRequestSubject).c_str(),
                 payload.data(), static_cast<int>(payload.size())),
        NATS_OK);
    QCOMPARE(natsConnection_Flush(connection.connection()), NATS_OK);
}

/// The number of answers pending on `inbox`.
int pending(Inbox &inbox)
{
    int messages = 0;
    natsSubscription_GetPending(inbox.subscription, &messages, nullptr);
    return messages;
}

/// Waits for a message of `type` on `inbox`; false after 20 s.
bool waitForAnswer(Inbox &inbox, const std::string &type)
{
    for (int i = 0; i < 200; ++i) {
        natsMsg *message = nullptr;
        if (natsSubscription_NextMsg(&message, inbox.subscription, 100) != NATS_OK)
            continue;
        auto answer = decodeAnswer(
            std::string_view(natsMsg_GetData(message), static_cast<std::size_t>(natsMsg_GetDataLength(message))));
        natsMsg_Destroy(message);
        if (answer && answer->type == type)
            return true;
    }
    return false;
}

/// The answers to a raw request on `inbox` up to and including `done` (or `failed`); empty after 20 s.
std::vector<Json> answersUntilDone(Inbox &inbox)
{
    std::vector<Json> answers;
    for (int i = 0; i < 200; ++i) {
        natsMsg *message = nullptr;
        if (natsSubscription_NextMsg(&message, inbox.subscription, 100) != NATS_OK)
            continue;
        auto answer = decodeAnswer(
            std::string_view(natsMsg_GetData(message), static_cast<std::size_t>(natsMsg_GetDataLength(message))));
        natsMsg_Destroy(message);
        if (!answer)
            continue;
        answers.push_back(answer->message);
        if (answer->type == "done" || answer->type == "failed")
            return answers;
    }
    return {};
}

/// Sends a request for the bundle `bundle` as a requester would build it, with the "answers"
/// member only when `answers` is above 1 (an older requester sends none), and returns the
/// answers up to done; empty when none came.
std::vector<Json> rawPreview(
    NatsConnection &connection, const SigningKey &key, const std::string &bundle, std::uint64_t answers)
{
    auto store = ObjectStore::openOrCreate(connection, std::string(kPreviewBucket), std::chrono::seconds(960));
    if (!store)
        return {};
    std::istringstream data(bundle);
    PreviewRequest request;
    request.id = newPreviewId();
    const auto stored = store.value().put("preview-" + request.id, data);
    if (!stored)
        return {};
    Inbox inbox;
    inbox.subject = "_INBOX.raw" + newPreviewId();
    if (natsConnection_SubscribeSync(&inbox.subscription, connection.connection(), inbox.subject.c_str()) != NATS_OK)
        return {};
    request.issued = Clock::now();
    request.expires = request.issued + std::chrono::minutes(5);
    request.reply = inbox.subject;
    request.bundle = {std::string(kPreviewBucket), "preview-" + request.id, stored->digest};
    request.answers = answers;
    publishRaw(connection, encodeSignedRequest(request, key).value());
    return answersUntilDone(inbox);
}

/// The types of `answers`, in order.
std::vector<std::string> typesOf(const std::vector<Json> &answers)
{
    std::vector<std::string> types;
    for (const Json &answer : answers)
        types.push_back(answer.value("type", ""));
    return types;
}

std::set<std::string> membersOf(const Json &object)
{
    std::set<std::string> members;
    for (const auto &item : object.items())
        members.insert(item.key());
    return members;
}

} // namespace

class TestFleetPreview : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!ccm::test::NatsServer::available())
            QSKIP("nats-server is not installed");
    }

    void everyHostAnswersWithItsOwnDifferences()
    {
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString target = fleet.path(QStringLiteral("motd"));
        QVERIFY(ccm::test::writeFile(target, "role web\n"));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(target))));
        fleet.addHost("web-1.example.com", {{"role", "web"}});
        fleet.addHost("db-1", {{"role", "db"}});

        auto preview = fleet.preview(manifest.toStdString());
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        QCOMPARE(preview->hosts.size(), 2u);
        const HostPreview *web = findHost(*preview, "web-1.example.com");
        const HostPreview *db = findHost(*preview, "db-1");
        QVERIFY(web && db);
        QCOMPARE(q(std::string(hostStateName(web->state))), QStringLiteral("done"));
        QCOMPARE(q(std::string(hostStateName(db->state))), QStringLiteral("done"));
        QCOMPARE(changed(*web), 0u);
        QCOMPARE(changed(*db), 1u);
        QCOMPARE(db->events.size(), 1u);
        QVERIFY2(q(db->events[0].dump()).contains(QStringLiteral("+role db")), db->events[0].dump().c_str());
        // A preview never changes the host.
        QFile file(target);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("role web\n"));
        const Json totals = fleetPreviewTotals(*preview);
        QCOMPARE(totals["answered"].get<int>(), 2);
        QCOMPARE(totals["changed"].get<int>(), 1);
        // The unpacked bundles are gone.
        QCOMPARE(
            QDir(fleet.workDirectory() + QStringLiteral("/db-1")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
            QStringList());
    }

    void anOlderRequesterGetsTheAnswersItKnows()
    {
        // A requester that predates classes sends no compare member: a host with a current
        // bundle answers it with exactly the members that requester checks, and no comparison.
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(
            ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(fleet.path(QStringLiteral("f"))))));
        const std::string bundle = previewBundleBytes(manifest.toStdString(), {}).value();
        const QString current = fleet.path(QStringLiteral("current.tar.gz"));
        QVERIFY(ccm::test::writeFile(current, QByteArray::fromStdString(bundle)));
        fleet.addHost("web-1", {{"role", "web"}}, "root", CurrentBundle {current.toStdString(), "obj://SITE/site", {}});

        auto connection = fleet.connect();
        auto store = ObjectStore::openOrCreate(*connection, std::string(kPreviewBucket), std::chrono::seconds(960));
        QVERIFY(store);
        std::istringstream data(bundle);
        PreviewRequest request;
        request.id = newPreviewId();
        const auto stored = store.value().put("preview-" + request.id, data);
        QVERIFY(stored);
        Inbox inbox;
        inbox.subject = "_INBOX.old" + newPreviewId();
        QCOMPARE(natsConnection_SubscribeSync(&inbox.subscription, connection->connection(), inbox.subject.c_str()),
            NATS_OK);
        request.issued = Clock::now();
        request.expires = request.issued + std::chrono::minutes(5);
        request.reply = inbox.subject;
        request.bundle = {std::string(kPreviewBucket), "preview-" + request.id, stored->digest};
        publishRaw(*connection, encodeSignedRequest(request, fleet.key()).value());
        const std::vector<Json> answers = answersUntilDone(inbox);
        QVERIFY(!answers.empty());
        const std::set<std::string> header {"id", "identity", "seq", "type"};
        for (const Json &answer : answers) {
            std::set<std::string> expected = header;
            const std::string type = answer["type"].get<std::string>();
            if (type == "accepted")
                expected.insert("facts_digest");
            else if (type == "progress")
                expected.insert({"done", "total", "current"});
            else if (type == "event")
                expected.insert("event");
            else if (type == "done")
                expected.insert({"summary", "cancelled", "aborted", "diagnostics"});
            QVERIFY2(membersOf(answer) == expected, answer.dump().c_str());
        }
        QCOMPARE(answers.back()["type"].get<std::string>(), std::string("done"));
    }

    void anAgentAnswersTheFormatItIsAskedFor()
    {
        // Three files, one of which would change: format 1 (a request without "answers", as an
        // older requester sends it) gets a progress and an event for each, exactly as before;
        // format 2 gets one progress, the changed file's event, and the two others named stable.
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        std::string manifest = "ccm:\n  resources:\n    - file:\n";
        for (const char *name : {"a", "b", "c"}) {
            const QString target = fleet.path(QString::fromLatin1(name));
            if (std::string_view(name) != "b")
                QVERIFY(ccm::test::writeFile(target, "same\n"));
            manifest += "        - " + target.toStdString()
                + ":\n            ensure: present\n            owner: root\n            group: root\n"
                  "            mode: \"0644\"\n            content: \"same\\n\"\n";
        }
        const QString manifestPath = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(ccm::test::writeFile(manifestPath, QByteArray::fromStdString(manifest)));
        const auto bundled = previewBundleBytes(manifestPath.toStdString(), {});
        QVERIFY2(bundled, bundled ? "" : bundled.error().message.c_str());
        const std::string bundle = bundled.value();
        fleet.addHost("web-1", {{"role", "web"}});
        auto connection = fleet.connect();
        const std::string a = "file#" + fleet.path(QStringLiteral("a")).toStdString();
        const std::string b = "file#" + fleet.path(QStringLiteral("b")).toStdString();
        const std::string c = "file#" + fleet.path(QStringLiteral("c")).toStdString();

        const std::vector<Json> older = rawPreview(*connection, fleet.key(), bundle, 1);
        QCOMPARE(typesOf(older),
            (std::vector<std::string> {
                "accepted", "progress", "event", "progress", "event", "progress", "event", "done"}));
        const std::set<std::string> header {"id", "identity", "seq", "type"};
        for (const Json &answer : older) {
            std::set<std::string> expected = header;
            const std::string type = answer["type"].get<std::string>();
            if (type == "accepted")
                expected.insert("facts_digest");
            else if (type == "progress")
                expected.insert({"done", "total", "current"});
            else if (type == "event")
                expected.insert("event");
            else if (type == "done")
                expected.insert({"summary", "cancelled", "aborted", "diagnostics"});
            QVERIFY2(membersOf(answer) == expected, answer.dump().c_str());
        }
        QCOMPARE(older[6]["event"].value("resource", ""), c);
        QCOMPARE(older[4]["event"].value("changed", false), true);

        for (const std::uint64_t asked : {std::uint64_t {2}, std::uint64_t {9}}) {
            const std::vector<Json> answers = rawPreview(*connection, fleet.key(), bundle, asked);
            // The changed file's event comes in a batch: the run is shorter than a batch's interval.
            QCOMPARE(typesOf(answers), (std::vector<std::string> {"accepted", "progress", "events", "done"}));
            QCOMPARE(answers[2]["events"].size(), 1u);
            QCOMPARE(answers[2]["events"][0].value("resource", ""), b);
            QCOMPARE(answers[2]["events"][0].value("changed", false), true);
            const Json &done = answers.back();
            QCOMPARE(done["answers"], Json(2));
            QCOMPARE(done["stable"], Json::array({a, c}));
            // The same run summary, but for how long the run took.
            Json summary = done["summary"];
            Json olderSummary = older.back()["summary"];
            summary.erase("run_time");
            olderSummary.erase("run_time");
            QCOMPARE(summary, olderSummary);
            for (std::size_t i = 0; i < answers.size(); ++i)
                QCOMPARE(answers[i]["seq"], Json(i));
        }

        // The requester asks for format 2 and ends with the same host as from format 1.
        auto preview = fleet.preview(manifestPath.toStdString());
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        QCOMPARE(preview->hosts.size(), 1u);
        const HostPreview &host = preview->hosts[0];
        QCOMPARE(host.answers, std::uint64_t {2});
        QCOMPARE(host.stable, (std::vector<std::string> {a, c}));
        QCOMPARE(host.events.size(), 1u);
        QCOMPARE(fleetPreviewTotals(*preview)["stable"], Json(2));
    }

    void aCachedBundleTheKeysDidNotSignIsNotCompared()
    {
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(
            ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(fleet.path(QStringLiteral("f"))))));
        const QString current = fleet.path(QStringLiteral("current.tar.gz"));
        QVERIFY(ccm::test::writeFile(
            current, QByteArray::fromStdString(previewBundleBytes(manifest.toStdString(), {}).value())));
        const std::string someKey = generateSigningKey().value().publicKey;
        fleet.addHost(
            "web-1", {{"role", "web"}}, "root", CurrentBundle {current.toStdString(), "obj://SITE/site", {someKey}});
        fleet.addHost("web-2", {{"role", "web"}}, "root",
            CurrentBundle {fleet.path(QStringLiteral("missing.tar.gz")).toStdString(), "obj://SITE/site", {}});
        fleet.addHost("web-3", {{"role", "web"}}, "root", CurrentBundle {current.toStdString(), "obj://SITE/site", {}});

        auto preview = fleet.preview(manifest.toStdString());
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        const HostPreview *unsigned_ = findHost(*preview, "web-1");
        QVERIFY(unsigned_ && unsigned_->comparison.state == PreviewComparison::State::None);
        QVERIFY2(q(unsigned_->comparison.reason).contains(QStringLiteral("obj://SITE/site: the cached bundle cannot")),
            unsigned_->comparison.reason.c_str());
        const HostPreview *missing = findHost(*preview, "web-2");
        QVERIFY(missing && missing->comparison.state == PreviewComparison::State::None);
        QCOMPARE(missing->comparison.reason, std::string("obj://SITE/site: no good bundle cached yet"));
        // The same bundle as the proposal: what the proposal changes, the current one changes too.
        const HostPreview *same = findHost(*preview, "web-3");
        QVERIFY(same && same->comparison.state == PreviewComparison::State::Compared);
        QCOMPARE(classCount(*same, ChangeClass::Drift), std::size_t {1});
        QCOMPARE(same->events.at(0)["class"].get<std::string>(), std::string("drift"));
    }

    void theSelectorPicksHosts()
    {
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(
            ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(fleet.path(QStringLiteral("f"))))));
        fleet.addHost("web-1", {{"role", "web"}});
        fleet.addHost("db-1", {{"role", "db"}});
        fleet.addHost("odd-1", {{"role", 3}});
        auto preview = fleet.preview(manifest.toStdString(), "Facts.role == \"web\"");
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        QCOMPARE(findHost(*preview, "web-1")->state, HostState::Done);
        QCOMPARE(findHost(*preview, "db-1")->state, HostState::Declined);
        QCOMPARE(findHost(*preview, "odd-1")->state, HostState::Declined);

        // A selector that does not parse is refused before anything is sent.
        auto unparsed = fleet.preview(manifest.toStdString(), "Facts.role ==");
        QVERIFY(!unparsed);
        QCOMPARE(q(unparsed.error().code), QStringLiteral("selector"));
        QVERIFY2(
            q(unparsed.error().message).contains(QStringLiteral("at column 14")), unparsed.error().message.c_str());
        // One that parses but fails on a host's facts is declined there.
        auto broken = fleet.preview(manifest.toStdString(), "Facts.role * 2 == 4");
        QVERIFY(broken);
        const HostPreview *host = findHost(*broken, "web-1");
        QCOMPARE(host->state, HostState::Declined);
        QVERIFY2(q(host->message).contains(QStringLiteral("selector")), host->message.c_str());
    }

    void badRequestsGetNoAnswer_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("logged");
        QTest::newRow("untrusted") << "untrusted"
                                   << "untrusted key";
        QTest::newRow("unsigned") << "unsigned"
                                  << "signature";
        QTest::newRow("expired") << "expired"
                                 << "expired";
        QTest::newRow("noop false") << "apply"
                                    << "not a noop";
        QTest::newRow("garbage") << "garbage"
                                 << "malformed";
    }

    void badRequestsGetNoAnswer()
    {
        QFETCH(QString, kind);
        QFETCH(QString, logged);
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString target = fleet.path(QStringLiteral("motd"));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(target))));
        PreviewResponder &host = fleet.addHost("web-1", {{"role", "web"}});
        auto connection = fleet.connect();
        Inbox inbox;
        inbox.subject = "_INBOX.test" + newPreviewId();
        QCOMPARE(natsConnection_SubscribeSync(&inbox.subscription, connection->connection(), inbox.subject.c_str()),
            NATS_OK);

        PreviewRequest request;
        request.id = newPreviewId();
        request.issued = Clock::now();
        request.expires = request.issued + std::chrono::minutes(5);
        request.reply = inbox.subject;
        request.bundle = {"CCM_PREVIEW", "preview-x", "SHA-256=x"};
        SigningKey key = fleet.key();
        if (kind == QStringLiteral("untrusted"))
            key = generateSigningKey().value();
        if (kind == QStringLiteral("expired")) {
            request.issued -= std::chrono::minutes(10);
            request.expires = request.issued + std::chrono::minutes(5);
        }
        request.noop = kind != QStringLiteral("apply");
        std::string payload = encodeSignedRequest(request, key).value();
        if (kind == QStringLiteral("unsigned")) {
            Json envelope = parseJson(payload);
            envelope["signature"] = encodeBase64(std::string(64, '\0'));
            payload = envelope.dump();
        }
        if (kind == QStringLiteral("garbage"))
            payload = "{\"request\": 1}";
        publishRaw(*connection, payload);
        QTRY_COMPARE_WITH_TIMEOUT(host.rejected(), 1u, 20000);
        QCOMPARE(host.finished(), 0u);
        QCOMPARE(pending(inbox), 0);
        const auto lines = fleet.log();
        QCOMPARE(lines.size(), 1u);
        QVERIFY2(q(lines[0]).contains(logged), lines[0].c_str());
        if (kind != QStringLiteral("garbage") && kind != QStringLiteral("unsigned"))
            QVERIFY2(q(lines[0]).contains(q(request.id)), lines[0].c_str());
        QVERIFY(!QFile::exists(target));
    }

    void aReplayedRequestIsDropped()
    {
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(
            ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(fleet.path(QStringLiteral("f"))))));
        PreviewResponder &host = fleet.addHost("web-1", {{"role", "web"}});
        auto connection = fleet.connect();
        Inbox inbox;
        inbox.subject = "_INBOX.replay" + newPreviewId();
        QCOMPARE(natsConnection_SubscribeSync(&inbox.subscription, connection->connection(), inbox.subject.c_str()),
            NATS_OK);
        PreviewRequest request;
        request.id = newPreviewId();
        request.issued = Clock::now();
        request.expires = request.issued + std::chrono::minutes(5);
        request.reply = inbox.subject;
        request.bundle = {"CCM_PREVIEW", "missing", "SHA-256=x"};
        const std::string payload = encodeSignedRequest(request, fleet.key()).value();
        publishRaw(*connection, payload);
        QVERIFY(waitForAnswer(inbox, "failed")); // no such bundle: answered, but failed
        publishRaw(*connection, payload);
        QTRY_COMPARE_WITH_TIMEOUT(host.rejected(), 1u, 20000);
        // The worker counts a request finished after it sent the answer, so the replay's rejection
        // can come first: wait for the count rather than read it.
        QTRY_COMPARE_WITH_TIMEOUT(host.finished(), 1u, 20000);
        QCOMPARE(host.rejected(), 1u);
        QVERIFY2(q(fleet.log().back()).contains(QStringLiteral("replayed")), fleet.log().back().c_str());
    }

    void aSilentHostIsReportedAfterTheTimeout()
    {
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(
            ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(fleet.path(QStringLiteral("f"))))));
        fleet.addHost("web-1", {{"role", "web"}});
        fleet.listStatus("ghost", std::chrono::system_clock::now());
        fleet.listStatus("long-gone", std::chrono::system_clock::now() - std::chrono::hours(2));
        auto preview = fleet.preview(manifest.toStdString(), std::nullopt, std::chrono::seconds(3));
        QVERIFY(preview);
        QCOMPARE(findHost(*preview, "web-1")->state, HostState::Done);
        QVERIFY(findHost(*preview, "ghost"));
        QCOMPARE(findHost(*preview, "ghost")->state, HostState::Silent);
        QVERIFY(!findHost(*preview, "long-gone")); // stale: not waited for
        QCOMPARE(fleetPreviewTotals(*preview)["silent"].get<int>(), 1);
    }

    void callbacksStreamAndCancelStopsTheWait()
    {
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(
            ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(fleet.path(QStringLiteral("f"))))));
        fleet.addHost("web-1", {{"role", "web"}});
        fleet.listStatus("ghost", std::chrono::system_clock::now());
        auto connection = fleet.connect();
        std::atomic<bool> cancel {false};
        std::vector<std::string> seen;
        PreviewCallbacks callbacks;
        callbacks.accepted = [&seen](const std::string &identity) { seen.push_back("accepted " + identity); };
        callbacks.event = [&seen](const std::string &identity, const Json &) { seen.push_back("event " + identity); };
        // The daemon cancels from another thread; here the last answer of web-1 does.
        callbacks.done = [&seen, &cancel](const HostPreview &host) {
            seen.push_back("done " + host.identity);
            cancel = true;
        };
        PreviewRequestOptions options;
        options.source = manifest.toStdString();
        options.key = fleet.key();
        options.timeout = std::chrono::minutes(5); // the ghost would keep a wait going this long
        options.cancel = &cancel;
        auto preview = runFleetPreview(*connection, options, callbacks);
        QVERIFY(preview);
        QVERIFY(preview->cancelled);
        QCOMPARE(seen, (std::vector<std::string> {"accepted web-1", "event web-1", "done web-1"}));
        QCOMPARE(findHost(*preview, "web-1")->state, HostState::Done);
        QCOMPARE(findHost(*preview, "ghost")->state, HostState::Silent);
    }

    void aMissingPreviewUserFails()
    {
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        const QString manifest = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(
            ccm::test::writeFile(manifest, QByteArray::fromStdString(roleManifest(fleet.path(QStringLiteral("f"))))));
        fleet.addHost("web-1", {{"role", "web"}}, "no-such-user-ccm-preview");
        auto preview = fleet.preview(manifest.toStdString());
        QVERIFY(preview);
        const HostPreview *host = findHost(*preview, "web-1");
        QCOMPARE(host->state, HostState::Failed);
        QVERIFY2(q(host->message).contains(QStringLiteral("no-such-user-ccm-preview")), host->message.c_str());
    }

    void aLargeAnswerArrivesWhole()
    {
        Fleet fleet;
        // A small max_payload makes the big diff travel in parts.
        QVERIFY2(fleet.start(QByteArrayLiteral("max_payload: 65536\n")), qPrintable(fleet.error()));
        const QString directory = fleet.path(QStringLiteral("many"));
        QVERIFY(QDir().mkpath(directory));
        std::string manifest = "ccm:\n  resources:\n    - file:\n";
        for (int i = 0; i < 5000; ++i)
            manifest += "        - " + directory.toStdString() + "/f" + std::to_string(i)
                + ":\n            ensure: present\n            owner: root\n            group: root\n            mode: "
                  "\"0644\"\n"
                  "            content: \"file "
                + std::to_string(i) + "\\n\"\n";
        std::string big;
        for (int i = 0; i < 20000; ++i)
            big += "line " + std::to_string(i) + "\\n";
        manifest += "        - " + directory.toStdString()
            + "/big:\n            ensure: present\n            owner: root\n"
              "            group: root\n            mode: \"0644\"\n            content: \""
            + big + "\"\n";
        const QString path = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(ccm::test::writeFile(path, QByteArray::fromStdString(manifest)));
        fleet.addHost("web-1", {{"role", "web"}});
        auto preview = fleet.preview(path.toStdString());
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        QVERIFY2(preview->problems.empty(), preview->problems.empty() ? "" : preview->problems[0].c_str());
        const HostPreview *host = findHost(*preview, "web-1");
        QCOMPARE(host->state, HostState::Done);
        QCOMPARE(host->events.size(), 5001u);
        QCOMPARE(changed(*host), 5001u);
        const std::string diff = host->events.back().value("diff", std::string());
        QVERIFY2(diff.find("+line 19999") != std::string::npos, host->events.back().dump().substr(0, 300).c_str());
        QCOMPARE(QDir(directory).entryList(QDir::Files).size(), 0);
    }

    void guardsRunAsThePreviewUser()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to run guards as another user");
        const passwd *nobody = ::getpwnam("nobody");
        if (nobody == nullptr)
            QSKIP("needs a user named nobody");
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        QTemporaryDir out;
        ::chmod(out.path().toUtf8().constData(), 0777);
        ::chmod(fleet.workDirectory().toUtf8().constData(), 0711);
        const std::string marker = out.filePath(QStringLiteral("guard-uid")).toStdString();
        const std::string manifest
            = "ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            unless: \"/bin/sh -c 'id -u > "
            + marker + "'\"\n";
        const QString path = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(ccm::test::writeFile(path, QByteArray::fromStdString(manifest)));
        fleet.addHost("web-1", {{"role", "web"}}, "nobody");
        auto preview = fleet.preview(path.toStdString());
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        const HostPreview *host = findHost(*preview, "web-1");
        QVERIFY2(host->state == HostState::Done, host->message.c_str());
        QFile file(q(marker));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().trimmed().toUInt(), static_cast<unsigned>(nobody->pw_uid));
        struct stat info { };
        QCOMPARE(::stat(marker.c_str(), &info), 0);
        QCOMPARE(info.st_uid, nobody->pw_uid);
    }

    // A trusted signer once got root on every agent through a scaffold's post command, which ran as
    // the agent while the guards ran as the preview user. Every process of a preview is the preview
    // user's: guards, health checks and post commands alike.
    void everyProcessOfAPreviewRunsAsThePreviewUser()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to run processes as another user");
        const passwd *nobody = ::getpwnam("nobody");
        if (nobody == nullptr)
            QSKIP("needs a user named nobody");
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        QTemporaryDir out;
        ::chmod(out.path().toUtf8().constData(), 0777);
        ::chmod(fleet.workDirectory().toUtf8().constData(), 0711);
        QVERIFY(QDir(out.path()).mkpath(QStringLiteral("templates")));
        QVERIFY(ccm::test::writeFile(out.filePath(QStringLiteral("templates/motd.txt")), "hello\n"));
        const auto marker = [&](const char *name) { return out.filePath(QString::fromUtf8(name)).toStdString(); };
        const auto recordUid = [](const std::string &file) { return "\"/bin/sh -c 'id -u > " + file + "'\""; };
        const std::string manifest = "ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            unless: "
            + recordUid(marker("guard")) + "\n            health_checks:\n              - {command: "
            + recordUid(marker("health")) + "}\n    - scaffold:\n        - " + marker("target")
            + ":\n            ensure: present\n            source: " + marker("templates")
            + "\n            post: [{\"*.txt\": " + recordUid(marker("post")) + "}]\n";
        const QString path = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(ccm::test::writeFile(path, QByteArray::fromStdString(manifest)));
        fleet.addHost("web-1", {{"role", "web"}}, "nobody");
        auto preview = fleet.preview(path.toStdString());
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        const HostPreview *host = findHost(*preview, "web-1");
        QVERIFY2(host->state == HostState::Done, host->message.c_str());
        for (const char *process : {"guard", "health", "post"}) {
            QFile file(q(marker(process)));
            QVERIFY2(file.open(QIODevice::ReadOnly), process);
            QCOMPARE(QString::fromUtf8(process) + QStringLiteral(" as ") + QString::fromUtf8(file.readAll().trimmed()),
                QString::fromUtf8(process) + QStringLiteral(" as ") + QString::number(nobody->pw_uid));
            struct stat info { };
            QCOMPARE(::stat(marker(process).c_str(), &info), 0);
            QCOMPARE(info.st_uid, nobody->pw_uid);
        }
        // The preview changed nothing: the scaffold's target was only rendered in its staging tree.
        QVERIFY(!QFileInfo::exists(q(marker("target"))));
    }

    void diffsOnlyForFilesThePreviewUserMayRead()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to preview as another user");
        if (::getpwnam("nobody") == nullptr)
            QSKIP("needs a user named nobody");
        Fleet fleet;
        QVERIFY2(fleet.start(), qPrintable(fleet.error()));
        QTemporaryDir files;
        ::chmod(files.path().toUtf8().constData(), 0755);
        ::chmod(fleet.workDirectory().toUtf8().constData(), 0711);
        const QString open = files.filePath(QStringLiteral("open"));
        const QString secret = files.filePath(QStringLiteral("secret"));
        QVERIFY(ccm::test::writeFile(open, "public old\n"));
        QVERIFY(ccm::test::writeFile(secret, "secret old\n"));
        ::chmod(open.toUtf8().constData(), 0644);
        ::chmod(secret.toUtf8().constData(), 0600);
        std::string manifest = "ccm:\n  resources:\n    - file:\n";
        for (const QString &target : {open, secret})
            manifest += "        - " + target.toStdString()
                + ":\n            ensure: present\n            owner: root\n            group: root\n"
                  "            mode: \"0644\"\n            content: \"new\\n\"\n";
        const QString path = fleet.path(QStringLiteral("manifest.yaml"));
        QVERIFY(ccm::test::writeFile(path, QByteArray::fromStdString(manifest)));
        fleet.addHost("web-1", {{"role", "web"}}, "nobody");
        auto preview = fleet.preview(path.toStdString());
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        const HostPreview *host = findHost(*preview, "web-1");
        QVERIFY2(host->state == HostState::Done, host->message.c_str());
        QCOMPARE(host->events.size(), 2u);
        QVERIFY2(host->events[0].value("diff", std::string()).find("-public old") != std::string::npos,
            host->events[0].dump().c_str());
        QVERIFY2(host->events[1].value("diff", std::string()).find("secret old") == std::string::npos,
            host->events[1].dump().c_str());
        QCOMPARE(changed(*host), 2u);
    }
};

CCM_TEST_GUILESS_MAIN(TestFleetPreview)
#include "tst_fleet_preview.moc"
