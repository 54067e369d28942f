// SPDX-License-Identifier: Apache-2.0
// What the tests of resource types share: a logger that keeps what it was told, the outcome of one
// apply, and command results for recording runners.
#pragma once

#include "core/model/transaction_event.h"
#include "engine/resource.h"
#include "engine/util/command_runner.h"
#include "recording_runner.h"
#include "test_common.h"

#include <QString>

#include <string>
#include <string_view>
#include <vector>

namespace ccm::test {

/// Keeps every message a type or provider logs, in order.
class RecordingLogger : public engine::Logger {
public:
    void log(engine::LogLevel, std::string_view message) override { messages.emplace_back(message); }
    std::vector<std::string> messages;
};

/// What one call of ResourceType::apply returned and recorded.
struct ApplyOutcome {
    Result<void> result;
    TransactionEvent event;

    /// The error message, empty when the apply succeeded.
    [[nodiscard]] QString error() const { return result ? QString() : q(result.error().message); }
};

/// One apply with the lines its type and provider logged.
struct LoggedApply {
    Result<void> result;
    TransactionEvent event;
    std::vector<std::string> logged;
};

/// A value as compact JSON, for failure messages.
inline QString dump(const Json &json)
{
    return q(json.dump());
}

/// A process that exited with `code` after writing `out` and `err`.
inline CommandResult exited(int code, std::string out = {}, std::string err = {})
{
    CommandResult result;
    result.exitCode = code;
    result.stdoutText = std::move(out);
    result.stderrText = std::move(err);
    return result;
}

} // namespace ccm::test
