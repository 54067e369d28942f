// SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as a record of CCM_ROLLOUTS, as `rollout status`, `rollout resume`, the
// rollout runner and the release prune read what anyone allowed to write the bucket may have
// stored. Nothing may crash, hang or leak, and:
// - every refusal is "bad_rollout" with a message naming the record;
// - an accepted record has a rollout id, 1 to 64 rings each with a name, a known request, and
//   bounded times;
// - written back as the runner writes it, it reads again to the same record, which writes back
//   to the same text.
#include "fleet/rollout/rollout_record.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void require(bool condition)
{
    if (!condition)
        std::abort();
}

void checkAccepted(const ccm::fleet::RolloutRecord &record)
{
    require(ccm::fleet::isRolloutId(record.id));
    require(!record.rings.empty() && record.rings.size() <= 64);
    require(record.request.empty() || record.request == "pause" || record.request == "abort");
    require(record.ringTimeout.count() >= 0 && record.ringTimeout <= std::chrono::hours(365 * 24));
    require(record.settle.count() >= 0 && record.settle <= std::chrono::hours(365 * 24));
    require(record.currentRing() <= record.rings.size());
    for (const ccm::fleet::RingRecord &ring : record.rings)
        require(!ring.name.empty() && ring.hosts.is_object());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    const auto parsed = ccm::fleet::parseRollout(text);
    if (!parsed) {
        require(parsed.error().code == "bad_rollout" && parsed.error().message.starts_with("rollout record: "));
        return 0;
    }
    checkAccepted(*parsed);
    const std::string written = ccm::fleet::rolloutToJson(*parsed).dump();
    const auto again = ccm::fleet::parseRollout(written);
    require(again.ok());
    require(ccm::fleet::rolloutToJson(*again).dump() == written);
    require(again->created == parsed->created && again->updated == parsed->updated);
    require(again->rings.size() == parsed->rings.size());
    for (std::size_t i = 0; i < again->rings.size(); ++i)
        require(again->rings[i].published == parsed->rings[i].published);
    return 0;
}
