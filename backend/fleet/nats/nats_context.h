// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <filesystem>
#include <optional>
#include <string>

namespace ccm::fleet {

/// How to reach and authenticate to a NATS server: the fields of a NATS CLI context that a client
/// needs. Empty strings are unset. Paths are absolute or as written, with a leading ~ expanded.
struct NatsSettings {
    std::string url; ///< one server URL or a comma-separated list
    std::string user;
    std::string password;
    std::string token;
    std::string creds; ///< path of a credentials file (user JWT and seed)
    std::string nkey; ///< path of a file holding a user NKey seed
    std::string ca; ///< path of the PEM CA bundle that verifies the server
    std::string cert; ///< path of the client certificate (PEM)
    std::string key; ///< path of the client certificate's private key (PEM)
    std::string source; ///< where the settings came from, for messages: a context file or "--nats"
};

/// What the command line and the environment ask for.
struct NatsSelection {
    std::optional<std::string> context; ///< --context NAME
    std::optional<std::string> url; ///< --nats URL; wins over any context
};

/// The parts of the process environment that locate context files.
struct ContextEnvironment {
    std::string natsContext; ///< $NATS_CONTEXT
    std::string xdgConfigHome; ///< $XDG_CONFIG_HOME
    std::string home; ///< $HOME

    /// The values of the running process.
    static ContextEnvironment fromProcess();
};

/// The context name used when neither --context nor $NATS_CONTEXT names one.
inline constexpr const char *kDefaultContextName = "CCM";

/// The directory holding NATS CLI contexts: $XDG_CONFIG_HOME/nats/context, else
/// ~/.config/nats/context.
std::filesystem::path contextDirectory(const ContextEnvironment &environment);

/// Parses the JSON text of a context file (the NATS CLI's format: url, user, password, token,
/// creds, nkey, ca, cert, key; other members are ignored). `file` names the file in messages.
/// Error code "bad_context" when the text is not a JSON object or a field is not a string.
Result<NatsSettings> parseNatsContext(
    const std::string &text, const std::filesystem::path &file, const std::string &home);

/// Reads the context file `name` from contextDirectory(). Error code "context_not_found" when the
/// file does not exist, "bad_context" when it cannot be read or parsed; messages name the file.
Result<NatsSettings> loadNatsContext(const std::string &name, const ContextEnvironment &environment);

/// The settings a command uses: the URL when one is given (no context file is read), else the
/// context named by the selection, $NATS_CONTEXT or "CCM", in that order.
Result<NatsSettings> resolveNatsSettings(const NatsSelection &selection, const ContextEnvironment &environment);

} // namespace ccm::fleet
