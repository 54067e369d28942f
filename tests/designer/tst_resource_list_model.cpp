// SPDX-License-Identifier: Apache-2.0
#include "designer/core/resource_list_model.h"
#include "test_main.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QMimeData>
#include <QTest>
#include <QUndoStack>

#include <memory>

using ccm::designer::EntryRef;
using ccm::designer::ManifestDocument;
using ccm::designer::ResourceListModel;

namespace {

const char *const kListedManifest = R"(ccm:
  resources:
    - package:
        - nginx:
            ensure: present
        - defaults:
            ensure: latest
        - curl: {}
    - file:
        - /etc/motd:
            ensure: present
            owner: root
            group: root
            mode: "rwx"
    - package:
        - vim:
            ensure: present
)";

std::unique_ptr<QMimeData> paletteData(const char *type)
{
    auto data = std::make_unique<QMimeData>();
    data->setData(ResourceListModel::paletteMimeType(), type);
    return data;
}

} // namespace

class TestResourceListModel : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_document = std::make_unique<ManifestDocument>();
        m_document->setText(QString::fromUtf8(kListedManifest));
        m_model = std::make_unique<ResourceListModel>(m_document.get());
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void cleanup()
    {
        m_tester.reset();
        m_model.reset();
        m_document.reset();
    }

    void structureAndRoles()
    {
        QCOMPARE(m_model->rowCount(), 3);
        const QModelIndex packages = m_model->index(0, 0);
        QCOMPARE(packages.data().toString(), QStringLiteral("package"));
        QCOMPARE(packages.data(ResourceListModel::CountRole).toInt(), 3);
        QVERIFY(packages.data(ResourceListModel::IsBlockRole).toBool());
        QVERIFY(!packages.data(Qt::DecorationRole).value<QIcon>().isNull()
            || packages.data(Qt::DecorationRole).canConvert<QIcon>());
        QCOMPARE(m_model->rowCount(packages), 3);
        // The defaults entry comes first whatever its place in the text.
        const QModelIndex defaults = m_model->index(0, 0, packages);
        QCOMPARE(defaults.data().toString(), QStringLiteral("defaults"));
        QVERIFY(defaults.data(ResourceListModel::IsDefaultsRole).toBool());
        QCOMPARE(m_model->entryAt(defaults), (EntryRef {0, 1}));
        const QModelIndex nginx = m_model->index(1, 0, packages);
        QCOMPARE(nginx.data().toString(), QStringLiteral("package#nginx"));
        QCOMPARE(nginx.data(ResourceListModel::NameRole).toString(), QStringLiteral("nginx"));
        QCOMPARE(nginx.data(ResourceListModel::EntryRole).toInt(), 0);
        QCOMPARE(m_model->indexFor({0, 0}), nginx);
        QCOMPARE(m_model->indexFor({0, 1}), defaults);
        QVERIFY(!m_model->indexFor({7, 0}).isValid());
        QCOMPARE(m_model->parent(nginx), packages);
        QCOMPARE(m_model->indexForBlock(2).data(ResourceListModel::TypeRole).toString(), QStringLiteral("package"));
    }

    void statusFromDiagnostics()
    {
        const QModelIndex motd = m_model->indexFor({1, 0});
        QCOMPARE(motd.data(ResourceListModel::StatusRole).toInt(), int(ResourceListModel::Error));
        QVERIFY(!motd.data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(m_model->indexForBlock(1).data(ResourceListModel::StatusRole).toInt(), int(ResourceListModel::Error));
        const QModelIndex nginx = m_model->indexFor({0, 0});
        QCOMPARE(nginx.data(ResourceListModel::StatusRole).toInt(), int(ResourceListModel::Valid));
        QVERIFY(nginx.data(Qt::ToolTipRole).toString().isEmpty());
        m_document->setProperty({1, 0}, "mode", "0644");
        QCOMPARE(m_model->indexFor({1, 0}).data(ResourceListModel::StatusRole).toInt(), int(ResourceListModel::Valid));
        m_document->setProperty({0, 0}, "ensure", "");
        QVERIFY(m_model->indexFor({0, 0}).data(ResourceListModel::StatusRole).toInt() != int(ResourceListModel::Valid));
    }

    void outcomes()
    {
        m_model->setOutcome(QStringLiteral("package#curl"), QStringLiteral("create"));
        QCOMPARE(m_model->indexFor({0, 2}).data(ResourceListModel::OutcomeRole).toString(), QStringLiteral("create"));
        QVERIFY(m_model->indexFor({0, 0}).data(ResourceListModel::OutcomeRole).toString().isEmpty());
        m_model->clearOutcomes();
        QVERIFY(m_model->indexFor({0, 2}).data(ResourceListModel::OutcomeRole).toString().isEmpty());
    }

    void dragEntryWithinBlock()
    {
        const QModelIndex curl = m_model->indexFor({0, 2});
        std::unique_ptr<QMimeData> data(m_model->mimeData({curl}));
        QVERIFY(data);
        QVERIFY(data->hasFormat(ResourceListModel::itemMimeType()));
        // Dropped before nginx (view row 1 under the block).
        QVERIFY(m_model->dropMimeData(data.get(), Qt::MoveAction, 1, 0, m_model->index(0, 0)));
        QCOMPARE(QString::fromStdString(m_document->blocks()[0].entries[0].name), QStringLiteral("curl"));
        QCOMPARE(m_model->index(1, 0, m_model->index(0, 0)).data().toString(), QStringLiteral("package#curl"));
        QCOMPARE(m_document->undoStack()->count(), 2);
    }

    void dragEntryAcrossBlocks()
    {
        std::unique_ptr<QMimeData> data(m_model->mimeData({m_model->indexFor({2, 0})}));
        // Another type's block refuses.
        QVERIFY(!m_model->canDropMimeData(data.get(), Qt::MoveAction, -1, 0, m_model->index(1, 0)));
        QVERIFY(!m_model->dropMimeData(data.get(), Qt::MoveAction, -1, 0, m_model->index(1, 0)));
        // Dropped onto curl: before it.
        QVERIFY(m_model->dropMimeData(data.get(), Qt::MoveAction, -1, 0, m_model->indexFor({0, 2})));
        QCOMPARE(m_document->blocks().size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(m_document->blocks()[0].entries[2].name), QStringLiteral("vim"));
        // The defaults entry cannot join a block that has one.
        m_document->addDefaults(1);
        std::unique_ptr<QMimeData> defaults(m_model->mimeData({m_model->indexFor({0, 1})}));
        QVERIFY(!m_model->canDropMimeData(defaults.get(), Qt::MoveAction, -1, 0, m_model->index(1, 0)));
    }

    void dragBlock()
    {
        std::unique_ptr<QMimeData> data(m_model->mimeData({m_model->index(1, 0)}));
        QVERIFY(m_model->dropMimeData(data.get(), Qt::MoveAction, 0, 0, {}));
        QCOMPARE(m_model->index(0, 0).data().toString(), QStringLiteral("file"));
        QVERIFY(!m_model->canDropMimeData(data.get(), Qt::MoveAction, -1, 0, m_model->indexFor({0, 0})));
    }

    void dropFromPalette()
    {
        auto service = paletteData("service");
        QVERIFY(m_model->dropMimeData(service.get(), Qt::CopyAction, -1, 0, {}));
        QCOMPARE(m_model->rowCount(), 4);
        QCOMPARE(m_model->index(3, 0).data().toString(), QStringLiteral("service"));
        auto package = paletteData("package");
        QVERIFY(m_model->dropMimeData(package.get(), Qt::CopyAction, 1, 0, m_model->index(0, 0)));
        QCOMPARE(m_model->rowCount(m_model->index(0, 0)), 4);
        // View row 1 is nginx, the block's first entry: the new one goes before it.
        QCOMPARE(QString::fromStdString(m_document->blocks()[0].entries[0].name), QStringLiteral("new-package"));
        auto bogus = paletteData("teapot");
        QVERIFY(!m_model->canDropMimeData(bogus.get(), Qt::CopyAction, -1, 0, {}));
        QMimeData junk;
        junk.setData(ResourceListModel::itemMimeType(), "x y z");
        QVERIFY(!m_model->dropMimeData(&junk, Qt::MoveAction, -1, 0, m_model->index(0, 0)));
    }

    void largeDocument()
    {
        QString text = QStringLiteral("ccm:\n  resources:\n    - package:\n");
        for (int i = 0; i < 2000; ++i)
            text += QStringLiteral("        - p%1:\n            ensure: present\n").arg(i);
        m_document->setText(text);
        QCOMPARE(m_model->rowCount(m_model->index(0, 0)), 2000);
        QCOMPARE(m_model->indexFor({0, 1999}).data().toString(), QStringLiteral("package#p1999"));
    }

private:
    std::unique_ptr<ManifestDocument> m_document;
    std::unique_ptr<ResourceListModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

CCM_TEST_MAIN(TestResourceListModel)
#include "tst_resource_list_model.moc"
