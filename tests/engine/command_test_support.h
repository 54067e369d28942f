// SPDX-License-Identifier: Apache-2.0
// What the tests of command runners share: argv as a test column, and commands from argv.
#pragma once

#include "engine/util/command_runner.h"

#include <QByteArray>
#include <QMetaType>

#include <string>
#include <utility>
#include <vector>

namespace ccm::test {

using Argv = std::vector<std::string>;

inline QByteArray bytes(const std::string &text)
{
    return QByteArray::fromStdString(text);
}

/// A command of `argv` with every other setting at its default.
inline Command commandOf(Argv argv)
{
    Command command;
    command.argv = std::move(argv);
    return command;
}

/// The systemctl command the systemd provider runs for `verb` on `service`.
inline Argv systemctl(const std::string &verb, const std::string &service)
{
    return {"systemctl", verb, "--system", service};
}

} // namespace ccm::test

Q_DECLARE_METATYPE(ccm::test::Argv)
