// SPDX-License-Identifier: Apache-2.0
#include "core/model/schema_registry.h"
#include "designer/core/manifest_document.h"
#include "designer/ui/dialogs/mode_dialog.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/property_editor.h"
#include "json_test_support.h"
#include "test_main.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

using ccm::Json;
using ccm::designer::FieldEditor;
using ccm::designer::ModeDialog;
using ccm::designer::PropertyEditor;

namespace {

QStringList g_warnings;

void collectWarnings(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type != QtDebugMsg && type != QtInfoMsg)
        g_warnings.append(message);
}

/// The value of the last propertyEdited emission for property.
Json lastEdit(const QSignalSpy &spy, const QString &property)
{
    for (auto it = spy.crbegin(); it != spy.crend(); ++it) {
        if (it->at(0).toString() == property)
            return it->at(1).value<Json>();
    }
    return Json("<none>");
}

} // namespace

class TstPropertyEditor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void buildsEveryType_data();
    void buildsEveryType();
    void invalidModeShowsMessageAndEmits();
    void rwxHelperWritesOctal();
    void triStateBoolean();
    void stringListEditor();
    void mapEditor();
    void jsonValuedMap();
    void postRulesKeepOrder();
    void nestedHealthCheckEmitsWholeArray();
    void addAndRemoveNestedItems();
    void setResourceKeepsCursor();
    void diagnosticsGoUnderTheirField();
    void documentProblemShownOnceUnderItsField();
    void focusProperty();
    void referencesAreChecked();
    void controlExpressionCheckedAsTyped();
    void nameEditsAndDefaults();
    void nameCharactersCheckedForPackagesAndServicesOnly_data();
    void nameCharactersCheckedForPackagesAndServicesOnly();
    void inheritedValuesShown();
    void enumComboWithUnset();
    void integerSpinBox();
    void durationChecked();
    void secretCanBeRevealed();
    void requiredFollowsEnsure();
    void clearShowsHint();
    void switchingTypesRebuilds();
    void messageColoursFollowPalette();
    void wrongValueTypesDoNotBreakTheForm();
};

void TstPropertyEditor::initTestCase()
{
    qRegisterMetaType<Json>();
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
}

void TstPropertyEditor::buildsEveryType_data()
{
    QTest::addColumn<QString>("type");
    for (const char *type : {"package", "service", "file", "exec", "archive", "scaffold", "apply"})
        QTest::newRow(type) << QString::fromLatin1(type);
}

void TstPropertyEditor::buildsEveryType()
{
    QFETCH(QString, type);
    g_warnings.clear();
    const auto previous = qInstallMessageHandler(collectWarnings);
    {
        PropertyEditor editor;
        editor.resize(500, 700);
        editor.show();
        editor.setResource(type, QStringLiteral("x"), Json::object(), Json::object(), false);
        QCoreApplication::processEvents();
        for (const std::string &property : ccm::SchemaRegistry::instance().propertyOrder(type.toStdString())) {
            const QString name = QString::fromStdString(property);
            if (name == QLatin1String("name"))
                QVERIFY(editor.findChild<QLineEdit *>(name));
            else
                QVERIFY2(editor.findChild<FieldEditor *>(name), property.c_str());
        }
        QCOMPARE(editor.type(), type);
    }
    qInstallMessageHandler(previous);
    QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
}

void TstPropertyEditor::invalidModeShowsMessageAndEmits()
{
    PropertyEditor editor;
    editor.show();
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    QSignalSpy cleared(&editor, &PropertyEditor::propertyCleared);
    editor.setResource(QStringLiteral("file"), QStringLiteral("/etc/motd"), Json::object(), Json(), false);
    auto *line = editor.findChild<FieldEditor *>(QStringLiteral("mode"))->findChild<QLineEdit *>();
    QVERIFY(line);
    QTest::keyClicks(line, QStringLiteral("999"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("mode")), Json("999"));
    auto *message = editor.findChild<QLabel *>(QStringLiteral("mode-message"));
    QVERIFY(message->isVisibleTo(&editor));
    QVERIFY(!message->text().isEmpty());

    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("0640"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("mode")), Json("0640"));
    QVERIFY(!message->isVisibleTo(&editor));

    line->selectAll();
    QTest::keyClick(line, Qt::Key_Backspace);
    QCOMPARE(cleared.size(), 1);
    QCOMPARE(cleared.front().front().toString(), QStringLiteral("mode"));
}

void TstPropertyEditor::rwxHelperWritesOctal()
{
    PropertyEditor editor;
    editor.show();
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json {{"mode", "0644"}}, Json(), false);
    auto *mode = editor.findChild<FieldEditor *>(QStringLiteral("mode"));
    mode->findChild<QToolButton *>(QStringLiteral("rwx"))->click();
    auto *dialog = mode->findChild<ModeDialog *>();
    QVERIFY(dialog);
    QCOMPARE(dialog->modeText(), QStringLiteral("0644"));
    dialog->bitBox(0100)->setChecked(true);
    dialog->bitBox(0010)->setChecked(true);
    dialog->bitBox(0004)->setChecked(true);
    dialog->bitBox(0004)->setChecked(false);
    QCOMPARE(dialog->modeText(), QStringLiteral("0750"));
    dialog->accept();
    COMPARE_JSON(lastEdit(edited, QStringLiteral("mode")), Json("0750"));
    QCOMPARE(mode->findChild<QLineEdit *>()->text(), QStringLiteral("0750"));
}

void TstPropertyEditor::triStateBoolean()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    QSignalSpy cleared(&editor, &PropertyEditor::propertyCleared);
    editor.setResource(QStringLiteral("service"), QStringLiteral("nginx"), Json::object(), Json(), false);
    auto *box = editor.findChild<FieldEditor *>(QStringLiteral("enable"))->findChild<QCheckBox *>();
    QCOMPARE(box->checkState(), Qt::PartiallyChecked);
    box->click();
    COMPARE_JSON(lastEdit(edited, QStringLiteral("enable")), Json(true));
    box->click();
    COMPARE_JSON(lastEdit(edited, QStringLiteral("enable")), Json(false));
    box->click();
    QCOMPARE(cleared.size(), 1);
    QCOMPARE(edited.size(), 2);
    editor.setResource(QStringLiteral("service"), QStringLiteral("nginx"), Json {{"enable", false}}, Json(), false);
    QCOMPARE(box->checkState(), Qt::Unchecked);
    QCOMPARE(edited.size(), 2);
}

void TstPropertyEditor::stringListEditor()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    QSignalSpy cleared(&editor, &PropertyEditor::propertyCleared);
    editor.setResource(QStringLiteral("exec"), QStringLiteral("x"), Json::object(), Json(), false);
    auto *field = editor.findChild<FieldEditor *>(QStringLiteral("environment"));
    auto *entry = field->findChild<QLineEdit *>(QStringLiteral("entry"));
    QTest::keyClicks(entry, QStringLiteral("A=1"));
    QTest::keyClick(entry, Qt::Key_Return);
    QTest::keyClicks(entry, QStringLiteral("B=2"));
    QTest::keyClick(entry, Qt::Key_Return);
    COMPARE_JSON(lastEdit(edited, QStringLiteral("environment")), Json::array({"A=1", "B=2"}));
    auto *list = field->findChild<QListWidget *>();
    list->setCurrentRow(0);
    field->findChild<QToolButton *>(QStringLiteral("remove"))->click();
    COMPARE_JSON(lastEdit(edited, QStringLiteral("environment")), Json::array({"B=2"}));
    list->item(0)->setText(QStringLiteral("C=3"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("environment")), Json::array({"C=3"}));
    list->setCurrentRow(0);
    field->findChild<QToolButton *>(QStringLiteral("remove"))->click();
    QCOMPARE(cleared.size(), 1);

    auto *returns = editor.findChild<FieldEditor *>(QStringLiteral("returns"));
    auto *returnsEntry = returns->findChild<QLineEdit *>(QStringLiteral("entry"));
    QTest::keyClicks(returnsEntry, QStringLiteral("0"));
    QTest::keyClick(returnsEntry, Qt::Key_Return);
    QTest::keyClicks(returnsEntry, QStringLiteral("2"));
    QTest::keyClick(returnsEntry, Qt::Key_Return);
    COMPARE_JSON(lastEdit(edited, QStringLiteral("returns")), Json::array({0, 2}));
}

void TstPropertyEditor::mapEditor()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    editor.setResource(
        QStringLiteral("archive"), QStringLiteral("/a.tgz"), Json {{"headers", {{"X-A", "1"}}}}, Json(), false);
    auto *field = editor.findChild<FieldEditor *>(QStringLiteral("headers"));
    auto *table = field->findChild<QTableWidget *>();
    QCOMPARE(table->rowCount(), 1);
    table->item(0, 1)->setText(QStringLiteral("2"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("headers")), (Json {{"X-A", "2"}}));
    field->findChild<QToolButton *>(QStringLiteral("add"))->click();
    QCOMPARE(table->rowCount(), 2);
    table->item(1, 0)->setText(QStringLiteral("X-B"));
    table->item(1, 1)->setText(QStringLiteral("b"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("headers")), (Json {{"X-A", "2"}, {"X-B", "b"}}));
}

void TstPropertyEditor::jsonValuedMap()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    editor.setResource(
        QStringLiteral("apply"), QStringLiteral("a.yaml"), Json {{"data", {{"port", 80}}}}, Json(), false);
    auto *table = editor.findChild<FieldEditor *>(QStringLiteral("data"))->findChild<QTableWidget *>();
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("80"));
    table->item(0, 1)->setText(QStringLiteral("[1, 2]"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("data")), (Json {{"port", Json::array({1, 2})}}));
    table->item(0, 1)->setText(QStringLiteral("web {"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("data")), (Json {{"port", "web {"}}));
}

void TstPropertyEditor::postRulesKeepOrder()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    const Json post = Json::array({Json {{"*.sh", "chmod +x {}"}}, Json {{"*.go", "go fmt {}"}}});
    editor.setResource(QStringLiteral("scaffold"), QStringLiteral("/etc/app"), Json {{"post", post}}, Json(), false);
    auto *table = editor.findChild<FieldEditor *>(QStringLiteral("post"))->findChild<QTableWidget *>();
    QCOMPARE(table->rowCount(), 2);
    table->item(1, 1)->setText(QStringLiteral("gofmt -w {}"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("post")),
        Json::array({Json {{"*.sh", "chmod +x {}"}}, Json {{"*.go", "gofmt -w {}"}}}));
}

void TstPropertyEditor::nestedHealthCheckEmitsWholeArray()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    const Json checks = Json::array({Json {{"name", "a"}, {"command", "c"}}, Json {{"name", "b"}, {"tries", 3}}});
    editor.setResource(
        QStringLiteral("service"), QStringLiteral("nginx"), Json {{"health_checks", checks}}, Json(), false);
    auto *command = editor.findChild<FieldEditor *>(QStringLiteral("health_checks/0/command"));
    QVERIFY(command);
    QTest::keyClicks(command->findChild<QLineEdit *>(), QStringLiteral("x"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("health_checks")),
        Json::array({Json {{"name", "a"}, {"command", "cx"}}, Json {{"name", "b"}, {"tries", 3}}}));
    auto *tries = editor.findChild<FieldEditor *>(QStringLiteral("health_checks/1/tries"))->findChild<QSpinBox *>();
    COMPARE_JSON(tries->value(), 3);
    tries->setValue(5);
    COMPARE_JSON(lastEdit(edited, QStringLiteral("health_checks"))[1]["tries"], Json(5));
}

void TstPropertyEditor::addAndRemoveNestedItems()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    QSignalSpy cleared(&editor, &PropertyEditor::propertyCleared);
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json::object(), Json(), false);
    auto *field = editor.findChild<FieldEditor *>(QStringLiteral("register_when_stable"));
    field->findChild<QPushButton *>(QStringLiteral("add"))->click();
    COMPARE_JSON(lastEdit(edited, QStringLiteral("register_when_stable")), Json::array({Json::object()}));
    auto *cluster = editor.findChild<FieldEditor *>(QStringLiteral("register_when_stable/0/cluster"));
    QVERIFY(cluster);
    QTest::keyClicks(cluster->findChild<QLineEdit *>(), QStringLiteral("prod"));
    auto *port = editor.findChild<FieldEditor *>(QStringLiteral("register_when_stable/0/port"));
    QTest::keyClicks(port->findChild<QLineEdit *>(), QStringLiteral("8080"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("register_when_stable")),
        Json::array({Json {{"cluster", "prod"}, {"port", 8080}}}));
    field->findChild<QPushButton *>(QStringLiteral("remove"))->click();
    QCOMPARE(cleared.size(), 1);
    QCOMPARE(cleared.back().front().toString(), QStringLiteral("register_when_stable"));
}

void TstPropertyEditor::setResourceKeepsCursor()
{
    PropertyEditor editor;
    editor.show();
    QApplication::setActiveWindow(&editor);
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json::object(), Json(), false);
    auto *owner = editor.findChild<FieldEditor *>(QStringLiteral("owner"));
    auto *line = owner->findChild<QLineEdit *>();
    QObject::connect(
        &editor, &PropertyEditor::propertyEdited, &editor, [&](const QString &property, const Json &value) {
            editor.setResource(
                QStringLiteral("file"), QStringLiteral("/a"), Json {{property.toStdString(), value}}, Json(), false);
        });
    line->setFocus();
    QTest::keyClicks(line, QStringLiteral("wwwdata"));
    line->setCursorPosition(3);
    QTest::keyClicks(line, QStringLiteral("-"));
    QCOMPARE(line->text(), QStringLiteral("www-data"));
    QCOMPARE(line->cursorPosition(), 4);
    QCOMPARE(editor.findChild<FieldEditor *>(QStringLiteral("owner")), owner);

    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json {{"owner", "www-data"}}, Json(), false);
    QCOMPARE(line->cursorPosition(), 4);
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json {{"owner", "root"}}, Json(), false);
    QCOMPARE(line->text(), QStringLiteral("root"));

    auto *name = editor.findChild<QLineEdit *>(QStringLiteral("name"));
    name->setCursorPosition(1);
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json::object(), Json(), false);
    QCOMPARE(name->cursorPosition(), 1);
}

void TstPropertyEditor::documentProblemShownOnceUnderItsField()
{
    // The form checks the mode as typed and the document reports it too, prefixed with the
    // resource for the Problems panel: under the field it is one message, without the prefix.
    ccm::designer::ManifestDocument document;
    document.setText(QStringLiteral("ccm:\n  resources:\n    - file:\n        - /srv/www:\n"
                                    "            ensure: directory\n            owner: root\n"
                                    "            group: root\n            mode: \"0999\"\n"));
    const ccm::designer::EntryRef entry {0, 0};
    QVERIFY(document.hasEntry(entry));
    const ccm::Diagnostics diagnostics = document.diagnosticsFor(entry);
    QVERIFY(std::any_of(diagnostics.begin(), diagnostics.end(),
        [](const ccm::Diagnostic &d) { return d.message.starts_with("file#/srv/www: mode '0999'"); }));
    const auto &resource = document.blocks()[0].entries[0];

    PropertyEditor editor;
    editor.show();
    editor.setResource(QStringLiteral("file"), QStringLiteral("/srv/www"), resource.properties, Json(), false);
    editor.setDiagnostics(diagnostics, document.entryPointer(entry));
    auto *mode = editor.findChild<QLabel *>(QStringLiteral("mode-message"));
    QVERIFY(mode->isVisibleTo(&editor));
    QCOMPARE(mode->text(), QStringLiteral("mode '0999' is not octal: '9' is not a digit from 0 to 7"));
}

void TstPropertyEditor::diagnosticsGoUnderTheirField()
{
    PropertyEditor editor;
    editor.show();
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json {{"mode", "0644"}}, Json(), false);
    const std::string entry = "/resources/0/file/2";
    ccm::Diagnostics diagnostics {
        {ccm::Severity::Error, "mode must be octal", entry + "/mode", {}},
        {ccm::Severity::Warning, "tries is too low", entry + "/health_checks/0/tries", {}},
        {ccm::Severity::Error, "owner is required", entry, {}},
        {ccm::Severity::Error, "duplicate name", entry + "/name", {}},
    };
    editor.setDiagnostics(diagnostics, entry);
    auto *mode = editor.findChild<QLabel *>(QStringLiteral("mode-message"));
    QVERIFY(mode->isVisibleTo(&editor));
    QCOMPARE(mode->text(), QStringLiteral("mode must be octal"));
    QCOMPARE(editor.findChild<QLabel *>(QStringLiteral("health_checks-message"))->text(),
        QStringLiteral("tries is too low"));
    QCOMPARE(editor.findChild<QLabel *>(QStringLiteral("messages"))->text(), QStringLiteral("owner is required"));
    QVERIFY(
        editor.findChild<QLabel *>(QStringLiteral("name-message"))->text().contains(QStringLiteral("duplicate name")));
    QVERIFY(!editor.findChild<QLabel *>(QStringLiteral("owner-message"))->isVisibleTo(&editor));
    QVERIFY(mode->palette().color(QPalette::WindowText) != editor.palette().color(QPalette::WindowText));

    editor.setDiagnostics({}, entry);
    QVERIFY(!mode->isVisibleTo(&editor));
    QVERIFY(!editor.findChild<QLabel *>(QStringLiteral("messages"))->isVisibleTo(&editor));
}

void TstPropertyEditor::focusProperty()
{
    PropertyEditor editor;
    editor.resize(400, 300);
    editor.show();
    QApplication::setActiveWindow(&editor);
    QVERIFY(QTest::qWaitForWindowActive(&editor));
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json::object(), Json(), false);
    editor.findChild<QToolButton *>(QStringLiteral("group-Health"))->setChecked(false);
    QVERIFY(editor.focusProperty(QStringLiteral("health_checks")));
    QVERIFY(editor.findChild<QToolButton *>(QStringLiteral("group-Health"))->isChecked());
    QVERIFY(editor.focusProperty(QStringLiteral("mode")));
    QCOMPARE(
        QApplication::focusWidget(), editor.findChild<FieldEditor *>(QStringLiteral("mode"))->findChild<QLineEdit *>());
    QVERIFY(editor.focusProperty(QStringLiteral("name")));
    QCOMPARE(QApplication::focusWidget(), editor.findChild<QLineEdit *>(QStringLiteral("name")));
    QVERIFY(!editor.focusProperty(QStringLiteral("nonsense")));
}

void TstPropertyEditor::referencesAreChecked()
{
    PropertyEditor editor;
    editor.setReferenceTargets({QStringLiteral("package#nginx"), QStringLiteral("file#/etc/nginx.conf")});
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    editor.setResource(QStringLiteral("service"), QStringLiteral("nginx"), Json::object(), Json(), false);
    auto *field = editor.findChild<FieldEditor *>(QStringLiteral("require"));
    auto *entry = field->findChild<QLineEdit *>(QStringLiteral("entry"));
    QVERIFY(entry->completer());
    QCOMPARE(entry->completer()->model()->rowCount(), 2);
    QTest::keyClicks(entry, QStringLiteral("package#nginx"));
    QTest::keyClick(entry, Qt::Key_Return);
    auto *message = editor.findChild<QLabel *>(QStringLiteral("require-message"));
    QVERIFY(message->text().isEmpty());
    QTest::keyClicks(entry, QStringLiteral("package#apache"));
    QTest::keyClick(entry, Qt::Key_Return);
    COMPARE_JSON(lastEdit(edited, QStringLiteral("require")), Json::array({"package#nginx", "package#apache"}));
    QVERIFY(message->text().contains(QStringLiteral("package#apache")));
}

void TstPropertyEditor::controlExpressionCheckedAsTyped()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    editor.setResource(QStringLiteral("exec"), QStringLiteral("x"), Json::object(), Json(), false);
    auto *condition = editor.findChild<FieldEditor *>(QStringLiteral("control/if"));
    QVERIFY(condition);
    QTest::keyClicks(condition->findChild<QLineEdit *>(), QStringLiteral("Data.x == (1"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("control")), (Json {{"if", "Data.x == (1"}}));
    auto *message = editor.findChild<QLabel *>(QStringLiteral("control-message"));
    QVERIFY(!message->text().isEmpty());
    QTest::keyClicks(condition->findChild<QLineEdit *>(), QStringLiteral(")"));
    QVERIFY(message->text().isEmpty());
}

void TstPropertyEditor::nameCharactersCheckedForPackagesAndServicesOnly_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("complains");
    QTest::newRow("package with a slash") << QStringLiteral("package") << QStringLiteral("a/b") << true;
    QTest::newRow("service with a space") << QStringLiteral("service") << QStringLiteral("my service") << true;
    QTest::newRow("package templated") << QStringLiteral("package") << QStringLiteral("{{ Data.pkg }}") << false;
    QTest::newRow("file path") << QStringLiteral("file") << QStringLiteral("/etc/nginx/nginx.conf") << false;
    QTest::newRow("exec command") << QStringLiteral("exec") << QStringLiteral("/usr/bin/touch /tmp/x") << false;
    QTest::newRow("archive path") << QStringLiteral("archive") << QStringLiteral("/opt/app.tar.gz") << false;
}

void TstPropertyEditor::nameCharactersCheckedForPackagesAndServicesOnly()
{
    QFETCH(QString, type);
    QFETCH(QString, name);
    QFETCH(bool, complains);
    PropertyEditor editor;
    editor.setResource(type, QStringLiteral("x"), Json::object(), Json(), false);
    auto *line = editor.findChild<QLineEdit *>(QStringLiteral("name"));
    line->clear();
    QTest::keyClicks(line, name);
    QCOMPARE(!editor.findChild<QLabel *>(QStringLiteral("name-message"))->text().isEmpty(), complains);
}

void TstPropertyEditor::nameEditsAndDefaults()
{
    PropertyEditor editor;
    QSignalSpy named(&editor, &PropertyEditor::nameEdited);
    editor.setResource(QStringLiteral("package"), QStringLiteral("ngin"), Json::object(), Json(), false);
    auto *name = editor.findChild<QLineEdit *>(QStringLiteral("name"));
    QCOMPARE(name->text(), QStringLiteral("ngin"));
    QTest::keyClicks(name, QStringLiteral("x"));
    QCOMPARE(named.size(), 1);
    QCOMPARE(named.front().front().toString(), QStringLiteral("nginx"));
    name->clear();
    QTest::keyClicks(name, QStringLiteral("a"));
    QTest::keyClick(name, Qt::Key_Backspace);
    QVERIFY(!editor.findChild<QLabel *>(QStringLiteral("name-message"))->text().isEmpty());

    editor.setResource(QStringLiteral("package"), QString(), Json {{"ensure", "latest"}}, Json(), true);
    QVERIFY(!editor.findChild<QLineEdit *>(QStringLiteral("name")));
    QVERIFY(editor.findChild<FieldEditor *>(QStringLiteral("ensure")));
}

void TstPropertyEditor::inheritedValuesShown()
{
    PropertyEditor editor;
    editor.show();
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json::object(), Json {{"owner", "www"}}, false);
    auto *line = editor.findChild<FieldEditor *>(QStringLiteral("owner"))->findChild<QLineEdit *>();
    QVERIFY(line->placeholderText().contains(QStringLiteral("www")));
    auto *hint = editor.findChild<QLabel *>(QStringLiteral("owner-inherited"));
    QVERIFY(hint->isVisibleTo(&editor));
    QVERIFY(hint->text().contains(QStringLiteral("www")));
    QTest::keyClicks(line, QStringLiteral("root"));
    QVERIFY(!hint->isVisibleTo(&editor));
    QVERIFY(!editor.findChild<QLabel *>(QStringLiteral("group-inherited"))->isVisibleTo(&editor));
}

void TstPropertyEditor::enumComboWithUnset()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    QSignalSpy cleared(&editor, &PropertyEditor::propertyCleared);
    editor.setResource(QStringLiteral("service"), QStringLiteral("nginx"), Json::object(), Json(), false);
    auto *combo = editor.findChild<FieldEditor *>(QStringLiteral("ensure"))->findChild<QComboBox *>();
    QCOMPARE(combo->count(), 3);
    QVERIFY(combo->itemText(0).contains(QStringLiteral("running")));
    combo->setCurrentIndex(2);
    emit combo->activated(2);
    COMPARE_JSON(lastEdit(edited, QStringLiteral("ensure")), Json("stopped"));
    combo->setCurrentIndex(0);
    emit combo->activated(0);
    QCOMPARE(cleared.size(), 1);

    editor.setResource(
        QStringLiteral("service"), QStringLiteral("nginx"), Json {{"ensure", "sleeping"}}, Json(), false);
    QCOMPARE(combo->currentText(), QStringLiteral("sleeping"));

    editor.setResource(QStringLiteral("package"), QStringLiteral("nginx"), Json {{"ensure", "1.2.3"}}, Json(), false);
    auto *free = editor.findChild<FieldEditor *>(QStringLiteral("ensure"))->findChild<QComboBox *>();
    QVERIFY(free->isEditable());
    QCOMPARE(free->currentText(), QStringLiteral("1.2.3"));
}

void TstPropertyEditor::integerSpinBox()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    QSignalSpy cleared(&editor, &PropertyEditor::propertyCleared);
    editor.setResource(QStringLiteral("service"), QStringLiteral("nginx"),
        Json {{"register_when_stable", Json::array({Json {{"priority", 10}}})}}, Json(), false);
    auto *spin
        = editor.findChild<FieldEditor *>(QStringLiteral("register_when_stable/0/priority"))->findChild<QSpinBox *>();
    COMPARE_JSON(spin->value(), 10);
    QCOMPARE(spin->maximum(), 255);
    spin->setValue(spin->minimum());
    COMPARE_JSON(lastEdit(edited, QStringLiteral("register_when_stable")), Json::array({Json::object()}));
    QCOMPARE(spin->text(), spin->specialValueText());
}

void TstPropertyEditor::durationChecked()
{
    PropertyEditor editor;
    editor.setResource(QStringLiteral("exec"), QStringLiteral("x"), Json::object(), Json(), false);
    auto *line = editor.findChild<FieldEditor *>(QStringLiteral("timeout"))->findChild<QLineEdit *>();
    auto *message = editor.findChild<QLabel *>(QStringLiteral("timeout-message"));
    QTest::keyClicks(line, QStringLiteral("5 minutes"));
    QVERIFY(!message->text().isEmpty());
    line->clear();
    QTest::keyClicks(line, QStringLiteral("5m"));
    QVERIFY(message->text().isEmpty());
    line->clear();
    QTest::keyClicks(line, QStringLiteral("{{ Data.t }}"));
    QVERIFY(message->text().isEmpty());
}

void TstPropertyEditor::secretCanBeRevealed()
{
    PropertyEditor editor;
    editor.setResource(QStringLiteral("archive"), QStringLiteral("/a"), Json {{"password", "s3cret"}}, Json(), false);
    auto *field = editor.findChild<FieldEditor *>(QStringLiteral("password"));
    auto *line = field->findChild<QLineEdit *>();
    QCOMPARE(line->echoMode(), QLineEdit::Password);
    field->findChild<QToolButton *>(QStringLiteral("reveal"))->click();
    QCOMPARE(line->echoMode(), QLineEdit::Normal);
    QCOMPARE(line->text(), QStringLiteral("s3cret"));
}

void TstPropertyEditor::requiredFollowsEnsure()
{
    PropertyEditor editor;
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json {{"ensure", "present"}}, Json(), false);
    auto *label = editor.findChild<QLabel *>(QStringLiteral("owner-label"));
    QVERIFY(label->text().endsWith(QLatin1Char('*')));
    QVERIFY(label->font().bold());
    QVERIFY(editor.findChild<QLabel *>(QStringLiteral("ensure-label"))->text().endsWith(QLatin1Char('*')));
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json {{"ensure", "absent"}}, Json(), false);
    QVERIFY(!label->text().endsWith(QLatin1Char('*')));
    QVERIFY(!editor.findChild<QLabel *>(QStringLiteral("force-label"))->text().endsWith(QLatin1Char('*')));
}

void TstPropertyEditor::clearShowsHint()
{
    PropertyEditor editor;
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json::object(), Json(), false);
    editor.clear();
    QVERIFY(!editor.findChild<FieldEditor *>(QStringLiteral("mode")));
    QVERIFY(!editor.findChild<QLabel *>(QStringLiteral("hint"))->text().isEmpty());
    QVERIFY(editor.type().isEmpty());
    QVERIFY(!editor.focusProperty(QStringLiteral("mode")));
    editor.setResource(QStringLiteral("bogus"), QStringLiteral("x"), Json::array(), Json(42), false);
    QVERIFY(editor.findChild<QLineEdit *>(QStringLiteral("name")));
}

void TstPropertyEditor::switchingTypesRebuilds()
{
    PropertyEditor editor;
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json {{"mode", "0644"}}, Json(), false);
    editor.setResource(QStringLiteral("exec"), QStringLiteral("x"), Json {{"timeout", "5m"}}, Json(), false);
    QVERIFY(!editor.findChild<FieldEditor *>(QStringLiteral("mode")));
    COMPARE_JSON(editor.findChild<FieldEditor *>(QStringLiteral("timeout"))->value(), Json("5m"));
    editor.setResource(QStringLiteral("exec"), QStringLiteral("y"), Json::object(), Json(), false);
    QVERIFY(editor.findChild<FieldEditor *>(QStringLiteral("timeout"))->value().is_null());
}

void TstPropertyEditor::messageColoursFollowPalette()
{
    PropertyEditor editor;
    QPalette light;
    light.setColor(QPalette::Window, Qt::white);
    light.setColor(QPalette::WindowText, Qt::black);
    editor.setPalette(light);
    editor.show();
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), Json::object(), Json(), false);
    editor.setDiagnostics({{ccm::Severity::Error, "bad", "/e/mode", {}}}, "/e");
    auto *message = editor.findChild<QLabel *>(QStringLiteral("mode-message"));
    const QColor onLight = message->palette().color(QPalette::WindowText);
    QVERIFY(onLight.lightness() < 128);

    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::WindowText, Qt::white);
    editor.setPalette(dark);
    const QColor onDark = message->palette().color(QPalette::WindowText);
    QVERIFY(onDark.lightness() > 128);
    QVERIFY(onDark != QColor(Qt::white));
}

void TstPropertyEditor::wrongValueTypesDoNotBreakTheForm()
{
    PropertyEditor editor;
    QSignalSpy edited(&editor, &PropertyEditor::propertyEdited);
    const Json odd = Json::parse(R"({"mode": 5, "health_checks": "x", "require": {"a": 1}, "force": "yes",
        "owner": [1, 2], "content": {"a": null}, "control": ["if"], "ensure": 3,
        "register_when_stable": [7, {"port": "{{ p }}"}]})");
    editor.setResource(QStringLiteral("file"), QStringLiteral("/a"), odd, Json::array({1}), false);
    QCOMPARE(
        editor.findChild<FieldEditor *>(QStringLiteral("mode"))->findChild<QLineEdit *>()->text(), QStringLiteral("5"));
    QCOMPARE(editor.findChild<FieldEditor *>(QStringLiteral("owner"))->findChild<QLineEdit *>()->text(),
        QStringLiteral("[1,2]"));
    auto *port = editor.findChild<FieldEditor *>(QStringLiteral("register_when_stable/1/port"));
    COMPARE_JSON(port->value(), Json("{{ p }}"));
    QTest::keyClicks(
        editor.findChild<FieldEditor *>(QStringLiteral("mode"))->findChild<QLineEdit *>(), QStringLiteral("55"));
    COMPARE_JSON(lastEdit(edited, QStringLiteral("mode")), Json("555"));
}

CCM_TEST_MAIN(TstPropertyEditor)
#include "tst_property_editor.moc"
