// SPDX-License-Identifier: Apache-2.0
#include "hiera.h"
#include "resolve.h"
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

QTEST_GUILESS_MAIN(TestHiera)
#include "tst_hiera.moc"
