// SPDX-License-Identifier: Apache-2.0
#include "core/model/json.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

constexpr int kLargeMap = 100000;

/// {"k0": 0, "k1": 1, ...} as JSON text.
std::string largeObjectText(int keys)
{
    std::string text = "{";
    for (int i = 0; i < keys; ++i)
        text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    return text + "}";
}

} // namespace

/// The type of every value in `json`, in document order.
std::string typesOf(const Json &json)
{
    std::string types(json.type_name());
    if (json.is_number_unsigned())
        types = "unsigned";
    else if (json.is_number_integer())
        types = "integer";
    if (json.is_structured()) {
        types += '(';
        for (const Json &item : json)
            types += typesOf(item) + ' ';
        types += ')';
    }
    return types;
}

class TestJson : public QObject {
    Q_OBJECT

private slots:
    void parseMatchesLibrary_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("scalar") << QStringLiteral("42");
        QTest::newRow("nested") << QStringLiteral(R"({"b": [1, 2.5, {"x": null}], "a": {"c": true, "d": "s"}})");
        QTest::newRow("duplicate keys keep the first place and the last value")
            << QStringLiteral(R"({"a": 1, "b": 2, "a": 3})");
        QTest::newRow("duplicates in a larger map") << QStringLiteral(
            R"({"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":[3],"k10":10})");
        QTest::newRow("empty containers") << QStringLiteral(R"({"a": {}, "b": []})");
        // Not raw strings below: moc misreads raw strings that hold quotes and brackets.
        QTest::newRow("integers keep the library's types")
            << QStringLiteral("[0, 7, -7, 9223372036854775807, 9223372036854775808, 18446744073709551615, "
                              "-9223372036854775808]");
        QTest::newRow("beyond 64 bits") << QStringLiteral("[18446744073709551616, -9223372036854775809]");
        QTest::newRow("floats") << QStringLiteral("[0.5, -2.25e-3, 1E+20, 3.0, -0.0, 1.7976931348623157e308]");
        QTest::newRow("negative zero without a fraction") << QStringLiteral("[-0, 0]");
        QTest::newRow("negative zero inside strings")
            << QStringLiteral("{\"diff\": \"@@ -0,0 +1 @@ \\\"-0\", \"n\": 0, \"m\": -0.5}");
        QTest::newRow("escapes and characters beyond ASCII")
            << QStringLiteral("{\"q\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"u\": \"\\u00e9\\ud83d\\ude00\", \"raw\": "
                              "\"\u00e9\U0001F600\"}");
        QTest::newRow("deeper than the fast parser reads")
            << QString(300, QLatin1Char('[')) + QString(300, QLatin1Char(']'));
    }

    /// Every value parseJson builds has the type and value the library's parser gives.
    void parseMatchesLibrary()
    {
        QFETCH(QString, text);
        const std::string utf8 = text.toStdString();
        const Json parsed = parseJson(utf8);
        const Json library = Json::parse(utf8);
        QCOMPARE(q(parsed.dump()), q(library.dump()));
        QCOMPARE(q(typesOf(parsed)), q(typesOf(library)));
    }

    /// Text either parser refuses, the other refuses too, with the library's error.
    void refusalsMatchLibrary_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("trailing comma") << QByteArray("{\"a\": 1,}");
        QTest::newRow("two values") << QByteArray("{} {}");
        QTest::newRow("lone surrogate") << QByteArray("[\"\\ud800\"]");
        QTest::newRow("invalid UTF-8") << QByteArray("[\"\xff\xfe\"]");
        QTest::newRow("control character in a string") << QByteArray("[\"a\tb\"]");
        QTest::newRow("leading zero") << QByteArray("[01]");
        QTest::newRow("out of range float") << QByteArray("[1e400]");
        QTest::newRow("bare word") << QByteArray("[nul]");
        QTest::newRow("empty") << QByteArray("");
    }

    void refusalsMatchLibrary()
    {
        QFETCH(QByteArray, text);
        const std::string_view view(text.constData(), static_cast<std::size_t>(text.size()));
        const bool libraryAccepts = Json::accept(view);
        QCOMPARE(!parseJson(view, false).is_discarded(), libraryAccepts);
        if (libraryAccepts)
            QCOMPARE(q(parseJson(view).dump()), q(Json::parse(view).dump()));
    }

    void parseErrors()
    {
        QVERIFY(parseJson("{\"a\": ", false).is_discarded());
        try {
            (void)parseJson("{\"a\": 1,, }");
            QFAIL("no exception");
        } catch (const Json::parse_error &error) {
            QCOMPARE(error.byte, std::size_t(9));
        }
    }

    /// The library's parser took many seconds for this size.
    void parseLargeMap()
    {
        const Json parsed = parseJson(largeObjectText(kLargeMap));
        QCOMPARE(parsed.size(), std::size_t(kLargeMap));
        int expected = 0;
        for (const auto &[key, value] : parsed.items()) {
            QCOMPARE(q(key), QStringLiteral("k%1").arg(expected));
            QCOMPARE(value.get<int>(), expected);
            ++expected;
        }
    }

    /// Both maps share half their keys; a linear search per key took many seconds for this size.
    void deepMergeLargeMaps()
    {
        Json base = Json::object();
        Json overlay = Json::object();
        for (int i = 0; i < kLargeMap; ++i)
            appendMember(base, "k" + std::to_string(i), Json::array({i}));
        for (int i = kLargeMap / 2; i < kLargeMap + kLargeMap / 2; ++i)
            appendMember(overlay, "k" + std::to_string(i), Json::array({-i}));
        deepMerge(base, overlay);

        QCOMPARE(base.size(), std::size_t(kLargeMap + kLargeMap / 2));
        int expected = 0;
        for (const auto &[key, value] : base.items()) {
            QCOMPARE(q(key), QStringLiteral("k%1").arg(expected));
            Json want = Json::array();
            if (expected < kLargeMap)
                want.push_back(expected);
            if (expected >= kLargeMap / 2)
                want.push_back(-expected);
            QCOMPARE(q(value.dump()), q(want.dump()));
            ++expected;
        }
    }

    void memberSetter()
    {
        Json object;
        MemberSetter members(object);
        for (int round = 0; round < 2; ++round) {
            for (int i = 0; i < 20; ++i)
                members["k" + std::to_string(i)] = round * 100 + i;
        }
        QVERIFY(!members.find("k20"));
        QCOMPARE(members.find("k7")->get<int>(), 107);
        QCOMPARE(object.size(), std::size_t(20));
        QCOMPARE(q(object.begin().key()), QStringLiteral("k0"));
        QCOMPARE(object["k19"].get<int>(), 119);
    }

    // The index answers as a linear search does, whatever happened to the map since it was built.
    void memberIndexMatchesLinearSearch()
    {
        const auto bigMap = [](const std::string &prefix, int size) {
            Json map = Json::object();
            for (int i = 0; i < size; ++i)
                appendMember(map, prefix + std::to_string(i), i);
            return map;
        };
        MemberIndex index;
        Json map = bigMap("key", 1000);
        for (int i = 0; i < 1000; i += 7) {
            const Json *found = index.find(map, "key" + std::to_string(i));
            QVERIFY(found);
            QCOMPARE(found->get<int>(), i);
        }
        QVERIFY(!index.find(map, "absent"));
        QVERIFY(!index.find(map, "key1000"));

        // A new member, a member erased and one put in place of another, at the same address.
        map["added"] = -1;
        QCOMPARE(index.find(map, "added")->get<int>(), -1);
        map.erase("key3");
        QVERIFY(!index.find(map, "key3"));
        QCOMPARE(index.find(map, "key999")->get<int>(), 999);
        map.erase("key4");
        map["other"] = -2;
        QCOMPARE(index.find(map, "other")->get<int>(), -2);
        QVERIFY(!index.find(map, "key4"));
        QCOMPARE(index.find(map, "key5")->get<int>(), 5);

        // Another map of the same size at the same address, as when a map is freed and another
        // takes its place.
        map = bigMap("name", 1000);
        QVERIFY(!index.find(map, "key10"));
        QCOMPARE(index.find(map, "name10")->get<int>(), 10);

        // Small maps are searched directly, and many maps do not grow the index without bound.
        Json small = bigMap("s", 5);
        QCOMPARE(index.find(small, "s4")->get<int>(), 4);
        std::vector<Json> many(200, bigMap("m", 100));
        for (const Json &each : many)
            QCOMPARE(index.find(each, "m99")->get<int>(), 99);
    }
};

CCM_TEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
