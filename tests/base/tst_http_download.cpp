// SPDX-License-Identifier: Apache-2.0
// The one HTTP download against a real HTTP(S) server on 127.0.0.1 (tests/fleet/http_server.py):
// bodies in full to a descriptor or a string, statuses, the size limit with nothing of the body
// left behind, a closed port, the headers and credentials the server sees, stalls, redirects.
#include "../fleet/http_server.h"
#include "base/http_download.h"
#include "base/library_check.h"
#include "base/sha256.h"
#include "lazy_libraries/lazy_library.h"
#include "test_common.h"
#include "test_main.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <string>
#include <unistd.h>

using namespace ccm;
using ccm::test::s;

namespace {

/// A file opened for writing, closed when it goes.
struct DownloadTarget {
    explicit DownloadTarget(const QString &path)
        : fd(::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600))
    {
    }
    DownloadTarget(const DownloadTarget &) = delete;
    DownloadTarget &operator=(const DownloadTarget &) = delete;
    ~DownloadTarget()
    {
        if (fd >= 0)
            ::close(fd);
    }
    int fd;
};

/// Set in the copy of this test that runs with a libcurl that cannot be loaded.
const char *const kBrokenLibcurl = "CCM_TEST_BROKEN_LIBCURL";

QString messageOf(const HttpDownloadError &error)
{
    return test::q(error.message);
}

} // namespace

class TestHttpDownload : public QObject {
    Q_OBJECT

    test::HttpServer m_http;
    test::HttpServer m_https;
    QTemporaryDir m_dir;
    QByteArray m_data = test::randomBytes(300 * 1024 + 3, 11);

    QString targetPath() const { return m_dir.filePath(s("body")); }

    HttpRequest requestFor(const QString &path) const
    {
        HttpRequest request;
        request.url = m_http.urlString(path);
        return request;
    }

    /// The lines the server logged for /etag/ requests.
    QByteArray etagLog() const { return test::readAll(m_http.root() + s("/requests.log")); }

private slots:
    void initTestCase()
    {
        if (qEnvironmentVariableIsSet(kBrokenLibcurl))
            return;
        if (!test::HttpServer::available())
            QSKIP("python3 is not installed");
        QVERIFY2(m_http.start(), qPrintable(m_http.error()));
        QVERIFY2(m_https.start(true), qPrintable(m_https.error()));
        for (const test::HttpServer *server : {&m_http, &m_https})
            QVERIFY(test::writeFile(server->root() + s("/site.tar.gz"), m_data));
    }

    void init() { QFile::remove(targetPath()); }

    void downloadsTheWholeBody_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("toFile");
        QTest::newRow("with Content-Length, to a file") << s("/files/site.tar.gz") << true;
        QTest::newRow("chunked, to a file") << s("/chunked/site.tar.gz") << true;
        QTest::newRow("with Content-Length, to a string") << s("/files/site.tar.gz") << false;
        QTest::newRow("after a redirect, to a string") << s("/redirect/site.tar.gz") << false;
    }

    void downloadsTheWholeBody()
    {
        QFETCH(QString, path);
        QFETCH(bool, toFile);
        DownloadTarget target(targetPath());
        QVERIFY(target.fd >= 0);
        HttpRequest request = requestFor(path);
        request.maxBytes = m_data.size();
        if (toFile)
            request.bodyFd = target.fd;
        std::uint64_t lastProgress = 0;
        request.progress = [&](std::uint64_t received, std::uint64_t) { lastProgress = received; };

        const auto fetched = httpDownload(request);
        QVERIFY2(fetched, fetched ? "" : fetched.error().message.c_str());
        QCOMPARE(fetched->status, 200L);
        QCOMPARE(fetched->reason, std::string("OK"));
        QCOMPARE(fetched->bytes, std::uint64_t(m_data.size()));
        QCOMPARE(lastProgress, std::uint64_t(m_data.size()));
        if (toFile) {
            QVERIFY(fetched->body.empty());
            QCOMPARE(test::readFile(targetPath()), m_data);
        } else {
            QCOMPARE(QByteArray::fromStdString(fetched->body), m_data);
            QCOMPARE(test::readFile(targetPath()), QByteArray());
        }
    }

    void notFoundNamesTheUrlAndTheStatus_data()
    {
        QTest::addColumn<bool>("failOnErrorStatus");
        QTest::newRow("the status ends the transfer") << true;
        QTest::newRow("the body is refused") << false;
    }

    void notFoundNamesTheUrlAndTheStatus()
    {
        QFETCH(bool, failOnErrorStatus);
        DownloadTarget target(targetPath());
        HttpRequest request = requestFor(s("/files/absent.tar.gz"));
        request.failOnErrorStatus = failOnErrorStatus;
        request.bodyFd = target.fd;

        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QVERIFY(hasCode(fetched.error(), HttpDownloadErrc::Status));
        QCOMPARE(fetched.error().code, std::string("http_status"));
        QCOMPARE(messageOf(fetched.error()), m_http.url(s("/files/absent.tar.gz: HTTP 404 Not Found")));
        QCOMPARE(fetched.error().status, 404L);
        QCOMPARE(fetched.error().detail, std::string("HTTP 404 Not Found"));
        // The server's error page went nowhere.
        QCOMPARE(test::readFile(targetPath()), QByteArray());
    }

    void theShownUrlHidesCredentials()
    {
        HttpRequest request = requestFor(s("/files/absent.tar.gz"));
        request.url.replace(0, 7, "http://alice:hunter2@");
        request.shownUrl = m_http.urlString(s("/files/absent.tar.gz")).replace(0, 7, "http://***@");
        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QVERIFY2(messageOf(fetched.error()).startsWith(s("http://***@127.0.0.1:")), fetched.error().message.c_str());
        QVERIFY(!messageOf(fetched.error()).contains(s("hunter2")));
    }

    void aBodyOverTheLimitLeavesNothing_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("by Content-Length") << s("/files/site.tar.gz");
        QTest::newRow("chunked, found while writing") << s("/chunked/site.tar.gz");
    }

    void aBodyOverTheLimitLeavesNothing()
    {
        QFETCH(QString, path);
        // The body was to go after what the file already holds: that stays, nothing else.
        QVERIFY(test::writeFile(targetPath(), "kept"));
        const int fd = ::open(targetPath().toLocal8Bit().constData(), O_WRONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QCOMPARE(::lseek(fd, 0, SEEK_END), off_t(4));
        HttpRequest request = requestFor(path);
        request.maxBytes = 100 * 1024;
        request.bodyFd = fd;

        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QVERIFY(hasCode(fetched.error(), HttpDownloadErrc::TooLarge));
        QCOMPARE(messageOf(fetched.error()), m_http.url(path) + s(": larger than the limit of 102400 bytes"));
        QCOMPARE(::lseek(fd, 0, SEEK_CUR), off_t(4));
        ::close(fd);
        QCOMPARE(test::readFile(targetPath()), QByteArray("kept"));

        request.bodyFd = -1;
        request.maxBytes = 2 * 1024 * 1024 - 1;
        QVERIFY(httpDownload(request));
        request.maxBytes = 256 * 1024;
        const auto smaller = httpDownload(request);
        QVERIFY(!smaller);
        QVERIFY2(messageOf(smaller.error()).endsWith(s(": larger than the limit of 262144 bytes")),
            smaller.error().message.c_str());
        QCOMPARE(byteLimitWords(256ull * 1024 * 1024), std::string("256 MiB"));
    }

    void aClosedPortIsUnreachable()
    {
        HttpRequest request;
        const std::string url = "http://127.0.0.1:" + std::to_string(test::freePort()) + "/site.tar.gz";
        request.url = url;
        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QVERIFY(hasCode(fetched.error(), HttpDownloadErrc::Unreachable));
        QVERIFY2(messageOf(fetched.error()).startsWith(test::q(url + ": cannot connect: ")),
            fetched.error().message.c_str());
        QVERIFY(!fetched.error().detail.empty());
        QCOMPARE(fetched.error().status, 0L);
    }

    void theServerSeesTheHeaders()
    {
        const std::string tag = "\"" + sha256Hex(test::view(m_data)) + "\"";
        HttpRequest request = requestFor(s("/etag/site.tar.gz"));
        const auto plain = httpDownload(request);
        QVERIFY2(plain, plain ? "" : plain.error().message.c_str());
        QCOMPARE(plain->etag, tag);

        request.headers = {{"If-None-Match", tag}};
        const auto refused = httpDownload(request);
        QVERIFY(!refused);
        QCOMPARE(messageOf(refused.error()), m_http.url(s("/etag/site.tar.gz: HTTP 304 Not Modified (expected 200)")));

        request.acceptNotModified = true;
        const auto notModified = httpDownload(request);
        QVERIFY2(notModified, notModified ? "" : notModified.error().message.c_str());
        QCOMPARE(notModified->status, 304L);
        QCOMPARE(notModified->bytes, std::uint64_t(0));
        QCOMPARE(notModified->etag, tag);
        QCOMPARE(etagLog(), QByteArray("etag site.tar.gz 200\netag site.tar.gz 304\netag site.tar.gz 304\n"));
    }

    void theServerSeesTheCredentials_data()
    {
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("authorization");
        QTest::addColumn<long>("status");
        QTest::newRow("basic authentication") << s("alice") << s("secret") << s("") << 200L;
        QTest::newRow("an Authorization header")
            << s("") << s("") << s("Basic ") + QString::fromLatin1(QByteArray("alice:secret").toBase64()) << 200L;
        QTest::newRow("a wrong password") << s("alice") << s("wrong") << s("") << 401L;
        QTest::newRow("none") << s("") << s("") << s("") << 401L;
    }

    void theServerSeesTheCredentials()
    {
        QFETCH(QString, user);
        QFETCH(QString, password);
        QFETCH(QString, authorization);
        QFETCH(long, status);
        HttpRequest request = requestFor(s("/auth/site.tar.gz"));
        request.username = user.toStdString();
        request.password = password.toStdString();
        if (!authorization.isEmpty())
            request.headers = {{"Authorization", authorization.toStdString()}};
        const auto fetched = httpDownload(request);
        if (status == 200) {
            QVERIFY2(fetched, fetched ? "" : fetched.error().message.c_str());
            QCOMPARE(QByteArray::fromStdString(fetched->body), m_data);
            return;
        }
        QVERIFY(!fetched);
        QCOMPARE(fetched.error().status, status);
        QVERIFY(!messageOf(fetched.error()).contains(s("wrong")));
    }

    void aHeaderWithALineBreakIsNotSent()
    {
        HttpRequest request = requestFor(s("/files/site.tar.gz"));
        request.headers = {{"X-Token", "a\r\nX-Injected: b"}};
        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QVERIFY(hasCode(fetched.error(), HttpDownloadErrc::Transfer));
        QVERIFY2(messageOf(fetched.error()).endsWith(s(": the header X-Token holds a line break")),
            fetched.error().message.c_str());
    }

    void aStallIsNoticedWithinASecond()
    {
        HttpRequest request = requestFor(s("/stall/site.tar.gz"));
        request.stallTimeout = std::chrono::seconds(1);
        request.watchStalls = true;
        DownloadTarget target(targetPath());
        request.bodyFd = target.fd;
        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QVERIFY(hasCode(fetched.error(), HttpDownloadErrc::Timeout));
        QCOMPARE(messageOf(fetched.error()),
            m_http.url(s("/stall/site.tar.gz: timed out: nothing received for 1 s (the server stalled)")));
        QCOMPARE(test::readFile(targetPath()), QByteArray());
    }

    void redirectsFromHttpsToHttp_data()
    {
        QTest::addColumn<bool>("refuseDowngrade");
        QTest::newRow("followed") << false;
        QTest::newRow("refused") << true;
    }

    void redirectsFromHttpsToHttp()
    {
        QFETCH(bool, refuseDowngrade);
        HttpRequest request;
        request.url = m_https.urlString(s("/to-http/site.tar.gz"));
        request.caFile = m_https.caFile().toStdString();
        request.refuseDowngrade = refuseDowngrade;
        // The http:// URL is the https server's port, so a redirect followed fails there, later.
        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QCOMPARE(messageOf(fetched.error()).endsWith(s(" (redirects from https:// to http:// are refused)")),
            refuseDowngrade);
    }

    void anUntrustedCertificateIsRefused()
    {
        HttpRequest request;
        request.url = m_https.urlString(s("/files/site.tar.gz"));
        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QVERIFY(hasCode(fetched.error(), HttpDownloadErrc::Tls));
        QVERIFY2(messageOf(fetched.error()).startsWith(m_https.url(s("/files/site.tar.gz: TLS failed: "))),
            fetched.error().message.c_str());
    }

    void tooManyRedirects()
    {
        HttpRequest request = requestFor(s("/redirect/site.tar.gz"));
        request.maxRedirects = 0;
        const auto fetched = httpDownload(request);
        QVERIFY(!fetched);
        QCOMPARE(messageOf(fetched.error()), m_http.url(s("/redirect/site.tar.gz: more than 0 redirects")));
    }

    void aLibcurlThatCannotBeLoadedIsAnError()
    {
        if (qEnvironmentVariableIsSet(kBrokenLibcurl)) {
            HttpRequest request;
            request.url = "http://127.0.0.1:1/site.tar.gz";
            const auto fetched = httpDownload(request);
            QVERIFY(!fetched);
            QVERIFY(hasCode(fetched.error(), LibraryErrc::Unavailable));
            QVERIFY2(messageOf(fetched.error()).startsWith(s("cannot load ") + s(lazy::libcurl.fileName())),
                fetched.error().message.c_str());
            return;
        }
        // This test again, in a process that finds a file that is no library first under libcurl's name.
        QTemporaryDir libraries;
        QVERIFY(test::writeFile(libraries.filePath(s(lazy::libcurl.fileName())), QByteArray(64, '\0')));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(s(kBrokenLibcurl), s("1"));
        environment.insert(s("LD_LIBRARY_PATH"), libraries.path());
        QProcess child;
        child.setProcessEnvironment(environment);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QCoreApplication::applicationFilePath(),
            {s("tst_http_download"), s("aLibcurlThatCannotBeLoadedIsAnError")});
        QVERIFY(child.waitForFinished(60000));
        const QByteArray output = child.readAll();
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, output.constData());
        QVERIFY2(
            output.contains("PASS   : TestHttpDownload::aLibcurlThatCannotBeLoadedIsAnError()"), output.constData());
    }
};

CCM_TEST_GUILESS_MAIN(TestHttpDownload)
#include "tst_http_download.moc"
