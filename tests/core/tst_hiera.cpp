// SPDX-License-Identifier: Apache-2.0
#include "core/hiera/hiera.h"
#include "core/model/resolve.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

const Json &debianFacts()
{
    static const Json facts = Json::parse(R"({"host": {"info": {"platformFamily": "debian", "hostname": "web1",
        "platform": "debian"}}, "role": "web", "empty": ""})");
    return facts;
}

/// Resolves the data of a manifest written as YAML text.
DataResolution resolve(const QString &yaml, const Json &external = Json::object())
{
    const std::string text = yaml.toStdString();
    const LoadedManifest loaded = loadManifest(text);
    return resolveData(loaded, text, debianFacts(), external);
}

QString dataJson(const DataResolution &resolution)
{
    return q(resolution.data.dump());
}

/// The recorded origins as "POINTER=LAYER<SOURCE", LAYER being data, override:ENTRY:NAME or external.
QStringList describeOrigins(const DataProvenance &provenance)
{
    QStringList lines;
    for (const auto &[pointer, origin] : provenance.origins) {
        QString layer = QStringLiteral("data");
        if (origin.layer.kind == DataLayer::Kind::Override)
            layer = QStringLiteral("override:%1:%2").arg(origin.layer.entry).arg(q(origin.layer.name));
        else if (origin.layer.kind == DataLayer::Kind::External)
            layer = QStringLiteral("external");
        lines << q(pointer) + QLatin1Char('=') + layer + QLatin1Char('<') + q(origin.source);
    }
    return lines;
}

/// The hierarchy entries as "RESOLVED:MATCHED:OVERRIDE_EXISTS:APPLIED" with 0 and 1.
QStringList describeEntries(const DataProvenance &provenance)
{
    QStringList lines;
    for (const HierarchyEntryState &entry : provenance.entries)
        lines << QStringLiteral("%1:%2:%3:%4")
                     .arg(q(entry.resolved))
                     .arg(int(entry.matched))
                     .arg(int(entry.overrideExists))
                     .arg(int(entry.applied));
    return lines;
}

} // namespace

class TestHiera : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resolution_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("data"); // expected JSON
        QTest::addColumn<QStringList>("applied");

        QTest::newRow("no hierarchy uses default")
            << QStringLiteral("data:\n  a: 1\noverrides:\n  default:\n    a: 2\n")
            << QStringLiteral(R"({"a":2})") << QStringList{QStringLiteral("default")};
        QTest::newRow("plain data")
            << QStringLiteral("data:\n  package: nginx\n  port: 80\n")
            << QStringLiteral(R"({"package":"nginx","port":80})") << QStringList{};
        QTest::newRow("templates keep type")
            << QStringLiteral("data:\n  port: \"{{ 8080 }}\"\n  name: \"{{ Facts.host.info.hostname }}-x\"\n"
                              "  family: \"${ lookup('facts.host.info.platformFamily') }\"\n")
            << QStringLiteral(R"({"port":8080,"name":"web1-x","family":"debian"})") << QStringList{};
        QTest::newRow("missing key is empty during resolution")
            << QStringLiteral("data:\n  a: \"[{{ lookup('facts.nope') }}]\"\n  b: \"{{ lookup('data.a') }}\"\n")
            << QStringLiteral(R"({"a":"[]","b":""})") << QStringList{};
        QTest::newRow("first merge stops at first match")
            << QStringLiteral("data:\n  pkg: httpd\n  port: 80\n"
                              "hierarchy:\n  order:\n    - \"os:{{ lookup('facts.host.info.platformFamily') }}\"\n"
                              "    - default\n  merge: first\n"
                              "overrides:\n  os:debian:\n    pkg: apache2\n  default:\n    port: 8080\n")
            << QStringLiteral(R"({"pkg":"apache2","port":80})") << QStringList{QStringLiteral("os:debian")};
        QTest::newRow("first merge is shallow")
            << QStringLiteral("data:\n  web: {port: 80, tls: true}\n"
                              "hierarchy:\n  order: [default]\n"
                              "overrides:\n  default:\n    web: {port: 8080}\n")
            << QStringLiteral(R"({"web":{"port":8080}})") << QStringList{QStringLiteral("default")};
        QTest::newRow("deep merge in order")
            << QStringLiteral("data:\n  web: {port: 80, tls: true}\n  users: [root]\n  level: base\n"
                              "hierarchy:\n  order: [\"role:{{ Facts.role }}\", \"os:${ Facts.host.info.platform }\"]\n"
                              "  merge: deep\n"
                              "overrides:\n  role:web:\n    web: {port: 8080}\n    users: [www]\n    level: role\n"
                              "  os:debian:\n    web: {docroot: /var/www}\n    users: [deploy]\n    level: os\n")
            << QStringLiteral(R"({"web":{"port":8080,"tls":true,"docroot":"/var/www"},"users":["root","www","deploy"],"level":"os"})")
            << QStringList{QStringLiteral("role:web"), QStringLiteral("os:debian")};
        QTest::newRow("deep merge replaces different kinds")
            << QStringLiteral("data:\n  a: [1]\n  b: {x: 1}\nhierarchy:\n  order: [default]\n  merge: deep\n"
                              "overrides:\n  default:\n    a: {y: 2}\n    b: 3\n")
            << QStringLiteral(R"({"a":{"y":2},"b":3})") << QStringList{QStringLiteral("default")};
        QTest::newRow("entry with empty expression is skipped")
            << QStringLiteral("data:\n  a: base\nhierarchy:\n  order: [\"x:{{ lookup('facts.empty') }}\", default]\n"
                              "overrides:\n  \"x:\":\n    a: wrong\n  default:\n    a: default\n")
            << QStringLiteral(R"({"a":"default"})") << QStringList{QStringLiteral("default")};
        QTest::newRow("missing fact skips entry")
            << QStringLiteral("data:\n  a: base\nhierarchy:\n  order: [\"dc:{{ lookup('facts.dc') }}\"]\n"
                              "overrides:\n  \"dc:\":\n    a: wrong\n")
            << QStringLiteral(R"({"a":"base"})") << QStringList{};
        QTest::newRow("entry without overrides is skipped")
            << QStringLiteral("data:\n  a: base\nhierarchy:\n  order: [\"os:{{ Facts.host.info.platform }}\", default]\n"
                              "  merge: first\noverrides:\n  default:\n    a: default\n")
            << QStringLiteral(R"({"a":"default"})") << QStringList{QStringLiteral("default")};
        QTest::newRow("empty literal entry is skipped")
            << QStringLiteral("data:\n  a: base\nhierarchy:\n  order: [\"\"]\noverrides:\n  \"\":\n    a: wrong\n")
            << QStringLiteral(R"({"a":"base"})") << QStringList{};
        QTest::newRow("override values are templates")
            << QStringLiteral("data:\n  a: 1\noverrides:\n  default:\n    a: \"{{ 2 + 3 }}\"\n    h: \"${ Facts.host.info.hostname }\"\n")
            << QStringLiteral(R"({"a":5,"h":"web1"})") << QStringList{QStringLiteral("default")};
        QTest::newRow("no data at all") << QStringLiteral("ccm:\n  resources: []\n") << QStringLiteral("{}")
                                        << QStringList{};
    }

    void resolution()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, data);
        QFETCH(QStringList, applied);
        const DataResolution resolution = resolve(yaml);
        QVERIFY2(resolution.ok(), qPrintable(describe(resolution.diagnostics)));
        QCOMPARE(dataJson(resolution), data);
        QStringList appliedNames;
        for (const std::string &name : resolution.appliedOverrides)
            appliedNames << q(name);
        QCOMPARE(appliedNames, applied);
    }

    void provenance_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("external");
        QTest::addColumn<QString>("data");
        QTest::addColumn<QStringList>("origins");
        QTest::addColumn<QStringList>("entries");
        const QString layers = QStringLiteral("data:\n  a: 1\n  m:\n    b: 2\n  l: [1]\n"
                                              "hierarchy:\n  merge: %1\n  order:\n"
                                              "    - \"node.{{ Facts.host.info.hostname }}\"\n"
                                              "    - \"role.{{ Facts.role }}\"\n    - default\n"
                                              "overrides:\n  role.web:\n    m:\n      c: \"{{ Facts.role }}\"\n"
                                              "  default:\n    a: 9\n    l: [2]\n");

        QTest::newRow("base data only") << QStringLiteral("data:\n  a: 1\n  m:\n    b: 2\n") << QStringLiteral("{}")
                                        << QStringLiteral(R"({"a":1,"m":{"b":2}})")
                                        << QStringList {QStringLiteral("/data/a=data</data/a"),
                                               QStringLiteral("/data/m=data</data/m"),
                                               QStringLiteral("/data/m/b=data</data/m/b")}
                                        << QStringList {QStringLiteral("default:1:0:0")};
        QTest::newRow("first match replaces top-level values")
            << layers.arg(QStringLiteral("first")) << QStringLiteral("{}")
            << QStringLiteral(R"({"a":1,"m":{"c":"web"},"l":[1]})")
            << QStringList {QStringLiteral("/data/a=data</data/a"), QStringLiteral("/data/l=data</data/l"),
                   QStringLiteral("/data/m=override:1:role.web</overrides/role.web/m"),
                   QStringLiteral("/data/m/c=override:1:role.web</overrides/role.web/m/c")}
            << QStringList {QStringLiteral("node.web1:1:0:0"), QStringLiteral("role.web:1:1:1"),
                   QStringLiteral("default:1:1:0")};
        QTest::newRow("deep merge keeps maps and concatenates lists")
            << layers.arg(QStringLiteral("deep")) << QStringLiteral("{}")
            << QStringLiteral(R"({"a":9,"m":{"b":2,"c":"web"},"l":[1,2]})")
            << QStringList {QStringLiteral("/data/a=override:2:default</overrides/default/a"),
                   QStringLiteral("/data/l=override:2:default</overrides/default/l"),
                   QStringLiteral("/data/m=data</data/m"), QStringLiteral("/data/m/b=data</data/m/b"),
                   QStringLiteral("/data/m/c=override:1:role.web</overrides/role.web/m/c")}
            << QStringList {QStringLiteral("node.web1:1:0:0"), QStringLiteral("role.web:1:1:1"),
                   QStringLiteral("default:1:1:1")};
        QTest::newRow("external data over maps and values")
            << QStringLiteral("data:\n  m:\n    b: 2\n    d: 3\n  s: x\n")
            << QStringLiteral(R"({"m": {"b": 5}, "s": {"t": 1}, "x": 1})")
            << QStringLiteral(R"({"m":{"b":5,"d":3},"s":{"t":1},"x":1})")
            << QStringList {QStringLiteral("/data/m=data</data/m"), QStringLiteral("/data/m/b=external<"),
                   QStringLiteral("/data/m/d=data</data/m/d"), QStringLiteral("/data/s=external<"),
                   QStringLiteral("/data/s/t=external<"), QStringLiteral("/data/x=external<")}
            << QStringList {QStringLiteral("default:1:0:0")};
        QTest::newRow("an entry whose facts are empty does not match")
            << QStringLiteral("data:\n  a: 1\nhierarchy:\n  order: [\"node.{{ Facts.empty }}\"]\n"
                              "overrides:\n  node.:\n    a: 2\n")
            << QStringLiteral("{}") << QStringLiteral(R"({"a":1})")
            << QStringList {QStringLiteral("/data/a=data</data/a")} << QStringList {QStringLiteral("node.:0:1:0")};
    }

    void provenance()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, external);
        QFETCH(QString, data);
        QFETCH(QStringList, origins);
        QFETCH(QStringList, entries);
        const std::string text = yaml.toStdString();
        const LoadedManifest loaded = loadManifest(text);
        DataProvenance provenance;
        const DataResolution resolution
            = resolveData(loaded, text, debianFacts(), Json::parse(external.toStdString()), &provenance);
        QVERIFY2(resolution.ok(), qPrintable(describe(resolution.diagnostics)));
        QCOMPARE(dataJson(resolution), data);
        QCOMPARE(describeOrigins(provenance), origins);
        QCOMPARE(describeEntries(provenance), entries);
        // Recording changes nothing about the data itself.
        QCOMPARE(dataJson(resolveData(loaded, text, debianFacts(), Json::parse(external.toStdString()))), data);
    }

    void provenanceResolvesEntriesAFirstMergeSkips()
    {
        const std::string text = "data:\n  a: 1\nhierarchy:\n  order: [default, \"{{ nope( }}\"]\n"
                                 "overrides:\n  default:\n    a: 2\n";
        const LoadedManifest loaded = loadManifest(text);
        DataProvenance provenance;
        const DataResolution resolution = resolveData(loaded, text, debianFacts(), Json::object(), &provenance);
        QVERIFY2(resolution.ok(), qPrintable(describe(resolution.diagnostics)));
        QCOMPARE(provenance.merge, std::string("first"));
        QCOMPARE(provenance.entries.size(), std::size_t(2));
        QVERIFY(provenance.entries[0].applied);
        QVERIFY(!provenance.entries[1].matched);
        QVERIFY2(provenance.entries[1].error.find("cannot resolve hierarchy entry") != std::string::npos,
            provenance.entries[1].error.c_str());
    }

    void externalDataWins()
    {
        const DataResolution resolution
            = resolve(QStringLiteral("data:\n  web: {port: 80, tls: true}\n  users: [a]\n"),
                      Json::parse(R"({"web": {"port": 9090}, "users": ["b"], "extra": 1})"));
        QVERIFY(resolution.ok());
        QCOMPARE(dataJson(resolution), QStringLiteral(R"({"web":{"port":9090,"tls":true},"users":["b"],"extra":1})"));
    }

    void requireAnnotations()
    {
        const QString yaml = QStringLiteral("data:\n"
                                            "  # @require\n"
                                            "  package: \"\"\n"
                                            "  version: 1.0 # @require\n"
                                            "  # the listen port\n"
                                            "  # @require\n"
                                            "\n"
                                            "  port: ~\n"
                                            "  web:\n"
                                            "    # @require\n"
                                            "    root: []\n"
                                            "  # @require\n"
                                            "  set_by_override: \"\"\n"
                                            "  optional: \"\"\n"
                                            "overrides:\n"
                                            "  default:\n"
                                            "    set_by_override: yes\n");
        const std::string text = yaml.toStdString();
        const LoadedManifest loaded = loadManifest(text);
        QCOMPARE(requiredDataPointers(loaded, text),
                 (std::vector<std::string>{"/data/package", "/data/version", "/data/port", "/data/web/root",
                                           "/data/set_by_override"}));

        const DataResolution resolution = resolveData(loaded, text, debianFacts());
        QVERIFY(!resolution.ok());
        QVERIFY2(resolution.diagnostics.size() == 3, qPrintable(describe(resolution.diagnostics)));
        const Diagnostic &package = resolution.diagnostics[0];
        QCOMPARE(q(package.path), QStringLiteral("/data/package"));
        QCOMPARE(package.position, (SourcePosition{3, 3}));
        QVERIFY2(q(package.message).contains(QStringLiteral("data value 'package' is required")),
                 package.message.c_str());
        QCOMPARE(q(resolution.diagnostics[1].path), QStringLiteral("/data/port"));
        QCOMPARE(resolution.diagnostics[1].position, (SourcePosition{8, 3}));
        QCOMPARE(q(resolution.diagnostics[2].path), QStringLiteral("/data/web/root"));
        QCOMPARE(resolution.diagnostics[2].position, (SourcePosition{11, 5}));
    }

    void validateAnnotations_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("external");
        QTest::addColumn<QStringList>("expected"); // "LINE:COL severity path: message" of each diagnostic

        QTest::newRow("passes") << QStringLiteral("data:\n  # @validate isIPv4(value)\n  listen: 10.0.0.1\n")
                                << QStringLiteral("{}") << QStringList {};
        QTest::newRow("fails at the key")
            << QStringLiteral("data:\n  # a comment first\n  # @validate isIPv4(value)\n  listen: 10.0.0.300\n")
            << QStringLiteral("{}")
            << QStringList {
                   QStringLiteral("4:3 error /data/listen: data value 'listen' fails @validate isIPv4(value)")};
        QTest::newRow("after the value, on a nested key")
            << QStringLiteral("data:\n  web:\n    port: 80x # @validate isInt(value)\n") << QStringLiteral("{}")
            << QStringList {
                   QStringLiteral("3:5 error /data/web/port: data value 'web.port' fails @validate isInt(value)")};
        QTest::newRow("numbers are validated by their text")
            << QStringLiteral("data:\n  # @validate isInt(value) && value == '8080'\n  port: 8080\n")
            << QStringLiteral("{}") << QStringList {};
        QTest::newRow("the final value counts")
            << QStringLiteral("data:\n  # @validate isInt(value)\n  port: \"\"\nhierarchy:\n  order: [default]\n"
                              "overrides:\n  default:\n    port: 8080\n")
            << QStringLiteral("{}") << QStringList {};
        QTest::newRow("external data counts")
            << QStringLiteral("data:\n  # @validate isInt(value)\n  port: 8080\n") << QStringLiteral(R"({"port": "x"})")
            << QStringList {QStringLiteral("3:3 error /data/port: data value 'port' fails @validate isInt(value)")};
        QTest::newRow("an expression error is a failure")
            << QStringLiteral("data:\n  # @validate isInt(value\n  port: 1\n") << QStringLiteral("{}")
            << QStringList {QStringLiteral("3:3 error /data/port: data value 'port' fails @validate isInt(value: "
                                           "expected ',' or ')' at column 12")};
        QTest::newRow("a result other than a boolean is a failure")
            << QStringLiteral("data:\n  # @validate value\n  name: x\n") << QStringLiteral("{}")
            << QStringList {QStringLiteral("3:3 error /data/name: data value 'name' fails @validate value: it gives a "
                                           "string, not true or false")};
        QTest::newRow("maps, lists and null are not validated")
            << QStringLiteral("data:\n  # @validate false\n  m: {a: 1}\n  # @validate false\n  l: [1]\n"
                              "  # @validate false\n  n: ~\n")
            << QStringLiteral("{}") << QStringList {};
        QTest::newRow("the last @validate counts")
            << QStringLiteral("data:\n  # @validate isIPv4(value)\n  # @validate isInt(value)\n  port: 80\n")
            << QStringLiteral("{}") << QStringList {};
        QTest::newRow("@required is @require")
            << QStringLiteral("data:\n  # @required\n  token: \"\"\n") << QStringLiteral("{}")
            << QStringList {QStringLiteral("3:3 error /data/token: data value 'token' is required (@require) but is "
                                           "empty")};
        QTest::newRow("unknown directives warn at the @")
            << QStringLiteral(
                   "data:\n  # @requiired\n  a: 1\n  b: 2 #  @validate\n  # mail admin@example.net\n  c: 3\n")
            << QStringLiteral("{}")
            << QStringList {QStringLiteral("2:5 warning /data/a: unknown annotation '@requiired'; the annotations are "
                                           "@require, @required and @validate"),
                   QStringLiteral("4:11 warning /data/b: @validate needs an expression, such as '@validate "
                                  "isInt(value)'")};
        QTest::newRow("directives outside data are not annotations")
            << QStringLiteral("data:\n  a: 1\n# @whatever\nccm:\n  resources: []\n") << QStringLiteral("{}")
            << QStringList {};
    }

    void validateAnnotations()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, external);
        QFETCH(QStringList, expected);
        const DataResolution resolution = resolve(yaml, Json::parse(external.toStdString()));
        QStringList got;
        for (const Diagnostic &d : resolution.diagnostics)
            got << QStringLiteral("%1:%2 %3 %4: %5")
                       .arg(d.position.line)
                       .arg(d.position.column)
                       .arg(q(std::string(severityName(d.severity))), q(d.path), q(d.message));
        QCOMPARE(got, expected);
    }

    void staticAnnotationChecks()
    {
        const std::string text = "data:\n"
                                 "  # @validate isIPv4(value)\n"
                                 "  literal: 10.0.0.300\n"
                                 "  # @validate isIPv4(value)\n"
                                 "  templated: \"{{ Facts.addr }}\"\n"
                                 "  # @validate isIPv4(value)\n"
                                 "  overridden: x\n"
                                 "  # @validate isIPv4(value))\n"
                                 "  unparsable: 10.0.0.1\n"
                                 "overrides:\n"
                                 "  somewhere:\n"
                                 "    overridden: 10.0.0.1\n";
        const LoadedManifest loaded = loadManifest(text);
        const Diagnostics found = checkDataAnnotations(loaded, text);
        QVERIFY2(found.size() == 2, qPrintable(describe(found)));
        QCOMPARE(q(found[0].path), QStringLiteral("/data/literal"));
        QCOMPARE(found[0].position, (SourcePosition {3, 3}));
        QCOMPARE(q(found[1].path), QStringLiteral("/data/unparsable"));
        QCOMPARE(found[1].position, (SourcePosition {8, 28}));
        QVERIFY2(q(found[1].message).contains(QStringLiteral("is not a valid expression")), found[1].message.c_str());
    }

    void requireSatisfiedByExternalData()
    {
        const DataResolution resolution = resolve(QStringLiteral("data:\n  # @require\n  token: \"\"\n"),
                                                  Json::parse(R"({"token": "s3cret"})"));
        QVERIFY2(resolution.ok(), qPrintable(describe(resolution.diagnostics)));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("data template error")
            << QStringLiteral("data:\n  a: \"x{{ (1 + }}\"\n") << QStringLiteral("cannot resolve data value 'a'") << 2
            << 16;
        QTest::newRow("plain scalar template error")
            << QStringLiteral("data:\n  list:\n    - ${ nope }\n") << QStringLiteral("unknown name 'nope'") << 3 << 10;
        QTest::newRow("override template error")
            << QStringLiteral("data:\n  a: 1\noverrides:\n  default:\n    a: \"{{ 1 + 'x' * 2 }}\"\n")
            << QStringLiteral("cannot resolve override 'default' value 'a'") << 5 << 0;
        QTest::newRow("hierarchy entry error")
            << QStringLiteral("data: {}\nhierarchy:\n  order:\n    - \"os:{{ Facts.( }}\"\n")
            << QStringLiteral("cannot resolve hierarchy entry") << 4 << 0;
    }

    void errors()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(int, column);
        const DataResolution resolution = resolve(yaml);
        QVERIFY(!resolution.ok());
        QCOMPARE(resolution.diagnostics.size(), std::size_t(1));
        const Diagnostic &diagnostic = resolution.diagnostics.front();
        QVERIFY2(q(diagnostic.message).contains(message), diagnostic.message.c_str());
        QCOMPARE(diagnostic.position.line, line);
        if (column > 0)
            QCOMPARE(diagnostic.position.column, column);
    }

    void shapeErrors_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("hierarchy not a map") << QStringLiteral("hierarchy: [a]\n")
                                             << QStringLiteral("hierarchy must be a map") << 1 << 12;
        QTest::newRow("order not a list") << QStringLiteral("hierarchy:\n  order: default\n")
                                          << QStringLiteral("hierarchy order must be a list of strings") << 2 << 10;
        QTest::newRow("order entry not a string") << QStringLiteral("hierarchy:\n  order: [a, {b: c}]\n")
                                                  << QStringLiteral("hierarchy order entry must be a string") << 2
                                                  << 14;
        QTest::newRow("unknown merge") << QStringLiteral("hierarchy:\n  merge: sideways\n")
                                       << QStringLiteral("unknown hierarchy merge mode 'sideways'") << 2 << 10;
        QTest::newRow("overrides not a map") << QStringLiteral("overrides: [a]\n")
                                             << QStringLiteral("overrides must be a map") << 1 << 12;
        QTest::newRow("override not a map") << QStringLiteral("overrides:\n  default: 3\n")
                                            << QStringLiteral("override 'default' must be a map") << 2 << 12;
    }

    void shapeErrors()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(int, column);
        const std::string text = yaml.toStdString();
        const LoadedManifest loaded = loadManifest(text);
        const ResolvedManifest resolved = resolveManifest(loaded, text, ResolveOptions{});
        QVERIFY(!resolved.ok());
        bool found = false;
        for (const Diagnostic &diagnostic : resolved.diagnostics) {
            if (diagnostic.severity == Severity::Error && q(diagnostic.message).contains(message)) {
                QCOMPARE(diagnostic.position, (SourcePosition{line, column}));
                found = true;
            }
        }
        QVERIFY2(found, qPrintable(describe(resolved.diagnostics)));
    }
};

CCM_TEST_GUILESS_MAIN(TestHiera)
#include "tst_hiera.moc"
