// SPDX-License-Identifier: Apache-2.0
#include "core/model/schema_registry.h"
#include "designer/core/form_description.h"
#include "test_main.h"

#include <QTest>

#include <set>

using ccm::Json;
using ccm::designer::FieldDescription;
using ccm::designer::FieldKind;
using ccm::designer::formDescription;

Q_DECLARE_METATYPE(FieldKind)

class TstFormDescription : public QObject {
    Q_OBJECT

private slots:
    void everyPropertyAppearsOnce_data();
    void everyPropertyAppearsOnce();
    void groupsFollowTheSchema_data();
    void groupsFollowTheSchema();
    void kinds_data();
    void kinds();
    void hints();
    void nestedHealthChecks();
    void controlExpressions();
    void requiredUnlessEnsure();
    void fileFieldsFollowEnsure_data();
    void fileFieldsFollowEnsure();
    void archiveFieldsFollowEnsure();
    void conditionsOfAnySchema();
    void unknownType();
    void fieldsWithinAGroupAreOrdered();
};

static void addTypes()
{
    QTest::addColumn<QString>("type");
    for (const char *type : {"package", "service", "file", "exec", "archive", "scaffold", "apply"})
        QTest::newRow(type) << QString::fromLatin1(type);
}

void TstFormDescription::everyPropertyAppearsOnce_data()
{
    addTypes();
}

void TstFormDescription::everyPropertyAppearsOnce()
{
    QFETCH(QString, type);
    const std::string name = type.toStdString();
    const auto &form = formDescription(name);
    QVERIFY(!form.empty());
    std::multiset<std::string> seen;
    for (const auto &group : form.groups) {
        QVERIFY(!group.title.empty());
        QVERIFY(!group.fields.empty());
        for (const FieldDescription &field : group.fields) {
            seen.insert(field.property);
            QVERIFY2(!field.label.empty(), field.property.c_str());
            QVERIFY2(!field.description.empty(), field.property.c_str());
        }
    }
    const auto &order = ccm::SchemaRegistry::instance().propertyOrder(name);
    QCOMPARE(seen.size(), order.size());
    for (const std::string &property : order)
        QVERIFY2(seen.count(property) == 1, property.c_str());
    QVERIFY(form.field("name"));
    QVERIFY(form.field("name")->required);
    QCOMPARE(form.groups.front().fields.front().property, std::string("name"));
}

void TstFormDescription::groupsFollowTheSchema_data()
{
    addTypes();
}

void TstFormDescription::groupsFollowTheSchema()
{
    QFETCH(QString, type);
    const std::string name = type.toStdString();
    const Json &schema = ccm::SchemaRegistry::instance().typeSchema(name);
    std::vector<std::string> expected;
    for (const Json &title : schema["x-ccm-groups"])
        expected.push_back(title.get<std::string>());
    std::vector<std::string> titles;
    for (const auto &group : formDescription(name).groups)
        titles.push_back(group.title);
    QCOMPARE(titles, expected);
}

void TstFormDescription::kinds_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("property");
    QTest::addColumn<FieldKind>("kind");
    QTest::newRow("package name") << "package"
                                  << "name" << FieldKind::String;
    QTest::newRow("package ensure") << "package"
                                    << "ensure" << FieldKind::Enum;
    QTest::newRow("service enable") << "service"
                                    << "enable" << FieldKind::Boolean;
    QTest::newRow("file name") << "file"
                               << "name" << FieldKind::Path;
    QTest::newRow("file mode") << "file"
                               << "mode" << FieldKind::Mode;
    QTest::newRow("file content") << "file"
                                  << "content" << FieldKind::Text;
    QTest::newRow("exec timeout") << "exec"
                                  << "timeout" << FieldKind::Duration;
    QTest::newRow("exec environment") << "exec"
                                      << "environment" << FieldKind::StringList;
    QTest::newRow("exec returns") << "exec"
                                  << "returns" << FieldKind::IntegerList;
    QTest::newRow("exec subscribe") << "exec"
                                    << "subscribe" << FieldKind::References;
    QTest::newRow("archive url") << "archive"
                                 << "url" << FieldKind::String;
    QTest::newRow("archive password") << "archive"
                                      << "password" << FieldKind::String;
    QTest::newRow("archive headers") << "archive"
                                     << "headers" << FieldKind::KeyValueMap;
    QTest::newRow("scaffold engine") << "scaffold"
                                     << "engine" << FieldKind::Enum;
    QTest::newRow("scaffold post") << "scaffold"
                                   << "post" << FieldKind::KeyValueList;
    QTest::newRow("apply data") << "apply"
                                << "data" << FieldKind::KeyValueMap;
    QTest::newRow("apply control") << "apply"
                                   << "control" << FieldKind::Expression;
    QTest::newRow("service health_checks") << "service"
                                           << "health_checks" << FieldKind::NestedList;
    QTest::newRow("service register_when_stable") << "service"
                                                  << "register_when_stable" << FieldKind::NestedList;
    QTest::newRow("apply require") << "apply"
                                   << "require" << FieldKind::References;
    QTest::newRow("apply provider") << "apply"
                                    << "provider" << FieldKind::Enum;
}

void TstFormDescription::kinds()
{
    QFETCH(QString, type);
    QFETCH(QString, property);
    QFETCH(FieldKind, kind);
    const FieldDescription *field = formDescription(type.toStdString()).field(property.toStdString());
    QVERIFY(field);
    QCOMPARE(field->kind, kind);
}

void TstFormDescription::hints()
{
    const auto &service = formDescription("service");
    QVERIFY(service.field("enable")->triState);
    QCOMPARE(service.field("ensure")->enumValues, (std::vector<std::string> {"running", "stopped"}));
    QVERIFY(!service.field("ensure")->enumFreeForm);
    QVERIFY(service.field("ensure")->defaultValue == Json("running"));
    QCOMPARE(service.field("ensure")->placeholder, std::string("running"));
    QCOMPARE(service.field("provider")->enumValues, std::vector<std::string> {"systemd"});
    QCOMPARE(service.field("name")->placeholder, std::string("nginx"));
    QCOMPARE(service.label, std::string("Service"));

    QVERIFY(formDescription("package").field("ensure")->enumFreeForm);
    QVERIFY(!formDescription("file").field("force")->triState);

    const auto &archive = formDescription("archive");
    QVERIFY(archive.field("password")->secret);
    QVERIFY(archive.field("headers")->secret);
    QVERIFY(archive.field("headers")->stringValues);
    QVERIFY(!archive.field("url")->secret);
    QVERIFY(!formDescription("apply").field("data")->stringValues);

    QVERIFY(!service.field("require")->templatesAllowed);
    QVERIFY(service.field("name")->templatesAllowed);
    QVERIFY(formDescription("exec").field("command")->deferred);
    QVERIFY(formDescription("exec").field("returns")->defaultValue == Json::array({0}));
    QVERIFY(formDescription("scaffold").field("engine")->defaultValue == Json("jet"));
}

void TstFormDescription::nestedHealthChecks()
{
    const FieldDescription *checks = formDescription("file").field("health_checks");
    QVERIFY(checks);
    QCOMPARE(checks->itemLabel, std::string("Health check"));
    std::vector<std::string> names;
    for (const auto &item : checks->itemFields)
        names.push_back(item.property);
    QCOMPARE(
        names, (std::vector<std::string> {"name", "command", "goss_rules", "format", "timeout", "tries", "try_sleep"}));
    QCOMPARE(checks->itemFields[5].kind, FieldKind::Integer);
    QCOMPARE(checks->itemFields[5].minimum, std::optional<long long>(1));
    QCOMPARE(checks->itemFields[3].enumValues, (std::vector<std::string> {"nagios", "goss"}));

    const FieldDescription *registrations = formDescription("file").field("register_when_stable");
    QVERIFY(registrations);
    QCOMPARE(registrations->itemFields.size(), std::size_t(7));
    const FieldDescription &port = registrations->itemFields[4];
    QCOMPARE(port.property, std::string("port"));
    QVERIFY(port.integerAccepted);
    QVERIFY(port.required);
    QCOMPARE(port.maximum, std::optional<long long>(65535));
    QCOMPARE(registrations->itemFields[6].kind, FieldKind::KeyValueMap);
    QVERIFY(!registrations->itemFields[6].required);
}

void TstFormDescription::controlExpressions()
{
    const FieldDescription *control = formDescription("exec").field("control");
    QVERIFY(control);
    QCOMPARE(control->itemFields.size(), std::size_t(2));
    QCOMPARE(control->itemFields[0].property, std::string("if"));
    QCOMPARE(control->itemFields[1].property, std::string("unless"));
    QCOMPARE(control->itemFields[0].kind, FieldKind::Expression);
}

void TstFormDescription::requiredUnlessEnsure()
{
    const FieldDescription *mode = formDescription("file").field("mode");
    QVERIFY(!mode->required);
    QVERIFY(isRequired(*mode, "present"));
    QVERIFY(!isRequired(*mode, "absent"));
    QVERIFY(!isRequired(*formDescription("file").field("force"), "present"));
}

using Names = std::set<std::string>;
Q_DECLARE_METATYPE(Names)

void TstFormDescription::fileFieldsFollowEnsure_data()
{
    QTest::addColumn<QString>("ensure");
    QTest::addColumn<Names>("inapplicable");
    QTest::newRow("present") << QStringLiteral("present") << Names {"force"};
    QTest::newRow("directory") << QStringLiteral("directory") << Names {"content", "source", "force"};
    QTest::newRow("absent") << QStringLiteral("absent") << Names {"content", "source", "owner", "group", "mode"};
    QTest::newRow("unset") << QString() << Names {};
}

void TstFormDescription::fileFieldsFollowEnsure()
{
    QFETCH(QString, ensure);
    QFETCH(Names, inapplicable);
    Json values = Json::object({{"owner", "root"}});
    if (!ensure.isEmpty())
        values["ensure"] = ensure.toStdString();
    QCOMPARE(ccm::designer::inapplicableProperties(formDescription("file"), values), inapplicable);
}

void TstFormDescription::archiveFieldsFollowEnsure()
{
    const auto &form = formDescription("archive");
    QCOMPARE(ccm::designer::inapplicableProperties(form, Json::object({{"ensure", "present"}})), Names {});
    const Names absent = ccm::designer::inapplicableProperties(form, Json::object({{"ensure", "absent"}}));
    for (const char *property : {"url", "checksum", "owner", "group", "headers", "creates"})
        QVERIFY2(absent.contains(property), property);
    QVERIFY(!absent.contains("require"));
    QVERIFY(!absent.contains("ensure"));
}

void TstFormDescription::conditionsOfAnySchema()
{
    // Not a list of the project's types: whatever the schema's conditions say.
    const Json schema = Json::parse(R"({
        "properties": {"kind": {"type": "string"}, "size": {"type": "integer"}, "label": {"type": "string"},
                       "colour": {"type": "string"}, "shade": {"type": "string"}},
        "if": {"required": ["kind"], "properties": {"kind": {"enum": ["line", "dot"]}}},
        "then": {"properties": {"label": false}},
        "else": {"properties": {"size": false}},
        "allOf": [{"if": {"not": {"required": ["colour"]}}, "then": {"properties": {"shade": false}}}],
        "dependentSchemas": {"label": {"properties": {"colour": false}}}
    })");
    const auto form = ccm::designer::describeForm("shape", schema, "shape.json");
    const auto hidden
        = [&form](const char *values) { return ccm::designer::inapplicableProperties(form, Json::parse(values)); };
    QCOMPARE(hidden(R"({"kind": "line", "colour": "red"})"), Names {"label"});
    QCOMPARE(hidden(R"({"kind": "box", "colour": "red"})"), Names {"size"});
    QCOMPARE(hidden(R"({"colour": "red"})"), Names {"size"});
    QCOMPARE(hidden(R"({"kind": "box", "label": "x"})"), (Names {"size", "shade", "colour"}));
    QVERIFY(ccm::designer::satisfiesCondition(Json::parse(R"({"oneOf": [{"const": 1}, {"const": 2}]})"), Json(2)));
    QVERIFY(!ccm::designer::satisfiesCondition(Json::parse(R"({"anyOf": [{"type": "string"}]})"), Json(2)));
    QVERIFY(!ccm::designer::satisfiesCondition(Json(false), Json(2)));
}

void TstFormDescription::unknownType()
{
    QVERIFY(formDescription("nonsense").empty());
    QVERIFY(formDescription("nonsense").field("name") == nullptr);
    const auto form
        = ccm::designer::describeForm("odd", Json::parse(R"({"properties": {"a": 5, "b": {"$ref": 3}}})"), "odd.json");
    QCOMPARE(form.groups.size(), std::size_t(1));
    QCOMPARE(form.groups[0].fields.size(), std::size_t(2));
}

void TstFormDescription::fieldsWithinAGroupAreOrdered()
{
    for (const char *type : {"package", "service", "file", "exec", "archive", "scaffold", "apply"}) {
        for (const auto &group : formDescription(type).groups) {
            int previous = -1;
            for (const FieldDescription &field : group.fields) {
                const Json &schema = ccm::SchemaRegistry::instance().propertySchema(type, field.property);
                const int order = schema.value("x-ccm-order", 1000);
                QVERIFY2(order >= previous, field.property.c_str());
                previous = order;
            }
        }
    }
}

CCM_TEST_GUILESS_MAIN(TstFormDescription)
#include "tst_form_description.moc"
