// SPDX-License-Identifier: Apache-2.0
#include "core/template/jet_template.h"
#include "core/template/template_scope.h"
#include "core/template/template_string.h"
#include "test_main.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

/// Segments as "T[text]" and "E[expression]@offset", for compact expectations.
QString describeSegments(const std::vector<TemplateSegment> &segments)
{
    QString out;
    for (const TemplateSegment &segment : segments) {
        if (segment.kind == TemplateSegment::Kind::Text)
            out += QStringLiteral("T[%1]").arg(q(segment.text));
        else
            out += QStringLiteral("E[%1]@%2").arg(q(segment.text)).arg(segment.offset);
    }
    return out;
}

const Json &facts()
{
    static const Json value = Json::parse(R"({"host": {"info": {"platformFamily": "debian", "hostname": "web1"}},
        "cpu": {"count": 4}})");
    return value;
}

const Json &data()
{
    static const Json value = Json::parse(R"({"package": "nginx", "port": 8080, "ratio": 2.5, "enabled": true,
        "users": ["alice", "bob"], "limits": {"open": 1024}, "nothing": null})");
    return value;
}

const Json &environment()
{
    static const Json value = Json::parse(R"({"HOME": "/root"})");
    return value;
}

} // namespace

class TestTemplateString : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scan_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("segments");
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("plain") << QStringLiteral("hello") << QStringLiteral("T[hello]");
        QTest::newRow("braces") << QStringLiteral("{{ x }}") << QStringLiteral("E[ x ]@2");
        QTest::newRow("dollar") << QStringLiteral("${ x }") << QStringLiteral("E[ x ]@2");
        QTest::newRow("no spaces") << QStringLiteral("{{x}}") << QStringLiteral("E[x]@2");
        QTest::newRow("text around") << QStringLiteral("a{{ x }}b") << QStringLiteral("T[a]E[ x ]@3T[b]");
        QTest::newRow("mixed delimiters") << QStringLiteral("{{ a }}-${ b }")
                                          << QStringLiteral("E[ a ]@2T[-]E[ b ]@10");
        QTest::newRow("adjacent") << QStringLiteral("{{a}}{{b}}") << QStringLiteral("E[a]@2E[b]@7");
        QTest::newRow("dollar digit") << QStringLiteral("costs $5") << QStringLiteral("T[costs $5]");
        QTest::newRow("dollar name") << QStringLiteral("$HOME/bin") << QStringLiteral("T[$HOME/bin]");
        QTest::newRow("lone dollar at end") << QStringLiteral("a$") << QStringLiteral("T[a$]");
        QTest::newRow("single brace") << QStringLiteral("{a}") << QStringLiteral("T[{a}]");
        QTest::newRow("unterminated braces") << QStringLiteral("a {{ b") << QStringLiteral("T[a {{ b]");
        QTest::newRow("unterminated dollar") << QStringLiteral("a ${ b") << QStringLiteral("T[a ${ b]");
        QTest::newRow("unterminated then complete")
            << QStringLiteral("{{ a ${ b }") << QStringLiteral("T[{{ a ]E[ b ]@7");
        QTest::newRow("single closing brace inside braces")
            << QStringLiteral("{{ {'a': 1}['a'] }}") << QStringLiteral("E[ {'a': 1}['a'] ]@2");
        QTest::newRow("braces close at first pair")
            << QStringLiteral("{{ a }} }}") << QStringLiteral("E[ a ]@2T[ }}]");
        QTest::newRow("dollar nests braces")
            << QStringLiteral("${ {'a': {'b': 1}}.a.b }") << QStringLiteral("E[ {'a': {'b': 1}}.a.b ]@2");
        QTest::newRow("dollar unbalanced") << QStringLiteral("${ { }") << QStringLiteral("T[${ { }]");
        QTest::newRow("quoted closer single") << QStringLiteral("{{ '}}' }}") << QStringLiteral("E[ '}}' ]@2");
        QTest::newRow("quoted closer double") << QStringLiteral("{{ \"}}\" }}") << QStringLiteral("E[ \"}}\" ]@2");
        QTest::newRow("quoted closer backtick") << QStringLiteral("{{ `}}` }}") << QStringLiteral("E[ `}}` ]@2");
        QTest::newRow("quoted brace in dollar") << QStringLiteral("${ '}' }") << QStringLiteral("E[ '}' ]@2");
        QTest::newRow("escaped quote") << QStringLiteral("{{ 'it\\'s }}' }}")
                                       << QStringLiteral("E[ 'it\\'s }}' ]@2");
        QTest::newRow("backslash in backtick is literal")
            << QStringLiteral("{{ `a\\` }}") << QStringLiteral("E[ `a\\` ]@2");
        QTest::newRow("unterminated quote") << QStringLiteral("{{ 'abc }}") << QStringLiteral("T[{{ 'abc }}]");
        QTest::newRow("quotes outside are text") << QStringLiteral("'{{ a }}'") << QStringLiteral("T[']E[ a ]@3T[']");
        QTest::newRow("empty expression") << QStringLiteral("{{}}") << QStringLiteral("E[]@2");
        QTest::newRow("multi-line") << QStringLiteral("line1\n{{ a }}\nline3")
                                    << QStringLiteral("T[line1\n]E[ a ]@8T[\nline3]");
        QTest::newRow("dollar brace text after") << QStringLiteral("${a}}") << QStringLiteral("E[a]@2T[}]");
        QTest::newRow("utf-8 text") << QStringLiteral("größe {{ a }}") << QStringLiteral("T[größe ]E[ a ]@10");
        QTest::newRow("shell variable") << QStringLiteral("echo ${HOME}") << QStringLiteral("T[echo ]E[HOME]@7");
        QTest::newRow("dollar empty") << QStringLiteral("${}") << QStringLiteral("E[]@2");
        QTest::newRow("trailing opener") << QStringLiteral("{{ a }}{{") << QStringLiteral("E[ a ]@2T[{{]");
        QTest::newRow("dollar space brace") << QStringLiteral("$ {a}") << QStringLiteral("T[$ {a}]");
        QTest::newRow("nested dollar") << QStringLiteral("${ ${ a } }") << QStringLiteral("E[ ${ a } ]@2");
        QTest::newRow("escaped double quote") << QStringLiteral("{{ \"a\\\"}}\" }}")
                                              << QStringLiteral("E[ \"a\\\"}}\" ]@2");
        QTest::newRow("only closers") << QStringLiteral("}} }") << QStringLiteral("T[}} }]");
        QTest::newRow("literal text between") << QStringLiteral("{{ a }} and ${ b } and $c")
                                              << QStringLiteral("E[ a ]@2T[ and ]E[ b ]@14T[ and $c]");
        QTest::newRow("opener inside text twice")
            << QStringLiteral("{{ {{ a }}") << QStringLiteral("E[ {{ a ]@2");
    }

    void scan()
    {
        QFETCH(QString, text);
        QFETCH(QString, segments);
        QCOMPARE(describeSegments(scanTemplate(text.toStdString())), segments);
    }

    void resolve_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("typed");
        QTest::addColumn<QString>("expected"); // JSON of the result
        QTest::newRow("plain string") << QStringLiteral("hello") << false << QStringLiteral(R"("hello")");
        QTest::newRow("lookup") << QStringLiteral("{{ lookup('data.package') }}") << false
                                << QStringLiteral(R"("nginx")");
        QTest::newRow("facts variable") << QStringLiteral("${ Facts.host.info.platformFamily }") << false
                                        << QStringLiteral(R"("debian")");
        QTest::newRow("integer as string") << QStringLiteral("{{ Data.port }}") << false
                                           << QStringLiteral(R"("8080")");
        QTest::newRow("integer typed") << QStringLiteral("{{ Data.port }}") << true << QStringLiteral("8080");
        QTest::newRow("typed with spaces around") << QStringLiteral("  {{ 8080 }} ") << true
                                                  << QStringLiteral("8080");
        QTest::newRow("typed list") << QStringLiteral("{{ Data.users }}") << true
                                    << QStringLiteral(R"(["alice","bob"])");
        QTest::newRow("list in text is JSON") << QStringLiteral("users: {{ Data.users }}") << true
                                              << QStringLiteral("\"users: [\\\"alice\\\",\\\"bob\\\"]\"");
        QTest::newRow("map as string") << QStringLiteral("{{ Data.limits }}") << false
                                       << QStringLiteral("\"{\\\"open\\\":1024}\"");
        QTest::newRow("float") << QStringLiteral("{{ Data.ratio }}") << false << QStringLiteral(R"("2.5")");
        QTest::newRow("integral float") << QStringLiteral("{{ 3.0 }}") << false << QStringLiteral(R"("3")");
        QTest::newRow("bool typed") << QStringLiteral("{{ Data.enabled }}") << true << QStringLiteral("true");
        QTest::newRow("null prints empty") << QStringLiteral("[{{ Data.nothing }}]") << false
                                           << QStringLiteral(R"("[]")");
        QTest::newRow("null typed") << QStringLiteral("{{ Data.nothing }}") << true << QStringLiteral("null");
        QTest::newRow("two expressions") << QStringLiteral("{{ Data.package }}-{{ Data.port }}") << true
                                         << QStringLiteral(R"("nginx-8080")");
        QTest::newRow("mixed delimiters") << QStringLiteral("${ Data.package }:{{ Data.port }}") << false
                                          << QStringLiteral(R"("nginx:8080")");
        QTest::newRow("dollar digit kept") << QStringLiteral("costs $5 for {{ Data.package }}") << false
                                           << QStringLiteral(R"("costs $5 for nginx")");
        QTest::newRow("unterminated kept") << QStringLiteral("{{ Data.package") << false
                                           << QStringLiteral(R"("{{ Data.package")");
        QTest::newRow("environ") << QStringLiteral("{{ Environ.HOME }}/bin") << false
                                 << QStringLiteral(R"("/root/bin")");
        QTest::newRow("expression with operators") << QStringLiteral("{{ Data.port + 1 }}") << true
                                                   << QStringLiteral("8081");
        QTest::newRow("ternary") << QStringLiteral("{{ Facts.host.info.platformFamily == 'debian' ? 'apt' : 'dnf' }}")
                                 << false << QStringLiteral(R"("apt")");
        QTest::newRow("quoted closer in string")
            << QStringLiteral("{{ '}}' + Data.package }}") << false << QStringLiteral(R"("}}nginx")");
        QTest::newRow("multi-line text") << QStringLiteral("a\n{{ Data.package }}\n") << true
                                         << QStringLiteral(R"("a\nnginx\n")");
    }

    void resolve()
    {
        QFETCH(QString, text);
        QFETCH(bool, typed);
        QFETCH(QString, expected);
        const StandardScope scope(facts(), data(), environment());
        const auto result = resolveTemplate(text.toStdString(), scope, typed ? TemplateValue::Typed : TemplateValue::String);
        QVERIFY2(result.ok(), result.ok() ? "" : result.error().describe().c_str());
        QCOMPARE(q(result.value().dump()), expected);
    }

    void resolveErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("column"); // in the whole template string
        QTest::newRow("missing key") << QStringLiteral("x {{ lookup('data.pkg') }}")
                                     << QStringLiteral("missing key 'data.pkg'") << 6;
        QTest::newRow("parse error") << QStringLiteral("ab ${ (1 + 2 }") << QStringLiteral("expected ')'") << 14;
        QTest::newRow("empty expression") << QStringLiteral("a{{ }}b") << QStringLiteral("empty expression") << 0;
        QTest::newRow("second expression") << QStringLiteral("{{ 1 }}{{ nope }}")
                                           << QStringLiteral("unknown name 'nope'") << 11;
    }

    void resolveErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QFETCH(int, column);
        const StandardScope scope(facts(), data(), environment());
        const auto result = resolveTemplate(text.toStdString(), scope);
        QVERIFY(!result.ok());
        QVERIFY2(q(result.error().message).contains(message), result.error().message.c_str());
        if (column > 0)
            QCOMPARE(result.error().column, column);
        else
            QVERIFY(result.error().column > 0);
    }

    void resolveNested()
    {
        const StandardScope scope(facts(), data(), environment());
        const Json value = Json::parse(R"({"a": ["{{ Data.port }}", 1, {"b": "x{{ Data.package }}"}], "c": true})");
        const auto resolved = resolveTemplates(value, scope, TemplateValue::Typed);
        QVERIFY(resolved.ok());
        QCOMPARE(q(resolved.value().dump()), QStringLiteral(R"({"a":[8080,1,{"b":"xnginx"}],"c":true})"));

        const Json broken = Json::parse(R"({"a": ["ok", {"b~/c": "{{ nope }}"}]})");
        const auto failed = resolveTemplates(broken, scope, TemplateValue::String, "/data");
        QVERIFY(!failed.ok());
        QCOMPARE(q(failed.error().pointer), QStringLiteral("/data/a/1/b~0~1c"));
        QCOMPARE(failed.error().error.column, 4);
    }

    /// Maps are rebuilt member by member; with the ordered map's search per insert, this size took
    /// many seconds.
    void resolveLargeMap()
    {
        constexpr int kKeys = 100000;
        Json value = Json::object();
        for (int i = kKeys - 1; i >= 0; --i) {
            const std::string index = std::to_string(i);
            appendMember(value, "k" + index, i % 2 == 0 ? Json("{{ Data.port + " + index + " }}") : Json(index));
        }
        const StandardScope scope(facts(), data(), environment());
        const auto resolved = resolveTemplates(value, scope, TemplateValue::Typed);
        QVERIFY(resolved.ok());
        const Json &out = resolved.value();
        QCOMPARE(out.size(), std::size_t(kKeys));
        int expected = kKeys - 1;
        for (const auto &[key, item] : out.items()) {
            QCOMPARE(q(key), QStringLiteral("k%1").arg(expected));
            const Json want = expected % 2 == 0 ? Json(8080 + expected) : Json(std::to_string(expected));
            QCOMPARE(q(item.dump()), q(want.dump()));
            --expected;
        }
    }

    /// jet() in a Jet loop takes its steps from the budget of the rendering that called it, so
    /// nesting templates cannot multiply the work a rendering may do.
    void nestedRenderingsShareOneStepBudget()
    {
        const TemplateScope scope(facts(), data(), environment(), std::filesystem::temp_directory_path());
        // The outer range and its two passes, each with its action: five steps. Each jet() adds
        // its own range and two passes with their text: five steps. Fifteen in all.
        const std::string text = "[[ range Data.users ]][[ jet('<< range Data.users >>y<< end >>', '<<', '>>') ]]"
                                 "[[ end ]]";
        JetOptions options;
        options.maxSteps = 15;
        const auto rendered = JetTemplate::parse(text, options).value().render(scope);
        QVERIFY2(rendered.ok(), rendered.ok() ? "" : rendered.error().message.c_str());
        QCOMPARE(q(rendered.value()), QStringLiteral("yyyy"));

        // One step fewer: the second jet() runs out in its last pass, although each rendering
        // alone is well within the limit.
        options.maxSteps = 14;
        const auto stopped = JetTemplate::parse(text, options).value().render(scope);
        QVERIFY(!stopped.ok());
        QVERIFY2(stopped.error().message.find("takes more than 14 steps") != std::string::npos,
            stopped.error().message.c_str());

        // Once a rendering ends, the next one has a budget of its own.
        const auto again = JetTemplate::parse(text, options).value().render(scope);
        QVERIFY(!again.ok());
        options.maxSteps = 15;
        QVERIFY(JetTemplate::parse(text, options).value().render(scope).ok());
    }

    void fileFunctions()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir.filePath(QStringLiteral("motd.txt")), "welcome\n"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("port.templ")), "{{ Data.port }}"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("greeting.templ")), "hello {{ Facts.host.info.hostname }}"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("users.jet")), "[[ range Data.users ]][[ . ]];[[ end ]]"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("loop.templ")), "{{ template('loop.templ') }}"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));

        const TemplateScope scope(facts(), data(), environment(), dir.path().toStdString());
        const auto check = [&](const char *text, const char *expected) {
            const auto result = resolveTemplate(text, scope, TemplateValue::Typed);
            QVERIFY2(result.ok(), result.ok() ? text : result.error().describe().c_str());
            QCOMPARE(q(result.value().dump()), QString::fromUtf8(expected));
        };
        check("{{ readFile('motd.txt') }}", R"("welcome\n")");
        check("{{ file('motd.txt') }}", R"("welcome\n")");
        check(qPrintable(QStringLiteral("{{ readFile('%1/motd.txt') }}").arg(dir.path())), R"("welcome\n")");
        check("{{ template('port.templ') }}", "8080");
        check("{{ template('greeting.templ') }}", R"("hello web1")");
        check("{{ template('{{ 1 + 1 }}') }}", "2");
        check("{{ template('users.jet') }}", R"("alice;bob;")");
        check("{{ jet('users.jet') }}", R"("alice;bob;")");
        check("{{ jet('<< Data.package >>', '<<', '>>') }}", R"("nginx")");
        check("{{ jet('[[ Data.port ]]') }}", R"("8080")");

        const auto fails = [&](const char *text, const char *message) {
            const auto result = resolveTemplate(text, scope);
            QVERIFY2(!result.ok(), text);
            QVERIFY2(q(result.error().message).contains(QString::fromUtf8(message)), result.error().message.c_str());
        };
        fails("{{ readFile('missing.txt') }}", "No such file or directory");
        fails("{{ readFile('sub') }}", "it is a directory");
        fails("{{ readFile('/dev/null') }}", "not a regular file");
        fails("{{ readFile(42) }}", "expects a string");
        fails("{{ readFile() }}", "takes 1 argument");
        fails("{{ template('loop.templ') }}", "nest more than 16 levels");
        fails("{{ jet('x', '<<') }}", "takes 1 or 3 arguments");
        fails("{{ jet('[[ nope ]]') }}", "unknown name 'nope'");
        fails("{{ unknownFunction(1) }}", "unknown function 'unknownFunction'");
    }
};

CCM_TEST_GUILESS_MAIN(TestTemplateString)
#include "tst_template_string.moc"
