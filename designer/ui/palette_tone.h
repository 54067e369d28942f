// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPalette>

namespace ccm::designer {

/// Whether `palette` is a dark theme (light text on a dark base), for colours that must read well
/// on both.
inline bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

} // namespace ccm::designer
