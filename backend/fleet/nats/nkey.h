// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <string>

namespace ccm::fleet {

/// The public key ("U...") of a user NKey seed ("SU..."), as a NATS server lists it in its
/// authorization. `text` may be the bare seed or a file's contents holding it among other lines.
/// Error code "bad_nkey" when no valid user seed is found (wrong checksum, another key type).
Result<std::string> nkeyUserPublicKey(const std::string &text);

} // namespace ccm::fleet
