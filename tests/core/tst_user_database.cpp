// SPDX-License-Identifier: Apache-2.0
#include "base/user_database.h"
#include "test_main.h"

#include <QTest>

#include <algorithm>
#include <unistd.h>

using namespace ccm;

// Root (uid 0, gid 0) is in the user database of every host the tests run on; the other names are
// ones no system has.
class TestUserDatabase : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void userByNameAndId()
    {
        const auto byName = findUser(std::string("root"));
        QVERIFY(byName && *byName);
        QCOMPARE((*byName)->uid, uid_t(0));
        QCOMPARE((*byName)->gid, gid_t(0));
        const auto byId = findUser(uid_t(0));
        QVERIFY(byId && *byId);
        QCOMPARE(QString::fromStdString((*byId)->name), QStringLiteral("root"));
    }

    void groupByNameAndId()
    {
        const auto byId = findGroup(gid_t(0));
        QVERIFY(byId && *byId);
        const auto byName = findGroup((*byId)->name);
        QVERIFY(byName && *byName);
        QCOMPARE((*byName)->gid, gid_t(0));
    }

    void missingEntries_data()
    {
        QTest::addColumn<bool>("user");
        QTest::addColumn<QString>("name");
        QTest::newRow("user name") << true << QStringLiteral("ccm-no-such-user-4711");
        QTest::newRow("group name") << false << QStringLiteral("ccm-no-such-group-4711");
        QTest::newRow("empty user name") << true << QString();
    }

    void missingEntries()
    {
        QFETCH(bool, user);
        QFETCH(QString, name);
        if (user) {
            const auto entry = findUser(name.toStdString());
            QVERIFY(entry);
            QVERIFY(!*entry);
        } else {
            const auto entry = findGroup(name.toStdString());
            QVERIFY(entry);
            QVERIFY(!*entry);
        }
    }

    void missingIds()
    {
        // The largest id short of (uid_t)-1, which some calls reserve, is not given to anyone.
        const auto user = findUser(static_cast<uid_t>(-2));
        QVERIFY(user);
        QVERIFY(!*user);
        const auto group = findGroup(static_cast<gid_t>(-2));
        QVERIFY(group);
        QVERIFY(!*group);
    }

    void groupsIncludeThePrimaryGroup()
    {
        const auto groups = groupsOf("root", 0);
        QVERIFY(groups);
        QVERIFY(std::find(groups->begin(), groups->end(), gid_t(0)) != groups->end());
    }

    void groupsOfAnUnknownUserAreThePrimaryGroup()
    {
        const auto groups = groupsOf("ccm-no-such-user-4711", 4711);
        QVERIFY(groups);
        QCOMPARE(*groups, std::vector<gid_t> {4711});
    }
};

CCM_TEST_GUILESS_MAIN(TestUserDatabase)
#include "tst_user_database.moc"
