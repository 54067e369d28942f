// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::cli {

/// The value of an option at args[index] written as NAME VALUE, NAME=VALUE or (with a one-letter
/// `shortName` such as "-D") -DVALUE and -D VALUE; advances index past it. nullopt when args[index]
/// is not the option; a usage error when its value is missing.
std::optional<Result<std::string>> optionValue(
    const std::vector<std::string> &args, std::size_t &index, std::string_view name, std::string_view shortName = {});

} // namespace ccm::cli
