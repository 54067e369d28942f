// SPDX-License-Identifier: Apache-2.0
// The reader of a request's params: each accessor's value, and the exact invalid_params error
// (code, message, data.path) a client sees for a member that is missing or of the wrong type.
#include "daemon/params.h"
#include "test_main.h"

#include <QTest>

#include <functional>
#include <map>

using namespace ccm;
using namespace ccm::daemon;

namespace {

/// {"value": V} for what `accessor` reads of params.p, {"value": null} for an absent optional, or
/// {"error": {code, message, data}}.
template<typename T> Json paramOutcome(const protocol::RpcResult<T> &read)
{
    if (!read)
        return Json {{"error",
            {{"code", static_cast<int>(read.error().code)}, {"message", read.error().message},
                {"data", read.error().data}}}};
    Json value;
    if constexpr (std::is_same_v<T, std::string_view>)
        value = std::string(*read);
    else if constexpr (std::is_same_v<T, std::optional<std::string_view>>)
        value = *read ? Json(std::string(**read)) : Json();
    else if constexpr (std::is_same_v<T, const Json *>)
        value = *read != nullptr ? **read : Json();
    else if constexpr (
        std::is_same_v<T,
            std::optional<std::
                    string>> || std::is_same_v<T, std::optional<bool>> || std::is_same_v<T, std::optional<std::int64_t>>)
        value = *read ? Json(**read) : Json();
    else
        value = *read;
    return Json {{"value", value}};
}

Json readParamWith(const QString &accessor, const Params &params)
{
    const std::string name = "p";
    const std::map<QString, std::function<Json()>> accessors {
        {QStringLiteral("string"), [&] { return paramOutcome(params.string(name)); }},
        {QStringLiteral("optionalString"), [&] { return paramOutcome(params.optionalString(name)); }},
        {QStringLiteral("text"), [&] { return paramOutcome(params.text(name)); }},
        {QStringLiteral("optionalText"), [&] { return paramOutcome(params.optionalText(name)); }},
        {QStringLiteral("path"), [&] { return paramOutcome(params.path(name)); }},
        {QStringLiteral("optionalPath"), [&] { return paramOutcome(params.optionalPath(name)); }},
        {QStringLiteral("boolean"), [&] { return paramOutcome(params.boolean(name)); }},
        {QStringLiteral("optionalBoolean"), [&] { return paramOutcome(params.optionalBoolean(name)); }},
        {QStringLiteral("flag"), [&] { return paramOutcome(params.flag(name)); }},
        {QStringLiteral("optionalInteger"), [&] { return paramOutcome(params.optionalInteger(name)); }},
        {QStringLiteral("optionalObject"), [&] { return paramOutcome(params.optionalObject(name)); }},
        {QStringLiteral("optionalList"), [&] { return paramOutcome(params.optionalList(name)); }},
        {QStringLiteral("optionalList of paths"),
            [&] { return paramOutcome(params.optionalList(name, "a list of paths")); }},
    };
    const auto found = accessors.find(accessor);
    return found == accessors.end() ? Json("no accessor " + accessor.toStdString()) : found->second();
}

/// The outcome of an invalid_params error on params.p with `message`.
Json paramError(const std::string &message)
{
    return Json {{"error", {{"code", -32602}, {"message", message}, {"data", {{"path", "p"}}}}}};
}

QByteArray paramJson(const Json &value)
{
    return QByteArray::fromStdString(value.dump());
}

} // namespace

class TestParams : public QObject {
    Q_OBJECT

private slots:
    void eachAccessorReadsOrSaysWhatIsWrong_data()
    {
        QTest::addColumn<QString>("accessor");
        QTest::addColumn<QByteArray>("params");
        QTest::addColumn<QByteArray>("outcome");
        const auto row = [](const char *name, const char *accessor, const Json &params, const Json &outcome) {
            QTest::newRow(name) << QString::fromLatin1(accessor) << paramJson(params) << paramJson(outcome);
        };
        const auto value = [](const Json &v) { return Json {{"value", v}}; };
        const Json absent = Json::object();
        const Json nul = std::string("a\0b", 3);

        row("string", "string", {{"p", "x"}}, value("x"));
        row("string empty", "string", {{"p", ""}}, value(""));
        row("string missing", "string", absent, paramError("params.p is required: a string"));
        row("string not a string", "string", {{"p", 1}}, paramError("params.p must be a string, not an integer"));
        row("optionalString", "optionalString", {{"p", "x"}}, value("x"));
        row("optionalString absent", "optionalString", absent, value(nullptr));
        row("optionalString not a string", "optionalString", {{"p", true}},
            paramError("params.p must be a string, not a boolean"));

        row("text", "text", {{"p", "nats"}}, value("nats"));
        row("text missing", "text", absent, paramError("params.p is required: a string"));
        row("text not a string", "text", {{"p", 1.5}}, paramError("params.p must be a string, not a number"));
        row("text empty", "text", {{"p", ""}},
            paramError("params.p must be a non-empty string without NUL characters"));
        row("text with NUL", "text", {{"p", nul}},
            paramError("params.p must be a non-empty string without NUL characters"));
        row("optionalText", "optionalText", {{"p", "x"}}, value("x"));
        row("optionalText absent", "optionalText", absent, value(nullptr));
        row("optionalText empty", "optionalText", {{"p", ""}},
            paramError("params.p must be a non-empty string without NUL characters"));

        row("path", "path", {{"p", "/etc/ccm"}}, value("/etc/ccm"));
        row("path missing", "path", absent, paramError("params.p is required: a string"));
        row("path relative", "path", {{"p", "etc/ccm"}}, paramError("params.p must be an absolute path"));
        row("path empty", "path", {{"p", ""}},
            paramError("params.p must be a non-empty string without NUL characters"));
        row("path not a string", "path", {{"p", Json::array()}}, paramError("params.p must be a string, not a list"));
        row("optionalPath", "optionalPath", {{"p", "/k.pem"}}, value("/k.pem"));
        row("optionalPath absent", "optionalPath", absent, value(nullptr));
        row("optionalPath relative", "optionalPath", {{"p", "k.pem"}}, paramError("params.p must be an absolute path"));

        row("boolean", "boolean", {{"p", false}}, value(false));
        row("boolean missing", "boolean", absent, paramError("params.p is required: a boolean"));
        row("boolean not a boolean", "boolean", {{"p", "true"}},
            paramError("params.p must be a boolean, not a string"));
        row("optionalBoolean", "optionalBoolean", {{"p", true}}, value(true));
        row("optionalBoolean absent", "optionalBoolean", absent, value(nullptr));
        row("optionalBoolean null", "optionalBoolean", {{"p", nullptr}},
            paramError("params.p must be a boolean, not nothing (null)"));
        row("flag", "flag", {{"p", true}}, value(true));
        row("flag absent is false", "flag", absent, value(false));
        row("flag not a boolean", "flag", {{"p", 1}}, paramError("params.p must be a boolean, not an integer"));

        row("optionalInteger", "optionalInteger", {{"p", 5000}}, value(5000));
        row("optionalInteger negative", "optionalInteger", {{"p", -3}}, value(-3));
        row("optionalInteger absent", "optionalInteger", absent, value(nullptr));
        row("optionalInteger a fraction", "optionalInteger", {{"p", 2.5}},
            paramError("params.p must be an integer, not a number"));
        row("optionalInteger a string", "optionalInteger", {{"p", "100"}},
            paramError("params.p must be an integer, not a string"));

        row("optionalObject", "optionalObject", {{"p", {{"site", "lab"}}}}, value({{"site", "lab"}}));
        row("optionalObject absent", "optionalObject", absent, value(nullptr));
        row("optionalObject a list", "optionalObject", {{"p", Json::array()}},
            paramError("params.p must be a map, not a list"));

        row("optionalList", "optionalList", {{"p", {"a", "b"}}}, value({"a", "b"}));
        row("optionalList absent", "optionalList", absent, value(nullptr));
        row("optionalList a map", "optionalList", {{"p", Json::object()}},
            paramError("params.p must be a list, not a map"));
        row("optionalList says what it lists", "optionalList of paths", {{"p", "/a"}},
            paramError("params.p must be a list of paths, not a string"));
    }
    void eachAccessorReadsOrSaysWhatIsWrong()
    {
        QFETCH(QString, accessor);
        QFETCH(QByteArray, params);
        QFETCH(QByteArray, outcome);
        const Json json = Json::parse(params.toStdString());
        const Json read = readParamWith(accessor, Params(json));
        QCOMPARE(QByteArray::fromStdString(read.dump()), outcome);
    }

    /// Another member of the params is no answer for the one asked for.
    void onlyTheNamedMemberCounts()
    {
        const Json json {{"q", "x"}, {"P", "y"}};
        const Params params(json);
        QVERIFY(params.has("q"));
        QVERIFY(!params.has("p"));
        QVERIFY(!params.string("p"));
        QCOMPARE(params.optionalText("p").value(), std::nullopt);
        QCOMPARE(&params.json(), &json);
    }

    void errorsNameTheMemberAndItsPath()
    {
        const protocol::RpcError error = Params::invalid("base_dir", "names no directory: /x");
        QCOMPARE(error.code, protocol::ErrorCode::InvalidParams);
        QCOMPARE(error.message, std::string("params.base_dir names no directory: /x"));
        QCOMPARE(error.data.dump(), std::string(R"({"path":"base_dir"})"));

        const protocol::RpcError nested = Params::invalidAt("items/2/kind", "items[2].kind", "must be a string");
        QCOMPARE(nested.code, protocol::ErrorCode::InvalidParams);
        QCOMPARE(nested.message, std::string("params.items[2].kind must be a string"));
        QCOMPARE(nested.data.dump(), std::string(R"({"path":"items/2/kind"})"));
    }
};

CCM_TEST_APPLESS_MAIN(TestParams)
#include "tst_params.moc"
