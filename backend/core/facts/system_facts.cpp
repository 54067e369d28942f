// SPDX-License-Identifier: Apache-2.0
#include "core/facts/system_facts.h"

#include "base/c_handle.h"
#include "base/hex.h"
#include "base/text.h"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <future>
#include <ifaddrs.h>
#include <limits>
#include <linux/if_packet.h>
#include <map>
#include <memory>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace ccm {
namespace {

using Clock = std::chrono::steady_clock;

/// Large enough for /proc/cpuinfo of a machine with hundreds of processors.
constexpr std::size_t maxSystemFileBytes = 8 * 1024 * 1024;

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        lines.push_back(text.substr(0, end));
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

std::vector<std::string_view> splitWords(std::string_view text)
{
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isAsciiSpace(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isAsciiSpace(text[i]))
            ++i;
        if (i > start)
            words.push_back(text.substr(start, i - start));
    }
    return words;
}

std::optional<std::uint64_t> toUnsigned(std::string_view text, int base = 10)
{
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::int64_t toInteger(std::string_view text)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() ? value : 0;
}

double toReal(std::string_view text)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() ? value : 0.0;
}

double percentOf(std::uint64_t part, std::uint64_t whole)
{
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole) * 100.0;
}

/// A system file, or nullopt when it cannot be read; the text is made valid UTF-8.
std::optional<std::string> readSystemFile(const std::filesystem::path &path)
{
    auto text = readTextFile(path, maxSystemFileBytes);
    if (!text)
        return std::nullopt;
    return toValidUtf8(*text);
}

bool pathExists(const char *path)
{
    struct stat info { };
    return ::lstat(path, &info) == 0;
}

/// "key : value" as /proc/cpuinfo and /proc/meminfo write it; nullopt without a colon.
std::optional<std::pair<std::string_view, std::string_view>> splitColon(std::string_view line)
{
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    return std::pair {trimAsciiSpace(line.substr(0, colon)), trimAsciiSpace(line.substr(colon + 1))};
}

std::string familyOfId(std::string_view id)
{
    static const std::map<std::string_view, std::string_view> families {
        {"debian", "debian"},
        {"ubuntu", "debian"},
        {"linuxmint", "debian"},
        {"raspbian", "debian"},
        {"fedora", "fedora"},
        {"rhel", "rhel"},
        {"redhat", "rhel"},
        {"centos", "rhel"},
        {"rocky", "rhel"},
        {"almalinux", "rhel"},
        {"ol", "rhel"},
        {"oracle", "rhel"},
        {"scientific", "rhel"},
        {"amzn", "rhel"},
        {"amazon", "rhel"},
        {"cloudlinux", "rhel"},
        {"xenserver", "rhel"},
        {"suse", "suse"},
        {"sles", "suse"},
        {"sled", "suse"},
        {"sles_sap", "suse"},
        {"arch", "arch"},
        {"archarm", "arch"},
        {"manjaro", "arch"},
        {"endeavouros", "arch"},
        {"alpine", "alpine"},
        {"gentoo", "gentoo"},
        {"slackware", "slackware"},
        {"exherbo", "exherbo"},
        {"coreos", "coreos"},
        {"solus", "solus"},
    };
    if (id.substr(0, 8) == "opensuse")
        return "suse";
    const auto found = families.find(id);
    return found == families.end() ? std::string() : std::string(found->second);
}

std::string unquoteOsReleaseValue(std::string_view value)
{
    value = trimAsciiSpace(value);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
        value = value.substr(1, value.size() - 2);
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (value[i] == '\\' && i + 1 < value.size())
            ++i;
        out += value[i];
    }
    return out;
}

std::string formatMac(const unsigned char *bytes, std::size_t length)
{
    if (std::all_of(bytes, bytes + length, [](unsigned char b) { return b == 0; }))
        return {};
    std::string out;
    for (std::size_t i = 0; i < length; ++i) {
        if (i > 0)
            out += ':';
        appendHexByte(out, bytes[i]);
    }
    return out;
}

int prefixLength(const unsigned char *mask, std::size_t length)
{
    int bits = 0;
    for (std::size_t i = 0; i < length; ++i) {
        for (int bit = 7; bit >= 0; --bit)
            bits += (mask[i] >> bit) & 1;
    }
    return bits;
}

struct InterfaceAddress {
    std::string address; ///< without prefix length
    int prefix = 0;
    bool ipv4 = false;
    bool listed = false; ///< not loopback, link-local, multicast or unspecified
    bool linkLocal = false;
};

struct NetworkInterface {
    unsigned index = 0;
    std::string name;
    unsigned flags = 0;
    std::string hardwareAddr;
    std::vector<InterfaceAddress> addrs;
};

std::optional<InterfaceAddress> describeAddress(const sockaddr *address, const sockaddr *netmask)
{
    InterfaceAddress out;
    std::array<char, INET6_ADDRSTRLEN> text {};
    if (address->sa_family == AF_INET) {
        const auto *in = reinterpret_cast<const sockaddr_in *>(address);
        if (!::inet_ntop(AF_INET, &in->sin_addr, text.data(), text.size()))
            return std::nullopt;
        const std::uint32_t host = ntohl(in->sin_addr.s_addr);
        if (netmask) {
            const auto *mask = reinterpret_cast<const sockaddr_in *>(netmask);
            out.prefix = prefixLength(reinterpret_cast<const unsigned char *>(&mask->sin_addr), 4);
        }
        out.ipv4 = true;
        out.linkLocal = (host >> 16) == 0xA9FE;
        const bool loopback = (host >> 24) == 127;
        const bool multicast = (host >> 28) == 0xE;
        out.listed = !loopback && !out.linkLocal && !multicast && host != 0;
    } else if (address->sa_family == AF_INET6) {
        const auto *in6 = reinterpret_cast<const sockaddr_in6 *>(address);
        if (!::inet_ntop(AF_INET6, &in6->sin6_addr, text.data(), text.size()))
            return std::nullopt;
        if (netmask) {
            const auto *mask = reinterpret_cast<const sockaddr_in6 *>(netmask);
            out.prefix = prefixLength(mask->sin6_addr.s6_addr, 16);
        }
        const in6_addr &a = in6->sin6_addr;
        out.linkLocal = IN6_IS_ADDR_LINKLOCAL(&a);
        out.listed
            = !IN6_IS_ADDR_LOOPBACK(&a) && !out.linkLocal && !IN6_IS_ADDR_MULTICAST(&a) && !IN6_IS_ADDR_UNSPECIFIED(&a);
    } else {
        return std::nullopt;
    }
    out.address = text.data();
    return out;
}

std::optional<std::vector<NetworkInterface>> listInterfaces()
{
    ifaddrs *list = nullptr;
    if (::getifaddrs(&list) != 0)
        return std::nullopt;
    const CHandle<ifaddrs, ::freeifaddrs> guard(list);
    std::vector<NetworkInterface> interfaces;
    const auto entryFor = [&](const char *name) -> NetworkInterface & {
        for (NetworkInterface &known : interfaces) {
            if (known.name == name)
                return known;
        }
        NetworkInterface &added = interfaces.emplace_back();
        added.name = name;
        added.index = ::if_nametoindex(name);
        return added;
    };
    for (const ifaddrs *entry = list; entry; entry = entry->ifa_next) {
        if (!entry->ifa_name)
            continue;
        NetworkInterface &iface = entryFor(entry->ifa_name);
        iface.flags = entry->ifa_flags;
        if (!entry->ifa_addr)
            continue;
        if (entry->ifa_addr->sa_family == AF_PACKET) {
            const auto *link = reinterpret_cast<const sockaddr_ll *>(entry->ifa_addr);
            const std::size_t length = std::min<std::size_t>(link->sll_halen, sizeof link->sll_addr);
            iface.hardwareAddr = formatMac(link->sll_addr, length);
        } else if (auto address = describeAddress(entry->ifa_addr, entry->ifa_netmask)) {
            iface.addrs.push_back(std::move(*address));
        }
    }
    std::stable_sort(interfaces.begin(), interfaces.end(),
        [](const NetworkInterface &a, const NetworkInterface &b) { return a.index < b.index; });
    return interfaces;
}

Json flagNames(unsigned flags)
{
    static constexpr std::array<std::pair<unsigned, const char *>, 6> names {{
        {IFF_UP, "up"},
        {IFF_BROADCAST, "broadcast"},
        {IFF_LOOPBACK, "loopback"},
        {IFF_POINTOPOINT, "pointtopoint"},
        {IFF_MULTICAST, "multicast"},
        {IFF_RUNNING, "running"},
    }};
    Json out = Json::array();
    for (const auto &[bit, name] : names) {
        if (flags & bit)
            out.push_back(name);
    }
    return out;
}

Json defaultAddress(const std::vector<NetworkInterface> &interfaces, const std::optional<std::string> &name, bool ipv4)
{
    if (!name)
        return nullptr;
    for (const NetworkInterface &iface : interfaces) {
        if (iface.name != *name)
            continue;
        for (const InterfaceAddress &address : iface.addrs) {
            if (address.ipv4 == ipv4 && (ipv4 || !address.linkLocal))
                return address.address;
        }
    }
    return nullptr;
}

Json networkFamily()
{
    const auto found = listInterfaces();
    if (!found)
        return nullptr;
    const std::vector<NetworkInterface> &interfaces = *found;
    const auto route4 = readSystemFile("/proc/net/route");
    const auto route6 = readSystemFile("/proc/net/ipv6_route");
    const std::optional<std::string> default4 = route4 ? parseDefaultRoute4(*route4) : std::nullopt;
    const std::optional<std::string> default6 = route6 ? parseDefaultRoute6(*route6) : std::nullopt;

    Json list = Json::array();
    Json addresses = Json::array();
    for (const NetworkInterface &iface : interfaces) {
        const std::string name = toValidUtf8(iface.name);
        int mtu = 0;
        if (const auto text = readSystemFile("/sys/class/net/" + iface.name + "/mtu"))
            mtu = static_cast<int>(toInteger(trimAsciiSpace(*text)));
        Json addrs = Json::array();
        for (const InterfaceAddress &address : iface.addrs) {
            addrs.push_back(Json {{"addr", address.address + "/" + std::to_string(address.prefix)}});
            if (!address.listed)
                continue;
            const std::optional<std::string> &defaultInterface = address.ipv4 ? default4 : default6;
            addresses.push_back(Json {{"interface", name}, {"address", address.address}, {"ipv4", address.ipv4},
                {"default", defaultInterface == iface.name}});
        }
        list.push_back(Json {{"index", iface.index}, {"mtu", mtu}, {"name", name}, {"hardwareAddr", iface.hardwareAddr},
            {"flags", flagNames(iface.flags)}, {"addrs", std::move(addrs)}});
    }
    return Json {{"interfaces", std::move(list)}, {"addresses", std::move(addresses)},
        {"default_ipv4", defaultAddress(interfaces, default4, true)},
        {"default_ipv6", defaultAddress(interfaces, default6, false)}};
}

std::uint64_t countProcesses()
{
    std::uint64_t count = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
            ++count;
    }
    return count;
}

Json hostFamily()
{
    utsname names {};
    if (::uname(&names) != 0)
        return nullptr;
    std::uint64_t uptime = 0;
    if (const auto text = readSystemFile("/proc/uptime")) {
        const auto words = splitWords(*text);
        if (!words.empty())
            uptime = static_cast<std::uint64_t>(std::max(0.0, toReal(words.front())));
    }
    std::uint64_t bootTime = 0;
    if (const auto stat = readSystemFile("/proc/stat")) {
        for (std::string_view line : splitLines(*stat)) {
            const auto words = splitWords(line);
            if (words.size() == 2 && words[0] == "btime")
                bootTime = toUnsigned(words[1]).value_or(0);
        }
    }
    if (bootTime == 0) {
        const auto now = static_cast<std::uint64_t>(std::max<std::time_t>(0, std::time(nullptr)));
        bootTime = now > uptime ? now - uptime : 0;
    }

    auto osRelease = readSystemFile("/etc/os-release");
    if (!osRelease)
        osRelease = readSystemFile("/usr/lib/os-release");
    const auto debianVersion = readSystemFile("/etc/debian_version");
    const Platform platform = parsePlatform(osRelease.value_or(std::string()),
        debianVersion ? std::optional<std::string_view>(*debianVersion) : std::nullopt);

    VirtualizationEvidence evidence;
    evidence.dockerEnv = pathExists("/.dockerenv");
    evidence.containerEnv = pathExists("/run/.containerenv");
    evidence.initCgroup = readSystemFile("/proc/1/cgroup").value_or(std::string());
    evidence.initEnviron = readSystemFile("/proc/1/environ").value_or(std::string());
    evidence.cpuinfo = readSystemFile("/proc/cpuinfo").value_or(std::string());
    evidence.dmiVendor = readSystemFile("/sys/class/dmi/id/sys_vendor").value_or(std::string());
    evidence.dmiProduct = readSystemFile("/sys/class/dmi/id/product_name").value_or(std::string());
    evidence.xen = pathExists("/proc/xen");
    const auto [virtualizationSystem, virtualizationRole] = detectVirtualization(evidence);

    const std::string hostId = formatHostId(readSystemFile("/sys/class/dmi/id/product_uuid").value_or(std::string()),
        readSystemFile("/etc/machine-id").value_or(std::string()));

    return Json {{"info",
        Json {{"hostname", toValidUtf8(names.nodename)}, {"uptime", uptime}, {"bootTime", bootTime},
            {"procs", countProcesses()}, {"os", "linux"}, {"platform", platform.platform},
            {"platformFamily", platform.family}, {"platformVersion", platform.version},
            {"kernelVersion", toValidUtf8(names.release)}, {"kernelArch", toValidUtf8(names.machine)},
            {"virtualizationSystem", virtualizationSystem}, {"virtualizationRole", virtualizationRole},
            {"hostId", hostId}}}};
}

Json cpuFamily()
{
    const auto cpuinfo = readSystemFile("/proc/cpuinfo");
    if (!cpuinfo)
        return nullptr;
    return Json {{"info", parseCpuInfo(*cpuinfo)}};
}

Json memoryFamily()
{
    const auto meminfo = readSystemFile("/proc/meminfo");
    if (!meminfo)
        return nullptr;
    return parseMemInfo(*meminfo).value_or(Json());
}

struct Mount {
    std::string path;
    std::string fstype;
};

/// statvfs of every mount; runs on a worker thread, so it owns all it touches.
Json diskUsage(const std::vector<Mount> &mounts)
{
    Json usage = Json::array();
    for (const Mount &mount : mounts) {
        struct statvfs info { };
        if (::statvfs(mount.path.c_str(), &info) != 0)
            continue;
        const std::uint64_t fragment = info.f_frsize ? info.f_frsize : info.f_bsize;
        const std::uint64_t total = info.f_blocks * fragment;
        const std::uint64_t free = info.f_bavail * fragment;
        const std::uint64_t used = (info.f_blocks - std::min(info.f_bfree, info.f_blocks)) * fragment;
        const std::uint64_t inodesTotal = info.f_files;
        const std::uint64_t inodesFree = std::min<std::uint64_t>(info.f_ffree, inodesTotal);
        usage.push_back(Json {{"path", mount.path}, {"fstype", mount.fstype}, {"total", total}, {"free", free},
            {"used", used}, {"usedPercent", percentOf(used, used + free)}, {"inodesTotal", inodesTotal},
            {"inodesUsed", inodesTotal - inodesFree}, {"inodesFree", inodesFree},
            {"inodesUsedPercent", percentOf(inodesTotal - inodesFree, inodesTotal)}});
    }
    return usage;
}

/// Disk usage within the deadline, or null. A worker stuck in statvfs on a hung mount is left
/// behind; it holds only its own copy of the mounts and the promise, so it is safe to outlive us.
Json diskUsageUntil(std::vector<Mount> mounts, Clock::time_point deadline)
{
    std::promise<Json> promise;
    std::future<Json> future = promise.get_future();
    std::thread worker([mounts = std::move(mounts), promise = std::move(promise)]() mutable {
        try {
            promise.set_value(diskUsage(mounts));
        } catch (...) {
            promise.set_value(Json());
        }
    });
    worker.detach();
    if (future.wait_until(deadline) != std::future_status::ready)
        return nullptr;
    return future.get();
}

Json partitionFamily(Clock::time_point deadline)
{
    auto mounts = readSystemFile("/proc/self/mounts");
    if (!mounts)
        mounts = readSystemFile("/proc/mounts");
    if (!mounts)
        return nullptr;
    const auto filesystems = readSystemFile("/proc/filesystems");
    Json partitions
        = parsePartitions(*mounts, filesystems ? parseBlockFileSystems(*filesystems) : std::vector<std::string>());
    std::vector<Mount> targets;
    for (const Json &partition : partitions)
        targets.push_back(Mount {partition["mountpoint"].get<std::string>(), partition["fstype"].get<std::string>()});
    return Json {{"partitions", std::move(partitions)}, {"usage", diskUsageUntil(std::move(targets), deadline)}};
}

} // namespace

Platform parsePlatform(std::string_view osRelease, std::optional<std::string_view> debianVersion)
{
    const std::string text = toValidUtf8(osRelease);
    std::string id;
    std::string idLike;
    std::string versionId;
    for (std::string_view line : splitLines(text)) {
        line = trimAsciiSpace(line);
        const std::size_t equals = line.find('=');
        if (line.empty() || line.front() == '#' || equals == std::string_view::npos)
            continue;
        const std::string_view key = trimAsciiSpace(line.substr(0, equals));
        if (key == "ID")
            id = lower(unquoteOsReleaseValue(line.substr(equals + 1)));
        else if (key == "ID_LIKE")
            idLike = lower(unquoteOsReleaseValue(line.substr(equals + 1)));
        else if (key == "VERSION_ID")
            versionId = unquoteOsReleaseValue(line.substr(equals + 1));
    }
    Platform platform;
    platform.platform = id;
    platform.family = familyOfId(id);
    if (platform.family.empty()) {
        for (std::string_view like : splitWords(idLike)) {
            const std::string family = familyOfId(like);
            if (!family.empty()) {
                platform.family = family == "fedora" ? "rhel" : family;
                break;
            }
        }
    }
    platform.version = versionId;
    if (id == "debian" && debianVersion) {
        const std::string version(trimAsciiSpace(toValidUtf8(*debianVersion)));
        if (!version.empty())
            platform.version = version;
    }
    return platform;
}

Json parseCpuInfo(std::string_view cpuinfo)
{
    const std::string text = toValidUtf8(cpuinfo);
    Json processors = Json::array();
    std::optional<Json> current;
    const auto finish = [&] {
        if (current)
            processors.push_back(std::move(*current));
        current.reset();
    };
    for (std::string_view line : splitLines(text)) {
        const auto field = splitColon(line);
        if (!field)
            continue;
        const auto [key, value] = *field;
        if (key == "processor") {
            finish();
            const auto number = toUnsigned(value);
            current = Json {{"cpu",
                                number && *number <= 1'000'000 ? static_cast<std::int64_t>(*number)
                                                               : static_cast<std::int64_t>(processors.size())},
                {"vendorId", ""}, {"family", ""}, {"model", ""}, {"stepping", 0}, {"physicalId", ""}, {"coreId", ""},
                {"cores", 1}, {"modelName", ""}, {"mhz", 0.0}, {"cacheSize", 0}, {"flags", Json::array()},
                {"microcode", ""}};
            continue;
        }
        if (!current)
            continue;
        Json &cpu = *current;
        if (key == "vendor_id" || key == "CPU implementer")
            cpu["vendorId"] = value;
        else if (key == "cpu family")
            cpu["family"] = value;
        else if (key == "model")
            cpu["model"] = value;
        else if (key == "model name")
            cpu["modelName"] = value;
        else if (key == "stepping")
            cpu["stepping"] = toInteger(value);
        else if (key == "physical id")
            cpu["physicalId"] = value;
        else if (key == "core id")
            cpu["coreId"] = value;
        else if (key == "cpu cores")
            cpu["cores"] = toInteger(value);
        else if (key == "cpu MHz")
            cpu["mhz"] = toReal(value);
        else if (key == "cache size") {
            const auto words = splitWords(value);
            cpu["cacheSize"] = words.empty() ? 0 : toInteger(words.front());
        } else if (key == "flags" || key == "Features") {
            Json flags = Json::array();
            for (std::string_view flag : splitWords(value))
                flags.push_back(flag);
            cpu["flags"] = std::move(flags);
        } else if (key == "microcode")
            cpu["microcode"] = value;
    }
    finish();
    return processors;
}

namespace {

using MemInfoValues = std::map<std::string, std::uint64_t, std::less<>>;

/// The numeric fields of /proc/meminfo in bytes; lines that are not a number are left out.
MemInfoValues readMemInfoValues(std::string_view meminfo)
{
    MemInfoValues values;
    for (std::string_view line : splitLines(meminfo)) {
        const auto field = splitColon(line);
        if (!field)
            continue;
        const auto words = splitWords(field->second);
        if (words.empty())
            continue;
        const auto number = toUnsigned(words[0]);
        if (!number)
            continue;
        std::uint64_t value = *number;
        if (words.size() > 1 && words[1] == "kB") {
            if (value > std::numeric_limits<std::uint64_t>::max() / 1024)
                continue;
            value *= 1024;
        }
        values[std::string(field->first)] = value;
    }
    return values;
}

/// The virtual memory fact names copied from a meminfo field; nullptr stands for the page cache.
constexpr std::array<std::pair<const char *, const char *>, 32> kCopiedMemInfoFields {{
    {"active", "Active"},
    {"inactive", "Inactive"},
    {"buffers", "Buffers"},
    {"cached", nullptr},
    {"writeBack", "Writeback"},
    {"dirty", "Dirty"},
    {"writeBackTmp", "WritebackTmp"},
    {"shared", "Shmem"},
    {"slab", "Slab"},
    {"sreclaimable", "SReclaimable"},
    {"sunreclaim", "SUnreclaim"},
    {"pageTables", "PageTables"},
    {"swapCached", "SwapCached"},
    {"commitLimit", "CommitLimit"},
    {"committedAS", "Committed_AS"},
    {"highTotal", "HighTotal"},
    {"highFree", "HighFree"},
    {"lowTotal", "LowTotal"},
    {"lowFree", "LowFree"},
    {"swapTotal", "SwapTotal"},
    {"swapFree", "SwapFree"},
    {"mapped", "Mapped"},
    {"vmallocTotal", "VmallocTotal"},
    {"vmallocUsed", "VmallocUsed"},
    {"vmallocChunk", "VmallocChunk"},
    {"hugePagesTotal", "HugePages_Total"},
    {"hugePagesFree", "HugePages_Free"},
    {"hugePagesRsvd", "HugePages_Rsvd"},
    {"hugePagesSurp", "HugePages_Surp"},
    {"hugePageSize", "Hugepagesize"},
    {"anonHugePages", "AnonHugePages"},
    {"mlocked", "Mlocked"},
}};

} // namespace

std::optional<Json> parseMemInfo(std::string_view meminfo)
{
    const MemInfoValues values = readMemInfoValues(meminfo);
    if (!values.count("MemTotal"))
        return std::nullopt;
    const auto get = [&](std::string_view key) {
        const auto found = values.find(key);
        return found == values.end() ? std::uint64_t(0) : found->second;
    };
    const auto difference = [](std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; };

    const std::uint64_t total = get("MemTotal");
    const std::uint64_t free = get("MemFree");
    const std::uint64_t buffers = get("Buffers");
    const std::uint64_t cached = get("Cached") + get("SReclaimable");
    const std::uint64_t available = values.count("MemAvailable") ? get("MemAvailable") : free + buffers + cached;
    const std::uint64_t reclaimable = free + buffers + cached;
    const std::uint64_t used = reclaimable <= total ? total - reclaimable : difference(total, free);

    Json virtualMemory {{"total", total}, {"available", available}, {"used", used},
        {"usedPercent", percentOf(used, total)}, {"free", free}};
    for (const auto &[name, source] : kCopiedMemInfoFields)
        virtualMemory[name] = source ? get(source) : cached;

    const std::uint64_t swapTotal = get("SwapTotal");
    const std::uint64_t swapFree = std::min(get("SwapFree"), swapTotal);
    Json swap {{"total", swapTotal}, {"used", swapTotal - swapFree}, {"free", swapFree},
        {"usedPercent", percentOf(swapTotal - swapFree, swapTotal)}};
    return Json {{"virtual", std::move(virtualMemory)}, {"swap", std::move(swap)}};
}

std::vector<std::string> parseBlockFileSystems(std::string_view filesystems)
{
    std::vector<std::string> names;
    for (std::string_view line : splitLines(filesystems)) {
        const auto words = splitWords(line);
        if (words.size() == 1 && words[0] != "nodev")
            names.push_back(toValidUtf8(words[0]));
    }
    return names;
}

namespace {

/// /proc/mounts writes space, tab, newline and backslash in paths as \040, \011, \012 and \134.
std::string decodeMountField(std::string_view field)
{
    std::string out;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            const auto code = toUnsigned(field.substr(i + 1, 3), 8);
            if (code && *code < 256) {
                out += static_cast<char>(*code);
                i += 3;
                continue;
            }
        }
        out += field[i];
    }
    return toValidUtf8(out);
}

} // namespace

Json parsePartitions(std::string_view mounts, const std::vector<std::string> &blockFileSystems)
{
    Json partitions = Json::array();
    for (std::string_view line : splitLines(mounts)) {
        const auto fields = splitWords(line);
        if (fields.size() < 4)
            continue;
        const std::string device = decodeMountField(fields[0]);
        const std::string fstype = decodeMountField(fields[2]);
        const bool blockBacked = blockFileSystems.empty() ? !device.empty() && device.front() == '/'
                                                          : fstype == "zfs"
                || std::find(blockFileSystems.begin(), blockFileSystems.end(), fstype) != blockFileSystems.end();
        if (device == "none" || !blockBacked)
            continue;
        Json opts = Json::array();
        std::string_view rest = fields[3];
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            const std::string_view option = rest.substr(0, comma);
            if (!option.empty())
                opts.push_back(decodeMountField(option));
            if (comma == std::string_view::npos)
                break;
            rest.remove_prefix(comma + 1);
        }
        partitions.push_back(Json {{"device", device}, {"mountpoint", decodeMountField(fields[1])}, {"fstype", fstype},
            {"opts", std::move(opts)}});
    }
    return partitions;
}

std::optional<std::string> parseDefaultRoute4(std::string_view route)
{
    constexpr std::uint64_t routeUp = 0x1;
    std::optional<std::string> best;
    std::uint64_t bestMetric = std::numeric_limits<std::uint64_t>::max();
    for (std::string_view line : splitLines(route)) {
        const auto fields = splitWords(line);
        if (fields.size() < 8 || fields[0] == "Iface")
            continue;
        const auto destination = toUnsigned(fields[1], 16);
        const auto mask = toUnsigned(fields[7], 16);
        const std::uint64_t flags = toUnsigned(fields[3], 16).value_or(0);
        if (destination != 0u || mask != 0u || !(flags & routeUp))
            continue;
        const std::uint64_t metric = toUnsigned(fields[6]).value_or(std::numeric_limits<std::uint64_t>::max());
        if (!best || metric < bestMetric) {
            best = toValidUtf8(fields[0]);
            bestMetric = metric;
        }
    }
    return best;
}

std::optional<std::string> parseDefaultRoute6(std::string_view ipv6Route)
{
    constexpr std::uint64_t routeUp = 0x1;
    constexpr std::uint64_t routeReject = 0x200;
    std::optional<std::string> best;
    std::uint64_t bestMetric = std::numeric_limits<std::uint64_t>::max();
    for (std::string_view line : splitLines(ipv6Route)) {
        const auto fields = splitWords(line);
        if (fields.size() < 10)
            continue;
        const bool anyDestination = fields[0].size() == 32
            && std::all_of(fields[0].begin(), fields[0].end(), [](char c) { return c == '0'; });
        const std::uint64_t flags = toUnsigned(fields[8], 16).value_or(0);
        if (!anyDestination || toUnsigned(fields[1], 16) != 0u || !(flags & routeUp) || (flags & routeReject)
            || fields[9] == "lo")
            continue;
        const std::uint64_t metric = toUnsigned(fields[5], 16).value_or(std::numeric_limits<std::uint64_t>::max());
        if (!best || metric < bestMetric) {
            best = toValidUtf8(fields[9]);
            bestMetric = metric;
        }
    }
    return best;
}

std::pair<std::string, std::string> detectVirtualization(const VirtualizationEvidence &evidence)
{
    if (evidence.dockerEnv)
        return {"docker", "guest"};
    if (evidence.containerEnv)
        return {"podman", "guest"};
    std::string_view initEnviron = evidence.initEnviron;
    while (!initEnviron.empty()) {
        const std::size_t end = initEnviron.find('\0');
        const std::string_view entry = initEnviron.substr(0, end);
        constexpr std::string_view prefix = "container=";
        if (entry.substr(0, prefix.size()) == prefix && entry.size() > prefix.size())
            return {toValidUtf8(entry.substr(prefix.size())), "guest"};
        if (end == std::string_view::npos)
            break;
        initEnviron.remove_prefix(end + 1);
    }
    const std::string_view cgroup = evidence.initCgroup;
    if (cgroup.find("/docker") != std::string_view::npos || cgroup.find("docker-") != std::string_view::npos)
        return {"docker", "guest"};
    if (cgroup.find("libpod") != std::string_view::npos)
        return {"podman", "guest"};
    if (cgroup.find("/lxc") != std::string_view::npos || cgroup.find("lxc.payload") != std::string_view::npos)
        return {"lxc", "guest"};
    if (evidence.xen)
        return {"xen", "guest"};

    bool hypervisor = false;
    std::string modelName;
    for (std::string_view line : splitLines(evidence.cpuinfo)) {
        const auto field = splitColon(line);
        if (!field)
            continue;
        if (field->first == "flags") {
            const auto flags = splitWords(field->second);
            hypervisor = hypervisor || std::find(flags.begin(), flags.end(), "hypervisor") != flags.end();
        } else if (field->first == "model name" && modelName.empty()) {
            modelName = field->second;
        }
    }
    const std::string signature = lower(evidence.dmiVendor + " " + evidence.dmiProduct + " " + modelName);
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> hypervisors {{
        {"qemu", "kvm"},
        {"kvm", "kvm"},
        {"vmware", "vmware"},
        {"virtualbox", "vbox"},
        {"innotek", "vbox"},
        {"microsoft", "hyperv"},
        {"xen", "xen"},
    }};
    if (!hypervisor)
        return {"", ""};
    for (const auto &[needle, name] : hypervisors) {
        if (signature.find(needle) != std::string::npos)
            return {std::string(name), "guest"};
    }
    return {"", "guest"};
}

std::string formatHostId(std::string_view productUuid, std::string_view machineId)
{
    const std::string uuid = lower(trimAsciiSpace(toValidUtf8(productUuid)));
    if (!uuid.empty())
        return uuid;
    const std::string id = lower(trimAsciiSpace(toValidUtf8(machineId)));
    if (id.size() != 32)
        return {};
    return id.substr(0, 8) + "-" + id.substr(8, 4) + "-" + id.substr(12, 4) + "-" + id.substr(16, 4) + "-"
        + id.substr(20);
}

Json gatherSystemFacts(std::chrono::milliseconds budget)
{
    try {
        const Clock::time_point deadline = Clock::now() + budget;
        Json facts = Json::object();
        const auto gather = [&](const char *family, auto &&gatherFamily) {
            facts[family] = nullptr;
            if (Clock::now() >= deadline)
                return;
            try {
                facts[family] = gatherFamily();
            } catch (...) {
                facts[family] = nullptr;
            }
        };
        gather("host", hostFamily);
        gather("cpu", cpuFamily);
        gather("memory", memoryFamily);
        gather("network", networkFamily);
        gather("partition", [deadline] { return partitionFamily(deadline); });
        return facts;
    } catch (...) {
        return Json();
    }
}

} // namespace ccm
