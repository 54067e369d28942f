// SPDX-License-Identifier: Apache-2.0
#include "core/yaml/yaml_reader.h"
#include "json_test_support.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

#include <limits>

using namespace ccm;
using namespace ccm::test;

class TestYamlReader : public QObject
{
    Q_OBJECT

    /// A map of 40 keys, more than are searched one by one, whose key k7 comes again at the end.
    static QByteArray largeMapWithDuplicate()
    {
        QByteArray text = "big:\n";
        for (int i = 0; i < 40; ++i)
            text += "  k" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\n";
        return text + "  k7: again\n";
    }

    /// A flow list of `items` ones on one line.
    static QByteArray flowList(int items) { return "[" + QByteArray("1,").repeated(items - 1) + "1]"; }

    /// A block list of `items` ones, one a line.
    static QByteArray blockList(int items) { return QByteArray("- 1\n").repeated(items); }

    /// Anchors that each hold the one before twice: 2^levels nulls once expanded.
    static QByteArray aliasBomb(int levels)
    {
        QByteArray text = "a0: &a0 [x, x]\n";
        for (int i = 1; i <= levels; ++i) {
            const QByteArray previous = "*a" + QByteArray::number(i - 1);
            text += "a" + QByteArray::number(i) + ": &a" + QByteArray::number(i) + " [" + previous + ", " + previous
                + "]\n";
        }
        return text;
    }

    /// Anchors that each hold the one before once, `links` deep, on one line.
    static QByteArray aliasChain(int links)
    {
        QByteArray text = "- &c0 x\n";
        for (int i = 1; i <= links; ++i)
            text += "- &c" + QByteArray::number(i) + " [*c" + QByteArray::number(i - 1) + "]\n";
        return text;
    }

private Q_SLOTS:
    void scalarTyping_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<Json>("expected");
        QTest::newRow("plain string") << QStringLiteral("v: nginx") << Json("nginx");
        QTest::newRow("quoted number") << QStringLiteral("v: \"0644\"") << Json("0644");
        QTest::newRow("single quoted") << QStringLiteral("v: '8080'") << Json("8080");
        QTest::newRow("leading zero is octal") << QStringLiteral("v: 0644") << Json(420);
        QTest::newRow("0o octal") << QStringLiteral("v: 0o755") << Json(493);
        QTest::newRow("hex") << QStringLiteral("v: 0x1F") << Json(31);
        QTest::newRow("decimal") << QStringLiteral("v: 8080") << Json(8080);
        QTest::newRow("negative") << QStringLiteral("v: -3") << Json(-3);
        QTest::newRow("float") << QStringLiteral("v: 1.5") << Json(1.5);
        QTest::newRow("exponent") << QStringLiteral("v: 1e3") << Json(1000.0);
        QTest::newRow("version string") << QStringLiteral("v: 1.2.3") << Json("1.2.3");
        QTest::newRow("true") << QStringLiteral("v: true") << Json(true);
        QTest::newRow("False") << QStringLiteral("v: False") << Json(false);
        QTest::newRow("yes stays a string") << QStringLiteral("v: yes") << Json("yes");
        QTest::newRow("tilde") << QStringLiteral("v: ~") << Json(nullptr);
        QTest::newRow("empty") << QStringLiteral("v:") << Json(nullptr);
        QTest::newRow("explicit str tag") << QStringLiteral("v: !!str 12") << Json("12");
        QTest::newRow("inf") << QStringLiteral("v: .inf") << Json(std::numeric_limits<double>::infinity());
        QTest::newRow("huge integer is a float") << QStringLiteral("v: 99999999999999999999") << Json(1e20);
        QTest::newRow("template") << QStringLiteral("v: \"{{ lookup('x') }}\"") << Json("{{ lookup('x') }}");
    }

    void scalarTyping()
    {
        QFETCH(QString, yaml);
        QFETCH(Json, expected);
        const YamlReadResult result = readYaml(yaml.toStdString());
        QVERIFY2(result.document, qPrintable(describe(result.diagnostics)));
        QCOMPARE(q(result.document->root["v"].dump()), q(expected.dump()));
    }

    void positions()
    {
        const std::string text = "data:\n"
                                 "  name: web\n"
                                 "  ports:\n"
                                 "    - 80\n"
                                 "    -   443\n"
                                 "ccm: {fail_on_error: true}\n";
        const YamlReadResult result = readYaml(text);
        QVERIFY(result.document);
        const SourceMap &map = result.document->sourceMap;
        QCOMPARE(map.keyAt("/data/name"), (SourcePosition{2, 3}));
        QCOMPARE(map.valueAt("/data/name"), (SourcePosition{2, 9}));
        QCOMPARE(map.valueAt("/data/ports/1"), (SourcePosition{5, 9}));
        QCOMPARE(map.valueAt("/ccm/fail_on_error"), (SourcePosition{6, 22}));
        // A pointer below a known node falls back to that node.
        QCOMPARE(map.valueAt("/data/name/missing"), (SourcePosition{2, 9}));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("the manifest is empty") << 1;
        QTest::newRow("only comments") << QByteArray("# nothing\n\n") << QStringLiteral("the manifest is empty") << 1;
        QTest::newRow("binary") << QByteArray("ccm:\n  x\0y", 10) << QStringLiteral("not a text file") << 2;
        QTest::newRow("latin1") << QByteArray("data:\n  name: caf\xe9\n") << QStringLiteral("not a UTF-8 text file") << 2;
        QTest::newRow("truncated utf8") << QByteArray("data: \xc3") << QStringLiteral("not a UTF-8 text file") << 1;
        QTest::newRow("bad indentation") << QByteArray("data:\n  a: 1\n b: 2\n") << QStringLiteral("invalid YAML: `b` is indented 1 space but its siblings 2") << 3;
        QTest::newRow("unclosed flow") << QByteArray("data: {a: 1\n") << QStringLiteral("invalid YAML: the '{' opened here is never closed") << 1;
        QTest::newRow("unclosed double quote") << QByteArray("data:\n  a: \"x\n  b: 1\n") << QStringLiteral("never closed") << 2;
        QTest::newRow("unclosed single quote") << QByteArray("data:\n  a: 'it''s\n") << QStringLiteral("never closed") << 2;
        QTest::newRow("tab indentation") << QByteArray("data:\n\ta: 1\n") << QStringLiteral("invalid YAML: a tab indents this line") << 2;
        QTest::newRow("two documents") << QByteArray("data: {}\n---\nccm: {}\n") << QStringLiteral("2 YAML documents") << 3;
        QTest::newRow("duplicate key") << QByteArray("data:\n  a: 1\n  a: 2\n") << QStringLiteral("duplicate key 'a' (first defined at line 2)") << 3;
        QTest::newRow("complex key") << QByteArray("? [a, b]\n: 1\n") << QStringLiteral("map keys must be plain strings") << 1;
        QTest::newRow("duplicate key in a large map")
            << largeMapWithDuplicate() << QStringLiteral("duplicate key 'k7' (first defined at line 9)") << 42;
        QTest::newRow("list holding itself")
            << QByteArray("a: &a [*a]\n") << QStringLiteral("refers to a node that holds it") << 1;
        QTest::newRow("map holding itself")
            << QByteArray("a: &a {b: *a}\n") << QStringLiteral("refers to a node that holds it") << 1;
        QTest::newRow("alias chain nesting too deep")
            << aliasChain(1100) << QStringLiteral("levels deep once aliases are expanded") << 1;
        QTest::newRow("stray comma") << QByteArray("[2],\n") << QStringLiteral("invalid YAML: unexpected ','") << 1;
        QTest::newRow("comma after a list")
            << QByteArray("- a\n,\n") << QStringLiteral("invalid YAML: unexpected ','") << 2;
    }

    void badInput()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QFETCH(int, line);
        const YamlReadResult result = readYaml(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        QVERIFY(!result.diagnostics.empty());
        QVERIFY2(q(result.diagnostics.front().message).contains(message), qPrintable(describe(result.diagnostics)));
        QCOMPARE(result.diagnostics.front().severity, Severity::Error);
        QCOMPARE(result.diagnostics.front().position.line, line);
    }

    void aliasesRepeatTheirNode()
    {
        const YamlReadResult result = readYaml("x: &m {a: \"s\", b: [1, t]}\ny: *m\nz: [*m]\n");
        QVERIFY2(result.document, qPrintable(describe(result.diagnostics)));
        const Json expected = Json::parse(R"({"a": "s", "b": [1, "t"]})");
        QCOMPARE(q(result.document->root["y"].dump()), q(expected.dump()));
        QCOMPARE(q(result.document->root["z"][0].dump()), q(expected.dump()));
        // The nodes are the anchored ones, so their positions are too.
        QCOMPARE(result.document->sourceMap.valueAt("/y/a"), (SourcePosition {1, 11}));
        QCOMPARE(result.document->sourceMap.valueAt("/z/0/b/1"), (SourcePosition {1, 23}));
    }

    void nodeBudget_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("maxNodes");
        QTest::addColumn<int>("line"); // where the budget runs out; 0 when the text loads
        QTest::addColumn<int>("column");
        // The root list and its items are the nodes.
        QTest::newRow("flow list at the budget") << flowList(99) << 100 << 0 << 0;
        QTest::newRow("flow list past the budget") << flowList(100) << 100 << 1 << 200;
        QTest::newRow("block list at the budget") << blockList(99) << 100 << 0 << 0;
        QTest::newRow("block list past the budget") << blockList(100) << 100 << 100 << 3;
        // A map of n members is 2n + 1 nodes: its keys count.
        QTest::newRow("map at the budget") << QByteArray("{a: 1, b: 2}") << 5 << 0 << 0;
        QTest::newRow("map past the budget") << QByteArray("{a: 1, b: 2}") << 4 << 1 << 11;
        // a0 holds 3 nodes, each further level 1 + twice the one before; the root map and keys
        // bring the document to 94 nodes before the second alias of line 5 adds 31 more.
        QTest::newRow("alias bomb") << aliasBomb(30) << 100 << 5 << 15;
        QTest::newRow("alias bomb at the budget") << aliasBomb(3) << 61 << 0 << 0;
        QTest::newRow("alias bomb one node past the budget") << aliasBomb(3) << 60 << 4 << 15;
        QTest::newRow("alias bomb at the default budget")
            << aliasBomb(30) << static_cast<int>(kDefaultMaxYamlNodes) << 18 << 18;
    }

    /// A text with more nodes than the budget is refused where the budget runs out, before the
    /// rest is read or any alias expanded; one with as many loads.
    void nodeBudget()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, maxNodes);
        QFETCH(int, line);
        QFETCH(int, column);
        const YamlReadResult result
            = readYaml(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                YamlLimits {static_cast<std::size_t>(maxNodes)});
        if (line == 0) {
            QVERIFY2(result.document, qPrintable(describe(result.diagnostics)));
            return;
        }
        QVERIFY(!result.document);
        QCOMPARE(result.diagnostics.size(), std::size_t(1));
        const Diagnostic &error = result.diagnostics.front();
        QCOMPARE(error.severity, Severity::Error);
        QVERIFY2(q(error.message).startsWith(QStringLiteral("the document has more than %1 nodes").arg(maxNodes)),
            qPrintable(describe(result.diagnostics)));
        QVERIFY2(q(error.message).contains(QStringLiteral("split it into smaller manifests")),
            qPrintable(describe(result.diagnostics)));
        QCOMPARE(error.position, (SourcePosition {line, column}));
    }

    void flowCollectionLimit_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("maxItems");
        QTest::addColumn<int>("line"); // where the limit runs out; 0 when the text loads
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("start"); // where the collection starts, as the message says it
        QTest::newRow("list at the limit") << QByteArray("[1,1,1]") << 2 << 0 << 0 << QString();
        QTest::newRow("list past the limit")
            << QByteArray("[1,1,1,1]") << 2 << 1 << 7 << QStringLiteral("line 1, column 1");
        QTest::newRow("map past the limit")
            << QByteArray("data: {a: 1, b: 2, c: 3}") << 1 << 1 << 18 << QStringLiteral("line 1, column 7");
        QTest::newRow("nested collections count")
            << QByteArray("[[1], [2]]") << 2 << 1 << 7 << QStringLiteral("line 1, column 1");
        QTest::newRow("over several lines")
            << QByteArray("x:\n  - [\n    1,\n    2,\n    3]\n") << 1 << 4 << 6 << QStringLiteral("line 2, column 5");
        QTest::newRow("each collection on its own")
            << QByteArray("a: [1, 2]\nb: [3, 4]\nc: {d: [5, 6]}\n") << 2 << 0 << 0 << QString();
        QTest::newRow("brackets that open no collection") << QByteArray(
            "a: \"[1,2,3]\"\nb: '[1,2,3]'\nc: x [1,2,3,4\n# [1,2,3,4\nd: |\n  [1,2,3,4\n  ]\n"
            "e: [1, 'a,b,c', \"d,],e\"]\n") << 2 << 0 << 0 << QString();
        QTest::newRow("default limit") << flowList(static_cast<int>(kDefaultMaxFlowItems) + 1)
                                       << static_cast<int>(kDefaultMaxFlowItems) << 0 << 0 << QString();
        QTest::newRow("past the default limit")
            << flowList(static_cast<int>(kDefaultMaxFlowItems) + 2) << static_cast<int>(kDefaultMaxFlowItems) << 1
            << static_cast<int>(2 * kDefaultMaxFlowItems + 3) << QStringLiteral("line 1, column 1");
    }

    /// yaml-cpp reads a whole flow collection before reporting any of it, so a long one is refused
    /// before parsing, where it goes past the limit.
    void flowCollectionLimit()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, maxItems);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, start);
        YamlLimits limits;
        limits.maxFlowItems = static_cast<std::size_t>(maxItems);
        const YamlReadResult result
            = readYaml(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), limits);
        if (line == 0) {
            QVERIFY2(result.document, qPrintable(describe(result.diagnostics)));
            return;
        }
        QVERIFY(!result.document);
        QCOMPARE(result.diagnostics.size(), std::size_t(1));
        const Diagnostic &error = result.diagnostics.front();
        QVERIFY2(q(error.message)
                     .contains(QStringLiteral("that starts at %1 holds more than %2 items").arg(start).arg(maxItems)),
            qPrintable(describe(result.diagnostics)));
        QVERIFY2(q(error.message).contains(QStringLiteral("block style")), qPrintable(describe(result.diagnostics)));
        QCOMPARE(error.position, (SourcePosition {line, column}));
    }

    /// The default budget holds a document as large as it allows, here a list of a million
    /// nodes that aliases make out of a short text.
    void defaultBudgetLoadsUpToIt()
    {
        // l0 is a list of 1,000 nulls, 1,001 nodes; the root list holds it and repeats it 998
        // times: 1 + 999 * 1,001 = 1,000,000 nodes.
        QByteArray text = "- &l0 [" + QByteArray("~,").repeated(999) + "~]\n";
        for (int i = 1; i < 999; ++i)
            text += "- *l0\n";
        const YamlReadResult loaded = readYaml(text.toStdString());
        QVERIFY2(loaded.document, qPrintable(describe(loaded.diagnostics)));
        QCOMPARE(loaded.document->root.size(), std::size_t(999));
        const YamlReadResult refused = readYaml((text + "- extra\n").toStdString());
        QVERIFY(!refused.document);
        QCOMPARE(refused.diagnostics.front().position, (SourcePosition {1000, 3}));
    }

    void scalarByteBudget_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("maxBytes");
        QTest::addColumn<int>("line"); // where the budget runs out; 0 when the text loads
        QTest::addColumn<int>("column");
        // "key" and "list" 7 bytes, the anchored value 10, each alias 10 more.
        const QByteArray repeated = "key: &v xxxxxxxxxx\nlist:\n  - *v\n  - *v\n";
        QTest::newRow("aliases at the budget") << repeated << 37 << 0 << 0;
        QTest::newRow("second alias past the budget") << repeated << 36 << 4 << 5;
        QTest::newRow("long scalar past the budget") << QByteArray("a: xxxxxxxxxx\n") << 10 << 1 << 4;
        QTest::newRow("anchored map repeats its keys") << QByteArray("m: &m {abcd: e}\nn: *m\n") << 11 << 2 << 4;
    }

    /// Aliases that repeat long strings are refused where they go past the byte budget, which the
    /// node budget does not bound: the repeats would be copied into the document.
    void scalarByteBudget()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, maxBytes);
        QFETCH(int, line);
        QFETCH(int, column);
        YamlLimits limits;
        limits.maxScalarBytes = static_cast<std::size_t>(maxBytes);
        const YamlReadResult result
            = readYaml(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), limits);
        if (line == 0) {
            QVERIFY2(result.document, qPrintable(describe(result.diagnostics)));
            return;
        }
        QVERIFY(!result.document);
        QCOMPARE(result.diagnostics.size(), std::size_t(1));
        QVERIFY2(q(result.diagnostics.front().message)
                     .contains(QStringLiteral("strings (map keys and what aliases repeat included)")),
            qPrintable(describe(result.diagnostics)));
        QCOMPARE(result.diagnostics.front().position, (SourcePosition {line, column}));
    }

    /// The default budget stops a 4 MiB string repeated 2,000 times (8 GiB once copied) at the
    /// alias that goes past 64 MiB.
    void longStringAliasesAreRefused()
    {
        const std::string text = "a: &a " + std::string(4 * 1024 * 1024, 'x') + "\nb:\n" + [] {
            std::string aliases;
            for (int i = 0; i < 2000; ++i)
                aliases += "  - *a\n";
            return aliases;
        }();
        const YamlReadResult result = readYaml(text);
        QVERIFY(!result.document);
        QVERIFY2(q(result.diagnostics.front().message).contains(QStringLiteral("more than 64 MiB")),
            qPrintable(describe(result.diagnostics)));
        QCOMPARE(result.diagnostics.front().position, (SourcePosition {17, 5}));
    }

    /// 50 nested keys of a thousand characters above a list of 99,000 items: every item's pointer
    /// is 50 KB long, which cost gigabytes when the source map kept each pointer whole.
    void longKeysAboveALongList()
    {
        std::string text;
        std::string pointer;
        for (int depth = 0; depth < 50; ++depth) {
            const std::string key = std::string(1000, 'k') + std::to_string(depth);
            text += std::string(static_cast<std::size_t>(2 * depth), ' ') + key + ":\n";
            pointer += "/" + key;
        }
        text += std::string(100, ' ') + "- 1\n";
        for (int i = 1; i < 99000; ++i)
            text += std::string(100, ' ') + "- " + std::to_string(i) + "\n";
        const YamlReadResult result = readYaml(text);
        QVERIFY2(result.document, qPrintable(describe(result.diagnostics)));
        const SourceMap &map = result.document->sourceMap;
        QCOMPARE(map.size(), std::size_t(1 + 50 + 99000));
        QCOMPARE(map.valueAt(pointer + "/0"), (SourcePosition {51, 103}));
        QCOMPARE(map.valueAt(pointer + "/98999"), (SourcePosition {99050, 103}));
        QCOMPARE(result.document->root.at(Json::json_pointer(pointer)).size(), std::size_t(99000));
    }

    /// Diagnostics name the node they are about, built from the source map only when reported.
    void diagnosticPaths_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("path");
        QTest::newRow("duplicate key") << QByteArray("data:\n  x/y:\n    - a: 1\n      a: 2\n")
                                       << QStringLiteral("/data/x~1y/0/a");
        QTest::newRow("complex key") << QByteArray("data:\n  m~n:\n    ? [a, b]\n    : 1\n")
                                     << QStringLiteral("/data/m~0n");
        QTest::newRow("unclosed quote") << QByteArray("data:\n  list:\n    - 1\n    - \"x\n")
                                        << QStringLiteral("/data/list/1");
        QTest::newRow("alias chain") << aliasChain(1100)
                                     << QStringLiteral("/1000") + QStringLiteral("/0").repeated(1000);
    }

    void diagnosticPaths()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, path);
        const YamlReadResult result
            = readYaml(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        QVERIFY(!result.diagnostics.empty());
        QCOMPARE(q(result.diagnostics.front().path), path);
    }

    void deepNestingIsRefused()
    {
        const std::string text = std::string(100000, '[') + std::string(100000, ']');
        const YamlReadResult result = readYaml(text);
        QVERIFY(!result.document);
        QVERIFY(!result.diagnostics.empty());
        QCOMPARE(result.diagnostics.front().severity, Severity::Error);
    }
};

CCM_TEST_GUILESS_MAIN(TestYamlReader)
#include "tst_yaml_reader.moc"
