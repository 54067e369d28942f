// SPDX-License-Identifier: Apache-2.0
// The archive type with its http provider against a real HTTP server on 127.0.0.1 (the helper
// script): the seed's decision rows in noop and for real, downloads, authentication, failures,
// hostile archives and that no credential reaches an event or a log line.
#include "archive_test_support.h"
#include "base/sha256.h"
#include "engine/prepared_manifest.h"
#include "engine/resources/archive/archive_type.h"
#include "engine/resources/archive/http/http_archive_provider.h"
#include "engine/resources/registration.h"
#include "engine/run.h"
#include "engine_test_support.h"
#include "file_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

const std::string kUser = "deploy";
const std::string kPassword = "hunter2-basic-secret";
const std::string kHeader = "X-Deploy-Token";
const std::string kToken = "tok3n-header-secret";

/// Everything below path with the content of its files, sorted; links are listed, not followed.
QStringList contentSnapshot(const QString &path)
{
    QStringList entries;
    const QDir root(path);
    const auto list = [&](const auto &self, const QString &directory) -> void {
        const QFileInfoList infos
            = QDir(directory).entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
        for (const QFileInfo &info : infos) {
            QString entry = root.relativeFilePath(info.filePath());
            if (info.isFile() && !info.isSymLink())
                entry += QStringLiteral(" = ") + QString::fromUtf8(readFile(info.filePath()).toHex());
            entries << entry;
            if (info.isDir() && !info.isSymLink())
                self(self, info.filePath());
        }
    };
    list(list, path);
    entries.sort();
    return entries;
}

QString messageOf(const Result<void> &result)
{
    return result.ok() ? QStringLiteral("<ok>") : q(result.error().message);
}

/// Collects a run's events and log lines.
class EventsAndLogs : public RunObserver {
public:
    void resourceFinished(const TransactionEvent &event) override { events.push_back(event); }
    void log(LogLevel, std::string_view, std::string_view message) override { logs.emplace_back(message); }
    std::vector<TransactionEvent> events;
    std::vector<std::string> logs;
};

} // namespace

class TestArchiveType : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_served;
    QProcess m_server;
    QString m_base;
    std::string m_checksum;
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const QString &name) const { return m_dir->filePath(name); }
    QString servedPath(const QString &name) const { return m_served.filePath(name); }
    std::string url(const QString &served) const { return (m_base + served).toStdString(); }
    QString archivePath() const { return path(QStringLiteral("app.tar.gz")); }

    bool make(const QString &name, const QString &kind, const QString &argument = {})
    {
        QStringList arguments {kArchiveHelper, QStringLiteral("make"), servedPath(name), kind};
        if (!argument.isEmpty())
            arguments << argument;
        QProcess process;
        process.start(ccm::test::python3(), arguments);
        if (!process.waitForFinished(60000) || process.exitCode() != 0) {
            qWarning("%s", process.readAllStandardError().constData());
            return false;
        }
        return true;
    }

    /// The requests the server got since the last call, as "<path> <Authorization>".
    QStringList takeRequests()
    {
        const QString log = servedPath(QStringLiteral("requests.log"));
        if (!QFile::exists(log))
            return {};
        const QStringList lines = QString::fromUtf8(readFile(log)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QFile::resize(log, 0);
        return lines;
    }

    static std::string ids(uid_t id) { return std::to_string(id); }

    /// The properties of a plain download of app.tar.gz into the temporary directory.
    Json baseProperties() const
    {
        return Json {{"ensure", "present"}, {"url", url(QStringLiteral("/app.tar.gz"))}, {"owner", ids(::geteuid())},
            {"group", ids(::getegid())}};
    }

    Json extracting(Json properties, bool creates, bool cleanup) const
    {
        properties["extract_parent"] = local(path(QStringLiteral("opt")));
        if (creates)
            properties["creates"] = local(path(QStringLiteral("opt/app/bin/app")));
        if (cleanup)
            properties["cleanup"] = true;
        return properties;
    }

    LoggedApply apply(const Json &properties, bool noop = false, const QString &name = {})
    {
        HttpArchiveProvider provider;
        RecordingRunner runner;
        RecordingLogger log;
        const LazyFacts facts;
        ApplyContext context {noop, {}, runner, log, facts, local(m_dir->path()), {}, {}};
        LoggedApply outcome;
        outcome.result = ArchiveType().apply(
            local(name.isEmpty() ? archivePath() : name), properties, provider, context, outcome.event);
        outcome.logged = log.messages;
        return outcome;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_served.isValid());
        for (const char *name : {"app.tar.gz", "app.tgz", "app.tar", "app.zip"})
            QVERIFY(make(QString::fromUtf8(name), QStringLiteral("app")));
        QVERIFY(make(QStringLiteral("dotdot.tar.gz"), QStringLiteral("dotdot")));
        QVERIFY(make(QStringLiteral("symlink.tar.gz"), QStringLiteral("symlink")));
        QVERIFY(make(QStringLiteral("absolute.tar.gz"), QStringLiteral("absolute"),
            servedPath(QStringLiteral("escaped-absolute.txt"))));
        auto sum = sha256File(local(servedPath(QStringLiteral("app.tar.gz"))));
        QVERIFY(sum.ok());
        m_checksum = sum.value();

        m_server.start(ccm::test::python3(),
            {kArchiveHelper, QStringLiteral("serve"), m_served.path(), servedPath(QStringLiteral("requests.log")),
                q(kUser), q(kPassword), q(kHeader), q(kToken)});
        QVERIFY(m_server.waitForStarted(30000));
        while (!m_server.canReadLine())
            QVERIFY2(m_server.waitForReadyRead(30000), m_server.readAllStandardError().constData());
        const int port = m_server.readLine().trimmed().toInt();
        QVERIFY(port > 0);
        m_base = QStringLiteral("http://127.0.0.1:%1").arg(port);
    }

    void cleanupTestCase()
    {
        m_server.kill();
        m_server.waitForFinished(10000);
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        takeRequests();
    }

    void decisionTable_data()
    {
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<QString>("archive"); // missing, same (as served), other (different bytes)
        QTest::addColumn<bool>("checksum");
        QTest::addColumn<bool>("extract");
        QTest::addColumn<QString>("creates"); // unset, missing, present
        QTest::addColumn<bool>("cleanup");
        QTest::addColumn<QString>("noopMessage"); // empty: stable

        const QString missing = QStringLiteral("missing");
        const QString same = QStringLiteral("same");
        const QString other = QStringLiteral("other");
        const QString unset = QStringLiteral("unset");
        const QString present = QStringLiteral("present");
        const QString absent = QStringLiteral("absent");
        const QString downloaded = QStringLiteral("Would have downloaded");
        const QString downloadedExtracted = QStringLiteral("Would have downloaded. Would have extracted");
        QTest::newRow("absent, archive missing") << absent << missing << false << false << unset << false << QString();
        QTest::newRow("absent, archive exists")
            << absent << same << false << false << unset << false << QStringLiteral("Would have removed");
        QTest::newRow("absent, extracted archive exists")
            << absent << same << false << true << present << false << QStringLiteral("Would have removed");
        QTest::newRow("download only, archive missing")
            << present << missing << true << false << unset << false << downloaded;
        QTest::newRow("download only, archive matches checksum")
            << present << same << true << false << unset << false << QString();
        QTest::newRow("download only, archive exists without checksum")
            << present << same << false << false << unset << false << QString();
        QTest::newRow("checksum mismatch") << present << other << true << false << unset << false << downloaded;
        QTest::newRow("other content without checksum")
            << present << other << false << false << unset << false << QString();
        QTest::newRow("archive missing, creates missing")
            << present << missing << true << true << missing << false << downloadedExtracted;
        QTest::newRow("archive exists, creates missing")
            << present << same << true << true << missing << false << QStringLiteral("Would have extracted");
        QTest::newRow("archive exists, creates exists")
            << present << same << true << true << present << false << QString();
        QTest::newRow("checksum mismatch, creates exists")
            << present << other << true << true << present << false << downloadedExtracted;
        QTest::newRow("no cleanup, archive missing, creates exists")
            << present << missing << false << true << present << false << downloadedExtracted;
        QTest::newRow("cleanup, archive missing, creates missing")
            << present << missing << true << true << missing << true
            << QStringLiteral("Would have downloaded. Would have extracted. Would have cleaned up");
        QTest::newRow("cleanup, archive exists, creates missing")
            << present << same << true << true << missing << true
            << QStringLiteral("Would have extracted. Would have cleaned up");
        QTest::newRow("cleanup, archive missing, creates exists")
            << present << missing << true << true << present << true << QString();
        QTest::newRow("cleanup, archive exists, creates exists")
            << present << same << true << true << present << true << QStringLiteral("Would have cleaned up");
        QTest::newRow("cleanup, checksum mismatch, creates exists")
            << present << other << true << true << present << true << QStringLiteral("Would have cleaned up");
        QTest::newRow("extract without creates, archive missing")
            << present << missing << false << true << unset << false << downloadedExtracted;
        QTest::newRow("extract without creates, archive exists")
            << present << same << false << true << unset << false << QString();
    }

    void decisionTable()
    {
        QFETCH(QString, ensure);
        QFETCH(QString, archive);
        QFETCH(bool, checksum);
        QFETCH(bool, extract);
        QFETCH(QString, creates);
        QFETCH(bool, cleanup);
        QFETCH(QString, noopMessage);

        const QByteArray served = readFile(servedPath(QStringLiteral("app.tar.gz")));
        const QByteArray previous = archive == QStringLiteral("other") ? QByteArray("older release") : served;
        if (archive != QStringLiteral("missing"))
            QVERIFY(writeFile(archivePath(), previous));
        const QString marker = path(QStringLiteral("opt/app/bin/app"));
        if (creates == QStringLiteral("present")) {
            QVERIFY(QDir().mkpath(path(QStringLiteral("opt/app/bin"))));
            QVERIFY(writeFile(marker, "extracted earlier"));
        }
        Json properties = baseProperties();
        properties["ensure"] = ensure.toStdString();
        if (checksum)
            properties["checksum"] = m_checksum;
        if (extract)
            properties = extracting(properties, creates != QStringLiteral("unset"), cleanup);

        // Noop: the message, and nothing fetched or touched.
        const QStringList before = contentSnapshot(m_dir->path());
        LoggedApply noop = apply(properties, true);
        QCOMPARE(messageOf(noop.result), QStringLiteral("<ok>"));
        QCOMPARE(noop.event.changed, !noopMessage.isEmpty());
        QCOMPARE(q(noop.event.noopMessage), noopMessage);
        QCOMPARE(takeRequests(), QStringList());
        QCOMPARE(contentSnapshot(m_dir->path()), before);
        QCOMPARE(noop.event.status["metadata"]["archive_exists"].get<bool>(), archive != QStringLiteral("missing"));

        // For real: the steps the message named, and nothing else.
        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result), QStringLiteral("<ok>"));
        QCOMPARE(real.event.changed, !noopMessage.isEmpty());
        QCOMPARE(real.event.noopMessage, std::string());
        const bool downloads = noopMessage.contains(QStringLiteral("downloaded"));
        const bool extracts = noopMessage.contains(QStringLiteral("extracted"));
        QCOMPARE(takeRequests().size(), downloads ? 1 : 0);
        const bool kept = ensure == QStringLiteral("present") && !cleanup;
        QCOMPARE(QFileInfo::exists(archivePath()), kept);
        if (kept)
            QCOMPARE(readFile(archivePath()), downloads ? served : previous);
        if (extracts) {
            QCOMPARE(readFile(path(QStringLiteral("opt/app/README"))), QByteArray("read me\n"));
            QCOMPARE(readFile(marker), QByteArray("#!/bin/sh\necho app\n"));
        } else if (creates == QStringLiteral("present")) {
            QCOMPARE(readFile(marker), QByteArray("extracted earlier"));
        }
        QCOMPARE(real.event.status["ensure"].get<std::string>(), kept ? "present" : "absent");
        QCOMPARE(q(real.event.finalEnsure), kept ? QStringLiteral("present") : QStringLiteral("absent"));

        // A second run finds everything in place.
        const QStringList settled = contentSnapshot(m_dir->path());
        LoggedApply again = apply(properties);
        QCOMPARE(messageOf(again.result), QStringLiteral("<ok>"));
        QVERIFY(!again.event.changed);
        QCOMPARE(takeRequests(), QStringList());
        QCOMPARE(contentSnapshot(m_dir->path()), settled);
    }

    void ownerMismatchDownloadsAgain()
    {
        if (::geteuid() != 0)
            QSKIP("changing a file's owner needs root");
        QVERIFY(writeFile(archivePath(), readFile(servedPath(QStringLiteral("app.tar.gz")))));
        QCOMPARE(::chown(QFile::encodeName(archivePath()).constData(), 65534, 65534), 0);
        const Json properties = baseProperties();

        LoggedApply noop = apply(properties, true);
        QCOMPARE(messageOf(noop.result), QStringLiteral("<ok>"));
        QCOMPARE(q(noop.event.noopMessage), QStringLiteral("Would have downloaded"));
        QCOMPARE(takeRequests(), QStringList());

        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result), QStringLiteral("<ok>"));
        QVERIFY(real.event.changed);
        QCOMPARE(takeRequests().size(), 1);
        struct stat info { };
        QCOMPARE(::stat(QFile::encodeName(archivePath()).constData(), &info), 0);
        QCOMPARE(info.st_uid, ::geteuid());
        QCOMPARE(info.st_gid, ::getegid());
        QCOMPARE(info.st_mode & 07777, 0644U);
        QVERIFY(!apply(properties).event.changed);
    }

    void downloadsAndExtractsEachFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("tar.gz") << QStringLiteral("app.tar.gz");
        QTest::newRow("tgz") << QStringLiteral("app.tgz");
        QTest::newRow("tar") << QStringLiteral("app.tar");
        QTest::newRow("zip") << QStringLiteral("app.zip");
    }

    void downloadsAndExtractsEachFormat()
    {
        QFETCH(QString, file);
        Json properties = extracting(baseProperties(), true, true);
        properties["url"] = url(QLatin1Char('/') + file);
        auto sum = sha256File(local(servedPath(file)));
        QVERIFY(sum.ok());
        properties["checksum"] = sum.value();

        LoggedApply real = apply(properties, false, path(file));
        QCOMPARE(messageOf(real.result), QStringLiteral("<ok>"));
        QVERIFY(real.event.changed);
        QCOMPARE(readFile(path(QStringLiteral("opt/app/README"))), QByteArray("read me\n"));
        QVERIFY(QFileInfo(path(QStringLiteral("opt/app/bin/app"))).isExecutable());
        QVERIFY(!QFileInfo::exists(path(file)));
        QCOMPARE(real.event.status["metadata"]["creates_exists"].get<bool>(), true);
        QCOMPARE(real.event.status["metadata"]["provider"].get<std::string>(), "http");
        QVERIFY(!apply(properties, false, path(file)).event.changed);
    }

    void reportsDownloadFailures_data()
    {
        QTest::addColumn<QString>("served");
        QTest::addColumn<int>("status");
        QTest::newRow("not found") << QStringLiteral("/missing.tar.gz") << 404;
        QTest::newRow("server error") << QStringLiteral("/status/500/app.tar.gz") << 500;
        QTest::newRow("no credentials") << QStringLiteral("/basic/app.tar.gz") << 401;
        QTest::newRow("no token") << QStringLiteral("/header/app.tar.gz") << 403;
    }

    void reportsDownloadFailures()
    {
        QFETCH(QString, served);
        QFETCH(int, status);
        Json properties = baseProperties();
        properties["url"] = url(served);

        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result),
            QStringLiteral("cannot download %1 to %2: the server answered with HTTP status %3, expected 200")
                .arg(q(url(served)), archivePath())
                .arg(status));
        QVERIFY(!real.event.changed);
        QCOMPARE(contentSnapshot(m_dir->path()), QStringList());
    }

    void checksumMismatchPlacesNothing()
    {
        QVERIFY(writeFile(archivePath(), "older release"));
        Json properties = baseProperties();
        const std::string wrong = sha256Hex("something else");
        properties["checksum"] = wrong;

        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result),
            QStringLiteral("cannot download %1 to %2: checksum mismatch, expected %3 got %4")
                .arg(q(url(QStringLiteral("/app.tar.gz"))), archivePath(), q(wrong), q(m_checksum)));
        QCOMPARE(takeRequests().size(), 1);
        // The old archive is untouched and no temporary file is left beside it.
        QCOMPARE(contentSnapshot(m_dir->path()),
            QStringList({QStringLiteral("app.tar.gz = ") + QString::fromUtf8(QByteArray("older release").toHex())}));
    }

    void basicAuthentication()
    {
        Json properties = baseProperties();
        properties["url"] = url(QStringLiteral("/basic/app.tar.gz"));
        properties["username"] = kUser;
        properties["password"] = kPassword;

        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result), QStringLiteral("<ok>"));
        QCOMPARE(takeRequests(),
            QStringList({QStringLiteral("/basic/app.tar.gz Basic ")
                + QString::fromLatin1(QByteArray::fromStdString(kUser + ":" + kPassword).toBase64())}));
        QCOMPARE(readFile(archivePath()), readFile(servedPath(QStringLiteral("app.tar.gz"))));

        properties["password"] = "wrong";
        QVERIFY(QFile::remove(archivePath()));
        LoggedApply refused = apply(properties);
        QVERIFY(messageOf(refused.result).endsWith(QStringLiteral("HTTP status 401, expected 200")));
        QVERIFY(!messageOf(refused.result).contains(QStringLiteral("wrong")));
        QVERIFY(!QFileInfo::exists(archivePath()));
    }

    void headerAuthentication()
    {
        Json properties = baseProperties();
        properties["url"] = url(QStringLiteral("/header/app.tar.gz"));
        properties["headers"] = Json {{kHeader, kToken}};

        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result), QStringLiteral("<ok>"));
        QCOMPARE(readFile(archivePath()), readFile(servedPath(QStringLiteral("app.tar.gz"))));
        for (const std::string &line : real.logged)
            QVERIFY(line.find(kToken) == std::string::npos);
    }

    void followsRedirects()
    {
        Json properties = baseProperties();
        properties["url"] = url(QStringLiteral("/redirect/app.tar.gz"));
        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result), QStringLiteral("<ok>"));
        QCOMPARE(takeRequests().size(), 2);
        QCOMPARE(readFile(archivePath()), readFile(servedPath(QStringLiteral("app.tar.gz"))));
    }

    void urlCredentialsAreRedactedInMessages()
    {
        Json properties = baseProperties();
        const QString withCredentials = m_base;
        properties["url"] = QString(withCredentials)
                                .replace(QStringLiteral("http://"), QStringLiteral("http://user:url-secret@"))
                                .append(QStringLiteral("/missing.tar.gz"))
                                .toStdString();
        LoggedApply real = apply(properties);
        QVERIFY(messageOf(real.result).contains(QStringLiteral("http://user:[redacted]@127.0.0.1:")));
        QVERIFY(!messageOf(real.result).contains(QStringLiteral("url-secret")));
        for (const std::string &line : real.logged)
            QVERIFY(line.find("url-secret") == std::string::npos);
    }

    void missingParentDirectory()
    {
        LoggedApply real = apply(baseProperties(), false, path(QStringLiteral("nowhere/app.tar.gz")));
        QCOMPARE(messageOf(real.result),
            QStringLiteral("cannot download %1 to %2: %3 is not a directory")
                .arg(q(url(QStringLiteral("/app.tar.gz"))), path(QStringLiteral("nowhere/app.tar.gz")),
                    path(QStringLiteral("nowhere"))));
        QCOMPARE(takeRequests(), QStringList());
    }

    void directoryInTheWay()
    {
        QVERIFY(QDir().mkpath(archivePath()));
        LoggedApply real = apply(baseProperties());
        QCOMPARE(messageOf(real.result),
            QStringLiteral("cannot manage %1 as an archive: it is a directory").arg(archivePath()));
    }

    void hostileArchivesExtractNothing_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("entry");
        QTest::newRow("dot-dot") << QStringLiteral("dotdot.tar.gz")
                                 << QStringLiteral("entry '../escaped.txt' has a '..' component");
        QTest::newRow("absolute") << QStringLiteral("absolute.tar.gz") << QStringLiteral("is an absolute path");
        QTest::newRow("escaping symbolic link")
            << QStringLiteral("symlink.tar.gz") << QStringLiteral("entry 'link' is a symbolic link to '../outside'");
    }

    void hostileArchivesExtractNothing()
    {
        QFETCH(QString, file);
        QFETCH(QString, entry);
        Json properties = extracting(baseProperties(), true, true);
        properties["url"] = url(QLatin1Char('/') + file);
        const QString archive = path(file);

        LoggedApply real = apply(properties, false, archive);
        QVERIFY2(
            messageOf(real.result)
                .startsWith(QStringLiteral("cannot extract %1 into %2: ").arg(archive, path(QStringLiteral("opt")))),
            qPrintable(messageOf(real.result)));
        QVERIFY2(messageOf(real.result).contains(entry), qPrintable(messageOf(real.result)));
        // The download happened; nothing of the archive was written anywhere.
        QVERIFY(real.event.changed);
        QCOMPARE(QDir(path(QStringLiteral("opt"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
            QStringList());
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("escaped.txt"))));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("outside"))));
        QVERIFY(!QFileInfo::exists(servedPath(QStringLiteral("escaped-absolute.txt"))));
        QVERIFY(QFileInfo::exists(archive));
    }

    void extractionThatDoesNotCreateKeepsTheArchive()
    {
        Json properties = extracting(baseProperties(), true, true);
        properties["creates"] = local(path(QStringLiteral("opt/app/not-in-the-archive")));
        LoggedApply real = apply(properties);
        QCOMPARE(messageOf(real.result),
            QStringLiteral("desired state not achieved: extracting %1 into %2 did not create %3")
                .arg(archivePath(), path(QStringLiteral("opt")), path(QStringLiteral("opt/app/not-in-the-archive"))));
        QVERIFY(real.event.changed);
        QVERIFY(QFileInfo::exists(archivePath()));
    }

    void invalidProperties_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("json"); // merged over the base properties; null removes a key
        QTest::addColumn<QString>("expected");
        const QString base = QStringLiteral("/srv/app.tar.gz");
        QTest::newRow("relative name") << QStringLiteral("app.tar.gz") << QStringLiteral("{}")
                                       << QStringLiteral(
                                              "archive name 'app.tar.gz' must be an absolute path starting with /");
        QTest::newRow("unclean name")
            << QStringLiteral("/srv/../app.tar.gz") << QStringLiteral("{}")
            << QStringLiteral(
                   "archive name '/srv/../app.tar.gz' must be a clean path without '.', '..', '//' or a trailing /");
        QTest::newRow("name extension") << QStringLiteral("/srv/app.rar") << QStringLiteral("{}")
                                        << QStringLiteral(
                                               "archive name '/srv/app.rar' must end in .tar.gz, .tgz, .tar or .zip");
        QTest::newRow("no ensure") << base << QStringLiteral("{\"ensure\": null}")
                                   << QStringLiteral("ensure is required (present, absent)");
        QTest::newRow("bad ensure") << base << QStringLiteral("{\"ensure\": \"latest\"}")
                                    << QStringLiteral("ensure 'latest' is not one of present, absent");
        QTest::newRow("no url") << base << QStringLiteral("{\"url\": null}")
                                << QStringLiteral("url is required unless ensure is absent");
        QTest::newRow("url scheme") << base << QStringLiteral("{\"url\": \"ftp://host/app.tar.gz\"}")
                                    << QStringLiteral("url scheme 'ftp' is not supported; use http or https");
        QTest::newRow("not a url") << base << QStringLiteral("{\"url\": \"app.tar.gz\"}")
                                   << QStringLiteral("url 'app.tar.gz' is not a URL; expected http:// or https://");
        QTest::newRow("url without host") << base << QStringLiteral("{\"url\": \"https:///app.tar.gz\"}")
                                          << QStringLiteral("url 'https:///app.tar.gz' has no host");
        QTest::newRow("url extension") << base << QStringLiteral("{\"url\": \"https://host/app.html?x=1.tar.gz\"}")
                                       << QStringLiteral(
                                              "url path '/app.html' must end in .tar.gz, .tgz, .tar or .zip");
        QTest::newRow("extension mismatch")
            << base << QStringLiteral("{\"url\": \"https://host/app.zip\"}")
            << QStringLiteral(
                   "url ends in .zip but the archive name ends in .tar.gz; they must be the same kind of archive");
        QTest::newRow("checksum") << base << QStringLiteral("{\"checksum\": \"abc\"}")
                                  << QStringLiteral(
                                         "checksum must be the SHA-256 of the archive: 64 hexadecimal characters");
        QTest::newRow("no owner") << base << QStringLiteral("{\"owner\": null}")
                                  << QStringLiteral("owner is required unless ensure is absent");
        QTest::newRow("empty group") << base << QStringLiteral("{\"group\": \"\"}")
                                     << QStringLiteral("group must not be empty");
        QTest::newRow("relative extract_parent")
            << base << QStringLiteral("{\"extract_parent\": \"opt\"}")
            << QStringLiteral("extract_parent 'opt' must be an absolute path starting with /");
        QTest::newRow("relative creates")
            << base << QStringLiteral("{\"extract_parent\": \"/opt\", \"creates\": \"x\"}")
            << QStringLiteral("creates 'x' must be an absolute path starting with /");
        QTest::newRow("cleanup without extract_parent")
            << base << QStringLiteral("{\"cleanup\": true}")
            << QStringLiteral("cleanup needs extract_parent: only an extracted archive can be cleaned up");
        QTest::newRow("cleanup without creates")
            << base << QStringLiteral("{\"cleanup\": true, \"extract_parent\": \"/opt\"}")
            << QStringLiteral("cleanup needs creates, which tells later runs the archive was already extracted");
        QTest::newRow("creates without extract_parent")
            << base << QStringLiteral("{\"creates\": \"/opt/x\"}")
            << QStringLiteral("creates needs extract_parent: only extracting the archive can create it");
        QTest::newRow("cleanup not boolean") << base << QStringLiteral("{\"cleanup\": \"yes\"}")
                                             << QStringLiteral("cleanup must be true or false, not a string");
        QTest::newRow("username alone") << base << QStringLiteral("{\"username\": \"deploy\"}")
                                        << QStringLiteral(
                                               "username and password are used together for basic authentication");
        QTest::newRow("header name") << base << QStringLiteral("{\"headers\": {\"Bad Header\": \"x\"}}")
                                     << QStringLiteral("header name 'Bad Header' is not a valid HTTP header name");
        QTest::newRow("header line break")
            << base << QStringLiteral("{\"headers\": {\"X-Token\": \"a\\r\\nInjected: yes\"}}")
            << QStringLiteral("header 'X-Token' must not contain line breaks");
        QTest::newRow("headers not a map")
            << base << QStringLiteral("{\"headers\": [\"x\"]}")
            << QStringLiteral("headers must be a map of header names to values, not a list");
    }

    void invalidProperties()
    {
        QFETCH(QString, name);
        QFETCH(QString, json);
        QFETCH(QString, expected);
        Json properties = baseProperties();
        properties["url"] = "https://example.invalid/app.tar.gz";
        const Json changes = Json::parse(json.toStdString());
        for (const auto &[key, value] : changes.items()) {
            if (value.is_null())
                properties.erase(key);
            else
                properties[key] = value;
        }
        LoggedApply real = apply(properties, false, name);
        QCOMPARE(messageOf(real.result), expected);
        QCOMPARE(takeRequests(), QStringList());
    }

    void absentNeedsNoDownloadProperties()
    {
        QVERIFY(writeFile(archivePath(), "x"));
        LoggedApply real = apply(Json {{"ensure", "absent"}});
        QCOMPARE(messageOf(real.result), QStringLiteral("<ok>"));
        QVERIFY(real.event.changed);
        QVERIFY(!QFileInfo::exists(archivePath()));
    }

    void providerSelection_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<int>("priority"); // 0: not manageable
        QTest::newRow("https") << QStringLiteral("{\"url\": \"https://example.com/app.tar.gz\"}") << 1;
        QTest::newRow("http in capitals") << QStringLiteral("{\"url\": \"HTTP://example.com/app.zip\"}") << 1;
        QTest::newRow("no url") << QStringLiteral("{\"ensure\": \"absent\"}") << 1;
        QTest::newRow("ftp") << QStringLiteral("{\"url\": \"ftp://example.com/app.tar.gz\"}") << 0;
        QTest::newRow("file") << QStringLiteral("{\"url\": \"file:///srv/app.tar.gz\"}") << 0;
    }

    void providerSelection()
    {
        QFETCH(QString, json);
        QFETCH(int, priority);
        const Catalog &catalog = standardCatalog();
        QVERIFY(catalog.type("archive") != nullptr);
        auto selected = catalog.providers().select("archive", Json::parse(json.toStdString()), LazyFacts());
        if (priority == 0) {
            QVERIFY(!selected.ok());
            QCOMPARE(q(selected.error().message),
                QStringLiteral("no suitable provider for this archive resource on this host (http: it downloads only "
                               "http and https URLs)"));
            return;
        }
        QVERIFY(selected.ok());
        QCOMPARE(q(std::string(selected.value()->name())), QStringLiteral("http"));
    }

    void redactsSecretProperties()
    {
        Json properties = baseProperties();
        properties["url"] = "https://user:pa55@example.com/app.tar.gz";
        properties["password"] = kPassword;
        properties["headers"] = Json {{"Authorization", "Bearer abc"}, {kHeader, kToken}};
        ArchiveType().redact(properties);
        QCOMPARE(properties["password"].get<std::string>(), "[redacted]");
        QCOMPARE(properties["headers"].dump(), "{\"Authorization\":\"[redacted]\",\"X-Deploy-Token\":\"[redacted]\"}");
        QCOMPARE(properties["url"].get<std::string>(), "https://user:[redacted]@example.com/app.tar.gz");
        QVERIFY(properties["owner"] == baseProperties()["owner"]);
    }

    void noCredentialInEventsOrLogs_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::addColumn<QString>("password");
        QTest::newRow("real") << false << q(kPassword);
        QTest::newRow("noop") << true << q(kPassword);
        QTest::newRow("refused") << false << QStringLiteral("wrong-basic-secret");
    }

    void noCredentialInEventsOrLogs()
    {
        QFETCH(bool, noop);
        QFETCH(QString, password);
        const QString manifest = path(QStringLiteral("manifest.yaml"));
        const QString text = QStringLiteral("ccm:\n"
                                            "  resources:\n"
                                            "    - archive:\n"
                                            "        - %1:\n"
                                            "            ensure: present\n"
                                            "            url: %2\n"
                                            "            username: %3\n"
                                            "            password: %4\n"
                                            "            headers:\n"
                                            "              %5: %6\n"
                                            "            owner: \"%7\"\n"
                                            "            group: \"%8\"\n"
                                            "            extract_parent: %9\n"
                                            "            creates: %9/app/README\n"
                                            "")
                                 .arg(archivePath(), q(url(QStringLiteral("/basic/app.tar.gz"))), q(kUser), password,
                                     q(kHeader), q(kToken), QString::number(::geteuid()), QString::number(::getegid()),
                                     path(QStringLiteral("opt")));
        QVERIFY(writeFile(manifest, text.toUtf8()));
        ResolveOptions inputs;
        const PreparedManifest prepared = prepareManifestFile(local(manifest), inputs);
        QVERIFY2(prepared.ok(), prepared.diagnosticText().c_str());
        RunOptions options;
        options.noop = noop;
        EventsAndLogs recorder;
        RecordingRunner runner;
        runManifest(prepared.resolved, inputs, options, runner, recorder);

        QCOMPARE(recorder.events.size(), std::size_t {1});
        const TransactionEvent &event = recorder.events.front();
        QCOMPARE(event.failed, password != q(kPassword));
        QCOMPARE(event.changed, password == q(kPassword));
        QCOMPARE(event.properties["password"].get<std::string>(), "[redacted]");
        QCOMPARE(event.properties["headers"][kHeader].get<std::string>(), "[redacted]");
        QCOMPARE(event.properties["username"].get<std::string>(), kUser);
        const std::string json = eventToJson(event).dump();
        for (const QString &secret : {password, q(kToken)}) {
            QVERIFY2(!q(json).contains(secret), json.c_str());
            for (const std::string &line : recorder.logs)
                QVERIFY2(!q(line).contains(secret), line.c_str());
        }
        QCOMPARE(QFileInfo::exists(path(QStringLiteral("opt/app/README"))), !noop && !event.failed);
    }
};

CCM_TEST_GUILESS_MAIN(TestArchiveType)
#include "tst_archive_type.moc"
