// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/file_reading.h"
#include "base/result.h"
#include "base/utf8.h"
#include "core/model/json.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccm {

/// The built-in Linux facts, gathered natively (no external commands) within `budget`. Never throws.
///
/// The families are gathered in turn, each under its own top-level key: `host` {info}, `cpu` {info},
/// `memory` {virtual, swap}, `network` {interfaces, addresses, default_ipv4, default_ipv6} and
/// `partition` {partitions, usage}. Key names and value types follow gopsutil's JSON. A family that
/// fails, or that would start after the deadline, is null. Disk usage runs on a worker thread so
/// that a hung mount cannot hold the caller past the deadline; when it does not finish in time,
/// `partition.usage` alone is null.
///
/// `network.addresses` lists, as CCM does, every address that is not loopback, link-local,
/// multicast or unspecified, each as {interface, address (no prefix length), ipv4, default} where
/// `default` says whether the interface holds the default route of that address family.
/// `network.default_ipv4` and `network.default_ipv6` are the first address of that family (for
/// IPv6 the first that is not link-local) on the interface holding the default route, else null.
///
/// Partitions follow gopsutil's `all=false`: a mount is kept when its device is not "none" and its
/// file system type needs a block device (listed without `nodev` in /proc/filesystems) or is zfs.
Json gatherSystemFacts(std::chrono::milliseconds budget = std::chrono::seconds(2));

// The parsers below read the text of one system file each. They are pure, never throw, and
// tolerate odd content: unparsable numbers read as 0, malformed lines are skipped.

/// The distribution from /etc/os-release and, when present, /etc/debian_version.
struct Platform {
    std::string platform; ///< os-release ID, e.g. "debian", "ubuntu", "rocky"
    std::string family; ///< "debian", "rhel", "fedora", "suse", "arch", "alpine", "gentoo", ... or ""
    std::string version; ///< VERSION_ID, or the contents of /etc/debian_version on Debian itself
};

/// Reads os-release text. The family comes from ID, else from the first ID_LIKE entry with a known
/// family (a distribution merely like Fedora belongs to "rhel"; Fedora itself to "fedora").
Platform parsePlatform(std::string_view osRelease, std::optional<std::string_view> debianVersion);

/// One map per processor in /proc/cpuinfo: cpu (int), vendorId, family, model, stepping (int),
/// physicalId, coreId, cores (int), modelName, mhz (float), cacheSize (int, KB), flags (list),
/// microcode. Empty when no processor is listed.
Json parseCpuInfo(std::string_view cpuinfo);

/// {virtual, swap} from /proc/meminfo, sizes in bytes; nullopt when MemTotal is missing.
/// `virtual.used` is total - free - buffers - cached (cached including SReclaimable), as gopsutil.
std::optional<Json> parseMemInfo(std::string_view meminfo);

/// File system types that need a block device: the /proc/filesystems lines without `nodev`.
std::vector<std::string> parseBlockFileSystems(std::string_view filesystems);

/// The mounts of /proc/mounts kept by the rule of gatherSystemFacts, as
/// {device, mountpoint, fstype, opts (list)} with octal escapes such as \040 decoded.
Json parsePartitions(std::string_view mounts, const std::vector<std::string> &blockFileSystems);

/// The interface of the IPv4 default route in /proc/net/route (lowest metric), if any.
std::optional<std::string> parseDefaultRoute4(std::string_view route);

/// The interface of the IPv6 default route in /proc/net/ipv6_route (lowest metric, reject routes
/// and loopback left out), if any.
std::optional<std::string> parseDefaultRoute6(std::string_view ipv6Route);

/// What the system shows about running in a container or a virtual machine.
struct VirtualizationEvidence {
    bool dockerEnv = false; ///< /.dockerenv exists
    bool containerEnv = false; ///< /run/.containerenv exists (podman)
    std::string initCgroup; ///< /proc/1/cgroup
    std::string initEnviron; ///< /proc/1/environ (NUL separated)
    std::string cpuinfo; ///< /proc/cpuinfo, for the hypervisor flag and the model name
    std::string dmiVendor; ///< /sys/class/dmi/id/sys_vendor
    std::string dmiProduct; ///< /sys/class/dmi/id/product_name
    bool xen = false; ///< /proc/xen exists
};

/// {virtualizationSystem, virtualizationRole}: a container ("docker", "podman", "lxc", or the
/// `container=` value of init's environment) wins over a virtual machine; the role is "guest".
/// A virtual machine is recognised by /proc/xen or the CPU's hypervisor flag and named ("kvm",
/// "vmware", "vbox", "hyperv", "xen") from the DMI vendor and product or the CPU model name; one
/// that cannot be named gives ("", "guest"). Nothing found gives ("", "").
std::pair<std::string, std::string> detectVirtualization(const VirtualizationEvidence &evidence);

/// gopsutil's hostId: the DMI product UUID in lower case, else /etc/machine-id as a UUID
/// (8-4-4-4-12), else "".
std::string formatHostId(std::string_view productUuid, std::string_view machineId);

} // namespace ccm
