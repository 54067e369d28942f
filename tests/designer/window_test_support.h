// SPDX-License-Identifier: Apache-2.0
// Main windows for tests: one whose backend is a real user backend of its own, and one whose
// backend is a scripted fake.
#pragma once

#include "designer/core/backend_client.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/fleet_dock.h"
#include "fake_server.h"
#include "gui_test_support.h"
#include "scripted_backend.h"

#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace ccm::test {

/// Makes the window's backend a user backend (CCM_BACKEND_BIN) of its own, on a socket in `dir`,
/// with no system backend.
inline void useBackendIn(designer::MainWindow &window, const QTemporaryDir &dir)
{
    designer::BackendClient *client = window.previewController()->client();
    client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
    client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
}

/// A main window whose backend is a scripted one, answering with `responders` and recording the
/// requests.
struct ScriptedWindow {
    explicit ScriptedWindow(std::map<std::string, Responder> responders)
        : recorder(std::make_shared<Recorder>())
        , server(dir.filePath(QStringLiteral("backend.sock")), scriptedBackend(std::move(responders), recorder))
    {
        designer::BackendClient *client = window.previewController()->client();
        client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
        client->setUserSocket(dir.filePath(QStringLiteral("backend.sock")));
        window.connectToBackend();
    }
    /// Whether the window connected to the scripted backend within kPatienceMs.
    bool connected() const
    {
        return QTest::qWaitFor([this] { return window.previewController()->client()->isConnected(); }, kPatienceMs);
    }
    designer::FleetDock *dock() const { return window.fleetDock(); }

    QTemporaryDir dir;
    std::shared_ptr<Recorder> recorder;
    FakeServer server;
    designer::MainWindow window;
};

} // namespace ccm::test
