// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/diff_view.h"
#include "test_main.h"

#include <QCoreApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>

#include <cmath>

using ccm::designer::AttributeChange;
using ccm::designer::DiffView;

namespace {

QPalette paletteWith(const QColor &base, const QColor &text)
{
    QPalette palette;
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::Text, text);
    return palette;
}

// WCAG contrast ratio between two colours.
double contrast(const QColor &a, const QColor &b)
{
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a) + 0.05;
    const double lb = luminance(b) + 0.05;
    return la > lb ? la / lb : lb / la;
}

QStringList linesOf(const QPlainTextEdit *view)
{
    QStringList lines;
    for (QTextBlock block = view->document()->begin(); block.isValid(); block = block.next())
        lines.append(block.text());
    return lines;
}

QColor backgroundOfLine(const QPlainTextEdit *view, int line)
{
    const QBrush brush = view->document()->findBlockByNumber(line).blockFormat().background();
    return brush.style() == Qt::NoBrush ? QColor() : brush.color();
}

const QString kChange = QStringLiteral("--- /etc/motd\n+++ /etc/motd\n@@ -1,4 +1,5 @@\n a\n-b\n+B1\n+B2\n c\n-d\n+D\n");

} // namespace

class TestDiffView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init() { QSettings().clear(); }
    void colours_data();
    void colours();
    void unifiedLinesAreTinted();
    void sideBySideAligns();
    void attributesListed();
    void hints_data();
    void hints();
    void malformedDiffIsReported();
    void modeIsRemembered();
    void clearEmpties();
};

void TestDiffView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_diff_view"));
}

void TestDiffView::colours_data()
{
    QTest::addColumn<QPalette>("palette");
    QTest::newRow("light") << paletteWith(Qt::white, Qt::black);
    QTest::newRow("dark") << paletteWith(QColor(0x1e, 0x1e, 0x1e), QColor(0xe0, 0xe0, 0xe0));
}

void TestDiffView::colours()
{
    QFETCH(QPalette, palette);
    const QColor text = palette.color(QPalette::Text);
    const QColor added = DiffView::addedBackground(palette);
    const QColor removed = DiffView::removedBackground(palette);
    QVERIFY(added.green() > added.red());
    QVERIFY(removed.red() > removed.green());
    QVERIFY(added != palette.color(QPalette::Base));
    QVERIFY2(contrast(text, added) >= 4.5, qPrintable(QString::number(contrast(text, added))));
    QVERIFY2(contrast(text, removed) >= 4.5, qPrintable(QString::number(contrast(text, removed))));
    const QColor hunk = DiffView::hunkForeground(palette);
    QVERIFY(hunk.blue() > hunk.red());
    QVERIFY2(contrast(hunk, palette.color(QPalette::Base)) >= 4.5,
        qPrintable(QString::number(contrast(hunk, palette.color(QPalette::Base)))));
}

void TestDiffView::unifiedLinesAreTinted()
{
    DiffView view;
    view.setPalette(paletteWith(QColor(0x1e, 0x1e, 0x1e), QColor(0xe0, 0xe0, 0xe0)));
    view.setChange(QStringLiteral("file#/etc/motd"), kChange, {});
    const QPlainTextEdit *unified = view.unifiedView();
    const QPalette palette = unified->palette();
    QCOMPARE(linesOf(unified),
        QStringList({QStringLiteral("--- /etc/motd"), QStringLiteral("+++ /etc/motd"),
            QStringLiteral("@@ -1,4 +1,5 @@"), QStringLiteral(" a"), QStringLiteral("-b"), QStringLiteral("+B1"),
            QStringLiteral("+B2"), QStringLiteral(" c"), QStringLiteral("-d"), QStringLiteral("+D")}));
    QCOMPARE(backgroundOfLine(unified, 3), QColor());
    QCOMPARE(backgroundOfLine(unified, 4), DiffView::removedBackground(palette));
    QCOMPARE(backgroundOfLine(unified, 5), DiffView::addedBackground(palette));
    const QTextBlock header = unified->document()->findBlockByNumber(2);
    QCOMPARE(header.begin().fragment().charFormat().foreground().color(), DiffView::hunkForeground(palette));
    QCOMPARE(view.titleLabel()->text(), QStringLiteral("file#/etc/motd"));
    QVERIFY(view.hintLabel()->isHidden());
}

void TestDiffView::sideBySideAligns()
{
    DiffView view;
    view.setChange(QStringLiteral("file#/etc/motd"), kChange, {});
    const QStringList left = linesOf(view.leftView());
    const QStringList right = linesOf(view.rightView());
    QCOMPARE(left,
        QStringList({QStringLiteral("@@ -1,4 +1,5 @@"), QStringLiteral("1  a"), QStringLiteral("2  b"), QString(),
            QStringLiteral("3  c"), QStringLiteral("4  d")}));
    QCOMPARE(right,
        QStringList({QStringLiteral("@@ -1,4 +1,5 @@"), QStringLiteral("1  a"), QStringLiteral("2  B1"),
            QStringLiteral("3  B2"), QStringLiteral("4  c"), QStringLiteral("5  D")}));
    const QPalette palette = view.leftView()->palette();
    QCOMPARE(backgroundOfLine(view.leftView(), 3), DiffView::fillerBackground(palette));
    QCOMPARE(backgroundOfLine(view.leftView(), 2), DiffView::removedBackground(palette));
    QCOMPARE(backgroundOfLine(view.rightView(), 3), DiffView::addedBackground(palette));
}

void TestDiffView::attributesListed()
{
    DiffView view;
    view.setChange(QStringLiteral("file#/etc/shadow"), {},
        {AttributeChange {QStringLiteral("mode"), QStringLiteral("0644"), QStringLiteral("0600")},
            AttributeChange {QStringLiteral("owner"), QString(), QStringLiteral("root")}});
    QCOMPARE(view.attributesLabel()->text(), QStringLiteral("mode 0644 → 0600\nowner (unset) → root"));
    QVERIFY(!view.attributesLabel()->isHidden());
}

void TestDiffView::hints_data()
{
    QTest::addColumn<QString>("diff");
    QTest::addColumn<bool>("withheld");
    QTest::addColumn<QString>("hint");
    QTest::newRow("unchanged") << QString() << false << QStringLiteral("No content change");
    QTest::newRow("withheld") << QString() << true
                              << QStringLiteral("Content not shown (binary, too large, or not readable by you)");
    QTest::newRow("diff") << kChange << false << QString();
}

void TestDiffView::hints()
{
    QFETCH(QString, diff);
    QFETCH(bool, withheld);
    QFETCH(QString, hint);
    DiffView view;
    view.setChange(QStringLiteral("file#/x"), diff, {}, withheld);
    QCOMPARE(view.hintLabel()->text(), hint);
    QCOMPARE(view.hintLabel()->isHidden(), hint.isEmpty());
    QCOMPARE(view.unifiedView()->document()->isEmpty(), diff.isEmpty());
}

void TestDiffView::malformedDiffIsReported()
{
    DiffView view;
    view.setChange(QStringLiteral("file#/x"), QStringLiteral("@@ -1,2 +1,2 @@\n a\n"), {});
    QVERIFY2(view.hintLabel()->text().contains(QStringLiteral("missing 1 old and 1 new lines")),
        qPrintable(view.hintLabel()->text()));
    QCOMPARE(linesOf(view.unifiedView()), QStringList({QStringLiteral("@@ -1,2 +1,2 @@"), QStringLiteral(" a")}));
}

void TestDiffView::modeIsRemembered()
{
    {
        DiffView view;
        QCOMPARE(view.mode(), DiffView::Mode::Unified);
        view.setMode(DiffView::Mode::SideBySide);
    }
    QCOMPARE(QSettings().value(QStringLiteral("preview/diffMode")).toString(), QStringLiteral("sideBySide"));
    DiffView again;
    QCOMPARE(again.mode(), DiffView::Mode::SideBySide);
}

void TestDiffView::clearEmpties()
{
    DiffView view;
    view.setChange(QStringLiteral("file#/x"), kChange,
        {AttributeChange {QStringLiteral("mode"), QStringLiteral("0644"), QStringLiteral("0600")}});
    view.clear();
    QVERIFY(view.titleLabel()->text().isEmpty());
    QVERIFY(view.attributesLabel()->isHidden());
    QVERIFY(view.hintLabel()->isHidden());
    QVERIFY(view.unifiedView()->document()->isEmpty());
    QVERIFY(view.leftView()->document()->isEmpty());
}

CCM_TEST_MAIN(TestDiffView)
#include "tst_diff_view.moc"
