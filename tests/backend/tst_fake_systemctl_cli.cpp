// SPDX-License-Identifier: Apache-2.0
// Real ccm-backend runs against tests/fixtures/capture/fake-systemctl --isolate: the systemd
// provider is chosen and queries and changes services of the recorded Debian 12 host.
#include "backend_process.h"
#include "test_common.h"
#include "test_main.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace ccm::test;

namespace {

const QString kFakeSystemctl = QStringLiteral(CCM_FIXTURES_DIR "/capture/fake-systemctl");

/// The counts of the "Resources:" summary line.
QString fakeSystemctlResources(const QString &out)
{
    for (const QString &line : out.split(QLatin1Char('\n')))
        if (line.startsWith(s("Resources: ")))
            return line.mid(11);
    return {};
}

} // namespace

class TestFakeSystemctlCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const char *name) const { return m_dir->filePath(s(name)); }

    /// `ccm-backend ARGUMENTS` inside the fake's namespace, the fake's command lines logged.
    BackendRun isolated(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment environment = isolatedEnvironment(*m_dir);
        environment.insert(s("FAKE_SYSTEMCTL_LOG"), path("systemctl.log"));
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(m_dir->path());
        process.start(kFakeSystemctl, QStringList {s("--isolate"), s(CCM_BACKEND_BIN)} + arguments);
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            return {};
        }
        BackendRun run;
        run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
        run.out = QString::fromUtf8(process.readAllStandardOutput());
        run.err = QString::fromUtf8(process.readAllStandardError());
        return run;
    }

    QStringList logged() const
    {
        return QString::fromUtf8(readAll(path("systemctl.log"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("the fake's private mount namespace needs root");
        QProcess process;
        process.start(kFakeSystemctl, {s("--isolate"), s("true")});
        QVERIFY(process.waitForFinished(30000));
        if (process.exitCode() != 0)
            QSKIP(
                qPrintable(s("no private mount namespace here: ") + QString::fromUtf8(process.readAllStandardError())));
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void aNoopOfTheRecordedStateFindsNothingToChange()
    {
        QVERIFY(writeFile(path("services.yaml"),
            "ccm:\n  resources:\n    - service:\n        - ssh:\n            ensure: running\n            enable: "
            "true\n"
            "        - rsync:\n            ensure: stopped\n            enable: false\n"
            "        - smartmontools:\n            ensure: stopped\n            enable: true\n"));
        const BackendRun run = isolated({s("apply"), s("--noop"), path("services.yaml")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(fakeSystemctlResources(run.out),
            s("total=3 stable=3 changed=0 failed=0 skipped=0 refreshed=0 unmet_requirements=0"));
        for (const QString &line : logged())
            QVERIFY2(line.startsWith(s("is-active ")) || line.startsWith(s("is-enabled ")), qPrintable(line));
        QVERIFY(logged().contains(s("is-active --system ssh")));
    }

    void aRealRunChangesTheNamespacesCopyOnly()
    {
        const QByteArray committed = readAll(s(CCM_FIXTURES_DIR "/capture/systemctl/list-units.txt"));
        QVERIFY(writeFile(path("start.yaml"),
            "ccm:\n  resources:\n    - service:\n        - rsync:\n            ensure: running\n            enable: "
            "true\n"));
        const BackendRun noop = isolated({s("apply"), s("--noop"), path("start.yaml")});
        QVERIFY2(noop.exitCode == 0, qPrintable(noop.out + noop.err));
        QCOMPARE(fakeSystemctlResources(noop.out),
            s("total=1 stable=0 changed=1 failed=0 skipped=0 refreshed=0 unmet_requirements=0"));
        QVERIFY(!logged().contains(s("start --system rsync")));

        const BackendRun run = isolated({s("apply"), path("start.yaml")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(fakeSystemctlResources(run.out),
            s("total=1 stable=0 changed=1 failed=0 skipped=0 refreshed=0 unmet_requirements=0"));
        QVERIFY2(logged().contains(s("start --system rsync")), qPrintable(logged().join(s(", "))));
        QVERIFY(logged().contains(s("enable --system rsync")));
        QCOMPARE(readAll(s(CCM_FIXTURES_DIR "/capture/systemctl/list-units.txt")), committed);
    }

    void withoutSystemdTheProviderIsNotChosen()
    {
        QVERIFY(writeFile(
            path("ssh.yaml"), "ccm:\n  resources:\n    - service:\n        - ssh:\n            ensure: running\n"));
        const BackendRun run
            = runBackend({s("apply"), s("--noop"), path("ssh.yaml")}, m_dir->path(), isolatedEnvironment(*m_dir));
        if (QFile::exists(s("/run/systemd/system")))
            QSKIP("systemd runs on this host");
        QVERIFY2(run.exitCode != 0 || !run.out.contains(s("failed=0")), qPrintable(run.out + run.err));
        QVERIFY2((run.out + run.err).contains(s("/run/systemd/system")), qPrintable(run.out + run.err));
    }
};

CCM_TEST_GUILESS_MAIN(TestFakeSystemctlCli)
#include "tst_fake_systemctl_cli.moc"
