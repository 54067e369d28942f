// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ccm::cli {

/// Exit codes shared by the subcommands. LibraryMissing is the dynamic loader's status for a
/// library missing at start, used when one of the libraries opened on first use cannot be.
enum ExitCode { Success = 0, Failure = 1, UsageError = 2, LibraryMissing = 127 };

/// Runs ccm-backend with the given arguments (argv[0] is the program name).
int run(int argc, char **argv);

/// Runs one subcommand with its arguments, writing to out and err. Returns the exit code.
int runCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace ccm::cli
