// SPDX-License-Identifier: Apache-2.0
#include "app/run_reporter.h"

#include "app/cli.h"
#include "app/manifest_input.h"
#include "core/model/transaction_event.h"

#include <ostream>
#include <utility>

namespace ccm::cli {
namespace {

std::atomic<bool> g_cancelRequested {false};
std::atomic<engine::LogLevel> g_logLevel {engine::LogLevel::Info};

extern "C" void requestCancel(int signal)
{
    if (g_cancelRequested.exchange(true))
        removeBundlesAndDie(signal);
}

std::string_view levelWord(engine::LogLevel level)
{
    switch (level) {
    case engine::LogLevel::Debug:
        return "debug  ";
    case engine::LogLevel::Info:
        return "info   ";
    case engine::LogLevel::Warning:
        return "warning";
    case engine::LogLevel::Error:
        return "error  ";
    }
    return "info   ";
}

std::string_view levelWord(ReportLevel level)
{
    switch (level) {
    case ReportLevel::Info:
        return levelWord(engine::LogLevel::Info);
    case ReportLevel::Warning:
        return levelWord(engine::LogLevel::Warning);
    case ReportLevel::Error:
        return levelWord(engine::LogLevel::Error);
    }
    return levelWord(engine::LogLevel::Info);
}

} // namespace

CancelOnSignal::CancelOnSignal()
{
    g_cancelRequested.store(false);
    struct sigaction action { };
    action.sa_handler = requestCancel;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &m_oldInt);
    ::sigaction(SIGTERM, &action, &m_oldTerm);
}

CancelOnSignal::~CancelOnSignal()
{
    ::sigaction(SIGINT, &m_oldInt, nullptr);
    ::sigaction(SIGTERM, &m_oldTerm, nullptr);
}

const std::atomic<bool> *CancelOnSignal::flag() const
{
    return &g_cancelRequested;
}

RunReporter::RunReporter(std::ostream &out, std::ostream &err, bool json, bool showDiff)
    : m_out(out)
    , m_err(err)
    , m_json(json)
    , m_showDiff(showDiff)
{
}

void RunReporter::message(std::string_view text)
{
    writeText([&](std::ostream &stream) { stream << text << (text.ends_with('\n') ? "" : "\n"); });
}

void setRunLogLevel(engine::LogLevel level)
{
    g_logLevel.store(level);
}

void RunReporter::log(engine::LogLevel level, std::string_view resource, std::string_view message)
{
    if (level < g_logLevel.load())
        return;
    writeText([&](std::ostream &stream) { stream << levelWord(level) << ' ' << resource << ": " << message << '\n'; });
}

void RunReporter::resourceFinished(const TransactionEvent &event)
{
    if (m_json) {
        const std::string line = eventToJson(event).dump();
        m_out.write([&](std::ostream &stream) { stream << line << '\n'; });
        return;
    }
    const ReportLine line = reportLine(event);
    m_out.write([&](std::ostream &stream) {
        stream << levelWord(line.level) << ' ' << line.text << '\n';
        if (m_showDiff && event.diff && !event.diff->empty())
            stream << *event.diff << (event.diff->ends_with('\n') ? "" : "\n");
    });
}

template<typename Write> void RunReporter::writeText(Write &&write)
{
    if (!m_json) {
        m_out.write(std::forward<Write>(write));
        return;
    }
    write(m_err);
    m_err.flush();
}

int runExitStatus(const engine::RunResult &result, bool detailed)
{
    const bool failed = result.summary.failed > 0 || result.cancelled || result.aborted;
    if (!detailed)
        return failed ? Failure : Success;
    return (result.summary.changed > 0 ? 2 : 0) | (failed ? 4 : 0);
}

} // namespace ccm::cli
