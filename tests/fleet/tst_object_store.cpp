// SPDX-License-Identifier: Apache-2.0
// The object store protocol against a real nats-server with JetStream: round trips, the wire
// format official clients expect, replacement, corruption and the errors.
#include "nats_connection.h"
#include "nats_server.h"
#include "object_store.h"
#include "object_url.h"
#include "test_common.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <nats/nats.h>
#include <sstream>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::q;

namespace {

constexpr qsizetype kChunk = 128 * 1024;

QByteArray sha256Digest(const QByteArray &data)
{
    return "SHA-256="
        + QCryptographicHash::hash(data, QCryptographicHash::Sha256).toBase64(QByteArray::Base64UrlEncoding);
}

QByteArray metaSubject(const QByteArray &bucket, const QByteArray &name)
{
    return "$O." + bucket + ".M." + name.toBase64(QByteArray::Base64UrlEncoding);
}

/// The last message on `subject` of stream OBJ_<bucket>, straight from JetStream.
QByteArray lastMessage(NatsConnection &connection, const QByteArray &bucket, const QByteArray &subject)
{
    natsMsg *message = nullptr;
    const QByteArray stream = "OBJ_" + bucket;
    if (js_GetLastMsg(&message, connection.jetStream(), stream.constData(), subject.constData(), nullptr, nullptr)
        != NATS_OK)
        return {};
    const QByteArray data(natsMsg_GetData(message), natsMsg_GetDataLength(message));
    natsMsg_Destroy(message);
    return data;
}

/// Replaces the meta record of `name` with `meta`, as a damaged or hostile writer could.
bool publishMeta(NatsConnection &connection, const QByteArray &bucket, const QByteArray &name, const QByteArray &meta)
{
    natsMsg *message = nullptr;
    const QByteArray subject = metaSubject(bucket, name);
    if (natsMsg_Create(&message, subject.constData(), nullptr, meta.constData(), static_cast<int>(meta.size()))
        != NATS_OK)
        return false;
    natsMsgHeader_Set(message, "Nats-Rollup", "sub");
    const bool published = js_PublishMsg(nullptr, connection.jetStream(), message, nullptr, nullptr) == NATS_OK;
    natsMsg_Destroy(message);
    return published;
}

jsStreamInfo *streamInfo(NatsConnection &connection, const QByteArray &bucket)
{
    jsStreamInfo *info = nullptr;
    const QByteArray stream = "OBJ_" + bucket;
    js_GetStreamInfo(&info, connection.jetStream(), stream.constData(), nullptr, nullptr);
    return info;
}

} // namespace

class TestObjectStore : public QObject {
    Q_OBJECT

    test::NatsServer m_server;
    std::unique_ptr<NatsConnection> m_connection;

    NatsConnection &connection() { return *m_connection; }

    ObjectStore store(const std::string &bucket)
    {
        auto opened = ObjectStore::openOrCreate(connection(), bucket);
        if (!opened)
            qFatal("cannot open bucket %s: %s", bucket.c_str(), opened.error().message.c_str());
        return std::move(opened).value();
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        NatsSettings settings;
        settings.url = m_server.urlString();
        settings.source = "test";
        auto connected = NatsConnection::connect(settings);
        QVERIFY2(connected.ok(), connected.ok() ? "" : connected.error().message.c_str());
        m_connection = std::move(connected).value();
    }

    void cleanupTestCase() { m_connection.reset(); }

    void roundTrip_data()
    {
        QTest::addColumn<qsizetype>("size");
        QTest::addColumn<quint32>("chunks");
        QTest::newRow("empty") << qsizetype(0) << 0u;
        QTest::newRow("one byte") << qsizetype(1) << 1u;
        QTest::newRow("one chunk less a byte") << kChunk - 1 << 1u;
        QTest::newRow("exactly one chunk") << kChunk << 1u;
        QTest::newRow("one chunk and a byte") << kChunk + 1 << 2u;
        QTest::newRow("several chunks") << 5 * kChunk + 4321 << 6u;
    }

    void roundTrip()
    {
        QFETCH(qsizetype, size);
        QFETCH(quint32, chunks);
        const QByteArray data = test::randomBytes(size, static_cast<quint32>(size));
        ObjectStore bucket = store("roundtrip");
        const std::string name = "bundle-" + std::to_string(size) + ".tar.gz";
        std::istringstream input(data.toStdString());
        auto put = bucket.put(name, input);
        QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());
        QCOMPARE(put->size, static_cast<std::uint64_t>(size));
        QCOMPARE(put->chunks, chunks);
        QCOMPARE(QByteArray::fromStdString(put->digest), sha256Digest(data));

        std::ostringstream output;
        auto got = bucket.get(name, output);
        QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
        QCOMPARE(QByteArray::fromStdString(output.str()), data);
        QCOMPARE(got->nuid, put->nuid);
    }

    void writesTheWireFormatOfOfficialClients()
    {
        ObjectStore bucket = store("wire");
        const QByteArray data = test::randomBytes(2 * kChunk + 10, 7);
        // Names with characters that base64url pads and that are not subject tokens.
        const QByteArray name = "dir/a b.tgz";
        std::istringstream input(data.toStdString());
        auto put = bucket.put(name.toStdString(), input);
        QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());

        const QByteArray meta = lastMessage(connection(), "wire", metaSubject("wire", name));
        QVERIFY2(!meta.isEmpty(), "no meta record on $O.wire.M.<padded base64url name>");
        const QJsonObject record = QJsonDocument::fromJson(meta).object();
        QCOMPARE(record.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(record.value(QStringLiteral("bucket")).toString(), QStringLiteral("wire"));
        QCOMPARE(record.value(QStringLiteral("size")).toInteger(), data.size());
        QCOMPARE(record.value(QStringLiteral("chunks")).toInt(), 3);
        QCOMPARE(record.value(QStringLiteral("digest")).toString().toUtf8(), sha256Digest(data));
        QCOMPARE(
            record.value(QStringLiteral("options")).toObject().value(QStringLiteral("max_chunk_size")).toInt(), kChunk);
        const QByteArray nuid = record.value(QStringLiteral("nuid")).toString().toUtf8();
        QCOMPARE(nuid.size(), 22);
        QCOMPARE(lastMessage(connection(), "wire", "$O.wire.C." + nuid), data.mid(2 * kChunk));

        jsStreamInfo *info = streamInfo(connection(), "wire");
        QVERIFY(info);
        const jsStreamConfig *config = info->Config;
        QCOMPARE(config->SubjectsLen, 2);
        QCOMPARE(QByteArray(config->Subjects[0]), QByteArray("$O.wire.C.>"));
        QCOMPARE(QByteArray(config->Subjects[1]), QByteArray("$O.wire.M.>"));
        QVERIFY(config->AllowRollup);
        QVERIFY(config->AllowDirect);
        QCOMPARE(config->Discard, js_DiscardNew);
        jsStreamInfo_Destroy(info);
    }

    void replacingPurgesTheOldChunks()
    {
        ObjectStore bucket = store("replace");
        const QByteArray first = test::randomBytes(4 * kChunk, 1);
        const QByteArray second = test::randomBytes(kChunk / 2, 2);
        std::istringstream firstInput(first.toStdString());
        auto put1 = bucket.put("b.tgz", firstInput);
        QVERIFY(put1.ok());
        std::istringstream secondInput(second.toStdString());
        auto put2 = bucket.put("b.tgz", secondInput);
        QVERIFY2(put2.ok(), put2.ok() ? "" : put2.error().message.c_str());
        QVERIFY(put2->nuid != put1->nuid);

        std::ostringstream output;
        auto got = bucket.get("b.tgz", output);
        QVERIFY(got.ok());
        QCOMPARE(QByteArray::fromStdString(output.str()), second);
        // Left: the one chunk of the new object and its meta record.
        jsStreamInfo *info = streamInfo(connection(), "replace");
        QVERIFY(info);
        QCOMPARE(info->State.Msgs, quint64(2));
        jsStreamInfo_Destroy(info);
    }

    void detectsDamage_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("expectedCode");
        QTest::newRow("digest of other data") << "digest"
                                              << "digest_mismatch";
        QTest::newRow("size too small") << "smaller"
                                        << "size_mismatch";
        QTest::newRow("size too large") << "larger"
                                        << "size_mismatch";
        QTest::newRow("more chunks than stored") << "chunks"
                                                 << "size_mismatch";
        QTest::newRow("unknown digest kind") << "md5"
                                             << "bad_meta";
        QTest::newRow("not JSON") << "garbage"
                                  << "bad_meta";
    }

    void detectsDamage()
    {
        QFETCH(QString, change);
        QFETCH(QString, expectedCode);
        ObjectStore bucket = store("damage");
        const QByteArray data = test::randomBytes(3 * kChunk + 5, 3);
        std::istringstream input(data.toStdString());
        auto put = bucket.put("b.tgz", input);
        QVERIFY(put.ok());

        QJsonObject meta
            = QJsonDocument::fromJson(lastMessage(connection(), "damage", metaSubject("damage", "b.tgz"))).object();
        QByteArray text;
        if (change == QStringLiteral("digest"))
            meta.insert(QStringLiteral("digest"), QString::fromUtf8(sha256Digest("other")));
        else if (change == QStringLiteral("smaller"))
            meta.insert(QStringLiteral("size"), data.size() - 1);
        else if (change == QStringLiteral("larger"))
            meta.insert(QStringLiteral("size"), data.size() + 1);
        else if (change == QStringLiteral("chunks"))
            meta.insert(QStringLiteral("chunks"), 5);
        else if (change == QStringLiteral("md5"))
            meta.insert(QStringLiteral("digest"), QStringLiteral("MD5=abc"));
        text = change == QStringLiteral("garbage") ? QByteArray("{not json") : QJsonDocument(meta).toJson();
        QVERIFY(publishMeta(connection(), "damage", "b.tgz", text));

        QTemporaryDir dir;
        const QString destination = dir.filePath(QStringLiteral("b.tgz"));
        auto got = bucket.getToFile("b.tgz", destination.toStdString());
        QVERIFY(!got.ok());
        QCOMPARE(q(got.error().code), expectedCode);
        QVERIFY2(q(got.error().message).contains(QStringLiteral("b.tgz")), got.error().message.c_str());
        // Nothing half-verified is left behind.
        QVERIFY(!QFile::exists(destination));
        QVERIFY(!QFile::exists(destination + QStringLiteral(".part")));
    }

    void replacesAnUnreadableRecord()
    {
        // Publishing again is how a damaged object gets fixed, so a record that cannot be read
        // must not stop it.
        ObjectStore bucket = store("fixable");
        QVERIFY(publishMeta(connection(), "fixable", "b.tgz", "{not json"));
        const QByteArray data = test::randomBytes(1000, 5);
        std::istringstream input(data.toStdString());
        auto put = bucket.put("b.tgz", input);
        QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());
        std::ostringstream output;
        QVERIFY(bucket.get("b.tgz", output).ok());
        QCOMPARE(QByteArray::fromStdString(output.str()), data);
    }

    void missingBucketAndObject()
    {
        auto missingBucket = ObjectStore::open(connection(), "absent");
        QVERIFY(!missingBucket.ok());
        QCOMPARE(q(missingBucket.error().code), QStringLiteral("bucket_not_found"));
        QVERIFY(q(missingBucket.error().message).contains(QStringLiteral("'absent'")));

        ObjectStore bucket = store("present");
        std::ostringstream output;
        auto missingObject = bucket.get("nothing.tgz", output);
        QVERIFY(!missingObject.ok());
        QCOMPARE(q(missingObject.error().code), QStringLiteral("object_not_found"));
        QVERIFY(q(missingObject.error().message).contains(QStringLiteral("nothing.tgz")));

        // A deleted object, as official clients mark it, is missing too.
        QVERIFY(publishMeta(connection(), "present", "gone.tgz",
            R"({"name":"gone.tgz","bucket":"present","nuid":"x","size":0,"chunks":0,"digest":"","deleted":true})"));
        QCOMPARE(q(bucket.info("gone.tgz").error().code), QStringLiteral("object_not_found"));
    }

    void refusesInvalidBucketNames()
    {
        for (const char *name : {"", "a.b", "a b", "a>", "*"}) {
            auto opened = ObjectStore::openOrCreate(connection(), name);
            QVERIFY(!opened.ok());
            QCOMPARE(q(opened.error().code), QStringLiteral("bad_name"));
        }
    }

    void downloadsByUrl()
    {
        ObjectStore bucket = store("urls");
        const QByteArray data = test::randomBytes(kChunk + 99, 4);
        std::istringstream input(data.toStdString());
        QVERIFY(bucket.put("site/web.tgz", input).ok());

        QTemporaryDir dir;
        const QString destination = dir.filePath(QStringLiteral("web.tgz"));
        NatsSettings settings;
        settings.url = m_server.urlString();
        settings.source = "test";
        auto fetched = downloadObject("obj://urls/site/web.tgz", settings, destination.toStdString());
        QVERIFY2(fetched.ok(), fetched.ok() ? "" : fetched.error().message.c_str());
        QFile file(destination);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), data);

        auto missing = downloadObject("obj://urls/other.tgz", settings, destination.toStdString());
        QVERIFY(!missing.ok());
        QCOMPARE(q(missing.error().code), QStringLiteral("object_not_found"));
        QVERIFY(q(missing.error().message).startsWith(QStringLiteral("fetching obj://urls/other.tgz: ")));
    }

    void parsesObjectUrls_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("bucket");
        QTest::addColumn<QString>("key");
        QTest::newRow("plain") << "obj://b/k.tgz"
                               << "b"
                               << "k.tgz";
        QTest::newRow("key with slashes") << "obj://b/a/b/c"
                                          << "b"
                                          << "a/b/c";
        QTest::newRow("no key") << "obj://b/"
                                << ""
                                << "";
        QTest::newRow("no bucket") << "obj:///k"
                                   << ""
                                   << "";
        QTest::newRow("no slash") << "obj://b"
                                  << ""
                                  << "";
        QTest::newRow("other scheme") << "https://b/k"
                                      << ""
                                      << "";
    }

    void parsesObjectUrls()
    {
        QFETCH(QString, url);
        QFETCH(QString, bucket);
        QFETCH(QString, key);
        auto parsed = parseObjectUrl(url.toStdString());
        if (bucket.isEmpty()) {
            QVERIFY(!parsed.ok());
            QCOMPARE(q(parsed.error().code), QStringLiteral("bad_url"));
            return;
        }
        QVERIFY(parsed.ok());
        QCOMPARE(q(parsed->bucket), bucket);
        QCOMPARE(q(parsed->key), key);
        QCOMPARE(q(parsed->toString()), url);
    }

    void chunksFitTheServersMaxPayload()
    {
        test::NatsServer small;
        QVERIFY2(small.start({true, "max_payload: 65536\n"}), qPrintable(small.error()));
        NatsSettings settings;
        settings.url = small.urlString();
        auto connected = NatsConnection::connect(settings);
        QVERIFY(connected.ok());
        auto bucket = ObjectStore::openOrCreate(*connected.value(), "small");
        QVERIFY(bucket.ok());
        const QByteArray data = test::randomBytes(200 * 1024, 6);
        std::istringstream input(data.toStdString());
        auto put = bucket.value().put("b.tgz", input);
        QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());
        QCOMPARE(put->chunks, 4u);
        std::ostringstream output;
        QVERIFY(bucket.value().get("b.tgz", output).ok());
        QCOMPARE(QByteArray::fromStdString(output.str()), data);
    }

    void serverWithoutJetStream()
    {
        test::NatsServer plain;
        QVERIFY2(plain.start({false, {}}), qPrintable(plain.error()));
        NatsSettings settings;
        settings.url = plain.urlString();
        settings.source = "test";
        auto connected = NatsConnection::connect(settings);
        QVERIFY(connected.ok());
        auto opened = ObjectStore::openOrCreate(*connected.value(), "bundles");
        QVERIFY(!opened.ok());
        QCOMPARE(q(opened.error().code), QStringLiteral("no_jetstream"));
        QVERIFY2(q(opened.error().message).contains(plain.url()), opened.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestObjectStore)
#include "tst_object_store.moc"
