// SPDX-License-Identifier: Apache-2.0
// Checks and extracts archives with many entries: prints the milliseconds of ArchiveEntryChecker on
// a large plain tree and on chains of links that each need the full hop budget, and of
// extractArchive on a tar of many small files and links (checked, staged and moved into place),
// beside `tar -xf` of the same archive. Processor time is printed too: on a shared machine the
// wall clock mostly measures the other processes.
#include "bench_timing.h"
#include "engine/resources/archive/archive_entry_checker.h"
#include "engine/resources/archive/http/archive_extraction.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

/// `prefix` followed by n, built by appending: "f" + std::to_string(n) trips GCC 12's -Wrestrict
/// false positive at -O3 (GCC bug 105329).
std::string numbered(const char *prefix, long long n)
{
    std::string text = prefix;
    text += std::to_string(n);
    return text;
}

using ccm::engine::ArchiveEntry;
using ccm::engine::ArchiveEntryChecker;
using ccm::engine::ArchiveEntryKind;

constexpr int kDirectories = 200;
constexpr int kFilesPerDirectory = 100;

std::vector<ArchiveEntry> plainTree()
{
    std::vector<ArchiveEntry> entries;
    for (int directory = 0; directory < kDirectories; ++directory) {
        const std::string name = "pkg/share/d" + std::to_string(directory);
        entries.push_back({ArchiveEntryKind::Directory, name + "/", {}});
        for (int file = 0; file < kFilesPerDirectory; ++file) {
            const std::string path = name + "/f" + std::to_string(file);
            entries.push_back({ArchiveEntryKind::File, path, {}});
            if (file % 10 == 0)
                entries.push_back({ArchiveEntryKind::SymbolicLink, path + ".link", numbered("f", file)});
        }
    }
    return entries;
}

/// Links l0 -> ., l1 -> l0/., ... each resolving through all links before it, up to the hop bound.
std::vector<ArchiveEntry> linkChains(int chains)
{
    std::vector<ArchiveEntry> entries;
    for (int chain = 0; chain < chains; ++chain) {
        const std::string directory = numbered("c", chain) + "/";
        entries.push_back({ArchiveEntryKind::SymbolicLink, directory + "l0", "."});
        for (std::size_t link = 1; link < ArchiveEntryChecker::kMaxLinkHops; ++link)
            entries.push_back(
                {ArchiveEntryKind::SymbolicLink, directory + numbered("l", link), numbered("l", link - 1) + "/."});
    }
    return entries;
}

/// The median wall-clock milliseconds of runs calls of work, and the processor milliseconds of one.
template<typename F> void report(const std::string &what, F &&work, int runs = 7)
{
    const std::clock_t start = std::clock();
    const double wall = ccm::bench::medianMilliseconds(work, runs);
    const double processor = 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / runs;
    std::printf("%s: %.1f ms (processor %.1f ms)\n", what.c_str(), wall, processor);
}

void check(const std::vector<ArchiveEntry> &entries)
{
    ArchiveEntryChecker checker("/opt/root");
    for (const ArchiveEntry &entry : entries) {
        if (!checker.add(entry)) {
            std::fprintf(stderr, "refused %s\n", entry.path.c_str());
            std::exit(1);
        }
    }
    if (!checker.finish()) {
        std::fprintf(stderr, "refused at the end\n");
        std::exit(1);
    }
}

} // namespace

int main()
{
    const std::vector<ArchiveEntry> tree = plainTree();
    report("checker, " + std::to_string(tree.size()) + " entries of a plain tree", [&] { check(tree); });
    const std::vector<ArchiveEntry> chains = linkChains(250);
    report("checker, " + std::to_string(chains.size()) + " links in chains of "
            + std::to_string(ArchiveEntryChecker::kMaxLinkHops),
        [&] { check(chains); });

    const std::filesystem::path work = std::filesystem::temp_directory_path() / "ccm-bench-archive";
    std::filesystem::remove_all(work);
    const std::filesystem::path source = work / "source";
    for (int directory = 0; directory < kDirectories / 4; ++directory) {
        const std::filesystem::path path = source / "pkg" / numbered("d", directory);
        std::filesystem::create_directories(path);
        for (int file = 0; file < kFilesPerDirectory; ++file) {
            std::ofstream(path / numbered("f", file)) << "content " << file << '\n';
            if (file % 10 == 0)
                std::filesystem::create_symlink(numbered("f", file), path / (numbered("f", file) + ".link"));
        }
    }
    const std::filesystem::path archive = work / "bench.tar";
    const std::string command = "tar -C '" + source.string() + "' -cf '" + archive.string() + "' pkg";
    if (std::system(command.c_str()) != 0) {
        std::fprintf(stderr, "cannot run %s\n", command.c_str());
        return 1;
    }
    const std::filesystem::path out = work / "out";
    report(
        "extractArchive, tar of pkg/ with 5000 files and 500 links into a new directory",
        [&] {
            std::filesystem::remove_all(out);
            if (auto summary = ccm::engine::extractArchive(archive, out, {}); !summary) {
                std::fprintf(stderr, "%s\n", summary.error().message.c_str());
                std::exit(1);
            }
        },
        3);
    const std::string untar
        = "mkdir -p '" + out.string() + "' && tar -C '" + out.string() + "' -xf '" + archive.string() + "'";
    report(
        "tar -xf of the same archive (its processor time not counted)",
        [&] {
            std::filesystem::remove_all(out);
            if (std::system(untar.c_str()) != 0)
                std::exit(1);
        },
        3);
    std::filesystem::remove_all(work);
    return 0;
}
