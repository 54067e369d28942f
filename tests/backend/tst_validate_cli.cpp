// SPDX-License-Identifier: Apache-2.0
// `ccm-backend validate` as a user runs it: a real process on real files.
#include "backend_process.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm::test;

class TestValidateCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
    }

    void allExamplesAreValid()
    {
        QStringList files;
        const QDir examples(examplePath(QString()));
        for (const QString &name : examples.entryList({QStringLiteral("*.yaml")}, QDir::Files))
            files << examples.filePath(name);
        const BackendRun run = runBackend(QStringList{QStringLiteral("validate")} + files);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QString());
        QVERIFY2(run.err.contains(QStringLiteral("%1 files checked: 0 errors, 0 warnings").arg(files.size())), qPrintable(run.err));
    }

    void reportsFileLineColumn()
    {
        const QString path = writeFile(m_dir, QStringLiteral("bad.yaml"),
                                   "ccm:\n"
                                   "  resources:\n"
                                   "    - file:\n"
                                   "        - /etc/motd:\n"
                                   "            ensure: present\n"
                                   "            owner: root\n"
                                   "            group: root\n"
                                   "            mode: \"0964\"\n"
                                   "    - package:\n"
                                   "        - vim: {ensure: present, colour: blue}\n");
        const BackendRun run = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(run.exitCode, 1);
        const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], path + QStringLiteral(":8:19: error: file#/etc/motd: mode '0964' is not octal: '9' is not a digit from 0 to 7"));
        QCOMPARE(lines[1], path + QStringLiteral(":10:34: error: package#vim: unknown package property 'colour'"));
        QVERIFY(run.err.contains(QStringLiteral("1 file checked: 2 errors, 0 warnings")));
    }

    void reportsDataAnnotations()
    {
        const QString path = writeFile(m_dir, QStringLiteral("annotated.yaml"),
            "data:\n"
            "  # @validate isIPv4(value)\n"
            "  listen: 10.0.0.300\n"
            "  port: 80x # @validate isInt(value)\n"
            "  # @validate isInt(value\n"
            "  broken: 1\n"
            "  # @valdate isInt(value)\n"
            "  typo: 1\n"
            "  # @validate isInt(value)\n"
            "  templated: \"{{ Facts.x }}\"\n"
            "  # @validate isInt(value)\n"
            "  overridden: x\n"
            "overrides:\n"
            "  default:\n"
            "    overridden: 1\n"
            "ccm:\n"
            "  resources: []\n");
        const BackendRun run = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(run.exitCode, 1);
        const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines,
            QStringList({path + QStringLiteral(":3:3: error: data value 'listen' fails @validate isIPv4(value)"),
                path + QStringLiteral(":4:3: error: data value 'port' fails @validate isInt(value)"),
                path
                    + QStringLiteral(":5:26: error: @validate isInt(value of data value 'broken' is not a valid "
                                     "expression: expected ',' or ')'"),
                path
                    + QStringLiteral(":7:5: warning: unknown annotation '@valdate'; the annotations are @require, "
                                     "@required and @validate")}));
    }

    void warningsDoNotFail()
    {
        const QString path = writeFile(m_dir, QStringLiteral("warn.yaml"), "ccm:\n  resources:\n    - package:\n        - vim: {ensure: present}\n"
                                                                "        - vim: {ensure: latest}\n");
        const BackendRun run = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith(path + QStringLiteral(":5:11: warning: package#vim is declared more than once")), qPrintable(run.out));
    }

    void jsonOutput()
    {
        const QString good = examplePath(QStringLiteral("webserver.yaml"));
        const QString bad = writeFile(m_dir, QStringLiteral("bad-json.yaml"), "ccm:\n  resources:\n    - service:\n        - \"a b\": {}\n");
        const BackendRun run = runBackend({QStringLiteral("validate"), QStringLiteral("--json"), good, bad});
        QCOMPARE(run.exitCode, 1);
        QJsonParseError error;
        const QJsonObject report = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(report.value(QStringLiteral("valid")).toBool(true), false);
        const QJsonArray files = report.value(QStringLiteral("files")).toArray();
        QCOMPARE(files.size(), 2);
        QCOMPARE(files[0].toObject().value(QStringLiteral("valid")).toBool(), true);
        QCOMPARE(files[0].toObject().value(QStringLiteral("diagnostics")).toArray().size(), 0);
        const QJsonObject second = files[1].toObject();
        QCOMPARE(second.value(QStringLiteral("file")).toString(), bad);
        const QJsonObject diagnostic = second.value(QStringLiteral("diagnostics")).toArray().at(0).toObject();
        QCOMPARE(diagnostic.value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
        QCOMPARE(diagnostic.value(QStringLiteral("line")).toInt(), 4);
        QCOMPARE(diagnostic.value(QStringLiteral("column")).toInt(), 11);
        QCOMPARE(diagnostic.value(QStringLiteral("path")).toString(), QStringLiteral("/ccm/resources/0/service/0/a b"));
        QVERIFY(diagnostic.value(QStringLiteral("message")).toString().contains(QStringLiteral("contains a space")));
    }

    void hostileFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QStringLiteral("empty.yaml") << QByteArray() << QStringLiteral(":1:1: error: the manifest is empty");
        QByteArray binary(4096, '\0');
        for (int i = 0; i < binary.size(); ++i)
            binary[i] = static_cast<char>((i * 7919) % 251);
        QTest::newRow("binary") << QStringLiteral("binary.yaml") << binary << QStringLiteral(": error: not a text file");
        QTest::newRow("malformed") << QStringLiteral("malformed.yaml") << QByteArray("ccm:\n  resources: [\n")
                                   << QStringLiteral(":2:14: error: invalid YAML: the '[' opened here is never closed; close it with ']'");
        QTest::newRow("deep nesting") << QStringLiteral("deep.yaml") << QByteArray(50000, '[')
                                      << QStringLiteral(": error: invalid YAML");
        QTest::newRow("long flow list")
            << QStringLiteral("flow.yaml") << "[" + QByteArray("1,").repeated(150000) + "1]"
            << QStringLiteral(":1:200003: error: the flow collection ([...] or {...}) that starts at line 1, column 1 "
                              "holds more than 100000 items");
        QByteArray bomb = "a0: &a0 [x, x]\n";
        for (int i = 1; i <= 40; ++i)
            bomb += QStringLiteral("a%1: &a%1 [*a%2, *a%2]\n").arg(i).arg(i - 1).toUtf8();
        // Refused at the alias that takes the document past a million nodes, before expanding it.
        QTest::newRow("alias bomb") << QStringLiteral("bomb.yaml") << bomb
                                    << QStringLiteral(":18:18: error: the document has more than 1000000 nodes");
    }

    void hostileFiles()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const QString path = writeFile(m_dir, name, content);
        const BackendRun run = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.startsWith(path) && run.out.contains(expected), qPrintable(run.out + run.err));
    }

    void hugeFileIsRefused()
    {
        const QString path = m_dir.filePath(QStringLiteral("huge.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(50LL * 1024 * 1024)); // sparse: costs no disk
        file.close();
        const BackendRun run = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out.trimmed(), path + QStringLiteral(": error: the file is 50 MiB; manifests are limited to 16 MiB"));
    }

    void unreadablePaths()
    {
        const QString missing = m_dir.filePath(QStringLiteral("missing.yaml"));
        BackendRun run = runBackend({QStringLiteral("validate"), missing});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out.trimmed(), missing + QStringLiteral(": error: cannot read the file: No such file or directory"));
        run = runBackend({QStringLiteral("validate"), m_dir.path()});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out.trimmed(), m_dir.path() + QStringLiteral(": error: is a directory, not a manifest file"));
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no command") << QStringList{} << 2 << QStringLiteral("Usage: ccm-backend COMMAND");
        QTest::newRow("help") << QStringList{QStringLiteral("--help")} << 0 << QStringLiteral("validate FILE...");
        QTest::newRow("version") << QStringList{QStringLiteral("--version")} << 0 << QStringLiteral("ccm-backend 0.");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << 2 << QStringLiteral("unknown command 'frobnicate'");
        QTest::newRow("validate without files") << QStringList{QStringLiteral("validate")} << 2 << QStringLiteral("no manifest given");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("validate"), QStringLiteral("--yaml"), QStringLiteral("x")} << 2
                                        << QStringLiteral("unknown option '--yaml'");
        QTest::newRow("validate help") << QStringList{QStringLiteral("validate"), QStringLiteral("--help")} << 0
                                       << QStringLiteral("Exit status: 0 when every file is valid");
    }

    void usage()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const BackendRun run = runBackend(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2((run.out + run.err).contains(expected), qPrintable(run.out + run.err));
    }

    // Every command --help lists runs, and shows help of its own rather than the command list.
    void everyListedCommandRuns()
    {
        const BackendRun help = runBackend({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        const QString commands
            = help.out.section(QStringLiteral("Commands:\n"), 1).section(QStringLiteral("\n\n"), 0, 0);
        QStringList names;
        for (const QString &line : commands.split(QLatin1Char('\n'))) {
            if (line.startsWith(QStringLiteral("  ")) && line.at(2) != QLatin1Char(' '))
                names << line.mid(2).section(QLatin1Char(' '), 0, 0);
        }
        QCOMPARE(names.size(), 19);
        for (const QString &name : names) {
            const BackendRun run = runBackend({name, QStringLiteral("--help")});
            QVERIFY2(run.exitCode == 0, qPrintable(name + QStringLiteral(": ") + run.err));
            QVERIFY2(!run.out.contains(QStringLiteral("Resolves, validates and applies CCM manifests.")), qPrintable(name));
            QVERIFY2(run.out.contains(name), qPrintable(name + QStringLiteral(": ") + run.out));
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestValidateCli)
#include "tst_validate_cli.moc"
