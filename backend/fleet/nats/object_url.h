// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/nats_context.h"
#include "fleet/nats/object_store.h"

#include <filesystem>
#include <string>

namespace ccm::fleet {

/// An object named by an obj://BUCKET/KEY URL.
struct ObjectUrl {
    std::string bucket;
    std::string key; ///< may contain '/'

    /// "obj://BUCKET/KEY".
    std::string toString() const { return "obj://" + bucket + "/" + key; }
};

/// True when `text` starts with "obj://".
bool isObjectUrl(const std::string &text);

/// Parses obj://BUCKET/KEY. Error code "bad_url" when the scheme, the bucket or the key is missing.
Result<ObjectUrl> parseObjectUrl(const std::string &text);

/// Connects with `settings` and writes the object `url` names to `destination`, verified (see
/// ObjectStore::getToFile()). Errors say which URL failed.
Result<ObjectInfo> downloadObject(
    const std::string &url, const NatsSettings &settings, const std::filesystem::path &destination);

} // namespace ccm::fleet
