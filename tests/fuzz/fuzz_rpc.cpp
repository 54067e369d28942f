// SPDX-License-Identifier: Apache-2.0
// Any bytes are what a client sends: they go through the line framing (with a small line limit,
// in pieces whose sizes the first byte chooses) and every complete line through the request
// dispatcher, as a caller whose role the second byte chooses. Applies are recorded by a fake
// instead of run. Error responses are expected; crashes, hangs, leaks, undefined behaviour and
// a reply that is not one JSON object per line are bugs.
#include "daemon/dispatcher.h"
#include "protocol/line_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <spdlog/spdlog.h>
#include <string_view>

namespace {

/// Accepts one run at a time and never runs it; cancel ends it, so that busy, cancel and a fresh
/// start are all reachable.
class FakeApplies : public ccm::daemon::ApplyControl {
public:
    Started start(ccm::daemon::ApplyJob job) override
    {
        if (m_running)
            return {false, m_running->run};
        m_running = Running {"run-" + std::to_string(++m_count), job.owner};
        return {true, m_running->run};
    }
    [[nodiscard]] std::optional<Running> running() const override { return m_running; }
    bool cancel(std::string_view run) override
    {
        if (!m_running || m_running->run != run)
            return false;
        m_running.reset();
        return true;
    }

private:
    std::optional<Running> m_running;
    unsigned m_count = 0;
};

ccm::Result<ccm::Json> fixedFacts()
{
    return ccm::Json::parse(R"({"host": {"info": {"hostname": "web1", "platformFamily": "debian"}},
        "cpus": 4, "site": "lab"})");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    spdlog::set_level(spdlog::level::off);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 2)
        return 0;
    const std::size_t piece = 1 + data[0] % 64;
    ccm::daemon::Caller caller;
    caller.connection = 1;
    caller.peer = {1000, 1000, {1000}, "fuzz"};
    caller.role = static_cast<ccm::daemon::Role>(data[1] % 3);
    std::string_view bytes(reinterpret_cast<const char *>(data + 2), size - 2);

    FakeApplies applies;
    ccm::daemon::Dispatcher dispatcher(applies, fixedFacts);
    ccm::protocol::LineReader reader(4096);
    std::vector<ccm::protocol::Frame> frames;
    while (!bytes.empty()) {
        const std::string_view next = bytes.substr(0, piece);
        bytes.remove_prefix(next.size());
        frames.clear();
        reader.feed(next, frames);
        for (const ccm::protocol::Frame &frame : frames) {
            if (frame.kind != ccm::protocol::Frame::Kind::Line)
                continue;
            const auto reply = dispatcher.handleLine(caller, frame.text);
            if (!reply)
                continue;
            const ccm::Json parsed = ccm::Json::parse(*reply, nullptr, false);
            if (reply->find('\n') != std::string::npos || !parsed.is_object() || !parsed.contains("jsonrpc"))
                std::abort();
        }
    }
    return 0;
}
