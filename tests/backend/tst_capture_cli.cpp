// SPDX-License-Identifier: Apache-2.0
// `ccm-backend capture` as a real process: packages from this machine's dpkg, services from
// recorded systemctl output, and real temporary trees (text, binary, empty, odd names, modes
// 0600 to 0755, nested directories), each written as a manifest or a bundle and proven by the
// command's own noop; the refusals (links, sockets, fifos, devices, oversize and unreadable
// files), upstream's schema, bad command lines, a proof that finds a change, and the golden-host
// workflow: a capture applied in noop after the host changed reports exactly those changes.
#include "app/capture_proof.h"
#include "backend_process.h"
#include "test_main.h"

#include <QFile>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTest>

#include <cstring>
#include <map>
#include <memory>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::test;

namespace capture_cli_test {

/// The exit status of a capture that was written but not proven.
constexpr int kNotProven = 3;

/// Upstream's manifest schema in the team's shared directory, and why it is skipped when absent.
QString upstreamManifestSchema()
{
    return s(CCM_SHARED_DIR "/reference/ccm-v1/manifest.json");
}

void setMode(const QString &path, mode_t mode)
{
    if (::chmod(QFile::encodeName(path).constData(), mode) != 0)
        qFatal("cannot chmod %s", qPrintable(path));
}

QString makeDirectory(const QString &path, mode_t mode)
{
    if (!QDir().mkpath(path))
        qFatal("cannot make %s", qPrintable(path));
    setMode(path, mode);
    return path;
}

QString makeFile(const QString &path, const QByteArray &content, mode_t mode)
{
    if (!writeFile(path, content))
        qFatal("cannot write %s", qPrintable(path));
    setMode(path, mode);
    return path;
}

/// Text a line at a time, over the inline limit (16 KiB), so that it becomes a source file.
QByteArray largeText()
{
    QByteArray text;
    for (int i = 0; text.size() <= 20 * 1024; ++i)
        text += "line " + QByteArray::number(i) + " of a text too large to be written inline\n";
    return text;
}

/// The tree the proof is run on: every kind of content, odd names, modes 0600 to 0755 and
/// nested directories. Returns the paths of its files and directories.
QStringList makeTree(const QString &root)
{
    QStringList paths {makeDirectory(root, 0755)};
    paths << makeFile(root + s("/text.txt"), "first line\nsecond line\n", 0644);
    QByteArray binary = randomBytes(4096, 35);
    binary[10] = '\0';
    paths << makeFile(root + s("/binary.bin"), binary, 0644);
    paths << makeFile(root + s("/empty"), {}, 0644);
    paths << makeFile(root + s("/name with spaces.txt"), "spaces\n", 0640);
    paths << makeFile(root + QString::fromUtf8("/ünïcödé-名前.txt"), "a UTF-8 name\n", 0644);
    paths << makeFile(root + s("/owner-only"), "only its owner reads this\n", 0600);
    paths << makeFile(root + s("/script.sh"), "#!/bin/sh\necho hello\n", 0755);
    paths << makeFile(root + s("/large.txt"), largeText(), 0644);
    paths << makeDirectory(root + s("/group-dir"), 0750);
    paths << makeDirectory(root + s("/group-dir/nested"), 0700);
    paths << makeDirectory(root + s("/group-dir/nested/deep"), 0755);
    paths << makeFile(root + s("/group-dir/nested/deep/leaf.txt"), "leaf\n", 0644);
    return paths;
}

/// The JSON a command printed on standard output; a null value when it printed none.
Json outputJson(const BackendRun &run)
{
    Json json = Json::parse(run.out.toStdString(), nullptr, false);
    return json.is_discarded() ? Json() : json;
}

/// The events of `apply --noop --json MANIFEST`: resource name -> whether it would change.
QMap<QString, bool> noopChanges(const QString &manifest, const QString &directory)
{
    const BackendRun run = runBackend({s("apply"), s("--noop"), s("--json"), manifest}, directory);
    if (run.exitCode != 0)
        qWarning("apply --noop exited %d: %s", run.exitCode, qPrintable(run.err));
    QMap<QString, bool> changes;
    for (const QString &line : run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const Json event = Json::parse(line.toStdString(), nullptr, false);
        if (event.is_object() && event.contains("resource"))
            changes.insert(q(event["resource"].get<std::string>()), event.value("changed", false));
    }
    return changes;
}

QSet<QString> fileResources(const QStringList &paths)
{
    QSet<QString> names;
    for (const QString &path : paths)
        names << s("file#") + path;
    return names;
}

/// The kinds of the skipped entries of a capture's JSON, by path.
QMap<QString, QString> skippedKinds(const Json &json)
{
    QMap<QString, QString> kinds;
    for (const Json &skip : json.value("skipped", Json::array()))
        kinds.insert(q(skip.value("path", "")), q(skip.value("kind", "")));
    return kinds;
}

/// The verified member of a proven capture's JSON.
bool provenWithoutChanges(const Json &json, std::size_t resources)
{
    const Json &verified = json.value("verified", Json());
    return verified.is_object() && verified.value("resources", 0u) == resources && verified.value("changes", 1u) == 0
        && verified.value("failed", 1u) == 0 && verified.value("defects", Json::array()).empty();
}

/// A Unix socket bound at `path`; its descriptor, or -1.
int bindSocket(const QString &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    if (fd < 0 || static_cast<std::size_t>(name.size()) >= sizeof(address.sun_path))
        return -1;
    std::memcpy(address.sun_path, name.constData(), static_cast<std::size_t>(name.size()));
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/// An event of a noop as the engine makes it.
TransactionEvent noopEvent(const char *name, bool changed)
{
    TransactionEvent event;
    event.type = "file";
    event.name = name;
    event.noop = true;
    event.changed = changed;
    return event;
}

/// The text of `command` run with no input; empty when it fails.
QString commandOutput(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return {};
    return QString::fromUtf8(process.readAllStandardOutput());
}

} // namespace capture_cli_test

using namespace capture_cli_test;

class TestCaptureCli : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const QString &name) const { return m_dir->filePath(name); }

    BackendRun capture(const QStringList &arguments, const QString &directory = {})
    {
        return runBackend(QStringList {s("capture")} + arguments, directory.isEmpty() ? m_dir->path() : directory,
            isolatedEnvironment(*m_dir));
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void help()
    {
        const BackendRun run = capture({s("--help")});
        QCOMPARE(run.exitCode, 0);
        for (const char *option : {"--package", "--service", "--file", "--exclude", "--data", "--pin",
                 "--include-private", "--no-verify", "--output", "--json", "Exit status"})
            QVERIFY2(run.out.contains(s(option)), option);
        const BackendRun list = runBackend({s("--help")});
        QVERIFY(list.out.contains(s("\n  capture ")));
    }

    void badCommandLines_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nothing selected") << QStringList {} << s("nothing to capture");
        QTest::newRow("only flags") << QStringList {s("--data"), s("--pin"), s("-o"), s("out.yaml")}
                                    << s("nothing to capture");
        QTest::newRow("unknown option") << QStringList {s("--file"), s("/etc/hostname"), s("--recurse")}
                                        << s("unknown option '--recurse'");
        QTest::newRow("bad output extension") << QStringList {s("--file"), s("/etc/hostname"), s("-o"), s("out.json")}
                                              << s("the output must end in .yaml, .yml, .tar.gz or .tgz");
        QTest::newRow("output without a name")
            << QStringList {s("--file"), s("/etc/hostname"), s("-o"), s(".yaml")} << s("the output must end in");
        QTest::newRow("missing value") << QStringList {s("--package")} << s("option --package needs a value");
        QTest::newRow("empty file") << QStringList {s("--file=")} << s("--file '': the path is empty");
        QTest::newRow("positional") << QStringList {s("/etc/hostname")}
                                    << s("unexpected argument '/etc/hostname' (files are given with --file)");
    }

    void badCommandLines()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const BackendRun run = capture(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
        QVERIFY(!QFile::exists(path(s("out.yaml"))));
    }

    // Packages from the real dpkg: one by name and a glob, to standard output and to a file, each
    // proven by its noop; with --pin the installed version.
    void packagesFromDpkg()
    {
        if (QStandardPaths::findExecutable(s("dpkg-query")).isEmpty())
            QSKIP("this host has no dpkg");
        const BackendRun toStdout = capture({s("--package"), s("dpkg"), s("--package"), s("libc6*")});
        QVERIFY2(toStdout.exitCode == 0, qPrintable(toStdout.err));
        QVERIFY2(toStdout.out.contains(s("dpkg")) && toStdout.out.contains(s("libc6")), qPrintable(toStdout.out));
        QVERIFY2(toStdout.err.contains(QRegularExpression(s("Verified: [0-9]+ resources, 0 changes\n"))),
            qPrintable(toStdout.err));

        const QString version = commandOutput(s("dpkg-query"), {s("-W"), s("-f=${Version}"), s("dpkg")}).trimmed();
        QVERIFY(!version.isEmpty());
        const BackendRun pinned
            = capture({s("--package"), s("dpkg"), s("--pin"), s("-o"), s("packages.yaml"), s("--json")});
        QVERIFY2(pinned.exitCode == 0, qPrintable(pinned.err));
        const Json json = outputJson(pinned);
        QVERIFY2(provenWithoutChanges(json, 1), qPrintable(pinned.out));
        QCOMPARE(json.value("resources", 0), 1);
        QCOMPARE(json["resources_by_type"].value("package", 0), 1);
        QCOMPARE(q(json.value("output", "")), s("packages.yaml"));
        QVERIFY(readFile(path(s("packages.yaml"))).contains(version.toUtf8()));
        QVERIFY2(pinned.err.contains(s("Verified: 1 resource, 0 changes\n")), qPrintable(pinned.err));
        QCOMPARE(noopChanges(s("packages.yaml"), m_dir->path()), (QMap<QString, bool> {{s("package#dpkg"), false}}));
    }

    // A pattern nothing matches is listed as skipped, and the rest is captured.
    void patternMatchingNothing()
    {
        if (QStandardPaths::findExecutable(s("dpkg-query")).isEmpty())
            QSKIP("this host has no dpkg");
        const BackendRun run
            = capture({s("--package"), s("dpkg"), s("--package"), s("no-such-package-*"), s("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Json json = outputJson(run);
        QCOMPARE(skippedKinds(json).size(), 1);
        QCOMPARE(skippedKinds(json).first(), s("no_match"));
        QVERIFY(q(json.value("yaml", "")).contains(s("dpkg")));
        QVERIFY(json["output"].is_null());
        QVERIFY2(run.err.contains(s("no-such-package-*")), qPrintable(run.err));
    }

    // Services from recorded systemctl output: the backend runs inside fake-systemctl --isolate,
    // a private mount namespace where the fake is the systemctl of the backend's fixed PATH and
    // systemd "runs"; the noop proof queries the same recordings.
    void servicesFromRecordedSystemctl()
    {
        const QString fake = s(CCM_FIXTURES_DIR "/capture/fake-systemctl");
        if (::geteuid() != 0 || QStandardPaths::findExecutable(s("unshare")).isEmpty())
            QSKIP("fake-systemctl --isolate needs root and unshare(1)");
        QProcess probe;
        probe.start(fake, {s("--isolate"), s("true")});
        QVERIFY(probe.waitForFinished(30000));
        if (probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
            QSKIP(qPrintable(s("no private mount namespace here: ") + QString::fromUtf8(probe.readAllStandardError())));
        const QString log = path(s("systemctl.log"));
        QProcessEnvironment environment = isolatedEnvironment(*m_dir);
        environment.insert(s("FAKE_SYSTEMCTL_LOG"), log);
        QProcess process;
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(m_dir->path());
        process.start(fake,
            {s("--isolate"), s(CCM_BACKEND_BIN), s("capture"), s("--service"), s("*"), s("--service"),
                s("no-such-unit*"), s("-o"), s("services.yaml"), s("--json")});
        QVERIFY(process.waitForFinished(60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() == 0, qPrintable(err));
        const Json json = outputJson({0, QString::fromUtf8(process.readAllStandardOutput()), err});
        const std::size_t services = json["resources_by_type"].value("service", 0u);
        QVERIFY2(services > 0, qPrintable(err));
        QVERIFY2(provenWithoutChanges(json, services), qPrintable(err));
        QVERIFY2(err.contains(s("Verified: %1 resource").arg(services)), qPrintable(err));
        const QMap<QString, QString> skipped = skippedKinds(json);
        QCOMPARE(skipped.value(s("service no-such-unit*")), s("no_match"));
        // Static, masked and template units, and a template's instances (a service name holds no '@').
        for (const char *unit : {"systemd-journald", "cryptdisks", "getty@", "getty@tty1"})
            QVERIFY2(skipped.value(s("service %1").arg(s(unit))) == s("unsupported"), unit);
        const QString manifest = QString::fromUtf8(readFile(path(s("services.yaml"))));
        QVERIFY2(
            manifest.contains(s("ensure: running")) && manifest.contains(s("ensure: stopped")), qPrintable(manifest));
        QVERIFY(manifest.contains(s("enable: true")) && manifest.contains(s("enable: false")));
        // The proof only queried: nothing was started, stopped, enabled or disabled.
        const QString commands = QString::fromUtf8(readFile(log));
        QVERIFY(!commands.isEmpty());
        for (const char *verb : {"start", "stop", "restart", "enable ", "disable"})
            QVERIFY2(!commands.contains(QRegularExpression(s("(^|\\n)%1").arg(s(verb)))), qPrintable(commands));
    }

    // The noop proof on a real tree, written as a manifest with files/ beside it and as a
    // bundle: every file and directory captured, and `apply --noop` of the result agrees.
    void treeProven_data()
    {
        QTest::addColumn<QString>("output");
        QTest::newRow("manifest") << s("out.yaml");
        QTest::newRow("bundle") << s("out.tar.gz");
    }

    void treeProven()
    {
        QFETCH(QString, output);
        const QString root = path(s("tree"));
        const QStringList paths = makeTree(root);
        const BackendRun run = capture({s("--file"), s("tree"), s("--include-private"), s("-o"), output, s("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Json json = outputJson(run);
        QVERIFY2(provenWithoutChanges(json, static_cast<std::size_t>(paths.size())), qPrintable(run.out));
        QVERIFY2(run.err.contains(s("Verified: %1 resources, 0 changes\n").arg(paths.size())), qPrintable(run.err));
        QVERIFY2(json.value("skipped", Json::array()).empty(), qPrintable(run.out));
        QCOMPARE(json["resources_by_type"].value("file", 0), static_cast<int>(paths.size()));
        // binary.bin, large.txt and owner-only (private) at least are source files.
        QVERIFY2(json.value("sources", 0u) >= 3, qPrintable(run.out));

        const QMap<QString, bool> changes = noopChanges(output, m_dir->path());
        QCOMPARE(QSet<QString>(changes.keyBegin(), changes.keyEnd()), fileResources(paths));
        QVERIFY(!changes.values().contains(true));
        if (output.endsWith(s(".yaml"))) {
            const QString sources = path(s("files")) + root;
            QCOMPARE(readFile(sources + s("/binary.bin")), readFile(root + s("/binary.bin")));
            QCOMPARE(readFile(sources + s("/large.txt")), readFile(root + s("/large.txt")));
            const QString manifest = q(readFile(path(output)).toStdString());
            QVERIFY2(manifest.contains(s("first line")), qPrintable(manifest));
            QVERIFY2(!manifest.contains(s("line 1 of a text too large")), "large text is not inline");
        }
    }

    // A relative --file is taken from the working directory; --exclude leaves a directory out
    // with what is below it.
    void relativePathsAndExcludes()
    {
        const QString root = path(s("tree"));
        makeTree(root);
        const BackendRun run = capture({s("--file"), s("./tree/"), s("--exclude"), root + s("/group-dir"),
            s("--exclude"), s("*.bin"), s("--include-private"), s("-o"), s("out.yaml"), s("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QMap<QString, bool> changes = noopChanges(s("out.yaml"), m_dir->path());
        QVERIFY2(
            changes.contains(s("file#") + root + s("/text.txt")), qPrintable(QStringList(changes.keys()).join(s(" "))));
        QVERIFY(!changes.contains(s("file#") + root + s("/binary.bin")));
        for (const QString &resource : changes.keys())
            QVERIFY2(!resource.contains(s("group-dir")), qPrintable(resource));
        QVERIFY(provenWithoutChanges(outputJson(run), static_cast<std::size_t>(changes.size())));
    }

    // Files only their owner may read are left out with a warning unless --include-private.
    void privateFilesLeftOut()
    {
        const QString root = path(s("tree"));
        makeTree(root);
        const BackendRun run = capture({s("--file"), root, s("-o"), s("out.yaml"), s("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Json json = outputJson(run);
        QCOMPARE(skippedKinds(json).value(root + s("/owner-only")), s("private"));
        QVERIFY(!json.value("warnings", Json::array()).empty());
        QVERIFY2(run.err.contains(s("warning: ")), qPrintable(run.err));
        QVERIFY2(run.err.contains(root + s("/owner-only: ")), qPrintable(run.err));
        QVERIFY(provenWithoutChanges(json, json.value("resources", 0u)));
    }

    // Links, sockets, fifos, devices and files over the per-file limit (64 MiB) are skipped, each
    // with its path and why, and the rest is proven.
    void refusals()
    {
        const QString root = makeDirectory(path(s("odd")), 0755);
        makeFile(root + s("/plain.txt"), "plain\n", 0644);
        QVERIFY(QFile::link(root + s("/plain.txt"), root + s("/link")));
        QCOMPARE(::mkfifo(QFile::encodeName(root + s("/fifo")).constData(), 0644), 0);
        const int socket = bindSocket(root + s("/socket"));
        QVERIFY(socket >= 0);
        auto closeSocket = qScopeGuard([socket] { ::close(socket); });
        const bool device
            = ::mknod(QFile::encodeName(root + s("/null")).constData(), S_IFCHR | 0644, makedev(1, 3)) == 0;
        QFile oversize(root + s("/oversize.img"));
        QVERIFY(oversize.open(QIODevice::WriteOnly));
        QVERIFY(oversize.resize(64ll * 1024 * 1024 + 1)); // sparse: nothing is written
        oversize.close();

        const BackendRun run = capture({s("--file"), root, s("-o"), s("out.yaml"), s("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Json json = outputJson(run);
        QMap<QString, QString> expected {{root + s("/link"), s("symlink")}, {root + s("/fifo"), s("fifo")},
            {root + s("/socket"), s("socket")}, {root + s("/oversize.img"), s("oversize")}};
        if (device)
            expected.insert(root + s("/null"), s("device"));
        QCOMPARE(skippedKinds(json), expected);
        for (const QString &skipped : expected.keys())
            QVERIFY2(run.err.contains(s("  ") + skipped + s(": ")), qPrintable(run.err));
        QVERIFY2(provenWithoutChanges(json, 2), qPrintable(run.out)); // the directory and plain.txt
    }

    // What this process may not read is skipped as unreadable: as root, the backend runs as
    // nobody; otherwise a file of mode 0000 is one.
    void unreadable()
    {
        const QString root = makeDirectory(path(s("shared")), 0755);
        setMode(m_dir->path(), 0755);
        const QString output = makeDirectory(path(s("output")), 0777);
        makeFile(root + s("/readable.txt"), "everyone reads this\n", 0644);
        const QString closed = makeFile(root + s("/closed"), "nobody reads this\n", 0000);
        QStringList expected {closed};
        QStringList command {s(CCM_BACKEND_BIN), s("capture"), s("--file"), root, s("--include-private"), s("-o"),
            output + s("/out.yaml"), s("--json")};
        if (::geteuid() == 0) {
            if (QStandardPaths::findExecutable(s("setpriv")).isEmpty())
                QSKIP("setpriv is needed to run the backend as nobody");
            expected << makeFile(root + s("/group-only"), "only root's group reads this\n", 0640);
            expected << makeDirectory(root + s("/closed-dir"), 0700);
            command = QStringList {s("--reuid=65534"), s("--regid=65534"), s("--clear-groups")} + command;
        }
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(s("XDG_CONFIG_HOME"), output + s("/config"));
        environment.insert(s("HOME"), output);
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(output);
        if (::geteuid() == 0)
            process.start(s("setpriv"), command);
        else
            process.start(command.takeFirst(), command);
        QVERIFY(process.waitForFinished(60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() == 0, qPrintable(err));
        const Json json = outputJson({0, QString::fromUtf8(process.readAllStandardOutput()), err});
        const QMap<QString, QString> kinds = skippedKinds(json);
        for (const QString &path : expected)
            QVERIFY2(kinds.value(path) == s("unreadable"), qPrintable(path + s(": ") + err));
        QVERIFY2(provenWithoutChanges(json, 2), qPrintable(err)); // the directory and readable.txt
    }

    // A --file that does not exist is listed as skipped (not_found); the rest is captured.
    void missingFileSkipped()
    {
        const QString present = makeFile(path(s("present.txt")), "here\n", 0644);
        const QString missing = path(s("missing.txt"));
        const BackendRun run = capture({s("--file"), missing, s("--file"), present, s("--json")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const Json json = outputJson(run);
        QCOMPARE(skippedKinds(json), (QMap<QString, QString> {{missing, s("not_found")}}));
        QVERIFY2(run.err.contains(s("  ") + missing + s(": ")), qPrintable(run.err));
        QVERIFY(provenWithoutChanges(json, 1));
    }

    // Content that needs a source file cannot go to standard output: the command says to give -o.
    void sourceFilesNeedOutput()
    {
        const QString root = makeDirectory(path(s("tree")), 0755);
        makeFile(root + s("/binary.bin"), randomBytes(512, 7) + QByteArray(1, '\0'), 0644);
        makeFile(root + s("/large.txt"), largeText(), 0644);
        const BackendRun run = capture({s("--file"), root});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(s("2 files need a source file")), qPrintable(run.err));
        QVERIFY2(run.err.contains(s("give -o OUT.yaml or -o OUT.tar.gz")), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    // To standard output, the proof runs on a private copy, and --no-verify skips it.
    void standardOutputAndNoVerify()
    {
        const QString root = makeDirectory(path(s("tree")), 0755);
        makeFile(root + s("/motd"), "welcome\nto this host\n", 0644);
        const BackendRun run = capture({s("--file"), root});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(s("welcome")), qPrintable(run.out));
        QVERIFY2(run.err.contains(s("Verified: 2 resources, 0 changes\n")), qPrintable(run.err));
        QVERIFY2(run.err.contains(s("Captured 2 resources on ")), qPrintable(run.err));
        QCOMPARE(QDir(m_dir->path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList {s("tree")});

        // --debug prints the noop's report lines as apply does, on standard error.
        const BackendRun debug = capture({s("--file"), root, s("--debug")});
        QVERIFY2(debug.exitCode == 0, qPrintable(debug.err));
        QVERIFY2(debug.err.contains(s("file#") + root + s("/motd stable ensure=present")), qPrintable(debug.err));
        QVERIFY(!run.err.contains(s(" stable ensure=")));
        QVERIFY(!debug.out.contains(s(" stable ensure=")));

        const BackendRun unverified = capture({s("--file"), root, s("--no-verify"), s("--json")});
        QVERIFY2(unverified.exitCode == 0, qPrintable(unverified.err));
        QVERIFY(!unverified.err.contains(s("Verified")));
        const Json json = outputJson(unverified);
        QVERIFY(json["verified"].is_null());
        QVERIFY(json["output"].is_null());
        QVERIFY(q(json.value("yaml", "")).contains(s("welcome")));
    }

    // A file whose content differs on every read cannot be proven: the command writes the
    // capture, reports the defect with the resource and the reason, and exits 3.
    void proofFindsAChange()
    {
        const QString uuid = s("/proc/sys/kernel/random/uuid");
        if (!QFile::exists(uuid))
            QSKIP("this host has no /proc/sys/kernel/random/uuid");
        const BackendRun run = capture({s("--file"), uuid, s("-o"), s("out.yaml"), s("--json")});
        QVERIFY2(run.exitCode == kNotProven, qPrintable(run.err));
        QVERIFY(QFile::exists(path(s("out.yaml"))));
        QVERIFY2(run.err.contains(s("Not verified: 1 resource, 1 change, 0 failed, 1 capture defect\n")),
            qPrintable(run.err));
        QVERIFY2(run.err.contains(s("capture defect: file#") + uuid + s(": Would have updated the file content")),
            qPrintable(run.err));
        const Json defects = outputJson(run)["verified"]["defects"];
        QCOMPARE(defects.size(), 1u);
        QCOMPARE(q(defects[0]["resource"].get<std::string>()), s("file#") + uuid);
    }

    // The golden-host workflow: a capture, then the host changes; `apply --noop` of the capture
    // reports exactly what changed, and so does the proof of the same manifest.
    void goldenHostDiff()
    {
        const QString root = path(s("tree"));
        makeTree(root);
        const BackendRun run = capture({s("--file"), root, s("--include-private"), s("-o"), s("golden.yaml")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        makeFile(root + s("/text.txt"), "first line\nchanged line\n", 0644);
        setMode(root + s("/script.sh"), 0700);
        setMode(root + s("/group-dir/nested/deep"), 0750);

        const QMap<QString, bool> changes = noopChanges(s("golden.yaml"), m_dir->path());
        QStringList changed;
        for (auto it = changes.begin(); it != changes.end(); ++it) {
            if (it.value())
                changed << it.key();
        }
        QCOMPARE(changed,
            (QStringList {s("file#") + root + s("/group-dir/nested/deep"), s("file#") + root + s("/script.sh"),
                s("file#") + root + s("/text.txt")}));
        const BackendRun detailed
            = runBackend({s("apply"), s("--noop"), s("--detailed-exitcodes"), s("golden.yaml")}, m_dir->path());
        QCOMPARE(detailed.exitCode, 2);

        auto proof = cli::proveCapture(path(s("golden.yaml")).toStdString());
        QVERIFY2(proof, proof ? "" : proof.error().message.c_str());
        QCOMPARE(proof->changes, 3u);
        QCOMPARE(proof->defects.size(), 3u);
        std::map<std::string, std::string> reasons;
        for (const cli::CaptureDefect &defect : proof->defects)
            reasons[defect.resource] = defect.reason;
        const std::string text = reasons["file#" + root.toStdString() + "/text.txt"];
        QVERIFY2(text.starts_with("Would have updated the file content"), text.c_str());
        QVERIFY2(text.find("adds 1 line and removes 1 line") != std::string::npos, text.c_str());
        const std::string script = reasons["file#" + root.toStdString() + "/script.sh"];
        QVERIFY2(script.find("mode") != std::string::npos, script.c_str());
        QVERIFY(!proof->proven());
    }

    // The defects of a run's events: failures with their errors, changes with their message,
    // skips, a cancelled run; stable resources are none.
    void defectsOfEvents()
    {
        TransactionEvent stable = noopEvent("/etc/a", false);
        TransactionEvent changed = noopEvent("/etc/b", true);
        changed.noopMessage = "Would have updated attributes (mode)";
        TransactionEvent failed = noopEvent("/etc/c", false);
        failed.fail("cannot read /etc/c: permission denied");
        failed.fail("second error");
        TransactionEvent unmet = noopEvent("/etc/d", false);
        unmet.skipped = true;
        unmet.unmetRequirements = {"file#/etc/c"};
        engine::RunResult result;
        for (const TransactionEvent *event : {&stable, &changed, &failed, &unmet})
            result.summary.add(*event);
        result.cancelled = true;

        const cli::CaptureProof proof = cli::proofOfRun({stable, changed, failed, unmet}, result);
        QCOMPARE(proof.resources, 4u);
        QCOMPARE(proof.changes, 1u);
        QCOMPARE(proof.failed, 1u);
        QCOMPARE(proof.defects.size(), 4u);
        QCOMPARE(proof.defects[0].resource, std::string("file#/etc/b"));
        QCOMPARE(proof.defects[0].reason, std::string("Would have updated attributes (mode)"));
        QCOMPARE(proof.defects[1].reason, std::string("cannot read /etc/c: permission denied; second error"));
        QCOMPARE(proof.defects[2].reason, std::string("skipped: unmet requirements file#/etc/c"));
        QCOMPARE(proof.defects[3].resource, std::string("manifest"));
        QVERIFY(!cli::captureDefect(stable));
        QVERIFY(cli::captureProofText(proof).starts_with(
            "Not verified: 4 resources, 1 change, 1 failed, 4 capture defects\n"));
        QVERIFY(cli::captureProofText(proof).find("capture defect: file#/etc/b: Would have updated attributes (mode)\n")
            != std::string::npos);
        const Json json = cli::captureProofToJson(proof);
        QCOMPARE(json["defects"].size(), 4u);
        QCOMPARE(json["defects"][1]["resource"].get<std::string>(), std::string("file#/etc/c"));
        QCOMPARE(cli::captureProofText(cli::proofOfRun({stable}, engine::RunResult {})),
            std::string("Verified: 0 resources, 0 changes\n"));
    }

    // The written manifest, with packages, files and values moved to data, is valid for
    // upstream's schema.
    void upstreamSchemaValid()
    {
        const QString root = path(s("tree"));
        makeTree(root);
        QStringList arguments {s("--file"), root, s("--include-private"), s("--data"), s("-o"), s("out.yaml")};
        if (!QStandardPaths::findExecutable(s("dpkg-query")).isEmpty())
            arguments << s("--package") << s("dpkg") << s("--pin");
        const BackendRun run = capture(arguments);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const BackendRun validate = runBackend({s("validate"), s("out.yaml")}, m_dir->path());
        QVERIFY2(validate.exitCode == 0, qPrintable(validate.out + validate.err));
        const QString schema = upstreamManifestSchema();
        if (!QFile::exists(schema))
            QSKIP(qPrintable(s("upstream's reference schema %1 is missing; to compare with it, configure with "
                               "-DCCM_SHARED_DIR=DIR where DIR has reference/ccm-v1/")
                                 .arg(schema)));
        QProcess check;
        check.start(python3(), {s(CCM_SOURCE_DIR "/tests/core/upstream_schema_check.py"), schema, path(s("out.yaml"))});
        QVERIFY(check.waitForFinished(60000));
        QVERIFY2(check.exitCode() == 0, check.readAllStandardOutput().constData());
    }
};

CCM_TEST_GUILESS_MAIN(TestCaptureCli)
#include "tst_capture_cli.moc"
