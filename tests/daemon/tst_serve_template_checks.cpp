// SPDX-License-Identifier: Apache-2.0
// manifest.validate of a real `ccm-backend serve`: a template syntax error and a reference nothing
// declares come back as errors with the line and column of the place inside the string.
#include "daemon_harness.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestServeTemplateChecks : public QObject {
    Q_OBJECT

private slots:
    void validateLocatesTemplateAndReferenceErrors()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const std::string manifest = "data:\n  greeting: hello\nccm:\n  pre_message: \"hi {{ Data.greeting + }}\"\n"
                                     "  resources:\n    - exec:\n        - reload:\n"
                                     "            command: /bin/true\n            require: [exec#relaod]\n";
        const auto reply = client.call("manifest.validate", {{"manifest", manifest}});
        QVERIFY(reply);
        const Json &result = (*reply)["result"];
        QCOMPARE(result.value("valid", true), false);
        const Json &diagnostics = result["diagnostics"];
        QCOMPARE(diagnostics.size(), std::size_t(2));
        QCOMPARE(diagnostics[0].value("severity", ""), std::string("error"));
        QCOMPARE(diagnostics[0].value("message", ""),
            std::string("ccm › pre_message: unexpected end of expression, expected a value"));
        QCOMPARE(diagnostics[0].value("path", ""), std::string("/ccm/pre_message"));
        QCOMPARE(diagnostics[0].value("line", 0), 4);
        QCOMPARE(diagnostics[0].value("column", 0), 39);
        QCOMPARE(diagnostics[1].value("severity", ""), std::string("error"));
        QCOMPARE(diagnostics[1].value("message", ""),
            std::string("exec#reload: require refers to exec#relaod, which no resource of this manifest declares"));
        QCOMPARE(diagnostics[1].value("line", 0), 9);
        QCOMPARE(diagnostics[1].value("column", 0), 23);
    }
};

CCM_TEST_GUILESS_MAIN(TestServeTemplateChecks)
#include "tst_serve_template_checks.moc"
