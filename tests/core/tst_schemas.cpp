// SPDX-License-Identifier: Apache-2.0
// The project's own schemas: they load, carry the annotations forms need, agree with the
// reference CCM v1 schema, and every example validates against both. The comparisons with the
// reference are skipped where it is absent (see referenceSchemaPath).
#include "core/model/manifest.h"
#include "core/model/schema_registry.h"
#include "core/yaml/yaml_reader.h"
#include "test_main.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <memory>

using namespace ccm;
using namespace ccm::test;

namespace {

/// The file's content; the test program ends when it cannot be read.
QByteArray readOrAbort(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

nlohmann::json yamlToPlainJson(const QByteArray &text)
{
    const YamlReadResult read = readYaml(text.toStdString());
    if (!read.document)
        return nullptr;
    return nlohmann::json::parse(read.document->root.dump());
}

QStringList exampleFiles()
{
    QStringList files;
    const QDir examples(QStringLiteral(CCM_SOURCE_DIR "/resources/examples"));
    for (const QString &name : examples.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
        files << examples.filePath(name);
    const QDir parts(examples.filePath(QStringLiteral("parts")));
    for (const QString &name : parts.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
        files << parts.filePath(name);
    return files;
}

} // namespace

class TestSchemas : public QObject
{
    Q_OBJECT

    nlohmann::json m_referenceDocument;
    valijson::Schema m_reference;
    QByteArray m_referenceMissing; // why the comparisons with the reference are skipped, if they are

    QStringList referenceErrors(const nlohmann::json &document)
    {
        valijson::Validator validator;
        valijson::ValidationResults results;
        valijson::adapters::NlohmannJsonAdapter target(document);
        QStringList errors;
        if (!validator.validate(m_reference, target, &results)) {
            valijson::ValidationResults::Error error;
            while (results.popError(error)) {
                QStringList context;
                for (const auto &c : error.context)
                    context << q(c);
                errors << context.join(QString()) + QStringLiteral(": ") + q(error.description);
            }
        }
        return errors;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString path = referenceSchemaPath("manifest.json");
        m_referenceMissing = missingReferenceSchema(path);
        if (!m_referenceMissing.isEmpty())
            return;
        m_referenceDocument = nlohmann::json::parse(readOrAbort(path).toStdString());
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::NlohmannJsonAdapter adapter(m_referenceDocument);
        parser.populateSchema(adapter, m_reference);
    }

    void schemasLoad()
    {
        const auto &errors = SchemaRegistry::instance().loadErrors();
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
    }

    void typeAnnotations_data()
    {
        QTest::addColumn<QString>("type");
        for (std::string_view type : kResourceTypes)
            QTest::newRow(std::string(type).c_str()) << q(std::string(type));
    }

    void typeAnnotations()
    {
        QFETCH(QString, type);
        const auto &registry = SchemaRegistry::instance();
        const Json &schema = registry.typeSchema(type.toStdString());
        QVERIFY(schema.is_object());
        QCOMPARE(q(schema.value("x-ccm-type", "")), type);
        for (const char *key : {"x-ccm-label", "x-ccm-summary", "x-ccm-icon", "description"})
            QVERIFY2(schema.contains(key) && schema[key].is_string() && !schema[key].get<std::string>().empty(), key);
        QVERIFY(schema["x-ccm-ensure"].is_array() && !schema["x-ccm-ensure"].empty());
        QVERIFY(schema["x-ccm-providers"].is_array() && !schema["x-ccm-providers"].empty());
        QVERIFY(schema.contains("x-ccm-ensure-default"));
        QCOMPARE(schema.value("additionalProperties", true), false);

        const auto &order = registry.propertyOrder(type.toStdString());
        QVERIFY(order.size() > 5);
        QCOMPARE(q(order[0]), QStringLiteral("name"));
        QCOMPARE(q(order[1]), QStringLiteral("ensure"));
        const Json groups = schema["x-ccm-groups"];
        for (const std::string &property : order) {
            const Json &p = registry.propertySchema(type.toStdString(), property);
            const QByteArray what = (type.toStdString() + "." + property).c_str();
            QVERIFY2(p.is_object(), what);
            QVERIFY2(!p.value("description", std::string()).empty(), what + " has no description");
            QVERIFY2(!p.value("title", std::string()).empty(), what + " has no title");
            QVERIFY2(p.contains("x-ccm-widget"), what + " has no widget hint");
            QVERIFY2(p.contains("x-ccm-group"), what + " has no group");
            QVERIFY2(std::find(groups.begin(), groups.end(), p["x-ccm-group"]) != groups.end(), what + " is in an undeclared group");
        }
    }

    /// Every property the reference knows, ours knows with the same JSON type.
    void agreesWithReference_data()
    {
        typeAnnotations_data();
    }

    void agreesWithReference()
    {
        QFETCH(QString, type);
        if (!m_referenceMissing.isEmpty())
            QSKIP(m_referenceMissing.constData());
        const auto &registry = SchemaRegistry::instance();
        const std::string key = type.toStdString() + "ResourcePropertiesWithName";
        QVERIFY(m_referenceDocument["$defs"].contains(key));
        for (const auto &[property, refSchema] : m_referenceDocument["$defs"][key]["properties"].items()) {
            const Json &ours = registry.propertySchema(type.toStdString(), property);
            QVERIFY2(ours.is_object(), qPrintable(type + QStringLiteral(" lacks ") + q(property)));
            if (refSchema.contains("type") && ours.contains("type"))
                QCOMPARE(q(ours["type"].dump()), q(refSchema["type"].dump()));
            if (refSchema.contains("enum"))
                QCOMPARE(q(ours["enum"].dump()), q(refSchema["enum"].dump()));
        }
    }

    void examplesValidate_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = exampleFiles();
        QVERIFY(files.size() >= 6);
        for (const QString &file : files)
            QTest::newRow(qPrintable(QFileInfo(file).fileName())) << file;
    }

    void examplesValidate()
    {
        QFETCH(QString, path);
        const QByteArray text = readOrAbort(path);
        const nlohmann::json document = yamlToPlainJson(text);
        QVERIFY(document.is_object());

        const YamlReadResult read = readYaml(text.toStdString());
        const auto ours = SchemaRegistry::instance().validateDocument(read.document->root);
        QStringList messages;
        for (const auto &v : ours)
            messages << q(v.pointer + ": " + v.message);
        QVERIFY2(ours.empty(), qPrintable(messages.join(QLatin1Char('\n'))));

        if (!m_referenceMissing.isEmpty())
            QSKIP(m_referenceMissing.constData());
        const QStringList reference = referenceErrors(document);
        QVERIFY2(reference.isEmpty(), qPrintable(reference.join(QLatin1Char('\n'))));
    }

    /// The same documents both schemas must refuse, so the checks above can fail.
    void invalidDocuments_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::newRow("unknown top-level key") << QByteArray("ccm: {resources: []}\nextra: 1\n");
        QTest::newRow("unknown property") << QByteArray("ccm:\n  resources:\n    - file:\n        - /x: {ensure: present, colour: red}\n");
        QTest::newRow("unknown type") << QByteArray("ccm:\n  resources:\n    - user:\n        - bob: {}\n");
        QTest::newRow("bad ensure") << QByteArray("ccm:\n  resources:\n    - service:\n        - cron: {ensure: restarted}\n");
        QTest::newRow("two types in a block") << QByteArray("ccm:\n  resources:\n    - file: []\n      exec: []\n");
        QTest::newRow("single form without name") << QByteArray("ccm:\n  resources:\n    - package: {ensure: present}\n");
        QTest::newRow("bad merge") << QByteArray("hierarchy: {merge: shallow}\n");
        QTest::newRow("bool as string") << QByteArray("ccm:\n  fail_on_error: \"yes\"\n");
    }

    void invalidDocuments()
    {
        QFETCH(QByteArray, yaml);
        const YamlReadResult read = readYaml(yaml.toStdString());
        QVERIFY(!SchemaRegistry::instance().validateDocument(read.document->root).empty());
        if (!m_referenceMissing.isEmpty())
            QSKIP(m_referenceMissing.constData());
        QVERIFY(!referenceErrors(yamlToPlainJson(yaml)).isEmpty());
    }

    /// Each keyword the schemas use, met and broken: a body is valid exactly when no violation
    /// is reported, and the first one points where it should.
    void bodyVerdicts_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("pointer"); // of the first violation; empty for a valid body
        const auto row = [](const char *name, const char *type, const char *body, const char *pointer) {
            QTest::newRow(name) << QString::fromUtf8(type) << QString::fromUtf8(body) << QString::fromUtf8(pointer);
        };
        row("plain file", "file", R"({"ensure": "present", "owner": "root", "mode": "0644"})", "");
        row("type string", "file", R"({"owner": 0})", "/owner");
        row("type boolean", "file", R"({"force": "yes"})", "/force");
        row("type integer", "exec", R"({"returns": [0, 1.5]})", "/returns/1");
        row("integer list", "exec", R"({"returns": [0, 2]})", "");
        row("enum", "file", R"({"ensure": "gone"})", "/ensure");
        row("enum is not a number", "service", R"({"ensure": 1})", "/ensure");
        row("unknown property", "package", R"({"ensure": "present", "colour": 1})", "/colour");
        row("minimum met", "file", R"({"health_checks": [{"command": "true", "tries": 1}]})", "");
        row("minimum broken", "file", R"({"health_checks": [{"command": "true", "tries": 0}]})",
            "/health_checks/0/tries");
        row("items of a reference", "service", "{\"require\": [\"package#nginx\", 3]}", "/require/1");
        row("map values", "archive", R"({"headers": {"Accept": "x", "X-Count": 2}})", "/headers/X-Count");
        row("any map values", "apply", R"({"data": {"a": [1, {"b": null}]}})", "");
        row("one key", "scaffold", R"({"post": [{"*.go": "go fmt"}]})", "");
        row("no key", "scaffold", R"({"post": [{}]})", "/post/0");
        row("two keys", "scaffold", R"({"post": [{"a": "x", "b": "y"}]})", "/post/0");
        row("oneOf number", "service",
            R"({"register_when_stable": [{"cluster": "c", "service": "s", "protocol": "http", "address": "a", "priority": 1, "port": 80}]})",
            "");
        row("oneOf string", "service",
            R"({"register_when_stable": [{"cluster": "c", "service": "s", "protocol": "http", "address": "a", "priority": 1, "port": "80"}]})",
            "");
        row("oneOf neither", "service",
            R"({"register_when_stable": [{"cluster": "c", "service": "s", "protocol": "http", "address": "a", "priority": 1, "port": 0}]})",
            "/register_when_stable/0/port");
        row("maximum", "service",
            R"({"register_when_stable": [{"cluster": "c", "service": "s", "protocol": "http", "address": "a", "port": 80, "priority": 256}]})",
            "/register_when_stable/0/priority");
        row("required", "service", R"({"register_when_stable": [{"cluster": "c"}]})", "/register_when_stable/0");
    }

    void bodyVerdicts()
    {
        QFETCH(QString, type);
        QFETCH(QString, body);
        QFETCH(QString, pointer);
        const auto violations
            = SchemaRegistry::instance().validateBody(type.toStdString(), Json::parse(body.toStdString()));
        if (pointer.isEmpty()) {
            QVERIFY2(violations.empty(),
                violations.empty() ? "" : (violations.front().pointer + " " + violations.front().message).c_str());
            return;
        }
        QVERIFY(!violations.empty());
        QCOMPARE(q(violations.front().pointer), pointer);
    }

    void readableViolations()
    {
        const Json body = Json::parse(R"({"ensure": "present", "owner": "root", "mode": 644, "force": "yes", "colour": 1})");
        const auto violations = SchemaRegistry::instance().validateBody("file", body);
        QStringList messages;
        for (const auto &v : violations)
            messages << q(v.pointer + " " + v.message);
        QVERIFY2(messages.contains(QStringLiteral("/colour unknown file property 'colour'; did you mean 'content'?"))
                     || messages.contains(QStringLiteral("/colour unknown file property 'colour'")),
                 qPrintable(messages.join(QLatin1Char('\n'))));
        QVERIFY2(messages.contains(QStringLiteral("/force 'force' must be true or false, not a string")),
                 qPrintable(messages.join(QLatin1Char('\n'))));
        QVERIFY2(messages.contains(QStringLiteral("/mode 'mode' must be a string, not an integer")),
                 qPrintable(messages.join(QLatin1Char('\n'))));
    }
};

CCM_TEST_GUILESS_MAIN(TestSchemas)
#include "tst_schemas.moc"
