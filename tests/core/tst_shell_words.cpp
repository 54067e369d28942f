// SPDX-License-Identifier: Apache-2.0
#include "base/shell_words.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestShellWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void split_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QString>("error");
        QTest::newRow("simple") << QStringLiteral("ls -l /tmp") << QStringList{QStringLiteral("ls"), QStringLiteral("-l"), QStringLiteral("/tmp")} << QString();
        QTest::newRow("extra spaces") << QStringLiteral("  a \t b  ") << QStringList{QStringLiteral("a"), QStringLiteral("b")} << QString();
        QTest::newRow("single quotes") << QStringLiteral("echo 'a  b' c") << QStringList{QStringLiteral("echo"), QStringLiteral("a  b"), QStringLiteral("c")} << QString();
        QTest::newRow("double quotes") << QStringLiteral("echo \"a \\\"b\\\" $X\"") << QStringList{QStringLiteral("echo"), QStringLiteral("a \"b\" $X")} << QString();
        QTest::newRow("backslash") << QStringLiteral("a\\ b c") << QStringList{QStringLiteral("a b"), QStringLiteral("c")} << QString();
        QTest::newRow("adjacent quotes") << QStringLiteral("x'y'\"z\"") << QStringList{QStringLiteral("xyz")} << QString();
        QTest::newRow("empty quotes") << QStringLiteral("a ''") << QStringList{QStringLiteral("a"), QString()} << QString();
        QTest::newRow("literal in single") << QStringLiteral("'a\\b'") << QStringList{QStringLiteral("a\\b")} << QString();
        QTest::newRow("empty") << QString() << QStringList{} << QString();
        QTest::newRow("unterminated single") << QStringLiteral("echo 'hi") << QStringList{} << QStringLiteral("unterminated single quote at column 6");
        QTest::newRow("unterminated double") << QStringLiteral("echo \"hi") << QStringList{} << QStringLiteral("unterminated double quote at column 6");
        QTest::newRow("trailing backslash") << QStringLiteral("echo \\") << QStringList{} << QStringLiteral("unterminated backslash");
    }

    void split()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, words);
        QFETCH(QString, error);
        const auto result = splitShellWords(line.toStdString());
        if (!error.isEmpty()) {
            QVERIFY(!result.ok());
            QVERIFY2(q(result.error().message).contains(error), qPrintable(q(result.error().message)));
            return;
        }
        QVERIFY(result.ok());
        QStringList actual;
        for (const std::string &word : result.value())
            actual << q(word);
        QCOMPARE(actual, words);
    }
};

CCM_TEST_GUILESS_MAIN(TestShellWords)
#include "tst_shell_words.moc"
