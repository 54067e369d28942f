// SPDX-License-Identifier: Apache-2.0
// Gathers the built-in system facts repeatedly; prints the median time of one gathering.
#include "bench_timing.h"
#include "core/facts/system_facts.h"

#include <algorithm>
#include <cstdio>
#include <vector>

int main()
{
    constexpr int runs = 20;
    std::size_t families = 0;
    const std::vector<double> samples = ccm::bench::sampleMilliseconds(
        [&] {
            const ccm::Json facts = ccm::gatherSystemFacts();
            families = static_cast<std::size_t>(
                std::count_if(facts.begin(), facts.end(), [](const ccm::Json &family) { return !family.is_null(); }));
        },
        runs);
    std::printf("gatherSystemFacts: median %.2f ms over %d runs (min %.2f, max %.2f), %zu families gathered\n",
        samples[samples.size() / 2], runs, samples.front(), samples.back(), families);
    return 0;
}
