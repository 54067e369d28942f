// SPDX-License-Identifier: Apache-2.0
// resources/schemas/protocol.json against the examples of docs/protocol.md: every example is a
// valid message of the kind it is shown as, and every kind of message has an example.
#include "core/model/json.h"
#include "protocol_schema.h"
#include "test_common.h"
#include "test_main.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <memory>

using namespace ccm;
using namespace ccm::test;

namespace {

struct Example {
    QString definition; ///< the schema definition the example is an instance of
    int line = 0; ///< where its block starts in the document
    QByteArray text;
};

/// The ```json blocks of the document, each with the definition named by the
/// `<!-- schema: NAME -->` line before it (empty when there is none).
QList<Example> examples(const QString &markdown)
{
    QList<Example> found;
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    static const QRegularExpression marker(QStringLiteral("^<!-- schema: (\\S+) -->$"));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i] != QStringLiteral("```json"))
            continue;
        Example example;
        example.line = int(i + 1);
        for (qsizetype back = i - 1; back >= 0; --back) {
            if (lines[back].trimmed().isEmpty())
                continue;
            const auto match = marker.match(lines[back]);
            if (match.hasMatch())
                example.definition = match.captured(1);
            break;
        }
        qsizetype end = i + 1;
        while (end < lines.size() && lines[end] != QStringLiteral("```"))
            example.text += lines[end++].toUtf8() + '\n';
        found << example;
        i = end;
    }
    return found;
}

QString readDocument()
{
    QFile file(QStringLiteral(CCM_SOURCE_DIR "/docs/protocol.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace

class TestProtocolSchema : public QObject {
    Q_OBJECT

    nlohmann::json m_schema;
    QList<Example> m_examples;

private Q_SLOTS:
    void initTestCase()
    {
        m_schema = protocolSchema();
        QVERIFY2(m_schema.is_object(), "protocol.json is not among the compiled-in schemas");
        const QString document = readDocument();
        QVERIFY2(!document.isEmpty(), "docs/protocol.md cannot be read");
        m_examples = examples(document);
        QVERIFY(m_examples.size() >= 20);
    }

    void sourceMatchesTheCompiledSchema()
    {
        QFile file(QStringLiteral(CCM_SOURCE_DIR "/resources/schemas/protocol.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(nlohmann::json::parse(file.readAll().toStdString(), nullptr, false) == m_schema);
    }

    void everyExampleNamesItsDefinition()
    {
        for (const Example &example : std::as_const(m_examples)) {
            QVERIFY2(!example.definition.isEmpty(),
                qPrintable(QStringLiteral("the json block at line %1 has no schema marker").arg(example.line)));
            QVERIFY2(m_schema["definitions"].contains(example.definition.toStdString()),
                qPrintable(QStringLiteral("line %1: no definition %2").arg(example.line).arg(example.definition)));
        }
    }

    void everyMessageKindHasAnExample()
    {
        QSet<QString> shown;
        for (const Example &example : std::as_const(m_examples))
            shown.insert(example.definition);
        int kinds = 0;
        for (const auto &[name, definition] : m_schema["definitions"].items()) {
            const QString kind = q(name);
            if (!kind.startsWith(QStringLiteral("request.")) && !kind.startsWith(QStringLiteral("response."))
                && !kind.startsWith(QStringLiteral("notification.")) && !kind.startsWith(QStringLiteral("error.")))
                continue;
            ++kinds;
            QVERIFY2(shown.contains(kind), qPrintable(QStringLiteral("no example of ") + kind));
        }
        // 26 methods with a request and a response each, 8 notifications, 17 error codes.
        QCOMPARE(kinds, 26 * 2 + 8 + 17);
    }

    void examplesConform_data()
    {
        QTest::addColumn<QString>("definition");
        QTest::addColumn<QByteArray>("text");
        for (const Example &example : std::as_const(m_examples)) {
            QTest::addRow("line %d %s", example.line, qPrintable(example.definition))
                << example.definition << example.text;
        }
    }

    void examplesConform()
    {
        QFETCH(QString, definition);
        QFETCH(QByteArray, text);
        const nlohmann::json value = nlohmann::json::parse(text.toStdString(), nullptr, false);
        QVERIFY2(!value.is_discarded(), "the example is not valid JSON");
        for (const QString &against : {definition, QString()}) {
            const auto schema = compileSchema(m_schema, against);
            QVERIFY2(schema, qPrintable(QStringLiteral("cannot compile the schema for ") + against));
            const QStringList found = schemaProblems(*schema, value);
            QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
        }
    }

    void messagesRefused_data()
    {
        QTest::addColumn<QString>("definition");
        QTest::addColumn<QByteArray>("text");
        const QString any;
        QTest::newRow("not json-rpc 2.0") << any << QByteArray(R"({"jsonrpc":"1.0","id":1,"method":"facts.get"})");
        QTest::newRow("unknown method") << any << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"facts.set"})");
        QTest::newRow("id of the wrong kind")
            << any << QByteArray(R"({"jsonrpc":"2.0","id":[1],"method":"facts.get"})");
        QTest::newRow("apply without noop")
            << any << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"apply.start","params":{"manifest":""}})");
        QTest::newRow("apply without params")
            << any << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"apply.start"})");
        QTest::newRow("relative base_dir")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"method":"manifest.validate","params":{"manifest":"","base_dir":"x"}})");
        QTest::newRow("manifest and source")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"method":"manifest.validate","params":{"manifest":"","source":"/b.tgz"}})");
        QTest::newRow("source and base_dir")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"method":"manifest.render","params":{"source":"/b.tgz","base_dir":"/"}})");
        QTest::newRow("neither manifest nor source")
            << any << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"apply.start","params":{"noop":true}})");
        QTest::newRow("unknown param")
            << any << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"facts.get","params":{"path":"host"}})");
        QTest::newRow("hello of another protocol")
            << QStringLiteral("response.backend.hello")
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"result":{"server":"ccm-backend","version":"1","protocol":2,"role":"none","user":"x","uid":1}})");
        QTest::newRow("unknown role")
            << QStringLiteral("response.backend.hello")
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"result":{"server":"ccm-backend","version":"1","protocol":1,"role":"admin","user":"x","uid":1}})");
        QTest::newRow("code and reason disagree")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"m","data":{"reason":"unauthorized","role":"none"}}})");
        QTest::newRow("error code outside the list")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"error":{"code":-32099,"message":"m","data":{"reason":"other"}}})");
        QTest::newRow("busy without the run")
            << any
            << QByteArray(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"m","data":{"reason":"busy"}}})");
        QTest::newRow("parse error with an id")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"m","data":{"reason":"parse_error"}}})");
        QTest::newRow("notification with an id")
            << QStringLiteral("notification.apply.message")
            << QByteArray(R"({"jsonrpc":"2.0","id":1,"method":"apply.message","params":{"run":"r","text":"t"}})");
        QTest::newRow("log level unknown")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","method":"apply.log","params":{"run":"r","level":"trace","message":"m"}})");
        QTest::newRow("progress without a resource")
            << any
            << QByteArray(
                   R"({"jsonrpc":"2.0","method":"apply.progress","params":{"run":"r","done":0,"total":1,"current":"x"}})");
        QTest::newRow("cancel not cancelling")
            << any << QByteArray(R"({"jsonrpc":"2.0","id":1,"result":{"run":"r","cancelling":false}})");
    }

    void messagesRefused()
    {
        QFETCH(QString, definition);
        QFETCH(QByteArray, text);
        const nlohmann::json value = nlohmann::json::parse(text.toStdString());
        const auto schema = compileSchema(m_schema, definition);
        QVERIFY(schema);
        QVERIFY(!schemaProblems(*schema, value).isEmpty());
    }
};

CCM_TEST_GUILESS_MAIN(TestProtocolSchema)
#include "tst_protocol_schema.moc"
