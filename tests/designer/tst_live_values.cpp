// SPDX-License-Identifier: Apache-2.0
// Data provenance, completion and hover values in the designer against a real
// `ccm-backend serve --user`.
#include "designer/core/backend_client.h"
#include "designer/core/live_data.h"
#include "designer/core/manifest_document.h"
#include "designer/core/problems_model.h"
#include "designer/ui/controllers/live_values_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/expression_completer.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/data_provenance_panel.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/what_if_panel.h"
#include "gui_test_support.h"
#include "test_main.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTreeWidget>
#include <QUndoStack>

#include <memory>

using namespace ccm::designer;
using ccm::test::kPatienceMs;

namespace {

/// A window on a manifest in a temporary directory, previewed by a user backend of its own.
class Session {
public:
    explicit Session(const QByteArray &manifest)
    {
        const QString path = m_dir.filePath(QStringLiteral("site.yaml"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(manifest) != manifest.size())
            return;
        file.close();
        BackendClient *client = window.previewController()->client();
        client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
        client->setSystemSocket(m_dir.filePath(QStringLiteral("no-system.sock")));
        client->setUserSocket(m_dir.filePath(QStringLiteral("run/backend.sock")));
        window.whatIfPanel()->setOverridesEnabled(false);
        window.whatIfPanel()->setFactRows({});
        window.show();
        m_opened = window.openFile(path);
        window.connectToBackend();
    }

    bool ready()
    {
        return m_opened
            && QTest::qWaitFor(
                [this] { return live()->hostResolution().has_value() && !live()->facts().empty(); }, kPatienceMs);
    }

    void setWhatIf(const QString &path, const QString &value)
    {
        window.whatIfPanel()->setFactRows({{path, value}});
        window.whatIfPanel()->setOverridesEnabled(true);
    }

    bool whatIfReady()
    {
        return QTest::qWaitFor([this] { return live()->whatIfResolution().has_value(); }, kPatienceMs);
    }

    LiveData *live() const { return window.liveValues()->liveData(); }
    DataProvenancePanel *panel() const { return window.liveValues()->provenancePanel(); }
    QString cell(const QString &pointer, int column) const
    {
        QTreeWidgetItem *item = panel()->keyItem(pointer);
        return item == nullptr ? QStringLiteral("<no row>") : item->text(column);
    }

    MainWindow window;

private:
    QTemporaryDir m_dir;
    bool m_opened = false;
};

const QByteArray kFirstMatch = "data:\n"
                               "  port: 8080\n"
                               "hierarchy:\n"
                               "  order:\n"
                               "    - \"family.{{ Facts.host.info.platformFamily }}\"\n"
                               "    - \"node.{{ Facts.host.info.hostname }}\"\n"
                               "    - common\n"
                               "  merge: first\n"
                               "overrides:\n"
                               "  family.plan9:\n"
                               "    port: 7070\n"
                               "  common:\n"
                               "    port: 9090\n"
                               "ccm:\n"
                               "  resources:\n"
                               "    - file:\n"
                               "        - /tmp/ccm-live-values:\n"
                               "            ensure: present\n"
                               "            owner: root\n"
                               "            content: \"x\"\n"
                               "            control:\n"
                               "              if: Data.port > 1\n"
                               "    - service:\n"
                               "        - nginx:\n"
                               "            ensure: running\n"
                               "            require:\n"
                               "              - f\n";

QLineEdit *lineOf(MainWindow &window, const QString &field)
{
    auto *editor = window.propertyEditor()->findChild<FieldEditor *>(field);
    return editor == nullptr ? nullptr : qobject_cast<QLineEdit *>(editor->focusTarget());
}

QStringList typeAndOffer(QWidget *widget, const QString &text)
{
    ExpressionCompleter *completer = ExpressionCompleter::of(widget);
    if (completer == nullptr)
        return {QStringLiteral("<no completer>")};
    QTest::keyClicks(widget, text);
    return completer->offered();
}

QString hoverAt(QWidget *widget, int position)
{
    ExpressionCompleter *completer = ExpressionCompleter::of(widget);
    if (completer == nullptr)
        return QStringLiteral("<no completer>");
    QSignalSpy shown(completer, &ExpressionCompleter::hoverShown);
    if (!completer->showValueAt(position, widget->mapToGlobal(QPoint(2, 2))))
        return QStringLiteral("<no expression>");
    if (shown.isEmpty() && !shown.wait(kPatienceMs))
        return QStringLiteral("<no answer>");
    return shown.last().at(0).toString();
}

} // namespace

class TestLiveValues : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_live_values"));
    }

    void baseData()
    {
        Session session("data:\n  port: 8080\n  web:\n    listen: \"{{ 1 + 1 }}\"\nccm:\n  resources: []\n");
        QVERIFY(session.ready());
        QCOMPARE(session.cell(QStringLiteral("/data/port"), DataProvenancePanel::HostValue), QStringLiteral("8080"));
        QCOMPARE(session.cell(QStringLiteral("/data/port"), DataProvenancePanel::HostLayer), QStringLiteral("data"));
        QCOMPARE(session.cell(QStringLiteral("/data/web/listen"), DataProvenancePanel::HostValue), QStringLiteral("2"));
        QVERIFY(session.panel()->keysView()->isColumnHidden(DataProvenancePanel::WhatIfValue));

        QTreeWidget *keys = session.panel()->keysView();
        emit keys->itemClicked(
            session.panel()->keyItem(QStringLiteral("/data/web/listen")), DataProvenancePanel::HostLayer);
        QCOMPARE(session.window.yamlEditor()->currentLine(), 4);
    }

    void firstMatch()
    {
        Session session(kFirstMatch);
        QVERIFY(session.ready());
        QCOMPARE(session.cell(QStringLiteral("/data/port"), DataProvenancePanel::HostValue), QStringLiteral("9090"));
        QCOMPARE(session.cell(QStringLiteral("/data/port"), DataProvenancePanel::HostLayer),
            QStringLiteral("override common (entry 3)"));
        QTreeWidget *entries = session.panel()->hierarchyView();
        QCOMPARE(entries->topLevelItemCount(), 3);
        QCOMPARE(entries->topLevelItem(2)->text(DataProvenancePanel::HostMatched), QStringLiteral("yes, applied"));
        const QString hostname = QString::fromStdString(session.live()
                                                            ->facts()
                                                            .value("host", ccm::Json::object())
                                                            .value("info", ccm::Json::object())
                                                            .value("hostname", std::string()));
        QCOMPARE(entries->topLevelItem(1)->text(DataProvenancePanel::HostResolved), QStringLiteral("node.") + hostname);

        QTreeWidget *keys = session.panel()->keysView();
        emit keys->itemClicked(session.panel()->keyItem(QStringLiteral("/data/port")), DataProvenancePanel::HostLayer);
        QCOMPARE(session.window.yamlEditor()->currentLine(), 13);
    }

    void deepMerge()
    {
        Session session("data:\n  web:\n    listen: any\nhierarchy:\n  order:\n"
                        "    - \"node.{{ Facts.host.info.hostname }}\"\n    - common\n  merge: deep\n"
                        "overrides:\n  node.web1:\n    web:\n      tls: true\n  common:\n    web:\n      port: 1\n"
                        "ccm:\n  resources: []\n");
        QVERIFY(session.ready());
        session.setWhatIf(QStringLiteral("host.info.hostname"), QStringLiteral("web1"));
        QVERIFY(session.whatIfReady());
        QVERIFY(!session.panel()->keysView()->isColumnHidden(DataProvenancePanel::WhatIfValue));
        QCOMPARE(session.cell(QStringLiteral("/data/web/tls"), DataProvenancePanel::WhatIfLayer),
            QStringLiteral("override node.web1 (entry 1)"));
        QCOMPARE(session.cell(QStringLiteral("/data/web/port"), DataProvenancePanel::WhatIfLayer),
            QStringLiteral("override common (entry 2)"));
        QCOMPARE(
            session.cell(QStringLiteral("/data/web/listen"), DataProvenancePanel::WhatIfLayer), QStringLiteral("data"));
        QCOMPARE(session.cell(QStringLiteral("/data/web/port"), DataProvenancePanel::HostLayer),
            QStringLiteral("override common (entry 2)"));
    }

    void whatIfChangesMatchedEntry()
    {
        Session session(kFirstMatch);
        QVERIFY(session.ready());
        session.setWhatIf(QStringLiteral("host.info.platformFamily"), QStringLiteral("plan9"));
        QVERIFY(session.whatIfReady());
        QCOMPARE(session.cell(QStringLiteral("/data/port"), DataProvenancePanel::WhatIfValue), QStringLiteral("7070"));
        QCOMPARE(session.cell(QStringLiteral("/data/port"), DataProvenancePanel::WhatIfLayer),
            QStringLiteral("override family.plan9 (entry 1)"));
        QTreeWidgetItem *family = session.panel()->hierarchyView()->topLevelItem(0);
        QCOMPARE(family->text(DataProvenancePanel::WhatIfResolved), QStringLiteral("family.plan9"));
        QCOMPARE(family->text(DataProvenancePanel::WhatIfMatched), QStringLiteral("yes, applied"));
        QVERIFY(family->text(DataProvenancePanel::HostMatched) != QStringLiteral("yes, applied"));
        QCOMPARE(session.cell(QStringLiteral("/data/port"), DataProvenancePanel::HostValue), QStringLiteral("9090"));
    }

    void suggestionQuickAddAndUndo()
    {
        Session session(kFirstMatch);
        QVERIFY(session.ready());
        const auto &suggestions = session.live()->hostResolution()->suggestions;
        const auto node = std::find_if(suggestions.begin(), suggestions.end(),
            [](const OverrideSuggestion &s) { return s.name.startsWith(QLatin1String("node.")); });
        QVERIFY(node != suggestions.end());
        const QString name = node->name;
        auto *add = session.panel()->findChild<QPushButton *>(QStringLiteral("addOverride:") + name);
        QVERIFY(add != nullptr);
        ManifestDocument *document = session.window.document();
        const int commands = document->undoStack()->count();
        add->click();
        QCOMPARE(document->undoStack()->count(), commands + 1);
        QVERIFY(document->loaded().manifest.overrides->contains(name.toStdString()));
        QTRY_VERIFY_WITH_TIMEOUT(
            session.panel()->findChild<QPushButton *>(QStringLiteral("addOverride:") + name) == nullptr, kPatienceMs);
        document->undoStack()->undo();
        QVERIFY(!document->loaded().manifest.overrides->contains(name.toStdString()));
        QTRY_VERIFY_WITH_TIMEOUT(
            session.panel()->findChild<QPushButton *>(QStringLiteral("addOverride:") + name) != nullptr, kPatienceMs);
    }

    void annotationFailureOnKey()
    {
        Session session("data:\n  port: 8080\n  # @require\n  admin: \"\"\n  # @validate isIPv4(value)\n"
                        "  listen: nowhere\n  # @frobnicate\n  mode: fast\nccm:\n  resources: []\n");
        QVERIFY(session.ready());
        QTreeWidgetItem *admin = session.panel()->keyItem(QStringLiteral("/data/admin"));
        QVERIFY(admin != nullptr);
        QVERIFY(!admin->icon(DataProvenancePanel::KeyName).isNull());
        QVERIFY2(admin->toolTip(DataProvenancePanel::KeyName).contains(QLatin1String("@require")),
            qPrintable(admin->toolTip(DataProvenancePanel::KeyName)));
        QVERIFY(session.panel()->keyItem(QStringLiteral("/data/port"))->icon(DataProvenancePanel::KeyName).isNull());
        QTreeWidgetItem *listen = session.panel()->keyItem(QStringLiteral("/data/listen"));
        QVERIFY(listen != nullptr);
        QVERIFY2(listen->toolTip(DataProvenancePanel::KeyName).contains(QLatin1String("@validate isIPv4(value)")),
            qPrintable(listen->toolTip(DataProvenancePanel::KeyName)));
        QVERIFY(!listen->icon(DataProvenancePanel::KeyName).isNull());
        const ccm::Diagnostics unknown = session.live()->hostResolution()->diagnostics;
        QVERIFY(std::any_of(unknown.begin(), unknown.end(), [](const ccm::Diagnostic &d) {
            return d.severity == ccm::Severity::Warning && d.message.find("@frobnicate") != std::string::npos;
        }));
        ProblemsModel *problems = session.window.problemsPanel()->problemsModel();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int row = 0; row < problems->rowCount(); ++row) {
                    const ccm::Diagnostic &diagnostic = problems->diagnostic(row);
                    if (diagnostic.path == "/data/admin" && diagnostic.position.line == 4)
                        return true;
                }
                return false;
            }(),
            kPatienceMs);
    }

    void completionInFormField()
    {
        Session session(kFirstMatch);
        QVERIFY(session.ready());
        session.window.selectEntry({0, 0});
        QLineEdit *owner = lineOf(session.window, QStringLiteral("owner"));
        QVERIFY(owner != nullptr);
        owner->setFocus();
        owner->clear();
        QVERIFY(typeAndOffer(owner, QStringLiteral("{{ Facts.ho")).contains(QStringLiteral("Facts.host")));
        owner->clear();
        QCOMPARE(typeAndOffer(owner, QStringLiteral("{{ Data.p")), QStringList {QStringLiteral("Data.port")});
        ExpressionCompleter::of(owner)->choose(0);
        QCOMPARE(owner->text(), QStringLiteral("{{ Data.port"));
        owner->clear();
        QCOMPARE(typeAndOffer(owner, QStringLiteral("{{ lookup('data.")), QStringList {QStringLiteral("data.port")});
        owner->clear();
        QCOMPARE(typeAndOffer(owner, QStringLiteral("{{ kvG")), QStringList {QStringLiteral("kvGet(")});
        QCOMPARE(ExpressionCompleter::of(owner)->completer()->popup()->model()->index(0, 0).data().toString(),
            QStringLiteral("kvGet(bucket, key)"));

        QLineEdit *condition = lineOf(session.window, QStringLiteral("control/if"));
        QVERIFY(condition != nullptr);
        condition->setFocus();
        condition->clear();
        QVERIFY(typeAndOffer(condition, QStringLiteral("isIPv")).contains(QStringLiteral("isIPv6(")));

        session.window.selectEntry({1, 0});
        auto *require = session.window.propertyEditor()->findChild<FieldEditor *>(QStringLiteral("require"));
        QVERIFY(require != nullptr);
        auto *entry = require->findChild<QLineEdit *>(QStringLiteral("entry"));
        QVERIFY(entry != nullptr && entry->completer() != nullptr);
        const QAbstractItemModel *targets = entry->completer()->model();
        QVERIFY(
            targets->match(targets->index(0, 0), Qt::DisplayRole, QStringLiteral("file#/tmp/ccm-live-values")).size()
            == 1);
    }

    void completionInYaml()
    {
        Session session(kFirstMatch);
        QVERIFY(session.ready());
        YamlEditor *yaml = session.window.yamlEditor();
        yaml->setFocus();
        const auto typeAt = [yaml](const QString &anchor, int offset, const QString &typed) {
            QTextCursor cursor = yaml->textCursor();
            cursor.setPosition(int(yaml->toPlainText().indexOf(anchor)) + offset);
            yaml->setTextCursor(cursor);
            return typeAndOffer(yaml, typed);
        };
        QVERIFY(typeAt(QStringLiteral("content: \"x"), 10, QStringLiteral("{{ Facts.host."))
                    .contains(QStringLiteral("Facts.host.info")));
        QCOMPARE(typeAt(QStringLiteral("content: \"x"), 10, QStringLiteral("{{ Data.po")),
            QStringList {QStringLiteral("Data.port")});
        QCOMPARE(typeAt(QStringLiteral("content: \"x"), 10, QStringLiteral("{{ lookup('facts.host.i")),
            QStringList {QStringLiteral("facts.host.info")});
        QVERIFY(typeAt(QStringLiteral("if: Data.port"), 17, QStringLiteral(" && isH"))
                    .contains(QStringLiteral("isHostname(")));
        QCOMPARE(typeAt(QStringLiteral("- f\n"), 3, QStringLiteral("ile#")),
            QStringList {QStringLiteral("file#/tmp/ccm-live-values")});
        QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
        QApplication::sendEvent(ExpressionCompleter::of(yaml)->completer()->popup(), &enter);
        QVERIFY(yaml->toPlainText().contains(QLatin1String("- file#/tmp/ccm-live-values\n")));
    }

    void hoverValues()
    {
        Session session(kFirstMatch);
        QVERIFY(session.ready());
        session.setWhatIf(QStringLiteral("host.info.platformFamily"), QStringLiteral("plan9"));
        QVERIFY(session.whatIfReady());
        session.window.selectEntry({0, 0});
        QLineEdit *owner = lineOf(session.window, QStringLiteral("owner"));
        QVERIFY(owner != nullptr);
        owner->setText(QStringLiteral("u{{ Data.port }}"));
        QCOMPARE(hoverAt(owner, 5), QStringLiteral("{{ Data.port }}\nThis host: 9090\nWhat If: 7070"));
        owner->setText(QStringLiteral("{{ Data.port + }}"));
        const QString error = hoverAt(owner, 4);
        QVERIFY2(error.contains(QLatin1String("This host: error: ")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("column")), qPrintable(error));

        YamlEditor *yaml = session.window.yamlEditor();
        const int position = int(yaml->toPlainText().indexOf(QStringLiteral("Data.port > 1")));
        QTextCursor cursor = yaml->textCursor();
        cursor.setPosition(position + 2);
        const QPoint point = yaml->cursorRect(cursor).center();
        ExpressionCompleter *completer = ExpressionCompleter::of(yaml);
        QSignalSpy shown(completer, &ExpressionCompleter::hoverShown);
        QHelpEvent help(QEvent::ToolTip, point, yaml->viewport()->mapToGlobal(point));
        QApplication::sendEvent(yaml->viewport(), &help);
        QVERIFY(shown.wait(kPatienceMs));
        QCOMPARE(shown.last().at(0).toString(), QStringLiteral("Data.port > 1\nThis host: true\nWhat If: true"));
    }
};

CCM_TEST_MAIN(TestLiveValues)
#include "tst_live_values.moc"
