// SPDX-License-Identifier: Apache-2.0
// A preview on somebody else's behalf runs every process as that user: each provider that starts
// processes starts one in a noop run with processCredentials set, and each of those processes is
// checked for the identity it really ran with.
#include "engine/prepared_manifest.h"
#include "engine/resources/apply/apply_type.h"
#include "engine/resources/exec/exec_type.h"
#include "engine/resources/file/file_type.h"
#include "engine/resources/package/apt/apt_package_provider.h"
#include "engine/resources/package/dnf/dnf_package_provider.h"
#include "engine/resources/package/package_type.h"
#include "engine/resources/registration.h"
#include "engine/resources/scaffold/scaffold_type.h"
#include "engine/resources/service/service_type.h"
#include "engine/resources/service/systemd/systemd_service_provider.h"
#include "engine/run.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <mutex>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using ccm::test::q;

namespace {

/// Stands in for the tools (apt-get, systemctl, the guards, post commands, goss): each command it
/// is given is replaced by a real `id -u` started with that command's credentials, and the uid
/// that process printed is recorded against the command's program. The tool's own answer is an
/// exit code of 1 with no output, which every provider takes as a failure or a negative answer.
class IdentityProbe : public CommandRunner {
public:
    Result<CommandResult> run(const Command &command) override
    {
        Command probe;
        probe.argv = {"/usr/bin/id", "-u"};
        probe.runAs = command.runAs;
        auto ran = m_processes.run(probe);
        std::string uid = ran ? ran->stdoutText : "error: " + ran.error().message;
        while (!uid.empty() && uid.back() == '\n')
            uid.pop_back();
        {
            const std::lock_guard lock(m_mutex);
            m_seen.emplace_back(command.argv.front(), uid);
        }
        CommandResult answer;
        answer.exitCode = 1;
        return answer;
    }

    /// Each program started, with the uid its stand-in ran as, in order.
    [[nodiscard]] std::vector<std::pair<std::string, std::string>> seen() const
    {
        const std::lock_guard lock(m_mutex);
        return m_seen;
    }

private:
    ProcessRunner m_processes;
    mutable std::mutex m_mutex;
    std::vector<std::pair<std::string, std::string>> m_seen;
};

class Silent : public RunObserver { };

bool writeExecutable(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write("#!/bin/sh\nexit 1\n") < 0)
        return false;
    file.close();
    return ::chmod(path.toLocal8Bit().constData(), 0755) == 0;
}

} // namespace

class TestPreviewIdentity : public QObject {
    Q_OBJECT

private slots:
    void everyProviderStartsItsProcessesAsThePreviewUser_data()
    {
        QTest::addColumn<bool>("imposed");
        QTest::newRow("preview for somebody else") << true;
        QTest::newRow("run as this process") << false;
    }

    void everyProviderStartsItsProcessesAsThePreviewUser()
    {
        QFETCH(bool, imposed);
        if (::geteuid() != 0)
            QSKIP("starting processes as another user needs root");
        const passwd *nobody = ::getpwnam("nobody");
        if (nobody == nullptr)
            QSKIP("needs a user named nobody");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // The preview user reads the scaffold's templates and the child manifest with its own
        // rights, so it must be able to reach them.
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
        const auto path = [&](const char *name) { return dir.filePath(QString::fromUtf8(name)); };

        // apt-get, dpkg-query, dnf and rpm in a directory of their own, a systemd "host" root,
        // and goss: all there only so that their providers are chosen; the probe runs instead.
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("bin")));
        for (const char *tool : {"bin/apt-get", "bin/dpkg-query", "bin/dnf", "bin/rpm", "goss"})
            QVERIFY(writeExecutable(path(tool)));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("host/run/systemd/system")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("host/usr/bin")));
        QVERIFY(writeExecutable(path("host/usr/bin/systemctl")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("templates")));
        QVERIFY(ccm::test::writeFile(path("templates/motd.txt"), "hello\n"));
        QVERIFY(ccm::test::writeFile(path("child.yaml"),
            "ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            unless: /usr/bin/child-guard\n"));

        Catalog catalog;
        catalog.addType(std::make_unique<PackageType>());
        catalog.addProvider(std::make_unique<AptPackageProviderFactory>(path("bin").toStdString()));
        catalog.addProvider(std::make_unique<DnfPackageProviderFactory>(path("bin").toStdString()));
        catalog.addType(std::make_unique<ServiceType>());
        catalog.addProvider(std::make_unique<SystemdServiceProviderFactory>(path("host").toStdString()));
        registerExecResources(catalog);
        registerScaffoldResources(catalog);
        registerApplyResources(catalog);
        registerFileResources(catalog);

        const std::string manifest = "ccm:\n  resources:\n"
                                     "    - package:\n        - nginx: {ensure: present, provider: apt}\n"
                                     "        - httpd: {ensure: present, provider: dnf}\n"
                                     "    - service:\n        - ssh: {ensure: running, enable: true}\n"
                                     "    - exec:\n        - /usr/bin/posix-command:\n"
                                     "            onlyif: /usr/bin/posix-onlyif\n"
                                     "            unless: /usr/bin/posix-unless\n"
                                     "        - shell-command:\n            provider: shell\n"
                                     "            unless: shell-unless\n"
                                     "    - scaffold:\n        - "
            + path("target").toStdString()
            + ":\n            ensure: present\n            source: " + path("templates").toStdString()
            + "\n            post: [{\"*.txt\": /usr/bin/scaffold-post}]\n"
              "    - file:\n        - "
            + path("checked").toStdString()
            + ":\n            ensure: present\n            owner: root\n            group: root\n            mode: "
              "\"0644\"\n            content: x\n            health_checks:\n"
              "              - {command: /usr/bin/nagios-check}\n"
              "              - {goss_rules: {file: {/etc/passwd: {exists: true}}}}\n"
              "    - apply:\n        - "
            + path("child.yaml").toStdString() + ": {}\n";
        QVERIFY(ccm::test::writeFile(path("manifest.yaml"), QByteArray::fromStdString(manifest)));
        ResolveOptions inputs;
        inputs.facts = Json::object();
        inputs.baseDirectory = dir.path().toStdString();
        const PreparedManifest prepared = prepareManifestFile(path("manifest.yaml").toStdString(), inputs);
        QVERIFY2(prepared.ok(), prepared.diagnosticText().c_str());

        RunOptions options;
        options.noop = true;
        options.gossBinary = path("goss").toStdString();
        if (imposed)
            options.processCredentials = Credentials {nobody->pw_uid, nobody->pw_gid, {nobody->pw_gid}};
        IdentityProbe probe;
        Silent observer;
        runManifest(prepared.resolved, inputs, options, probe, observer, catalog);

        std::map<std::string, std::string> uids;
        for (const auto &[program, uid] : probe.seen()) {
            const auto [it, inserted] = uids.emplace(program, uid);
            QVERIFY2(inserted || it->second == uid, qPrintable(q(program + " ran as " + uid + " and " + it->second)));
        }
        // One program of every provider and check that starts processes.
        const std::vector<std::string> expected {"dpkg-query", "rpm", "systemctl", "/usr/bin/posix-onlyif", "/bin/sh",
            "/usr/bin/scaffold-post", "/usr/bin/nagios-check", path("goss").toStdString(), "/usr/bin/child-guard"};
        const std::string wanted = std::to_string(imposed ? nobody->pw_uid : ::geteuid());
        for (const std::string &program : expected) {
            const auto found = uids.find(program);
            QVERIFY2(found != uids.end(), qPrintable(q("no process was started for " + program)));
            QCOMPARE(q(program + " as " + found->second), q(program + " as " + wanted));
        }
        for (const auto &[program, uid] : uids)
            QCOMPARE(q(program + " as " + uid), q(program + " as " + wanted));
        // The staging tree the post command ran in was the preview user's, and is gone.
        QVERIFY(!QFileInfo::exists(path("target")));
    }
};

CCM_TEST_GUILESS_MAIN(TestPreviewIdentity)
#include "tst_preview_identity.moc"
