// SPDX-License-Identifier: Apache-2.0
#include "engine/util/unified_diff.h"
#include "test_common.h"
#include "test_main.h"

#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <vector>

using namespace ccm;
using namespace ccm::test;

namespace {

/// What GNU diff prints for the two texts with the same labels, or "<failed>" when it did not run.
QByteArray gnuDiff(const QByteArray &oldText, const QByteArray &newText, int context, bool minimal = false)
{
    QTemporaryDir dir;
    const QString oldPath = dir.filePath(QStringLiteral("old"));
    const QString newPath = dir.filePath(QStringLiteral("new"));
    if (!dir.isValid() || !writeFile(oldPath, oldText) || !writeFile(newPath, newText))
        return "<failed>";
    QStringList arguments {QStringLiteral("-U%1").arg(context), QStringLiteral("--label"), QStringLiteral("a/file"),
        QStringLiteral("--label"), QStringLiteral("b/file"), oldPath, newPath};
    if (minimal)
        arguments.prepend(QStringLiteral("--minimal"));
    QProcess process;
    process.start(QStringLiteral("diff"), arguments);
    // Exit code 1 means "differences found".
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() > 1)
        return "<failed>";
    return process.readAllStandardOutput();
}

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::size_t next = end == std::string::npos ? text.size() : end + 1;
        lines.push_back(text.substr(start, next - start));
        start = next;
    }
    return lines;
}

/// Applies a unified diff to oldText the way patch would; an error text when the diff does not fit.
std::string applyDiff(const std::string &oldText, const std::string &diff)
{
    const std::vector<std::string> oldLines = splitLines(oldText);
    std::vector<std::string> diffLines = splitLines(diff);
    if (diffLines.size() < 2 || diffLines[0].rfind("--- ", 0) != 0 || diffLines[1].rfind("+++ ", 0) != 0)
        return "<no header>";
    // A marker takes the newline off the line before it.
    std::vector<std::string> entries;
    for (std::size_t i = 2; i < diffLines.size(); ++i) {
        if (diffLines[i] == "\\ No newline at end of file\n") {
            if (entries.empty() || entries.back().empty() || entries.back().back() != '\n')
                return "<misplaced marker>";
            entries.back().pop_back();
        } else {
            entries.push_back(diffLines[i]);
        }
    }
    static const QRegularExpression header(QStringLiteral("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@\n$"));
    std::string result;
    std::size_t oldLine = 0;
    for (std::size_t i = 0; i < entries.size();) {
        const auto match = header.match(q(entries[i]));
        if (!match.hasMatch())
            return "<bad hunk header: " + entries[i] + ">";
        const std::size_t oldCount = match.captured(2).isEmpty() ? 1 : match.captured(2).toULong();
        const std::size_t newCount = match.captured(4).isEmpty() ? 1 : match.captured(4).toULong();
        std::size_t oldStart = match.captured(1).toULong();
        if (oldCount > 0)
            --oldStart;
        if (oldStart < oldLine || oldStart > oldLines.size())
            return "<hunk out of order>";
        for (; oldLine < oldStart; ++oldLine)
            result += oldLines[oldLine];
        std::size_t seenOld = 0;
        std::size_t seenNew = 0;
        for (++i; i < entries.size() && entries[i].rfind("@@", 0) != 0; ++i) {
            const char kind = entries[i][0];
            const std::string text = entries[i].substr(1);
            if (kind == ' ' || kind == '-') {
                if (oldLine >= oldLines.size() || oldLines[oldLine] != text)
                    return "<context mismatch at old line " + std::to_string(oldLine + 1) + ">";
                ++oldLine;
                ++seenOld;
            }
            if (kind == ' ' || kind == '+') {
                result += text;
                ++seenNew;
            }
            if (kind != ' ' && kind != '-' && kind != '+')
                return "<bad line: " + entries[i] + ">";
        }
        if (seenOld != oldCount || seenNew != newCount)
            return "<hunk counts do not match its header>";
    }
    for (; oldLine < oldLines.size(); ++oldLine)
        result += oldLines[oldLine];
    return result;
}

/// How many lines of a diff's hunks start with kind ('-' or '+').
int changedLines(const std::string &diff, char kind)
{
    const std::vector<std::string> lines = splitLines(diff);
    int count = 0;
    for (std::size_t i = 2; i < lines.size(); ++i)
        count += lines[i][0] == kind ? 1 : 0;
    return count;
}

QByteArray numberedLines(int count, const char *prefix)
{
    QByteArray text;
    for (int i = 1; i <= count; ++i)
        text += prefix + QByteArray::number(i) + '\n';
    return text;
}

QByteArray randomText(QRandomGenerator &generator)
{
    static const char *const vocabulary[] = {"a\n", "b\n", "c\n", "d\n", "\n", "a"};
    QByteArray text;
    const int lines = static_cast<int>(generator.bounded(12));
    for (int i = 0; i < lines; ++i) {
        const char *line = vocabulary[generator.bounded(5)];
        text += line;
    }
    // Sometimes the text ends without a newline.
    if (generator.bounded(4) == 0)
        text += vocabulary[5];
    return text;
}

} // namespace

class TestUnifiedDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesGnuDiff_data()
    {
        QTest::addColumn<QByteArray>("oldText");
        QTest::addColumn<QByteArray>("newText");
        QTest::addColumn<int>("context");
        const QByteArray ten = numberedLines(10, "line ");
        QByteArray changed = ten;
        changed.replace("line 5\n", "line five\n");
        const QByteArray thirty = numberedLines(30, "row ");
        QByteArray sixApart = thirty;
        sixApart.replace("row 5\n", "row V\n").replace("row 12\n", "row XII\n");
        QByteArray sevenApart = thirty;
        sevenApart.replace("row 5\n", "row V\n").replace("row 13\n", "row XIII\n");

        QTest::newRow("one line changed") << ten << changed << 3;
        QTest::newRow("line added at the start") << ten << "line 0\n" + ten << 3;
        QTest::newRow("line added at the end") << ten << ten + "line 11\n" << 3;
        QTest::newRow("line removed") << ten << QByteArray(ten).replace("line 7\n", "") << 3;
        QTest::newRow("from empty") << QByteArray() << QByteArray("one\ntwo\nthree\n") << 3;
        QTest::newRow("to empty") << QByteArray("one\ntwo\nthree\n") << QByteArray() << 3;
        QTest::newRow("newline added at the end") << QByteArray("a\nb\nc") << QByteArray("a\nb\nc\n") << 3;
        QTest::newRow("newline removed at the end") << QByteArray("a\nb\nc\n") << QByteArray("a\nb\nc") << 3;
        QTest::newRow("last line changed, no newline") << QByteArray("a\nb\nc") << QByteArray("a\nb\nd") << 3;
        QTest::newRow("no newline in context") << QByteArray("a\nb\nc\nd") << QByteArray("a\nB\nc\nd") << 3;
        QTest::newRow("single line without newline") << QByteArray("x") << QByteArray("y") << 3;
        QTest::newRow("changes six apart share a hunk") << thirty << sixApart << 3;
        QTest::newRow("changes seven apart split") << thirty << sevenApart << 3;
        QTest::newRow("no context") << thirty << sevenApart << 0;
        QTest::newRow("one line of context") << thirty << sevenApart << 1;
        QTest::newRow("context wider than the file") << ten << changed << 100;
        QTest::newRow("adjacent changes without context") << QByteArray("a\nb\nc\n") << QByteArray("A\nb\nC\n") << 0;
        QTest::newRow("line added to equal lines")
            << QByteArray("x\na\na\na\ny\n") << QByteArray("x\na\na\na\na\ny\n") << 3;
        QTest::newRow("blank line removed among blanks") << QByteArray("p\n\n\n\nq\n") << QByteArray("p\n\n\nq\n") << 3;
        // Rows where a shortest script can place a change at several heights; GNU diff moves it down.
        QTest::newRow("change slides below blank lines") << QByteArray("c\n\nd\n") << QByteArray("d\nc\n\n\n") << 3;
        QTest::newRow("change slides below repeated lines") << QByteArray("b\nb\nd\n") << QByteArray("\nc\nb\n") << 1;
        QTest::newRow("removal slides next to its replacement")
            << QByteArray("a\na\nc\n\n\n") << QByteArray("\nd\n") << 3;
        QTest::newRow("insertions slide without context") << QByteArray("a\na\n") << QByteArray("c\na\nd\nb\n") << 0;
        QTest::newRow("replaced line stays with its replacement")
            << QByteArray("d\na\na\n") << QByteArray("d\n\na\n") << 3;
        QTest::newRow("removal stays with an insertion") << QByteArray("c\nd\nc\n") << QByteArray("b\nc\n") << 2;
        QTest::newRow("function added between braces")
            << QByteArray("int f()\n{\n    return 1;\n}\n\nint h()\n{\n    return 3;\n}\n")
            << QByteArray(
                   "int f()\n{\n    return 1;\n}\n\nint g()\n{\n    return 2;\n}\n\nint h()\n{\n    return 3;\n}\n")
            << 3;
        QTest::newRow("block moved") << QByteArray("a\nb\nc\nd\ne\n") << QByteArray("c\nd\ne\na\nb\n") << 3;
        QTest::newRow("everything different") << QByteArray("1\n2\n3\n") << QByteArray("x\ny\n") << 3;
        QTest::newRow("line endings changed") << QByteArray("a\r\nb\r\n") << QByteArray("a\nb\r\n") << 3;
        QTest::newRow("configuration edited")
            << QByteArray("# motd\nPort 22\nPermitRootLogin yes\nPasswordAuthentication yes\n"
                          "X11Forwarding yes\nUsePAM yes\nAcceptEnv LANG LC_*\nSubsystem sftp internal-sftp\n")
            << QByteArray("# motd\nPort 2222\nPermitRootLogin no\nPasswordAuthentication yes\n"
                          "UsePAM yes\nAcceptEnv LANG LC_*\nSubsystem sftp internal-sftp\nClientAliveInterval 60\n")
            << 3;
        QTest::newRow("identical") << ten << ten << 3;
    }

    void matchesGnuDiff()
    {
        QFETCH(QByteArray, oldText);
        QFETCH(QByteArray, newText);
        QFETCH(int, context);
        const std::string diff = unifiedDiff(view(oldText), view(newText), "a/file", "b/file", context);
        QCOMPARE(QByteArray::fromStdString(diff), gnuDiff(oldText, newText, context));
        if (oldText != newText)
            QCOMPARE(q(applyDiff(oldText.toStdString(), diff)), q(newText.toStdString()));
    }

    // Texts drawn from a few repeated lines have many equally short scripts, and GNU diff breaks the
    // ties its own way; the diff must still be as short as GNU diff --minimal's and apply cleanly.
    void randomTextsAreMinimal()
    {
        QRandomGenerator generator(20240601);
        int identical = 0;
        for (int round = 0; round < 400; ++round) {
            const QByteArray oldText = randomText(generator);
            const QByteArray newText = randomText(generator);
            const int context = static_cast<int>(generator.bounded(4));
            const QByteArray diff
                = QByteArray::fromStdString(unifiedDiff(view(oldText), view(newText), "a/file", "b/file", context));
            const QByteArray expected = gnuDiff(oldText, newText, context, true);
            const auto describe = [&] {
                return QStringLiteral("old %1 new %2 context %3:\n%4\nGNU diff:\n%5")
                    .arg(QString::fromLatin1(oldText.toPercentEncoding()),
                        QString::fromLatin1(newText.toPercentEncoding()), QString::number(context),
                        QString::fromUtf8(diff), QString::fromUtf8(expected));
            };
            QVERIFY2(changedLines(diff.toStdString(), '-') == changedLines(expected.toStdString(), '-')
                    && changedLines(diff.toStdString(), '+') == changedLines(expected.toStdString(), '+'),
                qPrintable(describe()));
            if (oldText != newText)
                QVERIFY2(applyDiff(oldText.toStdString(), diff.toStdString()) == newText.toStdString(),
                    qPrintable(describe()));
            identical += diff == expected ? 1 : 0;
        }
        qInfo("%d of 400 random diffs are identical to GNU diff's", identical);
    }

    void negativeContextMeansNone()
    {
        QCOMPARE(q(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "old", "new", -5)),
            QStringLiteral("--- old\n+++ new\n@@ -2 +2 @@\n-b\n+B\n"));
    }

    // A few changes in a large file are found exactly and quickly.
    void fewChangesInALargeFile()
    {
        const QByteArray oldText = numberedLines(100000, "entry ");
        QByteArray newText = oldText;
        newText.replace("entry 10\n", "entry ten\n")
            .replace("entry 50000\n", "")
            .replace("entry 99999\n", "entry 99999\nextra\n");
        const std::string diff = unifiedDiff(view(oldText), view(newText), "a/file", "b/file");
        QCOMPARE(QByteArray::fromStdString(diff), gnuDiff(oldText, newText, 3));
    }

    // Every other line changed in two large files: too many edits for the exact search, so the
    // differing part is replaced as a whole, still correct.
    void manyChangesFallBackToReplacement()
    {
        const int count = 40000;
        QByteArray oldText = "same start\n" + numberedLines(count, "old ") + "same end\n";
        QByteArray newText = "same start\n";
        for (int i = 1; i <= count; ++i)
            newText += (i % 2 == 0 ? "old " : "new ") + QByteArray::number(i) + '\n';
        newText += "same end\n";
        const std::string diff = unifiedDiff(view(oldText), view(newText), "a/file", "b/file");
        const QString hunkHeader = QStringLiteral("@@ -1,%1 +1,%1 @@\n").arg(count + 2);
        QCOMPARE(q(diff).count(QStringLiteral("@@ -")), 1);
        QVERIFY(q(diff).contains(hunkHeader));
        // The last changed line, "old 40000", is the same in both texts and stays out of the hunk.
        QCOMPARE(changedLines(diff, '-'), count - 1);
        QCOMPARE(changedLines(diff, '+'), count - 1);
        QCOMPARE(q(applyDiff(oldText.toStdString(), diff)), q(newText.toStdString()));
    }

    void isProbablyText_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("text");
        QTest::newRow("empty") << QByteArray() << true;
        QTest::newRow("ASCII") << QByteArray("Welcome\n") << true;
        QTest::newRow("UTF-8") << QByteArray("gr\xc3\xbc\xc3\x9f dich \xe2\x82\xac\n") << true;
        QTest::newRow("NUL byte") << QByteArray("a\0b", 3) << false;
        QTest::newRow("Latin-1") << QByteArray("gr\xfc\xdf\n") << false;
        QTest::newRow("truncated sequence") << QByteArray("euro \xe2\x82") << false;
        QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << false;
        QTest::newRow("PNG header") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << false;
    }

    void isProbablyText()
    {
        QFETCH(QByteArray, data);
        QFETCH(bool, text);
        QCOMPARE(ccm::isProbablyText(view(data)), text);
    }
};

CCM_TEST_GUILESS_MAIN(TestUnifiedDiff)
#include "tst_unified_diff.moc"
