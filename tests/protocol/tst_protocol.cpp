// SPDX-License-Identifier: Apache-2.0
#include "protocol/protocol.h"
#include "test_common.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::protocol;

Q_DECLARE_METATYPE(ccm::protocol::MessageKind)
Q_DECLARE_METATYPE(ccm::protocol::ErrorCode)

class TestProtocol : public QObject {
    Q_OBJECT

private slots:
    void classifiesMessages_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<MessageKind>("kind");
        const auto row = [](const char *name, const char *json, MessageKind kind) {
            QTest::newRow(name) << QString::fromUtf8(json) << kind;
        };
        row("request", R"({"jsonrpc":"2.0","id":1,"method":"facts.get","params":{}})", MessageKind::Request);
        row("request with a null id", R"({"id":null,"method":"facts.get"})", MessageKind::Request);
        row("notification", R"({"jsonrpc":"2.0","method":"apply.progress","params":{}})", MessageKind::Notification);
        row("result", R"({"jsonrpc":"2.0","id":1,"result":{}})", MessageKind::Response);
        row("error with a null id", R"({"id":null,"error":{"code":-32700,"message":"x"}})", MessageKind::Response);
        row("neither id nor method", R"({"jsonrpc":"2.0","result":{}})", MessageKind::Invalid);
        row("method not a string", R"({"method":7})", MessageKind::Invalid);
        row("array", R"([1,2])", MessageKind::Invalid);
        row("string", R"("hello")", MessageKind::Invalid);
    }

    void classifiesMessages()
    {
        QFETCH(QString, message);
        QFETCH(MessageKind, kind);
        QCOMPARE(classify(Json::parse(message.toStdString())), kind);
    }

    void namesEveryCode_data()
    {
        QTest::addColumn<ErrorCode>("code");
        QTest::addColumn<int>("number");
        QTest::addColumn<QString>("reason");
        QTest::newRow("parse") << ErrorCode::ParseError << -32700 << QStringLiteral("parse_error");
        QTest::newRow("unauthorized") << ErrorCode::Unauthorized << -32001 << QStringLiteral("unauthorized");
        QTest::newRow("busy") << ErrorCode::Busy << -32002 << QStringLiteral("busy");
        QTest::newRow("transfer") << ErrorCode::TransferFailed << -32012 << QStringLiteral("transfer_failed");
        QTest::newRow("internal") << ErrorCode::InternalError << -32603 << QStringLiteral("internal_error");
    }

    void namesEveryCode()
    {
        QFETCH(ErrorCode, code);
        QFETCH(int, number);
        QFETCH(QString, reason);
        QCOMPARE(static_cast<int>(code), number);
        QCOMPARE(QString::fromUtf8(reasonName(code)), reason);
    }

    void buildsLinesTheOtherSideClassifies()
    {
        const Json id = 7;
        const Json params {{"run", "r1"}};
        const Json request = Json::parse(requestLine(id, "apply.cancel", params));
        QCOMPARE(classify(request), MessageKind::Request);
        QVERIFY(request["params"] == params);
        QCOMPARE(classify(Json::parse(responseLine(id, Json::object()))), MessageKind::Response);
        QCOMPARE(classify(Json::parse(notificationLine("apply.log", params))), MessageKind::Notification);

        const Json error = Json::parse(errorLine(id, RpcError {ErrorCode::Busy, "busy now", Json {{"run", "r1"}}}));
        QCOMPARE(classify(error), MessageKind::Response);
        QCOMPARE(error["error"]["code"].get<int>(), -32002);
        QCOMPARE(error["error"]["data"]["reason"].get<std::string>(), std::string("busy"));
        QCOMPARE(error["error"]["data"]["run"].get<std::string>(), std::string("r1"));
    }

    void linesAreSingleLinesEvenForInvalidText()
    {
        const std::string text = responseLine(Json("\xff"), Json {{"text", "a\nb"}});
        QVERIFY(text.find('\n') == std::string::npos);
        QCOMPARE(classify(Json::parse(text)), MessageKind::Response);
    }

    void nestingLimitIsTheServers()
    {
        const std::string deep = std::string(kMaxNesting + 1, '[') + std::string(kMaxNesting + 1, ']');
        QVERIFY(jsonNestingBeyond(deep, kMaxNesting).has_value());
        const std::string fits = std::string(kMaxNesting, '[') + std::string(kMaxNesting, ']');
        QVERIFY(!jsonNestingBeyond(fits, kMaxNesting).has_value());
    }
};

CCM_TEST_GUILESS_MAIN(TestProtocol)
#include "tst_protocol.moc"
