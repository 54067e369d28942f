// SPDX-License-Identifier: Apache-2.0
// Capturing real trees in temporary directories (and recorded package and service output) into a
// manifest, and writing it as YAML with files beside it or as a bundle.
#include "core/bundle/bundle.h"
#include "core/model/validator.h"
#include "engine/capture/host_capture.h"
#include "engine_test_support.h"
#include "recording_runner.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <functional>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

const std::vector<std::string> kCaptureDpkg
    = {"dpkg-query", "-W", "-f=${binary:Package}\\t${Version}\\t${Architecture}\\t${Status}\\t${binary:Summary}\\n"};
const std::vector<std::string> kCaptureListUnits
    = {"systemctl", "list-units", "--type=service", "--all", "--system", "--no-legend", "--plain", "--no-pager"};
const std::vector<std::string> kCaptureListUnitFiles
    = {"systemctl", "list-unit-files", "--type=service", "--system", "--no-legend", "--plain", "--no-pager"};

bool captureMakeFile(const QString &path, const QByteArray &content, mode_t mode)
{
    return writeFile(path, content) && ::chmod(QFile::encodeName(path).constData(), mode) == 0;
}

bool captureMakeDirectory(const QString &path, mode_t mode)
{
    return QDir().mkpath(path) && ::chmod(QFile::encodeName(path).constData(), mode) == 0;
}

mode_t captureModeOf(const QString &path)
{
    struct stat info { };
    ::lstat(QFile::encodeName(path).constData(), &info);
    return info.st_mode & 07777;
}

/// A listening unix socket bound at path; the descriptor, or -1.
int captureBindSocket(const QString &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    if (fd < 0 || static_cast<std::size_t>(name.size()) >= sizeof(address.sun_path))
        return -1;
    std::memcpy(address.sun_path, name.constData(), static_cast<std::size_t>(name.size()));
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

std::optional<UserIdentity> captureNobody()
{
    const passwd *entry = ::getpwnam("nobody");
    if (entry == nullptr)
        return std::nullopt;
    return describeUser(entry->pw_uid, entry->pw_gid);
}

const CapturedResource *captureResource(const CapturedManifest &capture, const QString &name)
{
    const auto found = std::find_if(capture.resources.begin(), capture.resources.end(),
        [&](const CapturedResource &r) { return r.name == name.toStdString(); });
    return found == capture.resources.end() ? nullptr : &*found;
}

const CapturedSource *captureSource(const CapturedManifest &capture, const std::string &path)
{
    const auto found = std::find_if(capture.sources.begin(), capture.sources.end(),
        [&](const CapturedSource &source) { return source.path == path; });
    return found == capture.sources.end() ? nullptr : &*found;
}

QString captureProperty(const CapturedManifest &capture, const QString &name, const char *property)
{
    const CapturedResource *resource = captureResource(capture, name);
    if (!resource || !resource->properties.contains(property))
        return s("<none>");
    const Json &value = resource->properties[property];
    return q(value.is_string() ? value.get<std::string>() : value.dump());
}

/// path -> kind of every skip.
QMap<QString, QString> captureSkips(const CapturedManifest &capture)
{
    QMap<QString, QString> kinds;
    for (const CaptureSkip &skip : capture.skipped)
        kinds.insert(q(skip.path), q(skip.kind));
    return kinds;
}

QStringList captureNames(const CapturedManifest &capture)
{
    QStringList names;
    for (const CapturedResource &resource : capture.resources)
        names << q(resource.type + " " + resource.name);
    return names;
}

bool captureWarned(const CapturedManifest &capture, const QString &part)
{
    return std::any_of(capture.warnings.begin(), capture.warnings.end(),
        [&](const std::string &warning) { return q(warning).contains(part); });
}

std::string captureShortHost()
{
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    const std::string host = name;
    return host.substr(0, host.find('.'));
}

} // namespace

class TestHostCapture : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_dir.emplace();
        QVERIFY(m_dir->isValid());
        // Readable along the way for the reader tests (QTemporaryDir makes it 0700).
        QCOMPARE(::chmod(QFile::encodeName(m_dir->path()).constData(), 0755), 0);
        m_root = m_dir->filePath(s("tree"));
    }

    void cleanup() { m_dir.reset(); }

    // Every kind of content, odd names, modes 0600 to 0755 and nested directories: directories
    // before their contents, names in byte order, each file as the rules say.
    void tree()
    {
        makeTree();
        const CapturedManifest capture = run({m_root}, [](CaptureRequest &request) { request.includePrivate = true; });
        const QStringList expected {s("file ") + m_root, s("file ") + m_root + s("/binary.bin"),
            s("file ") + m_root + s("/empty"), s("file ") + m_root + s("/group-dir"),
            s("file ") + m_root + s("/group-dir/nested"), s("file ") + m_root + s("/group-dir/nested/deep"),
            s("file ") + m_root + s("/group-dir/nested/deep/leaf.txt"), s("file ") + m_root + s("/large.txt"),
            s("file ") + m_root + s("/name with spaces.txt"), s("file ") + m_root + s("/owner-only"),
            s("file ") + m_root + s("/script.sh"), s("file ") + m_root + s("/text.txt"),
            s("file ") + m_root + s("/ünïcödé-名前.txt")};
        QCOMPARE(captureNames(capture), expected);
        QVERIFY(capture.skipped.empty());
        QVERIFY(capture.warnings.empty());
        QVERIFY(capture.data.empty());

        QCOMPARE(captureProperty(capture, m_root, "ensure"), s("directory"));
        QCOMPARE(captureProperty(capture, m_root, "mode"), s("0755"));
        QCOMPARE(captureProperty(capture, m_root, "owner"), currentUserName());
        QCOMPARE(captureProperty(capture, m_root, "group"), currentGroupName());
        QCOMPARE(captureProperty(capture, m_root + s("/group-dir"), "mode"), s("0750"));
        QCOMPARE(captureProperty(capture, m_root + s("/group-dir/nested"), "mode"), s("0700"));
        QCOMPARE(captureProperty(capture, m_root + s("/text.txt"), "ensure"), s("present"));
        QCOMPARE(captureProperty(capture, m_root + s("/text.txt"), "content"), s("first line\nsecond line\n"));
        QCOMPARE(captureProperty(capture, m_root + s("/text.txt"), "mode"), s("0644"));
        QCOMPARE(captureProperty(capture, m_root + s("/empty"), "content"), QString());
        QCOMPARE(captureProperty(capture, m_root + s("/name with spaces.txt"), "mode"), s("0640"));
        QCOMPARE(captureProperty(capture, m_root + s("/script.sh"), "mode"), s("0755"));
        QCOMPARE(captureProperty(capture, m_root + s("/ünïcödé-名前.txt"), "content"), s("a UTF-8 name\n"));

        const std::string binary = "files" + (m_root + s("/binary.bin")).toStdString();
        QCOMPARE(captureProperty(capture, m_root + s("/binary.bin"), "source"), q(binary));
        QVERIFY(captureSource(capture, binary));
        QCOMPARE(q(captureSource(capture, binary)->content), q(readAll(m_root + s("/binary.bin")).toStdString()));
        QVERIFY(!captureSource(capture, binary)->privateContent);
        const std::string large = "files" + (m_root + s("/large.txt")).toStdString();
        QCOMPARE(captureProperty(capture, m_root + s("/large.txt"), "source"), q(large));
        QVERIFY(q(captureResource(capture, m_root + s("/large.txt"))->comment).contains(s("16384 bytes")));
        const std::string owner = "files" + (m_root + s("/owner-only")).toStdString();
        QCOMPARE(captureProperty(capture, m_root + s("/owner-only"), "source"), q(owner));
        QVERIFY(captureSource(capture, owner)->privateContent);
        QCOMPARE(captureProperty(capture, m_root + s("/owner-only"), "content"), s("<none>"));

        QCOMPARE(capture.host.substr(0, capture.host.find('.')), captureShortHost());
        QCOMPARE(q(capture.capturedBy), currentUserName());
        QVERIFY2(capture.capturedAt.size() == 20 && capture.capturedAt.back() == 'Z', capture.capturedAt.c_str());
        QCOMPARE(capture.command, std::vector<std::string>({"ccm-backend", "capture"}));

        // The YAML of a real tree is a valid manifest.
        const std::string yaml = captureToYaml(capture);
        const Diagnostics diagnostics = validateManifestText(yaml);
        QVERIFY2(diagnostics.empty(), qPrintable(q(yaml)));
    }

    // Links, sockets, fifos and devices cannot be file resources: each is skipped, with why.
    void refusals()
    {
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/plain.txt"), "plain\n", 0644));
        QVERIFY(QFile::link(m_root + s("/plain.txt"), m_root + s("/link")));
        QVERIFY(QFile::link(s("/nonexistent"), m_root + s("/dangling")));
        QCOMPARE(::mkfifo(QFile::encodeName(m_root + s("/fifo")).constData(), 0644), 0);
        const int socket = captureBindSocket(m_root + s("/socket"));
        QVERIFY(socket >= 0);
        auto closeSocket = qScopeGuard([socket] { ::close(socket); });
        const bool device
            = ::mknod(QFile::encodeName(m_root + s("/null")).constData(), S_IFCHR | 0644, makedev(1, 3)) == 0;
        const CapturedManifest capture = run({m_root, s("/dev/null"), m_dir->filePath(s("missing"))});
        QMap<QString, QString> expected {{m_root + s("/link"), s("symlink")}, {m_root + s("/dangling"), s("symlink")},
            {m_root + s("/fifo"), s("fifo")}, {m_root + s("/socket"), s("socket")}, {s("/dev/null"), s("device")},
            {m_dir->filePath(s("missing")), s("not_found")}};
        if (device)
            expected.insert(m_root + s("/null"), s("device"));
        QCOMPARE(captureSkips(capture), expected);
        for (const CaptureSkip &skip : capture.skipped)
            QVERIFY2(!skip.reason.empty(), skip.path.c_str());
        QCOMPARE(captureNames(capture), QStringList({s("file ") + m_root, s("file ") + m_root + s("/plain.txt")}));
    }

    void oversize()
    {
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/big"), QByteArray(101, 'x'), 0644));
        QVERIFY(captureMakeFile(m_root + s("/small"), QByteArray(100, 'x'), 0644));
        const CapturedManifest capture = run({m_root}, [](CaptureRequest &request) {
            request.limits.maxFileBytes = 100;
            request.limits.maxInlineBytes = 50;
        });
        QCOMPARE(captureSkips(capture), (QMap<QString, QString> {{m_root + s("/big"), s("oversize")}}));
        QVERIFY(q(capture.skipped.front().reason).contains(s("100 bytes")));
        QCOMPARE(captureProperty(capture, m_root + s("/small"), "source"),
            q("files" + (m_root + s("/small")).toStdString()));
    }

    // With a reader, what that user may not read is skipped as unreadable, and only that.
    void unreadableForReader()
    {
        const auto nobody = captureNobody();
        if (!nobody)
            QSKIP("needs a user named nobody");
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/everyone"), "everyone\n", 0644));
        QVERIFY(captureMakeFile(m_root + s("/group-only"), "group\n", 0640));
        QVERIFY(captureMakeDirectory(m_root + s("/closed-dir"), 0750));
        QVERIFY(captureMakeFile(m_root + s("/closed-dir/inside"), "inside\n", 0644));
        const CapturedManifest capture = run({m_root}, [&](CaptureRequest &request) { request.reader = nobody; });
        QCOMPARE(captureSkips(capture),
            (QMap<QString, QString> {
                {m_root + s("/group-only"), s("unreadable")}, {m_root + s("/closed-dir"), s("unreadable")}}));
        QCOMPARE(captureNames(capture), QStringList({s("file ") + m_root, s("file ") + m_root + s("/everyone")}));
        QCOMPARE(q(capture.capturedBy), q(nobody->name));
    }

    // Without a reader, what this process may not read is unreadable (root reads everything).
    void unreadableForThisProcess()
    {
        if (::geteuid() == 0)
            QSKIP("root may read every file");
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/closed"), "closed\n", 0000));
        const CapturedManifest capture = run({m_root});
        QCOMPARE(captureSkips(capture), (QMap<QString, QString> {{m_root + s("/closed"), s("unreadable")}}));
    }

    // Files and directories only their owner may read are left out with a warning.
    void privateLeftOut()
    {
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/secret.key"), "key\n", 0600));
        QVERIFY(captureMakeDirectory(m_root + s("/private-dir"), 0700));
        QVERIFY(captureMakeFile(m_root + s("/private-dir/inside"), "inside\n", 0644));
        const CapturedManifest capture = run({m_root});
        QCOMPARE(captureSkips(capture),
            (QMap<QString, QString> {
                {m_root + s("/secret.key"), s("private")}, {m_root + s("/private-dir"), s("private")}}));
        QVERIFY(captureWarned(capture, m_root + s("/secret.key: only its owner may read it")));
        QVERIFY(captureWarned(capture, s("--include-private")));
        QVERIFY(capture.sources.empty());
        QCOMPARE(captureNames(capture), QStringList({s("file ") + m_root}));
    }

    // Content that looks like a secret never goes inline; template delimiters go to a source file
    // so that they are not expanded.
    void secretsAndTemplates_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("secret");
        QTest::newRow("PEM private key") << QByteArray(
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n")
                                         << true;
        QTest::newRow("password=") << QByteArray("user=app\npassword=hunter2\n") << true;
        QTest::newRow("Password:") << QByteArray("Password: x\n") << true;
        QTest::newRow("json token") << QByteArray("{\"token\": \"abc\"}\n") << true;
        QTest::newRow("api_key") << QByteArray("API_KEY = 1\n") << true;
        QTest::newRow("secret") << QByteArray("client_secret=1\n") << true;
        QTest::newRow("AWS key id") << QByteArray("id AKIAABCDEFGHIJKLMNOP\n") << true;
        QTest::newRow("braces") << QByteArray("Hello {{ name }}\n") << false;
        QTest::newRow("dollar brace") << QByteArray("PATH=${HOME}/bin\n") << false;
    }

    void secretsAndTemplates()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, secret);
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/f"), content, 0644));
        const CapturedManifest capture = run({m_root + s("/f")});
        const std::string source = "files" + (m_root + s("/f")).toStdString();
        QCOMPARE(captureProperty(capture, m_root + s("/f"), "content"), s("<none>"));
        QCOMPARE(captureProperty(capture, m_root + s("/f"), "source"), q(source));
        QVERIFY(captureSource(capture, source));
        QCOMPARE(captureSource(capture, source)->content, content.toStdString());
        QCOMPARE(captureWarned(capture, s("looks like it holds a secret")), secret);
        QVERIFY(captureHas(captureToYaml(capture), secret ? "secret" : "{{ or ${"));
        QVERIFY(!captureHas(captureToYaml(capture), content.toStdString()));
    }

    void notSecrets()
    {
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/f"), "the password is asked for at login\ntokens are counted\n", 0644));
        const CapturedManifest capture = run({m_root + s("/f")});
        QCOMPARE(captureProperty(capture, m_root + s("/f"), "content"),
            s("the password is asked for at login\ntokens are counted\n"));
        QVERIFY(capture.warnings.empty());
    }

    // --data: the host's short name in inline text becomes a lookup of data.hostname; a file with
    // template delimiters of its own, or a source file, is never templated.
    void dataHostname()
    {
        const std::string host = captureShortHost();
        if (host.empty() || host == "localhost")
            QSKIP("the host's name is localhost, which --data leaves");
        QVERIFY(captureMakeDirectory(m_root, 0755));
        const QByteArray named
            = QByteArray::fromStdString("host " + host + "\n" + host + ".example.com\nx" + host + "\n");
        QVERIFY(captureMakeFile(m_root + s("/named"), named, 0644));
        QVERIFY(captureMakeFile(m_root + s("/templated"), QByteArray::fromStdString(host + " {{ x }}\n"), 0644));
        CapturedManifest capture = run({m_root}, [](CaptureRequest &request) { request.data = true; });
        const std::string lookup = "{{ lookup('data.hostname') }}";
        QCOMPARE(captureProperty(capture, m_root + s("/named"), "content"),
            q("host " + lookup + "\n" + lookup + ".example.com\nx" + host + "\n"));
        QCOMPARE(q(capture.data.value("hostname", "")), q(host));
        QCOMPARE(captureProperty(capture, m_root + s("/templated"), "content"), s("<none>"));
        QCOMPARE(
            captureSource(capture, "files" + (m_root + s("/templated")).toStdString())->content, host + " {{ x }}\n");
        // Without --data nothing is replaced and there is no data.
        capture = run({m_root});
        QCOMPARE(captureProperty(capture, m_root + s("/named"), "content"), q(named.toStdString()));
        QVERIFY(capture.data.empty());
    }

    // Packages from recorded dpkg output: present, pinned, or pinned through data.
    void packages_data()
    {
        QTest::addColumn<bool>("pin");
        QTest::addColumn<bool>("data");
        QTest::addColumn<QStringList>("ensures");
        QTest::newRow("present") << false << false << QStringList {s("present"), s("present"), s("present")};
        QTest::newRow("pin") << true << false << QStringList {s("2.36-9+deb12u4"), s("1.22.1-9"), s("1.22.1-9")};
        QTest::newRow("pin with data") << true << true
                                       << QStringList {s("{{ lookup('data.package_versions.libc6_amd64') }}"),
                                              s("{{ lookup('data.package_versions.nginx') }}"),
                                              s("{{ lookup('data.package_versions.nginx_common') }}")};
    }

    void packages()
    {
        QFETCH(bool, pin);
        QFETCH(bool, data);
        QFETCH(QStringList, ensures);
        RecordingRunner runner;
        runner.expect(kCaptureDpkg,
            exited(0,
                "libc6:amd64\t2.36-9+deb12u4\tamd64\tinstall ok installed\tGNU C Library\n"
                "nginx\t1.22.1-9\tamd64\tinstall ok installed\tsmall, powerful web server\n"
                "nginx-common\t1.22.1-9\tall\tinstall ok installed\tsmall, powerful web server - files\n"
                "vim\t2:9.0.1378-2\tamd64\tdeinstall ok config-files\tVi IMproved\n"));
        CaptureRequest request;
        request.packages = {"nginx*", "libc6*", "nginx", "vim", "nothing*"};
        request.pin = pin;
        request.data = data;
        auto capture = captureHost(request, runner);
        QVERIFY2(capture, capture ? "" : capture.error().message.c_str());
        QCOMPARE(captureNames(*capture),
            QStringList({s("package libc6:amd64"), s("package nginx"), s("package nginx-common")}));
        QStringList actual;
        for (const CapturedResource &resource : capture->resources)
            actual << q(resource.properties["ensure"].get<std::string>());
        QCOMPARE(actual, ensures);
        QCOMPARE(captureSkips(*capture),
            (QMap<QString, QString> {{s("package vim"), s("no_match")}, {s("package nothing*"), s("no_match")}}));
        if (data && pin) {
            QVERIFY2(capture->data
                    == Json::parse(R"({"package_versions": {"libc6_amd64": "2.36-9+deb12u4", "nginx": "1.22.1-9",
                                "nginx_common": "1.22.1-9"}})"),
                (capture->data).dump().c_str());
            QVERIFY(validateManifestText(captureToYaml(*capture)).empty());
        } else {
            QVERIFY(capture->data.empty());
        }
        QVERIFY(runner.pending().empty());
    }

    // Services from recorded systemctl output: running or stopped, enabled or not; static units
    // are skipped with why.
    void services()
    {
        RecordingRunner runner;
        runner.expect(kCaptureListUnits,
            exited(0,
                "cron.service loaded active running Regular background program processing daemon\n"
                "ssh.service loaded inactive dead OpenBSD Secure Shell server\n"
                "systemd-journald.service loaded active running Journal Service\n"));
        runner.expect(kCaptureListUnitFiles,
            exited(0,
                "cron.service enabled enabled\nssh.service disabled enabled\n"
                "systemd-journald.service static -\n"));
        CaptureRequest request;
        request.services = {"cron", "ssh*", "systemd-*", "none"};
        auto capture = captureHost(request, runner);
        QVERIFY2(capture, capture ? "" : capture.error().message.c_str());
        QCOMPARE(captureNames(*capture), QStringList({s("service cron"), s("service ssh")}));
        QVERIFY2(capture->resources[0].properties == Json::parse(R"({"ensure": "running", "enable": true})"),
            (capture->resources[0].properties).dump().c_str());
        QVERIFY2(capture->resources[1].properties == Json::parse(R"({"ensure": "stopped", "enable": false})"),
            (capture->resources[1].properties).dump().c_str());
        QCOMPARE(captureSkips(*capture),
            (QMap<QString, QString> {
                {s("service systemd-journald"), s("unsupported")}, {s("service none"), s("no_match")}}));
    }

    // Packages, then files, then services, whatever order they were read in.
    void blockOrderInYaml()
    {
        RecordingRunner runner;
        runner.expect(kCaptureListUnits, exited(0, "cron.service loaded active running cron\n"));
        runner.expect(kCaptureListUnitFiles, exited(0, "cron.service enabled enabled\n"));
        runner.expect(kCaptureDpkg, exited(0, "nginx\t1\tamd64\tinstall ok installed\tweb\n"));
        QVERIFY(captureMakeFile(m_dir->filePath(s("f")), "x\n", 0644));
        CaptureRequest request;
        request.services = {"cron"};
        request.packages = {"nginx"};
        request.files = {m_dir->filePath(s("f")).toStdString()};
        auto capture = captureHost(request, runner);
        QVERIFY(capture);
        const std::string yaml = captureToYaml(*capture);
        const std::size_t package = yaml.find("- package:");
        const std::size_t file = yaml.find("- file:");
        const std::size_t service = yaml.find("- service:");
        QVERIFY2(package < file && file < service && service != std::string::npos, yaml.c_str());
    }

    // An excluded path is left out with everything below it, and is not a skip.
    void excludes()
    {
        makeTree();
        const CapturedManifest capture = run({m_root}, [&](CaptureRequest &request) {
            request.includePrivate = true;
            request.excludes = {"*.bin", (m_root + s("/group-dir")).toStdString(), "*/large*"};
        });
        QVERIFY(capture.skipped.empty());
        for (const QString &name : captureNames(capture)) {
            QVERIFY2(!name.contains(s("group-dir")) && !name.endsWith(s(".bin")) && !name.contains(s("large")),
                qPrintable(name));
        }
        QVERIFY(captureResource(capture, m_root + s("/text.txt")));
    }

    // A path given twice, or inside another, is captured once.
    void overlappingPaths()
    {
        makeTree();
        const CapturedManifest capture = run({m_root + s("/group-dir/nested"), m_root, m_root + s("/text.txt")},
            [](CaptureRequest &request) { request.includePrivate = true; });
        QStringList names = captureNames(capture);
        QCOMPARE(names.size(), 13);
        QCOMPARE(names.removeDuplicates(), 0);
        QCOMPARE(names.first(), s("file ") + m_root + s("/group-dir/nested"));
    }

    void limits_data()
    {
        QTest::addColumn<int>("files");
        QTest::addColumn<int>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("files") << 3 << 0 << s("more than 3 files and directories");
        QTest::newRow("bytes") << 0 << 30 << s("more than 30 bytes");
    }

    void limits()
    {
        QFETCH(int, files);
        QFETCH(int, bytes);
        QFETCH(QString, message);
        makeTree();
        RecordingRunner runner;
        CaptureRequest request;
        request.files = {m_root.toStdString()};
        request.includePrivate = true;
        if (files > 0)
            request.limits.maxFiles = static_cast<std::size_t>(files);
        if (bytes > 0)
            request.limits.maxTotalBytes = static_cast<std::size_t>(bytes);
        const auto capture = captureHost(request, runner);
        QVERIFY(!capture);
        QCOMPARE(q(capture.error().code), s("limit"));
        QVERIFY2(q(capture.error().message).contains(message), capture.error().message.c_str());
        QVERIFY2(q(capture.error().message).contains(s("--exclude")), capture.error().message.c_str());
    }

    // Each level of a directory holds a descriptor while the walk is below it: too deep is an error.
    void depthLimit()
    {
        QString deep = m_root;
        for (int level = 0; level < 102; ++level)
            deep += s("/d");
        QVERIFY(QDir().mkpath(deep));
        RecordingRunner runner;
        CaptureRequest request;
        request.files = {m_root.toStdString()};
        const auto capture = captureHost(request, runner);
        QVERIFY(!capture);
        QCOMPARE(q(capture.error().code), s("limit"));
        QVERIFY2(
            q(capture.error().message).contains(s("more than 100 directories below")), capture.error().message.c_str());
    }

    void badRequests_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("package");
        QTest::newRow("relative path") << s("etc/motd") << QString();
        QTest::newRow("empty pattern") << QString() << s("");
    }

    void badRequests()
    {
        QFETCH(QString, file);
        QFETCH(QString, package);
        RecordingRunner runner;
        CaptureRequest request;
        if (!file.isEmpty())
            request.files = {file.toStdString()};
        else
            request.packages = {package.toStdString()};
        const auto capture = captureHost(request, runner);
        QVERIFY(!capture);
        QCOMPARE(q(capture.error().code), s("bad_request"));
        QVERIFY(runner.commands().empty());
    }

    // YAML: the manifest, and its sources under files/ beside it (private ones 0600); the same
    // capture written again finds its own files and succeeds.
    void writeYaml()
    {
        makeTree();
        const CapturedManifest capture = run({m_root}, [](CaptureRequest &request) { request.includePrivate = true; });
        const QString output = m_dir->filePath(s("out/capture.yaml"));
        QVERIFY(QDir().mkpath(m_dir->filePath(s("out"))));
        for (int pass = 0; pass < 2; ++pass) {
            auto written = writeCapture(capture, output.toStdString());
            QVERIFY2(written, written ? "" : written.error().message.c_str());
            QCOMPARE(q(written->string()), output);
        }
        QCOMPARE(readAll(output).toStdString(), captureToYaml(capture));
        const QString files = m_dir->filePath(s("out/files")) + m_root;
        QCOMPARE(readAll(files + s("/binary.bin")), readAll(m_root + s("/binary.bin")));
        QCOMPARE(captureModeOf(files + s("/binary.bin")), mode_t(0644));
        QCOMPARE(readAll(files + s("/owner-only")), readAll(m_root + s("/owner-only")));
        QCOMPARE(captureModeOf(files + s("/owner-only")), mode_t(0600));
        QVERIFY(!QFile::exists(files + s("/text.txt")));
        QVERIFY(validateManifestText(readAll(output).toStdString(), m_dir->filePath(s("out")).toStdString()).empty());
    }

    // A different file already under files/ is an error naming it, and nothing is written.
    void writeYamlConflict()
    {
        makeTree();
        const CapturedManifest capture = run({m_root}, [](CaptureRequest &request) { request.includePrivate = true; });
        const QString files = m_dir->filePath(s("out/files")) + m_root;
        QVERIFY(QDir().mkpath(files));
        QVERIFY(captureMakeFile(files + s("/owner-only"), "something else\n", 0644));
        const QString output = m_dir->filePath(s("out/capture.yaml"));
        auto written = writeCapture(capture, output.toStdString());
        QVERIFY(!written);
        QCOMPARE(q(written.error().code), s("conflict"));
        QVERIFY2(q(written.error().message).contains(files + s("/owner-only")), written.error().message.c_str());
        QVERIFY(!QFile::exists(output));
        QCOMPARE(QDir(files).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList({s("owner-only")}));
        QCOMPARE(readAll(files + s("/owner-only")), QByteArray("something else\n"));
        // A link in the way is a conflict too: nothing is written through it.
        QVERIFY(QFile::remove(files + s("/owner-only")));
        QVERIFY(QFile::link(m_dir->filePath(s("elsewhere")), files + s("/owner-only")));
        written = writeCapture(capture, output.toStdString());
        QVERIFY(!written);
        QCOMPARE(q(written.error().code), s("conflict"));
        QVERIFY(!QFile::exists(m_dir->filePath(s("elsewhere"))));
        QVERIFY(!QFile::exists(output));
    }

    // The output's missing directories are made.
    void writeMakesTheOutputDirectory()
    {
        makeTree();
        const CapturedManifest capture = run({m_root}, [](CaptureRequest &request) { request.includePrivate = true; });
        for (const char *name : {"new/deeper/capture.yaml", "newer/capture.tar.gz"}) {
            const QString output = m_dir->filePath(s(name));
            auto written = writeCapture(capture, output.toStdString());
            QVERIFY2(written, written ? "" : written.error().message.c_str());
            QVERIFY(QFileInfo(output).isFile());
        }
        QVERIFY(QFileInfo(m_dir->filePath(s("new/deeper/files")) + m_root + s("/binary.bin")).isFile());
        // A regular file where a directory would be made: an error naming it, and nothing written.
        QVERIFY(captureMakeFile(m_dir->filePath(s("plain")), "not a directory\n", 0644));
        auto failed = writeCapture(capture, m_dir->filePath(s("plain/sub/capture.yaml")).toStdString());
        QVERIFY(!failed);
        QVERIFY2(q(failed.error().message).contains(m_dir->filePath(s("plain/sub"))), failed.error().message.c_str());
        QCOMPARE(readAll(m_dir->filePath(s("plain"))), QByteArray("not a directory\n"));
    }

    // A bundle holds the manifest and its files; the temporary directory it is made in goes.
    void writeBundleOutput()
    {
        makeTree();
        const CapturedManifest capture = run({m_root}, [](CaptureRequest &request) { request.includePrivate = true; });
        const QString scratch = m_dir->filePath(s("tmp"));
        QVERIFY(QDir().mkpath(scratch));
        const QByteArray previous = qgetenv("TMPDIR");
        qputenv("TMPDIR", scratch.toUtf8());
        auto restore = qScopeGuard([&] { qputenv("TMPDIR", previous); });
        const QString output = m_dir->filePath(s("capture.tar.gz"));
        auto written = writeCapture(capture, output.toStdString());
        QVERIFY2(written, written ? "" : written.error().message.c_str());
        QVERIFY(QDir(scratch).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
        QCOMPARE(captureModeOf(output), mode_t(0600)); // it holds a private file
        QProcess tar;
        tar.start(s("tar"), {s("-tzf"), output});
        QVERIFY(tar.waitForFinished(60000));
        const QStringList members = QString::fromUtf8(tar.readAllStandardOutput()).split(QLatin1Char('\n'));
        QCOMPARE(members.first(), s("manifest.yaml"));
        QVERIFY2(members.contains(s("files") + m_root + s("/binary.bin")), qPrintable(members.join(s(" "))));
        QVERIFY(members.contains(s("files") + m_root + s("/owner-only")));
        QVERIFY(members.contains(s("SHA256SUMS")));
    }

    void badOutput()
    {
        const auto written = writeCapture(CapturedManifest {}, m_dir->filePath(s("out.json")).toStdString());
        QVERIFY(!written);
        QCOMPARE(q(written.error().code), s("bad_output"));
        QVERIFY(q(written.error().message).contains(s(".yaml or .yml")));
        QVERIFY(q(written.error().message).contains(s(".tar.gz or .tgz")));
        QVERIFY(!QFile::exists(m_dir->filePath(s("out.json"))));
    }

private:
    static bool captureHas(const std::string &text, const std::string &part)
    {
        return text.find(part) != std::string::npos;
    }

    /// The tree of the capture command's proof: every kind of content, odd names, modes 0600 to
    /// 0755 and nested directories.
    void makeTree()
    {
        QVERIFY(captureMakeDirectory(m_root, 0755));
        QVERIFY(captureMakeFile(m_root + s("/text.txt"), "first line\nsecond line\n", 0644));
        QByteArray binary = randomBytes(4096, 35);
        binary[10] = '\0';
        QVERIFY(captureMakeFile(m_root + s("/binary.bin"), binary, 0644));
        QVERIFY(captureMakeFile(m_root + s("/empty"), {}, 0644));
        QVERIFY(captureMakeFile(m_root + s("/name with spaces.txt"), "spaces\n", 0640));
        QVERIFY(captureMakeFile(m_root + s("/ünïcödé-名前.txt"), "a UTF-8 name\n", 0644));
        QVERIFY(captureMakeFile(m_root + s("/owner-only"), "only its owner reads this\n", 0600));
        QVERIFY(captureMakeFile(m_root + s("/script.sh"), "#!/bin/sh\necho hello\n", 0755));
        QByteArray large;
        for (int i = 0; large.size() <= 20 * 1024; ++i)
            large += "line " + QByteArray::number(i) + " of a text too large to be written inline\n";
        QVERIFY(captureMakeFile(m_root + s("/large.txt"), large, 0644));
        QVERIFY(captureMakeDirectory(m_root + s("/group-dir"), 0750));
        QVERIFY(captureMakeDirectory(m_root + s("/group-dir/nested"), 0700));
        QVERIFY(captureMakeDirectory(m_root + s("/group-dir/nested/deep"), 0755));
        QVERIFY(captureMakeFile(m_root + s("/group-dir/nested/deep/leaf.txt"), "leaf\n", 0644));
    }

    CapturedManifest run(const QStringList &paths, const std::function<void(CaptureRequest &)> &adjust = {})
    {
        CaptureRequest request;
        for (const QString &path : paths)
            request.files.emplace_back(path.toStdString());
        request.command = {"ccm-backend", "capture"};
        if (adjust)
            adjust(request);
        RecordingRunner runner;
        auto capture = captureHost(request, runner);
        if (!capture)
            qWarning("captureHost: %s", capture.error().message.c_str());
        return capture ? std::move(capture).value() : CapturedManifest {};
    }

    std::optional<QTemporaryDir> m_dir;
    QString m_root;
};

CCM_TEST_GUILESS_MAIN(TestHostCapture)
#include "tst_host_capture.moc"
