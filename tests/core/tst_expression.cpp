// SPDX-License-Identifier: Apache-2.0
#include "core/expr/expression.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

#include <string>

using namespace ccm;
using namespace ccm::test;

/// Declared ahead of the tables: moc does not follow the raw string literals they use.
class TestExpression : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void evaluate_data();
    void evaluate();
    void strayByte();
    void missingLookupIsEmpty();
    void standardScope();
    void parseOnceEvaluateMany();
    void errorDescription();
    void limits_data();
    void limits();
    void matchLimits_data();
    void matchLimits();
    void formatValue_data();
    void formatValue();
    void formatInvalidUtf8();
    void lookupPath_data();
    void lookupPath();
};

namespace {

/// The standard variables plus locals (Jet's "." among them), a function provided by the scope and
/// one that fails.
class TestScope : public ExpressionScope {
public:
    Json facts;
    Json data;
    Json environment;
    Json locals = Json::object();
    bool missingIsEmpty = false;

    const Json *variable(std::string_view name) const override
    {
        if (name == "Facts")
            return &facts;
        if (name == "Data")
            return &data;
        if (name == "Environ")
            return &environment;
        const auto found = locals.find(std::string(name));
        return found == locals.end() ? nullptr : &*found;
    }

    std::optional<Result<Json>> callFunction(std::string_view name, const std::vector<Json> &args) const override
    {
        if (name == "twice" && args.size() == 1 && args[0].is_number_integer())
            return Result<Json>(Json(args[0].get<std::int64_t>() * 2));
        if (name == "fails")
            return Result<Json>(Error {"io", "file not found"});
        return std::nullopt;
    }

    bool missingLookupIsEmpty() const override { return missingIsEmpty; }
};

TestScope makeScope()
{
    TestScope scope;
    scope.facts = Json::parse(R"({"os": {"family": "debian", "release": 12}, "hostname": "web1", "cpus": 4,
        "interfaces": [{"name": "eth0", "ip": "10.0.0.1"}, {"name": "lo"}]})");
    scope.data = Json::parse(R"({"port": 8080, "packages": ["nginx", "curl", "git"], "empty": null, "name": "web",
        "dotted.key": "d", "nested": {"a": {"b": {"c": 42}}}, "ratio": 2.5, "badPattern": "[a-"})");
    scope.environment = Json::parse(R"({"HOME": "/root"})");
    scope.locals = Json::parse(R"({".": {"Name": "item", "size": 3}, "n": 7})");
    return scope;
}

QString text(const char *utf8)
{
    return QString::fromUtf8(utf8);
}

void valueRow(const char *name, const char *expression, const char *expectedJson)
{
    QTest::newRow(name) << text(expression) << text(expectedJson) << QString() << 0;
}

void errorRow(const char *name, const char *expression, const char *message, int column)
{
    QTest::newRow(name) << text(expression) << QString() << text(message) << column;
}

std::string repeat(const std::string &part, int times)
{
    std::string result;
    for (int i = 0; i < times; ++i)
        result += part;
    return result;
}

} // namespace

void TestExpression::evaluate_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("expected"); // JSON; compared as dumped, so 2 and 2.0 differ
    QTest::addColumn<QString>("error"); // the whole message when evaluation must fail
    QTest::addColumn<int>("column");

    // Literals
    valueRow("integer", "42", "42");
    valueRow("hex", "0xFF", "255");
    valueRow("underscores", "1_000_000", "1000000");
    valueRow("binary", "0b101", "5");
    valueRow("float", "1.5", "1.5");
    valueRow("exponent", "1e3", "1000.0");
    valueRow("single quotes", R"('it\'s')", R"("it's")");
    valueRow("double quotes with escapes", R"("a\tb\n\\")", R"("a\tb\n\\")");
    valueRow("unicode escape", R"("caf\u00e9")", "\"caf\u00e9\"");
    valueRow("surrogate pair", R"("\ud83d\ude00")", "\"\U0001F600\"");
    valueRow("raw string", R"(`a\nb`)", R"("a\\nb")");
    valueRow("true", "true", "true");
    valueRow("false", "false", "false");
    valueRow("nil", "nil", "null");
    valueRow("list", "[1, 'two', [3]]", R"([1, "two", [3]])");
    valueRow("list trailing comma", "[1, 2,]", "[1, 2]");
    valueRow("empty list", "[ ]", "[]");
    valueRow("map", R"({a: 1, "b c": [2], in: 3,})", R"({"a": 1, "b c": [2], "in": 3})");
    valueRow("empty map", "{}", "{}");

    // Variables, members, optional chaining
    valueRow("member chain", "Facts.os.family", R"("debian")");
    valueRow("element", ".", R"({"Name": "item", "size": 3})");
    valueRow("element member", ".Name", R"("item")");
    valueRow("element in expression", ".size * n", "21");
    valueRow("missing key is nil", "Data.nope", "null");
    valueRow("optional member of nil", "Data.nope?.deeper", "null");
    valueRow("optional chain skips the rest", "Data.nope?.a.b[0]", "null");
    valueRow("optional member of a value", "Facts.os?.family", R"("debian")");
    valueRow("optional index of nil", "Data.empty?.[0]", "null");
    valueRow("keyword as member", "{in: 1}.in", "1");

    // Index and slice
    valueRow("list index", "Data.packages[1]", R"("curl")");
    valueRow("negative index", "Data.packages[-1]", R"("git")");
    valueRow("map index", "Facts['os']['release']", "12");
    valueRow("missing map index", "Data['nope']", "null");
    valueRow("string index", "'h\xc3\xa9llo'[1]", "\"\xc3\xa9\"");
    valueRow("computed index", "[10, 20, 30][1 + 1]", "30");
    valueRow("slice", "Data.packages[1:3]", R"(["curl", "git"])");
    valueRow("slice to", "Data.packages[:2]", R"(["nginx", "curl"])");
    valueRow("slice from", "Data.packages[1:]", R"(["curl", "git"])");
    valueRow("negative slice", "[1, 2, 3, 4][-2:]", "[3, 4]");
    valueRow("clamped slice", "[1, 2][1:10]", "[2]");
    valueRow("empty slice", "[1, 2, 3][2:1]", "[]");
    valueRow("string slice", "'h\xc3\xa9llo'[1:3]", "\"\xc3\xa9l\"");

    // Arithmetic
    valueRow("add integers", "1 + 2", "3");
    valueRow("add float", "1 + 0.5", "1.5");
    valueRow("concatenate strings", R"('a' + "b")", R"("ab")");
    valueRow("concatenate lists", "[1] + [2]", "[1, 2]");
    valueRow("subtract", "10 - 4", "6");
    valueRow("subtract is left associative", "10 - 3 - 2", "5");
    valueRow("multiply", "3 * 4", "12");
    valueRow("divide gives a float", "7 / 2", "3.5");
    valueRow("exact division is a float", "6 / 3", "2.0");
    valueRow("modulo", "7 % 3", "1");
    valueRow("modulo of a negative", "-7 % 3", "-1");
    valueRow("smallest integer modulo minus one", "(-9223372036854775807 - 1) % -1", "0");
    valueRow("power", "2 ** 10", "1024.0");
    valueRow("power is right associative", "2 ** 3 ** 2", "512.0");
    valueRow("product before sum", "1 + 2 * 3", "7");
    valueRow("parentheses", "(1 + 2) * 3", "9");
    valueRow("unary minus", "-Data.port", "-8080");
    valueRow("power binds before a sign", "-2 ** 2", "-4.0");
    valueRow("coalesce binds before a sign", "-Data.empty ?? 3", "-3");
    valueRow("sign binds before a product", "-2 * 3", "-6");
    valueRow("unary plus", "+3", "3");
    valueRow("float arithmetic", "Data.ratio * 2", "5.0");

    // Comparison and logic
    valueRow("integer equals float", "1 == 1.0", "true");
    valueRow("deep equality", "{a: [1, 2.0]} == {a: [1.0, 2]}", "true");
    valueRow("map equality ignores order", "{a: 1, b: 2} == {b: 2, a: 1}", "true");
    valueRow("different lengths", "[1] == [1, 1]", "false");
    valueRow("not equal", "'a' != 'b'", "true");
    valueRow("nil equals missing", "Data.nope == nil", "true");
    valueRow("less", "1 < 2", "true");
    valueRow("string order", "'abc' < 'abd'", "true");
    valueRow("mixed greater or equal", "2.5 >= 2", "true");
    valueRow("less or equal", "3 <= 3", "true");
    valueRow("greater", "3 > 4", "false");
    valueRow("and", "true && false", "false");
    valueRow("or word", "false or true", "true");
    valueRow("and word", "true and true", "true");
    valueRow("not binds before equality", "!true == false", "true");
    valueRow("not word", "not false", "true");
    valueRow("double negation", "!!true", "true");
    valueRow("and short-circuits", "false && Unknown", "false");
    valueRow("or short-circuits", "true || 1", "true");
    valueRow("and before or", "true || false && false", "true");
    valueRow("comparison before and", "1 < 2 && 2 < 3", "true");
    valueRow("in list", "'curl' in Data.packages", "true");
    valueRow("in list by number", "2.0 in [1, 2]", "true");
    valueRow("in map", "'os' in Facts", "true");
    valueRow("not in", "'vim' not in Data.packages", "true");
    valueRow("contains", "'nginx' contains 'gin'", "true");
    valueRow("startsWith", "Facts.hostname startsWith 'web'", "true");
    valueRow("endsWith", "Facts.hostname endsWith 'web'", "false");
    valueRow("matches", "Facts.hostname matches '^web[0-9]+$'", "true");
    valueRow("matches searches", R"('xx12yy' matches '\\d+')", "true");
    valueRow("matches anchors", "'xweb1' matches '^web'", "false");
    valueRow("matches a computed pattern", "'website' matches Data.name", "true");
    valueRow("sum before comparison", "1 + 1 == 2", "true");

    // Nil coalescing
    valueRow("coalesce missing variable", "Missing ?? 'd'", R"("d")");
    valueRow("coalesce through nil", "Data.nope.deeper ?? 'd'", R"("d")");
    valueRow("coalesce present", "Data.port ?? 1", "8080");
    valueRow("coalesce binds tighter than plus", "Data.port ?? 1 + 1", "8081");
    valueRow("coalesce nil plus", "Data.nope ?? 1 + 1", "2");
    valueRow("coalesce chain", "A ?? B ?? 'c'", R"("c")");
    valueRow("coalesce out of range", "Data.packages[9] ?? 'none'", R"("none")");
    valueRow("coalesce keeps false", "false ?? true", "false");

    // Ternary
    valueRow("ternary", "Data.port > 80 ? 'high' : 'low'", R"("high")");
    valueRow("ternary nests to the right", "false ? 1 : true ? 2 : 3", "2");
    valueRow("ternary inside a branch", "true ? false ? 1 : 2 : 3", "2");
    valueRow("ternary is loosest", "1 + 1 == 2 ? 'y' : 'n'", R"("y")");
    valueRow("ternary skips the other branch", "true ? 1 : Unknown", "1");

    // lookup()
    valueRow("lookup nested", "lookup('facts.os.family')", R"("debian")");
    valueRow("lookup list item", "lookup('facts.interfaces.0.name')", R"("eth0")");
    valueRow("lookup list length", "lookup('facts.interfaces.#')", "2");
    valueRow("lookup escaped dot", R"(lookup('data.dotted\\.key'))", R"("d")");
    valueRow("lookup default", "lookup('data.nope', 'fallback')", R"("fallback")");
    valueRow("lookup environ", "lookup('environ.HOME')", R"("/root")");
    valueRow("lookup deep", "lookup('data.nested.a.b.c')", "42");
    valueRow("lookup root", "lookup('environ')", R"({"HOME": "/root"})");

    // Built-in functions
    valueRow("len of string counts characters", "len('h\xc3\xa9llo')", "5");
    valueRow("len of list", "len(Data.packages)", "3");
    valueRow("len of map", "len(Facts.os)", "2");
    valueRow("lower", "lower('AbC')", R"("abc")");
    valueRow("upper", "upper('abc')", R"("ABC")");
    valueRow("trim", R"(trim("  a b \n"))", R"("a b")");
    valueRow("trim characters", "trim('xxhixx', 'x')", R"("hi")");
    valueRow("trim multi-byte characters",
        "trim('\xc3\xa9"
        "a\xc3\xa9', '\xc3\xa9')",
        R"("a")");
    valueRow("split", "split('a,b,,c', ',')", R"(["a", "b", "", "c"])");
    valueRow("split into characters", "split('a\xc3\xa9', '')", "[\"a\", \"\xc3\xa9\"]");
    valueRow("join", "join(Data.packages, ', ')", R"("nginx, curl, git")");
    valueRow("join formats", "join([1, 2.5, 3.0, true, nil, 'x'])", R"("12.53truex")");
    valueRow("string of float", "string(3.0)", R"("3")");
    valueRow("string of list", "string([1, 'a'])", R"("[1,\"a\"]")");
    valueRow("int of string", "int('42')", "42");
    valueRow("int truncates", "int(-3.9)", "-3");
    valueRow("float of string", "float('2.5')", "2.5");
    valueRow("float of integer", "float(2)", "2.0");
    valueRow("keys", "keys(Facts.os)", R"(["family", "release"])");
    valueRow("values", "values({a: 1, b: 'x'})", R"([1, "x"])");
    valueRow("abs of integer", "abs(-3)", "3");
    valueRow("abs of float", "abs(-2.5)", "2.5");
    valueRow("min", "min(3, 1.5, 2)", "1.5");
    valueRow("max", "max(1, 7, 3)", "7");
    valueRow("max of list", "max([4, 9, 2])", "9");
    valueRow("toJSON", "toJSON({a: [1, 'x']})", R"("{\"a\":[1,\"x\"]}")");
    valueRow("fromJSON", R"(fromJSON('{"a": [1, 2]}').a[1])", "2");
    valueRow("scope function", "twice(21)", "42");
    valueRow("scope function in expression", "twice(n) + 1", "15");

    // Errors: message and column
    errorRow("unclosed parenthesis", "(1 + 2", "expected ')'", 7);
    errorRow("missing operand", "1 +", "unexpected end of expression, expected a value", 4);
    errorRow("unterminated string", "'abc", "unterminated string", 1);
    errorRow("string ends in a backslash", R"(1 + "abc\)", "unterminated string", 5);
    errorRow("unterminated raw string", "`abc", "unterminated string", 1);
    errorRow("lone surrogate", R"('\udc00')", "\\u escape is half of a surrogate pair", 2);
    errorRow("short unicode escape", R"('\u12')", "\\u needs four hex digits", 2);
    errorRow("bad character", "1 # 2", "unexpected character '#'", 3);
    errorRow("unclosed index", "Data.packages[1", "expected ']'", 16);
    errorRow("unclosed list", "[1, 2", "expected ',' or ']'", 6);
    errorRow("unclosed call", "len('a' 'b')", "expected ',' or ')'", 9);
    errorRow("empty", "", "empty expression", 1);
    errorRow("blank", "  \t ", "empty expression", 1);
    errorRow("two values", "1 2", "unexpected '2', expected an operator or the end of the expression", 3);
    errorRow("missing colon", "true ? 1", "expected ':' of the ternary operator", 9);
    errorRow("unknown escape", R"('a\q')", R"(unknown escape '\q')", 3);
    errorRow("bad number", "0x", "invalid number '0x'", 1);
    errorRow("bad underscore", "1__0", "invalid number '1__0'", 1);
    errorRow("too large integer", "99999999999999999999", "integer '99999999999999999999' is too large", 1);
    errorRow("member without name", "Data.", "expected a name after '.'", 6);
    errorRow("bad map key", "{1: 2}", "expected a map key (a name or a string), got '1'", 2);
    errorRow("keyword as value", "in", "unexpected 'in', expected a value", 1);
    errorRow("call of a member", "Data.name(1)", "only named functions can be called", 10);
    errorRow("unknown name", "nope + 1", "unknown name 'nope'", 1);
    errorRow("member of nil", "Data.nope.deeper", "cannot read 'deeper' of nil", 11);
    errorRow("member of integer", "Data.port.x", "cannot read 'x' of an integer", 11);
    errorRow("add string and integer", "1 + 'a'", "cannot add an integer and a string", 3);
    errorRow("add string and map", "'a' + {}", "cannot add a string and a map", 5);
    errorRow("subtract strings", "'a' - 'b'", "cannot subtract a string from a string", 5);
    errorRow("boolean operand", "true && 'x'", "expected a boolean, got a string", 9);
    errorRow("boolean left operand", "(1 + 1) || true", "expected a boolean, got an integer", 2);
    errorRow("not of integer", "!1", "expected a boolean, got an integer", 2);
    errorRow("ternary condition", "1 ? 2 : 3", "expected a boolean, got an integer", 1);
    errorRow("negate string", "-'a'", "unary - needs a number, got a string", 1);
    errorRow("division by zero", "1 / 0", "division by zero", 3);
    errorRow("modulo by zero", "5 % 0", "modulo by zero", 3);
    errorRow("modulo of float", "5.5 % 2", "% needs two integers, got a number and an integer", 5);
    errorRow("addition overflow", "9223372036854775807 + 1",
        "integer overflow: the result of + does not fit in 64 bits", 21);
    errorRow("multiplication overflow", "4611686018427387904 * 2",
        "integer overflow: the result of * does not fit in 64 bits", 21);
    errorRow("negation overflow", "-(-9223372036854775807 - 1)",
        "integer overflow: the result of - does not fit in 64 bits", 1);
    errorRow("power overflow", "10 ** 400", "the result of ** is not a finite number", 4);
    errorRow("compare kinds", "1 < 'a'", "cannot compare an integer with a string", 3);
    errorRow("compare lists", "[1] < [2]", "cannot compare a list with a list", 5);
    errorRow("in string", "1 in 'abc'", "'in' needs a list or a map on the right, got a string", 3);
    errorRow("in map with integer", "1 in Facts", "'in' needs a string key for a map, got an integer", 3);
    errorRow("contains on list", "Data.packages contains 'git'",
        "'contains' needs two strings, got a list and a string", 15);
    errorRow("bad literal pattern", "'a' matches '('", "invalid pattern '(': unbalanced parentheses", 13);
    errorRow(
        "bad computed pattern", "'a' matches Data.badPattern", "invalid pattern '[a-': invalid character range", 13);
    errorRow("back-reference", R"('aa' matches '(a)\\1')",
        R"(invalid pattern '(a)\1': back-references are not supported)", 14);
    errorRow("huge back-reference number", R"('a' matches '\\8888888888888888888888')",
        R"(invalid pattern '\8888888888888888888888': back-references are not supported)", 13);
    errorRow("lookahead", "'a' matches '(?=a)a'", "invalid pattern '(?=a)a': lookahead is not supported", 13);
    errorRow("pattern repeats too much", "'a' matches '((a{100}){100}){100}'",
        "invalid pattern '((a{100}){100}){100}': it repeats too much", 13);
    errorRow("huge repetition count", "'x' matches 'a{8888881888888888888}'",
        "invalid pattern 'a{8888881888888888888}': a repetition count is above 1000, the largest allowed", 13);
    errorRow("huge repetition bound", "'x' matches 'a{1,8888881888888888888}'",
        "invalid pattern 'a{1,8888881888888888888}': a repetition count is above 1000, the largest allowed", 13);
    errorRow("huge repetition of nothing", "'x' matches '{8888881888888888888}'",
        "invalid pattern '{8888881888888888888}': a repetition count is above 1000, the largest allowed", 13);
    errorRow("huge repetition at a group start", "'x' matches '(|{8888881888888888888})'",
        "invalid pattern '(|{8888881888888888888})': a repetition count is above 1000, the largest allowed", 13);
    errorRow("repetition count just above the limit", "'x' matches 'a{1001}'",
        "invalid pattern 'a{1001}': a repetition count is above 1000, the largest allowed", 13);
    errorRow("unclosed brace", "'x' matches 'a{12'",
        "invalid pattern 'a{12': '{' must be followed by a repetition count such as {2} or {1,3}", 13);
    errorRow("brace without count", "'x' matches 'a{x}'",
        "invalid pattern 'a{x}': '{' must be followed by a repetition count such as {2} or {1,3}", 13);
    errorRow("bounds reversed", "'x' matches 'a{3,1}'",
        "invalid pattern 'a{3,1}': the repetition {3,1} has a smaller maximum than minimum", 13);
    const std::string deepPattern = repeat("(", 200) + repeat(")", 200);
    QTest::newRow("deep nesting")
        << text(("'x' matches '" + deepPattern + "'").c_str()) << QString()
        << text(("invalid pattern '" + repeat("(", 60) + "...': groups are nested deeper than 100 levels").c_str())
        << 13;
    errorRow("index out of range", "Data.packages[5]", "index 5 is out of range for a list of 3 items", 14);
    errorRow("string index out of range", "'ab'[2]", "index 2 is out of range for a string of 2 characters", 5);
    errorRow("list index by string", "Data.packages['x']", "an index must be an integer, got a string", 14);
    errorRow("map index by integer", "Facts[0]", "a map index must be a string, got an integer", 6);
    errorRow("index of nil", "Data.empty[0]", "cannot read index 0 of nil", 11);
    errorRow("slice of map", "Facts[1:2]", "cannot slice a map", 6);
    errorRow("too many arguments", "len(1, 2)", "len() takes 1 argument, got 2", 1);
    errorRow("too few arguments", "min()", "min() takes at least 1 argument, got 0", 1);
    errorRow("lookup arguments", "lookup()", "lookup() takes 1 or 2 arguments, got 0", 1);
    errorRow("left operand fails first", "x + len(5)", "unknown name 'x'", 1);
    errorRow("len of integer", "len(5)", "len() needs a string, a list or a map, got an integer", 1);
    errorRow("lower of list", "1 + lower([])", "lower() needs a string, got a list", 5);
    errorRow("split of integer", "split(1, ',')", "split() needs two strings, got an integer and a string", 1);
    errorRow("join of string", "join('a')", "join() needs a list, got a string", 1);
    errorRow("int of word", "int('abc')", "int() cannot convert 'abc' to an integer", 1);
    errorRow("float of word", "float('x1')", "float() cannot convert 'x1' to a number", 1);
    errorRow("keys of list", "keys([])", "keys() needs a map, got a list", 1);
    errorRow("abs of string", "abs('1')", "abs() needs a number, got a string", 1);
    errorRow("max of strings", "max('a', 'b')", "max() needs numbers, got a string", 1);
    errorRow("min of empty list", "min([])", "min() of an empty list", 1);
    errorRow("invalid JSON", "fromJSON('{')", "fromJSON() got invalid JSON", 1);
    errorRow("unknown function", "1 + nosuch(1)", "unknown function 'nosuch'", 5);
    errorRow("scope function fails", "1 + fails()", "file not found", 5);
    errorRow("missing lookup", "lookup('data.nope')", "missing key 'data.nope'", 1);
    errorRow("lookup of unknown root", "lookup('other.x')", "missing key 'other.x'", 1);
    errorRow("lookup of integer", "lookup(1)", "lookup() needs a string path, got an integer", 1);
}

void TestExpression::evaluate()
{
    QFETCH(QString, expression);
    QFETCH(QString, expected);
    QFETCH(QString, error);
    QFETCH(int, column);
    const TestScope scope = makeScope();
    const auto result = evaluateExpression(expression.toStdString(), scope);
    if (!error.isEmpty()) {
        QVERIFY2(!result.ok(), qPrintable(q(result.ok() ? result.value().dump() : std::string())));
        QCOMPARE(q(result.error().message), error);
        QCOMPARE(result.error().column, column);
        return;
    }
    QVERIFY2(result.ok(), qPrintable(q(result.ok() ? std::string() : result.error().describe())));
    QCOMPARE(q(result.value().dump()), q(Json::parse(expected.toStdString()).dump()));
}

void TestExpression::strayByte()
{
    // Not a table row: the rows travel as QString, which would turn the byte into U+FFFD.
    const auto result = evaluateExpression("1 + \xff", makeScope());
    QVERIFY(!result.ok());
    QCOMPARE(q(result.error().message), QStringLiteral("unexpected byte 0xFF"));
    QCOMPARE(result.error().column, 5);
}

void TestExpression::missingLookupIsEmpty()
{
    TestScope scope = makeScope();
    scope.missingIsEmpty = true;
    const auto missing = evaluateExpression("lookup('data.nope') + '!'", scope);
    QVERIFY(missing.ok());
    QCOMPARE(q(missing.value().get<std::string>()), QStringLiteral("!"));
    const auto defaulted = evaluateExpression("lookup('data.nope', 5)", scope);
    QVERIFY(defaulted.ok());
    QCOMPARE(defaulted.value().get<int>(), 5);
}

void TestExpression::standardScope()
{
    const Json facts = Json::parse(R"({"host": "a"})");
    const Json data = Json::parse(R"({"port": 80})");
    const Json environment = Json::parse(R"({"USER": "root"})");
    const StandardScope scope(facts, data, environment);
    QCOMPARE(scope.variable("Facts"), &facts);
    QCOMPARE(scope.variable("facts"), &facts);
    QCOMPARE(scope.variable("Data"), &data);
    QCOMPARE(scope.variable("data"), &data);
    QCOMPARE(scope.variable("Environ"), &environment);
    QCOMPARE(scope.variable("environ"), &environment);
    QVERIFY(scope.variable("Other") == nullptr);
    QVERIFY(scope.variable(".") == nullptr);
    const auto result = evaluateExpression("data.port + Data.port + len(lookup('environ.USER'))", scope);
    QVERIFY(result.ok());
    QCOMPARE(result.value().get<int>(), 164);
}

void TestExpression::parseOnceEvaluateMany()
{
    const auto parsed = Expression::parse("Data.port + n");
    QVERIFY(parsed.ok());
    const Expression copy = parsed.value();
    QCOMPARE(q(copy.text()), QStringLiteral("Data.port + n"));
    TestScope first = makeScope();
    TestScope second = makeScope();
    second.data["port"] = 1;
    second.locals["n"] = 2.5;
    QCOMPARE(q(copy.evaluate(first).value().dump()), QStringLiteral("8087"));
    QCOMPARE(q(copy.evaluate(second).value().dump()), QStringLiteral("3.5"));
    QCOMPARE(q(parsed.value().evaluate(first).value().dump()), QStringLiteral("8087"));
    const auto failing = copy.evaluate(TestScope());
    QVERIFY(!failing.ok());
    QCOMPARE(q(failing.error().describe()), QStringLiteral("cannot read 'port' of nil at column 6"));
}

void TestExpression::errorDescription()
{
    const ExpressionError located {"expected ')'", 17};
    QCOMPARE(q(located.describe()), QStringLiteral("expected ')' at column 17"));
    QCOMPARE(q(located.toError().code), QStringLiteral("expression"));
    QCOMPARE(q(located.toError().message), QStringLiteral("expected ')' at column 17"));
    const ExpressionError unlocated {"expression is too long", 0};
    QCOMPARE(q(unlocated.describe()), QStringLiteral("expression is too long"));
}

void TestExpression::limits_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("maxLength");
    QTest::addColumn<QString>("error"); // empty: must evaluate

    const int large = 4 * 1024 * 1024;
    const auto row = [](const char *name, const std::string &expression, int maxLength, const char *error) {
        QTest::newRow(name) << q(expression) << maxLength << QString::fromUtf8(error);
    };
    row("nested parentheses within the limit", repeat("(", 150) + "1" + repeat(")", 150), large, "");
    row("nested parentheses", repeat("(", 300) + "1" + repeat(")", 300), large, "expression nests too deeply");
    row("unclosed parentheses", repeat("(", 100000), large, "expression nests too deeply");
    row("negation chain", repeat("!", 1000) + "true", large, "expression nests too deeply");
    row("minus chain", repeat("-", 100000) + "1", large, "expression nests too deeply");
    row("nested lists", repeat("[", 100000), large, "expression nests too deeply");
    row("nested maps", repeat("{a:", 100000), large, "expression nests too deeply");
    row("nested calls", repeat("len(", 100000), large, "expression nests too deeply");
    row("nested ternaries", repeat("true ? 1 : ", 100000) + "1", large, "expression nests too deeply");
    row("short sum", "1" + repeat(" + 1", 150), large, "");
    row("sum of 100k terms", "1" + repeat("+1", 99999), large, "expression nests too deeply");
    row("power chain", "1" + repeat("**1", 99999), large, "expression nests too deeply");
    row("member chain", "Data" + repeat(".a", 100000), large, "expression nests too deeply");
    row("index chain", "Data" + repeat("[0]", 100000), large, "expression nests too deeply");
    row("coalesce chain", "a" + repeat(" ?? a", 100000), large, "expression nests too deeply");
    row("longer than the limit", "1" + repeat("+1", 99999), 64 * 1024,
        "expression is 199999 bytes long, more than the limit of 65536");
    row("huge text", repeat(" ", 1024 * 1024) + "1", 64 * 1024,
        "expression is 1048577 bytes long, more than the limit of 65536");
}

void TestExpression::limits()
{
    QFETCH(QString, expression);
    QFETCH(int, maxLength);
    QFETCH(QString, error);
    ExpressionLimits limits;
    limits.maxLength = static_cast<std::size_t>(maxLength);
    const auto parsed = Expression::parse(expression.toStdString(), limits);
    if (!error.isEmpty()) {
        QVERIFY(!parsed.ok());
        QCOMPARE(q(parsed.error().message), error);
        return;
    }
    QVERIFY2(parsed.ok(), qPrintable(q(parsed.ok() ? std::string() : parsed.error().describe())));
    QVERIFY(parsed.value().evaluate(makeScope()).ok());
}

void TestExpression::matchLimits_data()
{
    QTest::addColumn<int>("subjectLength");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("error");
    QTest::newRow("long subject") << 60000 << QStringLiteral("(a|b)*c") << QString();
    QTest::newRow("subject too long") << 70000 << QStringLiteral("a")
                                      << QStringLiteral("'matches' refuses a string longer than 64 KiB");
    QTest::newRow("costly pattern on a long subject")
        << 60000 << QStringLiteral("((a?){30}){30}")
        << QStringLiteral("pattern is too complex to match against 60000 bytes");
    QTest::newRow("pattern too long") << 10 << QString(2000, QLatin1Char('a'))
                                      << QStringLiteral("it is longer than 1024 bytes");
}

void TestExpression::matchLimits()
{
    QFETCH(int, subjectLength);
    QFETCH(QString, pattern);
    QFETCH(QString, error);
    TestScope scope = makeScope();
    scope.locals["subject"] = std::string(static_cast<std::size_t>(subjectLength), 'a');
    scope.locals["pattern"] = pattern.toStdString();
    const auto result = evaluateExpression("subject matches pattern", scope);
    if (error.isEmpty()) {
        QVERIFY2(result.ok(), qPrintable(q(result.ok() ? std::string() : result.error().describe())));
        QCOMPARE(result.value().get<bool>(), false);
        return;
    }
    QVERIFY(!result.ok());
    QVERIFY2(q(result.error().message).contains(error), qPrintable(q(result.error().message)));
}

void TestExpression::formatValue_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("printed");
    QTest::newRow("null") << QStringLiteral("null") << QString();
    QTest::newRow("string") << QStringLiteral("\"a b\"") << QStringLiteral("a b");
    QTest::newRow("true") << QStringLiteral("true") << QStringLiteral("true");
    QTest::newRow("false") << QStringLiteral("false") << QStringLiteral("false");
    QTest::newRow("integer") << QStringLiteral("3") << QStringLiteral("3");
    QTest::newRow("negative") << QStringLiteral("-4") << QStringLiteral("-4");
    QTest::newRow("largest unsigned") << QStringLiteral("18446744073709551615")
                                      << QStringLiteral("18446744073709551615");
    QTest::newRow("whole float") << QStringLiteral("3.0") << QStringLiteral("3");
    QTest::newRow("fraction") << QStringLiteral("2.5") << QStringLiteral("2.5");
    QTest::newRow("shortest form") << QStringLiteral("0.1") << QStringLiteral("0.1");
    QTest::newRow("negative zero") << QStringLiteral("-0.0") << QStringLiteral("0");
    QTest::newRow("large whole float") << QStringLiteral("123456789012.0") << QStringLiteral("123456789012");
    QTest::newRow("huge float") << QStringLiteral("1e20") << QStringLiteral("1e+20");
    QTest::newRow("tiny float") << QStringLiteral("1e-7") << QStringLiteral("1e-07");
    QTest::newRow("list") << QStringLiteral("[1, \"a\", 1.5, null]") << QStringLiteral("[1,\"a\",1.5,null]");
    QTest::newRow("map") << QStringLiteral("{\"b\": 1, \"a\": {\"c\": []}}")
                         << QStringLiteral("{\"b\":1,\"a\":{\"c\":[]}}");
}

void TestExpression::formatValue()
{
    QFETCH(QString, json);
    QFETCH(QString, printed);
    QCOMPARE(q(ccm::formatValue(Json::parse(json.toStdString()))), printed);
}

void TestExpression::formatInvalidUtf8()
{
    Json list = Json::array();
    list.push_back(std::string("\xff"));
    QCOMPARE(q(ccm::formatValue(list)), QStringLiteral("[\"\uFFFD\"]"));
    QCOMPARE(ccm::formatValue(Json(std::string("\xff"))), std::string("\xff"));
}

void TestExpression::lookupPath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected"); // JSON; empty when the path is missing
    QTest::newRow("empty path is the root") << QString() << QStringLiteral("ROOT");
    QTest::newRow("nested") << QStringLiteral("a.b.c") << QStringLiteral("1");
    QTest::newRow("map") << QStringLiteral("a.b") << QStringLiteral("{\"c\": 1}");
    QTest::newRow("list item") << QStringLiteral("list.0.name") << QStringLiteral("\"x\"");
    QTest::newRow("list length") << QStringLiteral("list.#") << QStringLiteral("2");
    QTest::newRow("escaped dot") << QStringLiteral("dotted\\.key") << QStringLiteral("true");
    QTest::newRow("numeric map key") << QStringLiteral("numbers.0") << QStringLiteral("\"zero\"");
    QTest::newRow("null value") << QStringLiteral("none") << QStringLiteral("null");
    QTest::newRow("missing key") << QStringLiteral("a.x") << QString();
    QTest::newRow("missing root key") << QStringLiteral("nope") << QString();
    QTest::newRow("missing item") << QStringLiteral("list.1.name") << QString();
    QTest::newRow("out of range") << QStringLiteral("list.5") << QString();
    QTest::newRow("negative index") << QStringLiteral("list.-1") << QString();
    QTest::newRow("word index") << QStringLiteral("list.x") << QString();
    QTest::newRow("through a scalar") << QStringLiteral("a.b.c.d") << QString();
    QTest::newRow("after the length") << QStringLiteral("list.#.name") << QString();
    QTest::newRow("unescaped dotted key") << QStringLiteral("dotted.key") << QString();
}

void TestExpression::lookupPath()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const Json root = Json::parse(R"({"a": {"b": {"c": 1}}, "list": [{"name": "x"}, {}], "dotted.key": true,
        "numbers": {"0": "zero"}, "none": null})");
    const auto found = ccm::lookupPath(root, path.toStdString());
    if (expected.isEmpty()) {
        QVERIFY2(!found.has_value(), qPrintable(q(found ? found->dump() : std::string())));
        return;
    }
    QVERIFY(found.has_value());
    const Json wanted = expected == QStringLiteral("ROOT") ? root : Json::parse(expected.toStdString());
    QCOMPARE(q(found->dump()), q(wanted.dump()));
}

CCM_TEST_GUILESS_MAIN(TestExpression)
#include "tst_expression.moc"
