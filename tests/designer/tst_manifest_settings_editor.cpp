// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/json_tree_editor.h"
#include "designer/ui/editors/manifest_settings_editor.h"
#include "designer_test_support.h"
#include "json_test_support.h"
#include "test_main.h"

#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>

using ccm::Hierarchy;
using ccm::Json;
using ccm::Manifest;
using ccm::designer::JsonTreeEditor;
using ccm::designer::ManifestSettingsEditor;
using ccm::test::find;

Q_DECLARE_METATYPE(std::optional<ccm::Hierarchy>)
Q_DECLARE_METATYPE(std::optional<bool>)

namespace {

Manifest sampleManifest()
{
    Manifest manifest;
    manifest.data = Json::parse(R"({"port": 80, "name": "web"})");
    manifest.overrides = Json::parse(R"({"os:debian": {"port": 8080}})");
    manifest.hierarchy = Hierarchy {std::vector<std::string> {"os:{{ lookup('facts.os') }}", "default"}, "deep"};
    ccm::CcmSettings settings;
    settings.preMessage = "starting";
    settings.failOnError = true;
    manifest.ccm = settings;
    return manifest;
}

QStringList orderOf(const ManifestSettingsEditor &editor)
{
    QStringList order;
    for (int row = 0; row < editor.orderList()->count(); ++row)
        order.append(editor.orderList()->item(row)->text());
    return order;
}

std::optional<Hierarchy> lastHierarchy(const QSignalSpy &spy)
{
    return spy.last().at(0).value<std::optional<Hierarchy>>();
}

} // namespace

class TestManifestSettingsEditor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void showsManifest();
    void dataEditEmitsWholeValue();
    void emptiedDataRemovesSection();
    void overridesEditEmits();
    void hierarchyOrderEdits();
    void hierarchyItemEdit();
    void hierarchyKeyboard();
    void mergeModeEdits();
    void brokenTemplateInOrderIsMarked();
    void unknownMergeModeIsShown();
    void messagesEmitOnEditingFinished();
    void failOnErrorTriState();
    void setManifestKeepsEditInProgress();
    void setManifestUpdatesChangedSections();
    void emptyManifest();
};

void TestManifestSettingsEditor::initTestCase()
{
    qRegisterMetaType<Json>();
    qRegisterMetaType<std::optional<Hierarchy>>();
    qRegisterMetaType<std::optional<bool>>();
}

void TestManifestSettingsEditor::showsManifest()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    QCOMPARE(editor.tabs()->count(), 4);
    QVERIFY(editor.dataEditor()->value() == *sampleManifest().data);
    QVERIFY(editor.overridesEditor()->value() == *sampleManifest().overrides);
    QCOMPARE(orderOf(editor), QStringList({QStringLiteral("os:{{ lookup('facts.os') }}"), QStringLiteral("default")}));
    QCOMPARE(editor.mergeCombo()->currentText(), QStringLiteral("deep"));
    QCOMPARE(editor.preMessageEdit()->text(), QStringLiteral("starting"));
    QCOMPARE(editor.postMessageEdit()->text(), QString());
    QCOMPARE(editor.failOnErrorCombo()->currentIndex(), 1);
}

void TestManifestSettingsEditor::dataEditEmitsWholeValue()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    QSignalSpy spy(&editor, &ManifestSettingsEditor::dataEdited);
    QSignalSpy others(&editor, &ManifestSettingsEditor::overridesEdited);
    QVERIFY(
        editor.dataEditor()->setScalarText(find(*editor.dataEditor(), QStringLiteral("port")), QStringLiteral("81")));
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.at(0).at(0).value<Json>() == Json::parse(R"({"port": 81, "name": "web"})"));
    QCOMPARE(others.count(), 0);
}

void TestManifestSettingsEditor::emptiedDataRemovesSection()
{
    ManifestSettingsEditor editor;
    Manifest manifest;
    manifest.data = Json::parse(R"({"only": 1})");
    editor.setManifest(manifest);
    QSignalSpy spy(&editor, &ManifestSettingsEditor::dataEdited);
    editor.dataEditor()->tree()->setCurrentItem(find(*editor.dataEditor(), QStringLiteral("only")));
    editor.dataEditor()->removeCurrent();
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.at(0).at(0).value<Json>().is_null());
}

void TestManifestSettingsEditor::overridesEditEmits()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    QSignalSpy spy(&editor, &ManifestSettingsEditor::overridesEdited);
    QVERIFY(editor.overridesEditor()->renameKey(
        find(*editor.overridesEditor(), QStringLiteral("os:debian")), QStringLiteral("os:redhat")));
    QCOMPARE(spy.count(), 1);
    QVERIFY(spy.at(0).at(0).value<Json>() == Json::parse(R"({"os:redhat": {"port": 8080}})"));
}

void TestManifestSettingsEditor::hierarchyOrderEdits()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    QSignalSpy spy(&editor, &ManifestSettingsEditor::hierarchyEdited);

    editor.orderList()->setCurrentRow(1);
    editor.moveOrderEntry(-1);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(
        lastHierarchy(spy)->order, std::optional<std::vector<std::string>>({"default", "os:{{ lookup('facts.os') }}"}));
    QCOMPARE(lastHierarchy(spy)->merge, std::optional<std::string>("deep"));
    QCOMPARE(editor.orderList()->currentRow(), 0);

    editor.moveOrderEntry(-1);
    QCOMPARE(spy.count(), 1);

    editor.addOrderEntry();
    QCOMPARE(spy.count(), 2);
    QCOMPARE(lastHierarchy(spy)->order->size(), std::size_t(3));

    editor.orderList()->setCurrentRow(0);
    editor.removeOrderEntry();
    QCOMPARE(lastHierarchy(spy)->order->front(), std::string("os:{{ lookup('facts.os') }}"));

    editor.mergeCombo()->setCurrentIndex(0);
    while (editor.orderList()->count() > 0) {
        editor.orderList()->setCurrentRow(0);
        editor.removeOrderEntry();
    }
    QVERIFY(!lastHierarchy(spy).has_value());
}

void TestManifestSettingsEditor::hierarchyKeyboard()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    editor.show();
    editor.tabs()->setCurrentIndex(1);
    QVERIFY(QTest::qWaitForWindowActive(&editor));
    QListWidget *list = editor.orderList();
    list->setFocus();
    QTRY_VERIFY(list->hasFocus());
    list->setCurrentRow(1);
    QSignalSpy spy(&editor, &ManifestSettingsEditor::hierarchyEdited);
    QTest::keyClick(list, Qt::Key_Up, Qt::ControlModifier);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(orderOf(editor).first(), QStringLiteral("default"));
    QTest::keyClick(list, Qt::Key_Down, Qt::ControlModifier);
    QCOMPARE(orderOf(editor).last(), QStringLiteral("default"));
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(orderOf(editor), QStringList({QStringLiteral("os:{{ lookup('facts.os') }}")}));
    QCOMPARE(spy.count(), 3);
}

void TestManifestSettingsEditor::hierarchyItemEdit()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    QSignalSpy spy(&editor, &ManifestSettingsEditor::hierarchyEdited);
    editor.orderList()->item(1)->setText(QStringLiteral("common"));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(lastHierarchy(spy)->order->back(), std::string("common"));
    editor.orderList()->item(1)->setText(QStringLiteral("  "));
    QCOMPARE(editor.orderList()->count(), 1);
    QCOMPARE(lastHierarchy(spy)->order->size(), std::size_t(1));
}

void TestManifestSettingsEditor::brokenTemplateInOrderIsMarked()
{
    ManifestSettingsEditor editor;
    Manifest manifest;
    manifest.hierarchy = Hierarchy {std::vector<std::string> {"os:{{ lookup('facts.os') }}", "x:{{ lookup( }}"}, {}};
    editor.setManifest(manifest);
    QVERIFY(editor.orderList()->item(0)->toolTip().isEmpty());
    QVERIFY(editor.orderList()->item(0)->icon().isNull());
    QVERIFY(editor.orderList()->item(1)->toolTip().startsWith(QStringLiteral("Template error: ")));
    QVERIFY(!editor.orderList()->item(1)->icon().isNull());
    QSignalSpy spy(&editor, &ManifestSettingsEditor::hierarchyEdited);
    editor.orderList()->item(1)->setText(QStringLiteral("x:{{ lookup('data.x') }}"));
    QVERIFY(editor.orderList()->item(1)->toolTip().isEmpty());
    QCOMPARE(spy.count(), 1);
}

void TestManifestSettingsEditor::mergeModeEdits()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    QSignalSpy spy(&editor, &ManifestSettingsEditor::hierarchyEdited);
    editor.mergeCombo()->setCurrentIndex(editor.mergeCombo()->findText(QStringLiteral("first")));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(lastHierarchy(spy)->merge, std::optional<std::string>("first"));
    editor.mergeCombo()->setCurrentIndex(0);
    QCOMPARE(lastHierarchy(spy)->merge, std::nullopt);
    QVERIFY(lastHierarchy(spy)->order.has_value());
}

void TestManifestSettingsEditor::unknownMergeModeIsShown()
{
    ManifestSettingsEditor editor;
    Manifest manifest;
    manifest.hierarchy = Hierarchy {std::nullopt, "shallow"};
    editor.setManifest(manifest);
    QCOMPARE(editor.mergeCombo()->currentText(), QStringLiteral("shallow"));
    manifest.hierarchy->merge = "deep";
    editor.setManifest(manifest);
    QCOMPARE(editor.mergeCombo()->currentText(), QStringLiteral("deep"));
    QCOMPARE(editor.mergeCombo()->findText(QStringLiteral("shallow")), -1);
}

void TestManifestSettingsEditor::messagesEmitOnEditingFinished()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.tabs()->setCurrentIndex(3);
    QSignalSpy spy(&editor, &ManifestSettingsEditor::messagesEdited);
    QLineEdit *post = editor.postMessageEdit();
    post->setFocus();
    QTest::keyClicks(post, QStringLiteral("done"));
    QCOMPARE(spy.count(), 0);
    QTest::keyClick(post, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("starting"));
    QCOMPARE(spy.at(0).at(1).toString(), QStringLiteral("done"));

    // Nothing changed since the manifest was shown: no edit.
    Manifest applied = sampleManifest();
    applied.ccm->postMessage = "done";
    editor.setManifest(applied);
    QTest::keyClick(post, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
}

void TestManifestSettingsEditor::failOnErrorTriState()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    QSignalSpy spy(&editor, &ManifestSettingsEditor::failOnErrorEdited);
    QComboBox *combo = editor.failOnErrorCombo();
    combo->setCurrentIndex(2);
    QCOMPARE(spy.last().at(0).value<std::optional<bool>>(), std::optional<bool>(false));
    combo->setCurrentIndex(0);
    QCOMPARE(spy.last().at(0).value<std::optional<bool>>(), std::nullopt);
    combo->setCurrentIndex(1);
    QCOMPARE(spy.last().at(0).value<std::optional<bool>>(), std::optional<bool>(true));
    QCOMPARE(spy.count(), 3);

    Manifest manifest = sampleManifest();
    manifest.ccm->failOnError = std::nullopt;
    editor.setManifest(manifest);
    QCOMPARE(combo->currentIndex(), 0);
    QCOMPARE(spy.count(), 3);
}

void TestManifestSettingsEditor::setManifestKeepsEditInProgress()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    editor.show();
    QVERIFY(QTest::qWaitForWindowActive(&editor));
    editor.tabs()->setCurrentIndex(3);
    QLineEdit *pre = editor.preMessageEdit();
    pre->setFocus();
    QTRY_VERIFY(pre->hasFocus());
    pre->end(false);
    QTest::keyClicks(pre, QStringLiteral(" now"));
    const int cursor = pre->cursorPosition();

    Manifest changed = sampleManifest();
    changed.data = Json::parse(R"({"port": 90})");
    changed.ccm->postMessage = "bye";
    editor.setManifest(changed);
    QVERIFY(pre->hasFocus());
    QCOMPARE(pre->text(), QStringLiteral("starting now"));
    QCOMPARE(pre->cursorPosition(), cursor);
    QCOMPARE(editor.postMessageEdit()->text(), QStringLiteral("bye"));
    QVERIFY(editor.dataEditor()->value() == Json::parse(R"({"port": 90})"));

    QSignalSpy spy(&editor, &ManifestSettingsEditor::messagesEdited);
    QTest::keyClick(pre, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("starting now"));
    QCOMPARE(spy.at(0).at(1).toString(), QStringLiteral("bye"));
}

void TestManifestSettingsEditor::setManifestUpdatesChangedSections()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    editor.orderList()->setCurrentRow(1);
    QSignalSpy hierarchy(&editor, &ManifestSettingsEditor::hierarchyEdited);
    QSignalSpy data(&editor, &ManifestSettingsEditor::dataEdited);
    Manifest changed = sampleManifest();
    changed.hierarchy->order->push_back("extra");
    changed.hierarchy->merge = std::nullopt;
    changed.ccm->preMessage = std::nullopt;
    editor.setManifest(changed);
    QCOMPARE(orderOf(editor).size(), 3);
    QCOMPARE(editor.orderList()->currentRow(), 1);
    QCOMPARE(editor.mergeCombo()->currentIndex(), 0);
    QCOMPARE(editor.preMessageEdit()->text(), QString());
    QCOMPARE(hierarchy.count(), 0);
    QCOMPARE(data.count(), 0);
}

void TestManifestSettingsEditor::emptyManifest()
{
    ManifestSettingsEditor editor;
    editor.setManifest(sampleManifest());
    editor.setManifest(Manifest {});
    QCOMPARE(editor.dataEditor()->tree()->topLevelItemCount(), 0);
    QCOMPARE(editor.orderList()->count(), 0);
    QCOMPARE(editor.mergeCombo()->currentIndex(), 0);
    QCOMPARE(editor.failOnErrorCombo()->currentIndex(), 0);
    QCOMPARE(editor.preMessageEdit()->text(), QString());
}

CCM_TEST_MAIN(TestManifestSettingsEditor)
#include "tst_manifest_settings_editor.moc"
