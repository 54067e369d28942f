// SPDX-License-Identifier: Apache-2.0
// LiveData against a backend older than data.resolve and expression.evaluate: it says so and
// carries on.
#include "../support/fake_server.h"
#include "core/model/manifest.h"
#include "designer/core/backend_client.h"
#include "designer/core/live_data.h"
#include "gui_test_support.h"
#include "test_main.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm::designer;
using ccm::Json;
using namespace ccm::test;

namespace {

/// Answers backend.hello and facts.get as an older backend does and every other method with
/// method_not_found.
FakeServer::Script olderBackend()
{
    return [](FakeConnection &peer, QList<QByteArray> &) {
        while (const auto line = peer.readLine()) {
            Json request;
            try {
                request = Json::parse(line->toStdString());
            } catch (const Json::exception &) {
                continue;
            }
            const std::string method = request.value("method", std::string());
            Json reply = {{"jsonrpc", "2.0"}, {"id", request.value("id", Json())}};
            if (method == "backend.hello")
                reply["result"] = {{"server", "ccm-backend"}, {"version", "0.9.0"}, {"protocol", 1},
                    {"role", "preview"}, {"user", "alice"}, {"uid", 1000}};
            else if (method == "facts.get")
                reply["result"] = {{"facts", {{"host", {{"info", {{"hostname", "old"}}}}}}}};
            else
                reply["error"] = {{"code", -32601}, {"message", "method not found: " + method}};
            if (!peer.write(QByteArray::fromStdString(reply.dump() + "\n")))
                return;
        }
    };
}

} // namespace

class TestLiveData : public QObject {
    Q_OBJECT

private slots:
    void olderBackendIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("backend.sock"));
        FakeServer server(path, olderBackend());
        QVERIFY(server.ok());
        BackendClient client;
        client.setSystemSocket(path);
        LiveData live(&client);
        live.setDelay(0);
        live.setManifest(QStringLiteral("data:\n  port: 1\n"), dir.path());
        QSignalSpy resolved(&live, &LiveData::resolved);
        client.connectToBackend();
        QVERIFY(resolved.wait(kPatienceMs));
        QVERIFY2(live.problem().contains(QLatin1String("too old for data.resolve")), qPrintable(live.problem()));
        QVERIFY(!live.hostResolution());
        QTRY_VERIFY_WITH_TIMEOUT(!live.facts().empty(), kPatienceMs);

        std::optional<LiveValue> value;
        live.evaluate(QStringLiteral("expression"), QStringLiteral("1 + 1"), [&](const LiveValue &v) { value = v; });
        QTRY_VERIFY_WITH_TIMEOUT(value.has_value(), kPatienceMs);
        QVERIFY(value->hostFailed);
        QVERIFY2(value->host.contains(QLatin1String("too old for expression.evaluate")), qPrintable(value->host));
    }

    void sectionsSentKeepTheirLines()
    {
        const QString text
            = QStringLiteral("ccm:\n  resources:\n    - file: []\ndata:\n  port: 1\n# note\noverrides: {}\n");
        QCOMPARE(dataSectionsOnly(text), QStringLiteral("ccm:\n\n\ndata:\n  port: 1\n# note\noverrides: {}\n"));
    }

    void manifestWithoutDataStaysAManifest()
    {
        // A new document has no data sections: what is sent must still read as a manifest, or the
        // backend answers "the manifest is empty" and the Problems panel shows it as an error.
        const QString sent = dataSectionsOnly(QStringLiteral("ccm:\n  resources: []\n"));
        QCOMPARE(sent, QStringLiteral("ccm:\n\n"));
        const ccm::LoadedManifest loaded = ccm::loadManifest(sent.toStdString());
        QVERIFY(loaded.parsed);
        for (const ccm::Diagnostic &diagnostic : loaded.diagnostics)
            QVERIFY2(diagnostic.severity != ccm::Severity::Error, diagnostic.message.c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestLiveData)
#include "tst_live_data.moc"
