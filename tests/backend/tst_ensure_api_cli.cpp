// SPDX-License-Identifier: Apache-2.0
// `ccm-backend ensure api pipe` as a real process fed requests on standard input: JSON and YAML
// requests for files and execs in temporary directories, noop, and every kind of bad request, each
// answered by one response that is valid under this project's ensure_response.json and, where the
// reference is present (see referenceSchemaPath), under upstream's resource_ensure_response.json.
// The project's request and response schemas accept and reject what upstream's do, bar the
// differences docs/cli.md lists, which are tested as such.
#include "backend_process.h"
#include "core/model/ensure_request.h"
#include "core/model/schema_registry.h"
#include "core/yaml/yaml_reader.h"
#include "protocol_schema.h"
#include "test_main.h"

#include <QFile>
#include <QProcess>
#include <QTest>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <memory>


/// Skips the rest of the test function (the comparison with upstream's schemas) when the reference
/// is missing. A macro, as QSKIP returns from the function it stands in.
#define SKIP_WITHOUT_REFERENCE()                                                                                      \
    do {                                                                                                              \
        if (!m_referenceMissing.isEmpty())                                                                            \
            QSKIP(m_referenceMissing.constData());                                                                    \
    } while (false)

using namespace ccm;
using namespace ccm::test;

namespace ensure_api_test {

constexpr const char *kRequestProtocol = "io.choria.ccm.v1.resource.ensure.request";

/// Upstream's CCM v1 JSON Schema NAME in the team's shared directory (CCM_SHARED_DIR).
QString upstreamSchemaFile(const char *name)
{
    return s(CCM_SHARED_DIR "/reference/ccm-v1/") + QLatin1String(name);
}

/// Empty when the reference schema at path exists; otherwise why the comparison with it is skipped.
QByteArray missingUpstreamSchema(const QString &path)
{
    if (QFile::exists(path))
        return {};
    return s("upstream's reference schema %1 is missing; to compare with it, configure with "
             "-DCCM_SHARED_DIR=DIR where DIR has reference/ccm-v1/")
        .arg(path)
        .toUtf8();
}

/// A schema compiled by valijson; references to other files are read from the project's embedded
/// schemas.
std::unique_ptr<valijson::Schema> compileWithEmbedded(const nlohmann::json &document)
{
    const auto fetch = [](const std::string &uri) -> const nlohmann::json * {
        const Json &found = SchemaRegistry::instance().document(uri);
        return found.is_null() ? nullptr : new nlohmann::json(nlohmann::json::parse(found.dump()));
    };
    const auto release = [](const nlohmann::json *fetched) { delete fetched; };
    auto schema = std::make_unique<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(document);
    parser.populateSchema(adapter, *schema, fetch, release);
    return schema;
}

std::unique_ptr<valijson::Schema> embeddedSchema(const char *name)
{
    const Json &document = SchemaRegistry::instance().document(name);
    if (document.is_null())
        qFatal("schema %s is not embedded", name);
    return compileWithEmbedded(nlohmann::json::parse(document.dump()));
}

/// The problems valijson finds with value; empty when it conforms.
QStringList problemsOf(const valijson::Schema &schema, const Json &value)
{
    return schemaProblems(schema, nlohmann::json::parse(value.dump()));
}

nlohmann::json readJsonFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return nlohmann::json::parse(file.readAll().toStdString());
}

/// Upstream's request schema with its `properties` checked against the definition of the
/// request's type. As published, `properties` must match exactly one of the six definitions
/// (oneOf) whatever the type, and the package, service and exec ones all accept a plain
/// {"name": "x"}, so the published schema refuses every ordinary request.
nlohmann::json upstreamRequestByType(nlohmann::json schema)
{
    schema["properties"]["properties"] = {{"type", "object"}};
    nlohmann::json byType = nlohmann::json::array();
    for (const char *type : {"package", "service", "file", "exec", "archive", "scaffold"}) {
        byType.push_back({{"if", {{"required", {"type"}}, {"properties", {{"type", {{"const", type}}}}}}},
            {"then", {{"properties", {{"properties", {{"$ref", std::string("#/$defs/") + type + "Properties"}}}}}}}});
    }
    schema["allOf"] = byType;
    return schema;
}

Json request(const char *type, const char *properties)
{
    return Json {{"protocol", kRequestProtocol}, {"type", type}, {"properties", Json::parse(properties)}};
}

} // namespace ensure_api_test

using namespace ensure_api_test;

class TestEnsureApiCli : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<valijson::Schema> m_ourRequest;
    std::unique_ptr<valijson::Schema> m_ourResponse;
    std::unique_ptr<valijson::Schema> m_upstreamRequest; ///< as published
    std::unique_ptr<valijson::Schema> m_upstreamRequestByType;
    std::unique_ptr<valijson::Schema> m_upstreamResponse;
    QByteArray m_referenceMissing; // why the comparisons with the reference are skipped, if they are

    QString path(const char *name) const { return m_dir->filePath(s(name)); }

    /// Runs `ensure api pipe OPTIONS` in the test's directory with `input` on standard input.
    BackendRun pipe(const QByteArray &input, const QStringList &options = {})
    {
        return runBackendWithInput(QStringList {s("ensure"), s("api"), s("pipe")} + options, input, m_dir->path(),
            isolatedEnvironment(*m_dir));
    }

    /// Replaces DIR, USER and GROUP in a request's text.
    QByteArray text(const char *body) const
    {
        QString content = s(body);
        content.replace(s("DIR"), m_dir->path());
        content.replace(s("USER"), currentUserName());
        content.replace(s("GROUP"), currentGroupName());
        return content.toUtf8();
    }

    /// The response of a run, checked: exit status 0, one JSON document (YAML with `yaml`) ending
    /// in a newline, valid under our response schema and, when present, upstream's.
    Json response(const BackendRun &run, bool yaml = false)
    {
        [&] {
            QVERIFY2(run.exitCode == 0, qPrintable(QString::number(run.exitCode) + run.out + run.err));
            QVERIFY2(run.out.endsWith(QLatin1Char('\n')), qPrintable(run.out));
        }();
        if (QTest::currentTestFailed())
            return nullptr;
        Json parsed;
        if (yaml) {
            YamlReadResult read = readYaml(run.out.toStdString());
            if (read.document)
                parsed = read.document->root;
        } else {
            parsed = Json::parse(run.out.toStdString(), nullptr, false);
        }
        [&] {
            QVERIFY2(parsed.is_object(), qPrintable(run.out + run.err));
            const QStringList ours = problemsOf(*m_ourResponse, parsed);
            QVERIFY2(ours.isEmpty(), qPrintable(ours.join(QLatin1Char('\n')) + run.out));
            if (m_upstreamResponse) {
                const QStringList upstream = problemsOf(*m_upstreamResponse, parsed);
                QVERIFY2(upstream.isEmpty(), qPrintable(upstream.join(QLatin1Char('\n')) + run.out));
            }
        }();
        return parsed;
    }


private slots:
    void initTestCase()
    {
        m_ourRequest = embeddedSchema("ensure_request.json");
        m_ourResponse = embeddedSchema("ensure_response.json");
        const QString requestPath = upstreamSchemaFile("resource_ensure_request.json");
        const QString responsePath = upstreamSchemaFile("resource_ensure_response.json");
        m_referenceMissing = missingUpstreamSchema(requestPath) + missingUpstreamSchema(responsePath);
        if (!m_referenceMissing.isEmpty())
            return;
        const nlohmann::json upstreamRequest = readJsonFile(requestPath);
        m_upstreamRequest = compileWithEmbedded(upstreamRequest);
        m_upstreamRequestByType = compileWithEmbedded(upstreamRequestByType(upstreamRequest));
        m_upstreamResponse = compileWithEmbedded(readJsonFile(responsePath));
    }

    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void jsonRequestEnsuresAFile()
    {
        const QByteArray body = text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"name": "DIR/motd", "ensure": "present", "content": "hello\n",
                           "owner": "USER", "group": "GROUP", "mode": "0640"}})");
        const Json first = response(pipe(body));
        QCOMPARE(q(first.value("protocol", "")), s("io.choria.ccm.v1.resource.ensure.response"));
        QVERIFY2(!first.contains("error"), qPrintable(q(first.dump())));
        const Json &state = first["state"];
        QCOMPARE(q(state["type"].get<std::string>()), s("file"));
        QCOMPARE(q(state["name"].get<std::string>()), path("motd"));
        QVERIFY(state["changed"].get<bool>());
        QVERIFY(!state["failed"].get<bool>());
        QVERIFY(!state["noop"].get<bool>());
        QCOMPARE(readAll(path("motd")), QByteArray("hello\n"));
        QCOMPARE(QFile::permissions(path("motd")) & 0x0fff, QFile::ReadUser | QFile::WriteUser | QFile::ReadGroup);
        // This project's keys stay out, the content diff among them.
        for (const char *key : {"diff", "resource", "refreshed_by"})
            QVERIFY2(!state.contains(key), key);

        const Json second = response(pipe(body));
        QVERIFY(!second["state"]["changed"].get<bool>());
        QVERIFY(!second["state"]["failed"].get<bool>());
        SKIP_WITHOUT_REFERENCE();
    }

    void yamlRequestRunsAnExecWithYamlResponse()
    {
        const QByteArray body = text(R"(protocol: io.choria.ccm.v1.resource.ensure.request
type: exec
properties:
  name: record
  command: /bin/sh -c 'echo ran >> DIR/ran'
  creates: DIR/ran
  timeout: 30s
)");
        const Json first = response(pipe(body, {s("--yaml")}), true);
        QVERIFY2(first["state"]["changed"].get<bool>(), qPrintable(q(first.dump())));
        QCOMPARE(readAll(path("ran")), QByteArray("ran\n"));
        // creates is there now: the exec does not run again.
        const Json second = response(pipe(body, {s("--yaml")}), true);
        QVERIFY(!second["state"]["changed"].get<bool>());
        QCOMPARE(readAll(path("ran")), QByteArray("ran\n"));
        SKIP_WITHOUT_REFERENCE();
    }

    void manifestStyleListWithDefaults()
    {
        const QByteArray body = text(R"(protocol: io.choria.ccm.v1.resource.ensure.request
type: file
properties:
  - defaults: {owner: USER, group: GROUP, mode: "0600"}
  - DIR/listed: {ensure: present, content: "x"}
)");
        const Json answer = response(pipe(body));
        QVERIFY2(answer.contains("state"), qPrintable(q(answer.dump())));
        QCOMPARE(q(answer["state"]["name"].get<std::string>()), path("listed"));
        QCOMPARE(q(answer["state"]["properties"].value("mode", "")), s("0600"));
        QCOMPARE(readAll(path("listed")), QByteArray("x"));
        SKIP_WITHOUT_REFERENCE();
    }

    void noopChangesNothing()
    {
        const QByteArray body = text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "exec",
            "properties": {"name": "/bin/sh -c 'echo ran >> DIR/ran'"}})");
        const Json answer = response(pipe(body, {s("--noop")}));
        QVERIFY(answer["state"]["noop"].get<bool>());
        QVERIFY(answer["state"]["changed"].get<bool>());
        QVERIFY(!QFile::exists(path("ran")));
        SKIP_WITHOUT_REFERENCE();
    }

    void factsAndDataReachTemplates()
    {
        writeFile(*m_dir, s("facts.json"), R"({"room": "kitchen"})");
        writeFile(*m_dir, s("data.yaml"), "greeting: hello\n");
        const QByteArray body = text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"name": "DIR/greeting", "ensure": "present",
                           "content": "{{ lookup('data.greeting') }} {{ lookup('facts.room') }}",
                           "owner": "USER", "group": "GROUP", "mode": "0644"}})");
        const Json answer = response(pipe(body, {s("--facts"), path("facts.json"), s("--data"), path("data.yaml")}));
        QVERIFY2(answer.contains("state"), qPrintable(q(answer.dump())));
        QCOMPARE(readAll(path("greeting")), QByteArray("hello kitchen"));
        SKIP_WITHOUT_REFERENCE();
    }

    void badRequestsGetAnErrorResponse_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("expected");
        const auto row = [this](const char *name, const char *input, const char *expected) {
            QTest::newRow(name) << text(input) << QString::fromUtf8(text(expected));
        };
        row("empty", "  \n", "the request is empty");
        // Not a raw string: moc counts the braces inside one.
        row("not JSON", "{\"protocol\": \"io.choria.ccm.v1.resource.ensure.request\", \"type\": ",
            "the request is not valid JSON: parse error at line 1");
        row("not YAML", "protocol: [a\ntype: file\n", "the request is not valid YAML at line");
        row("a list", R"([{"protocol": "io.choria.ccm.v1.resource.ensure.request"}])",
            "the request must be a map with protocol, type and properties, not a list");
        row("no protocol", R"({"type": "file", "properties": {"name": "DIR/x"}})", "missing protocol in request");
        row("wrong protocol",
            R"({"protocol": "io.choria.ccm.v1.resource.ensure.response", "type": "file", "properties": {}})",
            "invalid protocol \"io.choria.ccm.v1.resource.ensure.response\"; expected");
        row("unknown key", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"name": "DIR/x"}, "noop": true})",
            "unknown request key \"noop\"");
        row("no type", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "properties": {"name": "x"}})",
            "missing type in request");
        row("unknown type", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "fille",
            "properties": {"name": "DIR/x"}})",
            "unknown resource type \"fille\"; expected one of package, service, file, exec, archive, scaffold "
            "(did you mean \"file\"?)");
        row("no properties", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file"})",
            "missing properties in request");
        row("no name", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"ensure": "absent"}})",
            "/properties/name: missing name in properties");
        row("invalid mode", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"name": "DIR/x", "ensure": "present", "content": "", "owner": "USER",
                           "group": "GROUP", "mode": "0964"}})",
            "invalid properties: /properties/mode: file#DIR/x: mode '0964' is not octal");
        row("unknown property", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"name": "DIR/x", "ensure": "absent", "colour": "red"}})",
            "invalid properties: /properties/colour: file#DIR/x: unknown file property 'colour'");
        row("wrong kind", R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "exec",
            "properties": {"name": "/bin/true", "returns": "0"}})",
            "invalid properties: /properties/returns: ");
        row("two resources", R"(protocol: io.choria.ccm.v1.resource.ensure.request
type: file
properties:
  - DIR/a: {ensure: absent}
  - DIR/x: {ensure: absent}
)",
            "multiple resources found in properties (2); a request ensures exactly one");
        row("only defaults", R"(protocol: io.choria.ccm.v1.resource.ensure.request
type: file
properties:
  - defaults: {ensure: absent}
)",
            "no resources found in properties");
    }

    void badRequestsGetAnErrorResponse()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, expected);
        const Json answer = response(pipe(input));
        QVERIFY2(!answer.contains("state"), qPrintable(q(answer.dump())));
        const QString error = q(answer.value("error", ""));
        QVERIFY2(
            error.startsWith(expected) || (expected.startsWith(s("invalid properties")) && error.contains(expected)),
            qPrintable(error));
        QVERIFY(!QFile::exists(path("x")));
        QVERIFY(!QFile::exists(path("a")));
        SKIP_WITHOUT_REFERENCE();
    }

    void failingTemplateAppliesNothing()
    {
        const QByteArray body = text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"name": "DIR/x", "ensure": "present", "content": "fixed",
                           "owner": "{{ lookup('facts.no.such.fact', ) }}", "group": "GROUP", "mode": "0644"}})");
        const Json answer = response(pipe(body));
        QVERIFY2(!answer.value("error", "").empty(), qPrintable(q(answer.dump())));
        QVERIFY(!QFile::exists(path("x")));
        SKIP_WITHOUT_REFERENCE();
    }

    /// A resource that fails is a state with failed set, not an error, and the exit status stays 0.
    void failedResourceIsAState()
    {
        const QByteArray body = text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "exec",
            "properties": {"name": "/bin/sh -c 'exit 3'"}})");
        const Json answer = response(pipe(body));
        QVERIFY2(answer.contains("state"), qPrintable(q(answer.dump())));
        QVERIFY(answer["state"]["failed"].get<bool>());
        QVERIFY(!answer["state"]["error"].empty());
        SKIP_WITHOUT_REFERENCE();
    }

    /// With --session, a request's require refers to what earlier requests of the session ensured.
    void sessionCarriesRequirements()
    {
        QDir(m_dir->path()).mkdir(s("session"));
        const QStringList session {s("--session"), path("session")};
        const Json failed = response(pipe(text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request",
            "type": "exec", "properties": {"name": "/bin/false"}})"),
            session));
        QVERIFY2(failed["state"]["failed"].get<bool>(), qPrintable(q(failed.dump())));
        const QByteArray dependent = text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "exec",
            "properties": {"name": "/bin/sh -c 'echo ran >> DIR/ran'", "require": ["exec:/bin/false"]}})")
                                         .replace("exec:/bin/false", "exec#/bin/false");
        const Json skipped = response(pipe(dependent, session));
        QVERIFY2(skipped["state"]["skipped"].get<bool>(), qPrintable(q(skipped.dump())));
        QCOMPARE(q(skipped["state"]["unmet_requirements"].dump()), s("[\"exec#/bin/false\"]"));
        QVERIFY(!QFile::exists(path("ran")));
        SKIP_WITHOUT_REFERENCE();
    }

    /// Bytes that are not UTF-8 are refused, and the error response is still valid JSON and YAML.
    void invalidUtf8IsRefused_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<bool>("yaml");
        const QByteArray json("{\"protocol\": \"io.choria.ccm.v1.resource.ensure.request\", \"type\": \"f\xff\"}");
        const QByteArray yaml("protocol: io.choria.ccm.v1.resource.ensure.request\ntype: f\xff\xfe\n");
        QTest::newRow("JSON") << json << false;
        QTest::newRow("JSON, YAML response") << json << true;
        QTest::newRow("YAML") << yaml << false;
        QTest::newRow("YAML, YAML response") << yaml << true;
    }

    void invalidUtf8IsRefused()
    {
        QFETCH(QByteArray, input);
        QFETCH(bool, yaml);
        const Json answer = response(pipe(input, yaml ? QStringList {s("--yaml")} : QStringList {}), yaml);
        QVERIFY2(q(answer.value("error", "")).startsWith(s("the request is not valid ")), qPrintable(q(answer.dump())));
        SKIP_WITHOUT_REFERENCE();
    }

    void oversizedRequestIsRefused()
    {
        QByteArray body(static_cast<qsizetype>(kMaxEnsureRequestBytes) + 1, ' ');
        body.prepend(text(R"({"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
            "properties": {"name": "DIR/x", "ensure": "absent"}})"));
        const Json answer = response(pipe(body));
        QVERIFY2(q(answer.value("error", "")).contains(s("more than the limit of 4194304 bytes")),
            qPrintable(q(answer.dump())));
        SKIP_WITHOUT_REFERENCE();
    }

    void wrongCommandLineIsAUsageError()
    {
        const BackendRun run = pipe(text("{}"), {s("--bogus")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(s("unknown argument '--bogus'")), qPrintable(run.err));
        const BackendRun missing = pipe(text("{}"), {s("--facts")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(s("--facts needs a value")), qPrintable(missing.err));
        const BackendRun help = pipe({}, {s("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.startsWith(s("Usage: ccm-backend ensure api pipe")));
    }

    /// Requests both upstream's schema (each type's properties checked against its definition)
    /// and ours accept or both reject.
    void requestSchemasAgree_data()
    {
        QTest::addColumn<QByteArray>("document");
        QTest::addColumn<bool>("valid");
        const auto row = [&](const char *name, const Json &document, bool valid) {
            QTest::newRow(name) << QByteArray::fromStdString(document.dump()) << valid;
        };
        row("package", request("package", R"({"name": "nginx", "ensure": "1.24.0-1"})"), true);
        // Not raw strings where a # or // appears: moc misreads them inside one.
        row("service",
            request("service",
                "{\"name\": \"nginx\", \"ensure\": \"running\", \"enable\": true, "
                "\"subscribe\": [\"file#/etc/nginx.conf\"]}"),
            true);
        row("file", request("file", R"({"name": "/etc/motd", "ensure": "present", "content": "hi",
            "owner": "root", "group": "root", "mode": "0644"})"),
            true);
        row("exec", request("exec", R"({"name": "/bin/true", "returns": [0, 2], "timeout": "10s",
            "environment": ["A=b"], "refreshonly": true, "logoutput": true, "cwd": "/tmp"})"),
            true);
        row("archive",
            request("archive",
                "{\"name\": \"/tmp/a.tgz\", \"url\": \"https:/"
                "/example.com/a.tgz\", "
                "\"owner\": \"root\", \"group\": \"root\", \"extract_parent\": \"/tmp\", \"creates\": \"/tmp/a\", "
                "\"cleanup\": true}"),
            true);
        row("scaffold", request("scaffold", R"({"name": "/tmp/s", "source": "/tmp/t", "engine": "jet",
            "post": [{"*.go": "gofmt -w"}]})"),
            true);
        row("common",
            request("package",
                "{\"name\": \"vim\", \"alias\": \"editor\", \"provider\": \"apt\", "
                "\"require\": [\"file#/etc/apt/sources.list\"], \"control\": {\"if\": \"true\"}, "
                "\"health_checks\": [{\"command\": \"/bin/true\", \"tries\": 2, \"try_sleep\": \"1s\"}]}"),
            true);
        row("wrong protocol", Json {{"protocol", "ccm"}, {"type", "package"}, {"properties", {{"name", "x"}}}}, false);
        row("no type", Json {{"protocol", kRequestProtocol}, {"properties", {{"name", "x"}}}}, false);
        row("apply", request("apply", R"({"name": "/tmp/m.yaml"})"), false);
        row("unknown type", request("user", R"({"name": "x"})"), false);
        row("no properties", Json {{"protocol", kRequestProtocol}, {"type", "package"}}, false);
        Json extra = request("package", R"({"name": "x"})");
        extra["noop"] = true;
        row("extra key", extra, false);
        row("properties a string", Json {{"protocol", kRequestProtocol}, {"type", "package"}, {"properties", "x"}},
            false);
        row("no name", request("package", R"({"ensure": "present"})"), false);
        row("name a number", request("package", R"({"name": 3})"), false);
        row("service ensure", request("service", R"({"name": "x", "ensure": "sleeping"})"), false);
        row("file ensure", request("file", R"({"name": "/x", "ensure": "running", "owner": "r", "group": "r",
            "mode": "0644"})"),
            false);
        row("returns strings", request("exec", R"({"name": "/bin/true", "returns": ["0"]})"), false);
        row("enable a string", request("service", R"({"name": "x", "enable": "yes"})"), false);
        row("check command a number", request("package", R"({"name": "x", "health_checks": [{"command": 3}]})"), false);
        row("control extra key", request("package", R"({"name": "x", "control": {"when": "true"}})"), false);
        row("archive url a number",
            request("archive", R"({"name": "/tmp/a.tgz", "url": 3, "owner": "r", "group": "r"})"), false);
    }

    void requestSchemasAgree()
    {
        QFETCH(QByteArray, document);
        QFETCH(bool, valid);
        const Json value = Json::parse(document.toStdString());
        const QStringList ours = problemsOf(*m_ourRequest, value);
        QVERIFY2(ours.isEmpty() == valid, qPrintable(ours.join(QLatin1Char('\n'))));
        SKIP_WITHOUT_REFERENCE();
        const QStringList upstream = problemsOf(*m_upstreamRequestByType, value);
        QVERIFY2(upstream.isEmpty() == valid, qPrintable(upstream.join(QLatin1Char('\n'))));
    }

    /// Where the schemas differ, on purpose (docs/cli.md, differences from upstream).
    void requestSchemaDifferences()
    {
        const Json plain = request("package", R"({"name": "nginx"})");
        QVERIFY(problemsOf(*m_ourRequest, plain).isEmpty());
        // A list of one resource with defaults, as upstream's program (not its schema) reads it.
        const Json list = request("file", R"([{"defaults": {"owner": "root"}}, {"/tmp/x": {"ensure": "absent"}}])");
        QVERIFY(problemsOf(*m_ourRequest, list).isEmpty());
        // A property the type does not have is refused, as in a manifest.
        QVERIFY(!problemsOf(*m_ourRequest, request("package", R"({"name": "x", "colour": "red"})")).isEmpty());
        // Removing a file needs no owner, group and mode.
        const Json absent = request("file", R"({"name": "/tmp/x", "ensure": "absent"})");
        QVERIFY(problemsOf(*m_ourRequest, absent).isEmpty());
        SKIP_WITHOUT_REFERENCE();
        QVERIFY2(!problemsOf(*m_upstreamRequest, plain).isEmpty(), "upstream's published schema takes a plain request");
        QVERIFY(!problemsOf(*m_upstreamRequestByType, list).isEmpty());
        QVERIFY(
            problemsOf(*m_upstreamRequestByType, request("package", R"({"name": "x", "colour": "red"})")).isEmpty());
        QVERIFY(!problemsOf(*m_upstreamRequestByType, absent).isEmpty());
    }

    void responseSchemasAgree_data()
    {
        QTest::addColumn<QByteArray>("document");
        QTest::addColumn<bool>("valid");
        TransactionEvent event;
        event.eventId = newEventId();
        event.timestamp = std::chrono::system_clock::now();
        event.type = "file";
        event.provider = "posix";
        event.name = "/etc/motd";
        event.alias = "motd";
        event.requestedEnsure = "present";
        event.finalEnsure = "present";
        event.properties = Json {{"ensure", "present"}};
        event.noopMessage = "would change";
        event.healthChecks = {{HealthCheckResult::Status::Warning, 2, "WARNING: slow"}};
        event.errors = {"health check"};
        event.failed = true;
        event.noop = true;
        event.diff = "-a\n+b\n";
        event.refreshedBy = {"file#/x"};
        event.unmetRequirements = {"package#x"};
        const Json state = ensureStateResponse(event);
        const auto row = [&](const char *name, const Json &document, bool valid) {
            QTest::newRow(name) << QByteArray::fromStdString(document.dump()) << valid;
        };
        row("state", state, true);
        row("error", ensureErrorResponse("missing type in request"), true);
        Json both = state;
        both["error"] = "x";
        row("state and error", both, false);
        row("neither", Json {{"protocol", kEnsureResponseProtocol}}, false);
        Json diff = state;
        diff["state"]["diff"] = "-a\n+b\n";
        row("event with diff", diff, false);
        Json resource = state;
        resource["state"]["resource"] = "file#/etc/motd";
        row("event with resource", resource, false);
        Json extra = state;
        extra["noop"] = true;
        row("extra key", extra, false);
        Json protocol = state;
        protocol["protocol"] = kEnsureRequestProtocol;
        row("request protocol", protocol, false);
        row("error not a string", Json {{"protocol", kEnsureResponseProtocol}, {"error", 1}}, false);
        Json noId = state;
        noId["state"].erase("event_id");
        row("event without id", noId, false);
        Json badCheck = state;
        badCheck["state"]["health_check"][0]["status"] = "fine";
        row("check status", badCheck, false);
    }

    void responseSchemasAgree()
    {
        QFETCH(QByteArray, document);
        QFETCH(bool, valid);
        const Json value = Json::parse(document.toStdString());
        const QStringList ours = problemsOf(*m_ourResponse, value);
        QVERIFY2(ours.isEmpty() == valid, qPrintable(ours.join(QLatin1Char('\n'))));
        SKIP_WITHOUT_REFERENCE();
        const QStringList upstream = problemsOf(*m_upstreamResponse, value);
        QVERIFY2(upstream.isEmpty() == valid, qPrintable(upstream.join(QLatin1Char('\n'))));
    }

    /// A scaffold's event: upstream's request schema and program take scaffolds, its response
    /// schema leaves the type out.
    void scaffoldResponseDifference()
    {
        TransactionEvent event;
        event.eventId = newEventId();
        event.timestamp = std::chrono::system_clock::now();
        event.type = "scaffold";
        event.name = "/tmp/s";
        const Json state = ensureStateResponse(event);
        QVERIFY(problemsOf(*m_ourResponse, state).isEmpty());
        SKIP_WITHOUT_REFERENCE();
        QVERIFY(!problemsOf(*m_upstreamResponse, state).isEmpty());
    }
};

CCM_TEST_GUILESS_MAIN(TestEnsureApiCli)
#include "tst_ensure_api_cli.moc"
