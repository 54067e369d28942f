// SPDX-License-Identifier: Apache-2.0
// Feeds sequences of archive entries to ArchiveEntryChecker and checks what it accepts with an
// independent, kernel-like resolver over the tree those entries build: no accepted entry is
// written through a link or a file, and no accepted symbolic link resolves outside the root.
//
// Input: one entry a line, "<kind><path>\t<target>", kind d (directory), f (file), l (symbolic
// link), h (hard link) or s (device); the root is /r/root, so absolute targets can name it.
#include "engine/resources/archive/archive_entry_checker.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using ccm::engine::ArchiveEntry;
using ccm::engine::ArchiveEntryChecker;
using ccm::engine::ArchiveEntryKind;

constexpr std::size_t kMaxEntries = 64;
const std::vector<std::string> kRoot {"r", "root"};

std::vector<std::string> split(std::string_view path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        parts.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

/// The tree the accepted entries build, keyed by absolute path, with the kernel's way of walking it.
struct Tree {
    struct Node {
        char kind;
        std::string target;
    };
    std::map<std::vector<std::string>, Node> nodes;

    static bool insideRoot(const std::vector<std::string> &path)
    {
        return path.size() >= kRoot.size() && std::equal(kRoot.begin(), kRoot.end(), path.begin());
    }

    /// Where path leads from directory, as the kernel walks it; nothing when the walk fails (a
    /// missing directory, a file used as one, too many links). Outside the root every name is
    /// taken to be a plain directory.
    std::optional<std::vector<std::string>> walk(std::vector<std::string> directory, std::string_view path) const
    {
        std::vector<std::string> pending;
        std::size_t hops = 0;
        const auto push = [&](std::string_view text) {
            if (!text.empty() && text.front() == '/')
                directory.clear();
            const std::vector<std::string> parts = split(text);
            pending.insert(pending.end(), parts.rbegin(), parts.rend());
        };
        push(path);
        while (!pending.empty()) {
            const std::string part = pending.back();
            pending.pop_back();
            if (part.empty() || part == ".")
                continue;
            if (part == "..") {
                if (!directory.empty())
                    directory.pop_back();
                continue;
            }
            directory.push_back(part);
            if (!insideRoot(directory) || directory.size() == kRoot.size())
                continue;
            const auto node = nodes.find(directory);
            const bool last = pending.empty();
            if (node == nodes.end()) {
                if (!last)
                    return std::nullopt;
                continue;
            }
            if (node->second.kind == 'l') {
                if (++hops > ArchiveEntryChecker::kMaxLinkHops)
                    return std::nullopt;
                directory.pop_back();
                push(node->second.target);
                continue;
            }
            if (node->second.kind != 'd' && !last)
                return std::nullopt;
        }
        return directory;
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(bytes), size);
    ArchiveEntryChecker checker("/r/root");
    Tree tree;
    std::vector<std::vector<std::string>> links;
    std::size_t start = 0;
    for (std::size_t count = 0; start < input.size() && count < kMaxEntries; ++count) {
        const std::size_t end = std::min(input.find('\n', start), input.size());
        const std::string_view line = input.substr(start, end - start);
        start = end + 1;
        if (line.empty())
            continue;
        ArchiveEntry entry;
        switch (line.front()) {
        case 'd':
            entry.kind = ArchiveEntryKind::Directory;
            break;
        case 'l':
            entry.kind = ArchiveEntryKind::SymbolicLink;
            break;
        case 'h':
            entry.kind = ArchiveEntryKind::HardLink;
            break;
        case 's':
            entry.kind = ArchiveEntryKind::Special;
            break;
        default:
            entry.kind = ArchiveEntryKind::File;
            break;
        }
        const std::string_view rest = line.substr(1);
        const std::size_t tab = rest.find('\t');
        entry.path = std::string(rest.substr(0, tab));
        if (tab != std::string_view::npos)
            entry.target = std::string(rest.substr(tab + 1));

        auto checked = checker.add(entry);
        if (!checked)
            continue;
        if (checked.value().name.empty())
            continue;
        std::vector<std::string> where = kRoot;
        for (std::string &part : split(checked.value().name))
            where.push_back(std::move(part));

        // The entry's directories are directories or new: nothing is written through a link or a file.
        for (std::size_t length = kRoot.size() + 1; length < where.size(); ++length) {
            const auto node = tree.nodes.find(std::vector<std::string>(where.begin(), where.begin() + length));
            if (node != tree.nodes.end() && node->second.kind != 'd')
                std::abort();
        }
        // A hard link names a file the archive created.
        if (entry.kind == ArchiveEntryKind::HardLink) {
            std::vector<std::string> linked = kRoot;
            for (std::string &part : split(checked.value().hardLinkTarget))
                linked.push_back(std::move(part));
            const auto node = tree.nodes.find(linked);
            if (node == tree.nodes.end() || node->second.kind != 'f')
                std::abort();
        }
        for (std::size_t length = kRoot.size() + 1; length < where.size(); ++length)
            tree.nodes.try_emplace(
                std::vector<std::string>(where.begin(), where.begin() + length), Tree::Node {'d', {}});
        const char kind = entry.kind == ArchiveEntryKind::Directory ? 'd'
            : entry.kind == ArchiveEntryKind::SymbolicLink          ? 'l'
                                                                    : 'f';
        tree.nodes.insert_or_assign(where, Tree::Node {kind, entry.target});
        if (kind == 'l')
            links.push_back(where);
    }
    if (!checker.finish())
        return 0;
    // Every link of an accepted archive, followed to its end, stays below the root.
    for (const std::vector<std::string> &link : links) {
        const std::vector<std::string> directory(link.begin(), link.end() - 1);
        const auto target = tree.walk(directory, tree.nodes.at(link).target);
        if (target && !Tree::insideRoot(*target))
            std::abort();
    }
    return 0;
}
