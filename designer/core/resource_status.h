// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <map>
#include <vector>

namespace ccm::designer {

/// One property whose value on this host is not the one the resource asks for.
struct HostDifference {
    QString property;
    ccm::Json current; ///< as the host has it (null when the host has nothing)
    ccm::Json wanted; ///< as the resource asked for it when the backend looked
};

/// The answer of resource.status: what this host has now of one resource, as its provider
/// reports it.
struct ResourceStatus {
    /// Whether the backend could tell the state at all; false for a type or provider that cannot.
    bool supported = false;
    /// Why the state cannot be told; may be empty.
    QString reason;
    /// What the backend could not look at or compare (a file it may not read, say).
    QStringList notes;
    /// One line for people: "present, 0644 root:root, sha256 …", "installed 1.24.0-1".
    QString summary;
    /// The type's own description of the state (the `status --json` output's state).
    ccm::Json state = ccm::Json::object();
    std::vector<HostDifference> differences;

    /// Reads a resource.status result. A result that is not an object, or whose members have the
    /// wrong types, is an unsupported status whose reason says what was wrong: an answer from a
    /// peer is never trusted to be well formed.
    static ResourceStatus fromJson(const ccm::Json &result);
};

/// Whether a form's value and a host's value of `property` are the same setting: equal JSON, the
/// same text for scalars ("3" and 3), the same octal number for a mode ("644" and "0644"), and a
/// text whose SHA-256 is the host's "sha256:<hex>" (a file's content).
bool sameHostValue(const QString &property, const ccm::Json &formValue, const ccm::Json &hostValue);

/// Whether `value` is a string that still holds a template ("{{"), which only a run resolves.
bool holdsTemplate(const ccm::Json &value);

/// A host's value as one short line: strings as they are, anything else as JSON, "nothing" for
/// null, long values cut with an ellipsis.
QString hostValueText(const ccm::Json &value);

/// What the resource form shows of the selected resource on this host.
struct HostStateView {
    enum class Kind {
        Hidden, ///< nothing to show: no resource, a block's defaults, no backend
        Checking, ///< asked, no answer yet
        Known, ///< the backend told the state (text is the summary)
        Unknown, ///< the backend cannot tell (text says why)
        Failed, ///< the request failed (text says why)
    };
    Kind kind = Kind::Hidden;
    /// The line under the form's title: "On this host: present, 0644 root:root".
    QString text;
    /// Further lines: what of the state is unknown or was not compared, differences that have no
    /// field in the form.
    QString detail;
    /// The properties marked as different, each with its tooltip ("On this host: 0600").
    std::map<QString, QString> markers;
    /// A request is on its way: what is shown may be out of date and another refresh would wait.
    bool checking = false;

    bool operator==(const HostStateView &) const = default;
};

} // namespace ccm::designer
