// SPDX-License-Identifier: Apache-2.0
// The ensure states and the names manifests and events spell them with.
#include "core/model/ensure.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;

class TestEnsure : public QObject {
    Q_OBJECT

private slots:
    void everyStateHasItsName_data()
    {
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("name");
        QTest::newRow("present") << int(Ensure::Present) << QStringLiteral("present");
        QTest::newRow("absent") << int(Ensure::Absent) << QStringLiteral("absent");
        QTest::newRow("directory") << int(Ensure::Directory) << QStringLiteral("directory");
        QTest::newRow("latest") << int(Ensure::Latest) << QStringLiteral("latest");
        QTest::newRow("running") << int(Ensure::Running) << QStringLiteral("running");
        QTest::newRow("stopped") << int(Ensure::Stopped) << QStringLiteral("stopped");
    }

    void everyStateHasItsName()
    {
        QFETCH(int, state);
        QFETCH(QString, name);
        const auto ensure = static_cast<Ensure>(state);
        QCOMPARE(QString::fromStdString(ensureText(ensure)), name);
        QCOMPARE(parseEnsure(name.toStdString()), std::optional<Ensure>(ensure));
    }

    void otherTextNamesNoState_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("a version") << QStringLiteral("1.2.3-1");
        QTest::newRow("capitalised") << QStringLiteral("Present");
        QTest::newRow("padded") << QStringLiteral(" present");
        QTest::newRow("empty") << QString();
        QTest::newRow("a template") << QStringLiteral("{{ Data.state }}");
    }

    void otherTextNamesNoState()
    {
        QFETCH(QString, text);
        QVERIFY(!parseEnsure(text.toStdString()).has_value());
    }

    void namesAreKnownAtCompileTime()
    {
        static_assert(ensureName(Ensure::Absent) == "absent");
        static_assert(parseEnsure("directory") == Ensure::Directory);
        QVERIFY(true);
    }
};

CCM_TEST_APPLESS_MAIN(TestEnsure)
#include "tst_ensure.moc"
