// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/resource_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

class NamedProvider : public Provider {
public:
    [[nodiscard]] std::string_view name() const override { return "posix"; }
};

} // namespace

class TestResourceSupport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void joinedParts_data()
    {
        QTest::addColumn<QStringList>("parts");
        QTest::addColumn<QString>("text");
        QTest::newRow("none") << QStringList() << QString();
        QTest::newRow("one") << QStringList {QStringLiteral("mode 0600 -> 0644")}
                             << QStringLiteral("mode 0600 -> 0644");
        QTest::newRow("several") << QStringList {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}
                                 << QStringLiteral("a, b, c");
    }

    void joinedParts()
    {
        QFETCH(QStringList, parts);
        QFETCH(QString, text);
        std::vector<std::string> words;
        for (const QString &part : parts)
            words.push_back(part.toStdString());
        QCOMPARE(q(ccm::joined(words)), text);
    }

    void isSetTreatsNullAsUnset_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<bool>("set");
        QTest::newRow("missing") << QStringLiteral(R"({"other":1})") << false;
        QTest::newRow("null") << QStringLiteral(R"({"key":null})") << false;
        QTest::newRow("empty string") << QStringLiteral(R"({"key":""})") << true;
        QTest::newRow("false") << QStringLiteral(R"({"key":false})") << true;
    }

    void isSetTreatsNullAsUnset()
    {
        QFETCH(QString, json);
        QFETCH(bool, set);
        QCOMPARE(isSet(Json::parse(json.toStdString()), "key"), set);
    }

    void errors()
    {
        const Error invalid = invalidProperty("mode must be a string");
        QCOMPARE(q(invalid.code), QStringLiteral("invalid_property"));
        QCOMPARE(q(invalid.message), QStringLiteral("mode must be a string"));

        const Error notAchieved = desiredStateNotAchieved("mode 0600 -> 0644");
        QCOMPARE(q(notAchieved.code), QStringLiteral("desired_state_not_achieved"));
        QCOMPARE(q(notAchieved.message), QStringLiteral("desired state not achieved: mode 0600 -> 0644"));

        NamedProvider provider;
        const Error wrong = wrongProvider(provider, "a package provider");
        QCOMPARE(q(wrong.code), QStringLiteral("wrong_provider"));
        QCOMPARE(q(wrong.message), QStringLiteral("provider 'posix' is not a package provider"));
    }
};

CCM_TEST_GUILESS_MAIN(TestResourceSupport)
#include "tst_resource_support.moc"
