// SPDX-License-Identifier: Apache-2.0
// The file type beyond its decision table: attributes-only resources, diffs, sparse sources, events, failures to
// converge and registration.
#include "file_type_test_support.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

class TestFileTypeBehaviour : public QObject {
    Q_OBJECT

    /// The rows of the seed's decision table (and the cases between its rows). `noop` is the noop
    /// message, empty when stable, or "error: ..."; `after` is the tree after a real apply, or
    /// "error: ...". {path} stands for the resource's path, {dir} for the working directory.
    static void decisionTable()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("noop");
        QTest::addColumn<QString>("after");
        const QString target = QStringLiteral("target");
        const QString notEmpty = QStringLiteral(
            "error: cannot remove {path}: directory is not empty, set 'force: true' to remove it recursively");
        const QString isDirectory = QStringLiteral(
            "error: cannot manage {path} as a file: it exists as a directory; use ensure: directory to manage "
            "directories");

        // ensure: absent
        QTest::newRow("absent, absent") << target << s(R"(other f 0:0 0644 "x")") << props(R"("ensure":"absent")")
                                        << QString() << s(R"(other f 0:0 0644 "x")");
        QTest::newRow("absent, file") << target << s(R"(target f 0:0 0644 "x")")
                                      << props(R"("ensure":"absent","owner":"nosuchuser","group":"root","mode":"0644")")
                                      << QStringLiteral("Would have removed the file") << QString();
        QTest::newRow("absent, link to a file")
            << target << s(R"(real f 0:0 0644 "x"; target l -> real)") << props(R"("ensure":"absent")")
            << QStringLiteral("Would have removed the file") << s(R"(real f 0:0 0644 "x")");
        QTest::newRow("absent, link to a directory")
            << target << s(R"(real d 0:0 0755; real/data f 0:0 0644 "x"; target l -> real)")
            << props(R"("ensure":"absent")") << QStringLiteral("Would have removed the file")
            << s(R"(real d 0:0 0755; real/data f 0:0 0644 "x")");
        QTest::newRow("absent, dangling link") << target << s("target l -> nowhere") << props(R"("ensure":"absent")")
                                               << QStringLiteral("Would have removed the file") << QString();
        QTest::newRow("absent, empty directory") << target << s("target d 0:0 0755") << props(R"("ensure":"absent")")
                                                 << QStringLiteral("Would have removed the directory") << QString();
        QTest::newRow("absent, full directory") << target << s(R"(target d 0:0 0755; target/data f 0:0 0644 "x")")
                                                << props(R"("ensure":"absent")") << notEmpty << notEmpty;
        QTest::newRow("absent, full directory, force")
            << target
            << s(R"(target d 0:0 0755; target/sub d 0:0 0700; target/sub/data f 0:0 0600 "x"; target/top f 0:0 0644 "y")")
            << props(R"("ensure":"absent","force":true)")
            << QStringLiteral("Would have recursively removed the directory") << QString();
        QTest::newRow("absent, empty directory, force")
            << target << s("target d 0:0 0755") << props(R"("ensure":"absent","force":true)")
            << QStringLiteral("Would have recursively removed the directory") << QString();
        QTest::newRow("absent, force, tree with links out")
            << target
            << s(R"(keep d 0:0 0755; keep/data f 0:0 0644 "x"; target d 0:0 0755; target/sub d 0:0 0755; )"
                 R"(target/sub/dir l -> ../../keep; target/file l -> ../keep/data)")
            << props(R"("ensure":"absent","force":true)")
            << QStringLiteral("Would have recursively removed the directory")
            << s(R"(keep d 0:0 0755; keep/data f 0:0 0644 "x")");
        QTest::newRow("absent, force, link to a directory")
            << target << s(R"(keep d 0:0 0755; keep/data f 0:0 0644 "x"; target l -> keep)")
            << props(R"("ensure":"absent","force":true)") << QStringLiteral("Would have removed the file")
            << s(R"(keep d 0:0 0755; keep/data f 0:0 0644 "x")");
        QTest::newRow("absent, force, file")
            << target << s(R"(target f 0:0 0644 "x")") << props(R"("ensure":"absent","force":true)")
            << QStringLiteral("Would have removed the file") << QString();

        // ensure: directory
        const QString directory = props(R"("ensure":"directory","owner":"root","group":"root","mode":"0755")");
        QTest::newRow("directory, matching")
            << target << s("target d 0:0 0755") << directory << QString() << s("target d 0:0 0755");
        QTest::newRow("directory, matching numeric ids")
            << target << s("target d 0:0 0755") << props(R"("ensure":"directory","owner":"0","group":"0","mode":"755")")
            << QString() << s("target d 0:0 0755");
        QTest::newRow("directory, matching names of ids")
            << target << s("target d 1:65534 0750")
            << props(R"("ensure":"directory","owner":"daemon","group":"nogroup","mode":"0o750")") << QString()
            << s("target d 1:65534 0750");
        QTest::newRow("directory, absent") << target << QString() << directory
                                           << QStringLiteral("Would have created directory") << s("target d 0:0 0755");
        QTest::newRow("directory, absent parents")
            << QStringLiteral("a/b/target") << QString()
            << props(R"("ensure":"directory","owner":"4242","group":"4242","mode":"0750")")
            << QStringLiteral("Would have created directory")
            << s("a d 0:0 0755; a/b d 0:0 0755; a/b/target d 4242:4242 0750");
        QTest::newRow("directory, content ignored")
            << target << QString()
            << props(R"("ensure":"directory","content":"x","owner":"root","group":"root","mode":"0755")")
            << QStringLiteral("Would have created directory") << s("target d 0:0 0755");
        QTest::newRow("directory, wrong attributes")
            << target << s("target d 4242:4242 0700") << directory
            << QStringLiteral(
                   "Would have updated attributes (owner 4242 -> root, group 4242 -> root, mode 0700 -> 0755)")
            << s("target d 0:0 0755");
        QTest::newRow("directory, set-group-ID bit")
            << target << s(R"(target d 0:0 2755; target/data f 0:0 0644 "x")") << directory
            << QStringLiteral("Would have updated attributes (mode 2755 -> 0755)")
            << s(R"(target d 0:0 0755; target/data f 0:0 0644 "x")");
        QTest::newRow("directory, file") << target << s(R"(target f 0:0 0644 "x")") << directory
                                         << QStringLiteral("Would have created directory")
                                         << QStringLiteral("error: cannot create directory {path}: it exists and is "
                                                           "not a directory");
        QTest::newRow("directory, link to a matching directory")
            << target << s("real d 0:0 0755; target l -> real") << directory << QString()
            << s("real d 0:0 0755; target l -> real");
        QTest::newRow("directory, link to a directory with wrong mode")
            << target << s("real d 0:0 0700; target l -> real") << directory
            << QStringLiteral("Would have updated attributes (mode 0700 -> 0755)")
            << QStringLiteral("error: cannot create directory {path}: {path} is a symbolic link; its target is not "
                              "changed through it");

        // ensure: present with content
        const QString hello
            = props(R"("ensure":"present","content":"hello\n","owner":"root","group":"root","mode":"0644")");
        QTest::newRow("content, matching") << target << s(R"(target f 0:0 0644 "hello\n")") << hello << QString()
                                           << s(R"(target f 0:0 0644 "hello\n")");
        QTest::newRow("content, absent") << target << QString() << hello
                                         << QStringLiteral("Would have created the file")
                                         << s(R"(target f 0:0 0644 "hello\n")");
        QTest::newRow("content, wrong content")
            << target << s(R"(target f 0:0 0644 "old\n")") << hello
            << QStringLiteral("Would have updated the file content") << s(R"(target f 0:0 0644 "hello\n")");
        QTest::newRow("content, wrong content and attributes")
            << target << s(R"(target f 4242:4242 0600 "old\n")") << hello
            << QStringLiteral(
                   "Would have updated the file content (owner 4242 -> root, group 4242 -> root, mode 0600 -> 0644)")
            << s(R"(target f 0:0 0644 "hello\n")");
        QTest::newRow("content, wrong attributes")
            << target << s(R"(target f 4242:0 0600 "hello\n")") << hello
            << QStringLiteral("Would have updated attributes (owner 4242 -> root, mode 0600 -> 0644)")
            << s(R"(target f 0:0 0644 "hello\n")");
        QTest::newRow("content, set-user-ID bit")
            << target << s(R"(target f 0:0 4755 "hello\n")")
            << props(R"("ensure":"present","content":"hello\n","owner":"root","group":"root","mode":"0755")")
            << QStringLiteral("Would have updated attributes (mode 4755 -> 0755)")
            << s(R"(target f 0:0 0755 "hello\n")");
        QTest::newRow("empty content, absent")
            << target << QString()
            << props(R"("ensure":"present","content":"","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("Would have created the file") << s(R"(target f 0:0 0644 "")");
        QTest::newRow("empty content, file with content")
            << target << s(R"(target f 0:0 0644 "hello\n")")
            << props(R"("ensure":"present","content":"","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("Would have updated the file content") << s(R"(target f 0:0 0644 "")");
        QTest::newRow("content, numeric ids for root")
            << target << s(R"(target f 0:0 0644 "hello\n")")
            << props(R"("ensure":"present","content":"hello\n","owner":"0","group":"0","mode":"0644")") << QString()
            << s(R"(target f 0:0 0644 "hello\n")");
        QTest::newRow("content, names for numeric ids")
            << target << s(R"(target f 1:1 0644 "hello\n")")
            << props(R"("ensure":"present","content":"hello\n","owner":"daemon","group":"daemon","mode":"0644")")
            << QString() << s(R"(target f 1:1 0644 "hello\n")");
        QTest::newRow("content, ids for named owner")
            << target << s(R"(target f 1:1 0644 "hello\n")")
            << props(R"("ensure":"present","content":"hello\n","owner":"1","group":"1","mode":"644")") << QString()
            << s(R"(target f 1:1 0644 "hello\n")");
        QTest::newRow("content, other named owner")
            << target << s(R"(target f 0:0 0644 "hello\n")")
            << props(R"("ensure":"present","content":"hello\n","owner":"daemon","group":"daemon","mode":"0644")")
            << QStringLiteral("Would have updated attributes (owner root -> daemon, group root -> daemon)")
            << s(R"(target f 1:1 0644 "hello\n")");
        QTest::newRow("content, ids without names")
            << target << s(R"(target f 0:0 0644 "hello\n")")
            << props(R"("ensure":"present","content":"hello\n","owner":"4242","group":"4343","mode":"0644")")
            << QStringLiteral("Would have updated attributes (owner root -> 4242, group root -> 4343)")
            << s(R"(target f 4242:4343 0644 "hello\n")");
        QTest::newRow("content, link to a matching file")
            << target << s(R"(real f 0:0 0644 "hello\n"; target l -> real)") << hello << QString()
            << s(R"(real f 0:0 0644 "hello\n"; target l -> real)");
        QTest::newRow("content, link to another file") << target << s(R"(real f 0:0 0644 "old\n"; target l -> real)")
                                                       << hello << QStringLiteral("Would have updated the file content")
                                                       << s(R"(real f 0:0 0644 "old\n"; target f 0:0 0644 "hello\n")");
        QTest::newRow("content, dangling link")
            << target << s("target l -> nowhere") << hello
            << QStringLiteral("Would have updated the file content (mode 0777 -> 0644)")
            << s(R"(target f 0:0 0644 "hello\n")");
        QTest::newRow("content, directory") << target << s("target d 0:0 0755") << hello << isDirectory << isDirectory;
        QTest::newRow("content, link to a directory")
            << target << s("real d 0:0 0755; target l -> real") << hello << isDirectory << isDirectory;
        QTest::newRow("content, parent missing")
            << QStringLiteral("missing/target") << QString() << hello << QStringLiteral("Would have created the file")
            << QStringLiteral("error: cannot store {path}: {dir}/missing is not a directory");
        QTest::newRow("content, parent is a file")
            << QStringLiteral("file/target") << s(R"(file f 0:0 0644 "x")") << hello
            << QStringLiteral("Would have created the file")
            << QStringLiteral("error: cannot store {path}: {dir}/file is not a directory");

        // ensure: present with source
        const QString source
            = props(R"("ensure":"present","source":"src","owner":"root","group":"root","mode":"0644")");
        QTest::newRow("source, absent") << target << s(R"(src f 0:0 0600 "from source\n")") << source
                                        << QStringLiteral("Would have created the file")
                                        << s(R"(src f 0:0 0600 "from source\n"; target f 0:0 0644 "from source\n")");
        QTest::newRow("source, matching")
            << target << s(R"(src f 0:0 0600 "from source\n"; target f 0:0 0644 "from source\n")") << source
            << QString() << s(R"(src f 0:0 0600 "from source\n"; target f 0:0 0644 "from source\n")");
        QTest::newRow("source, wrong attributes")
            << target << s(R"(src f 0:0 0600 "from source\n"; target f 0:0 0600 "from source\n")") << source
            << QStringLiteral("Would have updated attributes (mode 0600 -> 0644)")
            << s(R"(src f 0:0 0600 "from source\n"; target f 0:0 0644 "from source\n")");
        QTest::newRow("source absolute, wrong content")
            << target << s(R"(files d 0:0 0755; files/src f 0:0 0600 "new\n"; target f 0:0 0644 "old\n")")
            << props(R"("ensure":"present","source":"{dir}/files/src","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("Would have updated the file content")
            << s(R"(files d 0:0 0755; files/src f 0:0 0600 "new\n"; target f 0:0 0644 "new\n")");
        QTest::newRow("source in a subdirectory")
            << target << s(R"(files d 0:0 0755; files/src f 0:0 0600 "new\n")")
            << props(R"("ensure":"present","source":"files/src","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("Would have created the file")
            << s(R"(files d 0:0 0755; files/src f 0:0 0600 "new\n"; target f 0:0 0644 "new\n")");
        const QString sourceMissing = QStringLiteral(
            "error: cannot read the source: cannot open '{dir}/files/missing': No such file or directory");
        QTest::newRow("source missing")
            << target << s(R"(target f 0:0 0644 "old\n")")
            << props(R"("ensure":"present","source":"files/missing","owner":"root","group":"root","mode":"0644")")
            << sourceMissing << sourceMissing;

        // ensure: present managing attributes only
        const QString attributes = props(R"("ensure":"present","owner":"root","group":"root","mode":"0640")");
        QTest::newRow("attributes, matching") << target << s(R"(target f 0:0 0640 "data\n")") << attributes << QString()
                                              << s(R"(target f 0:0 0640 "data\n")");
        QTest::newRow("attributes, wrong attributes")
            << target << s(R"(target f 4242:4242 0600 "data\n")") << attributes
            << QStringLiteral(
                   "Would have updated attributes (owner 4242 -> root, group 4242 -> root, mode 0600 -> 0640)")
            << s(R"(target f 0:0 0640 "data\n")");
        QTest::newRow("attributes, null content, wrong mode")
            << target << s(R"(target f 0:0 0600 "data\n")")
            << props(R"("ensure":"present","content":null,"owner":"root","group":"root","mode":"0640")")
            << QStringLiteral("Would have updated attributes (mode 0600 -> 0640)")
            << s(R"(target f 0:0 0640 "data\n")");
        QTest::newRow("attributes, set-user-ID bit")
            << target << s(R"(target f 0:0 4755 "data\n")")
            << props(R"("ensure":"present","owner":"root","group":"root","mode":"0755")")
            << QStringLiteral("Would have updated attributes (mode 4755 -> 0755)")
            << s(R"(target f 0:0 0755 "data\n")");
        QTest::newRow("attributes, absent")
            << target << QString() << attributes
            << QStringLiteral("Would have created an empty file with requested attributes")
            << s(R"(target f 0:0 0640 "")");
        QTest::newRow("attributes, directory")
            << target << s("target d 0:0 0755") << attributes << isDirectory << isDirectory;
        QTest::newRow("attributes, link to a matching file")
            << target << s(R"(real f 0:0 0640 "data\n"; target l -> real)") << attributes << QString()
            << s(R"(real f 0:0 0640 "data\n"; target l -> real)");
        QTest::newRow("attributes, link to a file with wrong mode")
            << target << s(R"(real f 0:0 0600 "data\n"; target l -> real)") << attributes
            << QStringLiteral("Would have updated attributes (mode 0600 -> 0640)")
            << QStringLiteral("error: cannot set attributes of {path}: {path} is a symbolic link; its target is not "
                              "changed through it");
    }

private Q_SLOTS:
    void forceNeverRemovesRoot()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const bool noop : {true, false}) {
            SpyProvider provider;
            provider.forward = false;
            const LoggedApply outcome = applyFile(
                dir.path(), QStringLiteral("/"), Json::parse(R"({"ensure":"absent","force":true})"), provider, noop);
            QCOMPARE(failure(outcome), QStringLiteral("force cannot be used to remove /"));
            QVERIFY(provider.calls.isEmpty());
            QVERIFY(provider.checksumRequests.empty());
        }
    }

    void refusesOtherProviders()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        OtherProvider provider;
        const LoggedApply outcome = applyFile(
            dir.path(), dir.filePath(QStringLiteral("target")), Json::parse(R"({"ensure":"absent"})"), provider);
        QCOMPARE(failure(outcome), QStringLiteral("provider 'other' is not a file provider"));
    }

    void attributesOnlyNeverReadsContent_data()
    {
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QStringList>("calls");
        QTest::addColumn<bool>("checksum");
        QTest::newRow("attributes, stable")
            << props(R"("ensure":"present","owner":"root","group":"root","mode":"0600")") << QStringList() << false;
        QTest::newRow("attributes, changed")
            << props(R"("ensure":"present","owner":"4242","group":"4242","mode":"0640")")
            << QStringList {QStringLiteral("setAttributes")} << false;
        QTest::newRow("content") << props(
            R"("ensure":"present","content":"data\n","owner":"root","group":"root","mode":"0640")")
                                 << QStringList {QStringLiteral("store")} << true;
        QTest::newRow("directory") << props(R"("ensure":"directory","owner":"root","group":"root","mode":"0755")")
                                   << QStringList() << false;
    }

    void attributesOnlyNeverReadsContent()
    {
        QFETCH(QString, properties);
        QFETCH(QStringList, calls);
        QFETCH(bool, checksum);
        requireRootForOtherOwners();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("target"));
        const bool isDirectory = properties.contains(QStringLiteral("directory"));
        QVERIFY(isDirectory ? QDir(dir.path()).mkdir(QStringLiteral("target")) : writeFile(path, "data\n"));
        QVERIFY(::chmod(local(path).c_str(), isDirectory ? 0755 : 0600) == 0);
        SpyProvider provider;
        const LoggedApply outcome = applyFile(dir.path(), path, parseProperties(properties, dir.path()), provider);
        QCOMPARE(failure(outcome), QString());
        QCOMPARE(provider.calls, calls);
        QCOMPARE(provider.checksumRequests, std::vector<bool>(calls.isEmpty() ? 1 : 2, checksum));
    }

    // Checked as a user who may change the file's attributes but not read it: the apply only works
    // if the content is never opened.
    void attributesOnlyOnUnreadableFile_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("changed");
        QTest::newRow("stable") << QStringLiteral("0000") << false;
        QTest::newRow("mode changed") << QStringLiteral("0200") << true;
    }

    void attributesOnlyOnUnreadableFile()
    {
        QFETCH(QString, mode);
        QFETCH(bool, changed);
        requireRootForOtherOwners();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(::chmod(local(dir.path()).c_str(), 0755) == 0);
        const QString path = dir.filePath(QStringLiteral("secret"));
        QVERIFY(writeFile(path, "secret\n"));
        QVERIFY(::chown(local(path).c_str(), 4242, 4242) == 0 && ::chmod(local(path).c_str(), 0) == 0);
        const struct stat before = lstatOf(path);
        const Json properties
            = {{"ensure", "present"}, {"owner", "4242"}, {"group", "4242"}, {"mode", mode.toStdString()}};
        LoggedApply outcome;
        LoggedApply withContent;
        {
            const FilesystemIdentity identity(4242, 4242);
            outcome = applyFile(dir.path(), path, properties);
            Json contentProperties = properties;
            contentProperties["content"] = "secret\n";
            withContent = applyFile(dir.path(), path, contentProperties, true);
        }
        QCOMPARE(failure(outcome), QString());
        QCOMPARE(outcome.event.changed, changed);
        QVERIFY2(failure(withContent).contains(QStringLiteral("Permission denied")), qPrintable(failure(withContent)));
        const struct stat after = lstatOf(path);
        QCOMPARE(uint(after.st_mode & 07777), mode.toUInt(nullptr, 8));
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
        QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
        QCOMPARE(readFile(path), QByteArray("secret\n"));
    }

    void attributesOnlyKeepsContentAndTimes()
    {
        requireRootForOtherOwners();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("target"));
        QVERIFY(writeFile(path, "produced elsewhere\n"));
        QVERIFY(::chown(local(path).c_str(), 4242, 4242) == 0 && ::chmod(local(path).c_str(), 0600) == 0);
        const struct timespec times[2] = {{1000000000, 0}, {1000000000, 0}};
        QVERIFY(::utimensat(AT_FDCWD, local(path).c_str(), times, 0) == 0);
        const struct stat before = lstatOf(path);
        const LoggedApply outcome = applyFile(
            dir.path(), path, Json::parse(R"({"ensure":"present","owner":"root","group":"root","mode":"0644"})"));
        QCOMPARE(failure(outcome), QString());
        QVERIFY(outcome.event.changed);
        QVERIFY(!outcome.event.diff);
        const struct stat after = lstatOf(path);
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(after.st_mtim.tv_sec, time_t(1000000000));
        QCOMPARE(readFile(path), QByteArray("produced elsewhere\n"));
    }

    void diff_data()
    {
        QTest::addColumn<QByteArray>("current"); // "<absent>" for no file
        QTest::addColumn<QByteArray>("desired");
        QTest::addColumn<bool>("fromSource");
        QTest::addColumn<QString>("diff"); // "<none>" when no diff is expected
        const QString none = QStringLiteral("<none>");
        QTest::newRow("small change") << QByteArray("one\ntwo\nthree\n") << QByteArray("one\n2\nthree\n") << false
                                      << QStringLiteral(
                                             "--- {path}\n+++ {path}\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n");
        QTest::newRow("new file") << QByteArray("<absent>") << QByteArray("a\nb\n") << false
                                  << QStringLiteral("--- /dev/null\n+++ {path}\n@@ -0,0 +1,2 @@\n+a\n+b\n");
        QTest::newRow("from a source") << QByteArray("old\n") << QByteArray("new\n") << true
                                       << QStringLiteral("--- {path}\n+++ {path}\n@@ -1 +1 @@\n-old\n+new\n");
        QTest::newRow("same content, other attributes")
            << QByteArray("same\n") << QByteArray("same\n") << false << none;
        QTest::newRow("new empty file") << QByteArray("<absent>") << QByteArray() << false << none;
        QTest::newRow("binary current") << QByteArray("a\0b", 3) << QByteArray("text\n") << false << none;
        QTest::newRow("binary desired") << QByteArray("text\n") << QByteArray("\xff\xfe\x00", 3) << true << none;
        QTest::newRow("current of 1 MiB") << QByteArray(1024 * 1024, 'a') << QByteArray("short\n") << false << none;
        QTest::newRow("desired of 1 MiB") << QByteArray("short\n") << QByteArray(1024 * 1024, 'a') << false << none;
        QTest::newRow("source of 1 MiB") << QByteArray("short\n") << QByteArray(1024 * 1024, 'a') << true << none;
        QTest::newRow("just under 1 MiB") << QByteArray(1024 * 1024 - 2, 'a') + "\n"
                                          << QByteArray("b\n") << false
                                          << QStringLiteral("--- {path}\n+++ {path}\n@@ -1 +1 @@\n-%1\n+b\n")
                                                 .arg(QString(1024 * 1024 - 2, QLatin1Char('a')));
    }

    void diff()
    {
        QFETCH(QByteArray, current);
        QFETCH(QByteArray, desired);
        QFETCH(bool, fromSource);
        QFETCH(QString, diff);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("target"));
        if (current != "<absent>") {
            QVERIFY(writeFile(path, current));
            QVERIFY(::chmod(local(path).c_str(), 0600) == 0);
        }
        Json properties = {{"ensure", "present"}, {"owner", "root"}, {"group", "root"}, {"mode", "0644"}};
        if (fromSource) {
            QVERIFY(writeFile(dir.filePath(QStringLiteral("source")), desired));
            properties["source"] = "source";
        } else {
            properties["content"] = desired.toStdString();
        }
        const QString expected
            = diff == QStringLiteral("<none>") ? diff : QString(diff).replace(QStringLiteral("{path}"), path);
        for (const bool noop : {true, false}) {
            const LoggedApply outcome = applyFile(dir.path(), path, properties, noop);
            QCOMPARE(failure(outcome), QString());
            QVERIFY(outcome.event.changed);
            QCOMPARE(outcome.event.diff ? q(*outcome.event.diff) : QStringLiteral("<none>"), expected);
        }
        QCOMPARE(readFile(path), desired);
    }

    void diffOnlyWhenAllowed_data()
    {
        QTest::addColumn<bool>("allowed");
        QTest::newRow("allowed") << true;
        QTest::newRow("not allowed") << false;
    }

    void diffOnlyWhenAllowed()
    {
        QFETCH(bool, allowed);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("target"));
        QVERIFY(writeFile(path, "old\n"));
        std::vector<std::filesystem::path> asked;
        const auto mayShowDiff = [&](const std::filesystem::path &file) {
            asked.push_back(file);
            return allowed;
        };
        const LoggedApply outcome = applyFile(dir.path(), path,
            Json::parse(R"({"ensure":"present","content":"new\n","owner":"root","group":"root","mode":"0644"})"), true,
            mayShowDiff);
        QCOMPARE(failure(outcome), QString());
        QCOMPARE(q(outcome.event.noopMessage), QStringLiteral("Would have updated the file content"));
        QCOMPARE(outcome.event.diff.has_value(), allowed);
        QCOMPARE(asked.size(), std::size_t(1));
        QCOMPARE(q(asked.front().string()), path);
    }

    // A source far larger than memory would allow to read whole; sparse, so it costs no disk.
    void largeSparseSource()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString source = dir.filePath(QStringLiteral("source"));
        QVERIFY(writeFile(source, "start"));
        QVERIFY(::truncate(local(source).c_str(), 64 * 1024 * 1024) == 0);
        const QString path = dir.filePath(QStringLiteral("target"));
        const Json properties
            = Json::parse(R"({"ensure":"present","source":"source","owner":"root","group":"root","mode":"0644"})");
        const LoggedApply created = applyFile(dir.path(), path, properties);
        QCOMPARE(failure(created), QString());
        QVERIFY(created.event.changed);
        QVERIFY(!created.event.diff);
        const LoggedApply again = applyFile(dir.path(), path, properties, true);
        QCOMPARE(failure(again), QString());
        QVERIFY(!again.event.changed);
        QCOMPARE(
            q(again.event.status["metadata"]["checksum"].get<std::string>()), q(sha256File(local(source)).value()));
    }

    void statusInEvent()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("target"));
        const Json properties
            = Json::parse(R"({"ensure":"present","content":"hello\n","owner":"root","group":"root","mode":"0640"})");

        const LoggedApply preview = applyFile(dir.path(), path, properties, true);
        QCOMPARE(failure(preview), QString());
        QCOMPARE(q(preview.event.finalEnsure), QStringLiteral("absent"));
        const Json absent = {{"ensure", "absent"},
            {"metadata",
                {{"name", local(path)}, {"checksum", nullptr}, {"owner", nullptr}, {"group", nullptr}, {"uid", nullptr},
                    {"gid", nullptr}, {"mode", nullptr}, {"size", nullptr}, {"mtime", nullptr}, {"provider", "posix"},
                    {"link", false}}}};
        QCOMPARE(q(preview.event.status.dump()), q(absent.dump()));

        const LoggedApply applied = applyFile(dir.path(), path, properties);
        QCOMPARE(failure(applied), QString());
        QCOMPARE(q(applied.event.finalEnsure), QStringLiteral("present"));
        const Json &status = applied.event.status;
        QCOMPARE(q(status["ensure"].get<std::string>()), QStringLiteral("present"));
        const Json &metadata = status["metadata"];
        QStringList keys;
        for (const auto &item : metadata.items())
            keys << q(item.key());
        QCOMPARE(keys.join(QLatin1Char(',')),
            QStringLiteral("name,checksum,owner,group,uid,gid,mode,size,mtime,provider,link"));
        QCOMPARE(q(metadata["name"].get<std::string>()), path);
        QCOMPARE(q(metadata["checksum"].get<std::string>()), q(sha256Hex("hello\n")));
        QCOMPARE(q(metadata["owner"].get<std::string>()), QStringLiteral("root"));
        QCOMPARE(q(metadata["group"].get<std::string>()), QStringLiteral("root"));
        QCOMPARE(metadata["uid"].get<int>(), 0);
        QCOMPARE(metadata["gid"].get<int>(), 0);
        QCOMPARE(q(metadata["mode"].get<std::string>()), QStringLiteral("0640"));
        QCOMPARE(metadata["size"].get<int>(), 6);
        QCOMPARE(q(metadata["provider"].get<std::string>()), QStringLiteral("posix"));
        QCOMPARE(metadata["link"].get<bool>(), false);
        const struct stat written = lstatOf(path);
        std::tm utc {};
        QVERIFY(::gmtime_r(&written.st_mtim.tv_sec, &utc));
        char seconds[32];
        std::strftime(seconds, sizeof seconds, "%Y-%m-%dT%H:%M:%S", &utc);
        QString fraction = QStringLiteral(".%1").arg(written.st_mtim.tv_nsec, 9, 10, QLatin1Char('0'));
        while (fraction.endsWith(QLatin1Char('0')))
            fraction.chop(1);
        if (fraction == QStringLiteral("."))
            fraction.clear();
        QCOMPARE(q(metadata["mtime"].get<std::string>()), s(seconds) + fraction + QStringLiteral("Z"));
    }

    void statusOfLinkInEvent()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(buildTree(dir.path(), s(R"(real f 0:0 0644 "x"; target l -> real)")));
        const LoggedApply outcome = applyFile(
            dir.path(), dir.filePath(QStringLiteral("target")), Json::parse(R"({"ensure":"absent"})"), true);
        QCOMPARE(failure(outcome), QString());
        QCOMPARE(q(outcome.event.status["ensure"].get<std::string>()), QStringLiteral("present"));
        QCOMPARE(outcome.event.status["metadata"]["link"].get<bool>(), true);
        QVERIFY(outcome.event.status["metadata"]["checksum"].is_null());
    }

    void desiredStateNotAchieved_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("finalEnsure");
        QTest::newRow("file not created")
            << QString() << props(R"("ensure":"present","content":"x","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("desired state not achieved: ensure absent -> present") << QStringLiteral("absent");
        QTest::newRow("content not written")
            << s(R"(target f 0:0 0600 "old")")
            << props(R"("ensure":"present","content":"new","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("desired state not achieved: content sha256 %1 -> %2, mode 0600 -> 0644")
                   .arg(q(sha256Hex("old").substr(0, 12)), q(sha256Hex("new").substr(0, 12)))
            << QStringLiteral("present");
        QTest::newRow("attributes not set")
            << s(R"(target f 4242:0 0600 "old")")
            << props(R"("ensure":"present","owner":"root","group":"root","mode":"0640")")
            << QStringLiteral("desired state not achieved: owner 4242 -> root, mode 0600 -> 0640")
            << QStringLiteral("present");
        QTest::newRow("directory not created")
            << QString() << props(R"("ensure":"directory","owner":"root","group":"root","mode":"0755")")
            << QStringLiteral("desired state not achieved: ensure absent -> directory") << QStringLiteral("absent");
        QTest::newRow("file not removed")
            << s(R"(target f 0:0 0600 "old")") << props(R"("ensure":"absent")")
            << QStringLiteral("desired state not achieved: ensure present -> absent") << QStringLiteral("present");
    }

    void desiredStateNotAchieved()
    {
        QFETCH(QString, setup);
        QFETCH(QString, properties);
        QFETCH(QString, error);
        QFETCH(QString, finalEnsure);
        requireRootForOtherOwners();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(buildTree(dir.path(), setup));
        IneffectiveFileProvider provider;
        const LoggedApply outcome = applyFile(
            dir.path(), dir.filePath(QStringLiteral("target")), parseProperties(properties, dir.path()), provider);
        QCOMPARE(failure(outcome), error);
        QVERIFY(outcome.event.changed);
        QCOMPARE(q(outcome.event.finalEnsure), finalEnsure);
        QCOMPARE(q(outcome.event.status["ensure"].get<std::string>()), finalEnsure);
    }

    void noopMessageIsLogged()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const LoggedApply outcome = applyFile(dir.path(), dir.filePath(QStringLiteral("target")),
            Json::parse(R"({"ensure":"directory","owner":"root","group":"root","mode":"0755"})"), true);
        QCOMPARE(failure(outcome), QString());
        QCOMPARE(outcome.logged, std::vector<std::string> {"Would have created directory"});
    }

    void registration()
    {
        Catalog catalog;
        registerFileResources(catalog);
        const ResourceType *type = catalog.type("file");
        QVERIFY(type);
        QCOMPARE(q(std::string(type->name())), QStringLiteral("file"));
        QCOMPARE(q(type->defaultEnsure()), QString());
        const auto selected = catalog.providers().select("file", Json::object(), LazyFacts());
        QVERIFY(selected.ok());
        QCOMPARE(q(std::string(selected.value()->name())), QStringLiteral("posix"));
    }
};

CCM_TEST_GUILESS_MAIN(TestFileTypeBehaviour)
#include "tst_file_type_behaviour.moc"
