// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace ccm::schemas {

/// Contents of resources/schemas/<relativePath>, compiled into the binary.
std::optional<std::string_view> embeddedSchema(std::string_view relativePath);
/// Names of all embedded schema files.
std::span<const std::string_view> embeddedSchemaNames();

} // namespace ccm::schemas
