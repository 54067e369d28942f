// SPDX-License-Identifier: Apache-2.0
// Load, validate and save manifests of growing size; prints the median of several runs.
#include "bench_timing.h"
#include "core/model/manifest.h"
#include "core/model/manifest_writer.h"
#include "core/model/validator.h"

#include <cstdio>
#include <string>

namespace {

std::string manifestOf(int resources)
{
    std::string text = "data:\n  owner: root\nccm:\n  resources:\n    - file:\n"
                       "        - defaults:\n            owner: root\n            group: root\n";
    for (int i = 0; i < resources; ++i) {
        text += "        - /srv/app/conf.d/" + std::to_string(i) + ".conf:\n"
                "            ensure: present\n            mode: \"0644\"\n"
                "            content: |\n              key = " + std::to_string(i) + "\n              other = value\n"
                "            require:\n              - file#/srv/app/conf.d/" + std::to_string(i > 0 ? i - 1 : 0) + ".conf\n";
    }
    return text;
}

} // namespace

using ccm::bench::medianMilliseconds;

int main()
{
    std::printf("%10s %10s %12s %12s %12s\n", "resources", "bytes", "load ms", "validate ms", "save ms");
    for (int count : {100, 1000, 5000, 10000}) {
        const std::string text = manifestOf(count);
        const double load = medianMilliseconds([&] { (void)ccm::loadManifest(text); });
        const double validate = medianMilliseconds([&] { (void)ccm::validateManifestText(text); });
        const ccm::LoadedManifest loaded = ccm::loadManifest(text);
        const double save = medianMilliseconds([&] { (void)ccm::saveManifest(loaded.manifest); });
        std::printf("%10d %10zu %12.1f %12.1f %12.1f\n", count, text.size(), load, validate, save);
    }
    return 0;
}
