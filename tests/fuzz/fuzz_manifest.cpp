// SPDX-License-Identifier: Apache-2.0
// Writes arbitrary bytes to a manifest file and reads it the way the CLI does (file reading, YAML,
// the loader, the validator): nothing may crash, hang or leak. A manifest that loads without
// errors is written back in the canonical layout, and that text must load again to an equal model
// and be written back to the same bytes.
#include "core/model/manifest.h"
#include "core/model/manifest_writer.h"
#include "core/model/validator.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

/// One file per fuzzing process, rewritten for every input and removed at exit.
class ManifestFile {
public:
    ManifestFile()
        : m_path(
            (std::filesystem::temp_directory_path() / ("fuzz_manifest-" + std::to_string(getpid()) + ".yaml")).string())
    {
    }
    ~ManifestFile() { std::remove(m_path.c_str()); }
    ManifestFile(const ManifestFile &) = delete;
    ManifestFile &operator=(const ManifestFile &) = delete;

    const std::string &write(const std::uint8_t *bytes, std::size_t size)
    {
        std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(bytes), static_cast<std::streamsize>(size));
        out.close();
        if (!out)
            std::abort();
        return m_path;
    }

private:
    std::string m_path;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    static ManifestFile file;
    const ccm::FileText read = ccm::readManifestFile(file.write(bytes, size));
    if (read.problem)
        return 0;
    if (read.text != std::string_view(reinterpret_cast<const char *>(bytes), size))
        std::abort();

    const ccm::LoadedManifest loaded = ccm::loadManifest(read.text);
    (void)ccm::validateManifest(loaded);
    if (!loaded.parsed || ccm::hasErrors(loaded.diagnostics))
        return 0;

    const std::string saved = ccm::saveManifest(loaded.manifest);
    const ccm::LoadedManifest reloaded = ccm::loadManifest(saved);
    if (!reloaded.parsed || ccm::hasErrors(reloaded.diagnostics) || !(reloaded.manifest == loaded.manifest))
        std::abort();
    if (ccm::saveManifest(reloaded.manifest) != saved)
        std::abort();
    return 0;
}
