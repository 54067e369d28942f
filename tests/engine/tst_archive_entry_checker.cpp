// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/archive/archive_entry_checker.h"
#include "test_main.h"

#include <QStringList>
#include <QTest>

#include <initializer_list>

using namespace ccm;
using namespace ccm::engine;

namespace {

/// "<kind> <path> [<target>]" with kind d, f, l, h or s.
ArchiveEntry entry(const QString &line)
{
    const QStringList fields = line.split(QLatin1Char(' '));
    ArchiveEntry parsed;
    const QChar kind = fields.value(0).front();
    parsed.kind = kind == QLatin1Char('d') ? ArchiveEntryKind::Directory
        : kind == QLatin1Char('l')         ? ArchiveEntryKind::SymbolicLink
        : kind == QLatin1Char('h')         ? ArchiveEntryKind::HardLink
        : kind == QLatin1Char('s')         ? ArchiveEntryKind::Special
                                           : ArchiveEntryKind::File;
    parsed.path = fields.value(1).toStdString();
    parsed.target = fields.value(2).toStdString();
    return parsed;
}

} // namespace

class TestArchiveEntryChecker : public QObject {
    Q_OBJECT

private slots:
    void judgesSequences_data()
    {
        QTest::addColumn<QStringList>("entries");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char *name, std::initializer_list<const char *> lines, const char *expected) {
            QStringList entries;
            for (const char *line : lines)
                entries << QString::fromUtf8(line);
            QTest::newRow(name) << entries << QString::fromUtf8(expected);
        };
        row("plain tree", {"d app/", "f app/bin/app", "l app/lib/current ../README", "h app/copy app/bin/app"}, "");
        row("link to the root itself", {"l x/b .."}, "");
        row("link through a link that stays inside", {"l x/b ..", "l x/a1 b", "l y x/a1/x"}, "");
        row("absolute link inside", {"d sub/", "l in /srv/root/sub", "l up in/.."}, "");
        row("dangling link", {"l later missing/file"}, "");
        row("chain", {"d x/", "l x/b ..", "l x/a1 b/..", "l x/a2 a1/.."},
            "entry 'x/a1' is a symbolic link to 'b/..', which is outside /srv/root");
        row("chain through directories", {"l d1/d2/up ../..", "l e d1/d2/up/.."},
            "entry 'e' is a symbolic link to 'd1/d2/up/..', which is outside");
        row("absolute chain", {"l in /srv/root", "l up in/.."}, "entry 'up' is a symbolic link to 'in/..'");
        row("absolute outside", {"l etc /etc"}, "entry 'etc' is a symbolic link to '/etc', which is outside");
        row("absolute through the parent", {"l p /srv/x/../root"}, "which is outside");
        row("out and back in", {"l a ../root/x"}, "entry 'a' is a symbolic link to '../root/x', which is outside");
        row("name made after the link", {"l s/b m/../..", "l s/m ."},
            "entry 's/b' is a symbolic link to 'm/../..', which is outside /srv/root once the archive's links are "
            "followed, with the entries after it");
        row("loop", {"l a b", "l b a"}, "passes through more than 40 symbolic links");
        row("empty link", {"l a"}, "entry 'a' is a symbolic link to '', which is empty");
        row("file through a link", {"d sub/", "l hop sub", "f hop/f"},
            "entry 'hop/f' passes through the symbolic link 'hop'");
        row("directory through a link", {"l hop .", "d hop/d/"}, "passes through the symbolic link 'hop'");
        row("file below a file", {"f a", "f a/b"}, "entry 'a/b' passes through 'a', which an earlier entry created");
        row("link replaced", {"l a .", "f a"}, "entry 'a' replaces the symbolic link");
        row("directory replaced by a link", {"d a/", "l a ."}, "entry 'a' replaces the directory");
        row("file replaced by a link", {"f a", "l a ."}, "entry 'a' replaces the file");
        row("hard link through a link", {"f sub/f", "l hop sub", "h h hop/f"},
            "entry 'h' is a hard link to 'hop/f', which no earlier entry created as a file");
        row("hard link to a later file", {"h h f", "f f"}, "which no earlier entry created as a file");
        row("hard link to a directory", {"d d/", "h h d"}, "which no earlier entry created as a file");
        row("hard link to itself", {"f a", "h a a"}, "entry 'a' is a hard link to itself");
        row("hard link leaving", {"h h ../x"}, "entry 'h' is a hard link to '../x', which has a '..' component");
        row("dot-dot", {"f a/../../x"}, "entry 'a/../../x' has a '..' component");
        row("absolute name", {"f /etc/passwd"}, "entry '/etc/passwd' is an absolute path");
        row("device", {"s null"}, "entry 'null' is a device, FIFO or socket");
        row("root replaced", {"f ./"}, "entry './' would replace the extraction directory itself");
    }

    void judgesSequences()
    {
        QFETCH(QStringList, entries);
        QFETCH(QString, expected);
        ArchiveEntryChecker checker("/srv/root");
        std::string refusal;
        for (const QString &line : entries) {
            auto added = checker.add(entry(line));
            if (!added) {
                refusal = added.error().message;
                QCOMPARE(added.error().code, std::string("unsafe_entry"));
                break;
            }
        }
        if (refusal.empty()) {
            if (auto finished = checker.finish(); !finished)
                refusal = finished.error().message;
        }
        if (expected.isEmpty())
            QVERIFY2(refusal.empty(), refusal.c_str());
        else
            QVERIFY2(QString::fromStdString(refusal).contains(expected), refusal.c_str());
    }

    /// Each step of a resolution stays cheap, and the steps are bounded, whatever the archive holds.
    void refusesLinksTooLongToFollow_data()
    {
        QTest::addColumn<QString>("target");
        QString deep;
        for (int level = 0; level < 1100; ++level)
            deep += QStringLiteral("d/");
        QTest::newRow("many names") << deep;
        QTest::newRow("one long name") << QString(5000, QLatin1Char('n')) + QStringLiteral("/x");
    }

    void refusesLinksTooLongToFollow()
    {
        QFETCH(QString, target);
        ArchiveEntryChecker checker("/srv/root");
        auto added = checker.add({ArchiveEntryKind::SymbolicLink, "far", target.toStdString()});
        QVERIFY(!added.ok());
        QVERIFY2(QString::fromStdString(added.error().message).contains(QStringLiteral("to follow")),
            added.error().message.c_str());
    }

    void resolvesNamesThroughLinks()
    {
        ArchiveEntryChecker checker("/srv/root");
        for (const char *line : {"d a/b/", "l a/up ..", "l c a/up/b", "l d /srv/root/a"})
            QVERIFY(checker.add(entry(QString::fromUtf8(line))).ok());
        QCOMPARE(checker.resolve("c/x"), std::optional(std::vector<std::string> {"b", "x"}));
        QCOMPARE(checker.resolve("d/up"), std::optional(std::vector<std::string> {}));
        QCOMPARE(checker.resolve("d/up/.."), std::nullopt);
        QCOMPARE(checker.resolve("/etc"), std::nullopt);
    }
};

CCM_TEST_GUILESS_MAIN(TestArchiveEntryChecker)
#include "tst_archive_entry_checker.moc"
