// SPDX-License-Identifier: Apache-2.0
// Objects written by us and read by the official NATS JavaScript client (which checks the digest),
// and the other way round. The client comes from tests/fleet/interop (npm ci, run by
// scripts/install-deps).
#include "core/model/json.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <sstream>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::q;

namespace {

const QString kInteropDir = QStringLiteral(CCM_SOURCE_DIR "/tests/fleet/interop");

struct NodeRun {
    bool ok = false;
    QJsonObject info; ///< the object's meta record as the client reports it
    QString log;
};

} // namespace

class TestObjectStoreInterop : public QObject {
    Q_OBJECT

    test::NatsServer m_server;
    std::unique_ptr<NatsConnection> m_connection;
    QString m_node;
    QTemporaryDir m_dir;

    /// Runs the client's put or get of `bucket`/`name` with `file`.
    NodeRun runClient(const QString &command, const QString &bucket, const QString &name, const QString &file)
    {
        QProcess process;
        process.start(
            m_node, {kInteropDir + QStringLiteral("/objectstore.js"), command, m_server.url(), bucket, name, file});
        NodeRun run;
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            run.log = QStringLiteral("the JavaScript client did not finish");
            return run;
        }
        run.log = QString::fromUtf8(process.readAllStandardError());
        run.ok = process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
        run.info = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        return run;
    }

    ObjectStore store(const std::string &bucket)
    {
        auto opened = ObjectStore::openOrCreate(*m_connection, bucket);
        if (!opened)
            qFatal("cannot open bucket %s: %s", bucket.c_str(), opened.error().message.c_str());
        return std::move(opened).value();
    }

    static QString digestOf(const QByteArray &data)
    {
        return QStringLiteral("SHA-256=")
            + QString::fromLatin1(
                QCryptographicHash::hash(data, QCryptographicHash::Sha256).toBase64(QByteArray::Base64UrlEncoding));
    }

private slots:
    void initTestCase()
    {
        m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (m_node.isEmpty())
            QSKIP("node is not installed: the interoperability tests need nodejs and the nats package "
                  "(scripts/install-deps installs both)");
        if (!QFile::exists(kInteropDir + QStringLiteral("/node_modules/nats/package.json")))
            QFAIL(qPrintable(QStringLiteral("the nats npm package is missing from %1: run scripts/install-deps (or "
                                            "npm ci there)")
                                 .arg(kInteropDir)));
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connected = NatsConnection::connect(settings);
        QVERIFY2(connected.ok(), connected.ok() ? "" : connected.error().message.c_str());
        m_connection = std::move(connected).value();
    }

    void cleanupTestCase() { m_connection.reset(); }

    void oursReadByTheirs_data()
    {
        QTest::addColumn<qsizetype>("size");
        QTest::addColumn<QString>("name");
        QTest::newRow("several chunks") << qsizetype(5 * 128 * 1024 + 123) << "bundles/web.tar.gz";
        QTest::newRow("exactly one chunk") << qsizetype(128 * 1024) << "one.tgz";
        QTest::newRow("empty") << qsizetype(0) << "empty";
    }

    void oursReadByTheirs()
    {
        QFETCH(qsizetype, size);
        QFETCH(QString, name);
        const QByteArray data = test::randomBytes(size, 21);
        ObjectStore bucket = store("ours");
        std::istringstream input(data.toStdString());
        auto put = bucket.put(name.toStdString(), input);
        QVERIFY2(put.ok(), put.ok() ? "" : put.error().message.c_str());

        const QString file = m_dir.filePath(QStringLiteral("from-ours"));
        const NodeRun run = runClient(QStringLiteral("get"), QStringLiteral("ours"), name, file);
        QVERIFY2(run.ok, qPrintable(run.log));
        QFile got(file);
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(got.readAll(), data);
        QCOMPARE(run.info.value(QStringLiteral("digest")).toString(), digestOf(data));
        QCOMPARE(run.info.value(QStringLiteral("nuid")).toString(), q(put->nuid));
        QCOMPARE(run.info.value(QStringLiteral("size")).toInteger(), size);
    }

    void theirsReadByOurs_data()
    {
        QTest::addColumn<qsizetype>("size");
        QTest::addColumn<QString>("name");
        QTest::newRow("several chunks") << qsizetype(3 * 128 * 1024 + 1) << "bundles/db.tar.gz";
        QTest::newRow("one byte") << qsizetype(1) << "b";
        QTest::newRow("empty") << qsizetype(0) << "nothing";
    }

    void theirsReadByOurs()
    {
        QFETCH(qsizetype, size);
        QFETCH(QString, name);
        const QByteArray data = test::randomBytes(size, 22);
        const QString file = m_dir.filePath(QStringLiteral("to-ours"));
        QVERIFY(test::writeFile(file, data));
        const NodeRun run = runClient(QStringLiteral("put"), QStringLiteral("theirs"), name, file);
        QVERIFY2(run.ok, qPrintable(run.log));

        auto bucket = ObjectStore::open(*m_connection, "theirs");
        QVERIFY2(bucket.ok(), bucket.ok() ? "" : bucket.error().message.c_str());
        std::ostringstream output;
        auto got = bucket.value().get(name.toStdString(), output);
        QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
        QCOMPARE(QByteArray::fromStdString(output.str()), data);
        QCOMPARE(q(got->digest), run.info.value(QStringLiteral("digest")).toString());
        QCOMPARE(q(got->nuid), run.info.value(QStringLiteral("nuid")).toString());
    }

    void replacementsCrossClients()
    {
        // Theirs replaces ours and ours replaces theirs under one name: both find the same meta
        // subject, and each side's purge leaves only the newest chunks.
        ObjectStore bucket = store("mixed");
        const QByteArray first = test::randomBytes(2 * 128 * 1024, 31);
        std::istringstream firstInput(first.toStdString());
        QVERIFY(bucket.put("site.tgz", firstInput).ok());

        const QByteArray second = test::randomBytes(128 * 1024 + 5, 32);
        QVERIFY(test::writeFile(m_dir.filePath(QStringLiteral("second")), second));
        const NodeRun replaced = runClient(QStringLiteral("put"), QStringLiteral("mixed"), QStringLiteral("site.tgz"),
            m_dir.filePath(QStringLiteral("second")));
        QVERIFY2(replaced.ok, qPrintable(replaced.log));
        std::ostringstream output;
        QVERIFY(bucket.get("site.tgz", output).ok());
        QCOMPARE(QByteArray::fromStdString(output.str()), second);

        const QByteArray third = test::randomBytes(3 * 128 * 1024, 33);
        std::istringstream thirdInput(third.toStdString());
        QVERIFY(bucket.put("site.tgz", thirdInput).ok());
        const QString file = m_dir.filePath(QStringLiteral("third"));
        const NodeRun read
            = runClient(QStringLiteral("get"), QStringLiteral("mixed"), QStringLiteral("site.tgz"), file);
        QVERIFY2(read.ok, qPrintable(read.log));
        QFile got(file);
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(got.readAll(), third);
    }

    // A meta record forged with the official client, whose nuid is the wildcard ">": publishing the
    // same name must not purge, nor read, any other object's chunks through it.
    void aRecordForgedByTheirsReachesNoOtherObject()
    {
        ObjectStore bucket = store("forged");
        const QByteArray bystander = test::randomBytes(2 * 128 * 1024 + 7, 41);
        std::istringstream bystanderInput(bystander.toStdString());
        QVERIFY(bucket.put("bystander.tar.gz", bystanderInput).ok());
        const std::string forged = Json {{"name", "shared.tar.gz"}, {"bucket", "forged"}, {"nuid", ">"}, {"size", 10},
            {"chunks", 1}, {"digest", "SHA-256=" + std::string(43, 'A') + "="}}
                                       .dump();
        QVERIFY(test::writeFile(m_dir.filePath(QStringLiteral("forged-meta")), QByteArray::fromStdString(forged)));
        const NodeRun forge = runClient(QStringLiteral("forge"), QStringLiteral("forged"),
            QStringLiteral("shared.tar.gz"), m_dir.filePath(QStringLiteral("forged-meta")));
        QVERIFY2(forge.ok, qPrintable(forge.log));

        const auto hostile = bucket.info("shared.tar.gz");
        QVERIFY(!hostile);
        QCOMPARE(QString::fromStdString(hostile.error().code), QStringLiteral("bad_meta"));
        const QByteArray replacement = test::randomBytes(128 * 1024 + 3, 42);
        std::istringstream replacementInput(replacement.toStdString());
        QVERIFY(bucket.put("shared.tar.gz", replacementInput).ok());

        std::ostringstream shared;
        QVERIFY(bucket.get("shared.tar.gz", shared).ok());
        QCOMPARE(QByteArray::fromStdString(shared.str()), replacement);
        const QString file = m_dir.filePath(QStringLiteral("bystander"));
        const NodeRun read
            = runClient(QStringLiteral("get"), QStringLiteral("forged"), QStringLiteral("bystander.tar.gz"), file);
        QVERIFY2(read.ok, qPrintable(read.log));
        QFile got(file);
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(got.readAll(), bystander);
    }
};

CCM_TEST_GUILESS_MAIN(TestObjectStoreInterop)
#include "tst_object_store_interop.moc"
