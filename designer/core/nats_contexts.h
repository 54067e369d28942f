// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace ccm::designer {

/// The directory of the user's NATS CLI contexts: $XDG_CONFIG_HOME/nats/context, else
/// ~/.config/nats/context (where the backend looks too).
QString natsContextDirectory(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

/// The names of the contexts found there (the .json files without the extension), sorted; empty
/// when the directory does not exist.
QStringList natsContextNames(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

/// The context the backend uses when none is named: $NATS_CONTEXT, else "CCM".
QString defaultNatsContext(const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

} // namespace ccm::designer
