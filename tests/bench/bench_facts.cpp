// SPDX-License-Identifier: Apache-2.0
// Gathers the built-in system facts repeatedly; prints the median time of one gathering.
#include "system_facts.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main()
{
    constexpr int runs = 20;
    std::vector<double> samples;
    std::size_t families = 0;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const ccm::Json facts = ccm::gatherSystemFacts();
        samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        families = static_cast<std::size_t>(
            std::count_if(facts.begin(), facts.end(), [](const ccm::Json &family) { return !family.is_null(); }));
    }
    std::sort(samples.begin(), samples.end());
    std::printf("gatherSystemFacts: median %.2f ms over %d runs (min %.2f, max %.2f), %zu families gathered\n",
        samples[samples.size() / 2], runs, samples.front(), samples.back(), families);
    return 0;
}
