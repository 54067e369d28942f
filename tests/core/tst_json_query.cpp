// SPDX-License-Identifier: Apache-2.0
#include "core/model/json_query.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

// Defined after the test class: moc does not read raw strings that span lines.
const char *syntaxDocument();
const char *truthinessDocument();
const char *otherDocument();

} // namespace

class TestJsonQuery : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void query_data()
    {
        QTest::addColumn<QString>("document");
        QTest::addColumn<QString>("path");
        // Compact JSON, "<missing>" for gjson's non-existent result, or "error: TEXT".
        QTest::addColumn<QString>("expected");
        const QString s = QString::fromUtf8(syntaxDocument());
        const QString t = QString::fromUtf8(truthinessDocument());
        const QString o = QString::fromUtf8(otherDocument());
        const auto row = [](const char *name, const QString &document, const char *path, const char *expected) {
            QTest::newRow(name) << document << QString::fromUtf8(path) << QString::fromUtf8(expected);
        };

        // SYNTAX.md: basic, wildcards, escapes, arrays.
        row("name.last", s, "name.last", R"("Anderson")");
        row("name.first", s, "name.first", R"("Tom")");
        row("age", s, "age", "37");
        row("children", s, "children", R"(["Sara","Alex","Jack"])");
        row("children.0", s, "children.0", R"("Sara")");
        row("children.1", s, "children.1", R"("Alex")");
        row("friends.1", s, "friends.1", R"({"first":"Roger","last":"Craig","age":68,"nets":["fb","tw"]})");
        row("friends.1.first", s, "friends.1.first", R"("Roger")");
        row("child*.2", s, "child*.2", R"("Jack")");
        row("c?ildren.0", s, "c?ildren.0", R"("Sara")");
        row("fav\\.movie", s, "fav\\.movie", "\"Deer Hunter\"");
        row("friends.#", s, "friends.#", "3");
        row("friends.#.age", s, "friends.#.age", "[44,68,47]");

        // SYNTAX.md: queries.
        row("query first", s, R"(friends.#(last=="Murphy").first)", R"("Dale")");
        row("query all", s, R"(friends.#(last=="Murphy")#.first)", R"(["Dale","Jane"])");
        row("query number", s, "friends.#(age>45)#.last", R"(["Craig","Murphy"])");
        row("query like", s, R"(friends.#(first%"D*").last)", R"("Murphy")");
        row("query not like", s, R"(friends.#(first!%"D*").last)", R"("Craig")");
        row("query element not like", s, R"(children.#(!%"*a*"))", R"("Alex")");
        row("query element like all", s, R"(children.#(%"*a*")#)", R"(["Sara","Jack"])");
        row("nested query", s, R"(friends.#(nets.#(=="fb"))#.first)", R"(["Dale","Roger"])");
        row("~true", t, "vals.#(b==~true)#.a", "[2,6,7,8]");
        row("~false", t, "vals.#(b==~false)#.a", "[3,4,5,9,10,11]");
        row("~null", t, "vals.#(b==~null)#.a", "[10,11]");
        row("~*", t, "vals.#(b==~*)#.a", "[1,2,3,4,5,6,7,8,9,10]");
        row("!~*", t, "vals.#(b!=~*)#.a", "[11]");

        // SYNTAX.md: dot and pipe.
        row("friends.0.first", s, "friends.0.first", R"("Dale")");
        row("friends|0.first", s, "friends|0.first", R"("Dale")");
        row("friends.0|first", s, "friends.0|first", R"("Dale")");
        row("friends|0|first", s, "friends|0|first", R"("Dale")");
        row("friends|#", s, "friends|#", "3");
        row("query all objects", s, R"(friends.#(last="Murphy")#)",
            R"([{"first":"Dale","last":"Murphy","age":44,"nets":["ig","fb","tw"]},)"
            R"({"first":"Jane","last":"Murphy","age":47,"nets":["ig","tw"]}])");
        row("query all .first", s, R"(friends.#(last="Murphy")#.first)", R"(["Dale","Jane"])");
        row("query all |first", s, R"(friends.#(last="Murphy")#|first)", "<missing>");
        row("query all .0", s, R"(friends.#(last="Murphy")#.0)", "[]");
        row("query all |0", s, R"(friends.#(last="Murphy")#|0)",
            R"({"first":"Dale","last":"Murphy","age":44,"nets":["ig","fb","tw"]})");
        row("query all .#", s, R"(friends.#(last="Murphy")#.#)", "[]");
        row("query all |#", s, R"(friends.#(last="Murphy")#|#)", "2");

        // SYNTAX.md and gjson's modifiers.
        row("@reverse", s, "children.@reverse", R"(["Jack","Alex","Sara"])");
        row("@reverse.0", s, "children.@reverse.0", R"("Jack")");
        row("|@reverse|0", s, "children|@reverse|0", R"("Jack")");
        row("@reverse of a map", s, "name.@reverse", R"({"last":"Anderson","first":"Tom"})");
        row("@this", s, "name|@this", R"({"first":"Tom","last":"Anderson"})");
        row("@this at the root", o, "@this.ab", R"({"y":2})");
        row("@keys", s, "name.@keys", R"(["first","last"])");
        row("@values", s, "name.@values", R"(["Tom","Anderson"])");
        row("@values of a list", s, "children.@values", R"(["Sara","Alex","Jack"])");
        row("@keys of a list", s, "children.@keys", "[null,null,null]");
        row("@keys of nothing", s, "nothing.@keys", "[]");
        row("@values of nothing", s, "nothing|@values", "[]");
        row("@this of nothing", s, "nothing|@this", "<missing>");
        row("@flatten", o, "nested|@flatten", "[1,2,3,4,5,[6,7]]");
        row("@flatten deep", o, R"(nested|@flatten:{"deep":true})", "[1,2,3,4,5,6,7]");
        row("@flatten of lists of lists", s, "friends.#.nets|@flatten", R"(["ig","fb","tw","fb","tw","ig","tw"])");
        row("@join", o, "objects|@join", R"({"first":"Tom","age":41})");
        row("@valid", s, "age|@valid", "37");
        row("unknown modifier is a key", o, "@foo", R"("not a modifier")");

        // Elsewhere in gjson's behaviour.
        row("missing key", s, "nothing", "<missing>");
        row("missing member", s, "name.middle", "<missing>");
        row("index past the end", s, "children.5", "<missing>");
        row("key on a list", s, "children.x", "<missing>");
        row("path into a number", s, "age.x", "<missing>");
        row("# of a map", s, "name.#", "<missing>");
        row("query without match", s, R"(friends.#(last=="Nobody").first)", "<missing>");
        row("query all without match", s, R"(friends.#(last=="Nobody")#)", "[]");
        row("query >=", s, "friends.#(age>=47)#.first", R"(["Roger","Jane"])");
        row("query <", s, "friends.#(age<47)#.first", R"(["Dale"])");
        row("query <=", s, "friends.#(age<=47).first", R"("Dale")");
        row("query !=", s, "friends.#(age!=44)#.first", R"(["Roger","Jane"])");
        row("query existence", s, "friends.#(first)#.first", R"(["Dale","Roger","Jane"])");
        row("query existence none", s, "friends.#(middle)#", "[]");
        row("query element ==", s, R"(children.#(=="Alex"))", R"("Alex")");
        row("query unquoted value", s, "friends.#(last==Murphy).first", R"("Dale")");
        row("query spaces", s, R"(friends.#( last == "Craig" ).first)", R"("Roger")");
        row("query old brackets", s, R"(friends.#[last=="Craig"].first)", R"("Roger")");
        row("strings compare as text", o, R"(texts.#(>"5")#)", R"(["9"])");
        row("query true", o, "flags.#(on==true).n", "1");
        row("query false", o, "flags.#(on==false).n", "2");
        row("query != true", o, "flags.#(on!=true)#.n", "[2]");
        row("null elements never match", o, "nulls.#(==1)", "1");
        row("escaped quote in a query", QStringLiteral("{\"quoted\": [{\"s\": \"a\\\"b\"}, {\"s\": \"c\"}]}"),
            "quoted.#(s==\"a\\\"b\").s", "\"a\\\"b\"");
        row("each element then pipe", s, "friends.#.nets|0", R"(["ig","fb","tw"])");
        row("each element path", s, "friends.#.nets.0", R"(["ig","fb","ig"])");
        row("each element query", s, R"(friends.#.nets.#(=="fb"))", R"(["fb","fb"])");
        row("wildcard tries the next key", o, "a*.y", "2");
        row("wildcard first key", o, "a?", R"({"x":1})");
        row("escaped star is literal", o, "a\\*", "\"star\"");
        row("? is one character", o, "h?llo", "1");
        row("empty key", o, "", R"("empty key")");
        row("array root length", QStringLiteral("[1,2,3]"), "#", "3");
        row("array root index", QStringLiteral("[1,2,3]"), "1", "2");
        row("array root reverse", QStringLiteral("[1,2,3]"), "@reverse", "[3,2,1]");
        row("scalar root", QStringLiteral("5"), "a", "<missing>");

        // Refused, with what and where.
        row("multipath object", s, "{name.first,age}", "error: multipaths");
        row("multipath list", s, "[name.first,age]", "error: multipaths");
        row("multipath after a dot", s, "name.{first}", "error: multipaths");
        row("literal", s, "!true", "error: JSON literals");
        row("json lines", s, "..0", "error: JSON Lines");
        row("open query", s, R"(friends.#(last=="Murphy")", "error: has no closing bracket");
        row("@pretty", s, "name.@pretty", "error: at character 6: the modifier @pretty is not supported");
        row("@ugly", s, "@ugly", "error: @ugly is not supported");
        row("@tostr", s, "name|@tostr", "error: @tostr is not supported");
        row("@fromstr", s, "name|@fromstr", "error: @fromstr is not supported");
        row("@group", s, "@group", "error: @group is not supported");
        row("@dig", s, "@dig:first", "error: @dig is not supported");
        row("@join preserve", o, R"(objects|@join:{"preserve":true})", "error: preserve");
    }

    void query()
    {
        QFETCH(QString, document);
        QFETCH(QString, path);
        QFETCH(QString, expected);
        const Json value = Json::parse(document.toStdString());
        const auto found = queryJson(value, path.toStdString());
        if (expected.startsWith(QStringLiteral("error: "))) {
            QVERIFY2(!found.ok(), found.ok() ? found.value().value_or(Json("<missing>")).dump().c_str() : "");
            QVERIFY2(q(found.error().message).contains(expected.mid(7)), found.error().message.c_str());
            QVERIFY2(q(found.error().message).startsWith(QStringLiteral("query '") + path + QStringLiteral("'")),
                found.error().message.c_str());
            return;
        }
        QVERIFY2(found.ok(), found.ok() ? "" : found.error().message.c_str());
        const std::string actual = found.value() ? found.value()->dump() : std::string("<missing>");
        const std::string want = expected == QStringLiteral("<missing>") ? expected.toStdString()
                                                                         : Json::parse(expected.toStdString()).dump();
        QCOMPARE(q(actual), q(want));
    }

    // Paths recurse once per component: a deeper one is refused, not a stack overflow.
    void deepPathsAreRefused()
    {
        Json value = 1;
        std::string path = "a";
        for (int i = 0; i < 400; ++i) {
            value = Json {{"a", value}};
            if (i)
                path += ".a";
        }
        const auto found = queryJson(value, path);
        QVERIFY(!found.ok());
        QVERIFY2(q(found.error().message).contains(QStringLiteral("nests deeper than")), found.error().message.c_str());
        const auto shallow = queryJson(value, "a.a.a");
        QVERIFY(shallow.ok() && shallow.value() && shallow.value()->is_object());
    }

    // A pattern of many stars against a long text ends quickly (no exponential backtracking).
    void likeIsLinear()
    {
        const Json value = Json::array({std::string(20000, 'a')});
        const std::string pattern = "#(%\"" + std::string(200, '*') + "b\")";
        const auto found = queryJson(value, pattern);
        QVERIFY(found.ok());
        QVERIFY(!found.value());
    }
};

namespace {

/// The document of gjson's SYNTAX.md, whose examples most rows below are.
const char *syntaxDocument()
{
    return R"({
  "name": {"first": "Tom", "last": "Anderson"},
  "age":37,
  "children": ["Sara","Alex","Jack"],
  "fav.movie": "Deer Hunter",
  "friends": [
    {"first": "Dale", "last": "Murphy", "age": 44, "nets": ["ig", "fb", "tw"]},
    {"first": "Roger", "last": "Craig", "age": 68, "nets": ["fb", "tw"]},
    {"first": "Jane", "last": "Murphy", "age": 47, "nets": ["ig", "tw"]}
  ]
})";
}

/// The document of SYNTAX.md's `~` (truthiness) examples.
const char *truthinessDocument()
{
    return R"({"vals": [
  {"a": 1, "b": "data"}, {"a": 2, "b": true}, {"a": 3, "b": false}, {"a": 4, "b": "0"},
  {"a": 5, "b": 0}, {"a": 6, "b": "1"}, {"a": 7, "b": 1}, {"a": 8, "b": "true"},
  {"a": 9, "b": false}, {"a": 10, "b": null}, {"a": 11}
]})";
}

const char *otherDocument()
{
    return R"({
  "aa": {"x": 1}, "ab": {"y": 2},
  "a*": "star", "abc": "plain",
  "héllo": 1,
  "@foo": "not a modifier",
  "nested": [1, [2], [3, 4], [5, [6, 7]], []],
  "objects": [{"first": "Tom", "age": 37}, {"age": 41}, 5],
  "texts": ["10", "9"],
  "flags": [{"on": true, "n": 1}, {"on": false, "n": 2}],
  "nulls": [null, 1],
  "": "empty key"
})";
}

} // namespace

CCM_TEST_GUILESS_MAIN(TestJsonQuery)
#include "tst_json_query.moc"
