// SPDX-License-Identifier: Apache-2.0
// The editor methods of a real `ccm-backend serve`: template.render, expression.evaluate and
// data.resolve, their answers checked against resources/schemas/protocol.json.
#include "daemon_harness.h"
#include "sent_messages.h"
#include "test_main.h"

#include <QTest>

#include <memory>
#include <utility>

using namespace ccm;
using namespace ccm::test;

namespace {

/// A value as compact JSON, for comparisons that show what differs.
QString js(const Json &value)
{
    return q(value.dump());
}

const std::string kTemplateManifest = "data:\n"
                                      "  port: 8080\n"
                                      "  web:\n"
                                      "    name: base\n"
                                      "hierarchy:\n"
                                      "  order:\n"
                                      "    - \"node.{{ Facts.host.info.hostname }}\"\n"
                                      "    - \"role.{{ Facts.role }}\"\n"
                                      "overrides:\n"
                                      "  role.web:\n"
                                      "    port: 80\n";

const Json kFacts = {{"role", "web"}, {"host", {{"info", {{"hostname", "web1"}}}}}};

} // namespace

class TestServeEditor : public QObject {
    Q_OBJECT

    std::unique_ptr<DaemonProcess> m_daemon;
    RpcClient m_client;

    /// What did not conform to protocol.json in the answers of the current test function.
    QStringList m_problems;

    /// Calls `method` and checks the answer against protocol.json: a response of the method, or
    /// (with `definition`) that definition. cleanup() fails the test on what did not conform.
    Json call(const std::string &method, const Json &params, const QString &definition = {})
    {
        const auto reply = m_client.call(method, params);
        if (!reply) {
            m_problems << s("no answer to ") + q(method);
            return normalized(Json::object());
        }
        const QString kind = definition.isEmpty() ? s("response.") + q(method) : definition;
        m_problems << protocolProblems(kind, asSent(*reply));
        return *reply;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_daemon = std::make_unique<DaemonProcess>();
        QVERIFY(m_client.connectTo(m_daemon->socket()));
    }

    void cleanup()
    {
        const QStringList problems = std::exchange(m_problems, {});
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void templateRenderMapsOutputLines()
    {
        QTemporaryDir &dir = m_daemon->dir();
        QVERIFY(writeFile(dir.filePath(s("motd.txt")), "welcome\n"));
        const Json reply = call("template.render",
            {{"manifest", kTemplateManifest}, {"facts", kFacts}, {"base_dir", dir.path().toStdString()},
                {"engine", "jet"},
                {"text",
                    "[[ readFile(\"motd.txt\") ]]{* a\ncomment *}\nport [[ Data.port ]]\n"
                    "[[ range n := [1, 2] ]]\nn[[ n ]]\n[[- end ]]\n"}});
        QCOMPARE(errorCode(reply), 0);
        QCOMPARE(reply["result"].value("output", ""), std::string("welcome\n\nport 80\n\nn1\nn2\n"));
        QCOMPARE(js(reply["result"]["line_map"]), js(Json::parse("[1, 2, 3, 4, 5, 5]")));
        QVERIFY(!reply["result"].contains("diagnostics"));

        const Json go = call("template.render",
            {{"manifest", kTemplateManifest}, {"facts", kFacts}, {"engine", "go"},
                {"text", "{{ .Facts.role }}\n{{- range .Data.web }}\nname={{ . }}{{ end }}\n"}});
        QCOMPARE(errorCode(go), 0);
        QCOMPARE(go["result"].value("output", ""), std::string("web\nname=base\n"));
        QCOMPARE(js(go["result"]["line_map"]), js(Json::parse("[1, 3]")));

        // A *.templ file as template() resolves it: a template string, not a Go template.
        const Json templ = call("template.render",
            {{"manifest", kTemplateManifest}, {"facts", kFacts}, {"engine", "template"},
                {"text", "role {{ Facts.role }}\nport ${ lookup('data.port') }\n"}});
        QCOMPARE(errorCode(templ), 0);
        QCOMPARE(templ["result"].value("output", ""), std::string("role web\nport 80\n"));
        QCOMPARE(js(templ["result"]["line_map"]), js(Json::parse("[1, 2]")));
    }

    void templateErrorsAreAtTheirLineAndColumn_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("jet evaluation") << s("jet") << s("a\nb\n  c [[ lookup(\"data.nope\") ]]\n") << 3 << 8
                                        << s("missing key 'data.nope'");
        QTest::newRow("jet syntax") << s("jet") << s("a\n[[ if true ]]\nb\n") << 2 << 1 << s("missing");
        QTest::newRow("go undefined function") << s("go") << s("x\n  {{ nope }}\n") << 2 << 6 << s("nope");
        QTest::newRow("template string") << s("template") << s("x\n\n  y ${ Data.port + } z\n") << 3 << 20
                                         << s("expected a value");
    }

    void templateErrorsAreAtTheirLineAndColumn()
    {
        QFETCH(QString, engine);
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const Json reply = call("template.render",
            {{"manifest", kTemplateManifest}, {"engine", engine.toStdString()}, {"text", text.toStdString()},
                {"path", "templates/site.jet"}});
        QCOMPARE(errorCode(reply), 0);
        QVERIFY(!reply["result"].contains("output"));
        const Json &diagnostics = reply["result"]["diagnostics"];
        QCOMPARE(diagnostics.size(), std::size_t(1));
        const Json &diagnostic = diagnostics[0];
        QCOMPARE(diagnostic.value("source", ""), std::string("template"));
        QCOMPARE(diagnostic.value("path", "x"), std::string());
        QCOMPARE(diagnostic.value("line", 0), line);
        QCOMPARE(diagnostic.value("column", 0), column);
        const QString shown = q(diagnostic.value("message", ""));
        QVERIFY2(shown.startsWith(s("templates/site.jet: ")) && shown.contains(message), qPrintable(shown));
    }

    void manifestDataProblemsComeWithTheOutput()
    {
        const Json reply = call("template.render",
            {{"manifest", "data:\n  a: 1\n  b: \"{{ lookup('data.x') + }}\"\n"}, {"engine", "jet"},
                {"text", "a=[[ Data.a ]]\n"}});
        QCOMPARE(errorCode(reply), 0);
        // The data that did not resolve is missing; the template still renders.
        QCOMPARE(reply["result"].value("output", ""), std::string("a=\n"));
        const Json &diagnostic = reply["result"]["diagnostics"][0];
        QCOMPARE(diagnostic.value("source", ""), std::string("manifest"));
        QCOMPARE(diagnostic.value("path", ""), std::string("/data/b"));
        QCOMPARE(diagnostic.value("line", 0), 3);
    }

    void expressionEvaluateGivesValuesAndErrors()
    {
        const Json reply = call("expression.evaluate",
            {{"manifest", kTemplateManifest}, {"facts", kFacts},
                {"items",
                    {{{"kind", "template"}, {"text", "{{ Data.port }}"}},
                        {{"kind", "template"}, {"text", "port ${ Data.port }"}},
                        {{"kind", "expression"}, {"text", "Facts.role == 'web' ? Data.web.name : 'none'"}},
                        {{"kind", "expression"}, {"text", "Data.port +"}},
                        {{"kind", "template"}, {"text", "x {{ lookup('data.none') }}"}}}}});
        QCOMPARE(errorCode(reply), 0);
        const Json &values = reply["result"]["values"];
        QCOMPARE(values.size(), std::size_t(5));
        QCOMPARE(js(values[0]), js(Json::parse(R"({"value": 80})")));
        QCOMPARE(js(values[1]), js(Json::parse(R"({"value": "port 80"})")));
        QCOMPARE(js(values[2]), js(Json::parse(R"({"value": "base"})")));
        QCOMPARE(values[3]["error"].value("column", 0), 12);
        QCOMPARE(values[4]["error"].value("message", ""), std::string("missing key 'data.none'"));
        QCOMPARE(values[4]["error"].value("column", 0), 6);
    }

    void dataResolveSaysWhereValuesCameFrom()
    {
        const Json reply = call("data.resolve", {{"manifest", kTemplateManifest}, {"facts", kFacts}});
        QCOMPARE(errorCode(reply), 0);
        const Json &result = reply["result"];
        QCOMPARE(js(result["data"]), js(Json::parse(R"({"port": 80, "web": {"name": "base"}})")));
        QCOMPARE(js(result["keys"]), js(Json::parse(R"([
            {"pointer": "/data/port", "value": 80, "layer": {"kind": "override", "entry": 1, "name": "role.web"},
             "line": 11, "column": 11},
            {"pointer": "/data/web", "value": {"name": "base"}, "layer": {"kind": "data"}, "line": 3, "column": 3},
            {"pointer": "/data/web/name", "value": "base", "layer": {"kind": "data"}, "line": 4, "column": 11}])")));
        QCOMPARE(js(result["hierarchy"]["merge"]), js(Json("first")));
        QCOMPARE(js(result["hierarchy"]["entries"][0]["resolved"]), js(Json("node.web1")));
        QCOMPARE(js(result["hierarchy"]["entries"][1]["applied"]), js(Json(true)));
        QCOMPARE(js(result["suggestions"]), js(Json::parse(R"([{"entry": 0, "name": "node.web1"}])")));

        // What If: another role matches nothing, and the base data stays.
        Json other = kFacts;
        other["role"] = "db";
        const Json whatIf = call("data.resolve", {{"manifest", kTemplateManifest}, {"facts", other}});
        QCOMPARE(js(whatIf["result"]["data"]["port"]), js(Json(8080)));
        QCOMPARE(js(whatIf["result"]["hierarchy"]["entries"][1]["override_exists"]), js(Json(false)));
        QCOMPARE(whatIf["result"]["suggestions"].size(), std::size_t(2));
    }

    void annotationFailuresAreDiagnosticsAtTheKey()
    {
        const Json reply = call("data.resolve",
            {{"manifest", "data:\n  # @validate isIPv4(value)\n  listen: \"{{ Facts.addr }}\"\n  # @requird\n  a: 1\n"},
                {"facts", {{"addr", "10.0.0.300"}}}});
        QCOMPARE(errorCode(reply), 0);
        QCOMPARE(js(reply["result"]["diagnostics"]), js(Json::parse(R"json([
            {"severity": "warning", "message": "unknown annotation '@requird'; the annotations are @require, @required and @validate",
             "path": "/data/a", "line": 4, "column": 5, "source": "manifest"},
            {"severity": "error", "message": "data value 'listen' fails @validate isIPv4(value)",
             "path": "/data/listen", "line": 3, "column": 3, "source": "manifest"}])json")));
        // The data that resolved is there all the same.
        QCOMPARE(js(reply["result"]["data"]), js(Json::parse(R"({"listen": "10.0.0.300", "a": 1})")));
    }

    void registrationsWarnsInTheTemplate()
    {
        const Json reply = call("template.render",
            {{"manifest", "data: {}\n"}, {"engine", "jet"},
                {"text", "peers:\n[[ range registrations(\"prod\", \"http\", \"web\", \"*\") ]]x[[ end ]]\n"}});
        QCOMPARE(errorCode(reply), 0);
        QCOMPARE(reply["result"].value("output", ""), std::string("peers:\n\n"));
        const Json &warning = reply["result"]["diagnostics"][0];
        QCOMPARE(warning.value("severity", ""), std::string("warning"));
        QCOMPARE(warning.value("line", 0), 2);
        QCOMPARE(warning.value("column", 0), 10);
        QCOMPARE(warning.value("source", ""), std::string("template"));
    }

    void badParamsAreRejected_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("path");
        QTest::newRow("no manifest") << s("data.resolve") << s("{}") << s("manifest");
        QTest::newRow("manifest not a string") << s("data.resolve") << s(R"({"manifest": 1})") << s("manifest");
        QTest::newRow("relative base_dir")
            << s("data.resolve") << s(R"({"manifest": "", "base_dir": "x"})") << s("base_dir");
        QTest::newRow("facts not a map") << s("expression.evaluate")
                                         << s(R"({"manifest": "", "facts": [], "items": []})") << s("facts");
        QTest::newRow("no text") << s("template.render") << s(R"({"manifest": "", "engine": "jet"})") << s("text");
        QTest::newRow("unknown engine") << s("template.render") << s(R"({"manifest": "", "engine": "erb", "text": ""})")
                                        << s("engine");
        QTest::newRow("path not a string")
            << s("template.render") << s(R"({"manifest": "", "engine": "go", "text": "", "path": 3})") << s("path");
        QTest::newRow("no items") << s("expression.evaluate") << s(R"({"manifest": ""})") << s("items");
        QTest::newRow("items not a list")
            << s("expression.evaluate") << s(R"({"manifest": "", "items": {}})") << s("items");
        QTest::newRow("unknown kind") << s("expression.evaluate")
                                      << s(R"({"manifest": "", "items": [{"kind": "expression", "text": "1"},
                                              {"kind": "eval", "text": "1"}]})")
                                      << s("items/1/kind");
        QTest::newRow("text not a string")
            << s("expression.evaluate") << s(R"({"manifest": "", "items": [{"kind": "template", "text": null}]})")
            << s("items/0/text");
    }

    void badParamsAreRejected()
    {
        QFETCH(QString, method);
        QFETCH(QString, params);
        QFETCH(QString, path);
        const Json reply = call(method.toStdString(), Json::parse(params.toStdString()), s("error.invalid_params"));
        QCOMPARE(errorCode(reply), -32602);
        QCOMPARE(q(reply["error"]["data"].value("path", "")), path);
    }

    void tooManyItemsAreRejected()
    {
        const Json items(std::vector<Json>(1001, Json {{"kind", "expression"}, {"text", "1"}}));
        const Json reply = call("expression.evaluate", {{"manifest", ""}, {"items", items}}, s("error.invalid_params"));
        QCOMPARE(errorCode(reply), -32602);
        QCOMPARE(reply["error"]["data"].value("path", ""), std::string("items"));
    }

    void cleanupTestCase()
    {
        m_client.disconnect();
        QCOMPARE(m_daemon->terminate(), 0);
    }
};

CCM_TEST_GUILESS_MAIN(TestServeEditor)
#include "tst_serve_editor.moc"
