// SPDX-License-Identifier: Apache-2.0
// `--replicas N`, the option of every command that creates buckets, and where its notes go.
#pragma once

#include "fleet/nats/bucket_replicas.h"

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace ccm::cli {

/// The option's lines in a command's help.
inline constexpr std::string_view kReplicasHelp
    = "  --replicas N           the replicas of the buckets this creates, 1 to 5 (default: 3\n"
      "                         when the server reports a cluster of three or more servers,\n"
      "                         else 1); an existing bucket is used as it is\n";

/// The replicas `text` asks for (none when the option was not given), the notes going to `err` as
/// "ccm-backend COMMAND: creating bucket ..." and "ccm-backend COMMAND: warning: bucket ...".
/// `err` must outlive the result. A bad value is a usage error naming --replicas.
inline Result<fleet::BucketReplicas> bucketReplicas(
    const std::optional<std::string> &text, const std::string &command, std::ostream &err)
{
    fleet::BucketReplicas replicas;
    if (text) {
        auto count = fleet::parseReplicaCount(*text, "--replicas");
        if (!count)
            return count.error();
        replicas.asked = count.value();
    }
    replicas.note = [&err, command](const std::string &note, bool warning) {
        err << "ccm-backend " << command << ": " << (warning ? "warning: " : "") << note << '\n';
    };
    return replicas;
}

} // namespace ccm::cli
