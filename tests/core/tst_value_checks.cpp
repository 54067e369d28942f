// SPDX-License-Identifier: Apache-2.0
// The validator functions of expressions (isIP, isInt, ... and their snake_case aliases) and
// registrations(), called as manifests and @validate call them.
#include "core/expr/expression.h"
#include "core/template/go_template.h"
#include "json_test_support.h"
#include "test_main.h"
#include "test_support.h"

#include <QRegularExpression>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

const Json kNothing = Json::object();

/// Evaluates `text` with `value` bound to "v": "true", "false" or "error: MESSAGE".
QString outcome(const QByteArray &text, const Json &value)
{
    const Json data {{"v", value}};
    const StandardScope scope(kNothing, data, kNothing);
    const auto result = evaluateExpression(text.toStdString(), scope);
    if (!result)
        return QStringLiteral("error: ") + q(result.error().message);
    return q(result.value().dump());
}

/// Adds one row per function name: `valid` texts give true and `invalid` ones false.
void addRows(const QList<QByteArray> &names, const QList<QByteArray> &valid, const QList<QByteArray> &invalid)
{
    for (const QByteArray &name : names) {
        for (const QByteArray &text : valid)
            QTest::addRow("%s(%s)", name.constData(), text.constData()) << name << Json(text.toStdString()) << true;
        for (const QByteArray &text : invalid)
            QTest::addRow("%s(%s) is false", name.constData(), text.constData())
                << name << Json(text.toStdString()) << false;
    }
}

} // namespace

class TestValueChecks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void validators_data()
    {
        QTest::addColumn<QByteArray>("function");
        QTest::addColumn<Json>("value");
        QTest::addColumn<bool>("expected");
        addRows({"isIP", "is_ip"},
            {"10.0.0.1", "0.0.0.0", "255.255.255.255", "::", "::1", "fe80::1", "2001:db8:0:0:1:0:0:1",
                "::ffff:10.0.0.1", "1:2:3:4:5:6:7:8"},
            {"", "10.0.0", "10.0.0.256", "010.0.0.1", "10.0.0.1.", "1.2.3.4.5", "fe80::1%eth0", "1::2::3",
                "12345::", "1:2:3:4:5:6:7:8:9", ":1", "1:", "web1"});
        addRows({"isIPv4", "is_ipv4"}, {"192.168.1.10", "::ffff:192.168.1.10", "::ffff:c0a8:10a"},
            {"::1", "fe80::1", "192.168.1", "192.168.01.1", " 192.168.1.1"});
        addRows({"isIPv6", "is_ipv6"}, {"::1", "fe80::1", "2001:db8::8a2e:370:7334", "::10.0.0.1"},
            {"10.0.0.1", "::ffff:10.0.0.1", "2001:db8:::1", "fe80::g"});
        addRows({"isInt", "is_int"}, {"42", "-7", "+007", "0", "9223372036854775807", "-9223372036854775808"},
            {"", "4.0", "0x10", "1e3", " 42", "42 ", "1_000", "9223372036854775808", "-", "forty"});
        addRows({"isFloat", "is_float"},
            {"1", "2.5", "-.5", "5.", "1e3", "1E-3", "0x1p-2", "inf", "-Infinity", "NaN", "1e-400"},
            {"", ".", "e3", "1e", "0x1", "1.2.3", "1e400", "one", "1,5"});
        addRows({"isDuration", "is_duration"}, {"90s", "1h30m", "2d", "1.5h", "300ms"}, {"", "90", "1x", "-1h", "h"});
        addRows({"isShellSafe", "is_shell_safe", "is_shellsafe"},
            {"/usr/bin/thing --flag=1", "a b 'c'", "trailing newline\n", "with\ttab"},
            {"a;b", "a|b", "a&b", "$(id)", "`id`", "a>b", "a<b", "(a)", "a\nb", "$HOME"});
        addRows({"isHostname", "is_hostname"}, {"web1", "web-1.example.net", "example.net.", "1host", "a"},
            {"", "-web", "web-", "web_1", "web..net", "a.-b", ".net", QByteArray(64, 'a')});
        addRows({"isFQDN", "is_fqdn"}, {"web1.example.net", "example.net.", "a.b"},
            {"web1", "10.0.0.1", "web_1.example.net", "example.123"});
    }

    void validators()
    {
        QFETCH(QByteArray, function);
        QFETCH(Json, value);
        QFETCH(bool, expected);
        QCOMPARE(outcome(function + "(Data.v)", value), expected ? QStringLiteral("true") : QStringLiteral("false"));
    }

    void valuesAreCheckedByTheirText_data()
    {
        QTest::addColumn<QByteArray>("expression");
        QTest::addColumn<Json>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("integer number") << QByteArray("isInt(Data.v)") << Json(8080) << QStringLiteral("true");
        QTest::newRow("whole float prints as an integer")
            << QByteArray("isInt(Data.v)") << Json(3.0) << QStringLiteral("true");
        QTest::newRow("float number") << QByteArray("isFloat(Data.v)") << Json(2.5) << QStringLiteral("true");
        QTest::newRow("boolean") << QByteArray("isShellSafe(Data.v)") << Json(true) << QStringLiteral("true");
        QTest::newRow("null") << QByteArray("isInt(Data.v)") << Json()
                              << QStringLiteral("error: .*needs a string or a number, got .*");
        QTest::newRow("list") << QByteArray("is_ip(Data.v)") << Json::array()
                              << QStringLiteral("error: .*needs a string or a number, got .*");
        QTest::newRow("combined") << QByteArray("isIPv4(Data.v) || isIPv6(Data.v)") << Json("fe80::1")
                                  << QStringLiteral("true");
        QTest::newRow("wrong count") << QByteArray("isInt(Data.v, 1)") << Json("1")
                                     << QStringLiteral("error: isInt\\(\\) takes 1 argument, got 2");
    }

    void valuesAreCheckedByTheirText()
    {
        QFETCH(QByteArray, expression);
        QFETCH(Json, value);
        QFETCH(QString, expected);
        const QString got = outcome(expression, value);
        QVERIFY2(QRegularExpression(QStringLiteral("^") + expected + QStringLiteral("$")).match(got).hasMatch(),
            qPrintable(got));
    }

    void isRegex_data()
    {
        QTest::addColumn<QByteArray>("expression");
        QTest::addColumn<QString>("expected");
        QTest::newRow("anchored match") << QByteArray("isRegex('web1', '^[a-z]+[0-9]$')") << QStringLiteral("true");
        QTest::newRow("anchored mismatch")
            << QByteArray("is_regex('web12', '^[a-z]+[0-9]$')") << QStringLiteral("false");
        QTest::newRow("unanchored finds anywhere")
            << QByteArray("isRegex('abc-123', '[0-9]+')") << QStringLiteral("true");
        QTest::newRow("number by its text") << QByteArray("isRegex(8080, '^80')") << QStringLiteral("true");
        QTest::newRow("invalid pattern") << QByteArray("isRegex('a', '(')")
                                         << QStringLiteral("error: invalid pattern '\\(': .*");
        QTest::newRow("pattern not a string")
            << QByteArray("isRegex('a', 1)") << QStringLiteral("error: isRegex\\(\\) needs a string pattern.*");
    }

    void isRegex()
    {
        QFETCH(QByteArray, expression);
        QFETCH(QString, expected);
        const QString got = outcome(expression, Json());
        QVERIFY2(QRegularExpression(QStringLiteral("^") + expected + QStringLiteral("$")).match(got).hasMatch(),
            qPrintable(got));
    }

    void registrationsFindsNothing()
    {
        QCOMPARE(outcome("registrations('prod', 'http', 'web', '*')", Json()), QStringLiteral("[]"));
        QCOMPARE(outcome("len(registrations('prod', 'http', 'web', '*'))", Json()), QStringLiteral("0"));
        QVERIFY(outcome("registrations('prod', 'http', 'web', 1)", Json()).startsWith(QStringLiteral("error: ")));
        QVERIFY(outcome("registrations('prod')", Json()).contains(QStringLiteral("takes 4 arguments")));

        // Go templates have it too, with upstream's argument syntax.
        const auto rendered = renderGoTemplate(R"({{ len (registrations "prod" "http" "web" "*") }})", Json::object());
        QVERIFY2(rendered, rendered ? "" : rendered.error().message.c_str());
        QCOMPARE(q(rendered.value()), QStringLiteral("0"));
        QVERIFY(!renderGoTemplate(R"({{ registrations "prod" }})", Json::object()));
    }
};

CCM_TEST_GUILESS_MAIN(TestValueChecks)
#include "tst_value_checks.moc"
