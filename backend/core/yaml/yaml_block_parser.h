// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace YAML {
class EventHandler;
}

namespace ccm {

/// Reads the plain block style most manifests are written in (block maps and sequences, one-line
/// plain and quoted scalars, comments) and sends `handler` the events yaml-cpp's parser sends for
/// the same text, marks included, several times faster: yaml-cpp's scanner matches every
/// character against regular expressions.
/// Returns false, having sent nothing, for text outside that subset (anchors, tags, flow
/// collections, block scalars, multi-line scalars, tabs, non-ASCII, several documents, errors):
/// the caller then reads it with yaml-cpp, which also words the errors.
/// Exceptions thrown by `handler` pass through.
[[nodiscard]] bool parseBlockYaml(std::string_view text, YAML::EventHandler &handler);

} // namespace ccm
