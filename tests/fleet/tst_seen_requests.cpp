// SPDX-License-Identifier: Apache-2.0
// The store of seen preview request ids: expiry, its bound, the file it is kept in across
// restarts, and files that cannot be trusted. Real files in a temporary directory.
#include "fleet/preview/seen_requests.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::q;
using namespace std::chrono_literals;

namespace {

/// A fixed "now" with whole milliseconds, as the file keeps them.
const Clock::time_point kNow = Clock::time_point(std::chrono::milliseconds(1'795'000'000'000));

PreviewRequest request(const std::string &id, Clock::time_point issued, Clock::duration lifetime = 5min)
{
    PreviewRequest made;
    made.id = id;
    made.issued = issued;
    made.expires = issued + lifetime;
    return made;
}

std::string idOf(int number)
{
    return "request-id-" + std::to_string(1'000'000 + number);
}

QString errorCode(const Result<void> &result)
{
    return result ? QString() : q(result.error().code);
}

mode_t modeOf(const std::string &path)
{
    struct stat info { };
    return ::lstat(path.c_str(), &info) == 0 ? info.st_mode & 07777 : 0;
}

} // namespace

class TestSeenRequests : public QObject {
    Q_OBJECT

private slots:
    void anIdIsRefusedUntilItsRequestExpires()
    {
        SeenRequests seen;
        const PreviewRequest first = request(idOf(1), kNow);
        QVERIFY(seen.remember(first, kNow));
        QCOMPARE(errorCode(seen.remember(first, kNow + 1s)), QStringLiteral("replayed"));
        QCOMPARE(errorCode(seen.remember(first, first.expires - 1ms)), QStringLiteral("replayed"));
        QCOMPARE(q(seen.remember(first, kNow).error().message), QStringLiteral("replayed (its id was seen before)"));
        // Once expired the request is refused by its time anyway; the store lets the id go.
        QVERIFY(seen.remember(request(idOf(2), kNow), first.expires));
        QCOMPARE(seen.size(), 1u);
    }

    void theStoreIsBounded()
    {
        SeenRequests seen(2);
        QVERIFY(seen.remember(request(idOf(1), kNow, 1min), kNow));
        QVERIFY(seen.remember(request(idOf(2), kNow, 5min), kNow));
        QCOMPARE(errorCode(seen.remember(request(idOf(3), kNow), kNow)), QStringLiteral("full"));
        QCOMPARE(seen.size(), 2u);
        // A flood is refused, not forgotten: the first id frees its place only when it expires.
        QVERIFY(seen.remember(request(idOf(3), kNow + 1min), kNow + 1min));
        QCOMPARE(errorCode(seen.remember(request(idOf(2), kNow), kNow + 1min)), QStringLiteral("replayed"));
    }

    void anExpiryNoRequestCanHaveIsCut()
    {
        SeenRequests seen(1);
        QVERIFY(seen.remember(request(idOf(1), kNow, std::chrono::hours(24 * 365)), kNow));
        QCOMPARE(errorCode(seen.remember(request(idOf(2), kNow), kNow + 15min)), QStringLiteral("full"));
        QVERIFY(seen.remember(request(idOf(2), kNow + 17min), kNow + 17min));
    }

    void theFileKeepsTheIdsAcrossLoads()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("seen")).toStdString();
        auto first = SeenRequests::load(file, kNow);
        QVERIFY(!first.problem); // no file yet: nothing was seen
        QCOMPARE(first.store->size(), 0u);
        QVERIFY(first.store->remember(request(idOf(1), kNow, 1min), kNow));
        QVERIFY(first.store->remember(request(idOf(2), kNow, 10min), kNow));

        // Loaded later, as by a restarted agent: the expired id is dropped, the other kept.
        auto second = SeenRequests::load(file, kNow + 2min);
        QVERIFY2(!second.problem, second.problem ? second.problem->message.c_str() : "");
        QCOMPARE(second.store->size(), 1u);
        QCOMPARE(errorCode(second.store->remember(request(idOf(2), kNow), kNow + 2min)), QStringLiteral("replayed"));
        QVERIFY(second.store->remember(request(idOf(1), kNow + 2min), kNow + 2min));
        QVERIFY(second.store->remember(request(idOf(3), kNow + 2min), kNow + 2min));

        auto third = SeenRequests::load(file, kNow + 3min);
        QVERIFY(!third.problem);
        QCOMPARE(third.store->size(), 3u);
        for (int id : {1, 2, 3})
            QCOMPARE(errorCode(third.store->remember(request(idOf(id), kNow + 2min), kNow + 3min)),
                QStringLiteral("replayed"));
    }

    void theFileIsPrivateAndReplacedWhole()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("seen")).toStdString();
        const mode_t mask = ::umask(0);
        auto loaded = SeenRequests::load(file, kNow);
        const bool remembered = loaded.store->remember(request(idOf(1), kNow), kNow).ok();
        ::umask(mask);
        QVERIFY(remembered);
        QCOMPARE(modeOf(file), static_cast<mode_t>(0600));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList {QStringLiteral("seen")});
    }

    void aFileThatCannotBeTrustedFailsClosed_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("logged");
        const QByteArray header = "ccm-preview-seen 1\n";
        const QByteArray line = "1795000600000 " + QByteArray::fromStdString(idOf(9)) + "\n";
        QTest::newRow("binary") << ccm::test::randomBytes(4096, 7) << "file"
                                << "line 1";
        QTest::newRow("empty") << QByteArray() << "file"
                               << "empty";
        QTest::newRow("other version") << QByteArray("ccm-preview-seen 2\n") << "file"
                                       << "does not start with";
        QTest::newRow("bad expiry") << header + "soon " + QByteArray::fromStdString(idOf(1)) + "\n"
                                    << "file"
                                    << "line 2";
        QTest::newRow("negative expiry") << header + "-5 " + QByteArray::fromStdString(idOf(1)) + "\n"
                                         << "file"
                                         << "line 2";
        QTest::newRow("expiry past the clock's range")
            << header + "9223372036854775807 " + QByteArray::fromStdString(idOf(1)) + "\n"
            << "file"
            << "line 2";
        QTest::newRow("bad id") << header + "1795000600000 ../../etc/passwd\n"
                                << "file"
                                << "not a request id";
        QTest::newRow("listed twice") << header + line + line << "file"
                                      << "twice";
        QTest::newRow("no last newline") << header + line.chopped(1) << "file"
                                         << "does not end";
        QByteArray three = header;
        for (int id : {1, 2, 3})
            three += "1795000600000 " + QByteArray::fromStdString(idOf(id)) + "\n";
        QTest::newRow("more ids than it holds") << three << "many"
                                                << "line 4: more than 2 request ids";
        QTest::newRow("too large") << header + QByteArray(64 * 1024, 'x') << "file"
                                   << "bytes is more than";
        QTest::newRow("writable by others") << header + line << "open"
                                            << "only this user may write";
        QTest::newRow("a link") << header + line << "link"
                                << "cannot open";
        QTest::newRow("a directory") << QByteArray() << "directory"
                                     << "not a regular file";
    }

    void aFileThatCannotBeTrustedFailsClosed()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, kind);
        QFETCH(QString, logged);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("seen"));
        if (kind == QStringLiteral("link")) {
            QVERIFY(ccm::test::writeFile(dir.filePath(QStringLiteral("real")), content));
            QVERIFY(QFile::link(dir.filePath(QStringLiteral("real")), path));
        } else if (kind == QStringLiteral("directory")) {
            QVERIFY(QDir().mkpath(path));
        } else {
            QVERIFY(ccm::test::writeFile(path, content));
            ::chmod(path.toUtf8().constData(), kind == QStringLiteral("open") ? 0666 : 0600);
        }
        // The "many" row holds 3 ids where the store holds 2; the others are not about the bound.
        auto loaded = SeenRequests::load(path.toStdString(), kNow, kind == QStringLiteral("many") ? 2 : 100);
        QVERIFY(loaded.store);
        QVERIFY(loaded.problem);
        const QString message = q(loaded.problem->message);
        QVERIFY2(message.startsWith(path + QStringLiteral(": ")), qPrintable(message));
        QVERIFY2(message.contains(logged), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("are refused")), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));

        // Any request issued before the load may have run already: refused.
        QCOMPARE(errorCode(loaded.store->remember(request(idOf(1), kNow - 1min), kNow)),
            QStringLiteral("issued_before_loss"));
        QCOMPARE(errorCode(loaded.store->remember(request(idOf(2), kNow + 30s), kNow)),
            QStringLiteral("issued_before_loss"));
        if (kind == QStringLiteral("directory"))
            return; // nothing can replace it; every id fails to be recorded
        // One issued after the load, plus the clock skew a captured one could carry, is new.
        QVERIFY(loaded.store->remember(request(idOf(3), kNow + 60s), kNow + 1s));

        // The file was replaced by one this store wrote, horizon included: a restart keeps both.
        QCOMPARE(modeOf(path.toStdString()), static_cast<mode_t>(0600));
        auto again = SeenRequests::load(path.toStdString(), kNow + 2s);
        QVERIFY2(!again.problem, again.problem ? again.problem->message.c_str() : "");
        QCOMPARE(errorCode(again.store->remember(request(idOf(1), kNow - 1min), kNow + 2s)),
            QStringLiteral("issued_before_loss"));
        QCOMPARE(errorCode(again.store->remember(request(idOf(3), kNow + 60s), kNow + 2s)), QStringLiteral("replayed"));
        // Once every request issued before the horizon has expired, the horizon goes.
        QVERIFY(again.store->remember(request(idOf(4), kNow - 1min), kNow + 61s + 15min));
    }

    void aHorizonFromTheFutureIsCut()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("seen"));
        // Written by hand: a horizon a year ahead would refuse every request for a year.
        QVERIFY(ccm::test::writeFile(path, "ccm-preview-seen 1\nnot-before 1826000000000\n"));
        ::chmod(path.toUtf8().constData(), 0600);
        auto loaded = SeenRequests::load(path.toStdString(), kNow);
        QVERIFY(!loaded.problem);
        QCOMPARE(errorCode(loaded.store->remember(request(idOf(1), kNow), kNow)), QStringLiteral("issued_before_loss"));
        QVERIFY(loaded.store->remember(request(idOf(2), kNow + 60s), kNow));
    }

    void absorbCarriesTheIdsToAnotherFile()
    {
        QTemporaryDir dir;
        auto old = SeenRequests::load(dir.filePath(QStringLiteral("old")).toStdString(), kNow);
        QVERIFY(old.store->remember(request(idOf(1), kNow), kNow));
        const std::string moved = dir.filePath(QStringLiteral("moved")).toStdString();
        auto target = SeenRequests::load(moved, kNow);
        QVERIFY(target.store->absorb(*old.store, kNow + 1s));
        QCOMPARE(errorCode(target.store->remember(request(idOf(1), kNow), kNow + 1s)), QStringLiteral("replayed"));
        auto reloaded = SeenRequests::load(moved, kNow + 2s);
        QCOMPARE(reloaded.store->size(), 1u);
        QCOMPARE(modeOf(moved), static_cast<mode_t>(0600));
    }

    void aFileThatCannotBeWrittenRefusesTheRequest()
    {
        if (::geteuid() == 0)
            QSKIP("root writes into a read-only directory");
        QTemporaryDir dir;
        auto loaded = SeenRequests::load(dir.filePath(QStringLiteral("seen")).toStdString(), kNow);
        ::chmod(dir.path().toUtf8().constData(), 0500);
        const auto refused = loaded.store->remember(request(idOf(1), kNow), kNow);
        ::chmod(dir.path().toUtf8().constData(), 0700);
        QCOMPARE(errorCode(refused), QStringLiteral("io"));
        // It never ran: the same request may come again once the id can be kept.
        QVERIFY(loaded.store->remember(request(idOf(1), kNow), kNow));
    }
};

CCM_TEST_GUILESS_MAIN(TestSeenRequests)
#include "tst_seen_requests.moc"
