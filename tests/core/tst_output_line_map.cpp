// SPDX-License-Identifier: Apache-2.0
// Which template line produced each output line, as the Jet and Go renderers record it.
#include "core/template/go_template.h"
#include "core/template/jet_template.h"
#include "core/template/output_line_map.h"
#include "core/template/template_string.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

const Json kLineMapData
    = Json::parse(R"({"port": 8080, "names": ["a", "b"], "block": "x\ny", "on": true, "off": false})");
const Json kNoFacts = Json::object();
const Json kNoEnviron = Json::object();

QList<int> toList(const std::vector<int> &lines)
{
    return QList<int>(lines.begin(), lines.end());
}

} // namespace

class TestOutputLineMap : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void appendCountsLines_data()
    {
        QTest::addColumn<QByteArrayList>("pieces");
        QTest::addColumn<QList<int>>("origins");
        QTest::addColumn<QList<int>>("expected");
        // An origin > 0 is a verbatim piece from that line, < 0 an action on line -origin.
        QTest::newRow("one verbatim line") << QByteArrayList {"a\n"} << QList<int> {1} << QList<int> {1};
        QTest::newRow("verbatim lines count on") << QByteArrayList {"a\n\nb"} << QList<int> {4} << QList<int> {4, 5, 6};
        QTest::newRow("action lines stay") << QByteArrayList {"x\ny\n"} << QList<int> {-3} << QList<int> {3, 3};
        QTest::newRow("final newline starts no line")
            << QByteArrayList {"a\n", "b\n"} << QList<int> {1, 2} << QList<int> {1, 2};
        QTest::newRow("line started by the first piece")
            << QByteArrayList {"a", "b\nc"} << QList<int> {1, -7} << QList<int> {1, 7};
        QTest::newRow("empty pieces") << QByteArrayList {"", "a"} << QList<int> {9, 2} << QList<int> {2};
    }

    void appendCountsLines()
    {
        QFETCH(QByteArrayList, pieces);
        QFETCH(QList<int>, origins);
        QFETCH(QList<int>, expected);
        OutputLineMap map;
        for (qsizetype i = 0; i < pieces.size(); ++i) {
            const int origin = origins[i];
            map.append(pieces[i].toStdString(), std::abs(origin),
                origin > 0 ? OutputLineMap::Origin::Verbatim : OutputLineMap::Origin::Action);
        }
        QCOMPARE(toList(map.lines()), expected);
    }

    void jet_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QList<int>>("lines");
        QTest::newRow("plain text") << QByteArray("a\nb\n") << QByteArray("a\nb\n") << QList<int> {1, 2};
        QTest::newRow("output action") << QByteArray("port: [[ Data.port ]]\nend\n") << QByteArray("port: 8080\nend\n")
                                       << QList<int> {1, 2};
        QTest::newRow("value with newlines maps to the action")
            << QByteArray("[[ Data.block ]]\nz\n") << QByteArray("x\ny\nz\n") << QList<int> {1, 1, 2};
        QTest::newRow("range repeats its body's line")
            << QByteArray("head\n[[ range Data.names ]]\n- [[ . ]]\n[[ end ]]tail\n")
            << QByteArray("head\n\n- a\n\n- b\ntail\n") << QList<int> {1, 2, 3, 2, 3, 4};
        QTest::newRow("trimmed range") << QByteArray("head\n[[- range Data.names ]]\n- [[ . ]]\n[[- end ]]\n")
                                       << QByteArray("head\n- a\n- b\n") << QList<int> {1, 3, 3};
        QTest::newRow("if skips lines") << QByteArray("a\n[[ if Data.off ]]\nno\n[[ else ]]\nyes\n[[ end ]]\n")
                                        << QByteArray("a\n\nyes\n\n") << QList<int> {1, 4, 5, 6};
        QTest::newRow("comment over lines")
            << QByteArray("a\n{* one\ntwo\n*}b\nc\n") << QByteArray("a\nb\nc\n") << QList<int> {1, 4, 5};
        QTest::newRow("empty output") << QByteArray("[[ if Data.off ]]x[[ end ]]") << QByteArray("") << QList<int> {};
    }

    void jet()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, output);
        QFETCH(QList<int>, lines);
        const StandardScope scope(kNoFacts, kLineMapData, kNoEnviron);
        auto parsed = JetTemplate::parse(text.toStdString());
        QVERIFY2(parsed, parsed ? "" : parsed.error().message.c_str());
        OutputLineMap map;
        auto rendered = parsed->render(scope, &map);
        QVERIFY2(rendered, rendered ? "" : rendered.error().message.c_str());
        QCOMPARE(QByteArray::fromStdString(rendered.value()), output);
        QCOMPARE(toList(map.lines()), lines);
        // Without a map the output is the same.
        QCOMPARE(QByteArray::fromStdString(parsed->render(scope).value()), output);
    }

    void go_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QList<int>>("lines");
        QTest::newRow("plain text") << QByteArray("a\nb\n") << QByteArray("a\nb\n") << QList<int> {1, 2};
        QTest::newRow("field") << QByteArray("p\n{{ .Data.port }}\n") << QByteArray("p\n8080\n") << QList<int> {1, 2};
        QTest::newRow("value with newlines maps to the action")
            << QByteArray("{{ .Data.block }}\nz\n") << QByteArray("x\ny\nz\n") << QList<int> {1, 1, 2};
        QTest::newRow("trimmed range") << QByteArray("head\n{{- range .Data.names }}\n- {{ . }}\n{{- end }}\n")
                                       << QByteArray("head\n- a\n- b\n") << QList<int> {1, 3, 3};
        QTest::newRow("else branch") << QByteArray("{{ if .Data.off }}\nno\n{{ else }}\nyes\n{{ end }}")
                                     << QByteArray("\nyes\n") << QList<int> {3, 4};
        QTest::newRow("comment over lines")
            << QByteArray("a\n{{/* one\ntwo */}}\nb\n") << QByteArray("a\n\nb\n") << QList<int> {1, 3, 4};
    }

    void go()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, output);
        QFETCH(QList<int>, lines);
        auto parsed = GoTemplate::parse(text.toStdString());
        QVERIFY2(parsed, parsed ? "" : parsed.error().message.c_str());
        const Json dot {{"Data", kLineMapData}};
        OutputLineMap map;
        auto rendered = parsed->execute(dot, nullptr, &map);
        QVERIFY2(rendered, rendered ? "" : rendered.error().message.c_str());
        QCOMPARE(QByteArray::fromStdString(rendered.value()), output);
        QCOMPARE(toList(map.lines()), lines);
        QCOMPARE(QByteArray::fromStdString(parsed->execute(dot).value()), output);
    }

    void templateString_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<QList<int>>("lines");
        QTest::newRow("no expression") << QByteArray("a\nb\n") << QByteArray("a\nb\n") << QList<int> {1, 2};
        QTest::newRow("expressions") << QByteArray("a\n{{ Data.port }}\nx ${ Data.block }\nz")
                                     << QByteArray("a\n8080\nx x\ny\nz") << QList<int> {1, 2, 3, 3, 4};
    }

    void templateString()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, output);
        QFETCH(QList<int>, lines);
        const StandardScope scope(kNoFacts, kLineMapData, kNoEnviron);
        OutputLineMap map;
        auto resolved = resolveTemplate(text.toStdString(), scope, TemplateValue::String, &map);
        QVERIFY2(resolved, resolved ? "" : resolved.error().message.c_str());
        QCOMPARE(QByteArray::fromStdString(resolved->get<std::string>()), output);
        QCOMPARE(toList(map.lines()), lines);
    }
};

CCM_TEST_APPLESS_MAIN(TestOutputLineMap)
#include "tst_output_line_map.moc"
