// SPDX-License-Identifier: Apache-2.0
// The Fleet dock against a scripted backend that answers fleet.status, fleet.preview (with its
// fleet.host and fleet.event notifications), fleet.keygen and fleet.keyinfo as the fleet contract
// has them.
#include "designer/core/backend_client.h"
#include "designer/core/fleet_preview_model.h"
#include "designer/core/fleet_status_model.h"
#include "designer/core/manifest_document.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"
#include "designer/ui/dialogs/publish_dialog.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/fleet_dock.h"
#include "fake_server.h"
#include "gui_test_support.h"
#include "scripted_backend.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>
#include <mutex>

using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

Json fileEvent(const char *outcome)
{
    Json event {{"resource", "file#/etc/motd"}, {"type", "file"}, {"name", "/etc/motd"}, {"changed", false},
        {"failed", false}, {"skipped", false}, {"refreshed", false}, {"noop", true}, {"error", Json::array()},
        {"unmet_requirements", Json::array()}, {"properties", {{"ensure", "present"}}}};
    if (std::string(outcome) != "stable")
        event[outcome] = true;
    if (std::string(outcome) == "changed")
        event["diff"] = "--- /etc/motd\n+++ /etc/motd\n@@ -1 +1 @@\n-old\n+welcome\n";
    return event;
}

Json execEvent(const char *outcome)
{
    Json event {{"resource", "exec#reload"}, {"type", "exec"}, {"name", "reload"}, {"changed", false},
        {"failed", false}, {"skipped", false}, {"refreshed", false}, {"noop", true}, {"error", Json::array()},
        {"unmet_requirements", Json::array()}};
    if (std::string(outcome) != "stable")
        event[outcome] = true;
    return event;
}

/// A recorded preview: web1 would change the motd, web2 runs `web2Exec` on the exec, db1 stays silent.
/// In answer `format` 2 the stable resources come as the done's "stable" list instead of events.
Responder recordedPreview(const char *web2Exec, int format = 1)
{
    return [web2Exec, format](const Json &request) {
        const auto host = [](const char *identity, Json fields) {
            Json params {{"request", "r-0123456789abcdef"}, {"identity", identity}};
            params.update(fields);
            return notification("fleet.host", params);
        };
        const auto event = [](const char *identity, Json value) {
            return notification("fleet.event",
                {{"request", "r-0123456789abcdef"}, {"identity", identity}, {"event", std::move(value)}});
        };
        const Json summary {{"total", 2}, {"changed", 1}, {"failed", 0}};
        // A notification of another request on the same connection belongs to someone else.
        const Json foreign = notification("fleet.event",
            {{"request", "r-another-request-0001"}, {"identity", "ghost"}, {"event", fileEvent("failed")}});
        std::vector<Json> messages {host("web1", {{"state", "accepted"}}), foreign,
            host("web2", {{"state", "accepted"}}),
            host("web1", {{"state", "running"}, {"done", 0}, {"total", 2}, {"current", "file#/etc/motd"}}),
            event("web1", fileEvent("changed"))};
        Json web2Stable = Json::array({"file#/etc/motd"});
        if (format == 1)
            messages.insert(messages.end(), {event("web2", fileEvent("stable")), event("web1", execEvent("stable"))});
        if (format == 1 || std::string(web2Exec) != "stable")
            messages.push_back(event("web2", execEvent(web2Exec)));
        else
            web2Stable.push_back("exec#reload");
        if (format == 1)
            messages.insert(messages.end(), {host("web1", {{"state", "done"}}), host("web2", {{"state", "done"}})});
        else
            messages.insert(messages.end(),
                {host("web1", {{"state", "done"}, {"stable", {"exec#reload"}}}),
                    host("web2", {{"state", "done"}, {"stable", web2Stable}})});
        messages.push_back(answer(request,
            {{"request", "r-0123456789abcdef"},
                {"hosts",
                    {{{"identity", "web1"}, {"state", "done"}, {"summary", summary}},
                        {{"identity", "web2"}, {"state", "done"}, {"summary", summary}},
                        {{"identity", "db1"}, {"state", "silent"}}}},
                {"totals",
                    {{"hosts", 3}, {"answered", 2}, {"silent", 1}, {"declined", 0}, {"failed", 0}, {"changed", 1},
                        {"resources_failed", 0}}}}));
        return messages;
    };
}

/// web1 compared: its motd change is drift; web2 has no current bundle.
Responder driftPreview()
{
    return [](const Json &request) {
        const auto host = [](const char *identity, Json fields) {
            Json params {{"request", "r-0123456789abcdef"}, {"identity", identity}};
            params.update(fields);
            return notification("fleet.host", params);
        };
        const auto event = [](const char *identity, Json value) {
            return notification("fleet.event",
                {{"request", "r-0123456789abcdef"}, {"identity", identity}, {"event", std::move(value)}});
        };
        const Json summary {{"total", 2}, {"changed", 1}, {"failed", 0}};
        const Json compared {{"state", "compared"}, {"source", "obj://SITE/site"}, {"digest", "SHA-256=x"},
            {"intended", 0}, {"drift", 1}, {"added", 0}, {"failed", 0}, {"uncompared", 0}};
        const Json none {{"state", "none"}, {"reason", "no current bundle: this agent follows no remote source"}};
        return std::vector<Json> {host("web1", {{"state", "accepted"}}), host("web2", {{"state", "accepted"}}),
            event("web1", fileEvent("changed")), event("web2", fileEvent("changed")),
            event("web1", execEvent("stable")), event("web2", execEvent("stable")),
            host("web1", {{"state", "done"}, {"compare", compared}, {"classes", {{"file#/etc/motd", "drift"}}}}),
            host("web2", {{"state", "done"}, {"compare", none}}),
            answer(request,
                {{"request", "r-0123456789abcdef"},
                    {"hosts",
                        {{{"identity", "web1"}, {"state", "done"}, {"summary", summary}, {"compare", compared}},
                            {{"identity", "web2"}, {"state", "done"}, {"summary", summary}, {"compare", none}}}},
                    {"totals",
                        {{"hosts", 2}, {"answered", 2}, {"silent", 0}, {"declined", 0}, {"failed", 0}, {"changed", 2},
                            {"resources_failed", 0}, {"intended", 0}, {"drift", 1}, {"uncompared_hosts", 1}}}})};
    };
}

Responder errorReply(int code, const char *message)
{
    return [code, message](const Json &request) {
        return std::vector<Json> {Json {{"jsonrpc", "2.0"}, {"id", request.value("id", Json())},
            {"error", {{"code", code}, {"message", message}}}}};
    };
}

} // namespace

class TestFleetDock : public QObject {
    Q_OBJECT

    QTemporaryDir m_keys;

    void useKey(bool present)
    {
        const QString path = m_keys.filePath(s("preview.pem"));
        if (present)
            QVERIFY(writeFile(path, "-----BEGIN PRIVATE KEY-----\nscripted\n-----END PRIVATE KEY-----\n"));
        else
            QFile::remove(path);
        FleetKeyDialog::setKeyPath(path);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(s("CCM Designer"));
        QCoreApplication::setApplicationName(s("tst_fleet_dock"));
        QSettings().clear();
        QVERIFY(m_keys.isValid());
    }

    void dockStartsHiddenWithEmptyStates();
    void statusRefreshFillsTheTable();
    void previewSendsTheDocumentAndFillsTheMatrix();
    void selectingACellShowsItsDiff();
    void filtersNarrowTheMatrix();
    void stableListsShowAsStableEvents_data();
    void stableListsShowAsStableEvents();
    void driftShowsApartWithALegendAndAFilter();
    void publishOnlyAfterACleanPreview_data();
    void publishOnlyAfterACleanPreview();
    void errorRepliesAreShown_data();
    void errorRepliesAreShown();
    void missingKeySaysWhatToDo();
    void aPreviewNoHostAnsweredShowsItsNotice();
    void keyDialogGeneratesAKeyAndShowsIt();
    void keyDialogShowsTheKeyInUse();
    void keyDialogSaysWhyNoKeyWasMade();
};

void TestFleetDock::dockStartsHiddenWithEmptyStates()
{
    const MainWindow window;
    FleetDock *dock = window.fleetDock();
    QVERIFY(dock);
    QVERIFY(dock->isHidden());
    QCOMPARE(window.findChild<QDockWidget *>(s("fleetDock")), dock);
    QCOMPARE(dock->statusModel()->rowCount(), 0);
    QVERIFY(dock->publishButton()->isHidden());
    const QList<QLabel *> labels = dock->findChildren<QLabel *>();
    const auto says = [&labels](const char *part) {
        return std::any_of(labels.begin(), labels.end(),
            [part](const QLabel *label) { return label->text().contains(QString::fromUtf8(part)); });
    };
    QVERIFY(says("Press Refresh"));
    QVERIFY(says("Fleet Key"));
}

void TestFleetDock::statusRefreshFillsTheTable()
{
    ScriptedWindow harness(
        {{"fleet.status", [](const Json &request) {
              const auto host = [](const char *identity, bool stale) {
                  return Json {{"identity", identity}, {"time", "2026-11-24T10:00:00Z"},
                      {"age_seconds", stale ? 90000 : 120}, {"stale", stale},
                      {"summary", {{"total", 12}, {"changed", 2}, {"failed", 0}}}, {"failed_resources", Json::array()},
                      {"runs", Json::array()}};
              };
              return std::vector<Json> {answer(request, {{"hosts", {host("db1", true), host("web1", false)}}})};
          }}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->contextBox()->setCurrentText(s("production"));
    dock->refreshButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(dock->statusModel()->rowCount(), 2, kPatienceMs);
    QVERIFY(dock->statusView()->isVisibleTo(dock));
    QCOMPARE(dock->statusModel()->index(1, FleetStatusModel::HostColumn).data().toString(), s("web1"));
    QCOMPARE(dock->statusModel()->index(1, FleetStatusModel::ChangedColumn).data().toInt(), 2);
    QCOMPARE(dock->statusMessage()->text(), s("Hosts: 2, stale: 1"));
    const auto request = harness.recorder->find("fleet.status");
    QVERIFY(request);
    QCOMPARE((*request)["params"].value("context", ""), "production");
}

void TestFleetDock::previewSendsTheDocumentAndFillsTheMatrix()
{
    useKey(true);
    ScriptedWindow harness({{"fleet.preview", recordedPreview("stable")}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->selectorEdit()->setText(s("host.info.os == \"linux\""));
    dock->timeoutBox()->setValue(12);
    dock->previewAction()->trigger();
    QVERIFY(!dock->isHidden());
    QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
    QTRY_COMPARE(dock->progressLabel()->text(), s("2 of 3 hosts answered, 1 silent"));

    const auto request = harness.recorder->find("fleet.preview");
    QVERIFY(request);
    const Json &params = (*request)["params"];
    QCOMPARE(QString::fromStdString(params.value("manifest", "")), harness.window.document()->text());
    QCOMPARE(params.value("select", ""), "host.info.os == \"linux\"");
    QCOMPARE(params.value("timeout_ms", 0), 12000);
    QCOMPARE(QString::fromStdString(params.value("key", "")), FleetKeyDialog::keyPath());
    QVERIFY(params.contains("base_dir"));

    FleetPreviewModel *model = dock->previewModel();
    QCOMPARE(model->hostCount(), 3);
    QCOMPARE(model->identityAt(3), s("db1"));
    QCOMPARE(model->stateAt(3), FleetHostState::Silent);
    QCOMPARE(model->resourceAt(FleetPreviewModel::FirstResourceColumn), s("file#/etc/motd"));
    QCOMPARE(model->resourceAt(FleetPreviewModel::FirstResourceColumn + 1), s("exec#reload"));
    QCOMPARE(model->index(FleetPreviewModel::kTotalsRow, FleetPreviewModel::ChangedColumn).data().toInt(), 1);
    QCOMPARE(dock->matrixView()->model()->rowCount(), 4);
}

void TestFleetDock::selectingACellShowsItsDiff()
{
    useKey(true);
    ScriptedWindow harness({{"fleet.preview", recordedPreview("stable")}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->startPreview();
    QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
    QTableView *view = dock->matrixView();
    const QModelIndex cell = view->model()->index(1, FleetPreviewModel::FirstResourceColumn);
    QCOMPARE(cell.data().toString(), s("●"));
    view->setCurrentIndex(cell);
    QCOMPARE(dock->diffView()->titleLabel()->text(), s("file#/etc/motd on web1"));
    QVERIFY(dock->diffView()->unifiedView()->toPlainText().contains(s("welcome")));
    view->setCurrentIndex(view->model()->index(2, FleetPreviewModel::FirstResourceColumn));
    QVERIFY(!dock->diffView()->unifiedView()->toPlainText().contains(s("welcome")));
}

void TestFleetDock::filtersNarrowTheMatrix()
{
    useKey(true);
    ScriptedWindow harness({{"fleet.preview", recordedPreview("failed")}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->startPreview();
    QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
    QAbstractItemModel *shown = dock->matrixView()->model();
    QCOMPARE(shown->rowCount(), 4);
    dock->filterBox()->setCurrentIndex(int(FleetPreviewFilter::Mode::ChangesOnly));
    QCOMPARE(shown->rowCount(), 3);
    QCOMPARE(shown->columnCount(), FleetPreviewModel::FirstResourceColumn + 2);
    dock->filterBox()->setCurrentIndex(int(FleetPreviewFilter::Mode::FailuresOnly));
    QCOMPARE(shown->rowCount(), 2);
    QCOMPARE(shown->index(1, FleetPreviewModel::HostColumn).data().toString(), s("web2"));
    QCOMPARE(shown->columnCount(), FleetPreviewModel::FirstResourceColumn + 1);
    dock->filterBox()->setCurrentIndex(int(FleetPreviewFilter::Mode::All));
    dock->hostFilterEdit()->setText(s("web1"));
    QCOMPARE(shown->rowCount(), 2);
    QCOMPARE(shown->index(1, FleetPreviewModel::HostColumn).data().toString(), s("web1"));
    dock->hostFilterEdit()->setText(s("web"));
    QCOMPARE(shown->rowCount(), 3);
}

void TestFleetDock::stableListsShowAsStableEvents_data()
{
    QTest::addColumn<QString>("web2Exec");
    QTest::newRow("clean") << s("stable");
    QTest::newRow("a failure") << s("failed");
}

/// The same preview in answer format 1 (an event per resource) and 2 (stable resources named in the
/// done): the same matrix, summary line, filters and Publish button, and a stable cell selected
/// shows what it shows for a stable event.
void TestFleetDock::stableListsShowAsStableEvents()
{
    QFETCH(QString, web2Exec);
    useKey(true);
    const auto seen = [](FleetDock *dock) {
        QStringList lines {dock->progressLabel()->text(), QString::number(dock->publishButton()->isHidden())};
        for (const auto mode : {FleetPreviewFilter::Mode::All, FleetPreviewFilter::Mode::ChangesOnly,
                 FleetPreviewFilter::Mode::FailuresOnly}) {
            dock->filterBox()->setCurrentIndex(int(mode));
            const QAbstractItemModel *shown = dock->matrixView()->model();
            for (int row = 0; row < shown->rowCount(); ++row)
                for (int column = 0; column < shown->columnCount(); ++column)
                    lines << shown->index(row, column).data().toString() + QLatin1Char('|')
                            + shown->index(row, column).data(Qt::ToolTipRole).toString();
        }
        dock->filterBox()->setCurrentIndex(int(FleetPreviewFilter::Mode::All));
        return lines;
    };
    QStringList views[2];
    const std::string web2Outcome = web2Exec.toStdString();
    for (const int format : {1, 2}) {
        ScriptedWindow harness({{"fleet.preview", recordedPreview(web2Outcome.c_str(), format)}});
        QVERIFY(harness.connected());
        FleetDock *dock = harness.dock();
        dock->startPreview();
        QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
        QTRY_VERIFY(dock->progressLabel()->text().startsWith(s("2 of 3 hosts answered")));
        views[format - 1] = seen(dock);

        // web1's exec: a stable cell, whichever way it came.
        QTableView *view = dock->matrixView();
        const QModelIndex exec = view->model()->index(1, dock->previewModel()->columnOf(s("exec#reload")));
        QCOMPARE(exec.data().toString(), s("✓"));
        view->setCurrentIndex(view->model()->index(1, dock->previewModel()->columnOf(s("file#/etc/motd"))));
        QVERIFY(dock->diffView()->unifiedView()->toPlainText().contains(s("welcome")));
        view->setCurrentIndex(exec);
        QCOMPARE(dock->diffView()->titleLabel()->text(), s("exec#reload on web1"));
        QVERIFY(!dock->diffView()->unifiedView()->toPlainText().contains(s("welcome")));
    }
    QVERIFY(views[0].size() > 10);
    QCOMPARE(views[1], views[0]);
}

void TestFleetDock::driftShowsApartWithALegendAndAFilter()
{
    useKey(true);
    ScriptedWindow harness({{"fleet.preview", driftPreview()}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->startPreview();
    QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
    const QString legend = dock->legendLabel()->text();
    for (const char *name : {"intended", "drift", "added", "uncompared", "failed", "unchanged"})
        QVERIFY2(legend.contains(QLatin1String(name)), qPrintable(legend));
    QCOMPARE(dock->filterBox()->count(), 5);

    QAbstractItemModel *shown = dock->matrixView()->model();
    const int motd = dock->previewModel()->columnOf(s("file#/etc/motd"));
    const QModelIndex web1 = shown->index(1, motd);
    const QModelIndex web2 = shown->index(2, motd);
    QCOMPARE(shown->index(1, FleetPreviewModel::HostColumn).data().toString(), s("web1"));
    QVERIFY(web1.data(FleetPreviewModel::TileColourRole).value<QColor>()
        != web2.data(FleetPreviewModel::TileColourRole).value<QColor>());
    QCOMPARE(shown->index(2, FleetPreviewModel::StateColumn).data().toString(), s("done · no current bundle"));

    dock->filterBox()->setCurrentIndex(int(FleetPreviewFilter::Mode::DriftOnly));
    QCOMPARE(shown->rowCount(), 2);
    QCOMPARE(shown->index(1, FleetPreviewModel::HostColumn).data().toString(), s("web1"));
    QCOMPARE(shown->columnCount(), FleetPreviewModel::FirstResourceColumn + 1);
    dock->filterBox()->setCurrentIndex(int(FleetPreviewFilter::Mode::IntendedOnly));
    QCOMPARE(shown->rowCount(), 1);
    dock->filterBox()->setCurrentIndex(int(FleetPreviewFilter::Mode::All));
    QCOMPARE(shown->rowCount(), 3);
}

void TestFleetDock::publishOnlyAfterACleanPreview_data()
{
    QTest::addColumn<QString>("web2Exec");
    QTest::addColumn<bool>("offered");
    QTest::newRow("clean") << s("stable") << true;
    QTest::newRow("a failure") << s("failed") << false;
}

void TestFleetDock::publishOnlyAfterACleanPreview()
{
    QFETCH(QString, web2Exec);
    QFETCH(bool, offered);
    useKey(true);
    const std::string outcome = web2Exec.toStdString();
    ScriptedWindow harness(
        {{"fleet.preview", [outcome](const Json &request) { return recordedPreview(outcome.c_str())(request); }}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->show();
    QVERIFY(dock->publishButton()->isHidden());
    dock->startPreview();
    QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
    QCOMPARE(!dock->publishButton()->isHidden(), offered);
    if (!offered) {
        QVERIFY(dock->progressLabel()->text().contains(s("fix them before publishing")));
        return;
    }
    dock->publishButton()->click();
    PublishDialog *publish = harness.window.findChild<PublishDialog *>();
    QVERIFY(publish);
    QVERIFY(publish->isVisible());
    publish->close();
}

void TestFleetDock::errorRepliesAreShown_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("shown");
    QTest::newRow("preview") << s("fleet.preview") << s("The fleet preview did not run: cannot read the key");
    QTest::newRow("status") << s("fleet.status") << s("The status could not be read: cannot read the key");
}

void TestFleetDock::errorRepliesAreShown()
{
    QFETCH(QString, method);
    QFETCH(QString, shown);
    useKey(true);
    ScriptedWindow harness({{method.toStdString(),
        errorReply(-32602, "cannot read the key: create one with Fleet > Fleet Key or name another")}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    QLabel *label = method == s("fleet.preview") ? dock->progressLabel() : dock->statusMessage();
    if (method == s("fleet.preview"))
        dock->startPreview();
    else
        dock->refreshStatus();
    QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith(shown), kPatienceMs);
    QVERIFY(label->property("error").toBool());
    QVERIFY(dock->previewButton()->isEnabled());
    QVERIFY(dock->refreshButton()->isEnabled());
}

void TestFleetDock::missingKeySaysWhatToDo()
{
    useKey(false);
    ScriptedWindow harness({});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->startPreview();
    QVERIFY(dock->progressLabel()->text().contains(s("Fleet Key")));
    QVERIFY(dock->progressLabel()->property("error").toBool());
    QVERIFY(!harness.recorder->find("fleet.preview"));
}

void TestFleetDock::aPreviewNoHostAnsweredShowsItsNotice()
{
    useKey(true);
    const std::string notice = "No host answered. No agent may trust this key (SHA256:q2Fn): add preview.pub.pem to "
                               "preview.trusted_keys in each agent's agent.yaml.";
    ScriptedWindow harness(
        {{"fleet.preview", [notice](const Json &request) {
              return std::vector<Json> {answer(request,
                  {{"request", "r-0123456789abcdef"}, {"hosts", {{{"identity", "web1"}, {"state", "silent"}}}},
                      {"totals",
                          {{"hosts", 1}, {"answered", 0}, {"silent", 1}, {"declined", 0}, {"failed", 0}, {"changed", 0},
                              {"resources_failed", 0}}},
                      {"notice", notice}})};
          }}});
    QVERIFY(harness.connected());
    FleetDock *dock = harness.dock();
    dock->previewAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
    QTRY_COMPARE(dock->progressLabel()->text(), QString::fromStdString(notice));
    QVERIFY(dock->progressLabel()->property("error").toBool());
}

void TestFleetDock::keyDialogGeneratesAKeyAndShowsIt()
{
    useKey(false);
    const std::string pem = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAscripted\n-----END PUBLIC KEY-----\n";
    ScriptedWindow harness({{"fleet.keygen", [pem](const Json &request) {
                                 const std::string priv = request["params"].value("private", "");
                                 return std::vector<Json> {answer(request,
                                     {{"private", priv}, {"public", priv.substr(0, priv.size() - 4) + ".pub.pem"},
                                         {"public_pem", pem}, {"fingerprint", "0123456789abcdef"}})};
                             }}});
    QVERIFY(harness.connected());
    FleetKeyDialog *dialog = harness.dock()->showKeyDialog();
    QCOMPARE(dialog->pathEdit()->text(), FleetKeyDialog::keyPath());
    QVERIFY(dialog->snippetView()->toPlainText().contains(
        s("preview: {enabled: true, trusted_keys: [/etc/choria/ccm/preview.pub.pem], user: nobody}")));
    QVERIFY(!dialog->copyKeyButton()->isEnabled());
    dialog->generateButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(dialog->publicKeyView()->toPlainText(), QString::fromStdString(pem), kPatienceMs);
    QCOMPARE(dialog->fingerprintLabel()->text(), s("Fingerprint: 0123456789abcdef"));
    QVERIFY(dialog->messageLabel()->text().contains(s("preview.pub.pem")));
    QVERIFY(dialog->copyKeyButton()->isEnabled());
    dialog->copyKeyButton()->click();
    const auto request = harness.recorder->find("fleet.keygen");
    QVERIFY(request);
    QCOMPARE(QString::fromStdString((*request)["params"].value("private", "")), FleetKeyDialog::keyPath());
    QCOMPARE((*request)["params"].value("overwrite", true), false);
    dialog->close();
}

void TestFleetDock::keyDialogShowsTheKeyInUse()
{
    useKey(true);
    ScriptedWindow harness({{"fleet.keyinfo", [](const Json &request) {
                                 return std::vector<Json> {answer(request,
                                     {{"public_pem", "-----BEGIN PUBLIC KEY-----\nin use\n-----END PUBLIC KEY-----\n"},
                                         {"fingerprint", "fedcba9876543210"}})};
                             }}});
    QVERIFY(harness.connected());
    FleetKeyDialog *dialog = harness.dock()->showKeyDialog();
    QTRY_COMPARE_WITH_TIMEOUT(dialog->fingerprintLabel()->text(), s("Fingerprint: fedcba9876543210"), kPatienceMs);
    QVERIFY(dialog->publicKeyView()->toPlainText().contains(s("in use")));
    const auto request = harness.recorder->find("fleet.keyinfo");
    QVERIFY(request);
    QCOMPARE(QString::fromStdString((*request)["params"].value("private", "")), FleetKeyDialog::keyPath());
    dialog->close();
}

void TestFleetDock::keyDialogSaysWhyNoKeyWasMade()
{
    useKey(false);
    ScriptedWindow harness(
        {{"fleet.keygen", errorReply(-32602, "cannot write /nonexistent/preview.pem: no such directory")}});
    QVERIFY(harness.connected());
    FleetKeyDialog *dialog = harness.dock()->showKeyDialog();
    dialog->generateButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(dialog->messageLabel()->property("error").toBool(), kPatienceMs);
    QCOMPARE(dialog->messageLabel()->text(),
        s("The key was not created: cannot write /nonexistent/preview.pem: no such directory"));
    QVERIFY(dialog->generateButton()->isEnabled());
    QVERIFY(dialog->publicKeyView()->toPlainText().isEmpty());
    dialog->close();
}

CCM_TEST_MAIN(TestFleetDock)
#include "tst_fleet_dock.moc"
