// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/cli.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace ccm::cli {

/// The subcommands of ccm-backend; each takes the arguments after its name.
int validateCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int factsCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int applyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int renderCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int serveCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int bundleCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int publishCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int releasesCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int rollbackCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int rolloutCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int agentCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int fleetCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int clientCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int ensureCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int resourceStatusCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int sessionCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int hieraCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int captureCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int registrationCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace ccm::cli
