// SPDX-License-Identifier: Apache-2.0
// Bundles: what a manifest reaches, what is reported about references a bundle cannot hold,
// upstream normalisation, reproducible writing, and unpacking under upstream's rules with hostile
// archives built member by member.
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "core/model/manifest.h"
#include "core/model/validator.h"
#include "test_main.h"
#include "test_support.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace ccm;
using namespace ccm::test;

namespace {

using Files = QMap<QString, QByteArray>;

/// Writes each file below dir; fails the test run when it cannot.
void writeFiles(const QTemporaryDir &dir, const Files &files)
{
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString path = dir.filePath(it.key());
        QDir().mkpath(QFileInfo(path).path());
        if (!writeFile(path, it.value()))
            qFatal("cannot write %s", qPrintable(path));
    }
}

Files files(std::initializer_list<std::pair<const char *, QByteArray>> list)
{
    Files out;
    for (const auto &[name, content] : list)
        out.insert(QString::fromUtf8(name), content);
    return out;
}

QStringList names(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *name : list)
        out << QString::fromUtf8(name);
    return out;
}

QStringList memberPaths(const BundlePlan &plan)
{
    QStringList paths;
    for (const BundleMember &member : plan.members)
        paths << q(member.path);
    return paths;
}

QStringList findingLines(const BundlePlan &plan)
{
    QStringList lines;
    for (const BundleFinding &finding : plan.findings)
        lines << q(formatBundleFinding(finding));
    return lines;
}

/// One member of a hand-built archive.
struct Member {
    QByteArray path;
    unsigned type = AE_IFREG;
    QByteArray content;
    QByteArray link; ///< symlink target, or the hard link's original
};

/// Writes members as a gzip tar, as they are: no checks, so hostile archives can be built.
void writeArchive(const QString &path, const QList<Member> &members)
{
    archive *writer = archive_write_new();
    archive_write_set_format_pax_restricted(writer);
    archive_write_add_filter_gzip(writer);
    QVERIFY(archive_write_open_filename(writer, path.toLocal8Bit().constData()) == ARCHIVE_OK);
    for (const Member &member : members) {
        archive_entry *entry = archive_entry_new();
        archive_entry_set_pathname(entry, member.path.constData());
        archive_entry_set_filetype(entry, member.type);
        archive_entry_set_perm(entry, 0644);
        if (member.type == AE_IFLNK)
            archive_entry_set_symlink(entry, member.link.constData());
        else if (!member.link.isEmpty())
            archive_entry_set_hardlink(entry, member.link.constData());
        if (member.type == AE_IFCHR)
            archive_entry_set_rdev(entry, makedev(1, 3));
        archive_entry_set_size(entry, member.type == AE_IFREG && member.link.isEmpty() ? member.content.size() : 0);
        QCOMPARE(archive_write_header(writer, entry), ARCHIVE_OK);
        if (!member.content.isEmpty())
            archive_write_data(writer, member.content.constData(), size_t(member.content.size()));
        archive_entry_free(entry);
    }
    archive_write_close(writer);
    archive_write_free(writer);
}

QByteArray sha256Line(const QByteArray &content, const QByteArray &name)
{
    return QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex() + "  " + name + '\n';
}

constexpr char kSimpleManifest[] = "ccm:\n  resources:\n    - package:\n        - vim:\n            ensure: present\n";

/// Runs a program to its end; its exit code, or -1 when it did not finish.
int runProgram(const QString &program, const QStringList &arguments, const QString &directory, QByteArray *output)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForFinished(60000))
        return -1;
    if (output)
        *output = process.readAll();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

} // namespace

Q_DECLARE_METATYPE(Member)

class TestBundle : public QObject {
    Q_OBJECT

private slots:
    void collectsWhatTheManifestReaches_data()
    {
        QTest::addColumn<Files>("files");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("file source") << files(
            {{"site.yaml",
                 "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n"
                 "            ensure: present\n            owner: root\n            group: root\n"
                 "            mode: \"0644\"\n            source: files/motd\n"},
                {"files/motd", "hello\n"}, {"files/unused", "x"}})
                                     << names({"files/motd", "manifest.yaml"});
        QTest::newRow("source from the block's defaults") << files(
            {{"site.yaml",
                 "ccm:\n  resources:\n    - file:\n        - defaults:\n            source: files/motd\n"
                 "        - /etc/motd:\n            ensure: present\n            owner: root\n            group: root\n"
                 "            mode: \"0644\"\n"},
                {"files/motd", "hello\n"}}) << names({"files/motd", "manifest.yaml"});
        QTest::newRow("readFile and file in content and data") << files(
            {{"site.yaml",
                 "data:\n  banner: \"{{ file('files/banner') }}\"\nccm:\n  resources:\n    - file:\n"
                 "        - /etc/motd:\n            ensure: present\n            owner: root\n            group: root\n"
                 "            mode: \"0644\"\n"
                 "            content: \"{{ readFile(\\\"files/motd\\\") }}\"\n"},
                {"files/motd", "hello\n"},
                {"files/banner", "b\n"}}) << names({"files/banner", "files/motd", "manifest.yaml"});
        QTest::newRow("template file and the files it reads")
            << files({{"site.yaml",
                          "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            ensure: present\n"
                          "            owner: root\n            group: root\n            mode: \"0644\"\n"
                          "            content: \"{{ template('t/motd.templ') }}\"\n"},
                   {"t/motd.templ", "Host {{ readFile('files/name') }}\n"}, {"files/name", "web\n"}})
            << names({"files/name", "manifest.yaml", "t/motd.templ"});
        QTest::newRow("jet files through jet() and template()") << files(
            {{"site.yaml",
                 "data:\n  a: \"{{ jet('t/a.jet') }}\"\n  b: \"{{ template('t/b.jet') }}\"\n"
                 "  c: \"{{ jet('t/c.jet', '<<', '>>') }}\"\nccm:\n  resources: []\n"},
                {"t/a.jet", "[[ readFile(\"files/a\") ]]"}, {"t/b.jet", "b"},
                {"t/c.jet", "<< file(\"files/c\") >> [[ readFile(\"files/not-code\") ]]"}, {"files/a", "a"},
                {"files/c", "c"}}) << names({"files/a", "files/c", "manifest.yaml", "t/a.jet", "t/b.jet", "t/c.jet"});
        QTest::newRow("resources_jet_file and what it reads") << files(
            {{"site.yaml", "ccm:\n  resources_jet_file: res/resources.jet\n"},
                {"res/resources.jet", "- package:\n    - \"[[ readFile(\"files/pkg\") ]]\": {}\n"},
                {"files/pkg", "vim"}}) << names({"files/pkg", "manifest.yaml", "res/resources.jet"});
        QTest::newRow("scaffold source directory")
            << files({{"site.yaml",
                          "ccm:\n  resources:\n    - scaffold:\n        - /etc/app:\n"
                          "            ensure: present\n            source: tpl/app\n"},
                   {"tpl/app/a.conf", "a"}, {"tpl/app/sub/b.conf", "b"}, {"tpl/other", "x"}})
            << names({"manifest.yaml", "tpl/app/a.conf", "tpl/app/sub/b.conf"});
        QTest::newRow("apply children with their own files")
            << files({{"site.yaml", "ccm:\n  resources:\n    - apply:\n        - parts/child.yaml: {}\n"},
                   {"parts/child.yaml",
                       "ccm:\n  resources:\n    - file:\n        - /etc/x:\n"
                       "            ensure: present\n            owner: root\n            group: root\n"
                       "            mode: \"0644\"\n            source: files/x\n"
                       "    - apply:\n        name: ../common/grandchild.yaml\n"},
                   {"parts/files/x", "x"},
                   {"common/grandchild.yaml",
                       "ccm:\n  resources:\n    - file:\n        - /etc/y:\n"
                       "            ensure: present\n            owner: root\n"
                       "            group: root\n            mode: \"0644\"\n"
                       "            content: \"{{ readFile('y.txt') }}\"\n"},
                   {"common/y.txt", "y"}})
            << names({"common/grandchild.yaml", "common/y.txt", "manifest.yaml", "parts/child.yaml", "parts/files/x"});
    }

    void collectsWhatTheManifestReaches()
    {
        QFETCH(Files, files);
        QFETCH(QStringList, expected);
        QTemporaryDir dir;
        writeFiles(dir, files);
        const BundlePlan plan = planBundle(dir.filePath(QStringLiteral("site.yaml")).toStdString());
        QVERIFY2(plan.findings.empty(), qPrintable(findingLines(plan).join(QLatin1Char('\n'))));
        QCOMPARE(memberPaths(plan), expected);
    }

    void includeAddsFilesByHand()
    {
        QTemporaryDir dir;
        writeFiles(dir, files({{"site.yaml", kSimpleManifest}, {"extra/a", "a"}, {"extra/b/c", "c"}, {"one", "1"}}));
        BundleOptions options;
        options.includes
            = {dir.filePath(QStringLiteral("extra")).toStdString(), dir.filePath(QStringLiteral("one")).toStdString()};
        const BundlePlan plan = planBundle(dir.filePath(QStringLiteral("site.yaml")).toStdString(), options);
        QVERIFY(plan.ok());
        QCOMPARE(memberPaths(plan), names({"extra/a", "extra/b/c", "manifest.yaml", "one"}));

        options.includes = {dir.path().toStdString()};
        const BundlePlan whole = planBundle(dir.filePath(QStringLiteral("site.yaml")).toStdString(), options);
        QVERIFY2(whole.ok(), qPrintable(findingLines(whole).join(QLatin1Char('\n'))));
        QCOMPARE(memberPaths(whole), names({"extra/a", "extra/b/c", "manifest.yaml", "one", "site.yaml"}));

        options.includes = {QDir::rootPath().toStdString() + "etc/hostname"};
        const BundlePlan outside = planBundle(dir.filePath(QStringLiteral("site.yaml")).toStdString(), options);
        QVERIFY(!outside.ok());
        QVERIFY2(
            findingLines(outside).join(QLatin1Char('\n')).contains(QLatin1String("leaves the manifest's directory")),
            qPrintable(findingLines(outside).join(QLatin1Char('\n'))));
    }

    void reportsReferencesItCannotHold_data()
    {
        QTest::addColumn<Files>("files");
        QTest::addColumn<QByteArray>("expected");

        const auto fileWith = [](const char *property) {
            return QByteArray("ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            ensure: present\n"
                              "            owner: root\n            group: root\n            mode: \"0644\"\n"
                              "            ")
                + property + '\n';
        };
        QTest::newRow("source leaves the directory")
            << files({{"site.yaml", fileWith("source: ../outside")}})
            << QByteArray("site.yaml:9:21: error: file#/etc/motd: source '../outside' leaves the manifest's directory");
        QTest::newRow("source computed at run time")
            << files({{"site.yaml", fileWith("source: \"files/{{ Facts.host.info.hostname }}\"")}})
            << QByteArray("site.yaml:9:21: warning: file#/etc/motd: source 'files/{{ Facts.host.info.hostname }}' is "
                          "computed at "
                          "run time");
        QTest::newRow("absolute source")
            << files({{"site.yaml", fileWith("source: /etc/hostname")}})
            << QByteArray("site.yaml:9:21: warning: file#/etc/motd: source '/etc/hostname' is an absolute path");
        QTest::newRow("missing source")
            << files({{"site.yaml", fileWith("source: files/none")}})
            << QByteArray("site.yaml:9:21: error: file#/etc/motd: source 'files/none': no such file");
        QTest::newRow("readFile argument computed")
            << files({{"site.yaml", fileWith("content: \"{{ readFile(Data.file) }}\"")}})
            << QByteArray("site.yaml:9:35: warning: file#/etc/motd: content: the argument of readFile() is computed at "
                          "run time");
        QTest::newRow("readFile leaves the directory")
            << files({{"site.yaml", fileWith("content: \"x {{ readFile('../../etc/passwd') }}\"")}})
            << QByteArray("site.yaml:9:37: error: file#/etc/motd: content: readFile() '../../etc/passwd' leaves the "
                          "manifest's "
                          "directory");
        QTest::newRow("template file in data leaves the directory")
            << files({{"site.yaml", "data:\n  motd: \"{{ template('../x.templ') }}\"\nccm:\n  resources: []\n"}})
            << QByteArray("site.yaml:2:22: error: data.motd: template() '../x.templ' leaves the manifest's directory");
        QTest::newRow("child manifest leaves the directory")
            << files({{"site.yaml", "ccm:\n  resources:\n    - apply:\n        - ../other.yaml: {}\n"}})
            << QByteArray(
                   "site.yaml:4:11: error: apply#../other.yaml: child manifest '../other.yaml' leaves the manifest's "
                   "directory");
        QTest::newRow("child's file leaves the bundle's root")
            << files({{"site.yaml", "ccm:\n  resources:\n    - apply:\n        - parts/child.yaml: {}\n"},
                   {"parts/child.yaml",
                       "ccm:\n  resources:\n    - file:\n        - /etc/x:\n"
                       "            ensure: present\n            owner: root\n            group: root\n"
                       "            mode: \"0644\"\n            source: ../../x\n"}})
            << QByteArray(
                   "parts/child.yaml:9:21: error: file#/etc/x: source '../../x' leaves the manifest's directory");
        QTest::newRow("error in a template file")
            << files({{"site.yaml", fileWith("content: \"{{ template('t/a.templ') }}\"")},
                   {"t/a.templ", "line one\n  {{ readFile('/etc/shadow') }}\n"}})
            << QByteArray("t/a.templ:2:15: warning: template t/a.templ: readFile() '/etc/shadow' is an absolute path");
    }

    void reportsReferencesItCannotHold()
    {
        QFETCH(Files, files);
        QFETCH(QByteArray, expected);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("root")));
        Files inRoot;
        for (auto it = files.begin(); it != files.end(); ++it)
            inRoot.insert(QStringLiteral("root/") + it.key(), it.value());
        writeFiles(dir, inRoot);
        // Messages name files as the command line named the manifest: here relative to dir.
        QVERIFY(QDir::setCurrent(dir.filePath(QStringLiteral("root"))));
        const BundlePlan plan = planBundle("site.yaml");
        QVERIFY(QDir::setCurrent(QDir::tempPath()));
        const QByteArray lines = findingLines(plan).join(QLatin1Char('\n')).toUtf8();
        QVERIFY2(lines.contains(expected), lines.constData());
        QCOMPARE(plan.ok(), !expected.contains(": error: "));
    }

    void refusesAnInvalidManifest()
    {
        QTemporaryDir dir;
        writeFiles(dir,
            files({{"site.yaml", "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            mode: 644\n"}}));
        const BundlePlan plan = planBundle(dir.filePath(QStringLiteral("site.yaml")).toStdString());
        QVERIFY(!plan.ok());
        QVERIFY(!writeBundle(plan, dir.filePath(QStringLiteral("out.tar.gz")).toStdString()));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("out.tar.gz"))));
    }

    void normalisesForUpstream_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected");

        const QByteArray head = "# site\nccm:\n  resources:\n";
        QTest::newRow("valid text unchanged")
            << head + "    - file:\n        - /a:\n            mode: \"0644\" # keep\n"
            << head + "    - file:\n        - /a:\n            mode: \"0644\" # keep\n";
        QTest::newRow("short and 0o modes") << head
                + "    - file:\n        - /a:\n            mode: \"644\"   # owner rw\n"
                  "        - /b: {mode: '0o755', owner: root}\n"
                                            << head
                + "    - file:\n        - /a:\n            mode: \"0644\"   # owner rw\n"
                  "        - /b: {mode: \"0755\", owner: root}\n";
        QTest::newRow("mode in defaults and single form") << head
                + "    - file:\n        - defaults:\n            mode: '640'\n        - /a: {}\n"
                  "    - file:\n        name: /b\n        mode: \"0o600\"\n"
                                                          << head
                + "    - file:\n        - defaults:\n            mode: \"0640\"\n        - /a: {}\n"
                  "    - file:\n        name: /b\n        mode: \"0600\"\n";
        QTest::newRow("anchored mode left to the author")
            << head + "    - file:\n        - /a:\n            mode: &m \"644\"\n        - /b:\n            mode: *m\n"
            << head + "    - file:\n        - /a:\n            mode: &m \"644\"\n        - /b:\n            mode: *m\n";
        QTest::newRow("null written on the next line left as it is")
            << head + "    - service:\n        - cron:\n            null\n"
            << head + "    - service:\n        - cron:\n            null\n";
        QTest::newRow("refresh_only") << head
                + "    - exec:\n        - /bin/true:\n            refresh_only: true  # old\n"
                                      << head
                + "    - exec:\n        - /bin/true:\n            refreshonly: true  # old\n";
        QTest::newRow("null bodies") << head
                + "    - package:\n        - vim:\n        - curl: null # c\n        - \"git\": ~\n"
                                     << head
                + "    - package:\n        - vim: {}\n        - curl: {} # c\n        - \"git\": {}\n";
        QTest::newRow("null sections") << QByteArray("data:\nhierarchy: # none\noverrides: ~\nccm:\n  resources:\n")
                                       << QByteArray(
                                              "data: {}\nhierarchy: {} # none\noverrides: {}\nccm:\n  resources: []\n");
        QTest::newRow("null settings") << QByteArray(
            "ccm:\n  pre_message:\n  fail_on_error: ~ # default\n  post_message: null\n  resources: []\n")
                                       << QByteArray("ccm:\n  resources: []\n");
        QTest::newRow("ccm left empty by removing its settings") << QByteArray(
            "data: {}\nccm:\n  pre_message:\n# the end\n") << QByteArray("data: {}\nccm: {}\n# the end\n");
        QTest::newRow("null settings, flow style") << QByteArray("ccm: {pre_message: ~, resources: []}\n")
                                                   << QByteArray("ccm: {pre_message: ~, resources: []}\n");
    }

    void normalisesForUpstream()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        const std::string out = normaliseForUpstream(input.toStdString());
        QCOMPARE(QByteArray::fromStdString(out), expected);
        const LoadedManifest loaded = loadManifest(out);
        QVERIFY(loaded.parsed);
        QVERIFY2(!hasErrors(loaded.diagnostics), qPrintable(describe(loaded.diagnostics)));
    }

    void writesTheSameBytesTwice()
    {
        QTemporaryDir dir;
        writeFiles(dir,
            files({{"site.yaml",
                       "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n"
                       "            ensure: present\n            owner: root\n            group: root\n"
                       "            mode: \"0644\"\n            source: files/motd\n"
                       "    - scaffold:\n        - /etc/app:\n            ensure: present\n"
                       "            source: tpl\n"},
                {"files/motd", "hello\n"}, {"tpl/run.sh", "#!/bin/sh\n"}, {"tpl/z/a.conf", "a"}}));
        QVERIFY(QFile::setPermissions(
            dir.filePath(QStringLiteral("tpl/run.sh")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const std::string manifest = dir.filePath(QStringLiteral("site.yaml")).toStdString();
        const QString first = dir.filePath(QStringLiteral("first.tar.gz"));
        const QString second = dir.filePath(QStringLiteral("second.tgz"));
        QVERIFY(writeBundle(planBundle(manifest), first.toStdString()));
        // Different mtimes and permissions of the sources must not show in the bundle.
        QFile motd(dir.filePath(QStringLiteral("files/motd")));
        QVERIFY(motd.open(QIODevice::ReadWrite));
        QVERIFY(motd.setFileTime(QDateTime::currentDateTimeUtc().addDays(-3), QFileDevice::FileModificationTime));
        motd.close();
        QVERIFY(QFile::setPermissions(motd.fileName(), QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(writeBundle(planBundle(manifest), second.toStdString()));
        const QByteArray bytes = readAll(first);
        QVERIFY(!bytes.isEmpty());
        QCOMPARE(readAll(second), bytes);
        QCOMPARE(bytes.mid(4, 4), QByteArray(4, '\0')); // gzip MTIME
        QCOMPARE(QFile::permissions(first) & 0x7777,
            QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser | QFile::ReadGroup
                | QFile::ReadOther);
        QStringList leftovers
            = QDir(dir.path())
                  .entryList({QStringLiteral(".*.tar.gz.*"), QStringLiteral(".*.tgz.*")}, QDir::Files | QDir::Hidden);
        QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(QLatin1Char(' '))));

        QByteArray listing;
        QCOMPARE(runProgram(QStringLiteral("tar"), {QStringLiteral("--numeric-owner"), QStringLiteral("-tvzf"), first},
                     dir.path(), &listing),
            0);
        const QList<QByteArray> lines = listing.trimmed().split('\n');
        QStringList listed;
        for (const QByteArray &line : lines) {
            const QList<QByteArray> fields = line.simplified().split(' ');
            QCOMPARE(fields.at(1), QByteArray("0/0"));
            QCOMPARE(fields.at(3), QByteArray("1970-01-01"));
            listed << QString::fromUtf8(fields.last());
            const bool executable
                = listed.last().endsWith(QLatin1Char('/')) || listed.last().endsWith(QLatin1String(".sh"));
            QCOMPARE(fields.at(0).mid(1), executable ? QByteArray("rwxr-xr-x") : QByteArray("rw-r--r--"));
        }
        QCOMPARE(listed,
            names({"manifest.yaml", "SHA256SUMS", "files/", "files/motd", "tpl/", "tpl/run.sh", "tpl/z/",
                "tpl/z/a.conf"}));

        const QString unpacked = dir.filePath(QStringLiteral("unpacked"));
        QVERIFY(QDir().mkpath(unpacked));
        QCOMPARE(runProgram(QStringLiteral("tar"), {QStringLiteral("-xzf"), first, QStringLiteral("-C"), unpacked},
                     dir.path(), nullptr),
            0);
        QByteArray checked;
        QCOMPARE(
            runProgram(QStringLiteral("sha256sum"),
                {QStringLiteral("--strict"), QStringLiteral("-c"), QStringLiteral("SHA256SUMS")}, unpacked, &checked),
            0);
        QCOMPARE(checked.count(": OK\n"), 4);
    }

    void unpacksWhatItWrote()
    {
        QTemporaryDir dir;
        writeFiles(dir,
            files({{"site.yaml",
                       "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n"
                       "            ensure: present\n            owner: root\n            group: root\n"
                       "            mode: \"0644\"\n            source: files/motd\n"},
                {"files/motd", "hello\n"}}));
        const QString archive = dir.filePath(QStringLiteral("site.tar.gz"));
        QVERIFY(
            writeBundle(planBundle(dir.filePath(QStringLiteral("site.yaml")).toStdString()), archive.toStdString()));
        const QString parent = dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(parent));
        std::string directory;
        {
            auto bundle = UnpackedBundle::unpack(archive.toStdString(), {}, parent.toStdString());
            QVERIFY2(bundle, bundle ? "" : bundle.error().message.c_str());
            directory = bundle->directory().string();
            struct stat info { };
            QCOMPARE(::stat(directory.c_str(), &info), 0);
            QCOMPARE(info.st_mode & 07777, mode_t(0700));
            QCOMPARE(bundle->manifestPath(), bundle->directory() / "manifest.yaml");
            QCOMPARE(bundle->baseDirectory(), bundle->directory());
            QCOMPARE(readAll(q((bundle->directory() / "files/motd").string())), QByteArray("hello\n"));
            QCOMPARE(bundle->createdPaths().back(), directory);
        }
        QVERIFY(!QFileInfo::exists(q(directory)));
        QCOMPARE(QDir(parent).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
    }

    void theShallowestManifestIsTheManifest()
    {
        QTemporaryDir dir;
        const QString archive = dir.filePath(QStringLiteral("b.tgz"));
        writeArchive(archive,
            {{"deep/er/manifest.yaml", AE_IFREG, "deeper", {}}, {"sub/manifest.yaml", AE_IFREG, kSimpleManifest, {}},
                {"other/manifest.yaml", AE_IFREG, "second at that depth", {}}, {"sub/files/a", AE_IFREG, "a", {}}});
        auto bundle = UnpackedBundle::unpack(archive.toStdString(), {}, dir.path().toStdString());
        QVERIFY2(bundle, bundle ? "" : bundle.error().message.c_str());
        QCOMPARE(bundle->manifestPath(), bundle->directory() / "sub/manifest.yaml");
        QCOMPARE(bundle->baseDirectory(), bundle->directory() / "sub");
    }

    void refusesHostileBundles_data()
    {
        QTest::addColumn<QList<Member>>("members");
        QTest::addColumn<QByteArray>("expected");

        const Member manifest {"manifest.yaml", AE_IFREG, kSimpleManifest, {}};
        QTest::newRow("..") << QList<Member> {manifest, {"files/../../escaped", AE_IFREG, "x", {}}}
                            << QByteArray("member 'files/../../escaped': has a '..' component");
        QTest::newRow("absolute") << QList<Member> {manifest, {"ABSOLUTE", AE_IFREG, "x", {}}}
                                  << QByteArray("is an absolute path");
        QTest::newRow("symlink") << QList<Member> {manifest, {"link", AE_IFLNK, {}, "/etc/passwd"}}
                                 << QByteArray("member 'link': is a symbolic link");
        QTest::newRow("symlink then write through it")
            << QList<Member> {{"dir", AE_IFLNK, {}, "OUTSIDE"}, {"dir/escaped", AE_IFREG, "x", {}}, manifest}
            << QByteArray("member 'dir': is a symbolic link");
        QTest::newRow("hardlink") << QList<Member> {manifest, {"hard", AE_IFREG, {}, "manifest.yaml"}}
                                  << QByteArray("member 'hard': is a hard link");
        QTest::newRow("device") << QList<Member> {manifest, {"null", AE_IFCHR, {}, {}}}
                                << QByteArray("member 'null': is a device, FIFO or socket");
        QTest::newRow("fifo") << QList<Member> {manifest, {"fifo", AE_IFIFO, {}, {}}}
                              << QByteArray("member 'fifo': is a device, FIFO or socket");
        QTest::newRow("gzip bomb") << QList<Member> {manifest,
            {"zeros", AE_IFREG, QByteArray(3 * 1024 * 1024, '\0'), {}}}
                                   << QByteArray("unpacks to more than 1048576 bytes");
        QList<Member> many {manifest};
        for (int i = 0; i < 60; ++i)
            many.append({"f" + QByteArray::number(i), AE_IFREG, "x", {}});
        QTest::newRow("too many members") << many << QByteArray("more than 50 members");
        QTest::newRow("file twice") << QList<Member> {manifest, {"a", AE_IFREG, "1", {}}, {"a", AE_IFREG, "2", {}}}
                                    << QByteArray("member 'a': is in the bundle twice");
        QTest::newRow("no manifest") << QList<Member> {{"site.yaml", AE_IFREG, kSimpleManifest, {}}}
                                     << QByteArray("holds no manifest.yaml");
        const QByteArray good = sha256Line(kSimpleManifest, "manifest.yaml");
        QTest::newRow("checksum mismatch") << QList<Member> {manifest, {"a", AE_IFREG, "changed", {}},
            {"SHA256SUMS", AE_IFREG, good + sha256Line("original", "a"), {}}}
                                           << QByteArray("SHA256SUMS line 2: the SHA-256 of 'a' does not match");
        QTest::newRow("file not in SHA256SUMS") << QList<Member> {manifest, {"added", AE_IFREG, "x", {}},
            {"SHA256SUMS", AE_IFREG, good, {}}} << QByteArray("'added' is not listed in SHA256SUMS");
        QTest::newRow("SHA256SUMS lists a missing file")
            << QList<Member> {manifest, {"SHA256SUMS", AE_IFREG, good + sha256Line("x", "gone"), {}}}
            << QByteArray("SHA256SUMS line 2: lists 'gone', which the bundle does not hold");
        QTest::newRow("malformed SHA256SUMS") << QList<Member> {manifest, {"SHA256SUMS", AE_IFREG, "nonsense\n", {}}}
                                              << QByteArray("SHA256SUMS line 1: not a 'DIGEST  FILE' line");
    }

    void refusesHostileBundles()
    {
        QFETCH(QList<Member>, members);
        QFETCH(QByteArray, expected);
        QTemporaryDir dir;
        const QString outside = dir.filePath(QStringLiteral("outside"));
        QVERIFY(QDir().mkpath(outside));
        for (Member &member : members) {
            member.path.replace("ABSOLUTE", dir.filePath(QStringLiteral("outside/absolute")).toUtf8());
            member.link.replace("OUTSIDE", outside.toUtf8());
        }
        const QString archive = dir.filePath(QStringLiteral("hostile.tar.gz"));
        writeArchive(archive, members);
        const QString parent = dir.filePath(QStringLiteral("a/b"));
        QVERIFY(QDir().mkpath(parent));
        BundleLimits limits;
        limits.maxTotalBytes = 1024 * 1024;
        limits.maxMembers = 50;
        auto bundle = UnpackedBundle::unpack(archive.toStdString(), limits, parent.toStdString());
        QVERIFY(!bundle);
        QVERIFY2(QByteArray::fromStdString(bundle.error().message).contains(expected), bundle.error().message.c_str());
        // Nothing was left in the temporary directory's parent, nor written beside it or outside.
        QCOMPARE(QDir(parent).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        QCOMPARE(
            QDir(dir.filePath(QStringLiteral("a"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), names({"b"}));
        QCOMPARE(QDir(outside).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
    }

    void refusesCorruptArchives_data()
    {
        QTest::addColumn<QByteArray>("damage");
        QTest::newRow("truncated") << QByteArray("truncate");
        QTest::newRow("flipped bytes") << QByteArray("flip");
        QTest::newRow("not an archive") << QByteArray("text");
        QTest::newRow("empty") << QByteArray("empty");
    }

    void refusesCorruptArchives()
    {
        QFETCH(QByteArray, damage);
        QTemporaryDir dir;
        const QString archive = dir.filePath(QStringLiteral("b.tar.gz"));
        writeArchive(archive,
            {{"manifest.yaml", AE_IFREG, kSimpleManifest, {}}, {"data", AE_IFREG, randomBytes(200 * 1024, 7), {}}});
        QByteArray bytes = readAll(archive);
        if (damage == "truncate")
            bytes.truncate(bytes.size() / 2);
        else if (damage == "flip")
            for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 16; ++i)
                bytes[i] = char(~bytes[i]);
        else if (damage == "text")
            bytes = "this is not a bundle\n";
        else
            bytes.clear();
        QVERIFY(writeFile(archive, bytes));
        const QString parent = dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(parent));
        auto bundle = UnpackedBundle::unpack(archive.toStdString(), {}, parent.toStdString());
        QVERIFY(!bundle);
        QCOMPARE(QDir(parent).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
    }

    void examplesExportValidForUpstream_data()
    {
        QTest::addColumn<QString>("manifest");
        const QDir examples(QStringLiteral(CCM_SOURCE_DIR "/resources/examples"));
        for (const QString &name : examples.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << examples.filePath(name);
    }

    void examplesExportValidForUpstream()
    {
        QFETCH(QString, manifest);
        exportAndCheckUpstream(manifest);
    }

    void normalisedManifestsValidForUpstream()
    {
        // Each of these is valid for the backend and invalid for upstream as written.
        QTemporaryDir dir;
        writeFiles(dir,
            files({{"site.yaml",
                       "data:\nccm:\n  pre_message:\n  resources:\n    - file:\n        - /etc/a:\n"
                       "            ensure: present\n            owner: root\n            group: root\n"
                       "            mode: \"644\"\n"
                       "        - /etc/b:\n            ensure: present\n            owner: root\n"
                       "            group: root\n            mode: \"0o600\"\n"
                       "    - service:\n        - cron:\n"
                       "    - exec:\n        - /bin/true:\n            refresh_only: true\n"
                       "    - apply:\n        - child.yaml: {}\n"},
                {"child.yaml", "ccm:\n  resources:\n    - service:\n        - cron:\n"}}));
        const QString schema = referenceSchemaPath("manifest.json");
        if (const QByteArray missing = missingReferenceSchema(schema); !missing.isEmpty())
            QSKIP(missing.constData());
        QByteArray output;
        QCOMPARE(runProgram(ccm::test::python3(),
                     {QStringLiteral(CCM_SOURCE_DIR "/tests/core/upstream_schema_check.py"), schema,
                         dir.filePath(QStringLiteral("site.yaml")), dir.filePath(QStringLiteral("child.yaml"))},
                     dir.path(), &output),
            1);
        exportAndCheckUpstream(dir.filePath(QStringLiteral("site.yaml")));
    }

private:
    void exportAndCheckUpstream(const QString &manifest)
    {
        const QString schema = referenceSchemaPath("manifest.json");
        if (const QByteArray missing = missingReferenceSchema(schema); !missing.isEmpty())
            QSKIP(missing.constData());
        QTemporaryDir dir;
        const BundlePlan plan = planBundle(manifest.toStdString());
        QVERIFY2(plan.ok(), qPrintable(findingLines(plan).join(QLatin1Char('\n'))));
        const QString archive = dir.filePath(QStringLiteral("bundle.tar.gz"));
        QVERIFY(writeBundle(plan, archive.toStdString()));
        auto bundle = UnpackedBundle::unpack(archive.toStdString(), {}, dir.path().toStdString());
        QVERIFY2(bundle, bundle ? "" : bundle.error().message.c_str());
        QStringList manifests;
        for (const BundleMember &member : plan.members) {
            if (!member.content)
                continue;
            const QString path = q((bundle->directory() / member.path).string());
            manifests << path;
            const std::string text = readAll(path).toStdString();
            const LoadedManifest loaded = loadManifest(text);
            QVERIFY2(!hasErrors(validateManifest(loaded)), qPrintable(describe(validateManifest(loaded))));
        }
        QVERIFY(manifests.contains(q((bundle->directory() / "manifest.yaml").string())));
        QByteArray output;
        const int status = runProgram(ccm::test::python3(),
            QStringList {QStringLiteral(CCM_SOURCE_DIR "/tests/core/upstream_schema_check.py"), schema} + manifests,
            dir.path(), &output);
        QVERIFY2(status == 0, output.constData());
    }
};

CCM_TEST_GUILESS_MAIN(TestBundle)
#include "tst_bundle.moc"
