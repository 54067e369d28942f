// SPDX-License-Identifier: Apache-2.0
// The manifest's shape (ENGINE-SPEC section 1): loading, structural errors, defaults and flattening.
#include "core/model/manifest.h"
#include "core/model/validator.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestManifest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void structure_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("expect"); // empty: no error
        QTest::addColumn<int>("line");

        QTest::newRow("minimal") << QStringLiteral("ccm:\n  resources: []\n") << QString() << 0;
        QTest::newRow("all sections")
            << QStringLiteral("data: {a: 1}\nhierarchy: {order: [default], merge: deep}\noverrides: {default: {a: 2}}\n"
                              "ccm: {pre_message: hi, post_message: bye, fail_on_error: true, resources: []}\n")
            << QString() << 0;
        QTest::newRow("not a map") << QStringLiteral("- a\n- b\n") << QStringLiteral("this document is a list") << 1;
        QTest::newRow("scalar document") << QStringLiteral("hello\n") << QStringLiteral("this document is a string") << 1;
        QTest::newRow("unknown top-level key") << QStringLiteral("data: {}\nresources: []\n")
                                               << QStringLiteral("unknown top-level key 'resources'") << 2;
        QTest::newRow("top-level typo") << QStringLiteral("dta: {}\nccm: {resources: []}\n")
                                        << QStringLiteral("did you mean 'data'?") << 1;
        QTest::newRow("data is a list") << QStringLiteral("data: [1, 2]\n") << QStringLiteral("data must be a map") << 1;
        QTest::newRow("hierarchy not a map") << QStringLiteral("hierarchy: [a]\n")
                                             << QStringLiteral("hierarchy must be a map") << 1;
        QTest::newRow("hierarchy order not a list") << QStringLiteral("hierarchy:\n  order: default\n")
                                                    << QStringLiteral("order must be a list of strings") << 2;
        QTest::newRow("hierarchy order item") << QStringLiteral("hierarchy:\n  order: [a, {b: c}]\n")
                                              << QStringLiteral("hierarchy order entry must be a string, not a map") << 2;
        QTest::newRow("hierarchy merge") << QStringLiteral("hierarchy:\n  merge: shallow\n")
                                         << QStringLiteral("unknown hierarchy merge mode 'shallow'") << 2;
        QTest::newRow("hierarchy unknown key") << QStringLiteral("hierarchy:\n  orders: []\n")
                                               << QStringLiteral("unknown hierarchy key 'orders'; did you mean 'order'?") << 2;
        QTest::newRow("overrides not a map") << QStringLiteral("overrides: [a]\n")
                                             << QStringLiteral("overrides must be a map") << 1;
        QTest::newRow("override not a map") << QStringLiteral("overrides:\n  os:debian: 1\n")
                                            << QStringLiteral("override 'os:debian' must be a map") << 2;
        QTest::newRow("ccm not a map") << QStringLiteral("ccm: [a]\n") << QStringLiteral("ccm must be a map") << 1;
        QTest::newRow("ccm unknown key") << QStringLiteral("ccm:\n  resources: []\n  fail_on_errors: true\n")
                                         << QStringLiteral("did you mean 'fail_on_error'?") << 3;
        QTest::newRow("fail_on_error type") << QStringLiteral("ccm:\n  fail_on_error: \"yes\"\n  resources: []\n")
                                            << QStringLiteral("fail_on_error must be true or false") << 2;
        QTest::newRow("message type") << QStringLiteral("ccm:\n  pre_message: [a]\n  resources: []\n")
                                      << QStringLiteral("pre_message must be a string") << 2;
        QTest::newRow("jet file") << QStringLiteral("ccm:\n  resources_jet_file: resources.jet\n") << QString() << 0;
        QTest::newRow("resources and jet file")
            << QStringLiteral("ccm:\n  resources: []\n  resources_jet_file: r.jet\n")
            << QStringLiteral("both resources and resources_jet_file") << 3;
        QTest::newRow("resources not a list") << QStringLiteral("ccm:\n  resources: {file: []}\n")
                                              << QStringLiteral("resources must be a list") << 2;
        QTest::newRow("block with two types")
            << QStringLiteral("ccm:\n  resources:\n    - file: []\n      exec: []\n")
            << QStringLiteral("exactly one key, the resource type; this one has 2") << 3;
        QTest::newRow("block is a string") << QStringLiteral("ccm:\n  resources:\n    - file\n")
                                           << QStringLiteral("a resource block is a map") << 3;
        QTest::newRow("unknown type") << QStringLiteral("ccm:\n  resources:\n    - user: []\n")
                                      << QStringLiteral("unknown resource type 'user'") << 3;
        QTest::newRow("type typo") << QStringLiteral("ccm:\n  resources:\n    - servce: []\n")
                                   << QStringLiteral("did you mean 'service'?") << 3;
        QTest::newRow("body is a string") << QStringLiteral("ccm:\n  resources:\n    - package: vim\n")
                                          << QStringLiteral("the body of a package block") << 3;
        QTest::newRow("list item two keys")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - vim: {ensure: present}\n          git: {ensure: present}\n")
            << QStringLiteral("a map with 2 keys") << 4;
        QTest::newRow("list item is a string") << QStringLiteral("ccm:\n  resources:\n    - package:\n        - vim\n")
                                               << QStringLiteral("single '- NAME: {properties}' map, not a string") << 4;
        QTest::newRow("list item body is a list")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - vim: [present]\n")
            << QStringLiteral("properties of package#vim must be a map") << 4;
        QTest::newRow("null body keeps defaults")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - defaults: {ensure: present}\n        - vim:\n")
            << QString() << 0;
        QTest::newRow("two defaults")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - defaults: {ensure: present}\n        - vim: {}\n"
                              "        - defaults: {ensure: latest}\n")
            << QStringLiteral("two defaults entries (the first is at line 4)") << 6;
        QTest::newRow("name in list body")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - vim: {name: vim, ensure: present}\n")
            << QStringLiteral("in the list form the key is the name") << 4;
        QTest::newRow("single form")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        name: vim\n        ensure: present\n")
            << QString() << 0;
        QTest::newRow("single form without name")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        ensure: present\n")
            << QStringLiteral("needs a 'name' property") << 3;
        QTest::newRow("single form numeric name")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        name: 7\n        ensure: present\n")
            << QStringLiteral("must be a string, not an integer (quote it)") << 4;
        QTest::newRow("empty list name") << QStringLiteral("ccm:\n  resources:\n    - package:\n        - \"\": {ensure: present}\n")
                                         << QStringLiteral("needs a non-empty name") << 4;
    }

    void structure()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, expect);
        QFETCH(int, line);
        const Diagnostics diagnostics = validateManifestText(yaml.toStdString());
        if (expect.isEmpty()) {
            QVERIFY2(!hasErrors(diagnostics), qPrintable(describe(diagnostics)));
            return;
        }
        const auto match = std::find_if(diagnostics.begin(), diagnostics.end(),
                                        [&](const Diagnostic &d) { return q(d.message).contains(expect); });
        QVERIFY2(match != diagnostics.end(), qPrintable(QStringLiteral("expected '%1' in:\n%2").arg(expect, describe(diagnostics))));
        QCOMPARE(match->severity, Severity::Error);
        QCOMPARE(match->position.line, line);
    }

    void warnsWhenNothingIsManaged()
    {
        const Diagnostics diagnostics = validateManifestText("data: {a: 1}\n");
        QCOMPARE(diagnostics.size(), std::size_t(1));
        QCOMPARE(diagnostics[0].severity, Severity::Warning);
        QVERIFY(q(diagnostics[0].message).contains(QStringLiteral("no ccm section")));
    }

    void model()
    {
        const LoadedManifest loaded = loadManifest("data:\n  port: 80\n"
                                                   "hierarchy:\n  order: [\"os:{{ Facts.os }}\", default]\n"
                                                   "overrides:\n  default: {port: 8080}\n"
                                                   "ccm:\n  pre_message: starting\n  fail_on_error: true\n"
                                                   "  resources:\n"
                                                   "    - package:\n        - defaults: {ensure: present}\n        - vim: {}\n"
                                                   "    - service:\n        name: cron\n        enable: true\n");
        QVERIFY2(loaded.diagnostics.empty(), qPrintable(describe(loaded.diagnostics)));
        const Manifest &m = loaded.manifest;
        QCOMPARE((*m.data)["port"].get<int>(), 80);
        QCOMPARE(m.hierarchy->order->size(), std::size_t(2));
        QVERIFY(!m.hierarchy->merge);
        QCOMPARE((*m.overrides)["default"]["port"].get<int>(), 8080);
        QCOMPARE(*m.ccm->preMessage, std::string("starting"));
        QVERIFY(!m.ccm->postMessage);
        QCOMPARE(*m.ccm->failOnError, true);
        const auto &blocks = *m.ccm->resources;
        QCOMPARE(blocks.size(), std::size_t(2));
        QCOMPARE(blocks[0].form, BodyForm::List);
        QCOMPARE(blocks[0].entries.size(), std::size_t(2));
        QVERIFY(blocks[0].entries[0].isDefaults);
        QCOMPARE(blocks[1].form, BodyForm::Single);
        QCOMPARE(blocks[1].entries[0].name, std::string("cron"));
        QVERIFY(!blocks[1].entries[0].properties.contains("name"));
    }

    void flattening_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QStringList>("expected"); // "type#name compact-json-properties"

        QTest::newRow("defaults apply to every entry, wherever they sit")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - vim: {}\n"
                              "        - defaults: {ensure: latest, provider: apt}\n        - git: {ensure: present}\n")
            << QStringList{QStringLiteral("package#vim {\"ensure\":\"latest\",\"provider\":\"apt\"}"),
                           QStringLiteral("package#git {\"ensure\":\"present\",\"provider\":\"apt\"}")};
        QTest::newRow("own values take the defaults' place, own properties follow")
            << QStringLiteral("ccm:\n  resources:\n    - file:\n        - defaults: {owner: root, group: root}\n"
                              "        - /etc/motd: {mode: \"0644\", group: wheel}\n")
            << QStringList {
                   QStringLiteral("file#/etc/motd {\"owner\":\"root\",\"group\":\"wheel\",\"mode\":\"0644\"}")};
        QTest::newRow("lists replace whole")
            << QStringLiteral("ccm:\n  resources:\n    - exec:\n        - defaults: {environment: [A=1, B=2]}\n"
                              "        - make: {environment: [C=3]}\n")
            << QStringList{QStringLiteral("exec#make {\"environment\":[\"C=3\"]}")};
        QTest::newRow("maps replace whole")
            << QStringLiteral("ccm:\n  resources:\n    - scaffold:\n        - defaults: {data: {a: 1, b: 2}}\n"
                              "        - /etc/app: {data: {c: 3}}\n")
            << QStringList{QStringLiteral("scaffold#/etc/app {\"data\":{\"c\":3}}")};
        QTest::newRow("null body keeps defaults")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - defaults: {ensure: present}\n        - nginx:\n")
            << QStringList{QStringLiteral("package#nginx {\"ensure\":\"present\"}")};
        QTest::newRow("defaults stay in their block")
            << QStringLiteral("ccm:\n  resources:\n    - package:\n        - defaults: {ensure: absent}\n        - telnet: {}\n"
                              "    - package:\n        - vim: {ensure: present}\n")
            << QStringList{QStringLiteral("package#telnet {\"ensure\":\"absent\"}"),
                           QStringLiteral("package#vim {\"ensure\":\"present\"}")};
        QTest::newRow("declaration order across forms")
            << QStringLiteral("ccm:\n  resources:\n    - service:\n        name: cron\n    - package:\n        - b: {}\n        - a: {}\n")
            << QStringList{QStringLiteral("service#cron {}"), QStringLiteral("package#b {}"), QStringLiteral("package#a {}")};
        QTest::newRow("only defaults") << QStringLiteral("ccm:\n  resources:\n    - package:\n        - defaults: {ensure: present}\n")
                                       << QStringList{};
    }

    void flattening()
    {
        QFETCH(QString, yaml);
        QFETCH(QStringList, expected);
        const LoadedManifest loaded = loadManifest(yaml.toStdString());
        QVERIFY2(!hasErrors(loaded.diagnostics), qPrintable(describe(loaded.diagnostics)));
        QStringList actual;
        for (const FlatResource &resource : flatten(loaded.manifest, &loaded.entryPointers))
            actual << q(resource.label() + " " + resource.properties.dump());
        QCOMPARE(actual, expected);
    }

    void flatPointers()
    {
        const LoadedManifest loaded = loadManifest("ccm:\n  resources:\n    - package:\n"
                                                   "        - defaults: {ensure: present}\n"
                                                   "        - vim: {provider: apt}\n");
        const auto resources = flatten(loaded.manifest, &loaded.entryPointers);
        QCOMPARE(resources.size(), std::size_t(1));
        QCOMPARE(q(resources[0].propertyPointer("provider")), QStringLiteral("/ccm/resources/0/package/1/vim/provider"));
        QCOMPARE(q(resources[0].propertyPointer("ensure")), QStringLiteral("/ccm/resources/0/package/0/defaults/ensure"));
    }

    void skippedItemsKeepDocumentPointers()
    {
        // The unknown type is dropped from the model; the next block must still point at its own text.
        const LoadedManifest loaded = loadManifest("ccm:\n  resources:\n    - nosuchtype: []\n    - package:\n"
                                                   "        - vim: {ensure: present}\n");
        const auto resources = flatten(loaded.manifest, &loaded.entryPointers);
        QCOMPARE(resources.size(), std::size_t(1));
        QCOMPARE(q(resources[0].pointer), QStringLiteral("/ccm/resources/1/package/0/vim"));
        QCOMPARE(loaded.sourceMap.keyAt(resources[0].pointer).line, 5);
    }

    void closestMatches_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("expected");
        QTest::newRow("typo") << QStringLiteral("onwer") << QStringLiteral("owner");
        QTest::newRow("missing letter") << QStringLiteral("contnt") << QStringLiteral("content");
        QTest::newRow("far away") << QStringLiteral("colour") << QString();
    }

    void closestMatches()
    {
        QFETCH(QString, word);
        QFETCH(QString, expected);
        const auto match = closestMatch(word.toStdString(), {"owner", "group", "mode", "content", "source"});
        QCOMPARE(match ? q(*match) : QString(), expected);
    }

    void fileLimits()
    {
        const FileText missing = readManifestFile("/nonexistent/manifest.yaml");
        QVERIFY(missing.problem);
        QVERIFY(q(missing.problem->message).contains(QStringLiteral("No such file")));
        const FileText directory = readManifestFile("/tmp");
        QVERIFY(directory.problem);
        QVERIFY(q(directory.problem->message).contains(QStringLiteral("directory")));
    }
};

CCM_TEST_GUILESS_MAIN(TestManifest)
#include "tst_manifest.moc"
