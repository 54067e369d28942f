// SPDX-License-Identifier: Apache-2.0
// What this host has of the selected resource: resource.status answers turned into the form's
// summary line and field markers, markers following edits, refreshes after a run and on request,
// and answers about a resource or properties no longer shown dropped; against a scripted backend.
#include "designer/core/backend_client.h"
#include "designer/core/host_state.h"
#include "designer/core/resource_status.h"
#include "designer/ui/controllers/host_state_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/main_window.h"
#include "fake_server.h"
#include "gui_test_support.h"
#include "json_test_support.h"
#include "scripted_backend.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

using HostMarkers = std::map<QString, QString>;

/// How many requests of `method` the scripted backend has read.
int statusRequestCount(Recorder &recorder, const std::string &method)
{
    std::lock_guard lock(recorder.mutex);
    return int(std::count_if(recorder.requests.begin(), recorder.requests.end(),
        [&](const Json &request) { return request.value("method", "") == method; }));
}

/// The params of the last request of `method`.
Json lastStatusParams(Recorder &recorder, const std::string &method)
{
    std::lock_guard lock(recorder.mutex);
    for (auto it = recorder.requests.rbegin(); it != recorder.requests.rend(); ++it) {
        if (it->value("method", "") == method)
            return it->value("params", Json());
    }
    return Json();
}

/// A file's status as a backend reports it: present with mode `mode`, and a difference when the
/// request asks for another mode.
Json scriptedFileStatus(const Json &request, const std::string &mode)
{
    const Json properties = request["params"].value("properties", Json::object());
    Json result = {{"supported", true}, {"summary", "present, " + mode + " root:root, sha256 5891b5b5"},
        {"state", {{"ensure", "present"}, {"mode", mode}, {"owner", "root"}, {"group", "root"}}},
        {"differences", Json::array()}};
    const std::string wanted = properties.value("mode", std::string());
    if (wanted != mode)
        result["differences"].push_back({{"property", "mode"}, {"current", mode}, {"wanted", wanted}});
    return result;
}

/// A backend whose resource.status answers as scriptedFileStatus() with mode 0600.
std::map<std::string, Responder> scriptedFileBackend()
{
    return {{"resource.status",
        [](const Json &request) { return std::vector<Json> {answer(request, scriptedFileStatus(request, "0600"))}; }}};
}

QLabel *hostMarkerOf(const PropertyEditor &editor, const QString &property)
{
    return editor.findChild<QLabel *>(property + QStringLiteral("-host"));
}

QString hostLineOf(const PropertyEditor &editor)
{
    const auto *label = editor.findChild<QLabel *>(QStringLiteral("hostStateText"));
    return label != nullptr && label->isVisibleTo(&editor) ? label->accessibleName() : QString();
}

} // namespace

class TestHostState : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_host_state"));
        QSettings().clear();
    }

    void describe_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QByteArray>("properties");
        QTest::addColumn<QByteArray>("result");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("text");
        QTest::addColumn<HostMarkers>("markers");
        QTest::addColumn<QString>("detail");

        const int known = int(HostStateView::Kind::Known);
        const int unknown = int(HostStateView::Kind::Unknown);
        QTest::newRow("file differs in mode")
            << s("file") << QByteArray(R"({"ensure":"present","mode":"0644"})")
            << QByteArray(R"({"supported":true,"summary":"present, 0600 root:root, sha256 5891b5b5",
                 "state":{"mode":"0600"},"differences":[{"property":"mode","current":"0600","wanted":"0644"}]})")
            << known << s("On this host: present, 0600 root:root, sha256 5891b5b5")
            << HostMarkers {{s("mode"), s("On this host: 0600")}} << QString();
        QTest::newRow("edited to the host's mode, written differently")
            << s("file") << QByteArray(R"({"mode":"600"})") << QByteArray(R"({"supported":true,"summary":"present",
                 "differences":[{"property":"mode","current":"0600","wanted":"0644"}]})")
            << known << s("On this host: present") << HostMarkers {} << QString();
        QTest::newRow("edited to another mode still differs")
            << s("file") << QByteArray(R"({"mode":"0640"})") << QByteArray(R"({"supported":true,"summary":"present",
                 "differences":[{"property":"mode","current":"0600","wanted":"0644"}]})")
            << known << s("On this host: present") << HostMarkers {{s("mode"), s("On this host: 0600")}} << QString();
        QTest::newRow("package installed at another version")
            << s("package") << QByteArray(R"({"ensure":"1.26.0-1"})")
            << QByteArray(R"({"supported":true,"summary":"installed 1.24.0-1",
                 "differences":[{"property":"ensure","current":"1.24.0-1","wanted":"1.26.0-1"}]})")
            << known << s("On this host: installed 1.24.0-1")
            << HostMarkers {{s("ensure"), s("On this host: 1.24.0-1")}} << QString();
        QTest::newRow("absent file: nothing on the host")
            << s("file") << QByteArray(R"({"ensure":"present","owner":"root"})")
            << QByteArray(R"({"supported":true,"summary":"absent",
                 "differences":[{"property":"ensure","current":"absent","wanted":"present"},
                                {"property":"owner","current":null,"wanted":"root"}]})")
            << known << s("On this host: absent")
            << HostMarkers {{s("ensure"), s("On this host: absent")}, {s("owner"), s("On this host: nothing")}}
            << QString();
        QTest::newRow("a difference without a field goes to the detail")
            << s("file") << QByteArray(R"({})") << QByteArray(R"({"supported":true,"summary":"present",
                 "differences":[{"property":"checksum","current":"abc","wanted":"def"}]})")
            << known << s("On this host: present") << HostMarkers {} << s("checksum on this host: abc");
        QTest::newRow("partly unknown says which part")
            << s("service") << QByteArray(R"({"ensure":"running"})")
            << QByteArray(R"({"supported":true,"summary":"running","reason":"whether it is enabled is unknown"})")
            << known << s("On this host: running") << HostMarkers {} << s("whether it is enabled is unknown");
        QTest::newRow("notes, and properties holding templates")
            << s("file") << QByteArray(R"({"mode":"0644","owner":"{{ lookup('data.user') }}"})")
            << QByteArray(R"({"supported":true,"summary":"present","differences":[],
                 "notes":["the content was not read: permission denied"]})")
            << known << s("On this host: present") << HostMarkers {}
            << s("the content was not read: permission denied\nNot compared, as they hold templates: owner");
        QTest::newRow("cannot tell, with the backend's reason")
            << s("exec") << QByteArray(R"({"command":"/bin/true"})")
            << QByteArray(R"({"supported":false,"reason":"an exec without creates leaves no state to read"})")
            << unknown << s("On this host: the state cannot be told.") << HostMarkers {}
            << s("an exec without creates leaves no state to read");
        QTest::newRow("cannot tell, no reason")
            << s("exec") << QByteArray(R"({})") << QByteArray(R"({"supported":false})") << unknown
            << s("On this host: the state cannot be told.") << HostMarkers {} << s("The backend gave no reason.");
        QTest::newRow("not an object") << s("file") << QByteArray(R"({})") << QByteArray(R"([1,2])") << unknown
                                       << s("On this host: the state cannot be told.") << HostMarkers {}
                                       << s("The backend's answer is not an object.");
        QTest::newRow("differences not a list")
            << s("file") << QByteArray(R"({})")
            << QByteArray(R"({"supported":true,"summary":"present","differences":{"mode":"0600"}})") << unknown
            << s("On this host: the state cannot be told.") << HostMarkers {}
            << s("The backend's answer cannot be read: its differences are not a list.");
        QTest::newRow("summary not a string")
            << s("file") << QByteArray(R"({})") << QByteArray(R"({"supported":true,"summary":7})") << unknown
            << s("On this host: the state cannot be told.") << HostMarkers {}
            << s("The backend's answer cannot be read: its summary is not a string.");
        QTest::newRow("notes not a list")
            << s("file") << QByteArray(R"({})") << QByteArray(R"({"supported":true,"summary":"x","notes":"n"})")
            << unknown << s("On this host: the state cannot be told.") << HostMarkers {}
            << s("The backend's answer cannot be read: its notes are not a list.");
        QTest::newRow("supported missing") << s("file") << QByteArray(R"({})") << QByteArray(R"({"summary":"x"})")
                                           << unknown << s("On this host: the state cannot be told.") << HostMarkers {}
                                           << s("The backend's answer cannot be read: it does not say whether "
                                                "the state can be told.");
    }

    void describe()
    {
        QFETCH(QString, type);
        QFETCH(QByteArray, properties);
        QFETCH(QByteArray, result);
        QFETCH(int, kind);
        QFETCH(QString, text);
        QFETCH(HostMarkers, markers);
        QFETCH(QString, detail);
        const ResourceStatus status = ResourceStatus::fromJson(Json::parse(result.toStdString()));
        const HostStateView view = HostState::describe(type, Json::parse(properties.toStdString()), status);
        QCOMPARE(int(view.kind), kind);
        QCOMPARE(view.text, text);
        QCOMPARE(view.markers, markers);
        QCOMPARE(view.detail, detail);
    }

    void sameValue_data()
    {
        QTest::addColumn<QString>("property");
        QTest::addColumn<QByteArray>("form");
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<bool>("same");
        QTest::newRow("equal strings") << s("owner") << QByteArray(R"("root")") << QByteArray(R"("root")") << true;
        QTest::newRow("other strings") << s("owner") << QByteArray(R"("root")") << QByteArray(R"("bin")") << false;
        QTest::newRow("number and text") << s("port") << QByteArray("3") << QByteArray(R"("3")") << true;
        QTest::newRow("mode without its 0") << s("mode") << QByteArray(R"("644")") << QByteArray(R"("0644")") << true;
        QTest::newRow("mode as a YAML number") << s("mode") << QByteArray("644") << QByteArray(R"("0644")") << true;
        QTest::newRow("other mode") << s("mode") << QByteArray(R"("0640")") << QByteArray(R"("0644")") << false;
        QTest::newRow("not octal") << s("mode") << QByteArray(R"("0698")") << QByteArray(R"("0698")") << true;
        QTest::newRow("digits elsewhere are text")
            << s("owner") << QByteArray(R"("0644")") << QByteArray(R"("644")") << false;
        QTest::newRow("a template is not the value")
            << s("owner") << QByteArray(R"("{{ lookup('u') }}")") << QByteArray(R"("root")") << false;
        QTest::newRow("null host") << s("owner") << QByteArray(R"("root")") << QByteArray("null") << false;
        QTest::newRow("content by its checksum")
            << s("content") << QByteArray(R"("Welcome\n")")
            << QByteArray(R"("sha256:e2f7ff9df9a7dfe0fbe0e3a2ba6a8e5a4abd3bd2fb2d5b6e9f4c8d0fdc1c1a0c")") << false;
        QTest::newRow("content of that checksum")
            << s("content") << QByteArray(R"("abc")")
            << QByteArray(R"("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")") << true;
        QTest::newRow("lists") << s("require") << QByteArray(R"(["a"])") << QByteArray(R"(["a"])") << true;
    }

    void sameValue()
    {
        QFETCH(QString, property);
        QFETCH(QByteArray, form);
        QFETCH(QByteArray, host);
        QFETCH(bool, same);
        QCOMPARE(sameHostValue(property, Json::parse(form.toStdString()), Json::parse(host.toStdString())), same);
    }

    void longValuesAreCut()
    {
        const QString shown = hostValueText(Json(std::string(200, 'x')));
        QCOMPARE(shown.size(), 80);
        QVERIFY(shown.endsWith(QChar(0x2026)));
        QCOMPARE(hostValueText(Json("two\nlines")), s("two lines"));
    }

    void formShowsSummaryAndMarkers()
    {
        PropertyEditor editor;
        editor.show();
        editor.setResource(s("file"), s("/etc/motd"), Json {{"mode", "0644"}}, Json(), false);
        QVERIFY(!editor.findChild<QWidget *>(s("hostState"))->isVisibleTo(&editor));
        QVERIFY(!hostMarkerOf(editor, s("mode"))->isVisibleTo(&editor));

        HostStateView view;
        view.kind = HostStateView::Kind::Known;
        view.text = s("On this host: present, 0600 root:root");
        view.detail = s("checksum on this host: abc");
        view.markers = {{s("mode"), s("On this host: 0600")}};
        editor.setHostState(view);
        QCOMPARE(hostLineOf(editor), view.text);
        QVERIFY(hostMarkerOf(editor, s("mode"))->isVisibleTo(&editor));
        QCOMPARE(hostMarkerOf(editor, s("mode"))->toolTip(), s("On this host: 0600"));
        QVERIFY(!hostMarkerOf(editor, s("owner"))->isVisibleTo(&editor));
        const auto *detail = editor.findChild<QLabel *>(s("hostStateDetail"));
        QVERIFY(detail->isVisibleTo(&editor));
        QCOMPARE(detail->text(), view.detail);

        // Another type builds another form: the state stays until the owner says otherwise.
        editor.setResource(s("package"), s("nginx"), Json::object(), Json(), false);
        QCOMPARE(hostLineOf(editor), view.text);
        QVERIFY(hostMarkerOf(editor, s("ensure")) != nullptr);
        QVERIFY(!hostMarkerOf(editor, s("ensure"))->isVisibleTo(&editor));

        // A block's defaults describe no resource on the host.
        editor.setResource(s("file"), QString(), Json::object(), Json(), true);
        QVERIFY(editor.findChild<QWidget *>(s("hostState")) == nullptr);
        QVERIFY(!hostMarkerOf(editor, s("mode"))->isVisibleTo(&editor));

        // The refresh button asks; it waits while a request is out.
        editor.setResource(s("file"), s("/etc/motd"), Json::object(), Json(), false);
        QSignalSpy asked(&editor, &PropertyEditor::hostStateRefreshRequested);
        auto *refresh = editor.findChild<QToolButton *>(s("hostStateRefresh"));
        refresh->click();
        QCOMPARE(asked.size(), 1);
        view.checking = true;
        editor.setHostState(view);
        QVERIFY(!refresh->isEnabled());
        editor.setHostState({});
        QVERIFY(!editor.findChild<QWidget *>(s("hostState"))->isVisibleTo(&editor));

        // A backend's words are shown as they are, never as markup.
        HostStateView markup;
        markup.kind = HostStateView::Kind::Known;
        markup.text = s("On this host: <b>present</b>");
        markup.detail = s("<img src=x>");
        markup.markers = {{s("owner"), s("On this host: <i>root</i>")}};
        editor.setHostState(markup);
        QVERIFY(editor.findChild<QLabel *>(s("hostStateText"))->text().contains(s("&lt;b&gt;present&lt;/b&gt;")));
        QCOMPARE(editor.findChild<QLabel *>(s("hostStateDetail"))->textFormat(), Qt::PlainText);
        QCOMPARE(hostMarkerOf(editor, s("owner"))->toolTip(), s("<p>On this host: &lt;i&gt;root&lt;/i&gt;</p>"));
    }

    void windowMarksAndEditsClear()
    {
        ScriptedWindow scripted(scriptedFileBackend());
        QVERIFY(scripted.connected());
        MainWindow &window = scripted.window;
        window.show();
        const QString path = scripted.dir.filePath(s("site.yaml"));
        QVERIFY(writeFile(path,
            "ccm:\n  resources:\n    - file:\n        - defaults:\n            owner: root\n"
            "        - /srv/motd:\n            ensure: present\n            mode: \"0644\"\n"
            "            group: \"{{ lookup('data.group') }}\"\n"));
        QVERIFY(window.openFile(path));
        window.selectEntry({0, 1});
        PropertyEditor &form = *window.propertyEditor();
        QTRY_VERIFY_WITH_TIMEOUT(hostMarkerOf(form, s("mode"))->isVisibleTo(&form), kPatienceMs);
        QCOMPARE(hostMarkerOf(form, s("mode"))->toolTip(), s("On this host: 0600"));
        QCOMPARE(hostLineOf(form), s("On this host: present, 0600 root:root, sha256 5891b5b5"));

        // The effective properties are asked about: the block's defaults under the resource's own,
        // without those a run would still have to resolve, from the manifest's directory.
        const Json params = lastStatusParams(*scripted.recorder, "resource.status");
        QCOMPARE(params.value("type", ""), std::string("file"));
        QCOMPARE(params.value("name", ""), std::string("/srv/motd"));
        COMPARE_JSON(params["properties"], (Json {{"owner", "root"}, {"ensure", "present"}, {"mode", "0644"}}));
        QCOMPARE(QString::fromStdString(params.value("base_dir", "")), QFileInfo(path).absolutePath());
        QCOMPARE(
            form.findChild<QLabel *>(s("hostStateDetail"))->text(), s("Not compared, as they hold templates: group"));

        // Typed to what the host has: the marker goes at once, without asking again.
        const int asked = statusRequestCount(*scripted.recorder, "resource.status");
        auto *line = form.findChild<FieldEditor *>(s("mode"))->findChild<QLineEdit *>();
        line->selectAll();
        QTest::keyClicks(line, s("0600"));
        QVERIFY(!hostMarkerOf(form, s("mode"))->isVisibleTo(&form));
        // Typed away from it again: marked again.
        line->selectAll();
        QTest::keyClicks(line, s("0640"));
        QVERIFY(hostMarkerOf(form, s("mode"))->isVisibleTo(&form));
        // Nothing was sent, and nothing waits to be: a request is sent (and isChecking() set) or
        // scheduled (isScheduled()) at the moment it is decided on.
        QVERIFY(!window.hostStateController()->hostState()->isChecking());
        QVERIFY(!window.hostStateController()->hostState()->isScheduled());
        QCOMPARE(statusRequestCount(*scripted.recorder, "resource.status"), asked);

        // The block's defaults show no host state.
        window.selectEntry({0, 0});
        QTRY_VERIFY(form.findChild<QWidget *>(s("hostState")) == nullptr);

        // Another manifest, elsewhere, with the same resource: asked about again, from there.
        window.selectEntry({0, 1});
        QVERIFY(QDir(scripted.dir.path()).mkpath(s("other")));
        const QString other = scripted.dir.filePath(s("other/site.yaml"));
        QVERIFY(
            writeFile(other, "ccm:\n  resources:\n    - file:\n        - /srv/motd:\n            mode: \"0644\"\n"));
        QVERIFY(window.openFile(other));
        QTRY_COMPARE_WITH_TIMEOUT(
            QString::fromStdString(lastStatusParams(*scripted.recorder, "resource.status").value("base_dir", "")),
            QFileInfo(other).absolutePath(), kPatienceMs);
    }

    void refreshesAfterARunAndOnRequest()
    {
        ScriptedWindow scripted(scriptedFileBackend());
        QVERIFY(scripted.connected());
        MainWindow &window = scripted.window;
        const QString path = scripted.dir.filePath(s("site.yaml"));
        QVERIFY(writeFile(path, "ccm:\n  resources:\n    - file:\n        - /srv/motd:\n            mode: \"0600\"\n"));
        QVERIFY(window.openFile(path));
        HostState *state = window.hostStateController()->hostState();
        QTRY_COMPARE_WITH_TIMEOUT(int(state->view().kind), int(HostStateView::Kind::Known), kPatienceMs);
        QTRY_VERIFY(!state->isChecking());
        int asked = statusRequestCount(*scripted.recorder, "resource.status");

        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QVERIFY(ended.wait(kPatienceMs));
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*scripted.recorder, "resource.status"), asked + 1, kPatienceMs);
        QTRY_VERIFY(!state->isChecking());

        window.propertyEditor()->findChild<QToolButton *>(s("hostStateRefresh"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*scripted.recorder, "resource.status"), asked + 2, kPatienceMs);
        QTRY_VERIFY(!state->isChecking());
        QVERIFY(window.hostStateController()->refreshAction()->isEnabled());
        window.hostStateController()->refreshAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*scripted.recorder, "resource.status"), asked + 3, kPatienceMs);
        asked += 3;

        // While a run holds the connection nothing is sent; the request follows the run.
        QTRY_VERIFY(!state->isChecking());
        bool running = true;
        state->setHold([&running] { return running; });
        state->refresh();
        QVERIFY(!state->isChecking());
        QVERIFY(!state->isScheduled());
        QCOMPARE(statusRequestCount(*scripted.recorder, "resource.status"), asked);
        running = false;
        state->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*scripted.recorder, "resource.status"), asked + 1, kPatienceMs);
    }

    void staleAnswersAreDropped()
    {
        // Each answer waits for the test's go, so the test decides what changes meanwhile.
        auto go = std::make_shared<QSemaphore>();
        std::map<std::string, Responder> responders {{"resource.status", [go](const Json &request) {
                                                          go->acquire();
                                                          const Json params = request["params"];
                                                          Json result = scriptedFileStatus(request, "0600");
                                                          result["summary"] = params.value("name", "") + " asked for "
                                                              + params["properties"].value("mode", "");
                                                          return std::vector<Json> {answer(request, result)};
                                                      }}};
        auto recorder = std::make_shared<Recorder>();
        QTemporaryDir dir;
        FakeServer server(dir.filePath(s("backend.sock")), scriptedBackend(responders, recorder));
        BackendClient client;
        client.setSystemSocket(dir.filePath(s("no-system.sock")));
        client.setUserSocket(dir.filePath(s("backend.sock")));
        HostState state(&client);
        state.setDelay(0);
        QStringList shown;
        connect(&state, &HostState::viewChanged, this, [&] { shown.append(state.view().text); });
        client.connectToBackend();
        QTRY_VERIFY_WITH_TIMEOUT(client.isConnected(), kPatienceMs);

        // Another resource selected while the first one's answer is on its way.
        state.follow(s("file"), s("/a"), Json {{"mode", "0644"}});
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*recorder, "resource.status"), 1, kPatienceMs);
        state.follow(s("file"), s("/b"), Json {{"mode", "0644"}});
        go->release(2);
        QTRY_COMPARE_WITH_TIMEOUT(state.view().text, s("On this host: /b asked for 0644"), kPatienceMs);
        QVERIFY2(!shown.join(u'|').contains(s("/a asked")), qPrintable(shown.join(u'|')));
        QCOMPARE(lastStatusParams(*recorder, "resource.status").value("name", ""), std::string("/b"));

        // The shown resource edited while its answer is on its way.
        state.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*recorder, "resource.status"), 3, kPatienceMs);
        state.follow(s("file"), s("/b"), Json {{"mode", "0600"}});
        // Until the answer about the edit comes, the markers follow the edit from the last answer.
        QVERIFY(state.view().markers.empty());
        QVERIFY(state.view().checking);
        go->release(2);
        QTRY_COMPARE_WITH_TIMEOUT(state.view().text, s("On this host: /b asked for 0600"), kPatienceMs);
        QTRY_VERIFY(!state.isChecking());
        QCOMPARE(statusRequestCount(*recorder, "resource.status"), 4);
        QVERIFY(state.view().markers.empty());

        // Nothing selected: the view goes, and an answer on its way is dropped.
        state.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*recorder, "resource.status"), 5, kPatienceMs);
        state.follow({}, {}, {});
        go->release(1);
        QTRY_VERIFY_WITH_TIMEOUT(!state.isChecking(), kPatienceMs);
        QCOMPARE(int(state.view().kind), int(HostStateView::Kind::Hidden));
        QCOMPARE(statusRequestCount(*recorder, "resource.status"), 5);
    }

    void olderBackendAndFailuresAreSaid()
    {
        std::map<std::string, Responder> responders {{"resource.status", [](const Json &request) {
                                                          const std::string name = request["params"].value("name", "");
                                                          Json reply = {{"jsonrpc", "2.0"}, {"id", request["id"]}};
                                                          reply["error"] = name == "old"
                                                              ? Json {{"code", -32601}, {"message", "no such method"}}
                                                              : Json {{"code", -32602},
                                                                  {"message",
                                                                      "params.type: "
                                                                      "unknown type"}};
                                                          return std::vector<Json> {reply};
                                                      }}};
        auto recorder = std::make_shared<Recorder>();
        QTemporaryDir dir;
        FakeServer server(dir.filePath(s("backend.sock")), scriptedBackend(responders, recorder));
        BackendClient client;
        client.setSystemSocket(dir.filePath(s("no-system.sock")));
        client.setUserSocket(dir.filePath(s("backend.sock")));
        HostState state(&client);
        state.setDelay(0);

        // Before a backend is connected there is nothing to ask; connecting asks.
        state.follow(s("package"), s("old"), Json::object());
        QTRY_COMPARE_WITH_TIMEOUT(int(state.view().kind), int(HostStateView::Kind::Unknown), kPatienceMs);
        QVERIFY2(state.view().text.contains(s("connected")), qPrintable(state.view().text));
        client.connectToBackend();
        QTRY_VERIFY_WITH_TIMEOUT(state.view().text.contains(s("update ccm-backend")), kPatienceMs);
        QCOMPARE(int(state.view().kind), int(HostStateView::Kind::Unknown));

        state.follow(s("package"), s("other"), Json::object());
        QTRY_COMPARE_WITH_TIMEOUT(int(state.view().kind), int(HostStateView::Kind::Failed), kPatienceMs);
        QVERIFY2(state.view().text.contains(s("params.type: unknown type")), qPrintable(state.view().text));

        // A name a run still has to resolve names nothing on the host: nothing is asked.
        const int asked = statusRequestCount(*recorder, "resource.status");
        state.follow(s("package"), s("{{ lookup('data.package') }}"), Json::object());
        QCOMPARE(int(state.view().kind), int(HostStateView::Kind::Unknown));
        QVERIFY2(state.view().text.contains(s("template")), qPrintable(state.view().text));
        state.refresh();
        QVERIFY(!state.isChecking());
        QVERIFY(!state.isScheduled());
        QCOMPARE(statusRequestCount(*recorder, "resource.status"), asked);

        // The same resource with its paths starting elsewhere is another one.
        state.follow(s("file"), s("/srv/motd"), Json::object(), s("/srv/a"));
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*recorder, "resource.status"), asked + 1, kPatienceMs);
        QTRY_VERIFY_WITH_TIMEOUT(!state.isChecking(), kPatienceMs);
        state.follow(s("file"), s("/srv/motd"), Json::object(), s("/srv/b"));
        QTRY_COMPARE_WITH_TIMEOUT(statusRequestCount(*recorder, "resource.status"), asked + 2, kPatienceMs);
        QCOMPARE(lastStatusParams(*recorder, "resource.status").value("base_dir", ""), std::string("/srv/b"));
    }
};

CCM_TEST_MAIN(TestHostState)
#include "tst_host_state.moc"
