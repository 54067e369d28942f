// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/exec/exec_type.h"

namespace ccm::engine {

/// The status every exec provider reports: whether `creates` exists (a dangling link counts).
Result<ExecState> createsStatus(const ExecProperties &properties);

} // namespace ccm::engine
