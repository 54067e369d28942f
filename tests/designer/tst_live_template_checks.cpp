// SPDX-License-Identifier: Apache-2.0
// A template syntax error or a reference nothing satisfies, typed in the designer: its document
// reports it as an error at the same line and column, in the same words, as `ccm-backend validate`.
#include "designer/core/manifest_document.h"
#include "test_main.h"

#include <QTest>

using ccm::designer::ManifestDocument;

namespace {

const QString kValid
    = QStringLiteral("data:\n  greeting: hello\nccm:\n  resources:\n    - file:\n        - /tmp/motd:\n"
                     "            ensure: present\n            owner: root\n            group: root\n"
                     "            mode: \"0644\"\n            content: |\n              first line\n"
                     "              say {{ Data.greeting }}\n    - exec:\n        - reload:\n"
                     "            command: /bin/true\n            subscribe: [file#/tmp/motd]\n");

} // namespace

class TestLiveTemplateChecks : public QObject {
    Q_OBJECT

private slots:
    void templateErrorInBlockContent()
    {
        ManifestDocument document;
        document.setText(kValid);
        QVERIFY(document.diagnostics().empty());

        QString broken = kValid;
        broken.replace(QStringLiteral("{{ Data.greeting }}"), QStringLiteral("{{ Data.greeting + }}"));
        document.setText(broken);
        QCOMPARE(document.diagnostics().size(), std::size_t(1));
        const ccm::Diagnostic &problem = document.diagnostics().front();
        QCOMPARE(problem.severity, ccm::Severity::Error);
        QCOMPARE(QString::fromStdString(problem.message),
            QStringLiteral("file /tmp/motd › content: unexpected end of expression, expected a value"));
        QCOMPARE(QString::fromStdString(problem.path), QStringLiteral("/ccm/resources/0/file/0/~1tmp~1motd/content"));
        QCOMPARE(problem.position, (ccm::SourcePosition {13, 38}));
    }

    void unsatisfiedSubscribe()
    {
        ManifestDocument document;
        QString broken = kValid;
        broken.replace(QStringLiteral("[file#/tmp/motd]"), QStringLiteral("[file#/tmp/mtod]"));
        document.setText(broken);
        QCOMPARE(document.diagnostics().size(), std::size_t(1));
        const ccm::Diagnostic &problem = document.diagnostics().front();
        QCOMPARE(problem.severity, ccm::Severity::Error);
        QCOMPARE(QString::fromStdString(problem.message),
            QStringLiteral("exec#reload: subscribe refers to file#/tmp/mtod, which no resource of this manifest "
                           "declares; did you mean 'file#/tmp/motd'?"));
        QCOMPARE(problem.position, (ccm::SourcePosition {17, 25}));
    }
};

CCM_TEST_GUILESS_MAIN(TestLiveTemplateChecks)
#include "tst_live_template_checks.moc"
