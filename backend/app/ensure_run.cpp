// SPDX-License-Identifier: Apache-2.0
#include "app/ensure_run.h"

#include "app/commands.h"

#include <ostream>

namespace ccm::cli {

} // namespace ccm::cli
