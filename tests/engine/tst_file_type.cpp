// SPDX-License-Identifier: Apache-2.0
#include "file_type_test_support.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

class TestFileType : public QObject {
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
    // A checksum read ahead stands in for reading the file only while the file is the one that was
    // read: the decisions are those reading it would give.
    void readAheadChecksumsDecideAsReadingDoes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<std::filesystem::path> paths;
        for (int i = 0; i < 40; ++i) {
            const QString path = dir.filePath(QStringLiteral("f%1").arg(i));
            QVERIFY(writeFile(path, "same\n"));
            QVERIFY(::chmod(local(path).c_str(), 0644) == 0);
            paths.push_back(local(path));
        }
        ChecksumReadAhead readAhead(paths, std::chrono::nanoseconds(0));
        readAhead.waitUntilDone();
        // Changed after it was read ahead; longer, so that its size tells.
        QVERIFY(writeFile(dir.filePath(QStringLiteral("f7")), "different\n"));

        const Json properties {{"ensure", "present"}, {"content", "same\n"}, {"owner", std::to_string(::getuid())},
            {"group", std::to_string(::getgid())}, {"mode", "0644"}};
        PosixFileProvider provider;
        for (std::size_t i = 0; i < paths.size(); ++i) {
            RecordingRunner runner;
            RecordingLogger log;
            const LazyFacts facts;
            ApplyContext context {.noop = true,
                .runner = runner,
                .log = log,
                .facts = facts,
                .workingDirectory = local(dir.path()),
                .mayShowDiff = {},
                .runChildManifest = {},
                .data = nullptr,
                .environ = nullptr,
                .kvGet = {},
                .checksumReadAhead = &readAhead};
            TransactionEvent event;
            const auto applied = FileType().apply(paths[i], properties, provider, context, event);
            QVERIFY2(applied.ok(), applied.ok() ? "" : applied.error().message.c_str());
            QCOMPARE(event.changed, i == 7);
            QCOMPARE(q(event.status["metadata"]["checksum"].get<std::string>()), q(sha256File(paths[i]).value()));
        }
        QCOMPARE(readAhead.hits(), paths.size() - 1);
    }

    void decisionTableInNoop_data() { decisionTable(); }

    void decisionTableInNoop()
    {
        QFETCH(QString, name);
        QFETCH(QString, setup);
        QFETCH(QString, properties);
        QFETCH(QString, noop);
        requireRootForOtherOwners();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(buildTree(dir.path(), setup));
        const QString before = describeTree(dir.path());
        QStringList entries = setup.split(QStringLiteral("; "), Qt::SkipEmptyParts);
        entries.sort();
        QCOMPARE(before, entries.join(QStringLiteral("; ")));
        const QString path = dir.filePath(name);

        const LoggedApply outcome = applyFile(dir.path(), path, parseProperties(properties, dir.path()), true);
        if (noop.startsWith(QStringLiteral("error: "))) {
            QCOMPARE(failure(outcome), substituted(noop.mid(7), dir.path(), path));
            QVERIFY(!outcome.event.changed);
        } else {
            QCOMPARE(failure(outcome), QString());
            QCOMPARE(q(outcome.event.noopMessage), noop);
            QCOMPARE(outcome.event.changed, !noop.isEmpty());
        }
        QCOMPARE(describeTree(dir.path()), before);
    }

    void decisionTableForReal_data() { decisionTable(); }

    void decisionTableForReal()
    {
        QFETCH(QString, name);
        QFETCH(QString, setup);
        QFETCH(QString, properties);
        QFETCH(QString, noop);
        QFETCH(QString, after);
        requireRootForOtherOwners();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(buildTree(dir.path(), setup));
        const QString before = describeTree(dir.path());
        const QString path = dir.filePath(name);
        const Json resource = parseProperties(properties, dir.path());

        const LoggedApply first = applyFile(dir.path(), path, resource);
        QCOMPARE(q(first.event.noopMessage), QString());
        if (after.startsWith(QStringLiteral("error: "))) {
            QCOMPARE(failure(first), substituted(after.mid(7), dir.path(), path));
            QVERIFY(!first.event.changed);
            QCOMPARE(describeTree(dir.path()), before);
            return;
        }
        QCOMPARE(failure(first), QString());
        QCOMPARE(first.event.changed, !noop.isEmpty());
        QCOMPARE(describeTree(dir.path()), after);

        const LoggedApply second = applyFile(dir.path(), path, resource);
        QCOMPARE(failure(second), QString());
        QVERIFY(!second.event.changed);
        QCOMPARE(describeTree(dir.path()), after);
    }

    void invalidProperties_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("error");
        const QString path = QStringLiteral("{dir}/target");
        QTest::newRow("relative name") << QStringLiteral("target") << props(R"("ensure":"absent")")
                                       << QStringLiteral("file name 'target' must be an absolute path starting with /");
        QTest::newRow("name with ..") << QStringLiteral("{dir}/a/../target") << props(R"("ensure":"absent")")
                                      << QStringLiteral("file name '{dir}/a/../target' must be a clean path without "
                                                        "'.', '..', '//' or a trailing /");
        QTest::newRow("name with a trailing slash")
            << QStringLiteral("{dir}/target/") << props(R"("ensure":"absent")")
            << QStringLiteral("file name '{dir}/target/' must be a clean path without '.', '..', '//' or a trailing /");
        QTest::newRow("empty name") << QString() << props(R"("ensure":"absent")")
                                    << QStringLiteral("file name '' must be an absolute path starting with /");
        QTest::newRow("properties not a map")
            << path << QStringLiteral("[]") << QStringLiteral("the properties must be a map, not a list");
        QTest::newRow("ensure missing") << path << props(R"("owner":"root","group":"root","mode":"0644")")
                                        << QStringLiteral("ensure is required (present, absent, directory)");
        QTest::newRow("ensure unknown") << path << props(R"("ensure":"running")")
                                        << QStringLiteral("ensure 'running' is not one of present, absent, directory");
        QTest::newRow("ensure not a string")
            << path << props(R"("ensure":1)") << QStringLiteral("ensure must be a string, not an integer");
        QTest::newRow("owner missing") << path << props(R"("ensure":"present","group":"root","mode":"0644")")
                                       << QStringLiteral("owner is required unless ensure is absent");
        QTest::newRow("owner null") << path << props(R"("ensure":"present","owner":null,"group":"root","mode":"0644")")
                                    << QStringLiteral("owner is required unless ensure is absent");
        QTest::newRow("owner not a string")
            << path << props(R"("ensure":"present","owner":0,"group":"root","mode":"0644")")
            << QStringLiteral("owner must be a string, not an integer");
        QTest::newRow("group empty") << path << props(R"("ensure":"directory","owner":"root","group":"","mode":"0644")")
                                     << QStringLiteral("group must not be empty");
        QTest::newRow("mode missing") << path << props(R"("ensure":"present","owner":"root","group":"root")")
                                      << QStringLiteral("mode is required unless ensure is absent");
        QTest::newRow("mode from a template, not octal")
            << path << props(R"("ensure":"present","owner":"root","group":"root","mode":"rw-r--r--")")
            << QStringLiteral("mode 'rw-r--r--' is not octal: 'r' is not a digit from 0 to 7");
        QTest::newRow("mode with 8") << path
                                     << props(R"("ensure":"present","owner":"root","group":"root","mode":"0888")")
                                     << QStringLiteral("mode '0888' is not octal: '8' is not a digit from 0 to 7");
        QTest::newRow("mode with setuid")
            << path << props(R"("ensure":"present","owner":"root","group":"root","mode":"4755")")
            << QStringLiteral("mode '4755' is above 0777; setuid, setgid and sticky bits cannot be set through mode");
        QTest::newRow("mode unquoted") << path
                                       << props(R"("ensure":"present","owner":"root","group":"root","mode":644)")
                                       << QStringLiteral("mode must be a quoted string such as \"0644\"; unquoted, "
                                                         "YAML reads it as the number 644");
        QTest::newRow("content not a string")
            << path << props(R"("ensure":"present","content":["a"],"owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("content must be a string or null, not a list");
        QTest::newRow("source not a string")
            << path << props(R"("ensure":"present","source":true,"owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("source must be a string, not a boolean");
        QTest::newRow("content and source")
            << path
            << props(R"("ensure":"present","content":"","source":"src","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("content and source are mutually exclusive; keep one of them");
        QTest::newRow("source empty")
            << path << props(R"("ensure":"present","source":"","owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("source must not be empty; leave it out to manage only attributes");
        QTest::newRow("force with present")
            << path << props(R"("ensure":"present","force":true,"owner":"root","group":"root","mode":"0644")")
            << QStringLiteral("force is only valid with ensure: absent (ensure is present)");
        QTest::newRow("force with directory")
            << path << props(R"("ensure":"directory","force":true,"owner":"root","group":"root","mode":"0755")")
            << QStringLiteral("force is only valid with ensure: absent (ensure is directory)");
        QTest::newRow("force not a boolean") << path << props(R"("ensure":"absent","force":"yes")")
                                             << QStringLiteral("force must be true or false, not a string");
        QTest::newRow("unknown user") << path
                                      << props(
                                             R"("ensure":"present","owner":"nosuchuser","group":"root","mode":"0644")")
                                      << QStringLiteral("could not lookup user 'nosuchuser'");
        QTest::newRow("unknown group")
            << path << props(R"("ensure":"directory","owner":"root","group":"nosuchgroup","mode":"0755")")
            << QStringLiteral("could not lookup group 'nosuchgroup'");
    }

    void invalidProperties()
    {
        QFETCH(QString, name);
        QFETCH(QString, properties);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const bool noop : {true, false}) {
            SpyProvider provider;
            const QString path = QString(name).replace(QStringLiteral("{dir}"), dir.path());
            const LoggedApply outcome
                = applyFile(dir.path(), path, parseProperties(properties, dir.path()), provider, noop);
            QCOMPARE(failure(outcome), QString(error).replace(QStringLiteral("{dir}"), dir.path()));
            QVERIFY(!outcome.event.changed);
            QVERIFY(provider.calls.isEmpty());
            QCOMPARE(describeTree(dir.path()), QString());
        }
    }

    // Refused before the provider is asked anything; the provider here would only pretend to remove.
};

CCM_TEST_GUILESS_MAIN(TestFileType)
#include "tst_file_type.moc"
