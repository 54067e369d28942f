// SPDX-License-Identifier: Apache-2.0
// The designer's window in the states a user meets first: a new, empty manifest; YAML that does
// not read while it is being typed; and the preview's results, selected together with the
// resources. Through a real `ccm-backend serve --user` on a temp socket.
#include "designer/core/backend_client.h"
#include "designer/core/live_data.h"
#include "designer/core/manifest_document.h"
#include "designer/core/problems_model.h"
#include "designer/core/resource_list_model.h"
#include "designer/core/run_results.h"
#include "designer/ui/controllers/live_values_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/results_panel.h"
#include "designer/ui/panels/what_if_panel.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QCoreApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace ccm::designer;
using namespace ccm::test;

namespace {

bool writeText(const QString &path, const QString &text)
{
    QFile file(path);
    const QByteArray bytes = text.toUtf8();
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

/// A window whose backend is a user backend of its own on a socket in `dir`, with no what-if
/// overrides or facts.
void useQuietBackendIn(MainWindow &window, const QTemporaryDir &dir)
{
    useBackendIn(window, dir);
    window.whatIfPanel()->setOverridesEnabled(false);
    window.whatIfPanel()->setFactRows({});
}

/// Three files in `dir`, which a preview would all create.
QString threeFiles(const QTemporaryDir &dir)
{
    QString manifest = QStringLiteral("ccm:\n  resources:\n    - file:\n");
    for (const char *name : {"a", "b", "c"}) {
        manifest += QStringLiteral("        - %1:\n            ensure: present\n            owner: %2\n"
                                   "            group: %3\n            mode: \"0644\"\n            content: \"x\"\n")
                        .arg(dir.filePath(QString::fromLatin1(name)), currentUserName(), currentGroupName());
    }
    return manifest;
}

QString problemMessages(MainWindow &window)
{
    QStringList messages;
    const ProblemsModel *model = window.problemsPanel()->problemsModel();
    for (int row = 0; row < model->rowCount(); ++row)
        messages.append(model->index(row, ProblemsModel::MessageColumn).data().toString());
    return messages.join(QLatin1Char('\n'));
}

QString nameShown(MainWindow &window)
{
    auto *name = window.propertyEditor()->findChild<QLineEdit *>(QStringLiteral("name"));
    return name == nullptr ? QStringLiteral("<no name field>") : name->text();
}

} // namespace

class TestAuthoringStates : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_authoring_states"));
    }

    void init() { QSettings().clear(); }

    void newDocumentIsAFriendlyStart()
    {
        QTemporaryDir dir;
        MainWindow window;
        useQuietBackendIn(window, dir);
        window.show();
        window.connectToBackend();
        window.document()->newDocument();
        // The backend has resolved the (absent) data of the new manifest: still no problem at all.
        LiveData *live = window.liveValues()->liveData();
        QVERIFY(QTest::qWaitFor([&] { return live->hostResolution().has_value(); }, kPatienceMs));
        QCoreApplication::processEvents();
        QVERIFY2(window.problemsPanel()->problemsModel()->rowCount() == 0, qPrintable(problemMessages(window)));
        QCOMPARE(window.problemsPanel()->summaryText(), QStringLiteral("No problems"));
        // The form says what to do first.
        auto *hint = window.propertyEditor()->findChild<QLabel *>(QStringLiteral("hint"));
        QVERIFY(hint);
        QVERIFY2(hint->text().contains(QStringLiteral("no resources yet")), qPrintable(hint->text()));
        QVERIFY2(hint->text().contains(QStringLiteral("Resource Types")), qPrintable(hint->text()));
        QVERIFY2(hint->text().contains(QStringLiteral("example")), qPrintable(hint->text()));
    }

    void yamlErrorKeepsTheLastValidResources()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("site.yaml"));
        const QString valid = threeFiles(dir);
        QVERIFY(writeText(path, valid));
        MainWindow window;
        window.show();
        QVERIFY(window.openFile(path));
        ResourceListPanel *list = window.resourceList();
        list->setCurrentEntry({0, 1});
        QCOMPARE(nameShown(window), dir.filePath(QStringLiteral("b")));

        // Typing in the YAML view leaves an unclosed flow sequence on line 6.
        QString broken = valid;
        broken.replace(
            QStringLiteral("            ensure: present\n"), QStringLiteral("            ensure: [present\n"));
        window.document()->setText(broken);
        QVERIFY(!window.document()->loaded().parsed);

        // The list keeps its rows and the selection, greyed under a banner naming the line.
        ResourceListModel *model = list->model();
        QVERIFY(model->isStale());
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->rowCount(model->index(0, 0)), 3);
        QCOMPARE(model->index(1, 0, model->index(0, 0)).data().toString(),
            QStringLiteral("file#") + dir.filePath(QStringLiteral("b")));
        QVERIFY(list->staleBanner()->isVisible());
        QVERIFY2(list->staleBanner()->text().contains(QStringLiteral("error at line ")),
            qPrintable(list->staleBanner()->text()));
        QVERIFY(list->staleBanner()->text().contains(QStringLiteral("last valid resources")));
        QVERIFY(!list->view()->isEnabled());
        QCOMPARE(list->currentEntry(), (EntryRef {0, 1}));
        auto *emptyState = list->view()->viewport()->findChild<QLabel *>(QStringLiteral("emptyState"));
        QVERIFY(emptyState && !emptyState->isVisible());

        // The form still shows the resource, read-only, and says why.
        PropertyEditor *form = window.propertyEditor();
        QCOMPARE(form->type(), QStringLiteral("file"));
        QCOMPARE(nameShown(window), dir.filePath(QStringLiteral("b")));
        QVERIFY(form->isStale());
        auto *banner = form->findChild<QLabel *>(QStringLiteral("staleBanner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("read-only")), qPrintable(banner->text()));
        auto *mode = form->findChild<FieldEditor *>(QStringLiteral("mode"));
        QVERIFY(mode && !mode->isEnabled());
        QVERIFY(!form->findChild<QLineEdit *>(QStringLiteral("name"))->isEnabled());
        // The error itself is where it is: in Problems, at its line in the file opened.
        const ProblemsModel *problems = window.problemsPanel()->problemsModel();
        QVERIFY(problems->rowCount() > 0);
        const QString location = problems->index(0, ProblemsModel::LocationColumn).data().toString();
        QVERIFY2(location.startsWith(QStringLiteral("site.yaml:6:")), qPrintable(location));

        // Fixed: the list and the form are current and editable again, on the same resource.
        window.document()->setText(valid);
        QVERIFY(!model->isStale());
        QVERIFY(list->staleBanner()->isHidden());
        QVERIFY(list->view()->isEnabled());
        QCOMPARE(list->currentEntry(), (EntryRef {0, 1}));
        QVERIFY(!form->isStale());
        QVERIFY(form->findChild<FieldEditor *>(QStringLiteral("mode"))->isEnabled());
        QCOMPARE(nameShown(window), dir.filePath(QStringLiteral("b")));
    }

    void brokenFileOpenedHasNoStaleRows()
    {
        // A file that does not read when opened has no earlier valid state: nothing is kept from
        // the document shown before.
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("good.yaml"));
        const QString bad = dir.filePath(QStringLiteral("bad.yaml"));
        QVERIFY(writeText(good, threeFiles(dir)));
        QVERIFY(writeText(bad, QStringLiteral("ccm:\n  resources: [\n")));
        MainWindow window;
        QVERIFY(window.openFile(good));
        QCOMPARE(window.resourceList()->model()->rowCount(), 1);
        QVERIFY(window.openFile(bad));
        QCOMPARE(window.resourceList()->model()->rowCount(), 0);
        QVERIFY(!window.resourceList()->model()->isStale());
        QVERIFY(!window.propertyEditor()->isStale());
    }

    void resultRowsAndResourcesSelectEachOther()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("site.yaml"));
        QVERIFY(writeText(path, threeFiles(dir)));
        MainWindow window;
        useQuietBackendIn(window, dir);
        window.show();
        QVERIFY(window.openFile(path));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->previewAction()->trigger();
        QVERIFY(QTest::qWaitFor([&] { return !ended.isEmpty(); }, kPatienceMs));
        const RunResults *results = window.previewController()->results();
        QCOMPARE(results->rowCount(), 3);
        const QString c = QStringLiteral("file#") + dir.filePath(QStringLiteral("c"));
        const int rowOfC = results->rowOf(c);
        QVERIFY(rowOfC >= 0);

        // A result row chosen by the user selects its resource: the list, the form and the YAML.
        ResultsPanel *panel = window.resultsPanel();
        QTreeView *table = panel->view();
        const QModelIndex cell = panel->proxyModel()->mapFromSource(results->index(rowOfC, 0));
        QVERIFY(cell.isValid());
        table->selectionModel()->setCurrentIndex(cell, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY2(window.resourceList()->model()->indexForLabel(c).isValid(), qPrintable(c));
        QCOMPARE(window.resourceList()->currentEntry(), (EntryRef {0, 2}));
        QCOMPARE(nameShown(window), dir.filePath(QStringLiteral("c")));
        const int line = window.document()->lineOf({0, 2});
        QCOMPARE(window.yamlEditor()->currentLine(), line);

        // A resource selected in the list selects its result row.
        window.resourceList()->setCurrentEntry({0, 0});
        const QString a = QStringLiteral("file#") + dir.filePath(QStringLiteral("a"));
        QCOMPARE(panel->proxyModel()->mapToSource(table->currentIndex()).row(), results->rowOf(a));
        QCOMPARE(nameShown(window), dir.filePath(QStringLiteral("a")));
    }
};

CCM_TEST_MAIN(TestAuthoringStates)
#include "tst_authoring_states.moc"
