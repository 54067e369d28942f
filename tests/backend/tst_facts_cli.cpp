// SPDX-License-Identifier: Apache-2.0
// `ccm-backend facts` as a user runs it, on this machine.
#include "backend_process.h"
#include "test_main.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace ccm::test;

class TestFactsCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcessEnvironment m_environment = isolatedEnvironment(m_dir);

    BackendRun facts(const QStringList &arguments)
    {
        return runBackend(QStringList{QStringLiteral("facts")} + arguments, m_dir.path(), m_environment);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
    }

    void allFactsAsJson()
    {
        const BackendRun run = facts({});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject root = document.object();
        for (const char *family : {"host", "cpu", "memory", "network", "partition"})
            QVERIFY2(root.contains(QLatin1String(family)), family);
        QCOMPARE(root[QStringLiteral("host")][QStringLiteral("info")][QStringLiteral("platformFamily")].toString(),
                 QStringLiteral("debian"));
    }

    void valueAtPath_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("output");
        QTest::newRow("string printed as it is") << QStringList{QStringLiteral("host.info.platformFamily")}
                                                 << QStringLiteral("debian\n");
        QTest::newRow("os") << QStringList{QStringLiteral("host.info.os")} << QStringLiteral("linux\n");
        QTest::newRow("yaml string") << QStringList{QStringLiteral("host.info.os"), QStringLiteral("--yaml")}
                                     << QStringLiteral("linux\n");
        QTest::newRow("command line fact") << QStringList{QStringLiteral("--fact"), QStringLiteral("role=web"),
                                                          QStringLiteral("role")}
                                           << QStringLiteral("web\n");
        QTest::newRow("command line fact with equals") << QStringList{QStringLiteral("--fact=motd=a=b"), QStringLiteral("motd")}
                                                       << QStringLiteral("a=b\n");
        QTest::newRow("map as json") << QStringList{QStringLiteral("--fact"), QStringLiteral("x=1"),
                                                    QStringLiteral("--facts"), QStringLiteral("extra.json"),
                                                    QStringLiteral("app")}
                                     << QStringLiteral("{\n  \"port\": 8080,\n  \"tags\": [\n    \"a\"\n  ]\n}\n");
        QTest::newRow("map as yaml") << QStringList{QStringLiteral("--facts"), QStringLiteral("extra.json"),
                                                    QStringLiteral("app"), QStringLiteral("--yaml")}
                                     << QStringLiteral("port: 8080\ntags:\n  - a\n");
        QTest::newRow("list length") << QStringList{QStringLiteral("--facts"), QStringLiteral("extra.json"),
                                                    QStringLiteral("app.tags.#")}
                                     << QStringLiteral("1\n");
        QTest::newRow("gjson: a field of every element") << QStringList {QStringLiteral("--facts"),
            QStringLiteral("extra.json"), QStringLiteral("servers.#.name"), QStringLiteral("--yaml")}
                                                         << QStringLiteral("- a\n- b\n");
        QTest::newRow("gjson: a query") << QStringList {QStringLiteral("--facts"), QStringLiteral("extra.json"),
            QStringLiteral("servers.#(port>80).name")}
                                        << QStringLiteral("b\n");
        QTest::newRow("gjson: a modifier") << QStringList {QStringLiteral("--facts"), QStringLiteral("extra.json"),
            QStringLiteral("app|@keys"), QStringLiteral("--yaml")}
                                           << QStringLiteral("- port\n- tags\n");
    }

    void valueAtPath()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, output);
        writeFile(m_dir, QStringLiteral("extra.json"),
            R"({"app": {"port": 8080, "tags": ["a"]}, "servers": [{"name": "a", "port": 80}, {"name": "b", "port": 443}]})");
        const BackendRun run = facts(arguments);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, output);
    }

    void customFactDirectory()
    {
        writeFile(m_dir, QStringLiteral("config/choria/ccm/facts.yaml"), "site: lab\n");
        const BackendRun run = facts({QStringLiteral("site")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("lab\n"));
        QFile::remove(m_dir.filePath(QStringLiteral("config/choria/ccm/facts.yaml")));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing path") << QStringList{QStringLiteral("host.nothing.here")} << 1
                                      << QStringLiteral("no fact at 'host.nothing.here'");
        QTest::newRow("gjson feature left out")
            << QStringList {QStringLiteral("[host,cpu]")} << 2 << QStringLiteral("multipath");
        QTest::newRow("two paths") << QStringList{QStringLiteral("a"), QStringLiteral("b")} << 2
                                   << QStringLiteral("only one PATH");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--json")} << 2
                                        << QStringLiteral("unknown option '--json'");
        QTest::newRow("fact without equals") << QStringList{QStringLiteral("--fact"), QStringLiteral("x")} << 2
                                             << QStringLiteral("--fact expects KEY=VALUE");
        QTest::newRow("missing facts file") << QStringList{QStringLiteral("--facts"), QStringLiteral("none.json")} << 1
                                            << QStringLiteral("none.json");
        QTest::newRow("facts file not a map") << QStringList{QStringLiteral("--facts"), QStringLiteral("list.yaml")}
                                              << 1 << QStringLiteral("list.yaml");
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        writeFile(m_dir, QStringLiteral("list.yaml"), "- a\n- b\n");
        const BackendRun run = facts(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }
};

CCM_TEST_GUILESS_MAIN(TestFactsCli)
#include "tst_facts_cli.moc"
