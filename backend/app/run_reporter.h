// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batched_output.h"
#include "engine/run.h"

#include <atomic>
#include <csignal>
#include <iosfwd>
#include <string_view>

namespace ccm::cli {

/// Turns SIGINT and SIGTERM into a cancellation between resources while a run is going; a second
/// signal ends the process, removing an unpacked bundle first. One at a time per process.
class CancelOnSignal {
public:
    CancelOnSignal();
    ~CancelOnSignal();
    CancelOnSignal(const CancelOnSignal &) = delete;
    CancelOnSignal &operator=(const CancelOnSignal &) = delete;

    /// Set once a signal asked the run to stop: RunOptions::cancel.
    [[nodiscard]] const std::atomic<bool> *flag() const;

private:
    struct sigaction m_oldInt { };
    struct sigaction m_oldTerm { };
};

/// Prints a run as it goes: report lines (or JSON events) on `out`, messages and logs beside.
/// What goes to `out` is written in batches (BatchedOutput): a line is there within a tenth of a
/// second, and a run of many quick resources does not cost the reader a wake-up per line.
class RunReporter : public engine::RunObserver {
public:
    RunReporter(std::ostream &out, std::ostream &err, bool json, bool showDiff);

    void message(std::string_view text) override;
    void log(engine::LogLevel level, std::string_view resource, std::string_view message) override;
    void resourceFinished(const TransactionEvent &event) override;

    /// Flushes what the run printed; `out` is the caller's again.
    void finish() { m_out.close(); }

private:
    /// Messages and logs: beside the report lines in text mode, on `err` at once with --json.
    template<typename Write> void writeText(Write &&write);

    BatchedOutput m_out;
    std::ostream &m_err;
    bool m_json;
    bool m_showDiff;
};

/// The least level of the log lines a run prints: Info unless upstream's global --debug asked
/// for Debug. Set once, before a command runs.
void setRunLogLevel(engine::LogLevel level);

/// The exit status of a run: 1 when a resource failed or the run stopped early, else 0; with
/// `detailed` (--detailed-exitcodes) 2 for changes, 4 for failures, 6 for both.
int runExitStatus(const engine::RunResult &result, bool detailed);

} // namespace ccm::cli
