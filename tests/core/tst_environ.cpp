// SPDX-License-Identifier: Apache-2.0
#include "core/facts/environ.h"
#include "test_main.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestEnviron : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("expected"); // KEY=value, in file order
        QTest::newRow("plain") << QStringLiteral("A=1\nB=two words\n")
                               << QStringList {QStringLiteral("A=1"), QStringLiteral("B=two words")};
        QTest::newRow("double quotes") << QStringLiteral("A=\"quoted # not a comment\"")
                                       << QStringList {QStringLiteral("A=quoted # not a comment")};
        QTest::newRow("single quotes") << QStringLiteral("A='it is \"so\"'")
                                       << QStringList {QStringLiteral("A=it is \"so\"")};
        QTest::newRow("no escapes inside quotes")
            << QStringLiteral("A=\"a\\nb\"") << QStringList {QStringLiteral("A=a\\nb")};
        QTest::newRow("mismatched quotes ignored") << QStringLiteral("A=\"x'") << QStringList();
        QTest::newRow("unclosed quote ignored")
            << QStringLiteral("A=\"open\nB=2") << QStringList {QStringLiteral("B=2")};
        QTest::newRow("quote inside value kept") << QStringLiteral("A=it's") << QStringList {QStringLiteral("A=it's")};
        QTest::newRow("text after closing quote")
            << QStringLiteral("A=\"x\" y\nB=\"x\" # note") << QStringList {QStringLiteral("B=x")};
        QTest::newRow("export prefix") << QStringLiteral("export A=1\nexport\tB=2\nexported=3")
                                       << QStringList {QStringLiteral("A=1"), QStringLiteral("B=2"),
                                              QStringLiteral("exported=3")};
        QTest::newRow("comments and blank lines")
            << QStringLiteral("# comment\n\n   \n  # indented comment\nA=1 # trailing\nB=x#y\n")
            << QStringList {QStringLiteral("A=1"), QStringLiteral("B=x#y")};
        QTest::newRow("value starting with #")
            << QStringLiteral("COLOR=#fff") << QStringList {QStringLiteral("COLOR=#fff")};
        QTest::newRow("empty values dropped")
            << QStringLiteral("A=\nB=\"\"\nC=''\nD= # nothing\nE=e") << QStringList {QStringLiteral("E=e")};
        QTest::newRow("malformed lines ignored") << QStringLiteral("no equals\n=value\n1A=x\nA B=x\nA-B=x\nGOOD=yes\n")
                                                 << QStringList {QStringLiteral("GOOD=yes")};
        QTest::newRow("spaces around =") << QStringLiteral("  A = padded  \n")
                                         << QStringList {QStringLiteral("A=padded")};
        QTest::newRow("value holding =") << QStringLiteral("URL=a=b&c=d")
                                         << QStringList {QStringLiteral("URL=a=b&c=d")};
        QTest::newRow("CRLF") << QStringLiteral("A=1\r\nB=\"2\"\r\n")
                              << QStringList {QStringLiteral("A=1"), QStringLiteral("B=2")};
        QTest::newRow("repeated key kept in order")
            << QStringLiteral("A=1\nA=2") << QStringList {QStringLiteral("A=1"), QStringLiteral("A=2")};
        QTest::newRow("empty") << QString() << QStringList();
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, expected);
        QStringList parsed;
        for (const auto &[key, value] : parseDotenv(text.toStdString()))
            parsed << q(key) + QLatin1Char('=') + q(value);
        QCOMPARE(parsed, expected);
    }

    void dotenvOverridesProcessEnvironment()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString dotenv = dir.filePath(QStringLiteral(".env"));
        QVERIFY(writeFile(dotenv, "CCM_TEST_OVERRIDDEN=from-dotenv\nCCM_TEST_KEPT=\nCCM_TEST_ADDED='added'\n"));
        qputenv("CCM_TEST_OVERRIDDEN", "from-process");
        qputenv("CCM_TEST_KEPT", "kept");
        const Json environment = processEnviron(dotenv.toStdString());
        qunsetenv("CCM_TEST_OVERRIDDEN");
        qunsetenv("CCM_TEST_KEPT");

        QVERIFY(environment.is_object());
        QCOMPARE(q(environment.at("CCM_TEST_OVERRIDDEN").get<std::string>()), QStringLiteral("from-dotenv"));
        QCOMPARE(q(environment.at("CCM_TEST_KEPT").get<std::string>()), QStringLiteral("kept"));
        QCOMPARE(q(environment.at("CCM_TEST_ADDED").get<std::string>()), QStringLiteral("added"));
        QCOMPARE(q(environment.at("PATH").get<std::string>()), qEnvironmentVariable("PATH"));
    }

    void withoutDotenvFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qputenv("CCM_TEST_ONLY", "process");
        const Json missing = processEnviron(dir.filePath(QStringLiteral("missing.env")).toStdString());
        const Json directory = processEnviron(dir.path().toStdString());
        qunsetenv("CCM_TEST_ONLY");
        QCOMPARE(q(missing.at("CCM_TEST_ONLY").get<std::string>()), QStringLiteral("process"));
        QVERIFY(missing == directory);
    }

    void valuesAreSortedStrings()
    {
        const Json environment = processEnviron("/nonexistent/.env");
        std::string previous;
        for (const auto &[key, value] : environment.items()) {
            QVERIFY(value.is_string());
            QVERIFY2(previous < key, key.c_str());
            previous = key;
        }
    }

    void invalidUtf8IsReplaced()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString dotenv = dir.filePath(QStringLiteral(".env"));
        QVERIFY(writeFile(dotenv,
            "CCM_TEST_BYTES=a\xFF"
            "b\n"));
        qputenv("CCM_TEST_PROCESS_BYTES",
            QByteArray("c\xFE"
                       "d"));
        const Json environment = processEnviron(dotenv.toStdString());
        qunsetenv("CCM_TEST_PROCESS_BYTES");
        QCOMPARE(environment.at("CCM_TEST_BYTES").get<std::string>(),
            std::string("a\xEF\xBF\xBD"
                        "b"));
        QCOMPARE(environment.at("CCM_TEST_PROCESS_BYTES").get<std::string>(),
            std::string("c\xEF\xBF\xBD"
                        "d"));
        QVERIFY(!environment.dump().empty());
    }
};

CCM_TEST_GUILESS_MAIN(TestEnviron)
#include "tst_environ.moc"
