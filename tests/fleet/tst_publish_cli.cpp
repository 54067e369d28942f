// SPDX-License-Identifier: Apache-2.0
// `ccm-backend publish` as a real process against a real nats-server.
#include "../backend/backend_process.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QCryptographicHash>
#include <QDir>
#include <QtTest>

#include <memory>
#include <nats/nats.h>
#include <sstream>

using namespace ccm;
using namespace ccm::fleet;

class TestPublishCli : public QObject {
    Q_OBJECT

    static constexpr qsizetype kBigSize = 8 << 20;

    test::NatsServer m_server;
    QTemporaryDir m_dir;

    /// The bytes of obj://bucket/name, read back through the library.
    QByteArray fetch(const std::string &bucket, const std::string &name)
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        if (!connection)
            return "connect failed: " + QByteArray::fromStdString(connection.error().message);
        auto store = ObjectStore::open(*connection.value(), bucket);
        if (!store)
            return "open failed: " + QByteArray::fromStdString(store.error().message);
        std::ostringstream out;
        auto got = store.value().get(name, out);
        if (!got)
            return "get failed: " + QByteArray::fromStdString(got.error().message);
        return QByteArray::fromStdString(out.str());
    }

    /// Runs `ccm-backend publish` with `arguments` against the test's server.
    test::BackendRun publish(const QStringList &arguments)
    {
        return test::runBackend(QStringList {QStringLiteral("publish")} + arguments
                + QStringList {QStringLiteral("--nats"), m_server.url()},
            {}, environment());
    }

    /// Writes a file of `data` and publishes it as `name` into `bucket`.
    test::BackendRun publishData(const QString &bucket, const QString &name, const QByteArray &data)
    {
        const QString file = test::writeFile(m_dir, QStringLiteral("data.tgz"), data);
        return publish({file, QStringLiteral("--bucket"), bucket, QStringLiteral("--name"), name});
    }

    /// Publishes `data` on `subject` with cnats itself, with a rollup header
    /// when `rollup`: forged meta records, and the chunks a killed publish leaves.
    bool publishRaw(const QByteArray &subject, const QByteArray &data, bool rollup)
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        if (!connection)
            return false;
        natsMsg *message = nullptr;
        if (natsMsg_Create(&message, subject.constData(), nullptr, data.constData(), static_cast<int>(data.size()))
            != NATS_OK)
            return false;
        if (rollup)
            natsMsgHeader_Set(message, "Nats-Rollup", "sub");
        const bool published
            = js_PublishMsg(nullptr, connection.value()->jetStream(), message, nullptr, nullptr) == NATS_OK;
        natsMsg_Destroy(message);
        return published;
    }

    /// Whether anything is stored on `subject` of stream OBJ_<bucket>.
    bool holds(const QByteArray &bucket, const QByteArray &subject)
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        if (!connection)
            return false;
        natsMsg *message = nullptr;
        const QByteArray stream = "OBJ_" + bucket;
        const bool found = js_GetLastMsg(&message, connection.value()->jetStream(), stream.constData(),
                               subject.constData(), nullptr, nullptr)
            == NATS_OK;
        natsMsg_Destroy(message);
        return found;
    }

    /// How many messages `stream` holds.
    static quint64 storedMessages(NatsConnection &connection, const char *stream)
    {
        jsStreamInfo *info = nullptr;
        if (js_GetStreamInfo(&info, connection.jetStream(), stream, nullptr, nullptr) != NATS_OK)
            return 0;
        const quint64 messages = info->State.Msgs;
        jsStreamInfo_Destroy(info);
        return messages;
    }

    QProcessEnvironment environment(const QString &natsContext = {}) const
    {
        QProcessEnvironment env = test::isolatedEnvironment(m_dir);
        env.remove(QStringLiteral("NATS_CONTEXT"));
        if (!natsContext.isEmpty())
            env.insert(QStringLiteral("NATS_CONTEXT"), natsContext);
        return env;
    }

    void writeContext(const QString &name, const QByteArray &json)
    {
        test::writeFile(m_dir, QStringLiteral("config/nats/context/") + name + QStringLiteral(".json"), json);
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        writeContext(QStringLiteral("CCM"), "{\"url\": \"" + m_server.url().toUtf8() + "\"}");
        writeContext(QStringLiteral("other"), "{\"url\": \"" + m_server.url().toUtf8() + "\"}");
        writeContext(QStringLiteral("nowhere"), "{\"url\": \"nats://127.0.0.1:1\"}");
    }

    void publishes_data()
    {
        QTest::addColumn<QStringList>("connection");
        QTest::addColumn<QString>("natsContext");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expectedName");
        QTest::newRow("--nats, file name") << QStringList {QStringLiteral("--nats"), m_server.url()} << ""
                                           << ""
                                           << "site.tar.gz";
        QTest::newRow("--name") << QStringList {QStringLiteral("--nats"), m_server.url()} << ""
                                << "prod/site.tar.gz"
                                << "prod/site.tar.gz";
        QTest::newRow("default context CCM") << QStringList {} << ""
                                             << "a.tgz"
                                             << "a.tgz";
        QTest::newRow("NATS_CONTEXT") << QStringList {} << "other"
                                      << "b.tgz"
                                      << "b.tgz";
        QTest::newRow("--context over NATS_CONTEXT")
            << QStringList {QStringLiteral("--context"), QStringLiteral("other")} << "nowhere"
            << "c.tgz"
            << "c.tgz";
        QTest::newRow("--nats over --context") << QStringList {QStringLiteral("--context"), QStringLiteral("nowhere"),
            QStringLiteral("--nats"), m_server.url()}
                                               << ""
                                               << "d.tgz"
                                               << "d.tgz";
    }

    void publishes()
    {
        QFETCH(QStringList, connection);
        QFETCH(QString, natsContext);
        QFETCH(QString, name);
        QFETCH(QString, expectedName);
        const QByteArray data = test::randomBytes(300 * 1024 + 7, 11);
        const QString file = test::writeFile(m_dir, QStringLiteral("site.tar.gz"), data);
        // A new bucket per row: publish creates it.
        const QString bucket = QStringLiteral("b") + QString::number(qHash(QString::fromUtf8(QTest::currentDataTag())));
        QStringList arguments {QStringLiteral("publish"), file, QStringLiteral("--bucket"), bucket};
        if (!name.isEmpty())
            arguments << QStringLiteral("--name") << name;
        arguments << connection;
        const test::BackendRun run = test::runBackend(arguments, {}, environment(natsContext));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString digest = QStringLiteral("SHA-256=")
            + QString::fromLatin1(
                QCryptographicHash::hash(data, QCryptographicHash::Sha256).toBase64(QByteArray::Base64UrlEncoding));
        QCOMPARE(run.out,
            QStringLiteral("name: %1\nsize: %2\ndigest: %3\nurl: obj://%4/%1\n")
                .arg(expectedName)
                .arg(data.size())
                .arg(digest, bucket));
        QCOMPARE(fetch(bucket.toStdString(), expectedName.toStdString()), data);
    }

    void reportsErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString file = test::writeFile(m_dir, QStringLiteral("x.tgz"), "x");
        QTest::newRow("no bucket") << QStringList {file} << 2 << "--bucket is required";
        QTest::newRow("no file") << QStringList {QStringLiteral("--bucket"), QStringLiteral("b")} << 2
                                 << "a FILE is required";
        QTest::newRow("unknown option") << QStringList {file, QStringLiteral("--bucket"), QStringLiteral("b"),
            QStringLiteral("--frobnicate")}
                                        << 2 << "unknown option '--frobnicate'";
        QTest::newRow("missing file") << QStringList {m_dir.filePath(QStringLiteral("absent.tgz")),
            QStringLiteral("--bucket"), QStringLiteral("b"), QStringLiteral("--nats"), m_server.url()}
                                      << 1 << "absent.tgz: not a regular file";
        QTest::newRow("invalid bucket") << QStringList {file, QStringLiteral("--bucket"), QStringLiteral("a.b"),
            QStringLiteral("--nats"), m_server.url()}
                                        << 1 << "invalid bucket name 'a.b'";
        QTest::newRow("missing context") << QStringList {file, QStringLiteral("--bucket"), QStringLiteral("b"),
            QStringLiteral("--context"), QStringLiteral("absent")}
                                         << 1 << "config/nats/context/absent.json does not exist";
        QTest::newRow("unreachable") << QStringList {file, QStringLiteral("--bucket"), QStringLiteral("b"),
            QStringLiteral("--context"), QStringLiteral("nowhere")}
                                     << 1 << "cannot reach the NATS server nats://127.0.0.1:1";
    }

    void reportsErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const test::BackendRun run
            = test::runBackend(QStringList {QStringLiteral("publish")} + arguments, {}, environment());
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    void refusedCredentialsAndNoJetStream()
    {
        test::NatsServer guarded;
        QVERIFY2(guarded.start({false, "authorization {\n users = [ {user: alice, password: s3cret} ]\n}\n"}),
            qPrintable(guarded.error()));
        writeContext(QStringLiteral("wrong"),
            "{\"url\": \"" + guarded.url().toUtf8() + "\", \"user\": \"alice\", \"password\": \"nope\"}");
        writeContext(QStringLiteral("right"),
            "{\"url\": \"" + guarded.url().toUtf8() + "\", \"user\": \"alice\", \"password\": \"s3cret\"}");
        const QString file = test::writeFile(m_dir, QStringLiteral("y.tgz"), "y");

        const test::BackendRun refused
            = test::runBackend({QStringLiteral("publish"), file, QStringLiteral("--bucket"), QStringLiteral("b"),
                                   QStringLiteral("--context"), QStringLiteral("wrong")},
                {}, environment());
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QStringLiteral("refused the credentials")), qPrintable(refused.err));
        QVERIFY2(refused.err.contains(QStringLiteral("wrong.json")), qPrintable(refused.err));

        // The right credentials get in, to a server that has no JetStream.
        const test::BackendRun noJetStream
            = test::runBackend({QStringLiteral("publish"), file, QStringLiteral("--bucket"), QStringLiteral("b"),
                                   QStringLiteral("--context"), QStringLiteral("right")},
                {}, environment());
        QCOMPARE(noJetStream.exitCode, 1);
        QVERIFY2(noJetStream.err.contains(QStringLiteral("has no JetStream")), qPrintable(noJetStream.err));
    }

    void replacesAnObject()
    {
        const QString bucket = QStringLiteral("replaced");
        for (const QByteArray &content : {test::randomBytes(400 * 1024, 1), QByteArray("second")}) {
            const QString file = test::writeFile(m_dir, QStringLiteral("r.tgz"), content);
            const test::BackendRun run = test::runBackend({QStringLiteral("publish"), file, QStringLiteral("--bucket"),
                                                              bucket, QStringLiteral("--nats"), m_server.url()},
                {}, environment());
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QCOMPARE(fetch(bucket.toStdString(), "r.tgz"), content);
        }
    }

    void forgedWildcardRecordReachesNoOtherObject()
    {
        // The report: a meta record for shared.tar.gz with nuid ">", then an ordinary publish of
        // that name, exited 0 and left every object of the bucket "incomplete: 0 of 1 chunks".
        const QString bucket = QStringLiteral("forged");
        const QMap<QString, QByteArray> others {{QStringLiteral("a.tgz"), test::randomBytes(300 * 1024, 71)},
            {QStringLiteral("prod/b.tgz"), QByteArray("b")}, {QStringLiteral("shared.tar.gz"), QByteArray("old")}};
        for (auto it = others.cbegin(); it != others.cend(); ++it) {
            const test::BackendRun run = publishData(bucket, it.key(), it.value());
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        }
        const QByteArray forged = R"({"name":"shared.tar.gz","bucket":"forged","nuid":">","size":3,"chunks":1,)"
                                  R"("digest":"SHA-256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU="})";
        QVERIFY(publishRaw(
            "$O.forged.M." + QByteArray("shared.tar.gz").toBase64(QByteArray::Base64UrlEncoding), forged, true));

        const test::BackendRun run = publishData(bucket, QStringLiteral("shared.tar.gz"), "new");
        QVERIFY2(run.err.contains(QStringLiteral("object 'shared.tar.gz' in bucket 'forged'")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("nuid \">\" is not a plain subject token")), qPrintable(run.err));
        for (auto it = others.cbegin(); it != others.cend(); ++it) {
            if (it.key() != QStringLiteral("shared.tar.gz"))
                QCOMPARE(fetch("forged", it.key().toStdString()), it.value());
        }
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(fetch("forged", "shared.tar.gz"), QByteArray("new"));
    }

    void nextPublishRemovesAKilledPublishsChunks()
    {
        const QString bucket = QStringLiteral("killed");
        QVERIFY(publishData(bucket, QStringLiteral("site.tgz"), "first").exitCode == 0);
        // What a publish killed after its second chunk leaves: chunks no meta record names.
        const QByteArray orphan = "$O.killed.C.KilledPublishNuid000001";
        QVERIFY(publishRaw(orphan, test::randomBytes(1000, 72), false));
        QVERIFY(publishRaw(orphan, test::randomBytes(24, 73), false));

        // With the default age, chunks written just now may be a publish running elsewhere.
        test::BackendRun run = publishData(bucket, QStringLiteral("site.tgz"), "second");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(!run.err.contains(QStringLiteral("orphaned")), qPrintable(run.err));
        QVERIFY(holds("killed", orphan));

        const QString file = test::writeFile(m_dir, QStringLiteral("data.tgz"), "third");
        run = publish({file, QStringLiteral("--bucket"), bucket, QStringLiteral("--name"), QStringLiteral("site.tgz"),
            QStringLiteral("--orphan-age"), QStringLiteral("0s")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral(
                     "removed 2 orphaned chunks (1024 bytes) of 1 abandoned objects from bucket 'killed'")),
            qPrintable(run.err));
        QVERIFY(!holds("killed", orphan));
        QCOMPARE(fetch("killed", "site.tgz"), QByteArray("third"));
    }

    void nextPublishRemovesTheChunksOfAKilledProcess()
    {
        // A server taking 1 KiB messages makes an 8 MiB publish 8,192 chunks long, so it is still
        // writing when it is killed at its first chunk.
        test::NatsServer slow;
        QVERIFY2(slow.start({true, "max_payload: 1024\n"}), qPrintable(slow.error()));
        NatsSettings settings;
        settings.url = slow.urlString();
        auto watcher = NatsConnection::connect(settings);
        QVERIFY(watcher.ok());
        natsSubscription *raw = nullptr;
        QCOMPARE(natsConnection_SubscribeSync(&raw, watcher.value()->connection(), "$O.big.C.>"), NATS_OK);
        std::unique_ptr<natsSubscription, decltype(&natsSubscription_Destroy)> chunks(raw, natsSubscription_Destroy);

        const QString file = test::writeFile(m_dir, QStringLiteral("big.tgz"), test::randomBytes(kBigSize, 78));
        const QStringList arguments {QStringLiteral("publish"), file, QStringLiteral("--bucket"), QStringLiteral("big"),
            QStringLiteral("--nats"), slow.url()};
        QProcess killed;
        killed.setProcessEnvironment(environment());
        killed.start(QStringLiteral(CCM_BACKEND_BIN), arguments);
        natsMsg *first = nullptr;
        QCOMPARE(natsSubscription_NextMsg(&first, chunks.get(), 30000), NATS_OK);
        natsMsg_Destroy(first);
        killed.kill();
        QVERIFY(killed.waitForFinished(30000));
        QCOMPARE(killed.exitStatus(), QProcess::CrashExit);
        // Only once the chunks have stopped coming, so that none is in flight to the subscription
        // while it is destroyed.
        natsSubscription_Unsubscribe(chunks.get());
        chunks.reset();

        // Chunks, and no meta record naming them.
        auto store = ObjectStore::open(*watcher.value(), "big");
        QVERIFY(store.ok());
        QCOMPARE(
            QString::fromStdString(store.value().info("big.tgz").error().code), QStringLiteral("object_not_found"));
        QVERIFY(storedMessages(*watcher.value(), "OBJ_big") > 0);

        const test::BackendRun next = test::runBackend(
            arguments + QStringList {QStringLiteral("--orphan-age"), QStringLiteral("0s")}, {}, environment());
        QVERIFY2(next.exitCode == 0, qPrintable(next.err));
        static const QRegularExpression removed(QStringLiteral(
            R"(removed (\d+) orphaned chunks \((\d+) bytes\) of 1 abandoned objects from bucket 'big')"));
        const auto match = removed.match(next.err);
        QVERIFY2(match.hasMatch(), qPrintable(next.err));
        QVERIFY(match.captured(1).toULongLong() > 0);
        // A chunk is the server's max_payload less 256 bytes left for its headers.
        constexpr quint64 chunk = 1024 - 256;
        QCOMPARE(match.captured(2).toULongLong(), match.captured(1).toULongLong() * chunk);
        // What is left is the new object and the release's kept copy (.releases/DIGEST): all
        // their chunks and their meta records.
        QCOMPARE(storedMessages(*watcher.value(), "OBJ_big"), 2 * ((quint64(kBigSize) + chunk - 1) / chunk + 1));
    }

    void prunesOrphanedChunks()
    {
        const QString bucket = QStringLiteral("pruned");
        const QByteArray kept = test::randomBytes(200 * 1024, 74);
        QVERIFY(publishData(bucket, QStringLiteral("kept.tgz"), kept).exitCode == 0);
        const QByteArray first = "$O.pruned.C.AbandonedNuid00000000001";
        const QByteArray second = "$O.pruned.C.AbandonedNuid00000000002";
        QVERIFY(publishRaw(first, test::randomBytes(4096, 75), false));
        QVERIFY(publishRaw(first, test::randomBytes(100, 76), false));
        QVERIFY(publishRaw(second, test::randomBytes(50, 77), false));

        test::BackendRun run = publish({QStringLiteral("--prune"), QStringLiteral("--bucket"), bucket});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("bucket: pruned\nobjects: 0\nchunks: 0\nbytes: 0\n"));
        QVERIFY(holds("pruned", first));

        run = publish({QStringLiteral("--prune"), QStringLiteral("--bucket"), bucket, QStringLiteral("--orphan-age"),
            QStringLiteral("0")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("bucket: pruned\nobjects: 2\nchunks: 3\nbytes: 4246\n"));
        QVERIFY(!holds("pruned", first));
        QVERIFY(!holds("pruned", second));
        QCOMPARE(fetch("pruned", "kept.tgz"), kept);
    }

    void pruneUsageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString file = test::writeFile(m_dir, QStringLiteral("z.tgz"), "z");
        QTest::newRow("with a file") << QStringList {QStringLiteral("--prune"), file, QStringLiteral("--bucket"),
            QStringLiteral("b")} << 2 << "--prune takes no FILE";
        QTest::newRow("without a bucket") << QStringList {QStringLiteral("--prune")} << 2 << "--bucket is required";
        QTest::newRow("bad age") << QStringList {file, QStringLiteral("--bucket"), QStringLiteral("b"),
            QStringLiteral("--orphan-age"), QStringLiteral("soon")}
                                 << 2 << "--orphan-age: ";
        QTest::newRow("missing bucket") << QStringList {QStringLiteral("--prune"), QStringLiteral("--bucket"),
            QStringLiteral("absent")} << 1
                                        << "bucket 'absent' does not exist";
    }

    void pruneUsageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const test::BackendRun run = publish(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }
};

CCM_TEST_GUILESS_MAIN(TestPublishCli)
#include "tst_publish_cli.moc"
