// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <filesystem>
#include <string>

namespace ccm::fleet {

/// Writes `text` to `file` through a new file of mode 0600 beside it and a rename, so the file is
/// whole and private at every moment, and syncs both to disk: what the agent keeps must outlive a
/// power cut.
Result<void> writePrivateFile(const std::filesystem::path &file, const std::string &text);

/// Creates the directory `path` with mode 0700 from the start (its parents as create_directories
/// would); one that exists is left as it is.
Result<void> createPrivateDirectory(const std::filesystem::path &path);

} // namespace ccm::fleet
