// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/capture/captured_manifest.h"
#include "core/model/json.h"
#include "designer/core/backend_client.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace ccm::designer {

// The capture methods as the designer calls them (docs/protocol.md): host.inventory lists what
// this host has, host.capture and fleet.capture write the chosen part down as resources. The
// answers come from a peer and are read strictly: a member of the wrong type is an error naming it.

/// An installed package (host.inventory {kind: packages}).
struct InventoryPackage {
    QString name;
    QString version;
    QString arch;
    QString summary;
};

/// A service unit (host.inventory {kind: services}).
struct InventoryService {
    QString name;
    bool running = false;
    bool enabled = false;
    QString activeState;
    QString enabledState;
    QString description;
    bool capturable = true;
    QString reason; ///< why a service resource cannot express it
};

/// One entry of a directory (host.inventory {kind: files}).
struct InventoryEntry {
    QString name;
    QString kind; ///< file, directory, symlink, socket, device, fifo, other
    QString owner;
    QString group;
    QString mode; ///< "0644"
    qint64 size = 0;
    QString linkTarget;
    bool readable = false;
    bool privateToOwner = false;

    [[nodiscard]] bool isDirectory() const { return kind == QLatin1String("directory"); }
    /// Files and directories are; links, sockets, devices and fifos cannot be file resources.
    [[nodiscard]] bool capturable() const { return kind == QLatin1String("file") || isDirectory(); }
};

/// A directory's entries as listed.
struct InventoryListing {
    QString path;
    bool truncated = false;
    std::vector<InventoryEntry> entries;
};

/// What to capture: host.capture's params (and fleet.capture's selection members).
struct CaptureSelection {
    QStringList packages; ///< names or glob patterns
    QStringList services;
    QStringList files; ///< absolute paths, each taken recursively
    QStringList excludes; ///< glob patterns over absolute paths
    bool data = false;
    bool pin = false;
    bool includePrivate = false;

    [[nodiscard]] bool isEmpty() const { return packages.isEmpty() && services.isEmpty() && files.isEmpty(); }
    /// The members host.capture takes: packages, services, files, excludes, data, pin,
    /// include_private (empty lists left out).
    [[nodiscard]] ccm::Json toParams() const;
};

/// host.capture's or fleet.capture's answer.
struct CaptureAnswer {
    CapturedManifest capture;
    QString yaml; ///< the capture as a manifest, as the backend writes it
    QString identity; ///< fleet.capture: the host that answered; empty for host.capture
};

namespace capture {

/// Reads host.inventory's answers; nullopt with *error naming the member at fault.
std::optional<std::vector<InventoryPackage>> packagesFromJson(const ccm::Json &result, QString *error);
std::optional<std::vector<InventoryService>> servicesFromJson(const ccm::Json &result, QString *error);
std::optional<InventoryListing> listingFromJson(const ccm::Json &result, QString *error);
/// Reads host.capture's or fleet.capture's answer with captureFromJson's checks.
std::optional<CaptureAnswer> answerFromJson(const ccm::Json &result, QString *error);

template<typename T> using Handler = std::function<void(std::optional<T> value, const QString &error)>;

/// host.inventory {kind: packages} on `client`.
void listPackages(BackendClient *client, Handler<std::vector<InventoryPackage>> done);
/// host.inventory {kind: services}.
void listServices(BackendClient *client, Handler<std::vector<InventoryService>> done);
/// host.inventory {kind: files, path}.
void listDirectory(BackendClient *client, const QString &path, Handler<InventoryListing> done);
/// host.capture with the selection.
void captureHost(BackendClient *client, const CaptureSelection &selection, Handler<CaptureAnswer> done);

/// Where fleet.capture asks, and with which key.
struct FleetTarget {
    QString host; ///< the agent's identity
    QString key; ///< the private PEM that signs the request
    QString context; ///< NATS CLI context; empty when serverUrl is given
    QString serverUrl;
    int timeoutMs = 0; ///< 0: the backend's default
};

/// fleet.capture with the selection on `client` (a user backend).
void captureFleetHost(
    BackendClient *client, const FleetTarget &target, const CaptureSelection &selection, Handler<CaptureAnswer> done);

} // namespace capture

} // namespace ccm::designer
