// SPDX-License-Identifier: Apache-2.0
// Feeds a manifest's data, hierarchy and overrides to Hiera resolution with fixed facts and
// external data: resolution may report problems but never crash, hang or leak, and resolving the
// same manifest twice gives the same data.
#include "core/hiera/hiera.h"
#include "core/model/manifest.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

const ccm::Json &facts()
{
    static const ccm::Json value = ccm::Json::parse(R"({"host": {"info": {"platformFamily": "debian",
        "platform": "debian", "hostname": "web1"}}, "role": "web", "empty": "", "count": 3,
        "tags": ["a", "b"]})");
    return value;
}

const ccm::Json &external()
{
    static const ccm::Json value = ccm::Json::parse(R"({"port": 8080, "limits": {"cpu": 4}})");
    return value;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    const ccm::LoadedManifest loaded = ccm::loadManifest(text);
    if (!loaded.parsed)
        return 0;
    const ccm::DataResolution first = ccm::resolveData(loaded, text, facts(), external());
    const ccm::DataResolution second = ccm::resolveData(loaded, text, facts(), external());
    if (first.ok() != second.ok() || first.data != second.data || first.appliedOverrides != second.appliedOverrides)
        std::abort();
    // Recording where values came from must not change them.
    ccm::DataProvenance provenance;
    const ccm::DataResolution recorded = ccm::resolveData(loaded, text, facts(), external(), &provenance);
    if (recorded.ok() != first.ok() || recorded.data != first.data)
        std::abort();
    (void)ccm::requiredDataPointers(loaded, text);
    (void)ccm::checkDataAnnotations(loaded, text);
    return 0;
}
