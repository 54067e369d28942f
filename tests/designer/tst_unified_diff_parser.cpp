// SPDX-License-Identifier: Apache-2.0
#include "designer/core/unified_diff.h"
#include "test_main.h"

#include <QTest>

using ccm::designer::DiffLine;
using ccm::designer::parseUnifiedDiff;
using ccm::designer::sideBySideRows;
using LineKind = DiffLine::Kind;

namespace {

// One character per line of all hunks: ' ' context, '+' added, '-' removed, '$' no newline after it.
QString shape(const ccm::designer::UnifiedDiff &diff)
{
    QString text;
    for (const auto &hunk : diff.hunks) {
        text += QLatin1Char('|');
        for (const DiffLine &line : hunk.lines) {
            text += line.kind == LineKind::Added ? QLatin1Char('+')
                : line.kind == LineKind::Removed ? QLatin1Char('-')
                                                 : QLatin1Char(' ');
            if (line.noNewlineAtEnd)
                text += QLatin1Char('$');
        }
    }
    return text;
}

} // namespace

class TestUnifiedDiff : public QObject {
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void lineNumbersAndNames();
    void sideBySideAlignsRuns();
};

void TestUnifiedDiff::parse_data()
{
    QTest::addColumn<QString>("diff");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<int>("errors");

    QTest::newRow("empty") << QString() << QString() << 0;
    QTest::newRow("creation") << QStringLiteral("--- /dev/null\n+++ /tmp/x\n@@ -0,0 +1 @@\n+hello\n")
                              << QStringLiteral("|+") << 0;
    QTest::newRow("deletion") << QStringLiteral("--- /tmp/x\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n")
                              << QStringLiteral("|--") << 0;
    QTest::newRow("change with context") << QStringLiteral("@@ -1,3 +1,4 @@\n a\n-b\n+B\n+C\n c\n")
                                         << QStringLiteral("| -++ ") << 0;
    QTest::newRow("two hunks") << QStringLiteral("@@ -1 +1 @@\n-a\n+b\n@@ -10,2 +10,2 @@\n x\n-y\n+z\n")
                               << QStringLiteral("|-+| -+") << 0;
    QTest::newRow("no newline at end") << QStringLiteral(
        "@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n\\ No newline at end of file\n")
                                       << QStringLiteral("|-$+$") << 0;
    QTest::newRow("removed line that looks like a header")
        << QStringLiteral("@@ -1,2 +1 @@\n--- not a header\n keep\n") << QStringLiteral("|- ") << 0;
    QTest::newRow("empty context line without its space")
        << QStringLiteral("@@ -1,3 +1,3 @@\n a\n\n-c\n+d\n") << QStringLiteral("|  -+") << 0;
    QTest::newRow("garbage") << QStringLiteral("this is not a diff\nat all\n") << QString() << 0;
    QTest::newRow("bad hunk header skips its lines")
        << QStringLiteral("@@ -x +1 @@\n+lost\n@@ -1 +1 @@\n-a\n+b\n") << QStringLiteral("|-+") << 1;
    QTest::newRow("hunk ends early") << QStringLiteral("@@ -1,3 +1,3 @@\n a\n") << QStringLiteral("| ") << 1;
    QTest::newRow("more lines than announced")
        << QStringLiteral("@@ -1 +1 @@\n-a\n+b\n+c\n") << QStringLiteral("|-+") << 1;
    QTest::newRow("stray no-newline marker") << QStringLiteral("\\ No newline at end of file\n") << QString() << 1;
    QTest::newRow("huge numbers") << QStringLiteral("@@ -99999999999 +1 @@\n-a\n") << QString() << 1;
}

void TestUnifiedDiff::parse()
{
    QFETCH(QString, diff);
    QFETCH(QString, shape);
    QFETCH(int, errors);
    const auto parsed = parseUnifiedDiff(diff);
    QCOMPARE(::shape(parsed), shape);
    QCOMPARE(parsed.errors.size(), errors);
    for (const QString &error : parsed.errors)
        QVERIFY2(error.startsWith(QStringLiteral("line ")), qPrintable(error));
}

void TestUnifiedDiff::lineNumbersAndNames()
{
    const auto diff = parseUnifiedDiff(
        QStringLiteral("--- a/motd\t2024-01-01\n+++ b/motd\n@@ -5,3 +5,3 @@ section\n x\n-y\n+z\n w\n"));
    QCOMPARE(diff.oldName, QStringLiteral("a/motd"));
    QCOMPARE(diff.newName, QStringLiteral("b/motd"));
    QCOMPARE(diff.hunks.size(), 1);
    const auto &hunk = diff.hunks.first();
    QCOMPARE(hunk.header, QStringLiteral("@@ -5,3 +5,3 @@ section"));
    QCOMPARE(hunk.lines.size(), 4);
    QCOMPARE(hunk.lines.at(0).oldLine, 5);
    QCOMPARE(hunk.lines.at(0).newLine, 5);
    QCOMPARE(hunk.lines.at(1).oldLine, 6);
    QCOMPARE(hunk.lines.at(1).newLine, 0);
    QCOMPARE(hunk.lines.at(1).text, QStringLiteral("y"));
    QCOMPARE(hunk.lines.at(2).oldLine, 0);
    QCOMPARE(hunk.lines.at(2).newLine, 6);
    QCOMPARE(hunk.lines.at(3).oldLine, 7);
    QCOMPARE(hunk.lines.at(3).newLine, 7);
}

void TestUnifiedDiff::sideBySideAlignsRuns()
{
    // One line replaced by three, then one line removed outright.
    const auto rows
        = sideBySideRows(parseUnifiedDiff(QStringLiteral("@@ -1,5 +1,6 @@\n a\n-b\n+B1\n+B2\n+B3\n c\n-d\n e\n")));
    QStringList layout;
    for (const auto &row : rows) {
        if (row.isHunkHeader) {
            layout.append(QStringLiteral("@@"));
            continue;
        }
        const auto cell = [](const ccm::designer::SideBySideCell &c) {
            return c.isFiller() ? QStringLiteral("_") : QStringLiteral("%1:%2").arg(c.line).arg(c.text);
        };
        layout.append(cell(row.left) + QLatin1Char('|') + cell(row.right));
    }
    QCOMPARE(layout,
        QStringList({QStringLiteral("@@"), QStringLiteral("1:a|1:a"), QStringLiteral("2:b|2:B1"),
            QStringLiteral("_|3:B2"), QStringLiteral("_|4:B3"), QStringLiteral("3:c|5:c"), QStringLiteral("4:d|_"),
            QStringLiteral("5:e|6:e")}));
}

CCM_TEST_GUILESS_MAIN(TestUnifiedDiff)
#include "tst_unified_diff_parser.moc"
