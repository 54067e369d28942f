// SPDX-License-Identifier: Apache-2.0
// What completion offers in each context of a form field and of the YAML view, and which
// expression hovering finds.
#include "designer/core/completion_model.h"
#include "designer/core/function_catalog.h"
#include "test_main.h"

#include <QTest>

using namespace ccm::designer;

namespace {

CompletionSources sources()
{
    CompletionSources out;
    out.facts = ccm::Json::parse(R"({"host": {"info": {"hostname": "web1", "platformFamily": "debian"}},
        "network": {"interfaces": [{"name": "lo"}, {"name": "eth0"}]}})");
    out.data = ccm::Json::parse(R"({"port": 8080, "web": {"listen": "0.0.0.0"}})");
    out.references
        = {QStringLiteral("file#/etc/motd"), QStringLiteral("service#nginx"), QStringLiteral("package#nginx")};
    return out;
}

QStringList inserts(const Completions &completions)
{
    QStringList out;
    for (const CompletionItem &item : completions.items)
        out.append(item.insert);
    return out;
}

const QString kYaml
    = QStringLiteral("ccm:\n  resources:\n    - service:\n        - nginx:\n            ensure: running\n"
                     "            require:\n              - pack\n            control:\n"
                     "              if: Facts.host.info.ho\n");

} // namespace

class TestCompletionModel : public QObject {
    Q_OBJECT

private slots:
    void field_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("mode");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<int>("start");
        const int tmpl = int(ExpressionMode::Template);
        const int expr = int(ExpressionMode::Expression);
        QTest::newRow("facts root") << QStringLiteral("x {{ Facts.") << tmpl
                                    << QStringList {QStringLiteral("Facts.host"), QStringLiteral("Facts.network")} << 5;
        QTest::newRow("facts nested") << QStringLiteral("{{ Facts.host.info.h") << tmpl
                                      << QStringList {QStringLiteral("Facts.host.info.hostname")} << 3;
        QTest::newRow("data") << QStringLiteral("Data.w") << expr << QStringList {QStringLiteral("Data.web")} << 0;
        QTest::newRow("lookup root") << QStringLiteral("{{ lookup('f") << tmpl << QStringList {QStringLiteral("facts")}
                                     << 11;
        QTest::newRow("lookup nested") << QStringLiteral("{{ lookup(\"data.web.") << tmpl
                                       << QStringList {QStringLiteral("data.web.listen")} << 11;
        QTest::newRow("lookup list") << QStringLiteral("lookup('facts.network.interfaces.") << expr
                                     << QStringList {QStringLiteral("facts.network.interfaces.0"),
                                            QStringLiteral("facts.network.interfaces.1"),
                                            QStringLiteral("facts.network.interfaces.#")}
                                     << 8;
        QTest::newRow("functions") << QStringLiteral("{{ isIP") << tmpl
                                   << QStringList {QStringLiteral("isIP("), QStringLiteral("isIPv4("),
                                          QStringLiteral("isIPv6(")}
                                   << 3;
        QTest::newRow("outside braces") << QStringLiteral("Facts.") << tmpl << QStringList() << -1;
        QTest::newRow("closed braces") << QStringLiteral("{{ Facts.host }} Data.") << tmpl << QStringList() << -1;
    }

    void field()
    {
        QFETCH(QString, text);
        QFETCH(int, mode);
        QFETCH(QStringList, expected);
        QFETCH(int, start);
        const Completions completions = completeField(text, int(text.size()), ExpressionMode(mode), sources());
        QCOMPARE(inserts(completions), expected);
        if (!expected.isEmpty())
            QCOMPARE(completions.start, start);
    }

    void functionsCarrySignatures()
    {
        const Completions completions = completeField(QStringLiteral("kv"), 2, ExpressionMode::Expression, sources());
        QCOMPARE(completions.items.size(), 1);
        QCOMPARE(completions.items.front().display, QStringLiteral("kvGet(bucket, key)"));
        QVERIFY(findFunction(QStringLiteral("registrations")) != nullptr);
        QVERIFY(findFunction(QStringLiteral("is_fqdn")) != nullptr);
    }

    void explicitRequestOffersNames()
    {
        const Completions completions
            = completeField(QStringLiteral("{{ "), 3, ExpressionMode::Template, sources(), true);
        QVERIFY(inserts(completions).contains(QStringLiteral("Facts")));
        QVERIFY(inserts(completions).contains(QStringLiteral("lookup(")));
    }

    void yamlReferences()
    {
        const int cursor = int(kYaml.indexOf(QStringLiteral("pack")) + 4);
        const Completions completions = completeYaml(kYaml, cursor, sources());
        QCOMPARE(inserts(completions), QStringList {QStringLiteral("package#nginx")});
        QCOMPARE(completions.start, cursor - 4);
    }

    void yamlControlExpression()
    {
        const int cursor = int(kYaml.indexOf(QStringLiteral("info.ho")) + 7);
        QCOMPARE(
            inserts(completeYaml(kYaml, cursor, sources())), QStringList {QStringLiteral("Facts.host.info.hostname")});
    }

    void yamlTemplate()
    {
        const QString text = QStringLiteral("data:\n  url: \"http://{{ Data.po\"\n");
        const int cursor = int(text.indexOf(QStringLiteral("Data.po")) + 7);
        QCOMPARE(inserts(completeYaml(text, cursor, sources())), QStringList {QStringLiteral("Data.port")});
        QVERIFY(completeYaml(text, 8, sources()).items.isEmpty());
    }

    void spans()
    {
        const QString text = QStringLiteral("a {{ Data.port }} b ${ Facts.x }");
        auto span = expressionAt(text, 6, ExpressionMode::Template);
        QVERIFY(span);
        QCOMPARE(span->text, QStringLiteral("{{ Data.port }}"));
        QCOMPARE(span->kind, QStringLiteral("template"));
        span = expressionAt(text, int(text.size()) - 2, ExpressionMode::Template);
        QVERIFY(span);
        QCOMPARE(span->text, QStringLiteral("${ Facts.x }"));
        QVERIFY(!expressionAt(text, 0, ExpressionMode::Template));
        span = expressionAt(QStringLiteral(" Data.port > 1 "), 3, ExpressionMode::Expression);
        QVERIFY(span);
        QCOMPARE(span->text, QStringLiteral("Data.port > 1"));

        const auto control = yamlExpressionAt(kYaml, int(kYaml.indexOf(QStringLiteral("info.ho"))));
        QVERIFY(control);
        QCOMPARE(control->kind, QStringLiteral("expression"));
        QCOMPARE(control->text, QStringLiteral("Facts.host.info.ho"));
        QVERIFY(!yamlExpressionAt(kYaml, 3));

        const QString quoted = QStringLiteral("x:\n  control:\n    if: \"a == 'b'\"\n    unless: a == \"b\"\n");
        QCOMPARE(
            yamlExpressionAt(quoted, int(quoted.indexOf(QStringLiteral("a =="))))->text, QStringLiteral("a == 'b'"));
        QCOMPARE(yamlExpressionAt(quoted, int(quoted.lastIndexOf(QStringLiteral("a =="))))->text,
            QStringLiteral("a == \"b\""));
    }
};

CCM_TEST_GUILESS_MAIN(TestCompletionModel)
#include "tst_completion_model.moc"
