// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/exec/creates_status.h"

#include <cerrno>
#include <sys/stat.h>
#include <system_error>

namespace ccm::engine {

Result<ExecState> createsStatus(const ExecProperties &properties)
{
    ExecState state;
    if (properties.creates.empty())
        return state;
    struct stat info { };
    if (::lstat(properties.creates.c_str(), &info) == 0) {
        state.createsSatisfied = true;
        return state;
    }
    const int error = errno;
    if (error != ENOENT && error != ENOTDIR)
        return Error {"status_failed",
            "cannot check creates " + properties.creates + ": " + std::generic_category().message(error)};
    return state;
}

} // namespace ccm::engine
