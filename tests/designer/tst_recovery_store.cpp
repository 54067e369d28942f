// SPDX-License-Identifier: Apache-2.0
#include "designer/core/recovery_store.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using ccm::designer::RecoveryStore;

class TestRecoveryStore : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // Test mode puts the locations under the home directory: keep it inside the test.
        qputenv("HOME", QFile::encodeName(m_home.path()));
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_home.path()));
        QStandardPaths::setTestModeEnabled(true);
    }

    void defaultDirectoryIsUnderAppData()
    {
        const QString dir = RecoveryStore::defaultDirectory();
        QVERIFY(dir.endsWith(QLatin1String("/recovery")));
        QVERIFY(dir.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)));
        QVERIFY(dir.startsWith(m_home.path()));
    }

    void pathsAreStableAndDistinct()
    {
        RecoveryStore store(m_home.filePath(QStringLiteral("r")));
        const QString a = store.recoveryPathFor(QStringLiteral("/etc/a.yaml"));
        QCOMPARE(store.recoveryPathFor(QStringLiteral("/etc/a.yaml")), a);
        QVERIFY(a.startsWith(store.directory() + QLatin1Char('/')));
        QVERIFY(store.recoveryPathFor(QStringLiteral("/etc/b.yaml")) != a);
        const QString key1 = RecoveryStore::newUntitledKey();
        const QString key2 = RecoveryStore::newUntitledKey();
        QVERIFY(key1 != key2);
        QVERIFY(store.recoveryPathFor({}, key1) != store.recoveryPathFor({}, key2));
    }

    void writeListReadRemove()
    {
        // Copies list newest first: the clock sets which one that is.
        const QDateTime first = QDateTime::fromString(QStringLiteral("2026-03-01T10:00:00.000Z"), Qt::ISODateWithMs);
        QDateTime now = first;
        RecoveryStore store(RecoveryStore::defaultDirectory(), [&now] { return now; });
        QVERIFY(store.list().isEmpty());
        QString error;
        const QString named = store.recoveryPathFor(QStringLiteral("/srv/site.yaml"));
        QVERIFY2(store.write(named, QStringLiteral("/srv/site.yaml"), QStringLiteral("ccm: {}\n# ä\n"), &error),
            qPrintable(error));
        now = now.addSecs(1);
        const QString untitled = store.recoveryPathFor({}, RecoveryStore::newUntitledKey());
        QVERIFY(store.write(untitled, {}, QStringLiteral("data: {}\n"), &error));
        QVERIFY(QFile::exists(named));
        // Not a copy: skipped by list().
        QFile junk(store.directory() + QStringLiteral("/junk.ccm-recovery"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("{not json");
        junk.close();

        const auto copies = store.list();
        QCOMPARE(copies.size(), 2);
        QCOMPARE(copies[0].recoveryPath, untitled);
        QVERIFY(copies[0].originalPath.isEmpty());
        QCOMPARE(copies[1].originalPath, QStringLiteral("/srv/site.yaml"));
        QVERIFY(copies[1].savedAt.isValid());
        QCOMPARE(copies[1].savedAt, first);
        QCOMPARE(copies[0].savedAt, first.addSecs(1));
        QVERIFY(copies[1].text.isEmpty());

        const auto copy = store.read(named, &error);
        QVERIFY(copy);
        QCOMPARE(copy->text, QStringLiteral("ccm: {}\n# ä\n"));
        QVERIFY(!store.read(junk.fileName(), &error));
        QVERIFY(error.contains(QStringLiteral("junk")));
        QVERIFY(!store.read(store.directory() + QStringLiteral("/missing.ccm-recovery"), &error));

        QVERIFY(store.remove(named));
        QVERIFY(!QFile::exists(named));
        QVERIFY(store.remove(named));
        QCOMPARE(store.list().size(), 1);
    }

    void writeFailsWhereNoDirectoryCanBe()
    {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        RecoveryStore store(blocker.fileName() + QStringLiteral("/recovery"));
        QString error;
        QVERIFY(!store.write(
            store.recoveryPathFor(QStringLiteral("/a.yaml")), QStringLiteral("/a.yaml"), QStringLiteral("x"), &error));
        QVERIFY(!error.isEmpty());
    }

private:
    QTemporaryDir m_home;
};

CCM_TEST_GUILESS_MAIN(TestRecoveryStore)
#include "tst_recovery_store.moc"
