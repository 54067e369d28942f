// SPDX-License-Identifier: Apache-2.0
// The notice of a fleet preview no host answered, as the designer's matrix model keeps and shows it.
#include "designer/core/fleet_preview_model.h"
#include "test_main.h"

#include <QTest>

using ccm::Json;
using ccm::designer::FleetHostState;
using ccm::designer::FleetPreviewModel;

class TestFleetPreviewNotice : public QObject {
    Q_OBJECT

private slots:
    void silentFleetShowsTheNotice()
    {
        // A result as fleet.preview sends it when no agent trusts the key.
        const std::string notice
            = "none of the 2 agents CCM_STATUS lists as alive answered within 2s. The likely "
              "reason: none trusts the key that signed the request (fingerprint 3f9a0c2e81b7d465).";
        const std::string hostMessage
            = "no answer: this agent may not trust the signing key (fingerprint 3f9a0c2e81b7d465)";
        const Json result {{"request", "r1"},
            {"hosts",
                Json::array({Json {{"identity", "web-1"}, {"state", "silent"}, {"message", hostMessage}},
                    Json {{"identity", "web-2"}, {"state", "silent"}, {"message", hostMessage}}})},
            {"totals",
                Json {{"hosts", 2}, {"answered", 0}, {"silent", 2}, {"declined", 0}, {"failed", 0}, {"changed", 0},
                    {"resources_failed", 0}}},
            {"notice", notice}};
        FleetPreviewModel model;
        model.setResult(result);
        model.flush();
        QCOMPARE(model.notice(), QString::fromStdString(notice));
        QCOMPARE(model.countIn(FleetHostState::Silent), 2);
        const QModelIndex totals = model.index(FleetPreviewModel::kTotalsRow, FleetPreviewModel::StateColumn);
        QCOMPARE(model.data(totals, Qt::ToolTipRole).toString(), QString::fromStdString(notice));
        const QModelIndex host = model.index(model.rowOf(QStringLiteral("web-1")), FleetPreviewModel::StateColumn);
        QCOMPARE(model.data(host, Qt::ToolTipRole).toString(), QString::fromStdString(hostMessage));

        // A new preview forgets it; one where hosts answered has none.
        model.clear();
        QCOMPARE(model.notice(), QString());
        model.setResult(Json {{"request", "r2"},
            {"hosts", Json::array({Json {{"identity", "web-1"}, {"state", "done"}}})}, {"totals", Json::object()}});
        model.flush();
        QCOMPARE(model.notice(), QString());
        QVERIFY(model.data(model.index(FleetPreviewModel::kTotalsRow, FleetPreviewModel::StateColumn), Qt::ToolTipRole)
                    .isNull());
    }
};

CCM_TEST_GUILESS_MAIN(TestFleetPreviewNotice)
#include "tst_fleet_preview_notice.moc"
