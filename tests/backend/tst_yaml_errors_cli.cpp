// SPDX-License-Identifier: Apache-2.0
// YAML mistakes as validate, render and apply report them, as real processes: the line at fault
// and what is wrong there, in plain words.
#include "backend_process.h"
#include "test_main.h"

#include <QTemporaryDir>
#include <QtTest>

using ccm::test::BackendRun;
using ccm::test::runBackend;

class TestYamlErrorsCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void mistakes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); ///< after "FILE:"
        // The mistake on line 6; the YAML parser itself stops on line 7 ("illegal map value").
        QTest::newRow("indented less than its siblings")
            << QByteArray("ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            owner: root\n"
                          "           ensure: present\n            group: root\n            mode: \"0644\"\n")
            << QStringLiteral(
                   "6:12: error: invalid YAML: `ensure` is indented 11 spaces but its siblings 12 (`owner` on "
                   "line 5)");
        QTest::newRow("indented more than its siblings")
            << QByteArray("ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            owner: root\n"
                          "              ensure: present\n            group: root\n")
            << QStringLiteral("6:15: error: invalid YAML: `ensure` is indented 14 spaces but its siblings 12 (`owner` "
                              "on line 5); only a line that ends with ':' or '-' starts a deeper level");
        QTest::newRow("missing colon") << QByteArray(
            "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            owner root\n"
            "            group: root\n")
                                       << QStringLiteral(
                                              "5:13: error: invalid YAML: expected `key: value`, found `owner root`");
        QTest::newRow("no space after the colon")
            << QByteArray("ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            owner:root\n"
                          "            group: root\n")
            << QStringLiteral(
                   "5:13: error: invalid YAML: expected `key: value`, found `owner:root`; put a space after the ':'");
        QTest::newRow("tab") << QByteArray("ccm:\n  resources:\n\t- file: []\n")
                             << QStringLiteral(
                                    "3:1: error: invalid YAML: a tab indents this line; YAML indents with spaces only");
        QTest::newRow("unclosed bracket")
            << QByteArray("data:\n  ports: [80, 443\nccm:\n  resources: []\n")
            << QStringLiteral("2:10: error: invalid YAML: the '[' opened here is never closed; close it with ']'");
    }

    void mistakes()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const QString path
            = QStringLiteral("%1/%2.yaml")
                  .arg(m_dir.path(),
                      QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QVERIFY(ccm::test::writeFile(path, text));
        const QString line = path + QLatin1Char(':') + expected;
        const BackendRun validate = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(validate.exitCode, 1);
        QCOMPARE(validate.out.trimmed(), line);
        const BackendRun render = runBackend({QStringLiteral("render"), path});
        QVERIFY2(render.exitCode != 0, qPrintable(render.out));
        QVERIFY2(render.err.contains(line), qPrintable(render.err));
        const BackendRun apply = runBackend({QStringLiteral("apply"), QStringLiteral("--noop"), path});
        QVERIFY2(apply.exitCode != 0, qPrintable(apply.out));
        QVERIFY2((apply.err + apply.out).contains(line), qPrintable(apply.err + apply.out));
    }
};

CCM_TEST_GUILESS_MAIN(TestYamlErrorsCli)
#include "tst_yaml_errors_cli.moc"
