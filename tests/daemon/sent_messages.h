// SPDX-License-Identifier: Apache-2.0
// Messages a daemon sent, checked against resources/schemas/protocol.json as they were sent.
#pragma once

#include "core/model/json.h"
#include "daemon_harness.h"
#include "protocol_schema.h"

#include <QString>
#include <QStringList>

namespace ccm::test {

/// A message as the daemon sent it, without what normalized() added for reading it safely.
inline Json asSent(Json message)
{
    if (message["error"] == Json {{"data", Json::object()}})
        message.erase("error");
    if (message["result"] == Json {{"value", nullptr}})
        message.erase("result");
    return message;
}

/// The problems of a message the daemon sent as an instance of `definition` of protocol.json.
inline QStringList sentProblems(const char *definition, const Json &message)
{
    return protocolProblems(QString::fromUtf8(definition), asSent(message));
}

} // namespace ccm::test
