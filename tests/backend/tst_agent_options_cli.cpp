// SPDX-License-Identifier: Apache-2.0
// The options upstream's `ccm agent` has beside --config: --context (and $NATS_CONTEXT) over the
// configuration's nats_context, and the global --debug/--info over its log_level. A real agent
// process runs a local manifest once; its log says which NATS context it reached for.
#include "backend_process.h"
#include "test_main.h"

#include <QTest>

using namespace ccm::test;

class TestAgentOptionsCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    BackendRun agent(const QStringList &arguments, const QString &natsContext = {})
    {
        QProcessEnvironment environment = isolatedEnvironment(*m_dir);
        environment.remove(s("NATS_CONTEXT"));
        if (!natsContext.isEmpty())
            environment.insert(s("NATS_CONTEXT"), natsContext);
        return runBackend(
            QStringList {s("agent"), s("--config"), m_dir->filePath(s("agent.yaml")), s("--once")} + arguments,
            m_dir->path(), environment);
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        const QByteArray out = m_dir->filePath(s("out")).toUtf8();
        writeFile(*m_dir, s("manifest.yaml"),
            "ccm:\n  resources:\n    - file:\n        - " + out
                + ": {ensure: present, content: \"x\", owner: root, group: root, mode: \"0644\"}\n");
        writeFile(*m_dir, s("agent.yaml"),
            "identity: a1\ncache_dir: " + m_dir->filePath(s("cache")).toUtf8() + "\nmanifests:\n  - "
                + m_dir->filePath(s("manifest.yaml")).toUtf8() + "\nnats_context: FROM_CONFIG\nlog_level: info\n");
    }

    void debugOverridesTheConfiguredLevel()
    {
        const BackendRun quiet = agent({});
        QVERIFY2(quiet.exitCode == 0, qPrintable(quiet.err));
        QVERIFY2(!quiet.err.contains(s("debug: ")), qPrintable(quiet.err));
        const BackendRun loud = agent({s("--debug")});
        QVERIFY2(loud.exitCode == 0, qPrintable(loud.err));
        QVERIFY2(loud.err.contains(s("debug: ")), qPrintable(loud.err));
        QVERIFY(QFileInfo::exists(m_dir->filePath(s("out"))));
    }

    void contextComesFromTheFlagThenTheEnvironmentThenTheConfiguration()
    {
        BackendRun run = agent({s("--debug")});
        QVERIFY2(run.err.contains(s("NATS context 'FROM_CONFIG' not found")), qPrintable(run.err));
        run = agent({s("--debug")}, s("FROM_ENVIRONMENT"));
        QVERIFY2(run.err.contains(s("NATS context 'FROM_ENVIRONMENT' not found")), qPrintable(run.err));
        run = agent({s("--debug"), s("--context"), s("FROM_FLAG")}, s("FROM_ENVIRONMENT"));
        QVERIFY2(run.err.contains(s("NATS context 'FROM_FLAG' not found")), qPrintable(run.err));
        QVERIFY(!run.err.contains(s("FROM_ENVIRONMENT")));
    }

    void badArgumentsAreUsageErrors()
    {
        QCOMPARE(agent({s("--context")}).exitCode, 2);
        QCOMPARE(agent({s("--bogus")}).exitCode, 2);
    }
};

CCM_TEST_MAIN(TestAgentOptionsCli)
#include "tst_agent_options_cli.moc"
