// SPDX-License-Identifier: Apache-2.0
#include "core/facts/facts.h"
#include "test_main.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ccm;
using namespace ccm::test;

namespace {

Json parseJsonText(const QString &text)
{
    return Json::parse(text.toStdString());
}

/// Creates files under root from entries "relative/path=content"; "link->target" makes a symlink
/// and "dir/" a directory.
void createTree(const QString &root, const QStringList &entries)
{
    for (const QString &entry : entries) {
        const qsizetype arrow = entry.indexOf(QStringLiteral("->"));
        const qsizetype equals = entry.indexOf(QLatin1Char('='));
        if (arrow >= 0 && (equals < 0 || arrow < equals)) {
            const QString link = root + QLatin1Char('/') + entry.left(arrow);
            QDir().mkpath(QFileInfo(link).path());
            QVERIFY(QFile::link(entry.mid(arrow + 2), link));
        } else if (equals < 0) {
            QVERIFY(QDir().mkpath(root + QLatin1Char('/') + entry));
        } else {
            const QString path = root + QLatin1Char('/') + entry.left(equals);
            QDir().mkpath(QFileInfo(path).path());
            QVERIFY(writeFile(path, entry.mid(equals + 1).toUtf8()));
        }
    }
}

FactSources sourcesWithout(const QString &root, int directories)
{
    FactSources sources;
    sources.includeSystem = false;
    sources.customDirectories.clear();
    for (int i = 1; i <= directories; ++i)
        sources.customDirectories.push_back((root + QStringLiteral("/%1").arg(i)).toStdString());
    return sources;
}

bool hasKind(const Json &value, const QString &kind)
{
    if (kind == QLatin1String("string"))
        return value.is_string();
    if (kind == QLatin1String("integer"))
        return value.is_number_integer();
    if (kind == QLatin1String("number"))
        return value.is_number();
    if (kind == QLatin1String("list"))
        return value.is_array();
    if (kind == QLatin1String("map"))
        return value.is_object();
    return false;
}

} // namespace

class TestFacts : public QObject {
    Q_OBJECT

private:
    Json m_system;

private Q_SLOTS:
    void initTestCase() { m_system = gatherSystemFacts(); }

    void hostInfo_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("kind");
        const QStringList strings {QStringLiteral("hostname"), QStringLiteral("os"), QStringLiteral("platform"),
            QStringLiteral("platformFamily"), QStringLiteral("platformVersion"), QStringLiteral("kernelVersion"),
            QStringLiteral("kernelArch"), QStringLiteral("virtualizationSystem"), QStringLiteral("virtualizationRole"),
            QStringLiteral("hostId")};
        for (const QString &key : strings)
            QTest::newRow(qPrintable(key)) << key << QStringLiteral("string");
        for (const char *key : {"uptime", "bootTime", "procs"})
            QTest::newRow(key) << QString::fromLatin1(key) << QStringLiteral("integer");
    }

    void hostInfo()
    {
        QFETCH(QString, key);
        QFETCH(QString, kind);
        const Json &info = m_system["host"]["info"];
        QVERIFY2(info.contains(key.toStdString()), qPrintable(key));
        QVERIFY2(hasKind(info.at(key.toStdString()), kind), info.at(key.toStdString()).dump().c_str());
    }

    void hostValuesOnThisMachine()
    {
        Json &info = m_system["host"]["info"];
        QCOMPARE(q(info["os"].get<std::string>()), QStringLiteral("linux"));
        QCOMPARE(q(info["platformFamily"].get<std::string>()), QStringLiteral("debian"));
        QCOMPARE(q(info["platform"].get<std::string>()), QStringLiteral("debian"));
        QVERIFY(!info["hostname"].get<std::string>().empty());
        QVERIFY(!info["kernelVersion"].get<std::string>().empty());
        QVERIFY(info["procs"].get<std::int64_t>() > 0);
        QVERIFY(info["bootTime"].get<std::int64_t>() > 0);
    }

    void cpuInfo_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("kind");
        for (const char *key : {"vendorId", "family", "model", "modelName", "physicalId", "coreId", "microcode"})
            QTest::newRow(key) << QString::fromLatin1(key) << QStringLiteral("string");
        for (const char *key : {"cpu", "cores", "cacheSize", "stepping"})
            QTest::newRow(key) << QString::fromLatin1(key) << QStringLiteral("integer");
        QTest::newRow("mhz") << QStringLiteral("mhz") << QStringLiteral("number");
        QTest::newRow("flags") << QStringLiteral("flags") << QStringLiteral("list");
    }

    void cpuInfo()
    {
        QFETCH(QString, key);
        QFETCH(QString, kind);
        const Json &processors = m_system["cpu"]["info"];
        QVERIFY(processors.is_array());
        QVERIFY(!processors.empty());
        for (const Json &processor : processors) {
            QVERIFY2(processor.contains(key.toStdString()), processor.dump().c_str());
            QVERIFY2(hasKind(processor.at(key.toStdString()), kind), processor.dump().c_str());
        }
        QVERIFY(!processors.at(0).at("modelName").get<std::string>().empty());
    }

    void memory()
    {
        Json &memory = m_system["memory"];
        QVERIFY(memory["virtual"]["total"].get<std::uint64_t>() > 0);
        QVERIFY(memory["virtual"]["available"].get<std::uint64_t>() <= memory["virtual"]["total"].get<std::uint64_t>());
        QVERIFY(memory["virtual"]["usedPercent"].is_number_float());
        for (const char *key : {"total", "used", "free", "usedPercent"})
            QVERIFY2(memory["swap"].contains(key), key);
    }

    void partitions()
    {
        Json &partition = m_system["partition"];
        bool root = false;
        for (Json &entry : partition["partitions"]) {
            QVERIFY(entry["device"].is_string());
            QVERIFY(entry["fstype"].is_string());
            QVERIFY(entry["opts"].is_array());
            root = root || entry["mountpoint"] == "/";
        }
        QVERIFY2(root, partition.dump().c_str());
        bool rootUsage = false;
        for (Json &usage : partition["usage"]) {
            if (usage["path"] == "/") {
                rootUsage = true;
                QVERIFY(usage["total"].get<std::uint64_t>() > 0);
                QVERIFY(usage["usedPercent"].is_number());
            }
        }
        QVERIFY2(rootUsage, partition.dump().c_str());
    }

    void network()
    {
        Json &network = m_system["network"];
        Json *loopback = nullptr;
        for (Json &iface : network["interfaces"]) {
            for (const char *key : {"index", "mtu", "name", "hardwareAddr", "flags", "addrs"})
                QVERIFY2(iface.contains(key), key);
            if (iface["name"] == "lo")
                loopback = &iface;
        }
        QVERIFY2(loopback, network.dump().c_str());
        QVERIFY((*loopback)["index"].get<int>() > 0);
        QVERIFY((*loopback)["flags"].is_array());
        QVERIFY(std::find((*loopback)["flags"].begin(), (*loopback)["flags"].end(), "loopback")
            != (*loopback)["flags"].end());
        const Json &addrs = (*loopback)["addrs"];
        QVERIFY2(
            std::find(addrs.begin(), addrs.end(), Json {{"addr", "127.0.0.1/8"}}) != addrs.end(), addrs.dump().c_str());
        for (Json &address : network["addresses"]) {
            QVERIFY(address["address"] != "127.0.0.1");
            QVERIFY(address["ipv4"].is_boolean());
        }
        QVERIFY(network["default_ipv4"].is_null() || network["default_ipv4"].is_string());
        QVERIFY(network["default_ipv6"].is_null() || network["default_ipv6"].is_string());
    }

    void budgetSpentLeavesFamiliesNull()
    {
        const Json facts = gatherSystemFacts(std::chrono::milliseconds(0));
        for (const char *family : {"host", "cpu", "memory", "network", "partition"}) {
            QVERIFY2(facts.contains(family), family);
            QVERIFY2(facts[family].is_null(), family);
        }
    }

    void platform_data()
    {
        QTest::addColumn<QString>("osRelease");
        QTest::addColumn<QString>("debianVersion"); // null: no /etc/debian_version
        QTest::addColumn<QString>("platform");
        QTest::addColumn<QString>("family");
        QTest::addColumn<QString>("version");
        QTest::newRow("debian prefers debian_version")
            << QStringLiteral("ID=debian\nVERSION_ID=\"12\"\n") << QStringLiteral("12.11\n") << QStringLiteral("debian")
            << QStringLiteral("debian") << QStringLiteral("12.11");
        QTest::newRow("debian without debian_version")
            << QStringLiteral("ID=debian\nVERSION_ID=\"12\"\n") << QString() << QStringLiteral("debian")
            << QStringLiteral("debian") << QStringLiteral("12");
        QTest::newRow("ubuntu ignores debian_version")
            << QStringLiteral("NAME=\"Ubuntu\"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID=\"24.04\"\n")
            << QStringLiteral("trixie/sid") << QStringLiteral("ubuntu") << QStringLiteral("debian")
            << QStringLiteral("24.04");
        QTest::newRow("rocky") << QStringLiteral("ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\nVERSION_ID=\"9.3\"")
                               << QString() << QStringLiteral("rocky") << QStringLiteral("rhel")
                               << QStringLiteral("9.3");
        QTest::newRow("fedora") << QStringLiteral("ID=fedora\nVERSION_ID=40\n") << QString() << QStringLiteral("fedora")
                                << QStringLiteral("fedora") << QStringLiteral("40");
        QTest::newRow("fedora-like") << QStringLiteral("ID=nobara\nID_LIKE=\"fedora\"\nVERSION_ID=39\n") << QString()
                                     << QStringLiteral("nobara") << QStringLiteral("rhel") << QStringLiteral("39");
        QTest::newRow("opensuse") << QStringLiteral(
            "ID=\"opensuse-leap\"\nID_LIKE=\"suse opensuse\"\nVERSION_ID=\"15.5\"")
                                  << QString() << QStringLiteral("opensuse-leap") << QStringLiteral("suse")
                                  << QStringLiteral("15.5");
        QTest::newRow("sles") << QStringLiteral("ID=\"sles\"\nVERSION_ID=\"15.4\"") << QString()
                              << QStringLiteral("sles") << QStringLiteral("suse") << QStringLiteral("15.4");
        QTest::newRow("manjaro") << QStringLiteral("ID=manjaro\nID_LIKE=arch\n") << QString()
                                 << QStringLiteral("manjaro") << QStringLiteral("arch") << QString();
        QTest::newRow("alpine") << QStringLiteral("ID=alpine\nVERSION_ID=3.19.1\n") << QString()
                                << QStringLiteral("alpine") << QStringLiteral("alpine") << QStringLiteral("3.19.1");
        QTest::newRow("like skips unknown")
            << QStringLiteral("ID=pop\nID_LIKE=\"pop-base ubuntu debian\"\n") << QString() << QStringLiteral("pop")
            << QStringLiteral("debian") << QString();
        QTest::newRow("unknown") << QStringLiteral("ID=plan9\n") << QString() << QStringLiteral("plan9") << QString()
                                 << QString();
        QTest::newRow("upper case id") << QStringLiteral("ID=Debian\n") << QString() << QStringLiteral("debian")
                                       << QStringLiteral("debian") << QString();
        QTest::newRow("comments and junk") << QStringLiteral("# ID=arch\njunk\n=x\nID='gentoo'\n") << QString()
                                           << QStringLiteral("gentoo") << QStringLiteral("gentoo") << QString();
        QTest::newRow("empty") << QString() << QString() << QString() << QString() << QString();
    }

    void platform()
    {
        QFETCH(QString, osRelease);
        QFETCH(QString, debianVersion);
        QFETCH(QString, platform);
        QFETCH(QString, family);
        QFETCH(QString, version);
        const std::string debian = debianVersion.toStdString();
        const Platform parsed = parsePlatform(
            osRelease.toStdString(), debianVersion.isNull() ? std::nullopt : std::optional<std::string_view>(debian));
        QCOMPARE(q(parsed.platform), platform);
        QCOMPARE(q(parsed.family), family);
        QCOMPARE(q(parsed.version), version);
    }

    void cpuInfoParsing_data()
    {
        QTest::addColumn<QString>("cpuinfo");
        QTest::addColumn<QString>("expected"); // JSON list of the fields to check, one map per processor
        QTest::newRow("x86 two processors")
            << QStringLiteral(
                   "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
                   "model name\t: Intel(R) Xeon(R) CPU @ 2.00GHz\nstepping\t: 7\ncpu MHz\t\t: 2000.170\n"
                   "cache size\t: 39424 KB\ncpu cores\t: 2\nflags\t\t: fpu vme sse2\n\n"
                   "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.00GHz\n"
                   "cpu MHz\t\t: 1999.5\ncache size\t: 39424 KB\ncpu cores\t: 2\nflags\t\t: fpu\n")
            << QStringLiteral("[{\"cpu\":0,\"vendorId\":\"GenuineIntel\",\"family\":\"6\",\"model\":\"85\","
                              "\"modelName\":\"Intel(R) Xeon(R) CPU @ 2.00GHz\",\"stepping\":7,\"mhz\":2000.17,"
                              "\"cacheSize\":39424,\"cores\":2,\"flags\":[\"fpu\",\"vme\",\"sse2\"]},"
                              "{\"cpu\":1,\"mhz\":1999.5,\"flags\":[\"fpu\"],\"family\":\"\"}]");
        QTest::newRow("arm features")
            << QStringLiteral("processor : 0\nBogoMIPS : 50.00\nFeatures : fp asimd evtstrm\nCPU implementer : 0x41\n")
            << QStringLiteral("[{\"cpu\":0,\"vendorId\":\"0x41\",\"flags\":[\"fp\",\"asimd\",\"evtstrm\"],"
                              "\"cores\":1,\"mhz\":0.0,\"modelName\":\"\"}]");
        QTest::newRow("odd numbers read as zero") << QStringLiteral(
            "processor : x\ncpu MHz : fast\ncache size : lots\ncpu cores : 99999999999999999999\n"
            "stepping :\n") << QStringLiteral("[{\"cpu\":0,\"mhz\":0.0,\"cacheSize\":0,\"cores\":0,\"stepping\":0}]");
        QTest::newRow("lines before the first processor")
            << QStringLiteral("model name : orphan\nno colon here\n") << QStringLiteral("[]");
        QTest::newRow("empty") << QString() << QStringLiteral("[]");
    }

    void cpuInfoParsing()
    {
        QFETCH(QString, cpuinfo);
        QFETCH(QString, expected);
        const Json parsed = parseCpuInfo(cpuinfo.toStdString());
        const Json wanted = parseJsonText(expected);
        QCOMPARE(parsed.size(), wanted.size());
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            for (const auto &[key, value] : wanted[i].items())
                QVERIFY2(parsed[i][key] == value, (key + ": " + parsed[i].dump()).c_str());
        }
    }

    void memInfoParsing()
    {
        const std::string meminfo = "MemTotal:       1000 kB\nMemFree:         100 kB\nMemAvailable:    600 kB\n"
                                    "Buffers:          50 kB\nCached:          200 kB\nSReclaimable:     50 kB\n"
                                    "Shmem:            10 kB\nHugePages_Total:   3\nSwapTotal:       400 kB\n"
                                    "SwapFree:        100 kB\nbroken line\nDirty: lots kB\n";
        const auto parsed = parseMemInfo(meminfo);
        QVERIFY(parsed);
        const Json &virtualMemory = (*parsed)["virtual"];
        QCOMPARE(virtualMemory["total"].get<std::uint64_t>(), 1000u * 1024);
        QCOMPARE(virtualMemory["free"].get<std::uint64_t>(), 100u * 1024);
        QCOMPARE(virtualMemory["available"].get<std::uint64_t>(), 600u * 1024);
        QCOMPARE(virtualMemory["cached"].get<std::uint64_t>(), 250u * 1024);
        QCOMPARE(virtualMemory["used"].get<std::uint64_t>(), 600u * 1024);
        QCOMPARE(virtualMemory["usedPercent"].get<double>(), 60.0);
        QCOMPARE(virtualMemory["shared"].get<std::uint64_t>(), 10u * 1024);
        QCOMPARE(virtualMemory["hugePagesTotal"].get<std::uint64_t>(), 3u);
        QCOMPARE(virtualMemory["dirty"].get<std::uint64_t>(), 0u);
        const Json &swap = (*parsed)["swap"];
        QCOMPARE(swap["total"].get<std::uint64_t>(), 400u * 1024);
        QCOMPARE(swap["used"].get<std::uint64_t>(), 300u * 1024);
        QCOMPARE(swap["free"].get<std::uint64_t>(), 100u * 1024);
        QCOMPARE(swap["usedPercent"].get<double>(), 75.0);
    }

    void memInfoEdgeCases_data()
    {
        QTest::addColumn<QString>("meminfo");
        QTest::addColumn<bool>("parsed");
        QTest::addColumn<qint64>("used");
        QTest::addColumn<double>("swapPercent");
        QTest::newRow("no MemTotal") << QStringLiteral("MemFree: 10 kB\n") << false << qint64(0) << 0.0;
        QTest::newRow("empty") << QString() << false << qint64(0) << 0.0;
        QTest::newRow("overflowing total")
            << QStringLiteral("MemTotal: 99999999999999999999999 kB\n") << false << qint64(0) << 0.0;
        QTest::newRow("no swap") << QStringLiteral("MemTotal: 10 kB\nMemFree: 4 kB\n") << true << qint64(6 * 1024)
                                 << 0.0;
        QTest::newRow("caches larger than total")
            << QStringLiteral("MemTotal: 10 kB\nMemFree: 4 kB\nCached: 50 kB\n") << true << qint64(6 * 1024) << 0.0;
        QTest::newRow("swap free above total")
            << QStringLiteral("MemTotal: 10 kB\nSwapTotal: 5 kB\nSwapFree: 9 kB\n") << true << qint64(10 * 1024) << 0.0;
    }

    void memInfoEdgeCases()
    {
        QFETCH(QString, meminfo);
        QFETCH(bool, parsed);
        QFETCH(qint64, used);
        QFETCH(double, swapPercent);
        const auto result = parseMemInfo(meminfo.toStdString());
        QCOMPARE(result.has_value(), parsed);
        if (!parsed)
            return;
        QCOMPARE(static_cast<qint64>((*result)["virtual"]["used"].get<std::uint64_t>()), used);
        QCOMPARE((*result)["swap"]["usedPercent"].get<double>(), swapPercent);
    }

    void partitionParsing_data()
    {
        QTest::addColumn<QString>("mounts");
        QTest::addColumn<QStringList>("blockFileSystems");
        QTest::addColumn<QString>("expected");
        const QString mounts = QStringLiteral("proc /proc proc rw,relatime 0 0\n"
                                              "/dev/vda1 / ext4 rw,relatime,discard 0 0\n"
                                              "tmpfs /run tmpfs rw,nosuid 0 0\n"
                                              "/dev/vdb1 /srv/my\\040data xfs ro 0 0\n"
                                              "none /mnt/odd ext4 rw 0 0\n"
                                              "tank/home /home zfs rw,xattr 0 0\n"
                                              "server:/export /mnt/nfs nfs4 rw 0 0\n"
                                              "short line\n");
        QTest::newRow("block file systems")
            << mounts << QStringList {QStringLiteral("ext4"), QStringLiteral("xfs")}
            << QStringLiteral(
                   "[{\"device\":\"/dev/vda1\",\"mountpoint\":\"/\",\"fstype\":\"ext4\",\"opts\":[\"rw\",\"relatime\","
                   "\"discard\"]},{\"device\":\"/dev/vdb1\",\"mountpoint\":\"/srv/my data\",\"fstype\":\"xfs\","
                   "\"opts\":[\"ro\"]},{\"device\":\"tank/home\",\"mountpoint\":\"/home\",\"fstype\":\"zfs\","
                   "\"opts\":[\"rw\",\"xattr\"]}]");
        QTest::newRow("without /proc/filesystems devices starting with /")
            << mounts << QStringList()
            << QStringLiteral(
                   "[{\"device\":\"/dev/vda1\",\"mountpoint\":\"/\",\"fstype\":\"ext4\",\"opts\":[\"rw\",\"relatime\","
                   "\"discard\"]},{\"device\":\"/dev/vdb1\",\"mountpoint\":\"/srv/my data\",\"fstype\":\"xfs\","
                   "\"opts\":[\"ro\"]}]");
        QTest::newRow("escapes") << QStringLiteral("/dev/sda1 /a\\011b\\134c\\012d\\999\\04 ext4 rw 0 0\n")
                                 << QStringList {QStringLiteral("ext4")}
                                 << QStringLiteral(
                                        "[{\"device\":\"/dev/sda1\",\"mountpoint\":\"/a\\tb\\\\c\\nd\\\\999\\\\04\","
                                        "\"fstype\":\"ext4\",\"opts\":[\"rw\"]}]");
        QTest::newRow("invalid utf-8 replaced")
            << QStringLiteral("/dev/sda1 /x\\377 ext4 rw 0 0\n") << QStringList {QStringLiteral("ext4")}
            << QStringLiteral("[{\"device\":\"/dev/sda1\",\"mountpoint\":\"/x\uFFFD\","
                              "\"fstype\":\"ext4\",\"opts\":[\"rw\"]}]");
        QTest::newRow("empty") << QString() << QStringList {QStringLiteral("ext4")} << QStringLiteral("[]");
    }

    void partitionParsing()
    {
        QFETCH(QString, mounts);
        QFETCH(QStringList, blockFileSystems);
        QFETCH(QString, expected);
        std::vector<std::string> types;
        for (const QString &type : blockFileSystems)
            types.push_back(type.toStdString());
        const Json parsed = parsePartitions(mounts.toStdString(), types);
        QVERIFY2(parsed == parseJsonText(expected), parsed.dump().c_str());
    }

    void blockFileSystems()
    {
        const auto names = parseBlockFileSystems("nodev\tsysfs\nnodev\tproc\n\text4\n\txfs\n\nnodev\n");
        QCOMPARE(names, (std::vector<std::string> {"ext4", "xfs"}));
    }

    void defaultRoutes_data()
    {
        QTest::addColumn<QString>("route4");
        QTest::addColumn<QString>("route6");
        QTest::addColumn<QString>("interface4"); // empty: none
        QTest::addColumn<QString>("interface6");
        const QString header
            = QStringLiteral("Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n");
        QTest::newRow("one default each")
            << header
                + QStringLiteral("eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
                                 "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n")
            << QStringLiteral("fd000000000000000000000000000000 40 00000000000000000000000000000000 00 "
                              "00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0\n"
                              "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                              "fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0\n"
                              "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                              "00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo\n")
            << QStringLiteral("eth0") << QStringLiteral("eth0");
        QTest::newRow("lowest metric wins")
            << header
                + QStringLiteral("wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
                                 "eth1\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n")
            << QStringLiteral("00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                              "fe800000000000000000000000000001 00000258 00000001 00000000 00450003    wlan0\n"
                              "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                              "fe800000000000000000000000000001 00000064 00000001 00000000 00450003     eth1\n")
            << QStringLiteral("eth1") << QStringLiteral("eth1");
        QTest::newRow("route down or not default")
            << header
                + QStringLiteral("eth0\t00000000\t010200C0\t0002\t0\t0\t0\t00000000\t0\t0\t0\n"
                                 "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n")
            << QStringLiteral("00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                              "00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo\n"
                              "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                              "00000000000000000000000000000000 00000001 00000001 00000000 00000201     eth0\n")
            << QString() << QString();
        QTest::newRow("garbage") << QStringLiteral("eth0 zz yy xx\n\n\t\n")
                                 << QStringLiteral("not a route table at all\n") << QString() << QString();
        QTest::newRow("empty") << QString() << QString() << QString() << QString();
    }

    void defaultRoutes()
    {
        QFETCH(QString, route4);
        QFETCH(QString, route6);
        QFETCH(QString, interface4);
        QFETCH(QString, interface6);
        QCOMPARE(q(parseDefaultRoute4(route4.toStdString()).value_or("")), interface4);
        QCOMPARE(q(parseDefaultRoute6(route6.toStdString()).value_or("")), interface6);
    }

    void virtualization_data()
    {
        QTest::addColumn<bool>("dockerEnv");
        QTest::addColumn<bool>("containerEnv");
        QTest::addColumn<QString>("cgroup");
        QTest::addColumn<QString>("initEnviron");
        QTest::addColumn<QString>("cpuinfo");
        QTest::addColumn<QString>("dmiVendor");
        QTest::addColumn<bool>("xen");
        QTest::addColumn<QString>("system");
        QTest::addColumn<QString>("role");
        const QString hypervisorCpu
            = QStringLiteral("processor : 0\nmodel name : AMD EPYC\nflags : fpu hypervisor sse\n");
        const QString bareCpu = QStringLiteral("processor : 0\nmodel name : AMD EPYC\nflags : fpu sse\n");
        QTest::newRow("dockerenv") << true << false << QString() << QString() << hypervisorCpu << QString() << false
                                   << QStringLiteral("docker") << QStringLiteral("guest");
        QTest::newRow("containerenv") << false << true << QString() << QString() << bareCpu << QString() << false
                                      << QStringLiteral("podman") << QStringLiteral("guest");
        QTest::newRow("init environ") << false << false << QString()
                                      << QStringLiteral("PATH=/bin\0container=lxc\0TERM=xterm\0") << bareCpu
                                      << QString() << false << QStringLiteral("lxc") << QStringLiteral("guest");
        QTest::newRow("docker cgroup") << false << false << QStringLiteral("12:pids:/docker/0123abcd\n") << QString()
                                       << bareCpu << QString() << false << QStringLiteral("docker")
                                       << QStringLiteral("guest");
        QTest::newRow("lxc cgroup") << false << false << QStringLiteral("0::/lxc.payload.web\n") << QString() << bareCpu
                                    << QString() << false << QStringLiteral("lxc") << QStringLiteral("guest");
        QTest::newRow("xen") << false << false << QStringLiteral("0::/\n") << QString() << bareCpu << QString() << true
                             << QStringLiteral("xen") << QStringLiteral("guest");
        QTest::newRow("kvm from dmi") << false << false << QStringLiteral("0::/\n") << QString() << hypervisorCpu
                                      << QStringLiteral("QEMU\n") << false << QStringLiteral("kvm")
                                      << QStringLiteral("guest");
        QTest::newRow("vmware from dmi") << false << false << QString() << QString() << hypervisorCpu
                                         << QStringLiteral("VMware, Inc.") << false << QStringLiteral("vmware")
                                         << QStringLiteral("guest");
        QTest::newRow("kvm from cpu model") << false << false << QString() << QString()
                                            << QStringLiteral("processor : 0\nmodel name : Common KVM processor\n"
                                                              "flags : hypervisor\n")
                                            << QString() << false << QStringLiteral("kvm") << QStringLiteral("guest");
        QTest::newRow("unnamed hypervisor") << false << false << QString() << QString() << hypervisorCpu << QString()
                                            << false << QString() << QStringLiteral("guest");
        QTest::newRow("physical machine")
            << false << false << QStringLiteral("0::/init.scope\n") << QString() << bareCpu
            << QStringLiteral("Microsoft Corporation") << false << QString() << QString();
        QTest::newRow("nothing known") << false << false << QString() << QString() << QString() << QString() << false
                                       << QString() << QString();
    }

    void virtualization()
    {
        QFETCH(bool, dockerEnv);
        QFETCH(bool, containerEnv);
        QFETCH(QString, cgroup);
        QFETCH(QString, initEnviron);
        QFETCH(QString, cpuinfo);
        QFETCH(QString, dmiVendor);
        QFETCH(bool, xen);
        QFETCH(QString, system);
        QFETCH(QString, role);
        VirtualizationEvidence evidence;
        evidence.dockerEnv = dockerEnv;
        evidence.containerEnv = containerEnv;
        evidence.initCgroup = cgroup.toStdString();
        evidence.initEnviron = initEnviron.toStdString();
        evidence.cpuinfo = cpuinfo.toStdString();
        evidence.dmiVendor = dmiVendor.toStdString();
        evidence.xen = xen;
        const auto [detectedSystem, detectedRole] = detectVirtualization(evidence);
        QCOMPARE(q(detectedSystem), system);
        QCOMPARE(q(detectedRole), role);
    }

    void hostId_data()
    {
        QTest::addColumn<QString>("productUuid");
        QTest::addColumn<QString>("machineId");
        QTest::addColumn<QString>("expected");
        QTest::newRow("dmi first") << QStringLiteral("4C4C4544-0042-3610-8056-B4C04F4E4E32\n")
                                   << QStringLiteral("3d1219c7c4c5404aaa1f6d2a48adfda4\n")
                                   << QStringLiteral("4c4c4544-0042-3610-8056-b4c04f4e4e32");
        QTest::newRow("machine-id as uuid") << QString() << QStringLiteral("3D1219C7C4C5404AAA1F6D2A48ADFDA4\n")
                                            << QStringLiteral("3d1219c7-c4c5-404a-aa1f-6d2a48adfda4");
        QTest::newRow("short machine-id") << QString() << QStringLiteral("abc\n") << QString();
        QTest::newRow("nothing") << QString() << QString() << QString();
    }

    void hostId()
    {
        QFETCH(QString, productUuid);
        QFETCH(QString, machineId);
        QFETCH(QString, expected);
        QCOMPARE(q(formatHostId(productUuid.toStdString(), machineId.toStdString())), expected);
    }

    void validUtf8_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray replacement("\xEF\xBF\xBD");
        QTest::newRow("ascii") << QByteArray("plain") << QByteArray("plain");
        QTest::newRow("multibyte kept") << QByteArray("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80")
                                        << QByteArray("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
        QTest::newRow("stray byte") << QByteArray("a\xFF"
                                                  "b")
                                    << QByteArray("a" + replacement + "b");
        QTest::newRow("truncated at end") << QByteArray("a\xE2\x82") << QByteArray("a" + replacement + replacement);
        QTest::newRow("overlong") << QByteArray("\xC0\xAF") << QByteArray(replacement + replacement);
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << QByteArray(replacement + replacement + replacement);
    }

    void validUtf8()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        QCOMPARE(QByteArray::fromStdString(toValidUtf8(input.toStdString())), expected);
    }

    void readTextFileErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = dir.path().toStdString();
        const auto missing = readTextFile(root + "/missing", 100);
        QVERIFY(!missing);
        QCOMPARE(q(missing.error().code), QStringLiteral("not_found"));
        QVERIFY(q(missing.error().message).contains(q(root + "/missing")));

        const auto directory = readTextFile(root, 100);
        QVERIFY(!directory);
        QCOMPARE(q(directory.error().code), QStringLiteral("unreadable"));

        QVERIFY(::mkfifo((root + "/fifo").c_str(), 0600) == 0);
        const auto fifo = readTextFile(root + "/fifo", 100);
        QVERIFY(!fifo);
        QVERIFY(q(fifo.error().message).contains(QStringLiteral("not a regular file")));

        createTree(dir.path(), {QStringLiteral("big=0123456789")});
        const auto big = readTextFile(root + "/big", 5);
        QVERIFY(!big);
        QCOMPARE(q(big.error().code), QStringLiteral("too_large"));
        QCOMPARE(q(readTextFile(root + "/big", 10).value()), QStringLiteral("0123456789"));
    }

    void customDirectories_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("expected");
        QTest::newRow("json") << QStringList {QStringLiteral("1/facts.json={\"role\": \"web\", \"port\": 80}")}
                              << QStringLiteral("{\"role\":\"web\",\"port\":80}");
        QTest::newRow("yaml") << QStringList {QStringLiteral("1/facts.yaml=role: web\nsizes: [1, 2]\n")}
                              << QStringLiteral("{\"role\":\"web\",\"sizes\":[1,2]}");
        QTest::newRow("yaml over json") << QStringList {QStringLiteral("1/facts.json={\"a\": 1, \"b\": 1}"),
            QStringLiteral("1/facts.yaml=a: 2\n")}
                                        << QStringLiteral("{\"a\":2,\"b\":1}");
        QTest::newRow("facts.d sorted by name, over facts.yaml")
            << QStringList {QStringLiteral("1/facts.yaml=x: top\ny: top\n"),
                   QStringLiteral("1/facts.d/20-b.yaml=x: second\n"),
                   QStringLiteral("1/facts.d/10-a.json={\"x\": \"first\", \"z\": \"first\"}"),
                   QStringLiteral("1/facts.d/15-c.yml=z: yml\n")}
            << QStringLiteral("{\"x\":\"second\",\"y\":\"top\",\"z\":\"yml\"}");
        QTest::newRow("facts.d ignores other names and directories")
            << QStringList {QStringLiteral("1/facts.d/a.txt=not: read"), QStringLiteral("1/facts.d/b.yaml.bak=x: 1"),
                   QStringLiteral("1/facts.d/dir.yaml/"), QStringLiteral("1/facts.d/c.yaml=kept: true\n")}
            << QStringLiteral("{\"kept\":true}");
        QTest::newRow("facts.d symlink skipped") << QStringList {QStringLiteral("elsewhere.yaml=x: linked\n"),
            QStringLiteral("1/facts.d/50-link.yaml->../../elsewhere.yaml"),
            QStringLiteral("1/facts.d/10-real.yaml=x: real\n")}
                                                 << QStringLiteral("{\"x\":\"real\"}");
        QTest::newRow("later directory wins")
            << QStringList {QStringLiteral("1/facts.yaml=a: 1\nb: 1\n"), QStringLiteral("2/facts.yaml=a: 2\n")}
            << QStringLiteral("{\"a\":2,\"b\":1}");
        QTest::newRow("facts.d of an earlier directory loses to a later facts.json")
            << QStringList {QStringLiteral("1/facts.d/a.yaml=a: 1\n"), QStringLiteral("2/facts.json={\"a\": 2}")}
            << QStringLiteral("{\"a\":2}");
        QTest::newRow("deep merge of nested maps")
            << QStringList {QStringLiteral("1/facts.yaml=app:\n  name: shop\n  port: 80\n  tags: [a]\n"),
                   QStringLiteral("2/facts.yaml=app:\n  port: 8080\n  tags: [b]\n  tls: {on: yes}\n")}
            << QStringLiteral(
                   "{\"app\":{\"name\":\"shop\",\"port\":8080,\"tags\":[\"a\",\"b\"],\"tls\":{\"on\":\"yes\"}}}");
        QTest::newRow("missing directories") << QStringList() << QStringLiteral("{}");
        QTest::newRow("empty and comment-only files add nothing") << QStringList {QStringLiteral("1/facts.json=  \n"),
            QStringLiteral("1/facts.yaml=# nothing yet\n---\n"), QStringLiteral("2/facts.yaml=a: 1\n")}
                                                                  << QStringLiteral("{\"a\":1}");
        QTest::newRow("facts.d that is a file")
            << QStringList {QStringLiteral("1/facts.d=x: 1\n")} << QStringLiteral("{}");
    }

    void customDirectories()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        createTree(dir.path(), files);
        const auto facts = gatherFacts(sourcesWithout(dir.path(), 2));
        QVERIFY2(facts.ok(), facts.ok() ? "" : facts.error().message.c_str());
        QVERIFY2(*facts == parseJsonText(expected), facts->dump().c_str());
    }

    void precedence_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QStringList>("commandLine");
        QTest::addColumn<QString>("factsFile"); // relative to the temporary directory; empty: none
        QTest::addColumn<QString>("expected");
        const QStringList directory {QStringLiteral("1/facts.yaml=a: dir\nb: dir\nc: dir\nnested: {x: dir, y: dir}\n")};
        QTest::newRow("--fact over directories")
            << directory << QStringList {QStringLiteral("a=cli"), QStringLiteral("b=cli")} << QString()
            << QStringLiteral("{\"a\":\"cli\",\"b\":\"cli\",\"c\":\"dir\",\"nested\":{\"x\":\"dir\",\"y\":\"dir\"}}");
        QTest::newRow("--facts over --fact")
            << QStringList(directory + QStringList {QStringLiteral("extra.yaml=b: file\nnested: {y: file}\n")})
            << QStringList {QStringLiteral("a=cli"), QStringLiteral("b=cli")} << QStringLiteral("extra.yaml")
            << QStringLiteral("{\"a\":\"cli\",\"b\":\"file\",\"c\":\"dir\",\"nested\":{\"x\":\"dir\",\"y\":\"file\"}}");
        QTest::newRow("--facts as JSON") << QStringList {QStringLiteral("extra.json={\"n\": 1.5, \"list\": [true]}")}
                                         << QStringList() << QStringLiteral("extra.json")
                                         << QStringLiteral("{\"n\":1.5,\"list\":[true]}");
        QTest::newRow("--fact keys are flat and values strings")
            << QStringList()
            << QStringList {QStringLiteral("a.b=c"), QStringLiteral("n=5"), QStringLiteral("e="),
                   QStringLiteral("eq=x=y")}
            << QString() << QStringLiteral("{\"a.b\":\"c\",\"n\":\"5\",\"e\":\"\",\"eq\":\"x=y\"}");
        QTest::newRow("last --fact wins") << QStringList() << QStringList {QStringLiteral("a=1"), QStringLiteral("a=2")}
                                          << QString() << QStringLiteral("{\"a\":\"2\"}");
        QTest::newRow("--fact replaces a map")
            << directory << QStringList {QStringLiteral("nested=flat")} << QString()
            << QStringLiteral("{\"a\":\"dir\",\"b\":\"dir\",\"c\":\"dir\",\"nested\":\"flat\"}");
    }

    void precedence()
    {
        QFETCH(QStringList, files);
        QFETCH(QStringList, commandLine);
        QFETCH(QString, factsFile);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        createTree(dir.path(), files);
        FactSources sources = sourcesWithout(dir.path(), 1);
        for (const QString &fact : commandLine)
            sources.commandLineFacts.push_back(fact.toStdString());
        if (!factsFile.isEmpty())
            sources.factsFile = (dir.path() + QLatin1Char('/') + factsFile).toStdString();
        const auto facts = gatherFacts(sources);
        QVERIFY2(facts.ok(), facts.ok() ? "" : facts.error().message.c_str());
        QVERIFY2(*facts == parseJsonText(expected), facts->dump().c_str());
    }

    void preparedFactsReadFilesAtOnceAndGatherTheSystemLater()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        createTree(dir.path(), {QStringLiteral("1/facts.yaml=role: web\n"), QStringLiteral("broken.json={")});
        FactSources sources = sourcesWithout(dir.path(), 1);
        sources.includeSystem = true;
        sources.factsFile = (dir.path() + QStringLiteral("/broken.json")).toStdString();
        QVERIFY(!prepareFacts(sources).ok());

        sources.factsFile.reset();
        const auto prepared = prepareFacts(sources);
        QVERIFY2(prepared.ok(), prepared.ok() ? "" : prepared.error().message.c_str());
        const LazyFacts copy = *prepared;
        QCOMPARE(q(copy.get()["role"].get<std::string>()), QStringLiteral("web"));
        QCOMPARE(q(prepared->get()["host"]["info"]["os"].get<std::string>()), QStringLiteral("linux"));
        QCOMPARE(&copy.get(), &prepared->get());
    }

    void customFactsOverSystemFacts()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        createTree(dir.path(), {QStringLiteral("1/facts.yaml=host:\n  info:\n    platformFamily: custom\n")});
        FactSources sources = sourcesWithout(dir.path(), 1);
        sources.includeSystem = true;
        sources.commandLineFacts = {"role=db"};
        const auto facts = gatherFacts(sources);
        QVERIFY2(facts.ok(), facts.ok() ? "" : facts.error().message.c_str());
        QCOMPARE(q((*facts)["host"]["info"]["platformFamily"].get<std::string>()), QStringLiteral("custom"));
        QCOMPARE(q((*facts)["host"]["info"]["os"].get<std::string>()), QStringLiteral("linux"));
        QCOMPARE(q((*facts)["role"].get<std::string>()), QStringLiteral("db"));
        QVERIFY((*facts)["cpu"]["info"].is_array());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QStringList>("commandLine");
        QTest::addColumn<QString>("factsFile");
        QTest::addColumn<QString>("pattern"); // %1 is the temporary directory
        QTest::newRow("bad YAML") << QStringList {QStringLiteral("1/facts.yaml=a: 1\nb: [1, 2\nc: 3\n")}
                                  << QStringList() << QString()
                                  << QStringLiteral("^%1/1/facts\\.yaml:\\d+:\\d+: invalid YAML: ");
        QTest::newRow("duplicate YAML key")
            << QStringList {QStringLiteral("1/facts.yaml=a: 1\na: 2\n")} << QStringList() << QString()
            << QStringLiteral("^%1/1/facts\\.yaml:2:1: duplicate key 'a'");
        QTest::newRow("bad JSON") << QStringList {QStringLiteral("1/facts.json={\n  \"a\": tru\n}")} << QStringList()
                                  << QString() << QStringLiteral("^%1/1/facts\\.json:2:\\d+: invalid JSON: .*literal");
        QTest::newRow("JSON trailing comma")
            << QStringList {QStringLiteral("1/facts.json={\"a\": 1,}")} << QStringList() << QString()
            << QStringLiteral("^%1/1/facts\\.json:1:9: invalid JSON: .*unexpected '}'");
        QTest::newRow("JSON number out of range")
            << QStringList {QStringLiteral("1/facts.json={\"big\": 1e400}")} << QStringList() << QString()
            << QStringLiteral("^%1/1/facts\\.json: invalid JSON: number overflow parsing '1e400'$");
        QTest::newRow("JSON nested too deep")
            << QStringList {QStringLiteral("1/facts.json=") + QString(300, QLatin1Char('['))
                   + QString(300, QLatin1Char(']'))}
            << QStringList() << QString() << QStringLiteral("^%1/1/facts\\.json:1:257: nested deeper than 256 levels$");
        QTest::newRow("bad file in facts.d") << QStringList {QStringLiteral("1/facts.d/10-x.json=[")} << QStringList()
                                             << QString() << QStringLiteral("^%1/1/facts\\.d/10-x\\.json:1:\\d+: ");
        QTest::newRow("directory file not a map")
            << QStringList {QStringLiteral("1/facts.yaml=just a string\n")} << QStringList() << QString()
            << QStringLiteral("^%1/1/facts\\.yaml: facts must be a map of names "
                              "to values, not a string$");
        QTest::newRow("facts.json is a directory")
            << QStringList {QStringLiteral("1/facts.json/")} << QStringList() << QString()
            << QStringLiteral("^%1/1/facts\\.json: cannot read: not a regular file$");
        QTest::newRow("--facts is a list")
            << QStringList {QStringLiteral("list.yaml=- a\n- b\n")} << QStringList() << QStringLiteral("list.yaml")
            << QStringLiteral("^%1/list\\.yaml: facts must be a map of names to values, "
                              "not a list$");
        QTest::newRow("--facts missing") << QStringList() << QStringList() << QStringLiteral("missing.yaml")
                                         << QStringLiteral("^%1/missing\\.yaml: cannot read: No such file");
        QTest::newRow("--fact without =")
            << QStringList() << QStringList {QStringLiteral("ok=1"), QStringLiteral("novalue")} << QString()
            << QStringLiteral("^--fact 'novalue': expected KEY=VALUE$");
        QTest::newRow("--fact with empty key") << QStringList() << QStringList {QStringLiteral("=x")} << QString()
                                               << QStringLiteral("^--fact '=x': the key before '=' is empty$");
        QTest::newRow("two YAML documents")
            << QStringList {QStringLiteral("1/facts.yaml=a: 1\n---\nb: 2\n")} << QStringList() << QString()
            << QStringLiteral("^%1/1/facts\\.yaml:\\d+:\\d+: the file holds 2 YAML");
    }

    void errors()
    {
        QFETCH(QStringList, files);
        QFETCH(QStringList, commandLine);
        QFETCH(QString, factsFile);
        QFETCH(QString, pattern);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        createTree(dir.path(), files);
        FactSources sources = sourcesWithout(dir.path(), 1);
        for (const QString &fact : commandLine)
            sources.commandLineFacts.push_back(fact.toStdString());
        if (!factsFile.isEmpty())
            sources.factsFile = (dir.path() + QLatin1Char('/') + factsFile).toStdString();
        const auto facts = gatherFacts(sources);
        QVERIFY2(!facts.ok(), facts.ok() ? facts->dump().c_str() : "");
        const QRegularExpression expected(
            pattern.replace(QStringLiteral("%1"), QRegularExpression::escape(dir.path())));
        QVERIFY2(expected.match(q(facts.error().message)).hasMatch(), facts.error().message.c_str());
    }

    void defaultDirectories_data()
    {
        QTest::addColumn<QByteArray>("xdg"); // null: unset
        QTest::addColumn<QByteArray>("home");
        QTest::addColumn<QStringList>("expected");
        const QString system = QStringLiteral("/etc/choria/ccm");
        QTest::newRow("xdg") << QByteArray("/cfg") << QByteArray("/home/u")
                             << QStringList {system, QStringLiteral("/cfg/choria/ccm")};
        QTest::newRow("home") << QByteArray() << QByteArray("/home/u")
                              << QStringList {system, QStringLiteral("/home/u/.config/choria/ccm")};
        QTest::newRow("relative xdg ignored") << QByteArray("cfg") << QByteArray("/home/u")
                                              << QStringList {system, QStringLiteral("/home/u/.config/choria/ccm")};
        QTest::newRow("neither") << QByteArray() << QByteArray() << QStringList {system};
    }

    void defaultDirectories()
    {
        QFETCH(QByteArray, xdg);
        QFETCH(QByteArray, home);
        QFETCH(QStringList, expected);
        const QByteArray savedXdg = qgetenv("XDG_CONFIG_HOME");
        const bool hadXdg = qEnvironmentVariableIsSet("XDG_CONFIG_HOME");
        const QByteArray savedHome = qgetenv("HOME");
        const bool hadHome = qEnvironmentVariableIsSet("HOME");
        const auto set = [](const char *name, const QByteArray &value) {
            if (value.isNull())
                qunsetenv(name);
            else
                qputenv(name, value);
        };
        set("XDG_CONFIG_HOME", xdg);
        set("HOME", home);
        QStringList directories;
        for (const auto &path : defaultCustomFactDirectories())
            directories << q(path.string());
        set("XDG_CONFIG_HOME", hadXdg ? savedXdg : QByteArray());
        set("HOME", hadHome ? savedHome : QByteArray());
        QCOMPARE(directories, expected);
        QCOMPARE(q(FactSources {}.customDirectories.front().string()), QStringLiteral("/etc/choria/ccm"));
    }
};

CCM_TEST_GUILESS_MAIN(TestFacts)
#include "tst_facts.moc"
