// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/package/package_type.h"

#include <optional>
#include <string>
#include <string_view>

namespace ccm::engine {

/// The rpm --queryformat whose lines parseRpmQueryLine reads: name, epoch (0 when unset),
/// version, release and architecture, separated by single spaces.
inline constexpr std::string_view kRpmQueryFormat = "%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}";

/// The epoch of an rpm version and what follows it.
struct EpochVersion {
    /// Digits without leading zeros.
    std::string epoch = "0";
    std::string_view rest;
};

/// Splits "E:rest"; only digits before the first ':' make an epoch, other text is left whole.
EpochVersion splitEpoch(std::string_view version);

/// One line in kRpmQueryFormat as an installed package: the version is VERSION-RELEASE, prefixed
/// with "EPOCH:" when the epoch is not 0; epoch and release also go into the extended metadata.
/// nullopt when the line does not have the five fields.
std::optional<PackageState> parseRpmQueryLine(std::string_view line);

} // namespace ccm::engine
