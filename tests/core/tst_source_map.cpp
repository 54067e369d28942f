// SPDX-License-Identifier: Apache-2.0
#include "core/yaml/source_map.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestSourceMap : public QObject
{
    Q_OBJECT

    /// The pointer of `depth` nested keys of a thousand characters each.
    static QString deepPointer(int depth)
    {
        QString pointer;
        for (int i = 1; i <= depth; ++i)
            pointer += QStringLiteral("/%1%2").arg(QString(1000, QLatin1Char('k'))).arg(i);
        return pointer;
    }

private Q_SLOTS:
    void splitPointer_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QStringList>("tokens");
        QTest::newRow("root") << QString() << QStringList{};
        QTest::newRow("one") << QStringLiteral("/data") << QStringList{QStringLiteral("data")};
        QTest::newRow("nested") << QStringLiteral("/data/list/0")
                                << QStringList{QStringLiteral("data"), QStringLiteral("list"), QStringLiteral("0")};
        QTest::newRow("escapes") << QStringLiteral("/~1etc~1motd/a~0b")
                                 << QStringList{QStringLiteral("/etc/motd"), QStringLiteral("a~b")};
        QTest::newRow("empty token") << QStringLiteral("/a//b")
                                     << QStringList{QStringLiteral("a"), QString(), QStringLiteral("b")};
        QTest::newRow("trailing slash") << QStringLiteral("/a/") << QStringList{QStringLiteral("a"), QString()};
    }

    void splitPointer()
    {
        QFETCH(QString, pointer);
        QFETCH(QStringList, tokens);
        QStringList split;
        for (const std::string &token : ccm::splitPointer(pointer.toStdString()))
            split << q(token);
        QCOMPARE(split, tokens);
    }

    void splitUndoesAppend()
    {
        const std::string pointer = appendPointer(appendPointer("", "os:debian/x"), "a~b");
        QCOMPARE(ccm::splitPointer(pointer), (std::vector<std::string>{"os:debian/x", "a~b"}));
    }

    void appendInPlace()
    {
        std::string pointer = "/data";
        appendPointerToken(pointer, "a/b~c");
        QCOMPARE(q(pointer), QStringLiteral("/data/a~1b~0c"));
        QCOMPARE(q(pointer), q(appendPointer("/data", "a/b~c")));
    }

    void lineIndex_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("start") << QStringLiteral("ab\ncd") << 0 << 1 << 1;
        QTest::newRow("first line") << QStringLiteral("ab\ncd") << 1 << 1 << 2;
        QTest::newRow("newline itself") << QStringLiteral("ab\ncd") << 2 << 1 << 3;
        QTest::newRow("second line") << QStringLiteral("ab\ncd") << 3 << 2 << 1;
        QTest::newRow("end") << QStringLiteral("ab\ncd") << 5 << 2 << 3;
        QTest::newRow("empty lines") << QStringLiteral("\n\n\nx") << 3 << 4 << 1;
        QTest::newRow("empty text") << QString() << 0 << 1 << 1;
    }

    void lineIndex()
    {
        QFETCH(QString, text);
        QFETCH(int, offset);
        QFETCH(int, line);
        QFETCH(int, column);
        QCOMPARE(LineIndex(text.toStdString()).at(static_cast<std::size_t>(offset)), (SourcePosition{line, column}));
    }

    void describeLocation()
    {
        QCOMPARE(q(ccm::describeLocation("site.yaml", {3, 7})), QStringLiteral("site.yaml:3:7"));
        QCOMPARE(q(ccm::describeLocation("", {3, 7})), QStringLiteral("3:7"));
        QCOMPARE(q(ccm::describeLocation("site.yaml", {})), QStringLiteral("site.yaml"));
    }

    void positionInScalar_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("column"); // in the scalar's value
        QTest::addColumn<int>("expected"); // in the line
        QTest::newRow("plain") << QStringLiteral("a: x{{ y }}") << 5 << 8;
        QTest::newRow("double quoted") << QStringLiteral("a: \"x{{ y }}\"") << 5 << 9;
        QTest::newRow("single quoted") << QStringLiteral("a: 'x{{ y }}'") << 5 << 9;
        QTest::newRow("block scalar") << QStringLiteral("a: |\n  x{{ y }}") << 5 << 4;
    }

    void positionInScalar()
    {
        QFETCH(QString, text);
        QFETCH(int, column);
        QFETCH(int, expected);
        const SourcePosition position = ccm::positionInScalar(text.toStdString(), {1, 4}, column);
        QCOMPARE(position, (SourcePosition{1, expected}));
    }

    void lookups_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<int>("valueLine");
        QTest::addColumn<int>("keyLine");
        QTest::addColumn<bool>("contained");
        QTest::newRow("root") << QString() << 1 << 1 << true;
        QTest::newRow("member") << QStringLiteral("/data") << 3 << 2 << true;
        QTest::newRow("escaped token") << QStringLiteral("/data/a~1b") << 5 << 4 << true;
        QTest::newRow("replaced") << QStringLiteral("/data/again") << 9 << 8 << true;
        QTest::newRow("first of many") << QStringLiteral("/list/0") << 100 << 100 << true;
        QTest::newRow("last of many") << QStringLiteral("/list/4999") << 5099 << 5099 << true;
        QTest::newRow("below a member") << QStringLiteral("/data/a~1b/x/y") << 5 << 4 << false;
        QTest::newRow("below the last of many") << QStringLiteral("/list/4999/x") << 5099 << 5099 << false;
        QTest::newRow("unknown member") << QStringLiteral("/nothing") << 1 << 1 << false;
        QTest::newRow("prefix of a member") << QStringLiteral("/dat") << 1 << 1 << false;
        QTest::newRow("not a pointer") << QStringLiteral("data") << 1 << 1 << false;
    }

    void lookups()
    {
        QFETCH(QString, pointer);
        QFETCH(int, valueLine);
        QFETCH(int, keyLine);
        QFETCH(bool, contained);
        SourceMap map;
        map.add("", {{}, {1, 1}});
        map.add("/data", {{2, 1}, {3, 3}});
        map.add("/data/a~1b", {{4, 3}, {5, 5}});
        map.add("/data/again", {{6, 3}, {7, 5}});
        // Enough nodes that the map grows several times after the early ones went in.
        for (int i = 0; i < 5000; ++i)
            map.add("/list/" + std::to_string(i), {{}, {100 + i, 3}});
        map.add("/data/again", {{8, 3}, {9, 5}});
        QCOMPARE(map.size(), std::size_t(5004));
        QCOMPARE(map.valueAt(pointer.toStdString()).line, valueLine);
        QCOMPARE(map.keyAt(pointer.toStdString()).line, keyLine);
        QCOMPARE(map.contains(pointer.toStdString()), contained);
    }

    /// Lookups by pointer find nodes added by parent entry, whatever their depth and the length of
    /// the keys above them, and each node costs the same whatever its pointer.
    void deepPointers_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<int>("valueLine");
        QTest::addColumn<bool>("contained");
        QTest::newRow("root") << QString() << 1 << true;
        QTest::newRow("first long key") << deepPointer(1) << 2 << true;
        QTest::newRow("deepest key") << deepPointer(50) << 51 << true;
        QTest::newRow("first item") << deepPointer(50) + QStringLiteral("/0") << 100 << true;
        QTest::newRow("last item") << deepPointer(50) + QStringLiteral("/9999") << 10099 << true;
        QTest::newRow("past the last item") << deepPointer(50) + QStringLiteral("/10000") << 51 << false;
        QTest::newRow("below an item") << deepPointer(50) + QStringLiteral("/7/x/y") << 107 << false;
        QTest::newRow("leading zero is a key, not an item") << deepPointer(50) + QStringLiteral("/07") << 51 << false;
        QTest::newRow("key one short") << deepPointer(49) + QStringLiteral("/k") << 50 << false;
    }

    void deepPointers()
    {
        QFETCH(QString, pointer);
        QFETCH(int, valueLine);
        QFETCH(bool, contained);
        SourceMap map;
        SourceMap::EntryId at = map.addRoot({{}, {1, 1}});
        for (int depth = 1; depth <= 50; ++depth)
            at = map.addMember(at, std::string(1000, 'k') + std::to_string(depth), {{depth + 1, 1}, {depth + 1, 1003}});
        for (int i = 0; i < 10000; ++i)
            map.addItem(at, static_cast<std::size_t>(i), {{}, {100 + i, 5}});
        QCOMPARE(map.size(), std::size_t(10051));
        QCOMPARE(map.valueAt(pointer.toStdString()).line, valueLine);
        QCOMPARE(map.contains(pointer.toStdString()), contained);
    }

    /// Keys with "~" and "/" are found through their escaped tokens, and pointerOf escapes them.
    void escapedTokens_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("pointer");
        QTest::newRow("slash") << QStringLiteral("/etc/motd") << QStringLiteral("/files/~1etc~1motd");
        QTest::newRow("tilde") << QStringLiteral("a~b") << QStringLiteral("/files/a~0b");
        QTest::newRow("escape lookalike") << QStringLiteral("~1") << QStringLiteral("/files/~01");
        QTest::newRow("both") << QStringLiteral("~/") << QStringLiteral("/files/~0~1");
        QTest::newRow("empty") << QString() << QStringLiteral("/files/");
        QTest::newRow("number") << QStringLiteral("42") << QStringLiteral("/files/42");
        QTest::newRow("tilde before a letter") << QStringLiteral("~x") << QStringLiteral("/files/~0x");
    }

    void escapedTokens()
    {
        QFETCH(QString, key);
        QFETCH(QString, pointer);
        SourceMap map;
        const SourceMap::EntryId root = map.addRoot({{}, {1, 1}});
        const SourceMap::EntryId files = map.addMember(root, "files", {{2, 1}, {3, 3}});
        map.addMember(files, "other", {{4, 3}, {4, 10}});
        const SourceMap::EntryId entry = map.addMember(files, key.toStdString(), {{5, 3}, {5, 9}});
        QCOMPARE(q(map.pointerOf(entry)), pointer);
        QVERIFY(map.contains(pointer.toStdString()));
        QCOMPARE(map.keyAt(pointer.toStdString()), (SourcePosition {5, 3}));
        QCOMPARE(map.valueAt(pointer.toStdString()), (SourcePosition {5, 9}));
        // Adding by pointer reaches the same node.
        map.add(pointer.toStdString(), {{6, 3}, {6, 9}});
        QCOMPARE(map.valueAt(pointer.toStdString()), (SourcePosition {6, 9}));
        QCOMPARE(map.size(), std::size_t(4));
    }

    void pointerOfItemsAndRoot()
    {
        SourceMap map;
        const SourceMap::EntryId root = map.addRoot({{}, {1, 1}});
        const SourceMap::EntryId list = map.addMember(root, "list", {{2, 1}, {3, 3}});
        const SourceMap::EntryId item = map.addItem(list, 12, {{}, {4, 5}});
        const SourceMap::EntryId name = map.addMember(item, "a/b", {{4, 7}, {4, 12}});
        QCOMPARE(q(map.pointerOf(root)), QString());
        QCOMPARE(q(map.pointerOf(list)), QStringLiteral("/list"));
        QCOMPARE(q(map.pointerOf(name)), QStringLiteral("/list/12/a~1b"));
        QCOMPARE(map.valueAt("/list/12/a~1b"), (SourcePosition {4, 12}));
        // Re-adding a node replaces its location and keeps its entry.
        QCOMPARE(map.addItem(list, 12, {{}, {9, 5}}), item);
        QCOMPARE(map.valueAt("/list/12"), (SourcePosition {9, 5}));
        QCOMPARE(map.size(), std::size_t(4));
    }

    /// A node added by pointer below nodes that were never added leaves those unknown: lookups of
    /// them fall back to the nearest node that was added.
    void addByPointerBelowUnknownNodes()
    {
        SourceMap map;
        map.add("/a/b/c", {{3, 5}, {3, 8}});
        QCOMPARE(map.size(), std::size_t(1));
        QVERIFY(map.contains("/a/b/c"));
        QVERIFY(!map.contains("/a/b"));
        QVERIFY(!map.contains(""));
        QCOMPARE(map.valueAt("/a/b"), SourcePosition {});
        QCOMPARE(map.valueAt("/a/b/c/d"), (SourcePosition {3, 8}));
        map.add("", {{}, {1, 1}});
        QCOMPARE(map.valueAt("/a/b"), (SourcePosition {1, 1}));
        map.add("/a", {{1, 1}, {2, 3}});
        QCOMPARE(map.valueAt("/a/b"), (SourcePosition {2, 3}));
        QCOMPARE(map.size(), std::size_t(3));
    }

    void emptyMapKnowsNoPosition()
    {
        const SourceMap map;
        QCOMPARE(map.valueAt("/a"), SourcePosition {});
        QCOMPARE(map.keyAt(""), SourcePosition {});
        QVERIFY(!map.contains(""));
        QCOMPARE(map.size(), std::size_t(0));
    }
};

CCM_TEST_GUILESS_MAIN(TestSourceMap)
#include "tst_source_map.moc"
