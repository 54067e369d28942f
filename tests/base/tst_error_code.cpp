// SPDX-License-Identifier: Apache-2.0
#include "base/error_code.h"
#include "base/file_reading.h"
#include "base/signing_key.h"
#include "core/bundle/bundle_signature.h"
#include "daemon/client/rpc_client.h"
#include "fleet/agent/agent_worker.h"
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
        QCOMPARE(codeName(fleet::NatsErrc::BadName), std::string_view("bad_name"));
        QCOMPARE(codeName(fleet::NatsErrc::Exists), std::string_view("exists"));
        QCOMPARE(codeName(fleet::NatsErrc::Changed), std::string_view("changed"));
        QCOMPARE(codeName(BundleSignatureErrc::Unsigned), std::string_view("unsigned"));
        QCOMPARE(codeName(BundleSignatureErrc::Untrusted), std::string_view("untrusted_signer"));
        QCOMPARE(codeName(BundleSignatureErrc::Invalid), std::string_view("invalid_signature"));
        QCOMPARE(codeName(ReadErrc::NotFound), std::string_view("not_found"));
        QCOMPARE(codeName(SigningErrc::KeyNotFound), std::string_view("key_not_found"));
        QCOMPARE(codeName(SigningErrc::Io), std::string_view("io"));
        QCOMPARE(codeName(SigningErrc::BadKey), std::string_view("bad_key"));
        QCOMPARE(codeName(SigningErrc::Exists), std::string_view("exists"));
        QCOMPARE(codeName(SigningErrc::Crypto), std::string_view("crypto"));
        QCOMPARE(codeName(RpcClientErrc::ConnectFailed), std::string_view("connect_failed"));
        QCOMPARE(codeName(RpcClientErrc::Closed), std::string_view("closed"));
        QCOMPARE(codeName(RpcClientErrc::TooLarge), std::string_view("too_large"));
        QCOMPARE(codeName(RpcClientErrc::InvalidMessage), std::string_view("invalid_message"));
        QCOMPARE(codeName(RpcClientErrc::Timeout), std::string_view("timeout"));
        QCOMPARE(codeName(RpcClientErrc::Interrupted), std::string_view("interrupted"));
        QCOMPARE(codeName(RpcClientErrc::IoError), std::string_view("io_error"));
        QCOMPARE(codeName(RpcClientErrc::InvalidRequest), std::string_view("invalid_request"));
        QCOMPARE(codeName(fleet::ManifestRunErrc::ExternalData), std::string_view("external_data"));
        QCOMPARE(codeName(fleet::ManifestRunErrc::Invalid), std::string_view("invalid"));
    }

    void everyCodeHasOneNameOfItsOwn()
    {
        QVERIFY(namedOnceEach(SampleErrc::Second));
        QVERIFY(namedOnceEach(fleet::NatsErrc::Changed));
        QVERIFY(namedOnceEach(BundleSignatureErrc::Invalid));
        QVERIFY(namedOnceEach(ReadErrc::Unreadable));
        QVERIFY(namedOnceEach(SigningErrc::Crypto));
        QVERIFY(namedOnceEach(RpcClientErrc::InvalidRequest));
        QVERIFY(namedOnceEach(fleet::ManifestRunErrc::Invalid));
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
