// SPDX-License-Identifier: Apache-2.0
// `ccm-backend publish --sign/--message`, `releases` and `rollback` as real processes against a
// real nats-server: the release history in CCM_RELEASES and the bundles kept by digest.
#include "../backend/backend_process.h"
#include "core/bundle/bundle_signature.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet/release/release_store.h"
#include "fleet/rollout/rollout_record.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <memory>
#include <pwd.h>
#include <sstream>
#include <unistd.h>

using namespace ccm;
using namespace ccm::fleet;

class TestReleasesCli : public QObject {
    Q_OBJECT

    test::NatsServer m_server;
    QTemporaryDir m_dir;
    QString m_key;
    QString m_otherKey;
    QString m_fingerprint;
    QString m_otherFingerprint;

    std::unique_ptr<NatsConnection> connect()
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        return connection ? std::move(connection).value() : nullptr;
    }

    /// The bytes of obj://bucket/name, read back through the library.
    QByteArray fetch(const QString &bucket, const QString &name)
    {
        auto connection = connect();
        if (!connection)
            return "connect failed";
        auto store = ObjectStore::open(*connection, bucket.toStdString());
        if (!store)
            return "open failed: " + QByteArray::fromStdString(store.error().message);
        std::ostringstream out;
        auto got = store.value().get(name.toStdString(), out);
        if (!got)
            return "get failed: " + QByteArray::fromStdString(got.error().message);
        return QByteArray::fromStdString(out.str());
    }

    bool exists(const QString &bucket, const QString &name)
    {
        auto connection = connect();
        auto store = connection ? ObjectStore::open(*connection, bucket.toStdString()) : Result<ObjectStore>(Error {});
        return store && store.value().info(name.toStdString());
    }

    static QString digestOf(const QByteArray &data)
    {
        return QStringLiteral("SHA-256=")
            + QString::fromLatin1(
                QCryptographicHash::hash(data, QCryptographicHash::Sha256).toBase64(QByteArray::Base64UrlEncoding));
    }

    test::BackendRun run(const QStringList &arguments)
    {
        return test::runBackend(
            arguments + QStringList {QStringLiteral("--nats"), m_server.url()}, {}, test::isolatedEnvironment(m_dir));
    }

    /// The value of "FIELD: value" in a command's output.
    static QString field(const QString &out, const QString &name)
    {
        for (const QString &line : out.split(QLatin1Char('\n')))
            if (line.startsWith(name + QStringLiteral(": ")))
                return line.mid(name.size() + 2);
        return {};
    }

    /// An unsigned bundle of the example manifest `example`.
    QString bundle(const QString &example, const QString &file)
    {
        const QString path = m_dir.filePath(file);
        const test::BackendRun made
            = test::runBackend({QStringLiteral("bundle"), test::examplePath(example), QStringLiteral("-o"), path}, {},
                test::isolatedEnvironment(m_dir));
        if (made.exitCode != 0)
            qFatal("bundle failed: %s", qPrintable(made.err));
        return path;
    }

    QString keygen(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        const test::BackendRun made
            = test::runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), path}, {},
                test::isolatedEnvironment(m_dir));
        if (made.exitCode != 0)
            qFatal("keygen failed: %s", qPrintable(made.err));
        return field(made.out, QStringLiteral("fingerprint"));
    }

    /// `releases --json` as objects, newest first; its stderr in `err`.
    QList<QJsonObject> releases(const QString &bucket, const QString &name, QString *err = nullptr)
    {
        QStringList arguments {
            QStringLiteral("releases"), QStringLiteral("--bucket"), bucket, QStringLiteral("--json")};
        if (!name.isEmpty())
            arguments << QStringLiteral("--name") << name;
        const test::BackendRun listed = run(arguments);
        if (err)
            *err = listed.err;
        QList<QJsonObject> objects;
        if (listed.exitCode != 0)
            return objects;
        for (const QString &line : listed.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            objects << QJsonDocument::fromJson(line.toUtf8()).object();
        return objects;
    }

    static QString publisher()
    {
        const passwd *entry = ::getpwuid(::getuid());
        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        return QString::fromLocal8Bit(entry ? entry->pw_name : "") + QLatin1Char('@') + QString::fromLocal8Bit(host);
    }

    /// Publishes `file` signed with the test key; returns the digest it printed.
    QString publishSigned(const QString &file, const QString &bucket, const QString &name, const QString &message)
    {
        const test::BackendRun published = run({QStringLiteral("publish"), file, QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), name, QStringLiteral("--sign"), m_key, QStringLiteral("--message"), message});
        if (published.exitCode != 0)
            qWarning("publish failed: %s", qPrintable(published.err));
        return published.exitCode == 0 && field(published.out, QStringLiteral("signer")) == m_fingerprint
            ? field(published.out, QStringLiteral("digest"))
            : QString();
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        m_fingerprint = keygen(QStringLiteral("keys/release.pem"));
        m_key = m_dir.filePath(QStringLiteral("keys/release.pem"));
        m_otherFingerprint = keygen(QStringLiteral("keys/other.pem"));
        m_otherKey = m_dir.filePath(QStringLiteral("keys/other.pem"));
        QCOMPARE(m_fingerprint.size(), 16);
    }

    void anEmptyHistoryIsNoError()
    {
        // Runs first: the server has a bucket but has never recorded a release.
        test::NatsServer fresh;
        QVERIFY2(fresh.start(), qPrintable(fresh.error()));
        fleet::NatsSettings settings;
        settings.url = fresh.urlString();
        auto connection = fleet::NatsConnection::connect(settings);
        QVERIFY(connection);
        QVERIFY(fleet::ObjectStore::openOrCreate(**connection, "empty"));
        const auto listed = test::runBackend({QStringLiteral("releases"), QStringLiteral("--bucket"),
            QStringLiteral("empty"), QStringLiteral("--json"), QStringLiteral("--nats"), fresh.url()});
        QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
        QCOMPARE(listed.out, QString());
        QVERIFY2(
            listed.err.contains(QStringLiteral("no release is recorded in CCM_RELEASES yet")), qPrintable(listed.err));
        const auto missing = test::runBackend({QStringLiteral("releases"), QStringLiteral("--bucket"),
            QStringLiteral("nosuch"), QStringLiteral("--nats"), fresh.url()});
        QCOMPARE(missing.exitCode, 1);
    }

    void historyRollbackAndPrune()
    {
        const QString bucket = QStringLiteral("history");
        const QString name = QStringLiteral("prod/site.tgz");
        const QStringList examples {
            QStringLiteral("packages.yaml"), QStringLiteral("services.yaml"), QStringLiteral("webserver.yaml")};
        const QStringList messages {QStringLiteral("first"), QStringLiteral("second"), QStringLiteral("third")};
        QStringList digests;
        QList<QByteArray> contents;
        for (int i = 0; i < 3; ++i) {
            digests << publishSigned(
                bundle(examples[i], QStringLiteral("h%1.tar.gz").arg(i)), bucket, name, messages[i]);
            QVERIFY(!digests.last().isEmpty());
            contents << fetch(bucket, name);
            QCOMPARE(digestOf(contents.last()), digests.last());
        }

        QList<QJsonObject> listed = releases(bucket, name);
        QCOMPARE(listed.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject &release = listed[2 - i]; // newest first
            QCOMPARE(release.keys(),
                (QStringList {QStringLiteral("bucket"), QStringLiteral("digest"), QStringLiteral("message"),
                    QStringLiteral("name"), QStringLiteral("publisher"), QStringLiteral("signer"),
                    QStringLiteral("size"), QStringLiteral("time")}));
            QCOMPARE(release[QStringLiteral("name")].toString(), name);
            QCOMPARE(release[QStringLiteral("bucket")].toString(), bucket);
            QCOMPARE(release[QStringLiteral("digest")].toString(), digests[i]);
            QCOMPARE(release[QStringLiteral("size")].toInteger(), contents[i].size());
            QCOMPARE(release[QStringLiteral("signer")].toString(), m_fingerprint);
            QCOMPARE(release[QStringLiteral("publisher")].toString(), publisher());
            QCOMPARE(release[QStringLiteral("message")].toString(), messages[i]);
            const QDateTime time = QDateTime::fromString(release[QStringLiteral("time")].toString(), Qt::ISODateWithMs);
            QVERIFY2(time.isValid() && qAbs(time.secsTo(QDateTime::currentDateTimeUtc())) < 300,
                qPrintable(release[QStringLiteral("time")].toString()));
            QVERIFY(exists(bucket, QStringLiteral(".releases/") + digests[i]));
        }

        // The table lists the same releases.
        const test::BackendRun table = run({QStringLiteral("releases"), QStringLiteral("--bucket"), bucket});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.startsWith(QStringLiteral("TIME")));
        QCOMPARE(table.out.count(QLatin1Char('\n')), 4);
        QVERIFY(table.out.indexOf(digests[2]) < table.out.indexOf(digests[0]));

        // No --to: the release before the current one, same bytes since the same key signed it.
        const test::BackendRun back = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), name, QStringLiteral("--sign"), m_key});
        QVERIFY2(back.exitCode == 0, qPrintable(back.err));
        QCOMPARE(field(back.out, QStringLiteral("rolled back to")), digests[1]);
        QCOMPARE(field(back.out, QStringLiteral("digest")), digests[1]);
        QCOMPARE(fetch(bucket, name), contents[1]);
        listed = releases(bucket, name);
        QCOMPARE(listed.size(), 4);
        QCOMPARE(listed[0][QStringLiteral("digest")].toString(), digests[1]);
        QCOMPARE(listed[0][QStringLiteral("message")].toString(), QStringLiteral("rollback to ") + digests[1]);
        QCOMPARE(listed[0][QStringLiteral("signer")].toString(), m_fingerprint);

        // --to a named release, with a message.
        const test::BackendRun to = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), name, QStringLiteral("--to"), digests[0], QStringLiteral("--sign"), m_key,
            QStringLiteral("--message"), QStringLiteral("back to the first")});
        QVERIFY2(to.exitCode == 0, qPrintable(to.err));
        QCOMPARE(digestOf(fetch(bucket, name)), digests[0]);
        listed = releases(bucket, name);
        QCOMPARE(listed.size(), 5);
        QCOMPARE(listed[0][QStringLiteral("message")].toString(), QStringLiteral("back to the first"));

        // A digest that is no release of the name.
        const QString unknown = digestOf("no such release");
        const test::BackendRun missing = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), name, QStringLiteral("--to"), unknown, QStringLiteral("--sign"), m_key});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(unknown + QStringLiteral(" is not a release of prod/site.tgz")),
            qPrintable(missing.err));
        QCOMPARE(digestOf(fetch(bucket, name)), digests[0]);

        // Prune to two: digests[0] and [1] stay (kept releases), digests[2] goes with its bundle.
        const test::BackendRun pruned = run({QStringLiteral("releases"), QStringLiteral("--prune"),
            QStringLiteral("--keep"), QStringLiteral("2"), QStringLiteral("--bucket"), bucket});
        QVERIFY2(pruned.exitCode == 0, qPrintable(pruned.err));
        QCOMPARE(field(pruned.out, QStringLiteral("records")), QStringLiteral("3"));
        QCOMPARE(field(pruned.out, QStringLiteral("bundles")), QStringLiteral("1"));
        listed = releases(bucket, name);
        QCOMPARE(listed.size(), 2);
        QCOMPARE(listed[0][QStringLiteral("digest")].toString(), digests[0]);
        QCOMPARE(listed[1][QStringLiteral("digest")].toString(), digests[1]);
        QVERIFY(exists(bucket, QStringLiteral(".releases/") + digests[0]));
        QVERIFY(exists(bucket, QStringLiteral(".releases/") + digests[1]));
        QVERIFY(!exists(bucket, QStringLiteral(".releases/") + digests[2]));
        const test::BackendRun gone = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), name, QStringLiteral("--to"), digests[2], QStringLiteral("--sign"), m_key});
        QCOMPARE(gone.exitCode, 1);
        QVERIFY2(gone.err.contains(QStringLiteral("is not a release")), qPrintable(gone.err));
    }

    // Prune removes a kept bundle only when nothing refers to it: not another name's release or
    // object, nor a rollout of the bucket.
    void pruneKeepsWhatIsReferenced()
    {
        const QString bucket = QStringLiteral("shared");
        const QString x = bundle(QStringLiteral("packages.yaml"), QStringLiteral("p1.tar.gz"));
        const QString shared = publishSigned(x, bucket, QStringLiteral("a.tgz"), QStringLiteral("x"));
        QCOMPARE(publishSigned(x, bucket, QStringLiteral("b.tgz"), QStringLiteral("x too")), shared);
        const QString ringPrevious = publishSigned(
            bundle(QStringLiteral("services.yaml"), QStringLiteral("p2.tar.gz")), bucket, QStringLiteral("a.tgz"), {});
        const QString unreferenced = publishSigned(
            bundle(QStringLiteral("webserver.yaml"), QStringLiteral("p3.tar.gz")), bucket, QStringLiteral("a.tgz"), {});
        const QString latest = publishSigned(bundle(QStringLiteral("static-site.yaml"), QStringLiteral("p4.tar.gz")),
            bucket, QStringLiteral("a.tgz"), {});
        QVERIFY(!shared.isEmpty() && !ringPrevious.isEmpty() && !unreferenced.isEmpty() && !latest.isEmpty());

        auto connection = connect();
        QVERIFY(connection);
        auto rollouts = KvBucket::openOrCreate(*connection, std::string(kRolloutsBucket));
        QVERIFY(rollouts);
        RolloutRecord rollout;
        rollout.id = newRolloutId();
        rollout.bucket = bucket.toStdString();
        rollout.digest = latest.toStdString();
        rollout.created = rollout.updated = std::chrono::system_clock::now();
        RingRecord ring;
        ring.name = "a.tgz";
        ring.previous = ringPrevious.toStdString();
        rollout.rings.push_back(ring);
        QVERIFY(rollouts.value().put(rollout.id, rolloutToJson(rollout).dump()));

        const test::BackendRun pruned
            = run({QStringLiteral("releases"), QStringLiteral("--prune"), QStringLiteral("--keep"), QStringLiteral("1"),
                QStringLiteral("--bucket"), bucket, QStringLiteral("--name"), QStringLiteral("a.tgz")});
        QVERIFY2(pruned.exitCode == 0, qPrintable(pruned.err));
        QCOMPARE(field(pruned.out, QStringLiteral("records")), QStringLiteral("3"));
        QCOMPARE(field(pruned.out, QStringLiteral("bundles")), QStringLiteral("1"));
        QCOMPARE(releases(bucket, QStringLiteral("a.tgz")).size(), 1);
        QCOMPARE(releases(bucket, QStringLiteral("b.tgz")).size(), 1);
        QVERIFY(exists(bucket, QStringLiteral(".releases/") + shared));
        QVERIFY(exists(bucket, QStringLiteral(".releases/") + ringPrevious));
        QVERIFY(exists(bucket, QStringLiteral(".releases/") + latest));
        QVERIFY(!exists(bucket, QStringLiteral(".releases/") + unreferenced));
    }

    void nothingToRollBackTo()
    {
        const QString bucket = QStringLiteral("single");
        QVERIFY(!publishSigned(bundle(QStringLiteral("packages.yaml"), QStringLiteral("s.tar.gz")), bucket,
            QStringLiteral("one.tgz"), QStringLiteral("only"))
                     .isEmpty());
        const test::BackendRun back = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), QStringLiteral("one.tgz"), QStringLiteral("--sign"), m_key});
        QCOMPARE(back.exitCode, 1);
        QVERIFY2(back.err.contains(QStringLiteral("nothing to roll back to")), qPrintable(back.err));
        const test::BackendRun none = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), QStringLiteral("never.tgz"), QStringLiteral("--sign"), m_key});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains(QStringLiteral("no release of never.tgz")), qPrintable(none.err));
    }

    void signsAtPublishAndResignsAtRollback()
    {
        const QString bucket = QStringLiteral("signing");
        const QString unsignedFile = bundle(QStringLiteral("services.yaml"), QStringLiteral("u.tar.gz"));
        QVERIFY(!publishSigned(unsignedFile, bucket, QStringLiteral("a.tgz"), QStringLiteral("signed now")).isEmpty());
        const QString fetched
            = test::writeFile(m_dir, QStringLiteral("fetched.tar.gz"), fetch(bucket, QStringLiteral("a.tgz")));
        auto check = readBundleSignature(fetched.toStdString());
        QVERIFY2(check, check ? "" : check.error().message.c_str());
        QCOMPARE(check->state, BundleSignatureCheck::State::Signed);
        QCOMPARE(QString::fromStdString(check->signature->fingerprint()), m_fingerprint);

        // An unsigned release, then a rollback to it signed by another key.
        const test::BackendRun plain = run({QStringLiteral("publish"), unsignedFile, QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), QStringLiteral("a.tgz")});
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
        QVERIFY(field(plain.out, QStringLiteral("signer")).isEmpty());
        QVERIFY(!publishSigned(bundle(QStringLiteral("packages.yaml"), QStringLiteral("v.tar.gz")), bucket,
            QStringLiteral("a.tgz"), QStringLiteral("newer"))
                     .isEmpty());
        const QString unsignedDigest = field(plain.out, QStringLiteral("digest"));
        const test::BackendRun back
            = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket, QStringLiteral("--name"),
                QStringLiteral("a.tgz"), QStringLiteral("--to"), unsignedDigest, QStringLiteral("--sign"), m_otherKey});
        QVERIFY2(back.exitCode == 0, qPrintable(back.err));
        QCOMPARE(field(back.out, QStringLiteral("signer")), m_otherFingerprint);
        const QString restored
            = test::writeFile(m_dir, QStringLiteral("restored.tar.gz"), fetch(bucket, QStringLiteral("a.tgz")));
        auto resigned = readBundleSignature(restored.toStdString());
        QVERIFY(resigned && resigned->state == BundleSignatureCheck::State::Signed);
        QCOMPARE(QString::fromStdString(resigned->signature->fingerprint()), m_otherFingerprint);
        const QList<QJsonObject> listed = releases(bucket, QStringLiteral("a.tgz"));
        QCOMPARE(listed.size(), 4);
        QCOMPARE(listed[0][QStringLiteral("signer")].toString(), m_otherFingerprint);
        QVERIFY(listed[2][QStringLiteral("signer")].isNull());
    }

    void brokenBundlesPublishUnsigned()
    {
        const QString file = test::writeFile(m_dir, QStringLiteral("broken.tgz"), "not a bundle");
        const test::BackendRun plain = run({QStringLiteral("publish"), file, QStringLiteral("--bucket"),
            QStringLiteral("broken"), QStringLiteral("--message"), QStringLiteral("on purpose")});
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
        QVERIFY2(plain.err.contains(QStringLiteral("could not be read as a bundle")), qPrintable(plain.err));
        const QList<QJsonObject> listed = releases(QStringLiteral("broken"), QStringLiteral("broken.tgz"));
        QCOMPARE(listed.size(), 1);
        QVERIFY(listed[0][QStringLiteral("signer")].isNull());
        QCOMPARE(listed[0][QStringLiteral("message")].toString(), QStringLiteral("on purpose"));

        // --sign refuses what is not a bundle, and publishes nothing.
        const test::BackendRun signing
            = run({QStringLiteral("publish"), file, QStringLiteral("--bucket"), QStringLiteral("broken"),
                QStringLiteral("--name"), QStringLiteral("other.tgz"), QStringLiteral("--sign"), m_key});
        QCOMPARE(signing.exitCode, 1);
        QVERIFY2(signing.err.contains(QStringLiteral("cannot be signed")), qPrintable(signing.err));
        QVERIFY(!exists(QStringLiteral("broken"), QStringLiteral("other.tgz")));
    }

    void hostileRecordsAndBundles()
    {
        const QString bucket = QStringLiteral("hostile");
        const QString name = QStringLiteral("h.tgz");
        const QString first = publishSigned(
            bundle(QStringLiteral("packages.yaml"), QStringLiteral("x1.tar.gz")), bucket, name, QStringLiteral("one"));
        const QString second = publishSigned(
            bundle(QStringLiteral("services.yaml"), QStringLiteral("x2.tar.gz")), bucket, name, QStringLiteral("two"));
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        auto connection = connect();
        QVERIFY(connection);
        auto records = KvBucket::open(*connection, std::string(kReleasesBucket));
        QVERIFY(records);
        const std::string prefix
            = "hostile." + QByteArray(name.toUtf8()).toBase64(QByteArray::Base64UrlEncoding).toStdString() + ".";
        QVERIFY(records.value().put(prefix + "aaaaaaaaaaaa", "not json"));
        QVERIFY(records.value().put(prefix + "bbbbbbbbbbbb",
            R"({"name":"h.tgz","bucket":"hostile","digest":"SHA-256=>","size":1,"time":"2026-01-01T00:00:00Z",)"
            R"("publisher":"x","signer":null,"message":"","archive":".releases/SHA-256=>"})"));
        QVERIFY(records.value().put(prefix + "cccccccccccc",
            R"({"name":"other.tgz","bucket":"hostile","digest":")" + first.toStdString()
                + R"(","size":1,"time":"2026-01-01T00:00:00Z","publisher":"x","signer":null,"message":"",)"
                  R"("archive":".releases/)"
                + first.toStdString() + R"("})"));
        // Nested 120,000 lists deep (240 KB): parsing it ran past the end of the stack.
        const std::size_t levels = 120000;
        QVERIFY(records.value().put(prefix + "dddddddddddd",
            R"({"name":"h.tgz","bucket":"hostile","message":)" + std::string(levels, '[') + std::string(levels, ']')
                + R"(,"publisher":"x"})"));

        QString err;
        const QList<QJsonObject> listed = releases(bucket, name, &err);
        QCOMPARE(listed.size(), 2);
        QVERIFY2(err.contains(QStringLiteral("warning: skipped release record '") + QString::fromStdString(prefix)
                     + QStringLiteral("aaaaaaaaaaaa'")),
            qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("digest is not a SHA-256= digest")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("name is not the name its key gives")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("dddddddddddd' of CCM_RELEASES: is nested deeper than 16 levels")),
            qPrintable(err));

        // A kept bundle replaced by other bytes is not published on the record's word.
        auto store = ObjectStore::open(*connection, bucket.toStdString());
        QVERIFY(store);
        std::istringstream forged("forged contents");
        QVERIFY(store.value().put(".releases/" + first.toStdString(), forged));
        const test::BackendRun back = run({QStringLiteral("rollback"), QStringLiteral("--bucket"), bucket,
            QStringLiteral("--name"), name, QStringLiteral("--sign"), m_key});
        QCOMPARE(back.exitCode, 1);
        QVERIFY2(back.err.contains(QStringLiteral("is refused")), qPrintable(back.err));
        QCOMPARE(digestOf(fetch(bucket, name)), second);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("releases without bucket") << QStringList {QStringLiteral("releases")} << "--bucket is required";
        QTest::newRow("prune without keep") << QStringList {QStringLiteral("releases"), QStringLiteral("--bucket"),
            QStringLiteral("b"), QStringLiteral("--prune")}
                                            << "--prune and --keep go together";
        QTest::newRow("keep zero") << QStringList {QStringLiteral("releases"), QStringLiteral("--bucket"),
            QStringLiteral("b"), QStringLiteral("--prune"), QStringLiteral("--keep"), QStringLiteral("0")}
                                   << "is not a count of at least 1";
        QTest::newRow("rollback without sign") << QStringList {QStringLiteral("rollback"), QStringLiteral("--bucket"),
            QStringLiteral("b"), QStringLiteral("--name"), QStringLiteral("n")}
                                               << "--sign KEY.pem is required";
        QTest::newRow("rollback bad digest") << QStringList {QStringLiteral("rollback"), QStringLiteral("--bucket"),
            QStringLiteral("b"), QStringLiteral("--name"), QStringLiteral("n"), QStringLiteral("--sign"),
            QStringLiteral("k.pem"), QStringLiteral("--to"), QStringLiteral("abc")}
                                             << "--to 'abc' is not a digest";
        QTest::newRow("message with a newline") << QStringList {QStringLiteral("publish"), QStringLiteral("f"),
            QStringLiteral("--bucket"), QStringLiteral("b"), QStringLiteral("--message"), QStringLiteral("a\nb")}
                                                << "--message must be one line";
        QTest::newRow("unknown option") << QStringList {QStringLiteral("releases"), QStringLiteral("--frobnicate")}
                                        << "unknown option '--frobnicate'";
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const test::BackendRun failed = test::runBackend(arguments, {}, test::isolatedEnvironment(m_dir));
        QCOMPARE(failed.exitCode, 2);
        QVERIFY2(failed.err.contains(message), qPrintable(failed.err));
    }

    void help()
    {
        for (const QString &command : {QStringLiteral("releases"), QStringLiteral("rollback")}) {
            const test::BackendRun shown = test::runBackend({command, QStringLiteral("-h")});
            QCOMPARE(shown.exitCode, 0);
            QVERIFY(shown.out.startsWith(QStringLiteral("Usage: ccm-backend ") + command));
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestReleasesCli)
#include "tst_releases_cli.moc"
