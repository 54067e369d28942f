// SPDX-License-Identifier: Apache-2.0
// Writes arbitrary bytes to a .tar.gz and unpacks it as a bundle, with small caps: nothing may
// crash, hang or leak; an unpacked bundle holds only regular files and directories below its own
// directory, with the manifest among them; and once the bundle is gone (refused or unpacked and
// dropped) the parent directory is empty again.
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

/// A directory per fuzzing process: the archive beside a parent the bundles unpack into.
class Workspace {
public:
    Workspace()
        : m_root(fs::temp_directory_path() / ("fuzz_bundle-" + std::to_string(getpid())))
    {
        fs::remove_all(m_root);
        fs::create_directories(m_root / "parent");
    }
    ~Workspace() { fs::remove_all(m_root); }
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    [[nodiscard]] fs::path archive() const { return m_root / "bundle.tar.gz"; }
    [[nodiscard]] fs::path parent() const { return m_root / "parent"; }

private:
    fs::path m_root;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const Workspace workspace;
    {
        std::ofstream out(workspace.archive(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
        if (!out)
            std::abort();
    }
    ccm::BundleLimits limits;
    limits.maxTotalBytes = 1024 * 1024;
    limits.maxMembers = 200;
    {
        auto bundle = ccm::UnpackedBundle::unpack(workspace.archive(), limits, workspace.parent());
        if (bundle) {
            const fs::path directory = bundle->directory();
            if (!fs::is_regular_file(fs::symlink_status(bundle->manifestPath())))
                std::abort();
            for (const fs::directory_entry &entry : fs::recursive_directory_iterator(directory)) {
                const fs::file_status status = entry.symlink_status();
                if (!fs::is_regular_file(status) && !fs::is_directory(status))
                    std::abort();
                const fs::path relative = entry.path().lexically_relative(directory);
                if (relative.empty() || *relative.begin() == "..")
                    std::abort();
            }
        }
    }
    if (!fs::is_empty(workspace.parent()))
        std::abort();
    return 0;
}
