// SPDX-License-Identifier: Apache-2.0
// Timing for the benchmarks: several runs of the same work, so one slow run does not decide.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace ccm::bench {

/// Wall-clock milliseconds of each of `runs` calls of `work`, sorted from fastest to slowest.
template<typename F>
std::vector<double> sampleMilliseconds(F &&work, int runs)
{
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(samples.begin(), samples.end());
    return samples;
}

/// The median of sampleMilliseconds().
template<typename F>
double medianMilliseconds(F &&work, int runs = 7)
{
    const std::vector<double> samples = sampleMilliseconds(work, runs);
    return samples[samples.size() / 2];
}

} // namespace ccm::bench
