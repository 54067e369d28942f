// SPDX-License-Identifier: Apache-2.0
// Normalises arbitrary text for upstream's schema: nothing may crash, hang or leak. A manifest
// that loads without errors still does once normalised, valid stays valid, the result does not
// change when normalised again, and text that does not load is returned as it is.
#include "core/bundle/bundle.h"
#include "core/model/manifest.h"
#include "core/model/validator.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const ccm::LoadedManifest before = ccm::loadManifest(text);
    const std::string once = ccm::normaliseForUpstream(text);
    if (!before.parsed || ccm::hasErrors(before.diagnostics)) {
        if (once != text)
            std::abort();
        return 0;
    }
    const ccm::LoadedManifest after = ccm::loadManifest(once);
    if (!after.parsed || ccm::hasErrors(after.diagnostics))
        std::abort();
    if (!ccm::hasErrors(ccm::validateManifest(before)) && ccm::hasErrors(ccm::validateManifest(after)))
        std::abort();
    if (ccm::normaliseForUpstream(once) != once)
        std::abort();
    return 0;
}
