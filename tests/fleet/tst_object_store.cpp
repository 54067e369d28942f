// SPDX-License-Identifier: Apache-2.0
// The object store protocol against a real nats-server with JetStream: round trips, the wire
// format official clients expect, replacement, corruption, hostile meta records, orphaned chunks,
// private downloads and the errors.
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <memory>
#include <nats/nats.h>
#include <sstream>
#include <sys/stat.h>

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

/// Writes `chunks` straight to $O.<bucket>.C.<nuid>, as a put killed before its meta record leaves them.
bool writeChunks(
    NatsConnection &connection, const QByteArray &bucket, const QByteArray &nuid, const QList<QByteArray> &chunks)
{
    const QByteArray subject = "$O." + bucket + ".C." + nuid;
    for (const QByteArray &chunk : chunks) {
        if (js_Publish(nullptr, connection.jetStream(), subject.constData(), chunk.constData(),
                static_cast<int>(chunk.size()), nullptr, nullptr)
            != NATS_OK)
            return false;
    }
    return true;
}

/// How many messages the stream of `bucket` holds on `subject`, from the server's own count.
quint64 messagesOn(NatsConnection &connection, const QByteArray &bucket, const QByteArray &subject)
{
    jsOptions options;
    jsOptions_Init(&options);
    options.Stream.Info.SubjectsFilter = subject.constData();
    jsStreamInfo *info = nullptr;
    const QByteArray stream = "OBJ_" + bucket;
    if (js_GetStreamInfo(&info, connection.jetStream(), stream.constData(), &options, nullptr) != NATS_OK)
        return ~quint64(0);
    quint64 count = 0;
    if (info->State.Subjects) {
        for (int i = 0; i < info->State.Subjects->Count; ++i)
            count += info->State.Subjects->List[i].Msgs;
    }
    jsStreamInfo_Destroy(info);
    return count;
}

/// A valid meta record of `name` in `bucket` with `field` set to `value`.
QByteArray metaWith(const QByteArray &bucket, const QByteArray &name, const QString &field, const QJsonValue &value)
{
    QJsonObject meta {{QStringLiteral("name"), QString::fromUtf8(name)},
        {QStringLiteral("bucket"), QString::fromUtf8(bucket)},
        {QStringLiteral("nuid"), QStringLiteral("Xy7Kq0pRt2Lm9Nz3Ws5Vb1")}, {QStringLiteral("size"), 1},
        {QStringLiteral("chunks"), 1}, {QStringLiteral("digest"), QString::fromUtf8(sha256Digest("x"))},
        {QStringLiteral("mtime"), QStringLiteral("2026-11-27T10:00:00Z")}};
    if (value.isUndefined())
        meta.remove(field);
    else
        meta.insert(field, value);
    return QJsonDocument(meta).toJson(QJsonDocument::Compact);
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

    void parsesMetaRecords_data()
    {
        QTest::addColumn<QByteArray>("record");
        QTest::addColumn<QString>("refusal"); // empty: accepted
        const QByteArray b = "bk";
        const QByteArray n = "dir/site.tgz";
        QTest::newRow("valid") << metaWith(b, n, QStringLiteral("size"), 1) << "";
        QTest::newRow("deleted, as official clients mark it") << metaWith(b, n, QStringLiteral("deleted"), true) << "";
        QTest::newRow("nuid >") << metaWith(b, n, QStringLiteral("nuid"), QStringLiteral(">")) << "nuid \">\"";
        QTest::newRow("nuid *") << metaWith(b, n, QStringLiteral("nuid"), QStringLiteral("*")) << "nuid \"*\"";
        QTest::newRow("nuid with a dot") << metaWith(b, n, QStringLiteral("nuid"), QStringLiteral("a.>"))
                                         << "nuid \"a.>\"";
        QTest::newRow("nuid with a space")
            << metaWith(b, n, QStringLiteral("nuid"), QStringLiteral("a b")) << "nuid \"a b\"";
        QTest::newRow("nuid with a tab") << metaWith(b, n, QStringLiteral("nuid"), QStringLiteral("a\tb"))
                                         << "nuid \"a\\tb\"";
        QTest::newRow("nuid empty") << metaWith(b, n, QStringLiteral("nuid"), QString()) << "nuid \"\"";
        QTest::newRow("nuid missing") << metaWith(b, n, QStringLiteral("nuid"), QJsonValue::Undefined) << "nuid \"\"";
        QTest::newRow("nuid not a string") << metaWith(b, n, QStringLiteral("nuid"), 5) << "nuid is not a string";
        QTest::newRow("other bucket") << metaWith(b, n, QStringLiteral("bucket"), QStringLiteral("other"))
                                      << "bucket \"other\" is not this bucket";
        QTest::newRow("bucket missing") << metaWith(b, n, QStringLiteral("bucket"), QJsonValue::Undefined)
                                        << "bucket \"\" is not this bucket";
        QTest::newRow("other name") << metaWith(b, n, QStringLiteral("name"), QStringLiteral("other.tgz"))
                                    << "name \"other.tgz\" is not the object's name";
        QTest::newRow("negative size") << metaWith(b, n, QStringLiteral("size"), -1) << "size -1 is not a count";
        QTest::newRow("fractional chunks")
            << metaWith(b, n, QStringLiteral("chunks"), 1.5) << "chunks 1.5 is not a count";
        QTest::newRow("too many chunks") << metaWith(b, n, QStringLiteral("chunks"), 4294967296.0 * 2)
                                         << "is not a count";
        QTest::newRow("deleted not a bool")
            << metaWith(b, n, QStringLiteral("deleted"), QStringLiteral("yes")) << "deleted is not true or false";
        QTest::newRow("number beyond a double")
            << QByteArray(R"({"name":"dir/site.tgz","bucket":"bk","nuid":"x","size":1E1072})")
            << "holds a number out of range";
        QTest::newRow("not JSON") << QByteArray("{\"name\": ") << "not JSON (at byte";
        QTest::newRow("not an object") << QByteArray("[1]") << "not a JSON object";
        QTest::newRow("control characters are escaped")
            << metaWith(b, n, QStringLiteral("nuid"), QStringLiteral("\x1b[31m")) << "nuid \"\\u001b[31m\"";
    }

    void parsesMetaRecords()
    {
        QFETCH(QByteArray, record);
        QFETCH(QString, refusal);
        auto parsed = parseObjectMeta(record.toStdString(), "bk", "dir/site.tgz");
        if (refusal.isEmpty()) {
            QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
            QCOMPARE(q(parsed->nuid), QStringLiteral("Xy7Kq0pRt2Lm9Nz3Ws5Vb1"));
            QCOMPARE(q(parsed->name), QStringLiteral("dir/site.tgz"));
            return;
        }
        QVERIFY(!parsed.ok());
        QCOMPARE(q(parsed.error().code), QStringLiteral("bad_meta"));
        QVERIFY2(q(parsed.error().message).contains(QStringLiteral("object 'dir/site.tgz' in bucket 'bk'")),
            parsed.error().message.c_str());
        QVERIFY2(q(parsed.error().message).contains(refusal), parsed.error().message.c_str());
    }

    void forgedWildcardNuidReachesNoOtherObject()
    {
        // The report: a forged record for shared.tar.gz with nuid ">" and an ordinary publish of
        // that name purged $O.<bucket>.C.>, the chunks of every object.
        ObjectStore bucket = store("forged");
        QMap<QByteArray, QByteArray> others {{"a.tgz", test::randomBytes(3 * kChunk + 1, 21)},
            {"dir/b.tgz", test::randomBytes(100, 22)}, {"shared.tar.gz", test::randomBytes(kChunk, 23)}};
        for (auto it = others.cbegin(); it != others.cend(); ++it) {
            std::istringstream input(it.value().toStdString());
            QVERIFY(bucket.put(it.key().toStdString(), input).ok());
        }
        QVERIFY(publishMeta(connection(), "forged", "shared.tar.gz",
            metaWith("forged", "shared.tar.gz", QStringLiteral("nuid"), QStringLiteral(">"))));

        auto removed = bucket.remove("shared.tar.gz");
        QVERIFY(!removed.ok());
        QCOMPARE(q(removed.error().code), QStringLiteral("bad_meta"));
        QVERIFY2(q(removed.error().message).contains(QStringLiteral("object 'shared.tar.gz'")),
            removed.error().message.c_str());
        QVERIFY2(q(removed.error().message).contains(QStringLiteral("nuid \">\"")), removed.error().message.c_str());

        const QByteArray replacement = test::randomBytes(2 * kChunk, 24);
        std::istringstream input(replacement.toStdString());
        PutReport report;
        auto put = bucket.put("shared.tar.gz", input, {}, &report);
        QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());
        QVERIFY(report.refusedRecord);
        QVERIFY2(q(report.refusedRecord->message).contains(QStringLiteral("nuid \">\"")),
            report.refusedRecord->message.c_str());

        others["shared.tar.gz"] = replacement;
        for (auto it = others.cbegin(); it != others.cend(); ++it) {
            std::ostringstream output;
            auto got = bucket.get(it.key().toStdString(), output);
            QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
            QCOMPARE(QByteArray::fromStdString(output.str()), it.value());
        }
    }

    void hostileRecordsAreNeverUsed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("nuid *") << "nuid" << QJsonValue(QStringLiteral("*")) << "nuid \"*\"";
        QTest::newRow("nuid with a dot") << "nuid" << QJsonValue(QStringLiteral("x.>")) << "nuid \"x.>\"";
        QTest::newRow("nuid with a space") << "nuid" << QJsonValue(QStringLiteral("x >")) << "nuid \"x >\"";
        QTest::newRow("nuid empty") << "nuid" << QJsonValue(QString()) << "nuid \"\"";
        QTest::newRow("other bucket") << "bucket" << QJsonValue(QStringLiteral("elsewhere")) << "bucket \"elsewhere\"";
        QTest::newRow("other name") << "name" << QJsonValue(QStringLiteral("bystander.tgz"))
                                    << "name \"bystander.tgz\"";
    }

    void hostileRecordsAreNeverUsed()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QString, refusal);
        // A bucket per row: a wildcard that got through would empty it.
        const QByteArray name = "hostile" + QByteArray::number(qHash(QByteArray(QTest::currentDataTag())));
        ObjectStore bucket = store(name.toStdString());
        const QByteArray bystander = test::randomBytes(2 * kChunk + 3, 31);
        std::istringstream bystanderInput(bystander.toStdString());
        auto stored = bucket.put("bystander.tgz", bystanderInput);
        QVERIFY(stored.ok());
        std::istringstream victimInput("victim");
        QVERIFY(bucket.put("victim.tgz", victimInput).ok());
        // A record claiming another name or bucket names the bystander's real chunks: removing
        // "victim.tgz" on its word would take them.
        QByteArray record = metaWith(name, "victim.tgz", field, value);
        if (field != QStringLiteral("nuid")) {
            QJsonObject object = QJsonDocument::fromJson(record).object();
            object.insert(QStringLiteral("nuid"), QString::fromStdString(stored->nuid));
            record = QJsonDocument(object).toJson(QJsonDocument::Compact);
        }
        QVERIFY(publishMeta(connection(), name, "victim.tgz", record));

        QTemporaryDir dir;
        std::ostringstream ignored;
        const QList<Error> errors {bucket.info("victim.tgz").error(), bucket.get("victim.tgz", ignored).error(),
            bucket.getToFile("victim.tgz", dir.filePath(QStringLiteral("v")).toStdString()).error(),
            bucket.remove("victim.tgz").error()};
        for (const Error &error : errors) {
            QCOMPARE(q(error.code), QStringLiteral("bad_meta"));
            QVERIFY2(q(error.message).contains(QStringLiteral("'victim.tgz'")), error.message.c_str());
            QVERIFY2(q(error.message).contains(refusal), error.message.c_str());
        }
        std::istringstream replacement("fixed");
        PutReport report;
        QVERIFY(bucket.put("victim.tgz", replacement, {}, &report).ok());
        QVERIFY(report.refusedRecord);
        for (const auto &[object, contents] :
            {std::pair {"bystander.tgz", bystander}, std::pair {"victim.tgz", QByteArray("fixed")}}) {
            std::ostringstream output;
            auto got = bucket.get(object, output);
            QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
            QCOMPARE(QByteArray::fromStdString(output.str()), contents);
        }
    }

    void removesAKilledPutsChunksAtTheNextPut()
    {
        ObjectStore bucket = store("killed");
        const QByteArray kept = test::randomBytes(kChunk + 5, 41);
        std::istringstream keptInput(kept.toStdString());
        QVERIFY(bucket.put("kept.tgz", keptInput).ok());
        const QList<QByteArray> abandoned {
            test::randomBytes(kChunk, 42), test::randomBytes(kChunk, 43), test::randomBytes(777, 44)};
        QVERIFY(writeChunks(connection(), "killed", "AbandonedNuid0000000001", abandoned));
        const QByteArray abandonedSubject = "$O.killed.C.AbandonedNuid0000000001";
        QCOMPARE(messagesOn(connection(), "killed", abandonedSubject), quint64(3));

        // Just written, so for all this put can tell, a put still running elsewhere: kept.
        std::istringstream first("first");
        PutReport young;
        QVERIFY(bucket.put("site.tgz", first, {}, &young).ok());
        QVERIFY(!young.orphanCleanup);
        QCOMPARE(young.orphans.objects, quint64(0));
        QCOMPARE(messagesOn(connection(), "killed", abandonedSubject), quint64(3));

        bucket.setOrphanAge(std::chrono::seconds(0));
        std::istringstream second("second");
        PutReport report;
        QVERIFY(bucket.put("site.tgz", second, {}, &report).ok());
        QVERIFY2(!report.orphanCleanup, report.orphanCleanup ? report.orphanCleanup->message.c_str() : "");
        QCOMPARE(report.orphans.objects, quint64(1));
        QCOMPARE(report.orphans.chunks, quint64(3));
        QCOMPARE(report.orphans.bytes, quint64(2 * kChunk + 777));
        QCOMPARE(messagesOn(connection(), "killed", abandonedSubject), quint64(0));
        for (const auto &[object, contents] :
            {std::pair {"kept.tgz", kept}, std::pair {"site.tgz", QByteArray("second")}}) {
            std::ostringstream output;
            auto got = bucket.get(object, output);
            QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
            QCOMPARE(QByteArray::fromStdString(output.str()), contents);
        }
        // The two objects and their records are all that is left.
        QCOMPARE(messagesOn(connection(), "killed", "$O.killed.>"), quint64(5));
    }

    void prunesOnlyOrphanedChunks()
    {
        ObjectStore bucket = store("pruning");
        QMap<QByteArray, QByteArray> objects {
            {"a.tgz", test::randomBytes(2 * kChunk, 51)}, {"b.tgz", test::randomBytes(10, 52)}};
        for (auto it = objects.cbegin(); it != objects.cend(); ++it) {
            std::istringstream input(it.value().toStdString());
            QVERIFY(bucket.put(it.key().toStdString(), input).ok());
        }
        QVERIFY(writeChunks(connection(), "pruning", "Orphan1", {"12345", "678"}));
        QVERIFY(writeChunks(connection(), "pruning", "Orphan2", {"abc"}));
        // A record marked deleted whose chunks were left: they are meant to go.
        QVERIFY(writeChunks(connection(), "pruning", "DeletedNuid", {"zz"}));
        QVERIFY(publishMeta(connection(), "pruning", "gone.tgz",
            R"({"name":"gone.tgz","bucket":"pruning","nuid":"DeletedNuid","size":0,"chunks":0,"digest":"","deleted":true})"));
        // A refused record still keeps the chunks it names: deleting is only for what nothing names.
        QVERIFY(writeChunks(connection(), "pruning", "NamedByARefusedRecord", {"kept"}));
        QVERIFY(publishMeta(connection(), "pruning", "odd.tgz",
            R"({"name":"other.tgz","bucket":"pruning","nuid":"NamedByARefusedRecord","size":4,"chunks":1})"));

        auto young = bucket.pruneOrphans(std::chrono::hours(1));
        QVERIFY2(young.ok(), young.ok() ? "" : young.error().message.c_str());
        QCOMPARE(young->objects, quint64(0));

        auto pruned = bucket.pruneOrphans(std::chrono::seconds(0));
        QVERIFY2(pruned.ok(), pruned.ok() ? "" : pruned.error().message.c_str());
        QCOMPARE(pruned->objects, quint64(3));
        QCOMPARE(pruned->chunks, quint64(4));
        QCOMPARE(pruned->bytes, quint64(5 + 3 + 3 + 2));
        for (const QByteArray nuid : {"Orphan1", "Orphan2", "DeletedNuid"})
            QCOMPARE(messagesOn(connection(), "pruning", "$O.pruning.C." + nuid), quint64(0));
        QCOMPARE(messagesOn(connection(), "pruning", "$O.pruning.C.NamedByARefusedRecord"), quint64(1));
        for (auto it = objects.cbegin(); it != objects.cend(); ++it) {
            std::ostringstream output;
            QVERIFY(bucket.get(it.key().toStdString(), output).ok());
            QCOMPARE(QByteArray::fromStdString(output.str()), it.value());
        }
        auto again = bucket.pruneOrphans(std::chrono::seconds(0));
        QVERIFY(again.ok());
        QCOMPARE(again->objects, quint64(0));
    }

    void downloadsArePrivateAndExclusive()
    {
        ObjectStore bucket = store("private");
        const QByteArray data = test::randomBytes(kChunk + 1, 61);
        std::istringstream input(data.toStdString());
        QVERIFY(bucket.put("secret.tgz", input).ok());
        QTemporaryDir dir;
        const QString destination = dir.filePath(QStringLiteral("secret.tgz"));

        // A umask that lets others read is what the old 0644 download fell to.
        const mode_t previousMask = ::umask(022);
        auto got = bucket.getToFile("secret.tgz", destination.toStdString());
        ::umask(previousMask);
        QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
        struct stat status { };
        QCOMPARE(::stat(QFile::encodeName(destination).constData(), &status), 0);
        QCOMPARE(status.st_mode & 07777, mode_t(0600));
        QFile file(destination);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), data);

        // A ".part" already there, here a link someone placed to catch the contents, is refused
        // and left as it was: nothing is written through it.
        const QString bait = dir.filePath(QStringLiteral("bait"));
        QVERIFY(QFile(bait).open(QIODevice::WriteOnly));
        const QString other = dir.filePath(QStringLiteral("other.tgz"));
        QVERIFY(QFile::link(bait, other + QStringLiteral(".part")));
        auto refused = bucket.getToFile("secret.tgz", other.toStdString());
        QVERIFY(!refused.ok());
        QCOMPARE(q(refused.error().code), QStringLiteral("exists"));
        QVERIFY2(q(refused.error().message).contains(other + QStringLiteral(".part")), refused.error().message.c_str());
        QCOMPARE(QFileInfo(bait).size(), qint64(0));
        QVERIFY(!QFile::exists(other));
        QVERIFY(QFileInfo(other + QStringLiteral(".part")).isSymLink());
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

    void keyValueEntriesAreTheLatestValues()
    {
        // A whole bucket in one pass (how fleet status and previews read CCM_STATUS): the latest
        // value of every key that holds one, none for a deleted key, nothing from an empty bucket.
        test::NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        NatsSettings settings;
        settings.url = server.urlString();
        auto connected = NatsConnection::connect(settings);
        QVERIFY(connected.ok());
        auto bucket = KvBucket::openOrCreate(*connected.value(), "entries");
        QVERIFY(bucket.ok());
        auto empty = bucket.value().entries();
        QVERIFY2(empty.ok(), empty.ok() ? "" : empty.error().message.c_str());
        QVERIFY(empty->empty());
        for (int i = 0; i < 300; ++i)
            QVERIFY(bucket.value().put("host-" + std::to_string(i), "old " + std::to_string(i)).ok());
        QVERIFY(bucket.value().put("host-7", "new 7").ok());
        QVERIFY(bucket.value().remove("host-8").ok());
        auto entries = bucket.value().entries();
        QVERIFY2(entries.ok(), entries.ok() ? "" : entries.error().message.c_str());
        std::map<std::string, std::string> read(entries->begin(), entries->end());
        QCOMPARE(entries->size(), std::size_t {299});
        QCOMPARE(read.size(), std::size_t {299});
        QCOMPARE(read["host-7"], std::string("new 7"));
        QCOMPARE(read.count("host-8"), std::size_t {0});
        QCOMPARE(read["host-299"], std::string("old 299"));
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

CCM_TEST_GUILESS_MAIN(TestObjectStore)
#include "tst_object_store.moc"
