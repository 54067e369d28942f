// SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as a capture from a peer (the daemon's host.capture result, an agent's answer
// to `fleet capture`) and writes what was accepted as YAML: nothing may crash, hang or leak. An
// accepted capture encodes back to JSON that reads again, and its YAML loads as a manifest.
#include "core/capture/captured_manifest.h"
#include "core/model/manifest.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    if (ccm::jsonNestingBeyond(text, 64))
        return 0;
    const ccm::Json json = ccm::parseJson(text, false);
    if (json.is_discarded())
        return 0;
    ccm::CaptureLimits limits;
    limits.maxFiles = 64;
    limits.maxPackages = 64;
    limits.maxServices = 64;
    limits.maxFileBytes = 4096;
    limits.maxTotalBytes = 16384;
    const auto capture = ccm::captureFromJson(json, limits);
    if (!capture) {
        if (capture.error().code != "bad_capture")
            std::abort();
        return 0;
    }
    if (!ccm::captureFromJson(ccm::captureToJson(*capture), limits))
        std::abort();
    const ccm::LoadedManifest loaded = ccm::loadManifest(ccm::captureToYaml(*capture));
    if (!loaded.parsed)
        std::abort();
    return 0;
}
