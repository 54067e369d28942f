// SPDX-License-Identifier: Apache-2.0
// How the typed errors of the fleet library reach a client: each NATS and object store code, each
// signing key code and a missing local file has the JSON-RPC error code, message and data the
// fleet and bundle methods answer with. The tables name every code, so a code placed elsewhere in
// the mapping fails here.
#include "base/file_reading.h"
#include "base/signing_key.h"
#include "daemon/fleet_errors.h"
#include "fleet/nats/nats_errors.h"
#include "test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace ccm;
using namespace ccm::daemon;
using protocol::ErrorCode;

namespace {

/// The JSON-RPC code of each NATS code, written out.
const std::map<fleet::NatsErrc, ErrorCode> kNatsRpcCodes {
    {fleet::NatsErrc::Unreachable, ErrorCode::Unreachable},
    {fleet::NatsErrc::AuthFailed, ErrorCode::AuthFailed},
    {fleet::NatsErrc::TlsFailed, ErrorCode::TransferFailed},
    {fleet::NatsErrc::NoJetStream, ErrorCode::NoJetStream},
    {fleet::NatsErrc::Nats, ErrorCode::TransferFailed},
    {fleet::NatsErrc::ContextNotFound, ErrorCode::NotFound},
    {fleet::NatsErrc::BucketNotFound, ErrorCode::NotFound},
    {fleet::NatsErrc::KeyNotFound, ErrorCode::NotFound},
    {fleet::NatsErrc::ObjectNotFound, ErrorCode::NotFound},
    {fleet::NatsErrc::DigestMismatch, ErrorCode::TransferFailed},
    {fleet::NatsErrc::SizeMismatch, ErrorCode::TransferFailed},
    {fleet::NatsErrc::BadMeta, ErrorCode::TransferFailed},
    {fleet::NatsErrc::BadName, ErrorCode::TransferFailed},
    {fleet::NatsErrc::Exists, ErrorCode::TransferFailed},
    {fleet::NatsErrc::Changed, ErrorCode::TransferFailed},
};

/// error.data of an answer, compact.
std::string fleetErrorData(const protocol::RpcError &error)
{
    return error.data.dump();
}

} // namespace

class TestFleetErrors : public QObject {
    Q_OBJECT

private slots:
    void eachNatsCodeHasItsRpcCode()
    {
        QCOMPARE(kNatsRpcCodes.size(), ErrorCodeNames<fleet::NatsErrc>::kNames.size());
        for (const auto &[code, name] : ErrorCodeNames<fleet::NatsErrc>::kNames) {
            const auto expected = kNatsRpcCodes.find(code);
            QVERIFY2(expected != kNatsRpcCodes.end(), name.data());
            const Error error = makeError(code, "what NATS said");
            QVERIFY2(fleetErrorCode(error) == expected->second, name.data());
            const protocol::RpcError answer = fleetError(error);
            QVERIFY2(answer.code == expected->second, name.data());
            QCOMPARE(answer.message, std::string("what NATS said"));
            QCOMPARE(fleetErrorData(answer), (Json {{"cause", std::string(name)}}.dump()));
        }
    }

    void otherCodesAreNotFoundOrTransferFailed()
    {
        QCOMPARE(fleetErrorCode(makeError(ReadErrc::NotFound, "")), ErrorCode::NotFound);
        QCOMPARE(fleetErrorCode(makeError(ReadErrc::TooLarge, "")), ErrorCode::TransferFailed);
        QCOMPARE(fleetErrorCode(makeError(ReadErrc::Unreadable, "")), ErrorCode::TransferFailed);
        QCOMPARE(fleetErrorCode(Error {"http_status", ""}), ErrorCode::TransferFailed);
        // Context on the way up keeps the code.
        QCOMPARE(fleetErrorCode(makeError(fleet::NatsErrc::Unreachable, "x").withContext("reading CCM_STATUS")),
            ErrorCode::Unreachable);
    }

    void aBucketNameTheStoreRefusesIsInvalidParams()
    {
        const protocol::RpcError refused = bucketError(makeError(fleet::NatsErrc::BadName, "invalid bucket name"));
        QCOMPARE(refused.code, ErrorCode::InvalidParams);
        QCOMPARE(refused.message, std::string("params.bucket may hold only letters, digits, '-' and '_'"));
        QCOMPARE(fleetErrorData(refused), std::string(R"({"path":"bucket"})"));

        const protocol::RpcError missing = bucketError(makeError(fleet::NatsErrc::NoJetStream, "no JetStream"));
        QCOMPARE(missing.code, ErrorCode::NoJetStream);
        QCOMPARE(fleetErrorData(missing), std::string(R"({"cause":"no_jetstream"})"));
    }

    void eachSigningCodeHasItsRpcError_data()
    {
        QTest::addColumn<int>("signing");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("data");
        const auto row = [](const char *name, SigningErrc signing, ErrorCode code, const char *message,
                             const char *data) {
            QTest::newRow(name) << int(signing) << int(code) << QString::fromUtf8(message) << QString::fromUtf8(data);
        };
        row("exists: on params.overwrite", SigningErrc::Exists, ErrorCode::InvalidParams,
            "/k.pem: the file exists; send overwrite: true to replace it", R"({"path":"overwrite","cause":"exists"})");
        row("crypto: an internal error", SigningErrc::Crypto, ErrorCode::InternalError,
            "/k.pem: the file exists; use --force to replace it", R"({"cause":"crypto"})");
        row("key_not_found: on the param", SigningErrc::KeyNotFound, ErrorCode::InvalidParams,
            "/k.pem: the file exists; use --force to replace it", R"({"path":"key","cause":"key_not_found"})");
        row("io: on the param", SigningErrc::Io, ErrorCode::InvalidParams,
            "/k.pem: the file exists; use --force to replace it", R"({"path":"key","cause":"io"})");
        row("bad_key: on the param", SigningErrc::BadKey, ErrorCode::InvalidParams,
            "/k.pem: the file exists; use --force to replace it", R"({"path":"key","cause":"bad_key"})");
    }
    void eachSigningCodeHasItsRpcError()
    {
        QFETCH(int, signing);
        QFETCH(int, code);
        QFETCH(QString, message);
        QFETCH(QString, data);
        // One message for all: only `exists` rewrites it, for a client that sends no --force.
        const Error error
            = makeError(static_cast<SigningErrc>(signing), "/k.pem: the file exists; use --force to replace it");
        const protocol::RpcError answer = keyError("key", error);
        QCOMPARE(int(answer.code), code);
        QCOMPARE(QString::fromStdString(answer.message), message);
        QCOMPARE(QString::fromStdString(fleetErrorData(answer)), data);
    }

    /// A code added to SigningErrc needs its row above.
    void theTableHoldsEverySigningCode() { QCOMPARE(ErrorCodeNames<SigningErrc>::kNames.size(), std::size_t(5)); }

    /// The errors the signing functions really make reach the client as the table says.
    void realKeyErrorsNameTheirParam()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string privatePath = dir.filePath(QStringLiteral("k.pem")).toStdString();
        const std::string publicPath = dir.filePath(QStringLiteral("k.pub.pem")).toStdString();

        const auto missing = loadPrivateKey(privatePath);
        QVERIFY(!missing);
        const protocol::RpcError notFound = keyError("key", missing.error());
        QCOMPARE(notFound.code, ErrorCode::InvalidParams);
        QCOMPARE(fleetErrorData(notFound), std::string(R"({"path":"key","cause":"key_not_found"})"));

        const auto key = generateSigningKey();
        QVERIFY(key);
        QVERIFY(writeKeyPair(*key, privatePath, publicPath, false));
        const auto again = writeKeyPair(*key, privatePath, publicPath, false);
        QVERIFY(!again);
        QVERIFY(hasCode(again.error(), SigningErrc::Exists));
        const protocol::RpcError exists = keyError("private", again.error());
        QCOMPARE(exists.code, ErrorCode::InvalidParams);
        QCOMPARE(exists.message, privatePath + ": the file exists; send overwrite: true to replace it");
        QCOMPARE(fleetErrorData(exists), std::string(R"({"path":"overwrite","cause":"exists"})"));
    }

    /// A code of no signing function (another module's) is still an error on the param.
    void anotherModulesCodeIsOnTheParam()
    {
        const protocol::RpcError answer = keyError("private", Error {"http_status", "404"});
        QCOMPARE(answer.code, ErrorCode::InvalidParams);
        QCOMPARE(fleetErrorData(answer), std::string(R"({"path":"private","cause":"http_status"})"));
    }
};

CCM_TEST_APPLESS_MAIN(TestFleetErrors)
#include "tst_fleet_errors.moc"
