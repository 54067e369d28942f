// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/debian_version.h"
#include "test_common.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

class TestVersionCompareDebian : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void compare_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("expected");
        const auto row = [](const char *name, const char *a, const char *b, int expected) {
            QTest::newRow(name) << QString::fromLatin1(a) << QString::fromLatin1(b) << expected;
        };
        // The examples of the APT provider's description.
        row("numeric", "1.0", "2.0", -1);
        row("epoch wins", "1:1.0", "2.0", 1);
        row("tilde before empty", "1.0~alpha", "1.0", -1);
        row("tilde letters", "1.0~alpha", "1.0~beta", -1);
        row("third part", "1.0.1", "1.0.2", -1);
        row("revision", "1.0-1", "1.0-2", -1);
        row("letters before non-letters", "1.0a", "1.0-", -1);
        row("more tildes earlier", "1.0~~", "1.0~", -1);
        row("digit runs numerically", "9", "13", -1);
        // Equalities the algorithm gives.
        row("same", "5.9-8+b18", "5.9-8+b18", 0);
        row("explicit zero epoch", "0:1.0", "1.0", 0);
        row("leading zeros in epoch", "001:1.0", "1:1.0", 0);
        row("leading zeros in digits", "1.01", "1.1", 0);
        row("zero revision equals none", "1.0-0", "1.0", 0);
        // Orderings from real archives and edge cases.
        row("binNMU", "5.9-8+b18", "5.9-8+b2", 1);
        row("epoch over upstream", "2:9.1.1230-2", "9.2-1", 1);
        row("hello upgrade", "2.9-1", "2.10-3", -1);
        row("plus before dot", "1.0+dfsg", "1.0.1", -1);
        row("end before letter", "1.0", "1.0a", -1);
        row("end before plus", "1.0", "1.0+", -1);
        row("tilde before end", "1.0~", "1.0", -1);
        row("upper before lower", "1.0A", "1.0a", -1);
        row("release candidate revision", "1.0~rc1", "1.0~rc1-1", -1);
        row("letter order", "1.0a", "1.0b", -1);
        row("epochs numerically", "10:1", "9:2", 1);
        row("huge epoch", "99999999999999999999:1", "9:1", 1);
        row("hyphens in upstream", "1.0-beta-2", "1.0-beta-10", -1);
        row("ubuntu revision", "2:1.0.0+git-20190109-0ubuntu2", "2:1.0.0+git-20190109-0ubuntu10", -1);
        row("colon in upstream", "1:2.0:1-1", "1:2.0-1", 1);
    }

    void compare()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, expected);
        const auto forward = compareDebianVersions(a.toStdString(), b.toStdString());
        QVERIFY2(forward.ok(), forward ? "" : forward.error().message.c_str());
        QCOMPARE(*forward, expected);
        const auto backward = compareDebianVersions(b.toStdString(), a.toStdString());
        QVERIFY(backward.ok());
        QCOMPARE(*backward, -expected);
    }

    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("epoch");
        QTest::addColumn<QString>("upstream");
        QTest::addColumn<QString>("revision");
        QTest::newRow("plain") << QStringLiteral("1.0") << QStringLiteral("0") << QStringLiteral("1.0") << QString();
        QTest::newRow("epoch and revision")
            << QStringLiteral("1:2.0-3") << QStringLiteral("1") << QStringLiteral("2.0") << QStringLiteral("3");
        QTest::newRow("hyphens in upstream") << QStringLiteral("2:1.0.0+git-20190109-0ubuntu2") << QStringLiteral("2")
                                             << QStringLiteral("1.0.0+git-20190109") << QStringLiteral("0ubuntu2");
        QTest::newRow("trailing hyphen") << QStringLiteral("1.0-") << QStringLiteral("0") << QStringLiteral("1.0-")
                                         << QString();
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(QString, epoch);
        QFETCH(QString, upstream);
        QFETCH(QString, revision);
        const auto version = parseDebianVersion(text.toStdString());
        QVERIFY2(version.ok(), version ? "" : version.error().message.c_str());
        QCOMPARE(q(version->epoch), epoch);
        QCOMPARE(q(version->upstream), upstream);
        QCOMPARE(q(version->revision), revision);
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QString() << QStringLiteral("an empty version is not a Debian version");
        QTest::newRow("empty epoch") << QStringLiteral(
            ":1.0") << QStringLiteral("version ':1.0' is not a Debian version: the epoch before ':' is empty");
        QTest::newRow("letter epoch") << QStringLiteral(
            "a:1.0") << QStringLiteral("version 'a:1.0' is not a Debian version: the epoch 'a' is not a number");
        QTest::newRow("no upstream") << QStringLiteral(
            "1:") << QStringLiteral("version '1:' is not a Debian version: the upstream version is empty");
        QTest::newRow("space") << QStringLiteral("1.0 beta")
                               << QStringLiteral(
                                      "version '1.0 beta' is not a Debian version: the upstream version contains ' '");
        QTest::newRow("dollar in revision") << QStringLiteral(
            "1.0-a$b") << QStringLiteral("version '1.0-a$b' is not a Debian version: the revision contains '$'");
    }

    void invalid()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto compared = compareDebianVersions(text.toStdString(), "1.0");
        QVERIFY(!compared.ok());
        QCOMPARE(q(compared.error().message), message);
        QVERIFY(!compareDebianVersions("1.0", text.toStdString()).ok());
    }
};

CCM_TEST_GUILESS_MAIN(TestVersionCompareDebian)
#include "tst_version_compare_debian.moc"
