// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/ensure_run.h"

#include <ostream>

namespace ccm::cli {

int ensureCommand(const std::vector<std::string> &, std::ostream &, std::ostream &err)
{
    err << "ccm-backend: this command is being written\n";
    return Failure;
}

} // namespace ccm::cli
