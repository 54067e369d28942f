// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/json_tree_editor.h"
#include "designer_test_support.h"
#include "json_test_support.h"
#include "test_main.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using ccm::Json;
using ccm::designer::JsonTreeEditor;
using Kind = JsonTreeEditor::Kind;
using ccm::test::find;

namespace {

Json sample()
{
    return Json::parse(R"({"port": 80, "name": "web", "tls": true, "extra": null,
                           "users": ["ann", "bob"], "limits": {"cpu": 1.5}})");
}

Json lastEmitted(const QSignalSpy &spy)
{
    return spy.last().at(0).value<Json>();
}

} // namespace

class TestJsonTreeEditor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<Json>(); }
    void showsValue();
    void nonContainerShowsEmptyMap();
    void renameKey();
    void renameRefusesDuplicateOrEmpty();
    void editScalars_data();
    void editScalars();
    void changeKind_data();
    void changeKind();
    void addChildToMapAndList();
    void addSiblingKeepsOrder();
    void removeRelabelsList();
    void setValueKeepsExpansionAndCurrent();
    void setSameValueDoesNotRebuild();
    void editThroughDelegate();
    void listRoot();
    void keyboardShortcuts();
};

void TestJsonTreeEditor::showsValue()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    QCOMPARE(editor.tree()->topLevelItemCount(), 6);
    COMPARE_JSON(editor.value(), sample());
    QTreeWidgetItem *users = find(editor, QStringLiteral("users"));
    QVERIFY(users);
    QCOMPARE(JsonTreeEditor::kindOf(users), Kind::List);
    QCOMPARE(users->child(1)->text(JsonTreeEditor::KeyColumn), QStringLiteral("[1]"));
    QCOMPARE(users->child(1)->text(JsonTreeEditor::ValueColumn), QStringLiteral("bob"));
    QCOMPARE(find(editor, QStringLiteral("port"))->text(JsonTreeEditor::TypeColumn), QStringLiteral("Number"));
    QCOMPARE(find(editor, QStringLiteral("tls"))->text(JsonTreeEditor::ValueColumn), QStringLiteral("true"));
    QCOMPARE(JsonTreeEditor::kindOf(find(editor, QStringLiteral("extra"))), Kind::Null);
}

void TestJsonTreeEditor::nonContainerShowsEmptyMap()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    editor.setValue(Json(nullptr));
    QCOMPARE(editor.tree()->topLevelItemCount(), 0);
    COMPARE_JSON(editor.value(), Json::object());
    editor.setValue(Json("text"));
    COMPARE_JSON(editor.value(), Json::object());
}

void TestJsonTreeEditor::renameKey()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    QVERIFY(editor.renameKey(find(editor, QStringLiteral("cpu")), QStringLiteral("cores")));
    QCOMPARE(spy.count(), 1);
    COMPARE_JSON(lastEmitted(spy).at("limits"), Json::parse(R"({"cores": 1.5})"));
    // Renaming keeps the key's place in the map.
    QVERIFY(editor.renameKey(find(editor, QStringLiteral("port")), QStringLiteral("listen")));
    QCOMPARE(lastEmitted(spy).begin().key(), std::string("listen"));
}

void TestJsonTreeEditor::renameRefusesDuplicateOrEmpty()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    QVERIFY(!editor.renameKey(find(editor, QStringLiteral("port")), QStringLiteral("name")));
    QVERIFY(!editor.renameKey(find(editor, QStringLiteral("port")), QString()));
    QVERIFY(!editor.renameKey(find(editor, QStringLiteral("users"))->child(0), QStringLiteral("x")));
    QCOMPARE(spy.count(), 0);
    COMPARE_JSON(editor.value(), sample());
}

void TestJsonTreeEditor::editScalars_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<Json>("expected");
    QTest::newRow("string") << QStringLiteral("name") << QStringLiteral("{{ x }}") << true << Json("{{ x }}");
    QTest::newRow("integer") << QStringLiteral("port") << QStringLiteral(" 8080 ") << true << Json(8080);
    QTest::newRow("real") << QStringLiteral("port") << QStringLiteral("2.5") << true << Json(2.5);
    QTest::newRow("not a number") << QStringLiteral("port") << QStringLiteral("eighty") << false << Json(80);
    QTest::newRow("huge") << QStringLiteral("port") << QStringLiteral("1e999") << false << Json(80);
    QTest::newRow("boolean") << QStringLiteral("tls") << QStringLiteral("false") << true << Json(false);
    QTest::newRow("bad boolean") << QStringLiteral("tls") << QStringLiteral("maybe") << false << Json(true);
    QTest::newRow("null") << QStringLiteral("extra") << QStringLiteral("x") << false << Json(nullptr);
}

void TestJsonTreeEditor::editScalars()
{
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(bool, accepted);
    QFETCH(Json, expected);
    JsonTreeEditor editor;
    editor.setValue(sample());
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    QCOMPARE(editor.setScalarText(find(editor, key), text), accepted);
    COMPARE_JSON(editor.value().at(key.toStdString()), expected);
    QCOMPARE(spy.count(), accepted ? 1 : 0);
    if (accepted)
        COMPARE_JSON(lastEmitted(spy), editor.value());
}

void TestJsonTreeEditor::changeKind_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<Json>("expected");
    QTest::newRow("number to string") << QStringLiteral("port") << Kind::String << Json("80");
    QTest::newRow("string to number") << QStringLiteral("name") << Kind::Number << Json(0);
    QTest::newRow("number to boolean") << QStringLiteral("port") << Kind::Boolean << Json(true);
    QTest::newRow("boolean to number") << QStringLiteral("tls") << Kind::Number << Json(1);
    QTest::newRow("to null") << QStringLiteral("name") << Kind::Null << Json(nullptr);
    QTest::newRow("list to map") << QStringLiteral("users") << Kind::Map << Json::parse(R"({"0": "ann", "1": "bob"})");
    QTest::newRow("map to list") << QStringLiteral("limits") << Kind::List << Json::parse("[1.5]");
    QTest::newRow("list to string") << QStringLiteral("users") << Kind::String << Json("");
    QTest::newRow("null to map") << QStringLiteral("extra") << Kind::Map << Json::object();
}

void TestJsonTreeEditor::changeKind()
{
    QFETCH(QString, key);
    QFETCH(Kind, kind);
    QFETCH(Json, expected);
    JsonTreeEditor editor;
    editor.setValue(sample());
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    editor.setKind(find(editor, key), kind);
    QCOMPARE(spy.count(), 1);
    COMPARE_JSON(lastEmitted(spy).at(key.toStdString()), expected);
    QCOMPARE(find(editor, key)->text(JsonTreeEditor::TypeColumn), JsonTreeEditor::kindName(kind));
}

void TestJsonTreeEditor::addChildToMapAndList()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("limits")));
    editor.addChild();
    COMPARE_JSON(lastEmitted(spy).at("limits"), Json::parse(R"({"cpu": 1.5, "key": ""})"));
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("limits")));
    editor.addChild();
    COMPARE_JSON(lastEmitted(spy).at("limits"), Json::parse(R"({"cpu": 1.5, "key": "", "key2": ""})"));
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("users")));
    editor.addChild();
    COMPARE_JSON(lastEmitted(spy).at("users"), Json::parse(R"(["ann", "bob", ""])"));
    const int before = spy.count();
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("port")));
    editor.addChild();
    QCOMPARE(spy.count(), before);
}

void TestJsonTreeEditor::addSiblingKeepsOrder()
{
    JsonTreeEditor editor;
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    editor.addSibling();
    COMPARE_JSON(lastEmitted(spy), Json::parse(R"({"key": ""})"));
    editor.setValue(sample());
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("port")));
    editor.addSibling();
    const Json emitted = lastEmitted(spy);
    auto it = emitted.begin();
    QCOMPARE(it.key(), std::string("port"));
    ++it;
    QCOMPARE(it.key(), std::string("key"));
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("users"))->child(0));
    editor.addSibling();
    COMPARE_JSON(lastEmitted(spy).at("users"), Json::parse(R"(["ann", "", "bob"])"));
}

void TestJsonTreeEditor::removeRelabelsList()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    QTreeWidgetItem *users = find(editor, QStringLiteral("users"));
    editor.tree()->setCurrentItem(users->child(0));
    editor.removeCurrent();
    COMPARE_JSON(lastEmitted(spy).at("users"), Json::parse(R"(["bob"])"));
    QCOMPARE(users->child(0)->text(JsonTreeEditor::KeyColumn), QStringLiteral("[0]"));
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("limits")));
    editor.removeCurrent();
    QVERIFY(!lastEmitted(spy).contains("limits"));
}

void TestJsonTreeEditor::setValueKeepsExpansionAndCurrent()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    find(editor, QStringLiteral("limits"))->setExpanded(true);
    editor.tree()->setCurrentItem(find(editor, QStringLiteral("cpu")));
    Json changed = sample();
    changed["name"] = "db";
    editor.setValue(changed);
    COMPARE_JSON(editor.value(), changed);
    QVERIFY(find(editor, QStringLiteral("limits"))->isExpanded());
    QCOMPARE(editor.tree()->currentItem(), find(editor, QStringLiteral("cpu")));
}

void TestJsonTreeEditor::setSameValueDoesNotRebuild()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    QTreeWidgetItem *port = find(editor, QStringLiteral("port"));
    editor.setValue(sample());
    QCOMPARE(find(editor, QStringLiteral("port")), port);
}

void TestJsonTreeEditor::editThroughDelegate()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    QTreeWidgetItem *name = find(editor, QStringLiteral("name"));
    editor.tree()->setCurrentItem(name, JsonTreeEditor::ValueColumn);
    editor.tree()->editItem(name, JsonTreeEditor::ValueColumn);
    auto *line = editor.tree()->findChild<QLineEdit *>();
    QVERIFY(line);
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("api"));
    QTest::keyClick(line, Qt::Key_Return);
    QTRY_COMPARE(spy.count(), 1);
    COMPARE_JSON(lastEmitted(spy).at("name"), Json("api"));

    QTreeWidgetItem *tls = find(editor, QStringLiteral("tls"));
    editor.tree()->editItem(tls, JsonTreeEditor::TypeColumn);
    QComboBox *combo = nullptr;
    for (QComboBox *each : editor.tree()->findChildren<QComboBox *>()) {
        if (each->isVisible())
            combo = each;
    }
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findText(QStringLiteral("String")));
    QTest::keyClick(combo, Qt::Key_Return);
    QTRY_COMPARE(spy.count(), 2);
    COMPARE_JSON(lastEmitted(spy).at("tls"), Json("true"));
}

void TestJsonTreeEditor::listRoot()
{
    JsonTreeEditor editor;
    editor.setValue(Json::parse(R"(["a", {"b": 1}])"));
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);
    QVERIFY(!editor.renameKey(editor.tree()->topLevelItem(0), QStringLiteral("x")));
    editor.tree()->setCurrentItem(editor.tree()->topLevelItem(0));
    editor.addSibling();
    COMPARE_JSON(lastEmitted(spy), Json::parse(R"(["a", "", {"b": 1}])"));
}

void TestJsonTreeEditor::keyboardShortcuts()
{
    JsonTreeEditor editor;
    editor.setValue(sample());
    editor.show();
    QVERIFY(QTest::qWaitForWindowActive(&editor));
    QTreeWidget *tree = editor.tree();
    tree->setFocus();
    QTRY_VERIFY(tree->hasFocus());
    QSignalSpy spy(&editor, &JsonTreeEditor::valueEdited);

    tree->setCurrentItem(find(editor, QStringLiteral("extra")));
    QTest::keyClick(tree, Qt::Key_Delete);
    QCOMPARE(spy.count(), 1);
    QVERIFY(!lastEmitted(spy).contains("extra"));

    tree->setCurrentItem(find(editor, QStringLiteral("limits")));
    QTest::keyClick(tree, Qt::Key_Insert, Qt::ControlModifier);
    QCOMPARE(spy.count(), 2);
    COMPARE_JSON(lastEmitted(spy).at("limits"), Json::parse(R"({"cpu": 1.5, "key": ""})"));

    // The new entry's key is being edited: typing names it, Delete edits the text.
    auto *line = tree->findChild<QLineEdit *>();
    QVERIFY(line);
    QTRY_VERIFY(line->hasFocus());
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("memx"));
    QTest::keyClick(line, Qt::Key_Left);
    QTest::keyClick(line, Qt::Key_Delete);
    QTest::keyClick(line, Qt::Key_Return);
    QTRY_COMPARE(spy.count(), 3);
    COMPARE_JSON(lastEmitted(spy).at("limits"), Json::parse(R"({"cpu": 1.5, "mem": ""})"));
}

CCM_TEST_MAIN(TestJsonTreeEditor)
#include "tst_json_tree_editor.moc"
