// SPDX-License-Identifier: Apache-2.0
// The events of `ccm-backend apply --json`, for tests that compare two runs.
#pragma once

#include "core/model/json.h"

#include <QList>
#include <QString>

namespace ccm::test {

/// The JSON events of an apply without what differs from run to run (ids, times, durations).
inline QList<Json> stableEvents(const QString &out)
{
    QList<Json> events;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        Json event = Json::parse(line.toStdString(), nullptr, false);
        if (event.is_discarded())
            continue;
        for (const char *key : {"event_id", "timestamp", "duration"})
            event.erase(key);
        if (event.contains("summary"))
            event["summary"].erase("run_time");
        events << event;
    }
    return events;
}

} // namespace ccm::test
