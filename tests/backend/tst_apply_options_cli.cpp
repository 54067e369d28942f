// SPDX-License-Identifier: Apache-2.0
// The options of `ccm-backend apply` that upstream's `ccm apply` has and scripts written for it
// use: --render, --report/--no-report, --hiera (and $CCM_HIERA_DATA), --read-env and
// --monitor-only. Real processes, real files in temporary directories.
#include "backend_process.h"
#include "test_main.h"

#include <QFile>
#include <QTest>

using namespace ccm::test;

class TestApplyOptionsCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const char *name) const { return m_dir->filePath(s(name)); }

    /// Writes `text` with DIR replaced by the test's directory to `name`.
    QString write(const char *name, const char *text)
    {
        QString content = s(text);
        content.replace(s("DIR"), m_dir->path());
        return writeFile(*m_dir, s(name), content.toUtf8());
    }

    BackendRun apply(const QStringList &arguments, QProcessEnvironment environment = {})
    {
        if (environment.isEmpty())
            environment = isolatedEnvironment(*m_dir);
        environment.remove(s("CCM_HIERA_DATA"));
        return runBackend(QStringList {s("apply")} + arguments, m_dir->path(), environment);
    }

    static QString contentOf(const QString &file)
    {
        QFile reader(file);
        return reader.open(QIODevice::ReadOnly) ? QString::fromUtf8(reader.readAll()) : QString();
    }

    /// A manifest writing data.greeting (or "none") into DIR/out.
    QString greetingManifest()
    {
        return write("manifest.yaml", R"(data:
  greeting: from the manifest
  kept: yes
ccm:
  resources:
    - file:
        - DIR/out:
            ensure: present
            content: "{{ lookup('data.greeting', 'none') }} {{ lookup('data.kept', 'none') }}"
            owner: root
            group: root
            mode: "0644"
)");
    }

    static QStringList identityFacts() { return {s("--fact"), s("user=root")}; }

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void renderPrintsTheResolvedManifestAndAppliesNothing()
    {
        const QString manifest = greetingManifest();
        const BackendRun run = apply(QStringList {manifest, s("--render")} + identityFacts());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(s("from the manifest")), qPrintable(run.out));
        QVERIFY(!QFileInfo::exists(path("out")));
    }

    void noReportLeavesOutTheSummary()
    {
        const QString manifest = greetingManifest();
        const BackendRun reported = apply(QStringList {manifest, s("--noop")} + identityFacts());
        QVERIFY2(reported.exitCode == 0, qPrintable(reported.err));
        QVERIFY(reported.out.contains(s("Resources: ")));
        for (const QString &flag : {s("--no-report"), s("--report=false")}) {
            const BackendRun quiet = apply(QStringList {manifest, s("--noop"), flag} + identityFacts());
            QVERIFY2(quiet.exitCode == 0, qPrintable(quiet.err));
            QVERIFY2(!quiet.out.contains(s("Resources: ")), qPrintable(quiet.out));
            QVERIFY(quiet.out.contains(s("file#") + path("out")));
        }
    }

    void hieraDataIsMergedOverTheManifestsAndUnderData()
    {
        const QString manifest = greetingManifest();
        const QString hiera = write("hiera.yaml", R"(data:
  greeting: from hiera
hierarchy:
  order: ["user:{{ lookup('facts.user') }}"]
overrides:
  "user:nobody-at-all":
    greeting: from an override that does not match
)");
        BackendRun run = apply(QStringList {manifest, s("--hiera"), hiera} + identityFacts());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QCOMPARE(contentOf(path("out")), s("from hiera yes"));

        // --data wins over --hiera.
        const QString data = write("data.yaml", "greeting: from --data\n");
        run = apply(QStringList {manifest, s("--hiera"), hiera, s("--data"), data} + identityFacts());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QCOMPARE(contentOf(path("out")), s("from --data yes"));

        // $CCM_HIERA_DATA is the default of --hiera.
        QFile::remove(path("out"));
        QProcessEnvironment environment = isolatedEnvironment(*m_dir);
        environment.remove(s("CCM_HIERA_DATA"));
        QProcess process;
        environment.insert(s("CCM_HIERA_DATA"), hiera);
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(m_dir->path());
        process.start(s(CCM_BACKEND_BIN), QStringList {s("apply"), manifest} + identityFacts());
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(contentOf(path("out")), s("from hiera yes"));
    }

    void aBrokenOrMissingHieraSourceIsRefusedBeforeAnythingRuns()
    {
        const QString manifest = greetingManifest();
        const QString broken = write("broken.yaml", "data:\n  greeting: [unclosed\n");
        BackendRun run = apply(QStringList {manifest, s("--hiera"), broken} + identityFacts());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(broken + s(":")), qPrintable(run.err));
        QVERIFY(!QFileInfo::exists(path("out")));

        run = apply(QStringList {manifest, s("--hiera"), path("missing.yaml")} + identityFacts());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(s("missing.yaml")), qPrintable(run.err));
        QVERIFY(!QFileInfo::exists(path("out")));

        QCOMPARE(apply({manifest, s("--hiera")}).exitCode, 2);
    }

    void readEnvMergesTheDotEnvFileUnlessTurnedOff()
    {
        const QString manifest = write("env.yaml", R"(ccm:
  resources:
    - file:
        - DIR/env-out:
            ensure: present
            content: "{{ lookup('environ.CCM_TEST_FROM_DOT_ENV', 'unset') }}"
            owner: root
            group: root
            mode: "0644"
)");
        write(".env", "CCM_TEST_FROM_DOT_ENV=\"from dot env\"\n");
        BackendRun run = apply({manifest});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QCOMPARE(contentOf(path("env-out")), s("from dot env"));
        for (const QString &flag : {s("--no-read-env"), s("--read-env=false")}) {
            run = apply({manifest, flag});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
            QCOMPARE(contentOf(path("env-out")), s("unset"));
            run = apply({manifest});
            QCOMPARE(contentOf(path("env-out")), s("from dot env"));
        }
    }

    void debugLinesShowOnlyWithDebug()
    {
        const QString manifest = greetingManifest();
        const BackendRun quiet = apply(QStringList {manifest, s("--noop")} + identityFacts());
        QVERIFY2(quiet.exitCode == 0, qPrintable(quiet.err));
        QVERIFY2(!quiet.out.contains(s("debug ")), qPrintable(quiet.out));
        for (const QStringList &arguments :
            {QStringList {s("--debug"), s("apply")}, QStringList {s("apply"), s("--debug")}}) {
            const BackendRun loud = runBackend(arguments + QStringList {manifest, s("--noop")} + identityFacts(),
                m_dir->path(), isolatedEnvironment(*m_dir));
            QVERIFY2(loud.exitCode == 0, qPrintable(loud.err));
            QVERIFY2(loud.out.contains(s("debug   file#") + path("out")), qPrintable(loud.out));
        }
        QCOMPARE(runBackend({s("--info"), s("apply"), manifest, s("--noop"), s("--fact"), s("user=root")},
                     m_dir->path(), isolatedEnvironment(*m_dir))
                     .exitCode,
            0);
    }

    void monitorOnlyRunsTheHealthChecksAndChangesNothing()
    {
        const QString manifest = write("checks.yaml", R"(ccm:
  resources:
    - file:
        - DIR/never:
            ensure: present
            content: "x"
            owner: root
            group: root
            mode: "0644"
            health_checks:
              - command: /bin/true
)");
        const BackendRun run = apply({manifest, s("--monitor-only")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QVERIFY(!QFileInfo::exists(path("never")));
    }
};

CCM_TEST_MAIN(TestApplyOptionsCli)
#include "tst_apply_options_cli.moc"
