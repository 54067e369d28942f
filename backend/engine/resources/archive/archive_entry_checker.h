// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ccm::engine {

/// What an archive entry creates.
enum class ArchiveEntryKind { Directory, File, SymbolicLink, HardLink, Special };

/// One archive entry as its header describes it: the name as recorded and, for links, the target.
struct ArchiveEntry {
    ArchiveEntryKind kind = ArchiveEntryKind::File;
    std::string path;
    std::string target;
};

/// An accepted entry: its name below the extraction directory ("" for the directory itself) and,
/// for a hard link, the name below the directory of the file it links to.
struct CheckedArchiveEntry {
    std::string name;
    std::string hardLinkTarget;
};

/// Decides, without touching the disk, whether the entries of an archive may be extracted into a
/// directory whose real path is root. It keeps a model of the tree the accepted entries create
/// (directories, files and symbolic links with their targets) and judges each entry against it:
///
/// - names must be relative and free of `..`; no entry may pass through a symbolic link or a file
///   an earlier entry created, nor replace a link, or replace a directory or file by another kind;
/// - a symbolic link is resolved component by component from its directory, following the links
///   created before it (at most kMaxLinkHops of them); it is refused when it leaves root at any
///   point, absolute targets included, or needs more hops or work than the bounds below;
/// - a hard link must name a file an earlier entry created; devices, FIFOs and sockets are refused.
///
/// finish() resolves every link again against the complete tree, since a name created later can
/// change where an earlier link leads.
class ArchiveEntryChecker {
public:
    static constexpr std::size_t kMaxLinkHops = 40;
    /// Bounds on the work of resolving one link: names walked, and the length of the name reached.
    static constexpr std::size_t kMaxWalkedNames = 1024;
    static constexpr std::size_t kMaxPathLength = 4096;

    /// root: the absolute real path of the extraction directory, without symbolic links.
    explicit ArchiveEntryChecker(std::string root);

    /// Checks entry against the entries accepted so far and records it. The error names the entry.
    Result<CheckedArchiveEntry> add(const ArchiveEntry &entry);

    /// Checks every symbolic link against the complete tree; call after the last add().
    Result<void> finish() const;

    /// Where name (relative to root, or absolute) leads in the model, following symbolic links:
    /// the components below root, or nothing when it leaves root or needs too many link hops.
    std::optional<std::vector<std::string>> resolve(std::string_view name) const;

private:
    enum class NodeKind { Directory, File, SymbolicLink };
    struct Node {
        NodeKind kind;
        std::string target;
    };
    enum class Resolution { Inside, Outside, TooManyHops, TooLong };

    Resolution resolveFrom(std::vector<std::string> &location, std::string_view target) const;
    /// shown: the entry's name as the archive records it, for the message.
    Result<void> checkLink(const std::string &shown, const std::string &name, const std::string &target) const;
    /// Why an entry with these components cannot be written: a parent is a link or a file.
    std::optional<std::string> blockedParent(const std::vector<std::string> &parts) const;
    /// Why an entry of kind cannot replace what an earlier entry made of name.
    std::optional<std::string> unsafeReplacement(const std::string &name, ArchiveEntryKind kind) const;
    /// The model's node for a checked entry; records symbolic links and hard link targets.
    Result<Node> nodeFor(const ArchiveEntry &entry, CheckedArchiveEntry &checked);

    std::string m_root;
    std::vector<std::string> m_rootParts;
    std::unordered_map<std::string, Node> m_nodes;
    std::vector<std::string> m_links;
};

} // namespace ccm::engine
