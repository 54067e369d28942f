// SPDX-License-Identifier: Apache-2.0
#include "engine/capture/host_inventory.h"
#include "engine/resources/service/systemd/systemd_service_provider.h"
#include "engine_test_support.h"
#include "package_test_support.h"
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
#include <map>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

const QString kInventoryRecordings = QStringLiteral(CCM_FIXTURES_DIR "/capture/");

const std::vector<std::string> kInventoryDpkg
    = {"dpkg-query", "-W", "-f=${binary:Package}\\t${Version}\\t${Architecture}\\t${Status}\\t${binary:Summary}\\n"};
const std::vector<std::string> kInventoryRpm
    = {"rpm", "-qa", "--qf", "%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}\\t%{SUMMARY}\\n"};
const std::vector<std::string> kInventoryListUnits
    = {"systemctl", "list-units", "--type=service", "--all", "--system", "--no-legend", "--plain", "--no-pager"};
const std::vector<std::string> kInventoryListUnitFiles
    = {"systemctl", "list-unit-files", "--type=service", "--system", "--no-legend", "--plain", "--no-pager"};

Error inventoryNotFound(const std::string &program)
{
    return Error {"command_not_found", "command not found: " + program};
}

/// The recorded systemctl answers of a Debian 12 host, the instances' is-enabled included.
void inventoryExpectSystemctl(RecordingRunner &runner)
{
    runner.expect(
        kInventoryListUnits, exited(0, readRecorded(kInventoryRecordings, QStringLiteral("systemctl/list-units.txt"))));
    runner.expect(kInventoryListUnitFiles,
        exited(0, readRecorded(kInventoryRecordings, QStringLiteral("systemctl/list-unit-files.txt"))));
    for (const auto &[instance, state] : std::map<std::string, std::string> {
             {"getty@tty1", "enabled"}, {"ifup@eth0", "static"}, {"modprobe@drm", "static"}, {"user@0", "static"}})
        runner.expect({"systemctl", "is-enabled", "--system", instance + ".service"}, exited(0, state + "\n"));
}

const InstalledPackage *inventoryPackage(const std::vector<InstalledPackage> &packages, const std::string &name)
{
    const auto found
        = std::find_if(packages.begin(), packages.end(), [&](const InstalledPackage &p) { return p.name == name; });
    return found == packages.end() ? nullptr : &*found;
}

const ServiceUnit *inventoryService(const std::vector<ServiceUnit> &services, const std::string &name)
{
    const auto found
        = std::find_if(services.begin(), services.end(), [&](const ServiceUnit &s) { return s.name == name; });
    return found == services.end() ? nullptr : &*found;
}

const DirectoryEntry *inventoryEntry(const DirectoryListing &listing, const std::string &name)
{
    const auto found = std::find_if(
        listing.entries.begin(), listing.entries.end(), [&](const DirectoryEntry &e) { return e.name == name; });
    return found == listing.entries.end() ? nullptr : &*found;
}

QByteArray inventoryLocal(const QString &path)
{
    return QFile::encodeName(path);
}

bool inventoryMakeFile(const QString &path, const QByteArray &content, mode_t mode)
{
    return writeFile(path, content) && ::chmod(inventoryLocal(path).constData(), mode) == 0;
}

/// A listening unix socket bound at path; the descriptor, or -1.
int inventoryBindSocket(const QString &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray name = inventoryLocal(path);
    if (fd < 0 || static_cast<std::size_t>(name.size()) >= sizeof(address.sun_path))
        return -1;
    std::memcpy(address.sun_path, name.constData(), static_cast<std::size_t>(name.size()));
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/// The user "nobody", whom the reader tests read as.
std::optional<UserIdentity> inventoryNobody()
{
    const passwd *entry = ::getpwnam("nobody");
    if (entry == nullptr)
        return std::nullopt;
    return describeUser(entry->pw_uid, entry->pw_gid);
}

/// Runs systemctl as the fake of tests/fixtures/capture (the rest as they are), with the fake's
/// variables: the fake stands in for systemd where it does not run.
class InventoryFakeSystemctlRunner : public CommandRunner {
public:
    explicit InventoryFakeSystemctlRunner(std::vector<std::string> environment = {})
        : m_environment(std::move(environment))
    {
    }

    Result<CommandResult> run(const Command &command) override
    {
        Command rewritten = command;
        if (!rewritten.argv.empty() && rewritten.argv.front() == "systemctl")
            rewritten.argv.front() = CCM_FIXTURES_DIR "/capture/fake-systemctl";
        rewritten.environment.insert(rewritten.environment.end(), m_environment.begin(), m_environment.end());
        return m_runner.run(rewritten);
    }

private:
    ProcessRunner m_runner;
    std::vector<std::string> m_environment;
};

/// A unit as one comparable line.
QString inventoryServiceLine(const ServiceUnit &unit)
{
    return q(unit.name + " " + (unit.running ? "running" : "stopped") + " " + (unit.enabled ? "enabled" : "disabled")
        + " " + unit.activeState + " " + unit.enabledState + " " + (unit.capturable ? "capturable" : "not capturable")
        + " " + unit.reason + " | " + unit.description);
}

} // namespace

class TestHostInventory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void packagesOfThisHostFromTheRealDpkg()
    {
        if (!findExecutable("dpkg-query"))
            QSKIP("needs dpkg-query");
        QProcess query;
        query.start(QStringLiteral("dpkg-query"),
            {QStringLiteral("-W"), QStringLiteral("-f=${Version}"), QStringLiteral("dpkg")});
        QVERIFY(query.waitForFinished(60'000));
        QCOMPARE(query.exitCode(), 0);
        const QString expected = QString::fromUtf8(query.readAllStandardOutput());
        QVERIFY(!expected.isEmpty());

        ProcessRunner runner;
        auto packages = listInstalledPackages(runner);
        QVERIFY2(packages.ok(), packages.ok() ? "" : packages.error().message.c_str());
        const InstalledPackage *dpkg = inventoryPackage(*packages, "dpkg");
        QVERIFY(dpkg != nullptr);
        QCOMPARE(q(dpkg->version), expected);
        QVERIFY(!dpkg->arch.empty());
        QVERIFY(!dpkg->summary.empty());
        QVERIFY(std::is_sorted(packages->begin(), packages->end(),
            [](const InstalledPackage &a, const InstalledPackage &b) { return a.name < b.name; }));
    }

    void packagesFromRecordedDpkg()
    {
        RecordingRunner runner;
        runner.expect(
            kInventoryDpkg, exited(0, readRecorded(kInventoryRecordings, QStringLiteral("packages/dpkg-query.txt"))));
        auto packages = listInstalledPackages(runner);
        QVERIFY2(packages.ok(), packages.ok() ? "" : packages.error().message.c_str());
        QStringList names;
        for (const InstalledPackage &package : *packages)
            names << q(package.name);
        // Half-installed, unpacked, config-files and not-installed packages are not installed;
        // a held package is.
        QCOMPARE(names,
            QStringList({QStringLiteral("adduser"), QStringLiteral("apt"), QStringLiteral("base-files"),
                QStringLiteral("bash"), QStringLiteral("binutils-common:amd64"), QStringLiteral("bsdutils"),
                QStringLiteral("dpkg"), QStringLiteral("libc6:amd64"), QStringLiteral("libc6:i386"),
                QStringLiteral("nginx"), QStringLiteral("tzdata")}));
        const InstalledPackage *foreign = inventoryPackage(*packages, "libc6:i386");
        QCOMPARE(q(foreign->version), QStringLiteral("2.36-9+deb12u14"));
        QCOMPARE(q(foreign->arch), QStringLiteral("i386"));
        QCOMPARE(q(foreign->summary), QStringLiteral("GNU C Library: Shared libraries"));
        QCOMPARE(q(inventoryPackage(*packages, "bsdutils")->version), QStringLiteral("1:2.38.1-5+deb12u3"));
        QCOMPARE(q(inventoryPackage(*packages, "adduser")->arch), QStringLiteral("all"));
        QCOMPARE(q(inventoryPackage(*packages, "nginx")->version), QStringLiteral("1.22.1-9+deb12u2"));
        QVERIFY(runner.pending().empty());
    }

    void packagesFromRecordedRpmWhenDpkgIsMissing()
    {
        RecordingRunner runner;
        runner.expect(kInventoryDpkg, inventoryNotFound("dpkg-query"));
        runner.expect(
            kInventoryRpm, exited(0, readRecorded(kInventoryRecordings, QStringLiteral("packages/rpm-qa.txt"))));
        auto packages = listInstalledPackages(runner);
        QVERIFY2(packages.ok(), packages.ok() ? "" : packages.error().message.c_str());
        QStringList rows;
        for (const InstalledPackage &p : *packages)
            rows << q(p.name + " " + p.version + " " + p.arch + " | " + p.summary);
        // Epochs other than 0 prefix the version; both multilib glibc stay; gpg-pubkey is a key.
        QCOMPARE(rows,
            QStringList({s("bash 5.2.26-3.el10 x86_64 | The GNU Bourne Again shell"),
                s("glibc 2.39-17.el10 i686 | The GNU libc libraries"),
                s("glibc 2.39-17.el10 x86_64 | The GNU libc libraries"),
                s("nginx 2:1.26.3-1.el10 x86_64 | A high performance web server and reverse proxy server"),
                s("openssl-libs 1:3.2.2-16.el10 x86_64 | A general purpose cryptography library with TLS "
                  "implementation"),
                s("rpm 4.19.1.1-12.el10 x86_64 | The RPM package management system")}));
    }

    void packagesErrors_data()
    {
        QTest::addColumn<bool>("dpkgMissing");
        QTest::addColumn<bool>("rpmMissing");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("neither tool") << true << true << 0 << QStringLiteral("no_package_manager")
                                      << QStringLiteral("neither dpkg-query nor rpm is installed");
        QTest::newRow("dpkg-query fails") << false << false << 2 << QStringLiteral("command")
                                          << QStringLiteral("failed with exit code 2: dpkg-query: error: parsing");
        QTest::newRow("rpm fails") << true << false << 1 << QStringLiteral("command") << QStringLiteral("rpm -qa --qf");
        QTest::newRow("dpkg-query cannot start")
            << false << false << -1 << QStringLiteral("command") << QStringLiteral("cannot run dpkg-query");
    }

    void packagesErrors()
    {
        QFETCH(bool, dpkgMissing);
        QFETCH(bool, rpmMissing);
        QFETCH(int, exitCode);
        QFETCH(QString, code);
        QFETCH(QString, message);
        RecordingRunner runner;
        const std::string complaint = "dpkg-query: error: parsing file '/var/lib/dpkg/status' near line 7\n";
        if (dpkgMissing)
            runner.expect(kInventoryDpkg, inventoryNotFound("dpkg-query"));
        else if (exitCode < 0)
            runner.expect(
                kInventoryDpkg, Error {"not_executable", "cannot execute /usr/bin/dpkg-query: Permission denied"});
        else
            runner.expect(kInventoryDpkg, exited(exitCode, {}, complaint));
        if (dpkgMissing)
            runner.expect(kInventoryRpm,
                rpmMissing ? Result<CommandResult>(inventoryNotFound("rpm"))
                           : Result<CommandResult>(exited(exitCode, {}, "error: rpmdb open failed\n")));
        auto packages = listInstalledPackages(runner);
        QVERIFY(!packages.ok());
        QCOMPARE(q(packages.error().code), code);
        QVERIFY2(q(packages.error().message).contains(message), packages.error().message.c_str());
    }

    void servicesFromRecordedSystemctl()
    {
        RecordingRunner runner;
        inventoryExpectSystemctl(runner);
        auto services = listServices(runner);
        QVERIFY2(services.ok(), services.ok() ? "" : services.error().message.c_str());
        QVERIFY(runner.pending().empty());
        QVERIFY(std::is_sorted(services->begin(), services->end(),
            [](const ServiceUnit &a, const ServiceUnit &b) { return a.name < b.name; }));

        struct Expected {
            bool running;
            bool enabled;
            const char *active;
            const char *enabledState;
            bool capturable;
            const char *reason;
            const char *description;
        };
        const std::map<std::string, Expected> expected = {
            {"ssh", {true, true, "active", "enabled", true, "", "OpenBSD Secure Shell server"}},
            {"cron", {true, true, "active", "enabled", true, "", "Regular background program processing daemon"}},
            {"nginx",
                {true, true, "active", "enabled", true, "",
                    "A high performance web server and a reverse proxy server"}},
            {"rsync", {false, false, "inactive", "disabled", true, "", ""}},
            {"smartmontools",
                {false, true, "failed", "enabled", true, "",
                    "Self Monitoring and Reporting Technology (SMART) Daemon"}},
            {"getty@", {false, true, "inactive", "enabled", false, "template", ""}},
            {"getty@tty1",
                {true, true, "active", "enabled", false, "instance of the template getty@", "Getty on tty1"}},
            {"user@0", {true, true, "active", "static", false, "static", "User Manager for UID 0"}},
            {"systemd-journald", {true, true, "active", "static", false, "static", "Journal Service"}},
            {"cryptdisks", {false, false, "inactive", "masked", false, "masked", "cryptdisks.service"}},
            {"sshd", {false, true, "inactive", "alias", false, "alias", ""}},
        };
        for (const auto &[name, want] : expected) {
            const ServiceUnit *unit = inventoryService(*services, name);
            QVERIFY2(unit != nullptr, name.c_str());
            QVERIFY2(unit->running == want.running, name.c_str());
            QVERIFY2(unit->enabled == want.enabled, name.c_str());
            QCOMPARE(q(unit->activeState), s(want.active));
            QCOMPARE(q(unit->enabledState), s(want.enabledState));
            QCOMPARE(q(unit->description), s(want.description));
            QVERIFY2(unit->capturable == want.capturable, name.c_str());
            QVERIFY2(q(unit->reason).contains(s(want.reason)), unit->reason.c_str());
            QCOMPARE(unit->reason.empty(), want.capturable);
        }
        // Named by another unit but without a unit file: not on this host.
        QVERIFY(inventoryService(*services, "plymouth-quit-wait") == nullptr);
    }

    void servicesWithoutSystemd_data()
    {
        QTest::addColumn<bool>("missing");
        QTest::addColumn<QString>("message");
        QTest::newRow("systemctl missing") << true << QStringLiteral("systemctl is not installed on this host");
        QTest::newRow("systemd not running") << false << QStringLiteral("systemd is not running on this host");
    }

    void servicesWithoutSystemd()
    {
        QFETCH(bool, missing);
        QFETCH(QString, message);
        RecordingRunner runner;
        runner.expect(kInventoryListUnits,
            missing ? Result<CommandResult>(inventoryNotFound("systemctl"))
                    : Result<CommandResult>(exited(1, {},
                        "System has not been booted with systemd as init system (PID 1). "
                        "Can't operate.\nFailed to connect to bus: Host is down\n")));
        auto services = listServices(runner);
        QVERIFY(!services.ok());
        QCOMPARE(q(services.error().code), QStringLiteral("no_service_manager"));
        QVERIFY2(q(services.error().message).contains(message), services.error().message.c_str());
    }

    void servicesQueryFails()
    {
        RecordingRunner runner;
        runner.expect(kInventoryListUnits,
            exited(0, readRecorded(kInventoryRecordings, QStringLiteral("systemctl/list-units.txt"))));
        runner.expect(kInventoryListUnitFiles, exited(1, {}, "Failed to list unit files: Access denied\n"));
        auto services = listServices(runner);
        QVERIFY(!services.ok());
        QCOMPARE(q(services.error().code), QStringLiteral("command"));
        QVERIFY2(
            q(services.error().message).contains(QStringLiteral("Access denied")), services.error().message.c_str());
    }

    void theFakeSystemctlAnswersAsItsRecordings()
    {
        RecordingRunner recorded;
        inventoryExpectSystemctl(recorded);
        auto expected = listServices(recorded);
        QVERIFY(expected.ok());
        InventoryFakeSystemctlRunner fake;
        auto services = listServices(fake);
        QVERIFY2(services.ok(), services.ok() ? "" : services.error().message.c_str());
        QStringList want;
        QStringList got;
        for (const ServiceUnit &unit : *expected)
            want << inventoryServiceLine(unit);
        for (const ServiceUnit &unit : *services)
            got << inventoryServiceLine(unit);
        QCOMPARE(got, want);

        InventoryFakeSystemctlRunner offline({"FAKE_SYSTEMCTL_OFFLINE=1"});
        auto refused = listServices(offline);
        QVERIFY(!refused.ok());
        QCOMPARE(q(refused.error().code), QStringLiteral("no_service_manager"));
    }

    void theServiceProviderWorksAgainstTheFake_data()
    {
        QTest::addColumn<QString>("service");
        QTest::addColumn<bool>("running");
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<QString>("activeState");
        QTest::addColumn<QString>("enabledState");
        QTest::newRow("ssh") << QStringLiteral("ssh") << true << true << QStringLiteral("active")
                             << QStringLiteral("enabled");
        QTest::newRow("failed") << QStringLiteral("smartmontools") << false << true << QStringLiteral("failed")
                                << QStringLiteral("enabled");
        QTest::newRow("disabled") << QStringLiteral("rsync") << false << false << QStringLiteral("inactive")
                                  << QStringLiteral("disabled");
        QTest::newRow("masked") << QStringLiteral("cryptdisks") << false << false << QStringLiteral("inactive")
                                << QStringLiteral("masked");
        QTest::newRow("instance") << QStringLiteral("getty@tty1") << true << true << QStringLiteral("active")
                                  << QStringLiteral("enabled");
        QTest::newRow("instance not enabled") << QStringLiteral("getty@tty5") << false << false
                                              << QStringLiteral("inactive") << QStringLiteral("disabled");
    }

    void theServiceProviderWorksAgainstTheFake()
    {
        QFETCH(QString, service);
        QFETCH(bool, running);
        QFETCH(bool, enabled);
        QFETCH(QString, activeState);
        QFETCH(QString, enabledState);
        InventoryFakeSystemctlRunner fake;
        SystemdServiceProvider provider(fake);
        auto state = provider.status(service.toStdString());
        QVERIFY2(state.ok(), state.ok() ? "" : state.error().message.c_str());
        QCOMPARE(state->running, running);
        QCOMPARE(state->enabled, enabled);
        QCOMPARE(q(state->activeState), activeState);
        QCOMPARE(q(state->enabledState), enabledState);
    }

    void theFakeKeepsChangesInACopyOnly()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString recordings = QStringLiteral(CCM_FIXTURES_DIR "/capture/systemctl/");
        const QByteArray committed = readAll(recordings + QStringLiteral("list-units.txt"));
        for (const char *name : {"list-units.txt", "list-unit-files.txt", "is-enabled.txt"})
            QVERIFY(QFile::copy(recordings + QString::fromLatin1(name), dir.filePath(QString::fromLatin1(name))));
        const std::string log = inventoryLocal(dir.filePath(QStringLiteral("log"))).toStdString();
        InventoryFakeSystemctlRunner copy(
            {"FAKE_SYSTEMCTL_DATA=" + inventoryLocal(dir.path()).toStdString(), "FAKE_SYSTEMCTL_LOG=" + log});
        SystemdServiceProvider provider(copy);
        QVERIFY(provider.start("rsync").ok());
        QVERIFY(provider.enable("rsync").ok());
        QVERIFY(provider.stop("ssh").ok());
        auto rsync = provider.status("rsync");
        QVERIFY(rsync.ok());
        QVERIFY(rsync->running);
        QVERIFY(rsync->enabled);
        auto ssh = provider.status("ssh");
        QVERIFY(ssh.ok());
        QVERIFY(!ssh->running);
        QVERIFY(ssh->enabled);
        auto masked = provider.start("cryptdisks");
        QVERIFY(!masked.ok());
        QVERIFY2(q(masked.error().message).contains(QStringLiteral("is masked")), masked.error().message.c_str());
        QCOMPARE(readAll(dir.filePath(QStringLiteral("log"))),
            QByteArray("daemon-reload\nstart --system rsync\nenable --system rsync\nstop --system ssh\n"
                       "is-active --system rsync\nis-enabled --system rsync\nis-active --system ssh\n"
                       "is-enabled --system ssh\nstart --system cryptdisks\n"));

        // Without a copy the committed recordings refuse to change.
        InventoryFakeSystemctlRunner committedRecordings;
        SystemdServiceProvider refusing(committedRecordings);
        auto refused = refusing.stop("ssh");
        QVERIFY(!refused.ok());
        QVERIFY2(q(refused.error().message).contains(QStringLiteral("committed recordings are not changed")),
            refused.error().message.c_str());
        QCOMPARE(readAll(recordings + QStringLiteral("list-units.txt")), committed);
    }

    void entryKindNames()
    {
        QCOMPARE(q(std::string(entryKindName(EntryKind::File))), QStringLiteral("file"));
        QCOMPARE(q(std::string(entryKindName(EntryKind::Directory))), QStringLiteral("directory"));
        QCOMPARE(q(std::string(entryKindName(EntryKind::Symlink))), QStringLiteral("symlink"));
        QCOMPARE(q(std::string(entryKindName(EntryKind::Socket))), QStringLiteral("socket"));
        QCOMPARE(q(std::string(entryKindName(EntryKind::Device))), QStringLiteral("device"));
        QCOMPARE(q(std::string(entryKindName(EntryKind::Fifo))), QStringLiteral("fifo"));
        QCOMPARE(q(std::string(entryKindName(EntryKind::Other))), QStringLiteral("other"));
    }

    void listsARealTree()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(::chmod(inventoryLocal(dir.path()).constData(), 0755) == 0);
        const auto path = [&](const char *name) { return dir.filePath(QString::fromUtf8(name)); };
        QVERIFY(inventoryMakeFile(path("text.txt"), "hello\nworld\n", 0644));
        QVERIFY(inventoryMakeFile(path("binary.bin"), randomBytes(4096, 7), 0640));
        QVERIFY(inventoryMakeFile(path("empty"), {}, 0600));
        QVERIFY(inventoryMakeFile(path("name with spaces.conf"), "a b\n", 0644));
        QVERIFY(inventoryMakeFile(path("grüße-日本.txt"), "ü\n", 0664));
        QVERIFY(inventoryMakeFile(path("new\nline"), "x", 0644));
        QVERIFY(inventoryMakeFile(path("run.sh"), "#!/bin/sh\n", 0755));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("nested/deeper")));
        QVERIFY(inventoryMakeFile(path("nested/deeper/leaf"), "leaf\n", 0644));
        QVERIFY(::chmod(inventoryLocal(path("nested")).constData(), 0750) == 0);
        QVERIFY(::symlink("text.txt", inventoryLocal(path("link")).constData()) == 0);
        QVERIFY(::mkfifo(inventoryLocal(path("fifo")).constData(), 0600) == 0);
        QVERIFY(::chmod(inventoryLocal(path("fifo")).constData(), 0640) == 0);
        const int socket = inventoryBindSocket(path("sock"));
        QVERIFY(socket >= 0);
        const auto closeSocket = qScopeGuard([&] { ::close(socket); });

        auto listing = listDirectory(inventoryLocal(dir.path()).toStdString(), std::nullopt);
        QVERIFY2(listing.ok(), listing.ok() ? "" : listing.error().message.c_str());
        QVERIFY(!listing->truncated);
        QCOMPARE(q(listing->path.string()), dir.path());
        QStringList names;
        for (const DirectoryEntry &entry : listing->entries)
            names << q(entry.name);
        QCOMPARE(names,
            QStringList({s("binary.bin"), s("empty"), s("fifo"), s("grüße-日本.txt"), s("link"),
                s("name with spaces.conf"), s("nested"), s("new\nline"), s("run.sh"), s("sock"), s("text.txt")}));

        struct Expected {
            EntryKind kind;
            std::uint32_t mode;
            std::uint64_t size;
            bool privateToOwner;
        };
        const std::map<std::string, Expected> expected = {
            {"binary.bin", {EntryKind::File, 0640, 4096, false}},
            {"empty", {EntryKind::File, 0600, 0, true}},
            {"fifo", {EntryKind::Fifo, 0640, 0, false}},
            {"grüße-日本.txt", {EntryKind::File, 0664, 3, false}},
            {"name with spaces.conf", {EntryKind::File, 0644, 4, false}},
            {"nested", {EntryKind::Directory, 0750, 0, false}},
            {"new\nline", {EntryKind::File, 0644, 1, false}},
            {"run.sh", {EntryKind::File, 0755, 10, false}},
            {"text.txt", {EntryKind::File, 0644, 12, false}},
        };
        for (const auto &[name, want] : expected) {
            const DirectoryEntry *entry = inventoryEntry(*listing, name);
            QVERIFY2(entry != nullptr, name.c_str());
            QCOMPARE(q(std::string(entryKindName(entry->kind))), q(std::string(entryKindName(want.kind))));
            QCOMPARE(entry->mode, want.mode);
            if (want.kind != EntryKind::Directory)
                QCOMPARE(entry->size, want.size);
            QCOMPARE(entry->privateToOwner, want.privateToOwner);
            QVERIFY2(entry->readable, name.c_str());
            QCOMPARE(q(entry->owner), currentUserName());
            QCOMPARE(q(entry->group), currentGroupName());
            QVERIFY(entry->linkTarget.empty());
        }
        const DirectoryEntry *link = inventoryEntry(*listing, "link");
        QCOMPARE(link->kind, EntryKind::Symlink);
        QCOMPARE(q(link->linkTarget), QStringLiteral("text.txt"));
        QCOMPARE(inventoryEntry(*listing, "sock")->kind, EntryKind::Socket);

        auto nested = listDirectory(inventoryLocal(path("nested")).toStdString(), std::nullopt);
        QVERIFY(nested.ok());
        QCOMPARE(nested->entries.size(), std::size_t {1});
        QCOMPARE(q(nested->entries[0].name), QStringLiteral("deeper"));
        QCOMPARE(nested->entries[0].kind, EntryKind::Directory);
    }

    void listsDevices()
    {
        auto listing = listDirectory("/dev", std::nullopt);
        QVERIFY2(listing.ok(), listing.ok() ? "" : listing.error().message.c_str());
        const DirectoryEntry *null = inventoryEntry(*listing, "null");
        QVERIFY(null != nullptr);
        QCOMPARE(null->kind, EntryKind::Device);
        QCOMPARE(q(std::string(entryKindName(null->kind))), QStringLiteral("device"));
    }

    void truncatesAtTheLimit()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char *name : {"d", "b", "a", "c", "e"})
            QVERIFY(inventoryMakeFile(dir.filePath(QString::fromLatin1(name)), "x", 0644));
        auto listing = listDirectory(inventoryLocal(dir.path()).toStdString(), std::nullopt, 3);
        QVERIFY(listing.ok());
        QVERIFY(listing->truncated);
        QCOMPARE(listing->entries.size(), std::size_t {3});
        QCOMPARE(q(listing->entries[2].name), QStringLiteral("c"));
        auto whole = listDirectory(inventoryLocal(dir.path()).toStdString(), std::nullopt, 5);
        QVERIFY(whole.ok());
        QVERIFY(!whole->truncated);
        QCOMPARE(whole->entries.size(), std::size_t {5});
    }

    void ownersWithoutNamesAreNumbers()
    {
        if (::geteuid() != 0)
            QSKIP("giving a file to another uid needs root");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("orphan"));
        QVERIFY(inventoryMakeFile(file, "x", 0644));
        // Ids that no user or group of a test host has.
        QVERIFY(::getpwuid(54321) == nullptr);
        QVERIFY(::lchown(inventoryLocal(file).constData(), 54321, 54329) == 0);
        auto listing = listDirectory(inventoryLocal(dir.path()).toStdString(), std::nullopt);
        QVERIFY(listing.ok());
        QCOMPARE(q(listing->entries.at(0).owner), QStringLiteral("54321"));
        QCOMPARE(q(listing->entries.at(0).group), QStringLiteral("54329"));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("code");
        QTest::newRow("missing") << QStringLiteral("absent") << QStringLiteral("not_found");
        QTest::newRow("a file") << QStringLiteral("file") << QStringLiteral("not_directory");
    }

    void errors()
    {
        QFETCH(QString, name);
        QFETCH(QString, code);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(inventoryMakeFile(dir.filePath(QStringLiteral("file")), "x", 0644));
        auto listing = listDirectory(inventoryLocal(dir.filePath(name)).toStdString(), std::nullopt);
        QVERIFY(!listing.ok());
        QCOMPARE(q(listing.error().code), code);
        QVERIFY2(q(listing.error().message).contains(dir.filePath(name)), listing.error().message.c_str());
    }

    void aReaderSeesWhatItMayRead()
    {
        if (::geteuid() != 0)
            QSKIP("reading as another user needs root");
        const std::optional<UserIdentity> reader = inventoryNobody();
        if (!reader)
            QSKIP("needs a user named nobody");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(::chmod(inventoryLocal(dir.path()).constData(), 0755) == 0);
        const auto path = [&](const char *name) { return dir.filePath(QString::fromUtf8(name)); };
        QVERIFY(inventoryMakeFile(path("public.txt"), "hello\n", 0644));
        QVERIFY(inventoryMakeFile(path("secret.key"), "key\n", 0600));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("open")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("closed")));
        QVERIFY(::chmod(inventoryLocal(path("open")).constData(), 0755) == 0);
        QVERIFY(::chmod(inventoryLocal(path("closed")).constData(), 0700) == 0);
        QVERIFY(inventoryMakeFile(path("closed/inside"), "x", 0644));
        // Its own private file, and one its group may read.
        QVERIFY(inventoryMakeFile(path("own.key"), "key\n", 0600));
        QVERIFY(::chown(inventoryLocal(path("own.key")).constData(), reader->uid, reader->gid) == 0);
        QVERIFY(inventoryMakeFile(path("group.conf"), "g\n", 0640));
        QVERIFY(::chown(inventoryLocal(path("group.conf")).constData(), 0, reader->gid) == 0);

        auto listing = listDirectory(inventoryLocal(dir.path()).toStdString(), reader);
        QVERIFY2(listing.ok(), listing.ok() ? "" : listing.error().message.c_str());
        QVERIFY(inventoryEntry(*listing, "public.txt")->readable);
        QVERIFY(!inventoryEntry(*listing, "secret.key")->readable);
        QVERIFY(inventoryEntry(*listing, "secret.key")->privateToOwner);
        QVERIFY(inventoryEntry(*listing, "open")->readable);
        QVERIFY(!inventoryEntry(*listing, "closed")->readable);
        QVERIFY(inventoryEntry(*listing, "own.key")->readable);
        QVERIFY(inventoryEntry(*listing, "own.key")->privateToOwner);
        QCOMPARE(q(inventoryEntry(*listing, "own.key")->owner), QStringLiteral("nobody"));
        QVERIFY(inventoryEntry(*listing, "group.conf")->readable);
        QVERIFY(!inventoryEntry(*listing, "group.conf")->privateToOwner);
        // Root itself may read everything.
        auto asRoot = listDirectory(inventoryLocal(dir.path()).toStdString(), std::nullopt);
        QVERIFY(asRoot.ok());
        QVERIFY(inventoryEntry(*asRoot, "secret.key")->readable);
        QVERIFY(inventoryEntry(*asRoot, "closed")->readable);

        auto closed = listDirectory(inventoryLocal(path("closed")).toStdString(), reader);
        QVERIFY(!closed.ok());
        QCOMPARE(q(closed.error().code), QStringLiteral("permission"));
        QVERIFY2(q(closed.error().message).contains(QStringLiteral("as user nobody")), closed.error().message.c_str());
        QVERIFY(listDirectory(inventoryLocal(path("closed")).toStdString(), std::nullopt).ok());
        // Nothing of the reader's identity stays with the thread.
        QCOMPARE(::access(inventoryLocal(path("closed/inside")).constData(), R_OK), 0);
        QVERIFY(listDirectory(inventoryLocal(path("open")).toStdString(), reader).ok());
    }
};

CCM_TEST_GUILESS_MAIN(TestHostInventory)
#include "tst_host_inventory.moc"
