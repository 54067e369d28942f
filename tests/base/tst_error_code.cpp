// SPDX-License-Identifier: Apache-2.0
#include "base/error_code.h"
#include "base/file_reading.h"
#include "fleet/nats/nats_errors.h"
#include "test_main.h"

#include <QTest>

#include <set>

using namespace ccm;

namespace {

enum class SampleErrc { First, Second };

/// Whether every enumerator of E up to `last` has a name, and no two share one.
template<ErrorCodeEnum E> bool namedOnceEach(E last)
{
    std::set<std::string_view> names;
    for (int value = 0; value <= static_cast<int>(last); ++value) {
        const std::string_view name = codeName(static_cast<E>(value));
        if (name.empty() || !names.insert(name).second)
            return false;
    }
    return names.size() == ErrorCodeNames<E>::kNames.size();
}

} // namespace

template<> struct ccm::ErrorCodeNames<SampleErrc> {
    static constexpr std::array kNames {
        std::pair {SampleErrc::First, std::string_view("first_code")},
        std::pair {SampleErrc::Second, std::string_view("second_code")},
    };
};

class TestErrorCode : public QObject {
    Q_OBJECT

private slots:
    void anErrorCarriesItsCodesWireName()
    {
        const Error error = makeError(SampleErrc::Second, "what went wrong");
        QCOMPARE(error.code, std::string("second_code"));
        QCOMPARE(error.message, std::string("what went wrong"));
        QVERIFY(hasCode(error, SampleErrc::Second));
        QVERIFY(!hasCode(error, SampleErrc::First));
        static_assert(codeName(SampleErrc::First) == "first_code");
    }

    void theCodeReadsBackOnlyFromItsOwnModule()
    {
        QCOMPARE(errorCodeOf<SampleErrc>(makeError(SampleErrc::First, "")), std::optional(SampleErrc::First));
        QCOMPARE(errorCodeOf<SampleErrc>(Error {"unreachable", ""}), std::nullopt);
        QCOMPARE(errorCodeOf<fleet::NatsErrc>(Error {"unreachable", ""}), std::optional(fleet::NatsErrc::Unreachable));
        // A code another module spells differently is not taken for a near miss.
        QCOMPARE(errorCodeOf<fleet::NatsErrc>(Error {"bucket_notfound", ""}), std::nullopt);
    }

    // The names are what clients, tests and scripts see: they stay as they were before the codes
    // had types.
    void theWireNamesStay()
    {
        QCOMPARE(codeName(fleet::NatsErrc::Unreachable), std::string_view("unreachable"));
        QCOMPARE(codeName(fleet::NatsErrc::AuthFailed), std::string_view("auth_failed"));
        QCOMPARE(codeName(fleet::NatsErrc::NoJetStream), std::string_view("no_jetstream"));
        QCOMPARE(codeName(fleet::NatsErrc::ContextNotFound), std::string_view("context_not_found"));
        QCOMPARE(codeName(fleet::NatsErrc::BucketNotFound), std::string_view("bucket_not_found"));
        QCOMPARE(codeName(fleet::NatsErrc::ObjectNotFound), std::string_view("object_not_found"));
        QCOMPARE(codeName(ReadErrc::NotFound), std::string_view("not_found"));
    }

    void everyCodeHasOneNameOfItsOwn()
    {
        QVERIFY(namedOnceEach(SampleErrc::Second));
        QVERIFY(namedOnceEach(fleet::NatsErrc::BadMeta));
        QVERIFY(namedOnceEach(ReadErrc::Unreadable));
    }

    void aMissingFileSaysNotFound()
    {
        const auto missing = readTextFile("/nonexistent/ccm-error-code-test", 16);
        QVERIFY(!missing);
        QVERIFY(hasCode(missing.error(), ReadErrc::NotFound));
    }
};

CCM_TEST_APPLESS_MAIN(TestErrorCode)
#include "tst_error_code.moc"
