// SPDX-License-Identifier: Apache-2.0
// The NATS CLI contexts the designer offers: where they are looked for and which are listed.
#include "designer/core/nats_contexts.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm::designer;

class TestNatsContexts : public QObject {
    Q_OBJECT

private slots:
    void directory_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("home");
        QTest::addColumn<QString>("expected");
        QTest::newRow("XDG_CONFIG_HOME") << QStringLiteral("/x/config") << QStringLiteral("/home/a")
                                         << QStringLiteral("/x/config/nats/context");
        QTest::newRow("HOME") << QString() << QStringLiteral("/home/a")
                              << QStringLiteral("/home/a/.config/nats/context");
    }

    void directory()
    {
        QFETCH(QString, config);
        QFETCH(QString, home);
        QFETCH(QString, expected);
        QProcessEnvironment environment;
        if (!config.isEmpty())
            environment.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
        environment.insert(QStringLiteral("HOME"), home);
        QCOMPARE(natsContextDirectory(environment), expected);
    }

    void namesAreTheJsonFilesSorted()
    {
        QTemporaryDir dir;
        const QString contexts = dir.filePath(QStringLiteral("nats/context"));
        QVERIFY(QDir().mkpath(contexts + QStringLiteral("/sub.json")));
        for (const char *name : {"prod.json", "dev.json", "a.b.json", "notes.txt"})
            QVERIFY(ccm::test::writeFile(contexts + QLatin1Char('/') + QString::fromLatin1(name), "{}"));
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
        QCOMPARE(natsContextNames(environment),
            QStringList({QStringLiteral("a.b"), QStringLiteral("dev"), QStringLiteral("prod")}));

        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("absent")));
        QVERIFY(natsContextNames(environment).isEmpty());
    }

    void defaultContext()
    {
        QProcessEnvironment environment;
        QCOMPARE(defaultNatsContext(environment), QStringLiteral("CCM"));
        environment.insert(QStringLiteral("NATS_CONTEXT"), QStringLiteral("fleet"));
        QCOMPARE(defaultNatsContext(environment), QStringLiteral("fleet"));
    }
};

CCM_TEST_GUILESS_MAIN(TestNatsContexts)
#include "tst_nats_contexts.moc"
