// SPDX-License-Identifier: Apache-2.0
#include "core/template/go_template.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

/// The root value of every table row: what the scaffold engine passes as dot.
const Json &dot()
{
    static const Json value = Json::parse(
        "{"
        "\"Data\": {"
        "\"name\": \"web\", \"port\": 8080, \"ratio\": 2.5, \"whole\": 3.0, \"big\": 1000000.0, \"small\": 0.00001,"
        "\"neg\": -7, \"enabled\": true, \"off\": false, \"empty\": \"\", \"none\": null,"
        "\"list\": [\"a\", \"b\", \"c\"], \"nums\": [3, 1, 2], \"map\": {\"b\": 2, \"a\": 1, \"c\": 3},"
        "\"nested\": {\"deep\": {\"x\": \"y\"}}, \"emptyList\": [], \"emptyMap\": {},"
        "\"html\": \"<a href=\\\"x\\\">'&'</a>\", \"mixed\": [1, \"two\", true, null, {\"k\": [1.0, 2.5]}],"
        "\"my-key\": \"dash\""
        "},"
        "\"Facts\": {\"host\": {\"info\": {\"hostname\": \"node1\", \"platformFamily\": \"debian\"}}},"
        "\"Environ\": {\"HOME\": \"/root\"}"
        "}");
    return value;
}

QString render(const QString &text, const GoTemplateOptions &options = {})
{
    const auto result = renderGoTemplate(text.toStdString(), dot(), options);
    return result.ok() ? q(result.value()) : QStringLiteral("ERROR ") + q(result.error().message);
}

/// A scope with one function, twice(x), that fails on anything but a string.
class TwiceScope : public ExpressionScope {
public:
    [[nodiscard]] const Json *variable(std::string_view) const override { return nullptr; }
    [[nodiscard]] std::optional<Result<Json>> callFunction(
        std::string_view name, const std::vector<Json> &args) const override
    {
        if (name != "twice")
            return std::nullopt;
        if (args.size() != 1 || !args[0].is_string())
            return Result<Json>(Error {"template", "twice() takes one string"});
        return Result<Json>(Json(args[0].get<std::string>() + args[0].get<std::string>()));
    }
};

} // namespace

class TestGoTemplate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void render_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char *name, const char *text, const char *expected) {
            QTest::newRow(name) << QString::fromUtf8(text) << QString::fromUtf8(expected);
        };
        row("text only", "hello\n  world", "hello\n  world");
        row("empty", "", "");
        row("field", "name={{ .Data.name }}", "name=web");
        row("nested fields", "{{ .Facts.host.info.hostname }}/{{.Facts.host.info.platformFamily}}", "node1/debian");
        row("missing key", "[{{ .Data.nope }}]", "[<no value>]");
        row("missing chain", "{{ .Data.nope.deeper.still }}", "<no value>");
        row("null", "{{ .Data.none }}", "<no value>");
        row("print string", "{{ .Environ.HOME }}", "/root");
        row("print integer", "{{ .Data.port }} {{ .Data.neg }}", "8080 -7");
        row("print float", "{{ .Data.ratio }} {{ .Data.whole }} {{ .Data.big }} {{ .Data.small }}",
            "2.5 3 1000000 1e-05");
        row("print bool", "{{ .Data.enabled }} {{ .Data.off }}", "true false");
        row("print list", "{{ .Data.list }}", "[\"a\",\"b\",\"c\"]");
        row("print map", "{{ .Data.map }} {{ .Data.nested }}", "{\"b\":2,\"a\":1,\"c\":3} {\"deep\":{\"x\":\"y\"}}");
        row("print mixed list", "{{ .Data.mixed }}", "[1,\"two\",true,null,{\"k\":[1,2.5]}]");
        row("print empty", "{{ .Data.emptyList }}{{ .Data.emptyMap }}[{{ .Data.empty }}]", "[]{}[]");
        row("string literals", "{{ \"a\\tb\\u00e9\\x41\\101\\U0001F600\" }}|{{ `raw\\n` }}",
            "a\tb\xc3\xa9"
            "AA\xf0\x9f\x98\x80|raw\\n");
        row("number literals", "{{ 0x1F }} {{ 1_000 }} {{ 1e3 }} {{ -5 }} {{ 0o17 }} {{ 017 }} {{ .5 }} {{ +2.50 }}",
            "31 1000 1000 -5 15 15 0.5 2.5");
        row("bool literals", "{{ true }} {{ false }}", "true false");
        row("declare variable", "{{ $x := .Data.name }}[{{ $x }}]", "[web]");
        row("assign variable", "{{ $x := 1 }}{{ $x = 2 }}{{ $x }}", "2");
        row("root variable", "{{ with .Data.nested }}{{ $.Data.name }}-{{ .deep.x }}{{ end }}", "web-y");
        row("variable fields", "{{ $n := .Data.nested }}{{ $n.deep.x }}", "y");
        row("dot", "{{ with .Data.name }}{{ . }}{{ end }}", "web");
        row("pipeline", "{{ .Data.name | printf \"%s!\" }} {{ .Data.list | len }}", "web! 3");
        row("pipeline chain", "{{ .Data.list | len | printf \"%03d\" | printf \"<%s>\" }}", "<003>");
        row("parentheses", "{{ printf \"%d-%d\" (len .Data.list) (len .Data.map) }}", "3-3");
        row("parenthesised fields", "{{ (index .Data \"nested\").deep.x }}", "y");
        row("and", "{{ and 1 0 2 }} {{ and 1 2 }}", "0 2");
        row("or", "{{ or 0 \"\" \"x\" }} [{{ or 0 \"\" }}]", "x []");
        row("and or short-circuit", "{{ or 1 (index .Data.list 10) }} {{ and 0 (index .Data.list 10) }}", "1 0");
        row("not", "{{ not .Data.empty }} {{ not .Data.list }}", "true false");
        row("len", "{{ len \"h\xc3\xa9\" }} {{ len .Data.map }} {{ len .Data.emptyList }}", "3 3 0");
        row("index", "{{ index .Data.list 1 }} {{ index .Data \"my-key\" }} {{ index .Data.mixed 4 \"k\" 1 }}",
            "b dash 2.5");
        row("index string and missing key", "{{ index \"abc\" 1 }} {{ index .Data.map \"zz\" }}", "98 <no value>");
        row("slice",
            "{{ slice .Data.list 1 }} {{ slice \"hello\" 1 3 }} {{ slice .Data.list 0 1 2 }} {{ slice .Data.list }}",
            "[\"b\",\"c\"] el [\"a\"] [\"a\",\"b\",\"c\"]");
        row("eq", "{{ eq .Data.port 8080 }} {{ eq .Data.name \"a\" \"web\" }} {{ eq .Data.name \"a\" }}",
            "true true false");
        row("eq numbers and nil",
            "{{ eq .Data.whole 3 }} {{ eq .Data.nope nil }} {{ eq .Data.none .Data.nope }} {{ eq 1 nil }}",
            "true true true false");
        row("ne", "{{ ne 1 2 }} {{ ne \"a\" \"a\" }}", "true false");
        row("lt le", "{{ lt 1 2.5 }} {{ lt \"b\" \"a\" }} {{ le 2 2 }} {{ lt -1 .Data.port }}", "true false true true");
        row("gt ge", "{{ gt .Data.port 80 }} {{ ge 1 2 }} {{ ge 2.0 2 }} {{ gt \"b\" \"a\" }}", "true false true true");
        row("print", "{{ print 1 2 \"a\" 3 \"b\" }}|{{ print .Data.nope }}|{{ print .Data.list true }}",
            "1 2a3b|<nil>|[\"a\",\"b\",\"c\"] true");
        row("println", "{{ println \"a\" 1 }}", "a 1\n");
        row("printf strings",
            "{{ printf \"%s|%v|%q|%5s|%-5s|%.2s|%%\" \"s\" .Data.list \"q\\\"\\n\" \"r\" \"l\" \"hello\" }}",
            "s|[\"a\",\"b\",\"c\"]|\"q\\\"\\n\"|    r|l    |he|%");
        row("printf numbers",
            "{{ printf \"%d|%05d|%+d|%x|%X|%#x|%f|%.2f|%.1f|%e\" 42 42 5 255 \"hi\" 255 2.5 3.14159 .Data.port 1500.0 "
            "}}",
            "42|00042|+5|ff|6869|0xff|2.500000|3.14|8080.0|1.500000e+03");
        row("printf others", "{{ printf \"%t %v %d %v\" true .Data.none .Data.whole .Data.map }}",
            "true <nil> 3 {\"b\":2,\"a\":1,\"c\":3}");
        row("html", "{{ html .Data.html }}", "&lt;a href=&#34;x&#34;&gt;&#39;&amp;&#39;&lt;/a&gt;");
        row("js", "{{ js \"it's <b>\\\"x\\\"</b> & =\\n\" }}",
            "it\\'s \\u003Cb\\u003E\\\"x\\\"\\u003C/b\\u003E \\u0026 \\u003D\\u000A");
        row("urlquery", "{{ urlquery \"a b&c=d/\xc3\xa9~\" }} {{ .Data.name | urlquery }}",
            "a+b%26c%3Dd%2F%C3%A9~ web");
        row("if", "{{ if .Data.enabled }}yes{{ end }}{{ if .Data.off }}no{{ end }}", "yes");
        row("if else", "{{ if .Data.off }}yes{{ else }}no{{ end }}", "no");
        row("else if", "{{ if eq .Data.port 80 }}http{{ else if eq .Data.port 8080 }}alt{{ else }}other{{ end }}",
            "alt");
        row("else if falls through", "{{ if .Data.off }}a{{ else if .Data.nope }}b{{ else }}c{{ end }}", "c");
        row("if falsy values",
            "{{ if .Data.nope }}1{{ end }}{{ if .Data.emptyList }}2{{ end }}{{ if .Data.emptyMap }}3{{ end }}"
            "{{ if 0 }}4{{ end }}{{ if 0.0 }}5{{ end }}{{ if .Data.none }}6{{ end }}{{ if .Data.map }}7{{ end }}",
            "7");
        row("if declares", "{{ if $n := len .Data.list }}{{ $n }}{{ end }}", "3");
        row("else sees the block's declaration", "{{ if $n := .Data.off }}{{ else }}[{{ $n }}]{{ end }}", "[false]");
        row("with", "{{ with .Data.nested.deep }}{{ .x }}{{ end }}", "y");
        row("with else", "{{ with .Data.nope }}x{{ else }}none {{ .Data.name }}{{ end }}", "none web");
        row("else with", "{{ with .Data.nope }}a{{ else with .Data.name }}{{ . }}{{ end }}", "web");
        row("range list", "{{ range .Data.list }}[{{ . }}]{{ end }}", "[a][b][c]");
        row("range index and value", "{{ range $i, $v := .Data.list }}{{ $i }}={{ $v }};{{ end }}", "0=a;1=b;2=c;");
        row("range one variable", "{{ range $v := .Data.nums }}{{ $v }}{{ end }}", "312");
        row("range map sorted", "{{ range $k, $v := .Data.map }}{{ $k }}{{ $v }}{{ end }}", "a1b2c3");
        row("range map dot", "{{ range .Data.map }}{{ . }}{{ end }}", "123");
        row("range else",
            "{{ range .Data.emptyList }}x{{ else }}empty{{ end }}{{ range .Data.nope }}y{{ else }}!{{ end }}",
            "empty!");
        row("range break", "{{ range .Data.nums }}{{ if eq . 1 }}{{ break }}{{ end }}{{ . }}{{ end }}", "3");
        row("range continue", "{{ range .Data.nums }}{{ if eq . 1 }}{{ continue }}{{ end }}{{ . }}{{ end }}", "32");
        row("nested range root",
            "{{ range $o := .Data.list }}{{ range $.Data.nums }}{{ $o }}{{ . }}{{ end }};{{ end }}",
            "a3a1a2;b3b1b2;c3c1c2;");
        row("assignment inside range", "{{ $x := 0 }}{{ range .Data.nums }}{{ $x = . }}{{ end }}{{ $x }}", "2");
        row("trim both", "a  {{- .Data.name -}}  b", "awebb");
        row("trim left only", "a \n{{- \"x\" }} b", "ax b");
        row("trim right only", "{{ \"x\" -}}\n\n  y", "xy");
        row("trim in list", "{{- range .Data.list }}\n- {{ . }}\n{{- end }}\n", "\n- a\n- b\n- c\n");
        row("minus without space is a number", "{{-3}}", "-3");
        row("comment", "a{{/* comment */}}b", "ab");
        row("multi-line comment", "a{{/* x\n y */}}b", "ab");
        row("trimmed comment", "a \n {{- /* c */ -}} \n b", "ab");
    }

    void render()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(::render(text), expected);
    }

    void delimiters_data()
    {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("brackets") << QStringLiteral("[[") << QStringLiteral("]]")
                                  << QStringLiteral("[[ .Data.name ]] {{ x }}") << QStringLiteral("web {{ x }}");
        QTest::newRow("percent") << QStringLiteral("<%") << QStringLiteral("%>")
                                 << QStringLiteral("<% if .Data.enabled -%> on <%- end %>") << QStringLiteral("on");
        QTest::newRow("angles") << QStringLiteral("<<") << QStringLiteral(">>")
                                << QStringLiteral("port <<.Data.port>><</* c */>>") << QStringLiteral("port 8080");
        QTest::newRow("string holds delimiter")
            << QStringLiteral("[[") << QStringLiteral("]]") << QStringLiteral("[[ \"]]\" ]]") << QStringLiteral("]]");
        QTest::newRow("empty means default")
            << QString() << QString() << QStringLiteral("{{ .Data.name }}") << QStringLiteral("web");
        QTest::newRow("error position") << QStringLiteral("<%") << QStringLiteral("%>")
                                        << QStringLiteral("x\n <% end %>")
                                        << QStringLiteral("ERROR 2:2: unexpected {{end}}: no block is open");
    }

    void delimiters()
    {
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        GoTemplateOptions options;
        options.leftDelimiter = left.toStdString();
        options.rightDelimiter = right.toStdString();
        QCOMPARE(::render(text, options), expected);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const auto row = [](const char *name, const char *text, const char *message) {
            QTest::newRow(name) << QString::fromUtf8(text) << QString::fromUtf8(message);
        };
        row("unclosed action", "ab {{ .Data.name", "1:4: unclosed action: no }} before the end of the text");
        row("unexpected end", "x{{ end }}", "1:2: unexpected {{end}}: no block is open");
        row("unexpected else", "{{ else }}", "1:1: unexpected {{else}}: no block is open");
        row("missing end", "{{ if .Data.enabled }}x", "1:1: missing {{end}} for this {{if}}");
        row("missing end of else-if chain", "{{ if 1 }}a{{ else if 2 }}b", "1:1: missing {{end}} for this {{if}}");
        row("second else", "{{ if 1 }}a{{ else }}b{{ else }}c{{ end }}", "1:23: unexpected second {{else}} in {{if}}");
        row("unknown function", "{{ .Data.name | upper }}", "1:17: function \"upper\" not defined");
        row("wrong argument count", "{{ len 1 2 }}", "1:4: wrong number of args for len: want 1 got 2");
        row("too few arguments", "{{ and }}", "1:4: wrong number of args for and: want at least 1 got 0");
        row("piped argument counts", "{{ 1 | not 2 }}", "1:8: wrong number of args for not: want 1 got 2");
        row("field of a string", "{{ .Data.name.first }}", "1:4: can't evaluate field first of a string");
        row("field of a list", "{{ $l := .Data.list }}{{ $l.x }}", "1:26: can't evaluate field x of a list");
        row("field of null", "{{ .Data.none.x }}", "1:4: can't evaluate field x of nothing (null)");
        row("field with arguments", "{{ .Data.name 1 }}", "1:4: name is not a method but has arguments");
        row("argument to a literal", "{{ \"x\" 1 }}", "1:4: can't give argument to non-function \"x\"");
        row("nil command", "{{ nil }}", "1:4: nil is not a command");
        row("literal in a later stage", "{{ .Data.name | \"x\" }}", "1:17: non executable command in pipeline stage 2");
        row("index out of range", "{{ index .Data.list 5 }}", "1:4: error calling index: index out of range: 5");
        row("negative index", "{{ index .Data.list -1 }}", "1:4: error calling index: index out of range: -1");
        row("index a map with a number", "{{ index .Data.map 1 }}",
            "1:4: error calling index: cannot index a map with an integer: keys are strings");
        row("bad slice", "{{ slice .Data.list 2 1 }}", "1:4: error calling slice: invalid slice index: 2 > 1");
        row("len of a number", "{{ len .Data.port }}", "1:4: error calling len: len of an integer");
        row("bad number", "{{ 12ab }}", "1:4: bad number syntax: 12ab");
        row("number out of range", "{{ 99999999999999999999 }}", "1:4: number 99999999999999999999 is out of range");
        row("list element as field", "{{ .Data.list.0 }}",
            "1:14: unexpected \".0\": a field is a name; index gets a list element");
        row("undefined variable", "{{ $nope }}", "1:4: undefined variable \"$nope\"");
        row("variable out of scope", "{{ if 1 }}{{ $x := 1 }}{{ end }}{{ $x }}", "1:36: undefined variable \"$x\"");
        row("variable of the other branch", "{{ if 1 }}{{ $y := 1 }}{{ else }}{{ $y }}{{ end }}",
            "1:37: undefined variable \"$y\"");
        row("assign undeclared", "{{ $x = 1 }}", "1:4: undefined variable \"$x\"");
        row("break outside range", "{{ break }}", "1:4: {{break}} outside {{range}}");
        row("continue in range else", "{{ range .Data.list }}{{ else }}{{ continue }}{{ end }}",
            "1:36: {{continue}} outside {{range}}");
        row("unclosed comment", "a {{/* x", "1:3: unclosed comment");
        row("comment before delimiter", "{{/* c */ x }}", "1:8: comment ends before closing delimiter");
        row("unterminated string", "{{ \"abc }}", "1:4: unterminated quoted string");
        row("unterminated raw string", "{{ `abc }}", "1:4: unterminated raw quoted string");
        row("bad escape", "{{ \"a\\qb\" }}", "1:6: bad escape sequence \\q in string");
        row("missing value", "{{ }}", "1:4: missing value for command");
        row("missing condition", "{{ if }}{{ end }}", "1:7: missing value for if");
        row("empty stage", "{{ .Data.name | }}", "1:17: missing command after '|'");
        row("unclosed paren", "{{ (len .Data.list }}", "1:4: unclosed left paren");
        row("stray paren", "{{ len .Data.list) }}", "1:18: unexpected right paren: no '(' is open");
        row("unexpected character", "{{ .Data.name @ }}", "1:15: unexpected character '@' in action");
        row("glued operands", "{{ print \"a\"\"b\" }}",
            "1:13: unexpected \"b\" in operand: a space must separate arguments");
        row("field after function", "{{ len.x }}", "1:7: unexpected \".x\" after len: only maps have fields");
        row("too many declarations", "{{ $a, $b := 1 }}", "1:6: too many declarations in command");
        row("template unsupported", "{{ template \"x\" }}",
            "1:4: {{template}} is not supported: a template is one file");
        row("range over a number", "{{ range .Data.port }}{{ end }}", "1:10: range can't iterate over an integer");
        row("incompatible comparison", "{{ eq .Data.name 1 }}",
            "1:4: error calling eq: incompatible types for comparison: a string and an integer");
        row("compare lists", "{{ eq .Data.list .Data.list }}", "1:4: error calling eq: non-comparable type: a list");
        row("order booleans", "{{ lt true false }}", "1:4: error calling lt: invalid type for comparison: a boolean");
        row("eq with one argument", "{{ eq 1 }}", "1:4: error calling eq: missing argument for comparison");
        row("printf wrong type", "{{ printf \"%d\" \"x\" }}",
            "1:4: error calling printf: %d needs an integer, got a string");
        row("printf missing argument", "{{ printf \"%s %s\" 1 }}",
            "1:4: error calling printf: missing argument for %s");
        row("printf extra argument", "{{ printf \"%s\" 1 2 }}",
            "1:4: error calling printf: 2 arguments but the format uses 1");
        row("printf unknown verb", "{{ printf \"%z\" 1 }}", "1:4: error calling printf: unsupported verb %z");
        row("printf huge width", "{{ printf \"%99999999999d\" 1 }}",
            "1:4: error calling printf: width or precision over 10000 in the format");
    }

    void errors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto result = renderGoTemplate(text.toStdString(), dot());
        QVERIFY2(!result.ok(), qPrintable(result.ok() ? q(result.value()) : QString()));
        QCOMPARE(q(result.error().code), QStringLiteral("template"));
        QCOMPARE(q(result.error().message), message);
    }

    void multiLineErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("execution error") << QStringLiteral(
            "# app\n{{ if .Data.enabled }}\n  name={{ .Data.name }}\n  {{- range .Data.list }}\n"
            "    {{ index . 7 }}\n  {{- end }}\n{{ end }}\n")
                                         << QStringLiteral(
                                                "app.conf.tmpl:5:8: error calling index: index out of range: 7");
        QTest::newRow("missing end where the block opened")
            << QStringLiteral("a\nb\n  {{ with .Data.nested }}\n{{ range .deep }}{{ end }}\nc\n")
            << QStringLiteral("app.conf.tmpl:3:3: missing {{end}} for this {{with}}");
        QTest::newRow("action spanning lines")
            << QStringLiteral("x\n{{ printf \"%s\"\n   .Data.name\n   (len 1 2) }}")
            << QStringLiteral("app.conf.tmpl:4:5: wrong number of args for len: want 1 got 2");
        QTest::newRow("after a multi-line comment") << QStringLiteral(
            "{{/*\n\n*/}}\n  {{ bogus }}") << QStringLiteral("app.conf.tmpl:4:6: function \"bogus\" not defined");
        QTest::newRow("trimmed text keeps positions") << QStringLiteral(
            "a\n\n\n   {{- end }}") << QStringLiteral("app.conf.tmpl:4:4: unexpected {{end}}: no block is open");
    }

    void multiLineErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        GoTemplateOptions options;
        options.fileName = "app.conf.tmpl";
        const auto result = renderGoTemplate(text.toStdString(), dot(), options);
        QVERIFY(!result.ok());
        QCOMPARE(q(result.error().message), message);
    }

    void parseOnceExecuteMany()
    {
        const auto parsed = GoTemplate::parse("{{ range . }}<{{ . }}>{{ end }}");
        QVERIFY(parsed.ok());
        const GoTemplate copy = parsed.value();
        QCOMPARE(q(parsed.value().execute(Json::array({1, 2})).value()), QStringLiteral("<1><2>"));
        QCOMPARE(q(copy.execute(Json::array({"x"})).value()), QStringLiteral("<x>"));
        const auto failed = copy.execute(Json(5));
        QVERIFY(!failed.ok());
        QCOMPARE(q(failed.error().message), QStringLiteral("1:10: range can't iterate over an integer"));
    }

    void scopeFunctions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("registered");
        QTest::addColumn<bool>("withScope");
        QTest::addColumn<QString>("expected");
        QTest::newRow("called") << "{{ twice .Data.name }}" << true << true << "webweb";
        QTest::newRow("in a pipeline") << "{{ .Data.name | twice | printf \"%s!\" }}" << true << true << "webweb!";
        QTest::newRow("its error") << "{{ twice 5 }}" << true << true
                                   << "ERROR 1:4: error calling twice: twice() takes one string";
        QTest::newRow("not registered") << "{{ twice .Data.name }}" << false << true
                                        << "ERROR 1:4: function \"twice\" not defined";
        QTest::newRow("no scope") << "{{ twice .Data.name }}" << true << false
                                  << "ERROR 1:4: function \"twice\" is not available here";
    }

    void scopeFunctions()
    {
        QFETCH(QString, text);
        QFETCH(bool, registered);
        QFETCH(bool, withScope);
        QFETCH(QString, expected);
        GoTemplateOptions options;
        if (registered)
            options.scopeFunctions = {"twice"};
        const TwiceScope scope;
        auto parsed = GoTemplate::parse(text.toStdString(), options);
        QString got;
        if (!parsed.ok()) {
            got = QStringLiteral("ERROR ") + q(parsed.error().message);
        } else {
            const auto result = parsed.value().execute(dot(), withScope ? &scope : nullptr);
            got = result.ok() ? q(result.value()) : QStringLiteral("ERROR ") + q(result.error().message);
        }
        QCOMPARE(got, expected);
    }

    void nestingLimit_data()
    {
        QTest::addColumn<QString>("opening");
        QTest::addColumn<QString>("closing");
        QTest::addColumn<int>("levels");
        QTest::addColumn<bool>("ok");
        const QString block = QStringLiteral("{{ if 1 }}");
        const QString end = QStringLiteral("{{ end }}");
        QTest::newRow("100 blocks") << block << end << 100 << true;
        QTest::newRow("101 blocks") << block << end << 101 << false;
        QTest::newRow("100000 blocks") << block << end << 100000 << false;
        QTest::newRow("100 parentheses") << QStringLiteral("(") << QStringLiteral(")") << 100 << true;
        QTest::newRow("101 parentheses") << QStringLiteral("(") << QStringLiteral(")") << 101 << false;
        QTest::newRow("100000 parentheses") << QStringLiteral("(") << QStringLiteral(")") << 100000 << false;
    }

    void nestingLimit()
    {
        QFETCH(QString, opening);
        QFETCH(QString, closing);
        QFETCH(int, levels);
        QFETCH(bool, ok);
        const bool parens = opening == QStringLiteral("(");
        const QString text = parens
            ? QStringLiteral("{{ %1 1 %2 }}").arg(opening.repeated(levels), closing.repeated(levels))
            : opening.repeated(levels) + QStringLiteral("x") + closing.repeated(levels);
        const auto result = renderGoTemplate(text.toStdString(), dot());
        QCOMPARE(result.ok(), ok);
        if (ok) {
            QCOMPARE(q(result.value()), parens ? QStringLiteral("1") : QStringLiteral("x"));
        } else {
            const int column = parens ? 4 + 100 : 1 + 100 * int(opening.size());
            QCOMPARE(q(result.error().message),
                QStringLiteral("1:%1: nesting too deep: more than 100 levels of blocks and parentheses").arg(column));
        }
    }

    void outputLimit_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("text and values") << QStringLiteral("{{ range .Data.list }}abcd{{ end }}")
                                         << QStringLiteral("1:23: output exceeds the limit of 10 bytes");
        QTest::newRow("growing string") << QStringLiteral(
            "{{ $x := \"ab\" }}{{ range .Data.nums }}{{ $x = printf \"%s%s\" $x $x }}{{ end }}")
                                        << QStringLiteral(
                                               "1:47: error calling printf: output exceeds the limit of 10 bytes");
    }

    void outputLimit()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        GoTemplateOptions options;
        options.maxOutputBytes = 10;
        QCOMPARE(::render(text, options), QStringLiteral("ERROR ") + message);
        QCOMPARE(::render(QStringLiteral("0123456789"), options), QStringLiteral("0123456789"));
    }

    /// Every piece of text, action and block walked and every pass of a loop is a step; an
    /// execution that would take more than its limit fails at the step beyond it.
    void stepLimit()
    {
        // The range, then each of three passes with its text: seven steps.
        const QString text = QStringLiteral("{{ range .Data.nums }}x{{ end }}");
        GoTemplateOptions options;
        options.maxSteps = 7;
        QCOMPARE(::render(text, options), QStringLiteral("xxx"));
        options.maxSteps = 6;
        QCOMPARE(::render(text, options),
            QStringLiteral("ERROR 1:23: the template takes more than 6 steps (pieces of text, actions and passes "
                           "of loops): loops nested over large data?"));

        // Loops nested over data that print nothing stop at the innermost one instead of running
        // through 3^12 passes.
        QString nested;
        for (int i = 0; i < 12; ++i)
            nested += QStringLiteral("{{ range $.Data.nums }}");
        for (int i = 0; i < 12; ++i)
            nested += QStringLiteral("{{ end }}");
        options.maxSteps = 100000;
        QVERIFY2(
            ::render(nested, options).startsWith(QStringLiteral("ERROR 1:")), qPrintable(::render(nested, options)));
        QVERIFY(::render(nested, options).contains(QStringLiteral("takes more than 100000 steps")));
    }

    /// Every prefix of valid templates is either rendered or refused with a positioned error.
    void prefixesNeverCrash()
    {
        const std::vector<std::string> templates {
            "{{- range $i, $v := .Data.list }}{{ if eq $i 1 }}{{ break }}{{ else if (lt $i 0) }}x{{ end }}"
            "{{ printf \"%05.1f|%q\" 2.5 `raw` | html }}{{ end -}}",
            "{{/* c */}}{{ with $x := index .Data.mixed 4 \"k\" }}{{ slice $x 0 1 }}{{ else }}\"}}\"{{ end }}",
            "{{ $a := 0x1F }}{{ $a = -1.5e3 }}{{ js \"\\u00e9\\x41\\101\" }}{{ urlquery $.Data.name }}",
        };
        for (const std::string &text : templates) {
            QVERIFY(renderGoTemplate(text, dot()).ok());
            for (std::size_t length = 0; length < text.size(); ++length) {
                const auto result = renderGoTemplate(text.substr(0, length), dot());
                if (!result.ok())
                    QVERIFY2(
                        q(result.error().message).contains(QLatin1Char(':')), qPrintable(q(result.error().message)));
            }
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestGoTemplate)
#include "tst_go_template.moc"
