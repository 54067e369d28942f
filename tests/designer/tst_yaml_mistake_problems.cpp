// SPDX-License-Identifier: Apache-2.0
// A YAML mistake typed in the designer: its document reports the same plain words, at the same
// line and column, as `ccm-backend validate`.
#include "designer/core/manifest_document.h"
#include "test_main.h"

#include <QTest>

using ccm::designer::ManifestDocument;

class TestYamlMistakeProblems : public QObject {
    Q_OBJECT

private slots:
    void mistakeIsReportedWhereItIs()
    {
        ManifestDocument document;
        const QString valid
            = QStringLiteral("ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            owner: root\n"
                             "            ensure: present\n            group: root\n            mode: \"0644\"\n");
        document.setText(valid);
        QVERIFY(document.loaded().parsed);

        QString broken = valid;
        broken.replace(QStringLiteral("            ensure"), QStringLiteral("           ensure"));
        document.setText(broken);
        QVERIFY(!document.loaded().parsed);
        QCOMPARE(document.diagnostics().size(), std::size_t(1));
        const ccm::Diagnostic &problem = document.diagnostics().front();
        QCOMPARE(QString::fromStdString(problem.message),
            QStringLiteral("invalid YAML: `ensure` is indented 11 spaces but its siblings 12 (`owner` on line 5)"));
        QCOMPARE(problem.position, (ccm::SourcePosition {6, 12}));
    }
};

CCM_TEST_GUILESS_MAIN(TestYamlMistakeProblems)
#include "tst_yaml_mistake_problems.moc"
