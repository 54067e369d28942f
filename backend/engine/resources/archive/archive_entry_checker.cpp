// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/archive/archive_entry_checker.h"

#include <algorithm>
#include <utility>

namespace ccm::engine {

namespace {

std::vector<std::string> components(std::string_view path)
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

/// The name below the extraction directory an entry is written to: leading "./" dropped, empty for
/// the directory itself. An Error for names that leave the directory.
Result<std::string> relativeName(const std::string &name)
{
    if (!name.empty() && name.front() == '/')
        return Error {"unsafe_entry", "is an absolute path"};
    std::string relative;
    for (const std::string &part : components(name)) {
        if (part == "..")
            return Error {"unsafe_entry", "has a '..' component"};
        if (part.empty() || part == ".")
            continue;
        relative += (relative.empty() ? "" : "/") + part;
    }
    return relative;
}

/// A location being walked, with the model's key for it kept up to date as components come and
/// go, and the key's length before each component: a step costs the length of one name, not of the
/// whole path.
class WalkedLocation {
public:
    explicit WalkedLocation(std::vector<std::string> &location)
        : m_location(location)
    {
        std::vector<std::string> start;
        start.swap(m_location);
        for (std::string &part : start)
            enter(std::move(part));
    }

    void enter(std::string part)
    {
        m_lengths.push_back(m_key.size());
        m_key += (m_key.empty() ? "" : "/") + part;
        m_location.push_back(std::move(part));
    }

    void leave()
    {
        m_key.resize(m_lengths.back());
        m_lengths.pop_back();
        m_location.pop_back();
    }

    void clear()
    {
        m_location.clear();
        m_key.clear();
        m_lengths.clear();
    }

    [[nodiscard]] const std::string &key() const { return m_key; }

private:
    std::vector<std::string> &m_location;
    std::string m_key;
    std::vector<std::size_t> m_lengths;
};

/// Queues target's components on pending, the next one last. False when an absolute target does
/// not start with root.
bool pushComponents(std::string_view target, const std::vector<std::string> &rootParts, WalkedLocation &walked,
    std::vector<std::string> &pending)
{
    std::vector<std::string> parts;
    for (std::string &part : components(target)) {
        if (!part.empty() && part != ".")
            parts.push_back(std::move(part));
    }
    if (!target.empty() && target.front() == '/') {
        // An absolute target starts over at the root of the filesystem, so it must name root
        // itself before anything else; root has no links and no "..".
        if (parts.size() < rootParts.size() || !std::equal(rootParts.begin(), rootParts.end(), parts.begin()))
            return false;
        walked.clear();
        parts.erase(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(rootParts.size()));
    }
    pending.insert(pending.end(), std::make_move_iterator(parts.rbegin()), std::make_move_iterator(parts.rend()));
    return true;
}

Error unsafeEntry(const ArchiveEntry &entry, const std::string &why)
{
    return Error {"unsafe_entry", "entry '" + entry.path + "' " + why};
}

} // namespace

ArchiveEntryChecker::ArchiveEntryChecker(std::string root)
    : m_root(std::move(root))
{
    for (std::string &part : components(m_root)) {
        if (!part.empty() && part != ".")
            m_rootParts.push_back(std::move(part));
    }
    m_nodes.emplace(std::string(), Node {NodeKind::Directory, {}});
}

ArchiveEntryChecker::Resolution ArchiveEntryChecker::resolveFrom(
    std::vector<std::string> &location, std::string_view target) const
{
    WalkedLocation walked(location);
    // Components still to walk, the next one last.
    std::vector<std::string> pending;
    if (!pushComponents(target, m_rootParts, walked, pending))
        return Resolution::Outside;
    std::size_t hops = 0;
    std::size_t steps = 0;
    while (!pending.empty()) {
        // Hostile archives can make each hop longer than the last; no real one comes near this.
        if (++steps > kMaxWalkedNames || walked.key().size() > kMaxPathLength)
            return Resolution::TooLong;
        std::string part = std::move(pending.back());
        pending.pop_back();
        if (part == "..") {
            if (location.empty())
                return Resolution::Outside;
            walked.leave();
            continue;
        }
        walked.enter(std::move(part));
        // Names the model does not know, and files, are walked as names: a later ".." steps back
        // out of them, which is the furthest the kernel could get.
        const auto node = m_nodes.find(walked.key());
        if (node == m_nodes.end() || node->second.kind != NodeKind::SymbolicLink)
            continue;
        if (++hops > kMaxLinkHops)
            return Resolution::TooManyHops;
        walked.leave();
        if (!pushComponents(node->second.target, m_rootParts, walked, pending))
            return Resolution::Outside;
    }
    return Resolution::Inside;
}

std::optional<std::vector<std::string>> ArchiveEntryChecker::resolve(std::string_view name) const
{
    std::vector<std::string> location;
    if (resolveFrom(location, name) != Resolution::Inside)
        return std::nullopt;
    return location;
}

Result<void> ArchiveEntryChecker::checkLink(
    const std::string &shown, const std::string &name, const std::string &target) const
{
    const auto refuse = [&](const std::string &why) {
        return Error {"unsafe_entry", "entry '" + shown + "' is a symbolic link to '" + target + "', which " + why};
    };
    if (target.empty())
        return refuse("is empty");
    std::vector<std::string> location = components(name);
    location.pop_back();
    switch (resolveFrom(location, target)) {
    case Resolution::Inside:
        return {};
    case Resolution::Outside:
        return refuse("is outside " + m_root + " once the archive's links are followed");
    case Resolution::TooManyHops:
        return refuse("passes through more than " + std::to_string(kMaxLinkHops) + " symbolic links");
    case Resolution::TooLong:
        return refuse("takes more than " + std::to_string(kMaxWalkedNames) + " steps or a name longer than "
            + std::to_string(kMaxPathLength) + " bytes to follow");
    }
    return {};
}

std::optional<std::string> ArchiveEntryChecker::blockedParent(const std::vector<std::string> &parts) const
{
    std::string parent;
    for (std::size_t count = 1; count < parts.size(); ++count) {
        parent += (count == 1 ? "" : "/") + parts[count - 1];
        const auto node = m_nodes.find(parent);
        if (node == m_nodes.end() || node->second.kind == NodeKind::Directory)
            continue;
        if (node->second.kind == NodeKind::SymbolicLink)
            return "passes through the symbolic link '" + parent + "' an earlier entry created";
        return "passes through '" + parent + "', which an earlier entry created as a file";
    }
    return std::nullopt;
}

std::optional<std::string> ArchiveEntryChecker::unsafeReplacement(const std::string &name, ArchiveEntryKind kind) const
{
    const auto existing = m_nodes.find(name);
    if (existing == m_nodes.end())
        return std::nullopt;
    const bool isFile = kind == ArchiveEntryKind::File || kind == ArchiveEntryKind::HardLink;
    if (existing->second.kind == NodeKind::SymbolicLink)
        return "replaces the symbolic link an earlier entry created";
    if (existing->second.kind == NodeKind::Directory && kind != ArchiveEntryKind::Directory)
        return "replaces the directory an earlier entry created";
    if (existing->second.kind == NodeKind::File && !isFile)
        return "replaces the file an earlier entry created";
    return std::nullopt;
}

Result<ArchiveEntryChecker::Node> ArchiveEntryChecker::nodeFor(const ArchiveEntry &entry, CheckedArchiveEntry &checked)
{
    const auto refuse = [&entry](const std::string &why) { return unsafeEntry(entry, why); };
    Node node {NodeKind::File, {}};
    switch (entry.kind) {
    case ArchiveEntryKind::Directory:
        node.kind = NodeKind::Directory;
        break;
    case ArchiveEntryKind::File:
    case ArchiveEntryKind::Special:
        break;
    case ArchiveEntryKind::HardLink: {
        auto target = relativeName(entry.target);
        if (!target)
            return refuse("is a hard link to '" + entry.target + "', which " + target.error().message);
        if (target.value().empty())
            return refuse("is a hard link to the extraction directory itself");
        if (target.value() == checked.name)
            return refuse("is a hard link to itself");
        // A name through a link is never in the model, so this also refuses links through links.
        const auto linked = m_nodes.find(target.value());
        if (linked == m_nodes.end() || linked->second.kind != NodeKind::File)
            return refuse("is a hard link to '" + entry.target + "', which no earlier entry created as a file");
        checked.hardLinkTarget = target.value();
        break;
    }
    case ArchiveEntryKind::SymbolicLink:
        if (auto inside = checkLink(entry.path, checked.name, entry.target); !inside)
            return inside.error();
        node = Node {NodeKind::SymbolicLink, entry.target};
        m_links.push_back(checked.name);
        break;
    }
    return node;
}

Result<CheckedArchiveEntry> ArchiveEntryChecker::add(const ArchiveEntry &entry)
{
    const auto refuse = [&entry](const std::string &why) { return unsafeEntry(entry, why); };
    auto relative = relativeName(entry.path);
    if (!relative)
        return refuse(relative.error().message);
    if (entry.kind == ArchiveEntryKind::Special)
        return refuse("is a device, FIFO or socket; only files, directories and links are extracted");
    CheckedArchiveEntry checked {relative.value(), {}};
    if (checked.name.empty()) {
        if (entry.kind != ArchiveEntryKind::Directory)
            return refuse("would replace the extraction directory itself");
        return checked;
    }

    // No entry is written through a link or below a file: its parents are directories or new.
    const std::vector<std::string> parts = components(checked.name);
    if (auto blocked = blockedParent(parts))
        return refuse(*blocked);
    // Earlier links were judged with what this name was then; only a repeated directory, or a file
    // replaced by a file, keeps every one of those judgements true.
    if (auto unsafe = unsafeReplacement(checked.name, entry.kind))
        return refuse(*unsafe);
    auto node = nodeFor(entry, checked);
    if (!node)
        return node.error();

    std::string directory;
    for (std::size_t count = 1; count < parts.size(); ++count) {
        directory += (count == 1 ? "" : "/") + parts[count - 1];
        m_nodes.try_emplace(directory, Node {NodeKind::Directory, {}});
    }
    m_nodes.insert_or_assign(checked.name, std::move(node).value());
    return checked;
}

Result<void> ArchiveEntryChecker::finish() const
{
    for (const std::string &link : m_links) {
        if (auto inside = checkLink(link, link, m_nodes.at(link).target); !inside)
            return Error {inside.error().code, inside.error().message + ", with the entries after it"};
    }
    return {};
}

} // namespace ccm::engine
