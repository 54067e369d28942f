// SPDX-License-Identifier: Apache-2.0
// What this host has of the selected resource, from a real `ccm-backend serve --user` looking at
// real files in a temp dir: the summary, the field markers, and the refreshes on request and after
// an apply that changed the file.
#include "designer/core/backend_client.h"
#include "designer/core/host_state.h"
#include "designer/ui/controllers/host_state_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/results_panel.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
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

QLabel *backendMarkerOf(const PropertyEditor &form, const QString &property)
{
    return form.findChild<QLabel *>(property + QStringLiteral("-host"));
}

bool markedOnHost(const PropertyEditor &form, const QString &property)
{
    const QLabel *marker = backendMarkerOf(form, property);
    return marker != nullptr && marker->isVisibleTo(&form);
}

QString backendHostLine(const PropertyEditor &form)
{
    return form.findChild<QLabel *>(QStringLiteral("hostStateText"))->accessibleName();
}

constexpr QFile::Permissions kOwnerOnly = QFile::ReadOwner | QFile::WriteOwner;

} // namespace

class TestHostStateBackend : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_host_state_backend"));
        QSettings().clear();
    }

    void fileOnThisHost()
    {
        QTemporaryDir dir;
        const QString motd = dir.filePath(s("motd"));
        QVERIFY(writeFile(motd, "Welcome\n"));
        QVERIFY(QFile::setPermissions(motd, kOwnerOnly));
        const QString path = dir.filePath(s("site.yaml"));
        QVERIFY(writeFile(path,
            s("ccm:\n  resources:\n    - file:\n        - %1:\n            ensure: present\n"
              "            content: \"Welcome\\n\"\n            owner: %2\n            group: %3\n"
              "            mode: \"0644\"\n        - %4:\n            ensure: present\n"
              "            content: \"x\"\n            owner: %2\n            group: %3\n"
              "            mode: \"0644\"\n    - exec:\n        - /bin/true:\n            cwd: /\n")
                .arg(motd, currentUserName(), currentGroupName(), dir.filePath(s("missing")))
                .toUtf8()));

        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(path));
        window.connectToBackend();
        PropertyEditor &form = *window.propertyEditor();
        HostState *state = window.hostStateController()->hostState();

        // Present with another mode than the form's: the mode is marked, nothing else.
        QTRY_VERIFY_WITH_TIMEOUT(markedOnHost(form, s("mode")), kPatienceMs);
        QCOMPARE(backendMarkerOf(form, s("mode"))->toolTip(), s("On this host: 0600"));
        const QString expected
            = s("On this host: present, 0600 %1:%2, sha256 ").arg(currentUserName(), currentGroupName());
        QVERIFY2(backendHostLine(form).startsWith(expected), qPrintable(backendHostLine(form)));
        for (const char *property : {"content", "owner", "group", "ensure"})
            QVERIFY2(!markedOnHost(form, s(property)), property);

        // Typed to what the host has: no longer marked.
        auto *line = form.findChild<FieldEditor *>(s("mode"))->findChild<QLineEdit *>();
        line->selectAll();
        QTest::keyClicks(line, s("0600"));
        QVERIFY(!markedOnHost(form, s("mode")));

        // The host changes behind the designer's back: seen on request.
        QVERIFY(QFile::setPermissions(motd, kOwnerOnly | QFile::ReadGroup));
        QTRY_VERIFY_WITH_TIMEOUT(!state->isChecking(), kPatienceMs);
        form.findChild<QToolButton *>(s("hostStateRefresh"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(markedOnHost(form, s("mode")), kPatienceMs);
        QCOMPARE(backendMarkerOf(form, s("mode"))->toolTip(), s("On this host: 0640"));

        // An apply makes the host what the form says; the state follows the run.
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->apply(true);
        QVERIFY(ended.wait(kPatienceMs));
        QVERIFY2((QFile::permissions(motd) & (QFile::ReadGroup | QFile::ReadOther)) == QFile::Permissions(),
            qPrintable(window.resultsPanel()->summary()));
        QTRY_VERIFY_WITH_TIMEOUT(!markedOnHost(form, s("mode")), kPatienceMs);
        QTRY_VERIFY_WITH_TIMEOUT(backendHostLine(form).startsWith(expected), kPatienceMs);

        // A file that is not there: its ensure is marked with what the host has.
        QVERIFY(QFile::remove(dir.filePath(s("missing"))) || !QFile::exists(dir.filePath(s("missing"))));
        window.selectEntry({0, 1});
        QTRY_VERIFY_WITH_TIMEOUT(markedOnHost(form, s("ensure")), kPatienceMs);
        QCOMPARE(backendMarkerOf(form, s("ensure"))->toolTip(), s("On this host: absent"));
        QCOMPARE(backendHostLine(form), s("On this host: absent"));

        // A command without creates has no state to read: the backend's reason is shown.
        window.selectEntry({1, 0});
        QTRY_COMPARE_WITH_TIMEOUT(int(state->view().kind), int(HostStateView::Kind::Unknown), kPatienceMs);
        QCOMPARE(backendHostLine(form), s("On this host: the state cannot be told."));
        const QString reason = form.findChild<QLabel *>(s("hostStateDetail"))->text();
        QVERIFY2(reason.contains(s("cannot be told without running its command")), qPrintable(reason));
    }
};

CCM_TEST_MAIN(TestHostStateBackend)
#include "tst_host_state_backend.moc"
