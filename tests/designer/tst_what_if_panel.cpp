// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/json_tree_editor.h"
#include "designer/ui/panels/what_if_panel.h"
#include "json_test_support.h"
#include "test_main.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using ccm::Json;
using ccm::designer::WhatIfPanel;

class TestWhatIfPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init() { QSettings().clear(); }
    void factsNest();
    void values_data();
    void values();
    void invalidPaths_data();
    void invalidPaths();
    void disabledGivesNothing();
    void editingTheTableEmitsChanged();
    void persistence();
    void damagedSettingIsIgnored();
};

void TestWhatIfPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_what_if_panel"));
}

void TestWhatIfPanel::factsNest()
{
    WhatIfPanel panel;
    panel.setOverridesEnabled(true);
    panel.addFact(QStringLiteral("host.info.platformFamily"), QStringLiteral("rhel"));
    panel.addFact(QStringLiteral("host.info.os"), QStringLiteral("linux"));
    panel.addFact(QStringLiteral("role"), QStringLiteral("web"));
    COMPARE_JSON(
        panel.facts(), Json::parse(R"({"host":{"info":{"platformFamily":"rhel","os":"linux"}},"role":"web"})"));
    QVERIFY(panel.problems().isEmpty());
    QVERIFY(panel.problemsLabel()->isHidden());
}

void TestWhatIfPanel::values_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("json");
    QTest::newRow("word") << QStringLiteral("rhel") << QStringLiteral(R"("rhel")");
    QTest::newRow("number") << QStringLiteral("8") << QStringLiteral("8");
    QTest::newRow("boolean") << QStringLiteral("true") << QStringLiteral("true");
    QTest::newRow("null") << QStringLiteral("null") << QStringLiteral("null");
    QTest::newRow("list") << QStringLiteral("[1, \"a\"]") << QStringLiteral(R"([1,"a"])");
    QTest::newRow("map") << QStringLiteral(R"({"a": 1})") << QStringLiteral(R"({"a":1})");
    QTest::newRow("quoted") << QStringLiteral(R"("8")") << QStringLiteral(R"("8")");
    QTest::newRow("empty") << QString() << QStringLiteral(R"("")");
    QTest::newRow("version") << QStringLiteral("9.3") << QStringLiteral("9.3");
    QTest::newRow("sentence") << QStringLiteral("Red Hat 9") << QStringLiteral(R"("Red Hat 9")");
}

void TestWhatIfPanel::values()
{
    QFETCH(QString, text);
    QFETCH(QString, json);
    WhatIfPanel panel;
    panel.setOverridesEnabled(true);
    panel.addFact(QStringLiteral("x"), text);
    COMPARE_JSON(panel.facts()["x"], Json::parse(json.toStdString()));
}

void TestWhatIfPanel::invalidPaths_data()
{
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QString>("facts");
    QTest::newRow("empty part") << QStringLiteral("host..info") << QString()
                                << QStringLiteral(
                                       "row 1: \"host..info\" has an empty part; separate the names with single dots")
                                << QStringLiteral("{}");
    QTest::newRow("trailing dot") << QStringLiteral("host.") << QString()
                                  << QStringLiteral(
                                         "row 1: \"host.\" has an empty part; separate the names with single dots")
                                  << QStringLiteral("{}");
    QTest::newRow("space") << QStringLiteral("host name") << QString()
                           << QStringLiteral(
                                  "row 1: \"host name\" may use only letters, digits, '_' and '-' between the dots")
                           << QStringLiteral("{}");
    QTest::newRow("overlap") << QStringLiteral("host") << QStringLiteral("host.info")
                             << QStringLiteral("row 2: \"host.info\" overlaps \"host\" of row 1; set each fact once")
                             << QStringLiteral("{\"host\":1}");
    QTest::newRow("duplicate") << QStringLiteral("a.b") << QStringLiteral("a.b")
                               << QStringLiteral("row 2: \"a.b\" overlaps \"a.b\" of row 1; set each fact once")
                               << QStringLiteral("{\"a\":{\"b\":1}}");
}

void TestWhatIfPanel::invalidPaths()
{
    QFETCH(QString, first);
    QFETCH(QString, second);
    QFETCH(QString, problem);
    WhatIfPanel panel;
    panel.setOverridesEnabled(true);
    panel.addFact(first, QStringLiteral("1"));
    if (!second.isEmpty())
        panel.addFact(second, QStringLiteral("2"));
    QCOMPARE(panel.problems(), QStringList({problem}));
    QCOMPARE(panel.problemsLabel()->text(), problem);
    const int row = second.isEmpty() ? 0 : 1;
    QCOMPARE(panel.factsTable()->item(row, 0)->toolTip(), problem);
    QVERIFY(!panel.factsTable()->item(row, 0)->icon().isNull());
    // The invalid row is left out; a valid first row stays.
    QFETCH(QString, facts);
    COMPARE_JSON(panel.facts(), Json::parse(facts.toStdString()));
}

void TestWhatIfPanel::disabledGivesNothing()
{
    WhatIfPanel panel;
    panel.addFact(QStringLiteral("a"), QStringLiteral("1"));
    panel.setData(Json::parse(R"({"k":"v"})"));
    COMPARE_JSON(panel.facts(), Json::object());
    COMPARE_JSON(panel.data(), Json::object());
    panel.enabledBox()->setChecked(true);
    COMPARE_JSON(panel.facts(), Json::parse(R"({"a":1})"));
    COMPARE_JSON(panel.data(), Json::parse(R"({"k":"v"})"));
}

void TestWhatIfPanel::editingTheTableEmitsChanged()
{
    WhatIfPanel panel;
    panel.setOverridesEnabled(true);
    panel.addFact(QStringLiteral("a"), QStringLiteral("1"));
    QSignalSpy changed(&panel, &WhatIfPanel::changed);
    panel.factsTable()->item(0, 1)->setText(QStringLiteral("2"));
    QCOMPARE(changed.size(), 1);
    COMPARE_JSON(panel.facts(), Json::parse(R"({"a":2})"));
    panel.factsTable()->item(0, 0)->setText(QStringLiteral("a..b"));
    QCOMPARE(panel.problems().size(), 1);
    panel.enabledBox()->setChecked(false);
    QCOMPARE(changed.size(), 3);
}

void TestWhatIfPanel::persistence()
{
    {
        WhatIfPanel panel;
        panel.setOverridesEnabled(true);
        panel.addFact(QStringLiteral("host.info.platformFamily"), QStringLiteral("rhel"));
        panel.setData(Json::parse(R"({"port":8080})"));
    }
    WhatIfPanel again;
    QVERIFY(again.overridesEnabled());
    QCOMPARE(again.factRows(),
        QList<WhatIfPanel::FactRow>({{QStringLiteral("host.info.platformFamily"), QStringLiteral("rhel")}}));
    COMPARE_JSON(again.data(), Json::parse(R"({"port":8080})"));
    COMPARE_JSON(again.facts(), Json::parse(R"({"host":{"info":{"platformFamily":"rhel"}}})"));
}

void TestWhatIfPanel::damagedSettingIsIgnored()
{
    QSettings().setValue(QStringLiteral("preview/whatIf"),
        QStringLiteral(R"({"enabled":"yes","facts":[["a","1"],[2,3],"x"],"data":[1]})"));
    WhatIfPanel panel;
    QVERIFY(!panel.overridesEnabled());
    QCOMPARE(panel.factRows(), QList<WhatIfPanel::FactRow>({{QStringLiteral("a"), QStringLiteral("1")}}));
    COMPARE_JSON(panel.dataEditor()->value(), Json::object());
    QSettings().setValue(QStringLiteral("preview/whatIf"), QStringLiteral("not json"));
    WhatIfPanel again;
    QVERIFY(again.factRows().isEmpty());
}

CCM_TEST_MAIN(TestWhatIfPanel)
#include "tst_what_if_panel.moc"
