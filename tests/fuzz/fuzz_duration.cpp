// SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary text to the duration parser: it may refuse the text but never crash, and a
// duration it accepts must read back to the same value when written in nanoseconds, and must be
// the same whether written with or without a leading '+'.
#include "core/model/duration.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    const ccm::Result<std::chrono::nanoseconds> parsed = ccm::parseDuration(text);
    if (!parsed)
        return 0;
    if (parsed.value().count() < 0)
        std::abort();

    const ccm::Result<std::chrono::nanoseconds> again
        = ccm::parseDuration(std::to_string(parsed.value().count()) + "ns");
    if (!again || again.value() != parsed.value())
        std::abort();

    if (!text.empty() && text.front() != '+') {
        const ccm::Result<std::chrono::nanoseconds> signed_ = ccm::parseDuration("+" + std::string(text));
        if (!signed_ || signed_.value() != parsed.value())
            std::abort();
    }
    return 0;
}
