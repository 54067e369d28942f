// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/generic_version.h"
#include "test_common.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::engine;

class TestVersionCompareGeneric : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void compare_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("ignoreTrailingZeroes");
        QTest::addColumn<int>("expected");
        const auto row = [](const char *name, const char *a, const char *b, bool ignore, int expected) {
            QTest::newRow(name) << QString::fromLatin1(a) << QString::fromLatin1(b) << ignore << expected;
        };
        // The examples of the DNF provider's description.
        row("numeric", "1.0", "2.0", false, -1);
        row("numeric not lexical", "1.10", "1.9", false, 1);
        row("exhausted first", "1.0", "1.0.1", false, -1);
        row("release", "1.0-1", "1.0-2", false, -1);
        row("letters", "1.0a", "1.0b", false, -1);
        row("leading zero lexical", "01", "1", false, -1);
        row("trailing zero kept", "1.0.0", "1.0", false, 1);
        row("trailing zero ignored", "1.0.0", "1.0", true, 0);
        row("normalised before hyphen", "1.0.0-rc1", "1-rc1", true, 0);
        row("normalised whole", "2.0.0", "2", true, 0);
        // Versions as the rpm status gives them.
        row("same release", "5.8-9.el9", "5.8-9.el9", false, 0);
        row("release numerically", "5.8-9.el9", "5.8-10.el9", false, -1);
        row("older upstream", "0.0.1-9.el9", "5.8-9.el9", false, -1);
        row("newer upstream", "6.2.3-9.el9", "5.8-9.el9", false, 1);
        row("dist tag", "1.24.0-1.el9", "1.24.0-1.el8", false, 1);
        // Token rules.
        row("hyphen loses to dot", "1.0-1", "1.0.1", false, -1);
        row("dot loses to digits", "1.a", "1.1", false, 1);
        row("leading zeros lexical", "007", "7", false, -1);
        row("long numbers", "1.123456789012345678901", "1.99", false, 1);
        row("case insensitive runs", "1.0RC2", "1.0rc1", false, 1);
        row("case only decides last", "1.0RC1", "1.0rc1", false, -1);
        row("identical", "1.2.3", "1.2.3", false, 0);
        row("empty", "", "1", false, -1);
        row("both empty", "", "", false, 0);
        row("double zero part", "1.00", "1", true, 0);
        row("ten is not one", "10.0", "1", true, 1);
        row("zero inside kept", "1.0.1", "1.0.1.0", true, 0);
        row("release untouched", "1.0-1.0", "1-1.0", true, 0);
        row("release zeroes count", "1.0-1.0", "1.0-1", true, 1);
        row("epoch prefix", "1:2.0-3.fc39", "1:2.0-3.fc40", false, -1);
    }

    void compare()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, ignoreTrailingZeroes);
        QFETCH(int, expected);
        QCOMPARE(compareGenericVersions(a.toStdString(), b.toStdString(), ignoreTrailingZeroes), expected);
        QCOMPARE(compareGenericVersions(b.toStdString(), a.toStdString(), ignoreTrailingZeroes), -expected);
    }
};

CCM_TEST_GUILESS_MAIN(TestVersionCompareGeneric)
#include "tst_version_compare_generic.moc"
