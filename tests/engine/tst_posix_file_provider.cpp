// SPDX-License-Identifier: Apache-2.0
#include "base/sha256.h"
#include "engine/resources/file/posix/posix_file_provider.h"
#include "file_test_support.h"
#include "recording_runner.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

bool exists(const QString &path)
{
    return lstatOf(path).st_mode != 0;
}

bool makeLink(const QString &target, const QString &link)
{
    return ::symlink(QFile::encodeName(target).constData(), QFile::encodeName(link).constData()) == 0;
}

bool giveTo(const QString &path, uid_t uid, gid_t gid, mode_t mode)
{
    const QByteArray name = QFile::encodeName(path);
    return ::lchown(name.constData(), uid, gid) == 0 && ::chmod(name.constData(), mode) == 0;
}

QString message(const Error &error)
{
    return q(error.message);
}

void requireRoot()
{
    if (::geteuid() != 0)
        QSKIP("changing owners needs root");
}

} // namespace

class TestPosixFileProvider : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void factory()
    {
        PosixFileProviderFactory factory;
        QCOMPARE(q(std::string(factory.typeName())), QStringLiteral("file"));
        QCOMPARE(q(std::string(factory.name())), QStringLiteral("posix"));
        const auto priority = factory.manageable(Json::object(), LazyFacts());
        QVERIFY(priority.ok());
        QCOMPARE(priority.value(), std::optional<int>(1));
        RecordingRunner runner;
        const auto provider = factory.create(runner);
        QVERIFY(dynamic_cast<FileProvider *>(provider.get()));
        QCOMPARE(q(std::string(provider->name())), QStringLiteral("posix"));
        QVERIFY(runner.commands().empty());
    }

    void statusOfKinds_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<bool>("link");
        QTest::addColumn<bool>("hasChecksum");
        QTest::newRow("missing") << QStringLiteral("missing") << QStringLiteral("absent") << false << false;
        QTest::newRow("below a file") << QStringLiteral("below-file") << QStringLiteral("absent") << false << false;
        QTest::newRow("regular file") << QStringLiteral("file") << QStringLiteral("present") << false << true;
        QTest::newRow("directory") << QStringLiteral("dir") << QStringLiteral("directory") << false << false;
        QTest::newRow("link to a file") << QStringLiteral("link-file") << QStringLiteral("present") << true << true;
        QTest::newRow("link to a directory")
            << QStringLiteral("link-dir") << QStringLiteral("directory") << true << false;
        QTest::newRow("dangling link") << QStringLiteral("dangling") << QStringLiteral("present") << true << false;
        QTest::newRow("link loop") << QStringLiteral("loop") << QStringLiteral("present") << true << false;
        QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("present") << false << false;
    }

    void statusOfKinds()
    {
        QFETCH(QString, kind);
        QFETCH(QString, ensure);
        QFETCH(bool, link);
        QFETCH(bool, hasChecksum);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir.filePath(QStringLiteral("file")), "content\n"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("dir")));
        QVERIFY(makeLink(QStringLiteral("file"), dir.filePath(QStringLiteral("link-file"))));
        QVERIFY(makeLink(QStringLiteral("dir"), dir.filePath(QStringLiteral("link-dir"))));
        QVERIFY(makeLink(QStringLiteral("nowhere"), dir.filePath(QStringLiteral("dangling"))));
        QVERIFY(makeLink(QStringLiteral("loop"), dir.filePath(QStringLiteral("loop"))));
        QVERIFY(::mkfifo(local(dir.filePath(QStringLiteral("fifo"))).c_str(), 0644) == 0);
        const QString path
            = kind == QStringLiteral("below-file") ? dir.filePath(QStringLiteral("file/below")) : dir.filePath(kind);

        PosixFileProvider provider;
        const auto state = provider.status(local(path), true, nullptr);
        QVERIFY2(state.ok(), state.ok() ? "" : state.error().message.c_str());
        QCOMPARE(q(ensureText(state->ensure)), ensure);
        QCOMPARE(state->link, link);
        QCOMPARE(state->checksum.has_value(), hasChecksum);
        if (hasChecksum)
            QCOMPARE(q(*state->checksum), q(sha256Hex("content\n")));
    }

    void statusMetadata()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("file"));
        QVERIFY(writeFile(path, "twelve bytes"));
        QVERIFY(giveTo(path, 4242, 1, 04751));
        const struct stat before = lstatOf(path);

        PosixFileProvider provider;
        const auto state = provider.status(local(path), false, nullptr);
        QVERIFY(state.ok());
        QCOMPARE(q(ensureText(state->ensure)), QStringLiteral("present"));
        QCOMPARE(q(state->owner), QStringLiteral("4242"));
        QCOMPARE(q(state->group), QStringLiteral("daemon"));
        QCOMPARE(state->uid, uid_t(4242));
        QCOMPARE(state->gid, gid_t(1));
        QCOMPARE(state->mode, 04751u);
        QCOMPARE(state->size, std::uint64_t(12));
        const auto nanoseconds
            = std::chrono::duration_cast<std::chrono::nanoseconds>(state->mtime.time_since_epoch()).count();
        QCOMPARE(nanoseconds, qint64(before.st_mtim.tv_sec) * 1000000000 + before.st_mtim.tv_nsec);
        QVERIFY(!state->checksum);
        QVERIFY(!state->empty);
    }

    void checksumOfASource()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("source"));
        QVERIFY(writeFile(path, "abc"));
        PosixFileProvider provider;
        const auto sum = provider.checksum(local(path));
        QVERIFY(sum.ok());
        QCOMPARE(q(*sum), QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QVERIFY(!provider.checksum(local(dir.filePath(QStringLiteral("missing")))).ok());
    }

    void readForDiff_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("limit");
        QTest::addColumn<bool>("read");
        QTest::newRow("small file") << QStringLiteral("file") << 100 << true;
        QTest::newRow("exactly the limit") << QStringLiteral("file") << 5 << true;
        QTest::newRow("over the limit") << QStringLiteral("file") << 4 << false;
        QTest::newRow("missing") << QStringLiteral("missing") << 100 << false;
        QTest::newRow("directory") << QStringLiteral(".") << 100 << false;
    }

    void readForDiff()
    {
        QFETCH(QString, name);
        QFETCH(int, limit);
        QFETCH(bool, read);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir.filePath(QStringLiteral("file")), "hello"));
        PosixFileProvider provider;
        const auto content = provider.readForDiff(local(dir.filePath(name)), static_cast<std::size_t>(limit));
        QCOMPARE(content.ok(), read);
        QCOMPARE(content.ok() ? q(*content) : QString(), read ? QStringLiteral("hello") : QString());
    }

    void statusOfDirectoryEmptiness()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        PosixFileProvider provider;
        const auto empty = provider.status(local(dir.path()), true, nullptr);
        QVERIFY(empty.ok());
        QCOMPARE(empty->empty, std::optional<bool>(true));
        QVERIFY(!empty->checksum);
        QVERIFY(writeFile(dir.filePath(QStringLiteral(".hidden")), "x"));
        const auto full = provider.status(local(dir.path()), true, nullptr);
        QVERIFY(full.ok());
        QCOMPARE(full->empty, std::optional<bool>(false));
    }

    // Without a checksum the content is not opened: a file the caller cannot read still has a status.
    void statusWithoutChecksumDoesNotRead()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(giveTo(dir.path(), 0, 0, 0755));
        const QString path = dir.filePath(QStringLiteral("secret"));
        QVERIFY(writeFile(path, "secret"));
        QVERIFY(giveTo(path, 4242, 4242, 0));

        PosixFileProvider provider;
        const FilesystemIdentity identity(4242, 4242);
        const auto attributes = provider.status(local(path), false, nullptr);
        QVERIFY2(attributes.ok(), attributes.ok() ? "" : attributes.error().message.c_str());
        QCOMPARE(attributes->mode, 0u);
        const auto withContent = provider.status(local(path), true, nullptr);
        QVERIFY(!withContent.ok());
        QVERIFY2(message(withContent.error()).contains(QStringLiteral("Permission denied")),
            withContent.error().message.c_str());
        QVERIFY(message(withContent.error()).contains(q(local(path))));
    }

    void statusOfUnsearchableParentFails()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("closed")));
        QVERIFY(giveTo(dir.path(), 0, 0, 0755));
        QVERIFY(giveTo(dir.filePath(QStringLiteral("closed")), 0, 0, 0700));
        const QString path = dir.filePath(QStringLiteral("closed/file"));
        PosixFileProvider provider;
        const FilesystemIdentity identity(4242, 4242);
        const auto state = provider.status(local(path), false, nullptr);
        QVERIFY(!state.ok());
        QCOMPARE(message(state.error()), QStringLiteral("cannot inspect %1: Permission denied").arg(path));
    }

    void ids_data()
    {
        QTest::addColumn<bool>("user");
        QTest::addColumn<QString>("value");
        QTest::addColumn<qint64>("id"); // -1: error
        QTest::addColumn<QString>("error");
        QTest::newRow("uid digits") << true << QStringLiteral("4242") << qint64(4242) << QString();
        QTest::newRow("uid zero") << true << QStringLiteral("0") << qint64(0) << QString();
        QTest::newRow("uid leading zeros") << true << QStringLiteral("007") << qint64(7) << QString();
        QTest::newRow("user root") << true << QStringLiteral("root") << qint64(0) << QString();
        QTest::newRow("user daemon") << true << QStringLiteral("daemon") << qint64(1) << QString();
        QTest::newRow("unknown user") << true << QStringLiteral("nosuchuser") << qint64(-1)
                                      << QStringLiteral("could not lookup user 'nosuchuser'");
        QTest::newRow("empty user") << true << QString() << qint64(-1) << QStringLiteral("user name cannot be empty");
        QTest::newRow("negative uid") << true << QStringLiteral("-1") << qint64(-1)
                                      << QStringLiteral("could not lookup user '-1'");
        QTest::newRow("uid out of range") << true << QStringLiteral("99999999999") << qint64(-1)
                                          << QStringLiteral("user id '99999999999' is out of range");
        QTest::newRow("uid meaning unchanged") << true << QStringLiteral("4294967295") << qint64(-1)
                                               << QStringLiteral("user id '4294967295' is out of range");
        QTest::newRow("uid far out of range")
            << true << QStringLiteral("123456789012345678901234567890") << qint64(-1)
            << QStringLiteral("user id '123456789012345678901234567890' is out of range");
        QTest::newRow("gid digits") << false << QStringLiteral("65534") << qint64(65534) << QString();
        QTest::newRow("group nogroup") << false << QStringLiteral("nogroup") << qint64(65534) << QString();
        QTest::newRow("group root") << false << QStringLiteral("root") << qint64(0) << QString();
        QTest::newRow("unknown group") << false << QStringLiteral("nosuchgroup") << qint64(-1)
                                       << QStringLiteral("could not lookup group 'nosuchgroup'");
        QTest::newRow("empty group") << false << QString() << qint64(-1)
                                     << QStringLiteral("group name cannot be empty");
        QTest::newRow("gid out of range") << false << QStringLiteral("4294967296") << qint64(-1)
                                          << QStringLiteral("group id '4294967296' is out of range");
    }

    void ids()
    {
        QFETCH(bool, user);
        QFETCH(QString, value);
        QFETCH(qint64, id);
        QFETCH(QString, error);
        PosixFileProvider provider;
        qint64 found = -1;
        QString failure;
        if (user) {
            const auto uid = provider.userId(value.toStdString());
            if (uid)
                found = uid.value();
            else
                failure = message(uid.error());
        } else {
            const auto gid = provider.groupId(value.toStdString());
            if (gid)
                found = gid.value();
            else
                failure = message(gid.error());
        }
        QCOMPARE(found, id);
        QCOMPARE(failure, error);
    }

    void storeWritesContentAndAttributes_data()
    {
        QTest::addColumn<bool>("fromSource");
        QTest::addColumn<QString>("owner");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<uint>("uid");
        QTest::addColumn<uint>("gid");
        QTest::addColumn<uint>("bits");
        QTest::newRow("content, numeric ids") << false << QStringLiteral("4242") << QStringLiteral("4343")
                                              << QStringLiteral("0640") << 4242u << 4343u << 0640u;
        QTest::newRow("content, names") << false << QStringLiteral("daemon") << QStringLiteral("nogroup")
                                        << QStringLiteral("666") << 1u << 65534u << 0666u;
        QTest::newRow("source, root") << true << QStringLiteral("root") << QStringLiteral("root")
                                      << QStringLiteral("0o755") << 0u << 0u << 0755u;
    }

    void storeWritesContentAndAttributes()
    {
        QFETCH(bool, fromSource);
        QFETCH(QString, owner);
        QFETCH(QString, group);
        QFETCH(QString, mode);
        QFETCH(uint, uid);
        QFETCH(uint, gid);
        QFETCH(uint, bits);
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const QString source = dir.filePath(QStringLiteral("source"));
        const QByteArray content = randomBytes(100000, 11);
        QVERIFY(writeFile(source, content));
        QVERIFY(writeFile(target, "old"));

        PosixFileProvider provider;
        const mode_t savedUmask = ::umask(077);
        const auto stored = fromSource
            ? provider.store(
                local(target), "ignored", local(source), owner.toStdString(), group.toStdString(), mode.toStdString())
            : provider.store(local(target), std::string_view(content.constData(), std::size_t(content.size())), {},
                owner.toStdString(), group.toStdString(), mode.toStdString());
        ::umask(savedUmask);
        QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().message.c_str());
        QCOMPARE(readFile(target), content);
        const struct stat status = lstatOf(target);
        QVERIFY(S_ISREG(status.st_mode));
        QCOMPARE(uint(status.st_uid), uid);
        QCOMPARE(uint(status.st_gid), gid);
        QCOMPARE(uint(status.st_mode & 07777), bits);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 2);
    }

    void storeRefuses_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("owner");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("error");
        QTest::newRow("parent missing") << QStringLiteral("missing/target") << QString() << QStringLiteral("root")
                                        << QStringLiteral("0644")
                                        << QStringLiteral(
                                               "cannot store {dir}/missing/target: {dir}/missing is not a directory");
        QTest::newRow("parent is a file")
            << QStringLiteral("file/target") << QString() << QStringLiteral("root") << QStringLiteral("0644")
            << QStringLiteral("cannot store {dir}/file/target: {dir}/file is not a directory");
        QTest::newRow("unknown user") << QStringLiteral("target") << QString() << QStringLiteral("nosuchuser")
                                      << QStringLiteral("0644")
                                      << QStringLiteral(
                                             "cannot store {dir}/target: could not lookup user 'nosuchuser'");
        QTest::newRow("invalid mode") << QStringLiteral("target") << QString() << QStringLiteral("root")
                                      << QStringLiteral("0888")
                                      << QStringLiteral("cannot store {dir}/target: mode '0888' is not octal: '8' is "
                                                        "not a digit from 0 to 7");
        QTest::newRow("source missing")
            << QStringLiteral("target") << QStringLiteral("nothing") << QStringLiteral("root") << QStringLiteral("0644")
            << QStringLiteral("cannot copy '{dir}/nothing' to '{dir}/target': cannot open the source: No such file or "
                              "directory");
        QTest::newRow("source is a directory")
            << QStringLiteral("target") << QStringLiteral("sub") << QStringLiteral("root") << QStringLiteral("0644")
            << QStringLiteral("cannot copy '{dir}/sub' to '{dir}/target': the source is not a regular file");
    }

    void storeRefuses()
    {
        QFETCH(QString, name);
        QFETCH(QString, source);
        QFETCH(QString, owner);
        QFETCH(QString, mode);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir.filePath(QStringLiteral("file")), "x"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
        const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        PosixFileProvider provider;
        const auto stored = provider.store(local(dir.filePath(name)), "content",
            source.isEmpty() ? std::filesystem::path() : std::filesystem::path(local(dir.filePath(source))),
            owner.toStdString(), "root", mode.toStdString());
        QVERIFY(!stored.ok());
        QCOMPARE(message(stored.error()), QString(error).replace(QStringLiteral("{dir}"), dir.path()));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), before);
    }

    void storeReplacesLinkNotTarget()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString real = dir.filePath(QStringLiteral("real"));
        const QString link = dir.filePath(QStringLiteral("link"));
        QVERIFY(writeFile(real, "kept"));
        QVERIFY(makeLink(QStringLiteral("real"), link));
        PosixFileProvider provider;
        QVERIFY(provider.store(local(link), "new", {}, "0", "0", "0600").ok());
        QVERIFY(S_ISREG(lstatOf(link).st_mode));
        QCOMPARE(readFile(link), QByteArray("new"));
        QCOMPARE(readFile(real), QByteArray("kept"));
    }

    void createDirectoryWithParents()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("a/b/c"));
        PosixFileProvider provider;
        const mode_t savedUmask = ::umask(077);
        const auto created = provider.createDirectory(local(path), "4242", "nogroup", "0751");
        ::umask(savedUmask);
        QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
        for (const QString &parent : {dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("a/b"))}) {
            const struct stat status = lstatOf(parent);
            QVERIFY(S_ISDIR(status.st_mode));
            QCOMPARE(uint(status.st_mode & 07777), 0755u);
            QCOMPARE(uint(status.st_uid), 0u);
        }
        const struct stat status = lstatOf(path);
        QVERIFY(S_ISDIR(status.st_mode));
        QCOMPARE(uint(status.st_mode & 07777), 0751u);
        QCOMPARE(uint(status.st_uid), 4242u);
        QCOMPARE(uint(status.st_gid), 65534u);
    }

    void createDirectoryUpdatesExisting()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("existing"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("existing")));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("existing/data")), "kept"));
        QVERIFY(giveTo(path, 4242, 4242, 02775));
        PosixFileProvider provider;
        QVERIFY(provider.createDirectory(local(path), "root", "root", "0700").ok());
        const struct stat status = lstatOf(path);
        QCOMPARE(uint(status.st_mode & 07777), 0700u);
        QCOMPARE(uint(status.st_uid), 0u);
        QCOMPARE(uint(status.st_gid), 0u);
        QCOMPARE(readFile(dir.filePath(QStringLiteral("existing/data"))), QByteArray("kept"));
    }

    void createDirectoryRefuses_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("owner");
        QTest::addColumn<QString>("error");
        QTest::newRow("a file") << QStringLiteral("file") << QStringLiteral("root")
                                << QStringLiteral(
                                       "cannot create directory {dir}/file: it exists and is not a directory");
        QTest::newRow("a link to a directory")
            << QStringLiteral("link") << QStringLiteral("root")
            << QStringLiteral("cannot create directory {dir}/link: {dir}/link is a symbolic link; its target is not "
                              "changed through it");
        QTest::newRow("below a file") << QStringLiteral("file/sub") << QStringLiteral("root")
                                      << QStringLiteral(
                                             "cannot create directory {dir}/file/sub: {dir}/file is not a directory");
        QTest::newRow("unknown user") << QStringLiteral("new") << QStringLiteral("nosuchuser")
                                      << QStringLiteral("cannot create directory {dir}/new: could not lookup user "
                                                        "'nosuchuser'");
    }

    void createDirectoryRefuses()
    {
        QFETCH(QString, name);
        QFETCH(QString, owner);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir.filePath(QStringLiteral("file")), "x"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
        QVERIFY(giveTo(dir.filePath(QStringLiteral("real")), 0, 0, 0700));
        QVERIFY(makeLink(QStringLiteral("real"), dir.filePath(QStringLiteral("link"))));
        PosixFileProvider provider;
        const auto created = provider.createDirectory(local(dir.filePath(name)), owner.toStdString(), "root", "0755");
        QVERIFY(!created.ok());
        QCOMPARE(message(created.error()), QString(error).replace(QStringLiteral("{dir}"), dir.path()));
        QCOMPARE(uint(lstatOf(dir.filePath(QStringLiteral("real"))).st_mode & 07777), 0700u);
        QVERIFY(!exists(dir.filePath(QStringLiteral("new"))));
    }

    void setAttributes()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("file"));
        QVERIFY(writeFile(path, "content"));
        QVERIFY(giveTo(path, 0, 0, 04755));
        const struct stat before = lstatOf(path);
        PosixFileProvider provider;
        QVERIFY(provider.setAttributes(local(path), "4242", "daemon", "0755").ok());
        const struct stat after = lstatOf(path);
        QCOMPARE(uint(after.st_uid), 4242u);
        QCOMPARE(uint(after.st_gid), 1u);
        QCOMPARE(uint(after.st_mode & 07777), 0755u);
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(readFile(path), QByteArray("content"));
    }

    void setAttributesRefusesLink()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString real = dir.filePath(QStringLiteral("real"));
        const QString link = dir.filePath(QStringLiteral("link"));
        QVERIFY(writeFile(real, "content"));
        QVERIFY(giveTo(real, 0, 0, 0600));
        QVERIFY(makeLink(QStringLiteral("real"), link));
        PosixFileProvider provider;
        const auto set = provider.setAttributes(local(link), "4242", "4242", "0644");
        QVERIFY(!set.ok());
        QCOMPARE(message(set.error()),
            QStringLiteral("cannot set attributes of %1: %1 is a symbolic link; its target is not changed through it")
                .arg(link));
        const struct stat status = lstatOf(real);
        QCOMPARE(uint(status.st_uid), 0u);
        QCOMPARE(uint(status.st_mode & 07777), 0600u);
        QCOMPARE(uint(lstatOf(link).st_uid), 0u);
    }

    void setAttributesOfMissingPath()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("missing"));
        PosixFileProvider provider;
        const auto set = provider.setAttributes(local(path), "root", "root", "0644");
        QVERIFY(!set.ok());
        QCOMPARE(
            message(set.error()), QStringLiteral("cannot set attributes of %1: No such file or directory").arg(path));
        QVERIFY(!exists(path));
    }

    void remove_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("force");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QStringList>("left"); // what is left of the fixture afterwards
        const QStringList all {QStringLiteral("file"), QStringLiteral("empty"), QStringLiteral("full"),
            QStringLiteral("full/data"), QStringLiteral("full/sub"), QStringLiteral("full/sub/deep"),
            QStringLiteral("full/sub/link"), QStringLiteral("keep"), QStringLiteral("keep/data"),
            QStringLiteral("link-dir"), QStringLiteral("link-file")};
        const auto without = [&](const QStringList &gone) {
            QStringList left = all;
            for (const QString &name : gone)
                left.removeAll(name);
            return left;
        };
        QTest::newRow("missing") << QStringLiteral("missing") << false << QString() << all;
        QTest::newRow("below a file") << QStringLiteral("file/below") << false << QString() << all;
        QTest::newRow("file") << QStringLiteral("file") << false << QString() << without({QStringLiteral("file")});
        QTest::newRow("file, force") << QStringLiteral("file") << true << QString()
                                     << without({QStringLiteral("file")});
        QTest::newRow("empty directory") << QStringLiteral("empty") << false << QString()
                                         << without({QStringLiteral("empty")});
        QTest::newRow("full directory")
            << QStringLiteral("full") << false
            << QStringLiteral("cannot remove {dir}/full: directory is not empty, set 'force: true' to remove it "
                              "recursively")
            << all;
        QTest::newRow("full directory, force")
            << QStringLiteral("full") << true << QString()
            << without({QStringLiteral("full"), QStringLiteral("full/data"), QStringLiteral("full/sub"),
                   QStringLiteral("full/sub/deep"), QStringLiteral("full/sub/link")});
        QTest::newRow("link to a directory")
            << QStringLiteral("link-dir") << false << QString() << without({QStringLiteral("link-dir")});
        QTest::newRow("link to a directory, force")
            << QStringLiteral("link-dir") << true << QString() << without({QStringLiteral("link-dir")});
        QTest::newRow("link to a file") << QStringLiteral("link-file") << false << QString()
                                        << without({QStringLiteral("link-file")});
    }

    void remove()
    {
        QFETCH(QString, name);
        QFETCH(bool, force);
        QFETCH(QString, error);
        QFETCH(QStringList, left);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QDir root(dir.path());
        QVERIFY(writeFile(dir.filePath(QStringLiteral("file")), "x"));
        QVERIFY(root.mkpath(QStringLiteral("empty")));
        QVERIFY(root.mkpath(QStringLiteral("full/sub/deep")));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("full/data")), "x"));
        QVERIFY(root.mkpath(QStringLiteral("keep")));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("keep/data")), "kept"));
        QVERIFY(makeLink(QStringLiteral("../../keep"), dir.filePath(QStringLiteral("full/sub/link"))));
        QVERIFY(makeLink(QStringLiteral("keep"), dir.filePath(QStringLiteral("link-dir"))));
        QVERIFY(makeLink(QStringLiteral("keep/data"), dir.filePath(QStringLiteral("link-file"))));

        PosixFileProvider provider;
        const auto removed = provider.remove(local(dir.filePath(name)), force);
        QCOMPARE(removed.ok(), error.isEmpty());
        if (!error.isEmpty())
            QCOMPARE(message(removed.error()), QString(error).replace(QStringLiteral("{dir}"), dir.path()));

        QStringList found;
        for (const auto &entry : std::filesystem::recursive_directory_iterator(local(dir.path())))
            found << q(entry.path().lexically_relative(local(dir.path())).string());
        found.sort();
        left.sort();
        QCOMPARE(found, left);
        QCOMPARE(readFile(dir.filePath(QStringLiteral("keep/data"))), QByteArray("kept"));
    }

    // Deeper than the descriptors the process may hold while it runs, so only a walk that keeps a
    // bounded number of directories open gets through; a recursive walk would also be at risk.
    void removeDeepTree()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString top = dir.filePath(QStringLiteral("deep"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("deep")));
        int fd = ::open(local(top).c_str(), O_RDONLY | O_DIRECTORY);
        QVERIFY(fd >= 0);
        constexpr int depth = 400;
        for (int level = 0; level < depth && fd >= 0; ++level) {
            QVERIFY(::mkdirat(fd, "d", 0755) == 0);
            if (level % 50 == 0)
                QVERIFY(::close(::openat(fd, "file", O_WRONLY | O_CREAT, 0644)) == 0);
            const int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
            ::close(fd);
            fd = next;
        }
        QVERIFY(fd >= 0);
        ::close(fd);

        rlimit saved {};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &saved) == 0);
        rlimit limited = saved;
        limited.rlim_cur = 128;
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &limited) == 0);
        PosixFileProvider provider;
        const auto removed = provider.remove(local(top), true);
        ::setrlimit(RLIMIT_NOFILE, &saved);
        QVERIFY2(removed.ok(), removed.ok() ? "" : removed.error().message.c_str());
        QVERIFY(!exists(top));
    }

    void removeFailureNamesEntry()
    {
        requireRoot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("tree/locked")));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("tree/locked/file")), "x"));
        QVERIFY(giveTo(dir.path(), 0, 0, 0755));
        QVERIFY(giveTo(dir.filePath(QStringLiteral("tree")), 4242, 4242, 0755));
        QVERIFY(giveTo(dir.filePath(QStringLiteral("tree/locked")), 0, 0, 0755));
        PosixFileProvider provider;
        const FilesystemIdentity identity(4242, 4242);
        const auto removed = provider.remove(local(dir.filePath(QStringLiteral("tree"))), true);
        QVERIFY(!removed.ok());
        QCOMPARE(message(removed.error()),
            QStringLiteral("cannot remove %1: Permission denied")
                .arg(dir.filePath(QStringLiteral("tree/locked/file"))));
    }

    // A provider lives for one run: its first write into a directory removes every abandoned
    // temporary file there, later ones do not look again; the next run's provider does.
    void storeSweepsEachDirectoryOncePerRun()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString early = dir.filePath(QStringLiteral(".ccm-other.Ab3xYz"));
        const QString late = dir.filePath(QStringLiteral(".ccm-other.Zz9yY8"));
        QVERIFY(writeFile(early, "left by a killed writer"));
        const std::string owner = std::to_string(::geteuid());
        const std::string group = std::to_string(::getegid());
        const std::string target = local(dir.filePath(QStringLiteral("target")));

        PosixFileProvider run;
        QVERIFY(run.store(target, "1", {}, owner, group, "0644").ok());
        QVERIFY(!QFile::exists(early));
        QVERIFY(writeFile(late, "left by a killed writer"));
        QVERIFY(run.store(target, "2", {}, owner, group, "0644").ok());
        QVERIFY(QFile::exists(late));

        PosixFileProvider nextRun;
        QVERIFY(nextRun.store(target, "3", {}, owner, group, "0644").ok());
        QVERIFY(!QFile::exists(late));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            QStringList {QStringLiteral("target")});
    }
};

CCM_TEST_GUILESS_MAIN(TestPosixFileProvider)
#include "tst_posix_file_provider.moc"
