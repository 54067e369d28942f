// SPDX-License-Identifier: Apache-2.0
#include "core/template/jet_template.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

#include <stdexcept>

using namespace ccm;
using namespace ccm::test;

namespace {

const Json kFacts = Json::parse(R"({"host": {"info": {"hostname": "web1", "platformFamily": "debian"}},
                                     "cpu": {"count": 4}})");
const Json kData = Json::parse(R"({"packages": [{"name": "nginx", "version": "1.24"},
                                                {"name": "curl", "version": "latest"}],
                                   "ports": {"https": 443, "http": 80},
                                   "empty": [], "emptyMap": {}, "none": null, "flag": true, "off": false,
                                   "zero": 0, "float": 2.5, "text": "hello", "blank": "",
                                   "nested": [[1, 2], [3]]})");
const Json kEnviron = Json::parse(R"({"HOME": "/root"})");

/// The standard variables plus greet(name), as the engine adds readFile and friends, and explode(),
/// which throws as a careless function might.
class GreetingScope : public StandardScope {
public:
    GreetingScope(const Json &data, bool lenient = false)
        : StandardScope(kFacts, data, kEnviron)
        , m_lenient(lenient)
    {
    }

    [[nodiscard]] std::optional<Result<Json>> callFunction(
        std::string_view name, const std::vector<Json> &args) const override
    {
        if (name == "explode")
            throw std::runtime_error("boom");
        if (name != "greet")
            return std::nullopt;
        if (args.size() != 1 || !args.front().is_string())
            return Result<Json>(Error {"function", "greet needs one string"});
        return Result<Json>(Json("hello " + args.front().get<std::string>()));
    }

    [[nodiscard]] bool missingLookupIsEmpty() const override { return m_lenient; }

private:
    bool m_lenient;
};

JetOptions options(const QString &left, const QString &right, const QString &fileName = {})
{
    JetOptions result;
    if (!left.isEmpty() || !right.isEmpty()) {
        result.leftDelimiter = left.toStdString();
        result.rightDelimiter = right.toStdString();
    }
    result.fileName = fileName.toStdString();
    return result;
}

} // namespace

class TestJetTemplate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void render_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("left"); // with right: "" keeps the default [[ ]]
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("expected");
        const QString none;

        QTest::newRow("plain text") << QStringLiteral("hello ]] [ *} world") << none << none
                                    << QStringLiteral("hello ]] [ *} world");
        QTest::newRow("empty template") << QString() << none << none << QString();
        QTest::newRow("string") << QStringLiteral("[[ Data.text ]]!") << none << none << QStringLiteral("hello!");
        QTest::newRow("integer") << QStringLiteral("[[ Facts.cpu.count ]]") << none << none << QStringLiteral("4");
        QTest::newRow("float") << QStringLiteral("[[ Data.float ]]") << none << none << QStringLiteral("2.5");
        QTest::newRow("whole float") << QStringLiteral("[[ 3.0 ]]") << none << none << QStringLiteral("3");
        QTest::newRow("booleans") << QStringLiteral("[[ Data.flag ]]/[[ Data.off ]]") << none << none
                                  << QStringLiteral("true/false");
        QTest::newRow("null") << QStringLiteral("<[[ Data.none ]]>") << none << none << QStringLiteral("<>");
        QTest::newRow("list") << QStringLiteral("[[ Data.nested ]]") << none << none << QStringLiteral("[[1,2],[3]]");
        QTest::newRow("map") << QStringLiteral("[[ Data.ports ]]") << none << none
                             << QStringLiteral("{\"https\":443,\"http\":80}");
        QTest::newRow("no html escaping") << QStringLiteral("[[ \"<a href='x'> & \" + Data.text ]]") << none << none
                                          << QStringLiteral("<a href='x'> & hello");
        QTest::newRow("delimiter in a string")
            << QStringLiteral("[[ \"]]\" ]]") << none << none << QStringLiteral("]]");
        QTest::newRow("nested index") << QStringLiteral("[[ Data.nested[Data.zero][Data.nested[0][0]] ]]") << none
                                      << none << QStringLiteral("2");
        QTest::newRow("multi-line action")
            << QStringLiteral("[[\n  Data.text\n]]") << none << none << QStringLiteral("hello");

        QTest::newRow("range list") << QStringLiteral("[[ range Data.packages ]][[ .name ]] [[ end ]]") << none << none
                                    << QStringLiteral("nginx curl ");
        QTest::newRow("range map in key order")
            << QStringLiteral("[[ range Data.ports ]][[ . ]],[[ end ]]") << none << none << QStringLiteral("80,443,");
        QTest::newRow("range index and element")
            << QStringLiteral("[[ range i, p := Data.packages ]][[ i + 1 ]]=[[ p.name ]];[[ end ]]") << none << none
            << QStringLiteral("1=nginx;2=curl;");
        QTest::newRow("range key and value")
            << QStringLiteral("[[ range k, v := Data.ports ]][[ k ]]:[[ v ]] [[ end ]]") << none << none
            << QStringLiteral("http:80 https:443 ");
        QTest::newRow("range element variable")
            << QStringLiteral("[[ range p := Data.packages ]][[ p.version ]]/[[ .name ]],[[ end ]]") << none << none
            << QStringLiteral("1.24/nginx,latest/curl,");
        QTest::newRow("range else on empty list") << QStringLiteral("[[ range Data.empty ]]x[[ else ]]none[[ end ]]")
                                                  << none << none << QStringLiteral("none");
        QTest::newRow("range else on empty map") << QStringLiteral("[[ range Data.emptyMap ]]x[[ else ]]none[[ end ]]")
                                                 << none << none << QStringLiteral("none");
        QTest::newRow("range else skipped") << QStringLiteral("[[ range Data.nested ]]x[[ else ]]none[[ end ]]") << none
                                            << none << QStringLiteral("xx");
        QTest::newRow("range over null") << QStringLiteral("[[ range Data.none ]]x[[ end ]].") << none << none
                                         << QStringLiteral(".");
        QTest::newRow("range over null else") << QStringLiteral("[[ range Data.none ]]x[[ else ]]nothing[[ end ]]")
                                              << none << none << QStringLiteral("nothing");
        QTest::newRow("nested range shadows dot")
            << QStringLiteral("[[ range Data.nested ]]([[ range . ]][[ . ]][[ end ]]=[[ . ]])[[ end ]]") << none << none
            << QStringLiteral("(12=[1,2])(3=[3])");
        QTest::newRow("nested range sees outer variable")
            << QStringLiteral("[[ range o := Data.nested ]][[ range . ]][[ len(o) ]][[ end ]];[[ end ]]") << none
            << none << QStringLiteral("22;1;");

        QTest::newRow("if true") << QStringLiteral("[[ if Data.flag ]]yes[[ end ]]") << none << none
                                 << QStringLiteral("yes");
        QTest::newRow("if else") << QStringLiteral("[[ if Data.off ]]yes[[ else ]]no[[ end ]]") << none << none
                                 << QStringLiteral("no");
        QTest::newRow("else if chain") << QStringLiteral(
            "[[ if Data.off ]]a[[ else if Data.zero ]]b[[ else if Data.text ]]c[[ else ]]d[[ end ]]")
                                       << none << none << QStringLiteral("c");
        QTest::newRow("falsy values") << QStringLiteral(
            "[[ if Data.zero ]]1[[ end ]][[ if Data.blank ]]2[[ end ]][[ if Data.none ]]3[[ end ]]"
            "[[ if Data.empty ]]4[[ end ]][[ if Data.emptyMap ]]5[[ end ]][[ if 0.0 ]]6[[ end ]]"
            "[[ if Data.off ]]7[[ end ]].")
                                      << none << none << QStringLiteral(".");
        QTest::newRow("truthy values") << QStringLiteral(
            "[[ if 1 ]]1[[ end ]][[ if \"x\" ]]2[[ end ]][[ if Data.packages ]]3[[ end ]]"
            "[[ if Data.ports ]]4[[ end ]][[ if Data.float ]]5[[ end ]][[ if -1 ]]6[[ end ]]")
                                       << none << none << QStringLiteral("123456");
        QTest::newRow("comparison") << QStringLiteral(
            "[[ if Facts.host.info.platformFamily == \"debian\" ]]apt[[ else ]]dnf[[ end ]]")
                                    << none << none << QStringLiteral("apt");

        QTest::newRow("define") << QStringLiteral("[[ x := 5 ]][[ x * 2 ]]") << none << none << QStringLiteral("10");
        QTest::newRow("assign") << QStringLiteral("[[ x := 1 ]][[ x = x + 1 ]][[ x ]]") << none << none
                                << QStringLiteral("2");
        QTest::newRow("inner definition shadows")
            << QStringLiteral("[[ x := \"outer\" ]][[ if true ]][[ x := \"inner\" ]][[ x ]] [[ end ]][[ x ]]") << none
            << none << QStringLiteral("inner outer");
        QTest::newRow("assignment reaches outer scope")
            << QStringLiteral("[[ n := 0 ]][[ range Data.packages ]][[ n = n + 1 ]][[ end ]][[ n ]]") << none << none
            << QStringLiteral("2");
        QTest::newRow("range variables stay in the loop")
            << QStringLiteral("[[ v := \"outer\" ]][[ range v := Data.nested ]][[ v ]];[[ end ]][[ v ]]") << none
            << none << QStringLiteral("[1,2];[3];outer");
        QTest::newRow("local shadows Data")
            << QStringLiteral("[[ Data := \"mine\" ]][[ Data ]]") << none << none << QStringLiteral("mine");

        QTest::newRow("comment") << QStringLiteral("a{* [[ Data.nope ]] *}b") << none << none << QStringLiteral("ab");
        QTest::newRow("multi-line comment")
            << QStringLiteral("a{* one\ntwo *}\nb") << none << none << QStringLiteral("a\nb");

        QTest::newRow("trim markers") << QStringLiteral("a \n\t [[- Data.text -]] \n b") << none << none
                                      << QStringLiteral("ahellob");
        QTest::newRow("minus without space is no marker")
            << QStringLiteral("a [[-1 ]]") << none << none << QStringLiteral("a -1");
        QTest::newRow("trimmed range lines")
            << QStringLiteral("items:\n[[- range Data.packages ]]\n  - [[ .name ]]\n[[- end ]]\n") << none << none
            << QStringLiteral("items:\n  - nginx\n  - curl\n");

        QTest::newRow("curly delimiters") << QStringLiteral("{{ Data.text }} [[ Data.text ]]") << QStringLiteral("{{")
                                          << QStringLiteral("}}") << QStringLiteral("hello [[ Data.text ]]");
        QTest::newRow("angle delimiters")
            << QStringLiteral("<< range Data.packages >><< .name >>,<< end >><< 2 > 1 >>") << QStringLiteral("<<")
            << QStringLiteral(">>") << QStringLiteral("nginx,curl,true");

        QTest::newRow("lower-case variables")
            << QStringLiteral("[[ data.text ]] [[ facts.host.info.hostname ]] [[ environ.HOME ]] [[ Environ.HOME ]]")
            << none << none << QStringLiteral("hello web1 /root /root");
        QTest::newRow("lookup") << QStringLiteral(
            "[[ lookup(\"data.packages.0.name\") ]] [[ lookup(\"data.x\", \"d\") ]]")
                                << none << none << QStringLiteral("nginx d");
        QTest::newRow("scope function") << QStringLiteral("[[ range Data.packages ]][[ greet(.name) ]];[[ end ]]")
                                        << none << none << QStringLiteral("hello nginx;hello curl;");
        QTest::newRow("100 nested blocks") << QStringLiteral("[[ if true ]]").repeated(100) + QStringLiteral("x")
                + QStringLiteral("[[ end ]]").repeated(100)
                                           << none << none << QStringLiteral("x");

        QTest::newRow("resources_jet_file") << QStringLiteral("{* packages for every host *}\n"
                                                              "- package:\n"
                                                              "[[- range Data.packages ]]\n"
                                                              "    - [[ .name ]]:\n"
                                                              "        ensure: [[ .version ]]\n"
                                                              "[[- end ]]\n"
                                                              "[[ if Facts.host.info.platformFamily == \"debian\" -]]\n"
                                                              "- service:\n"
                                                              "    - nginx:\n"
                                                              "        ensure: running\n"
                                                              "[[ end -]]\n")
                                            << none << none
                                            << QStringLiteral("\n- package:\n"
                                                              "    - nginx:\n"
                                                              "        ensure: 1.24\n"
                                                              "    - curl:\n"
                                                              "        ensure: latest\n"
                                                              "- service:\n"
                                                              "    - nginx:\n"
                                                              "        ensure: running\n");
    }

    void render()
    {
        QFETCH(QString, text);
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QString, expected);
        const GreetingScope scope(kData);
        const auto rendered = renderJet(text.toStdString(), scope, options(left, right));
        QVERIFY2(rendered.ok(), rendered.ok() ? "" : rendered.error().message.c_str());
        QCOMPARE(q(rendered.value()), expected);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QString>("position"); // "FILE:LINE:COL: "
        QTest::addColumn<QString>("message"); // what follows the position
        const QString none;

        QTest::newRow("unclosed action") << QStringLiteral("ab\n  [[ Data.text\n") << none << none << none
                                         << QStringLiteral("2:3: ") << QStringLiteral("unclosed action, expected ']]'");
        QTest::newRow("unclosed custom action")
            << QStringLiteral("x {{ y } }") << QStringLiteral("{{") << QStringLiteral("}}") << none
            << QStringLiteral("1:3: ") << QStringLiteral("unclosed action, expected '}}'");
        QTest::newRow("missing end of range")
            << QStringLiteral("x\n[[ range Data.packages ]]\n[[ .name ]]") << none << none << none
            << QStringLiteral("2:1: ") << QStringLiteral("range opened here is missing [[ end ]]");
        QTest::newRow("missing end of the outer block, with file name")
            << QStringLiteral("[[ range Data.packages ]]\n  [[ if true ]]\n[[ end ]]") << none << none
            << QStringLiteral("pkgs.jet") << QStringLiteral("pkgs.jet:1:1: ")
            << QStringLiteral("range opened here is missing [[ end ]]");
        QTest::newRow("missing end with custom delimiters")
            << QStringLiteral("<< if true >>") << QStringLiteral("<<") << QStringLiteral(">>") << none
            << QStringLiteral("1:1: ") << QStringLiteral("if opened here is missing << end >>");
        QTest::newRow("stray end") << QStringLiteral("a\nb [[ end ]]") << none << none << none
                                   << QStringLiteral("2:3: ")
                                   << QStringLiteral("[[ end ]] without an open if or range");
        QTest::newRow("text after end") << QStringLiteral("[[ if true ]][[ end if ]]") << none << none << none
                                        << QStringLiteral("1:21: ") << QStringLiteral("unexpected text after 'end'");
        QTest::newRow("stray else") << QStringLiteral("[[ else ]]") << none << none << none << QStringLiteral("1:1: ")
                                    << QStringLiteral("[[ else ]] outside of an if or range");
        QTest::newRow("text after else") << QStringLiteral("[[ if true ]][[ else x ]][[ end ]]") << none << none << none
                                         << QStringLiteral("1:22: ") << QStringLiteral("unexpected text after 'else'");
        QTest::newRow("else if in range")
            << QStringLiteral("[[ range Data.empty ]][[ else if true ]][[ end ]]") << none << none << none
            << QStringLiteral("1:23: ") << QStringLiteral("a range takes [[ else ]] but not else if");
        QTest::newRow("second else in range")
            << QStringLiteral("[[ range Data.empty ]][[ else ]][[ else ]][[ end ]]") << none << none << none
            << QStringLiteral("1:33: ") << QStringLiteral("a second [[ else ]] in the same range");
        QTest::newRow("second else in if")
            << QStringLiteral("[[ if true ]][[ else ]][[ else ]][[ end ]]") << none << none << none
            << QStringLiteral("1:24: ") << QStringLiteral("a second else after the final [[ else ]] of an if");
        QTest::newRow("else if after else")
            << QStringLiteral("[[ if true ]][[ else ]][[ else if true ]][[ end ]]") << none << none << none
            << QStringLiteral("1:24: ") << QStringLiteral("else if after the final [[ else ]] of an if");
        QTest::newRow("if without condition") << QStringLiteral("[[ if ]][[ end ]]") << none << none << none
                                              << QStringLiteral("1:4: ") << QStringLiteral("'if' needs a condition");
        QTest::newRow("else if without condition")
            << QStringLiteral("[[ if true ]][[ else if ]][[ end ]]") << none << none << none << QStringLiteral("1:22: ")
            << QStringLiteral("'else if' needs a condition");
        QTest::newRow("unclosed comment")
            << QStringLiteral("a\n {* never [[ closed ]]") << none << none << none << QStringLiteral("2:2: ")
            << QStringLiteral("unclosed comment, expected '*}'");
        QTest::newRow("empty action") << QStringLiteral("a [[ ]]") << none << none << none << QStringLiteral("1:3: ")
                                      << QStringLiteral("empty action");
        const QString rangeSyntax
            = QStringLiteral("bad range syntax, expected [[ range x ]], [[ range v := x ]] or [[ range i, v := x ]]");
        QTest::newRow("bad range variable") << QStringLiteral("[[ range 1x := Data.packages ]][[ end ]]") << none
                                            << none << none << QStringLiteral("1:10: ") << rangeSyntax;
        QTest::newRow("missing second range variable")
            << QStringLiteral("[[ range i, := Data.packages ]][[ end ]]") << none << none << none
            << QStringLiteral("1:13: ") << rangeSyntax;
        QTest::newRow("missing range collection") << QStringLiteral("[[ range i := ]][[ end ]]") << none << none << none
                                                  << QStringLiteral("1:14: ") << rangeSyntax;
        QTest::newRow("range without anything")
            << QStringLiteral("[[ range ]][[ end ]]") << none << none << none << QStringLiteral("1:9: ") << rangeSyntax;
        QTest::newRow("unsupported keyword")
            << QStringLiteral("x\n[[ include \"other.jet\" ]]") << none << none << none << QStringLiteral("2:4: ")
            << QStringLiteral("'include' is not supported by this Jet subset");
        QTest::newRow("assignment without value") << QStringLiteral("[[ x := ]]") << none << none << none
                                                  << QStringLiteral("1:4: ") << QStringLiteral("'x :=' needs a value");
        QTest::newRow("empty delimiter") << QStringLiteral("x") << QStringLiteral("[[") << QStringLiteral("") << none
                                         << QStringLiteral("1:1: ")
                                         << QStringLiteral("the left and right delimiters must not be empty");
        QTest::newRow("too deeply nested")
            << QStringLiteral("[[ if true ]]").repeated(101) << none << none << none << QStringLiteral("1:1301: ")
            << QStringLiteral("blocks are nested deeper than 100");

        QTest::newRow("range over a scalar")
            << QStringLiteral("[[ range Data.text ]][[ end ]]") << none << none << none << QStringLiteral("1:10: ")
            << QStringLiteral("cannot range over a string");
        QTest::newRow("assignment to an unknown variable")
            << QStringLiteral("[[ if true ]]\n  [[ y = 1 ]]\n[[ end ]]") << none << none << QStringLiteral("a.jet")
            << QStringLiteral("a.jet:2:6: ")
            << QStringLiteral("assignment to undefined variable 'y', define it with 'y := ...'");
        QTest::newRow("assignment to a variable of a closed scope")
            << QStringLiteral("[[ if true ]][[ z := 1 ]][[ end ]][[ z = 2 ]]") << none << none << none
            << QStringLiteral("1:38: ")
            << QStringLiteral("assignment to undefined variable 'z', define it with 'z := ...'");
        QTest::newRow("each iteration is a new scope")
            << QStringLiteral("[[ range Data.nested ]][[ if len(.) == 1 ]][[ seen = 1 ]][[ end ]][[ seen := 0 ]]"
                              "[[ end ]]")
            << none << none << none << QStringLiteral("1:47: ")
            << QStringLiteral("assignment to undefined variable 'seen', define it with 'seen := ...'");
        QTest::newRow("assignment to a standard variable")
            << QStringLiteral("[[ Facts = 1 ]]") << none << none << none << QStringLiteral("1:4: ")
            << QStringLiteral("assignment to undefined variable 'Facts', define it with 'Facts := ...'");
        QTest::newRow("lookup error on line 3")
            << QStringLiteral("one\ntwo\nthree [[ lookup(\"data.missing\") ]]") << none << none
            << QStringLiteral("t.jet") << QStringLiteral("t.jet:3:10: ")
            << QStringLiteral("missing key 'data.missing'");
        QTest::newRow("scope function error")
            << QStringLiteral("[[ range Data.packages ]]\n  [[ 1 + greet(1) ]][[ end ]]") << none << none << none
            << QStringLiteral("2:10: ") << QStringLiteral("greet needs one string");
    }

    void errors()
    {
        QFETCH(QString, text);
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QString, fileName);
        QFETCH(QString, position);
        QFETCH(QString, message);
        const GreetingScope scope(kData);
        const auto rendered = renderJet(text.toStdString(), scope, options(left, right, fileName));
        QVERIFY(!rendered.ok());
        QCOMPARE(q(rendered.error().code), QStringLiteral("template"));
        QCOMPARE(q(rendered.error().message), position + message);
    }

    /// Expression errors carry the expression's own message; only the position is checked exactly.
    void expressionErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("position");

        QTest::newRow("parse error on line 3")
            << QStringLiteral("a\nb\nc [[ Data.text + ) ]]") << QStringLiteral("3:18: ");
        QTest::newRow("parse error inside a multi-line action")
            << QStringLiteral("x\n[[ 1 +\n     ) ]]") << QStringLiteral("3:6: ");
        QTest::newRow("parse error in a condition")
            << QStringLiteral("[[ if true ]][[ else if 1 + ) ]][[ end ]]") << QStringLiteral("1:29: ");
        QTest::newRow("parse error in a range")
            << QStringLiteral("[[ range i, v := 1 + ) ]][[ end ]]") << QStringLiteral("1:22: ");
        QTest::newRow("evaluation error inside a loop")
            << QStringLiteral("[[ range Data.packages ]]\n    [[ x := 1 + .name ]][[ end ]]")
            << QStringLiteral("2:15: ");
    }

    void expressionErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, position);
        const GreetingScope scope(kData);
        const auto rendered = renderJet(text.toStdString(), scope);
        QVERIFY(!rendered.ok());
        QCOMPARE(q(rendered.error().code), QStringLiteral("template"));
        const QString actual = q(rendered.error().message);
        QVERIFY2(actual.startsWith(position), qPrintable(actual));
        QVERIFY2(actual.size() > position.size(), qPrintable(actual));
    }

    void parseOnceRenderMany()
    {
        const auto parsed = JetTemplate::parse("[[ n := 0 ]][[ range Data.packages ]][[ n = n + 1 ]][[ end ]][[ n ]]");
        QVERIFY(parsed.ok());
        const Json otherData = Json::parse(R"({"packages": [1, 2, 3]})");
        for (int round = 0; round < 2; ++round) {
            const auto first = parsed.value().render(GreetingScope(kData));
            QVERIFY(first.ok());
            QCOMPARE(q(first.value()), QStringLiteral("2"));
            const auto second = parsed.value().render(GreetingScope(otherData));
            QVERIFY(second.ok());
            QCOMPARE(q(second.value()), QStringLiteral("3"));
        }
    }

    void forwardsMissingLookupIsEmpty()
    {
        const auto rendered = renderJet("<[[ lookup(\"data.missing\") ]]>", GreetingScope(kData, true));
        QVERIFY2(rendered.ok(), rendered.ok() ? "" : rendered.error().message.c_str());
        QCOMPARE(q(rendered.value()), QStringLiteral("<>"));
    }

    void exceptionsDoNotEscape()
    {
        const auto rendered = renderJet("[[ explode() ]]", GreetingScope(kData));
        QVERIFY(!rendered.ok());
        QCOMPARE(q(rendered.error().code), QStringLiteral("template"));
        QCOMPARE(q(rendered.error().message), QStringLiteral("rendering failed: boom"));
    }

    void boundsOutputSize()
    {
        // A 1 MiB string printed 100 times.
        const std::string text = "[[ s := \"xxxxxxxxxxxxxxxx\" ]][[ range [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16] ]]"
                                 "[[ s = s + s ]][[ end ]]\n"
                                 "[[ range [1,2,3,4,5,6,7,8,9,10] ]][[ range [1,2,3,4,5,6,7,8,9,10] ]][[ s ]]"
                                 "[[ end ]][[ end ]]";
        const auto rendered = renderJet(text, GreetingScope(kData));
        QVERIFY(!rendered.ok());
        QCOMPARE(q(rendered.error().message), QStringLiteral("2:69: the output is larger than 64 MiB"));
    }

    void boundsVariableSize()
    {
        // Nesting a 1 MiB string in lists doubles the value each round; a loop would otherwise exhaust
        // memory long before anything is printed.
        const std::string text = "[[ s := \"xxxxxxxxxxxxxxxx\" ]][[ range [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16] ]]"
                                 "[[ s = s + s ]][[ end ]]\n"
                                 "[[ l := [s] ]][[ range [1,2,3,4,5,6,7,8] ]][[ l = [l, l] ]][[ end ]]";
        const auto rendered = renderJet(text, GreetingScope(kData));
        QVERIFY(!rendered.ok());
        QCOMPARE(q(rendered.error().message), QStringLiteral("2:51: the value of 'l' is larger than 64 MiB"));
    }

    /// Every piece of text, action and block rendered and every pass of a loop is a step; a
    /// rendering that would take more than its limit fails at the step beyond it.
    void boundsSteps()
    {
        // The range, then each of two passes with its text: five steps.
        const std::string text = "[[ range Data.packages ]]x[[ end ]]";
        JetOptions enough;
        enough.maxSteps = 5;
        const auto rendered = JetTemplate::parse(text, enough).value().render(GreetingScope(kData));
        QVERIFY2(rendered.ok(), rendered.ok() ? "" : rendered.error().message.c_str());
        QCOMPARE(q(rendered.value()), QStringLiteral("xx"));

        JetOptions fewer;
        fewer.maxSteps = 4;
        const auto stopped = JetTemplate::parse(text, fewer).value().render(GreetingScope(kData));
        QVERIFY(!stopped.ok());
        QCOMPARE(q(stopped.error().message),
            QStringLiteral("1:26: the template takes more than 4 steps (pieces of text, actions and passes of "
                           "loops): loops nested over large data?"));
    }

    /// Loops nested over data that print nothing: each pass counts, so the rendering stops at the
    /// innermost loop instead of running through 7^7 passes.
    void boundsNestedLoops()
    {
        const Json seven = Json::parse(R"({"d": [1, 2, 3, 4, 5, 6, 7]})");
        std::string text;
        for (int i = 0; i < 7; ++i)
            text += "[[ range Data.d ]]";
        for (int i = 0; i < 7; ++i)
            text += "[[ end ]]";
        JetOptions limited;
        limited.maxSteps = 100000;
        const auto parsed = JetTemplate::parse(text, limited);
        QVERIFY(parsed.ok());
        for (int round = 0; round < 2; ++round) {
            const auto rendered = parsed.value().render(GreetingScope(seven));
            QVERIFY(!rendered.ok());
            QVERIFY2(rendered.error().message.starts_with("1:109: the template takes more than 100000 steps"),
                rendered.error().message.c_str());
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestJetTemplate)
#include "tst_jet_template.moc"
