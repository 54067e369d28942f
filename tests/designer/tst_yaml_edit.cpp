// SPDX-License-Identifier: Apache-2.0
#include "core/model/manifest.h"
#include "designer/core/yaml_edit.h"
#include "test_common.h"
#include "test_main.h"

#include <QTest>

using ccm::Json;
using ccm::LoadedManifest;
using ccm::designer::YamlPatcher;
using ccm::test::q;

namespace {

QString q(const std::optional<std::string> &text)
{
    return text ? QString::fromStdString(*text) : QStringLiteral("<no edit>");
}

const Json *nodeAt(const Json &document, const std::string &pointer)
{
    try {
        return &document.at(Json::json_pointer(pointer));
    } catch (const std::exception &) {
        return nullptr;
    }
}

// Every entry of a list-form block carries a comment before, inside and after it, so each case
// shows which bytes an edit may touch.
const char *const kList = R"(# head comment
ccm:
  resources:
    - file:
        # before first
        - /tmp/a:
            ensure: present # inline a
            mode: "0644"
        # between a and b
        - /tmp/b:
            # inside b
            ensure: present
            content: |
              line one
              # not a comment
            owner: root
        - /tmp/c:
            ensure: absent
        # trailing comment
    - package:
        name: nginx
        ensure: present
)";

} // namespace

class TestYamlEdit : public QObject {
    Q_OBJECT

private slots:
    void setMember_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("map");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");

        const QString list = QString::fromUtf8(kList);
        const auto replaced = [&](const char *from, const char *to) {
            QString out = list;
            Q_ASSERT(out.contains(QString::fromUtf8(from)));
            return out.replace(QString::fromUtf8(from), QString::fromUtf8(to));
        };
        QTest::newRow("first entry, existing")
            << list << QStringLiteral("/ccm/resources/0/file/0/~1tmp~1a") << QStringLiteral("mode")
            << QStringLiteral("\"0600\"") << replaced("mode: \"0644\"", "mode: \"0600\"");
        QTest::newRow("first entry, inline comment of the member replaced")
            << list << QStringLiteral("/ccm/resources/0/file/0/~1tmp~1a") << QStringLiteral("ensure")
            << QStringLiteral("\"absent\"") << replaced("ensure: present # inline a", "ensure: absent");
        QTest::newRow("middle entry, new member after a block scalar")
            << list << QStringLiteral("/ccm/resources/0/file/1/~1tmp~1b") << QStringLiteral("group")
            << QStringLiteral("\"wheel\"")
            << replaced("            owner: root\n", "            owner: root\n            group: wheel\n");
        QTest::newRow("middle entry, block scalar replaced")
            << list << QStringLiteral("/ccm/resources/0/file/1/~1tmp~1b") << QStringLiteral("content")
            << QStringLiteral("\"x\\ny\\n\"")
            << replaced("content: |\n              line one\n              # not a comment\n",
                   "content: |\n              x\n              y\n");
        QTest::newRow("last entry, new member before the trailing comment")
            << list << QStringLiteral("/ccm/resources/0/file/2/~1tmp~1c") << QStringLiteral("mode")
            << QStringLiteral("\"0755\"")
            << replaced("            ensure: absent\n", "            ensure: absent\n            mode: \"0755\"\n");
        QTest::newRow("single form") << list << QStringLiteral("/ccm/resources/1/package") << QStringLiteral("ensure")
                                     << QStringLiteral("\"latest\"")
                                     << replaced("nginx\n        ensure: present\n", "nginx\n        ensure: latest\n");
        QTest::newRow("key needing quotes")
            << list << QStringLiteral("/ccm/resources/0/file/2/~1tmp~1c") << QStringLiteral("a: b")
            << QStringLiteral("\"yes\"")
            << replaced("            ensure: absent\n", "            ensure: absent\n            \"a: b\": \"yes\"\n");
        QTest::newRow("nested map value")
            << list << QStringLiteral("/ccm/resources/1/package") << QStringLiteral("ensure")
            << QStringLiteral("{\"a\": [1, 2]}")
            << replaced("nginx\n        ensure: present\n",
                   "nginx\n        ensure:\n          a:\n            - 1\n            - 2\n");

        const QString defaults
            = QStringLiteral("ccm:\n  resources:\n    - service:\n        - defaults:\n"
                             "            enable: true\n        - nginx:\n            ensure: running\n");
        QTest::newRow("defaults entry")
            << defaults << QStringLiteral("/ccm/resources/0/service/0/defaults") << QStringLiteral("ensure")
            << QStringLiteral("\"stopped\"")
            << QStringLiteral("ccm:\n  resources:\n    - service:\n        - defaults:\n            enable: true\n"
                              "            ensure: stopped\n        - nginx:\n            ensure: running\n");
        QTest::newRow("last line without newline")
            << QStringLiteral("data:\n  a: 1\nccm:\n  fail_on_error: true") << QStringLiteral("/ccm")
            << QStringLiteral("pre_message") << QStringLiteral("\"hi\"")
            << QStringLiteral("data:\n  a: 1\nccm:\n  fail_on_error: true\n  pre_message: hi\n");
        QTest::newRow("same-indentation list value")
            << QStringLiteral("hierarchy:\n  order:\n  - a\n  - b\n  merge: first\n") << QStringLiteral("/hierarchy")
            << QStringLiteral("order") << QStringLiteral("[\"c\"]")
            << QStringLiteral("hierarchy:\n  order:\n    - c\n  merge: first\n");
    }

    void setMember()
    {
        QFETCH(QString, text);
        QFETCH(QString, map);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const std::string source = text.toStdString();
        const LoadedManifest loaded = ccm::loadManifest(source);
        QVERIFY(loaded.parsed);
        const Json *members = nodeAt(loaded.document, map.toStdString());
        QVERIFY(members);
        const YamlPatcher editor(source, loaded.sourceMap);
        const auto edited
            = editor.setMember(map.toStdString(), *members, key.toStdString(), Json::parse(value.toStdString()));
        QCOMPARE(q(edited), expected);
    }

    void insertBefore()
    {
        const std::string source = "ccm:\n  fail_on_error: true\n  resources: []\n";
        const LoadedManifest loaded = ccm::loadManifest(source);
        const YamlPatcher editor(source, loaded.sourceMap);
        const auto edited
            = editor.setMember("/ccm", loaded.document["ccm"], "pre_message", "hello", {"post_message", "resources"});
        QCOMPARE(q(edited), QStringLiteral("ccm:\n  fail_on_error: true\n  pre_message: hello\n  resources: []\n"));
    }

    void removeNode_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<bool>("item");
        QTest::addColumn<QString>("removed");

        QTest::newRow("first entry") << QStringLiteral("/ccm/resources/0/file/0") << true
                                     << QStringLiteral("        - /tmp/a:\n            ensure: present # inline a\n"
                                                       "            mode: \"0644\"\n");
        QTest::newRow("middle entry with block scalar and inner comment")
            << QStringLiteral("/ccm/resources/0/file/1") << true
            << QStringLiteral("        - /tmp/b:\n            # inside b\n            ensure: present\n"
                              "            content: |\n              line one\n              # not a comment\n"
                              "            owner: root\n");
        QTest::newRow("last entry") << QStringLiteral("/ccm/resources/0/file/2") << true
                                    << QStringLiteral("        - /tmp/c:\n            ensure: absent\n");
        QTest::newRow("member") << QStringLiteral("/ccm/resources/0/file/1/~1tmp~1b/content") << false
                                << QStringLiteral("            content: |\n              line one\n"
                                                  "              # not a comment\n");
        QTest::newRow("single-form block")
            << QStringLiteral("/ccm/resources/1") << true
            << QStringLiteral("    - package:\n        name: nginx\n        ensure: present\n");
    }

    void removeNode()
    {
        QFETCH(QString, pointer);
        QFETCH(bool, item);
        QFETCH(QString, removed);
        const std::string source = kList;
        const LoadedManifest loaded = ccm::loadManifest(source);
        const YamlPatcher editor(source, loaded.sourceMap);
        const auto span = item ? editor.itemSpan(pointer.toStdString()) : editor.memberSpan(pointer.toStdString());
        QVERIFY(span);
        QCOMPARE(q(editor.removeNode(span)), QString::fromUtf8(kList).replace(removed, QString()));
    }

    void insertAndReplaceItems()
    {
        const std::string source = kList;
        const LoadedManifest loaded = ccm::loadManifest(source);
        const YamlPatcher editor(source, loaded.sourceMap);
        const std::string item = "- /tmp/new:\n    ensure: present\n";
        const QString indentedItem = QStringLiteral("        - /tmp/new:\n            ensure: present\n");
        QString before = QString::fromUtf8(kList);
        before.replace(QStringLiteral("        - /tmp/b:"), indentedItem + QStringLiteral("        - /tmp/b:"));
        QCOMPARE(q(editor.insertItem("/ccm/resources/0/file/1", item, false)), before);
        QString after = QString::fromUtf8(kList);
        after.replace(QStringLiteral("            ensure: absent\n"),
            QStringLiteral("            ensure: absent\n") + indentedItem);
        QCOMPARE(q(editor.insertItem("/ccm/resources/0/file/2", item, true)), after);
        QString replaced = QString::fromUtf8(kList);
        replaced.replace(QStringLiteral("        - /tmp/c:\n            ensure: absent\n"), indentedItem);
        QCOMPARE(q(editor.replaceItem("/ccm/resources/0/file/2", item)), replaced);
    }

    void moveItem_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("after");
        QTest::addColumn<QString>("expected");

        const QString a = QStringLiteral("        - /tmp/a:\n            ensure: present # inline a\n"
                                         "            mode: \"0644\"\n");
        const QString c = QStringLiteral("        - /tmp/c:\n            ensure: absent\n");
        QString aLast = QString::fromUtf8(kList);
        aLast.remove(a).replace(c, c + a);
        QTest::newRow("first to last") << QStringLiteral("/ccm/resources/0/file/0")
                                       << QStringLiteral("/ccm/resources/0/file/2") << true << aLast;
        QString cFirst = QString::fromUtf8(kList);
        cFirst.remove(c).replace(a, c + a);
        QTest::newRow("last to first") << QStringLiteral("/ccm/resources/0/file/2")
                                       << QStringLiteral("/ccm/resources/0/file/0") << false << cFirst;
        QString blocks = QString::fromUtf8(kList);
        const QString package = QStringLiteral("    - package:\n        name: nginx\n        ensure: present\n");
        blocks.remove(package).replace(QStringLiteral("    - file:\n"), package + QStringLiteral("    - file:\n"));
        QTest::newRow("blocks") << QStringLiteral("/ccm/resources/1") << QStringLiteral("/ccm/resources/0") << false
                                << blocks;
    }

    void moveItem()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, after);
        QFETCH(QString, expected);
        const std::string source = kList;
        const LoadedManifest loaded = ccm::loadManifest(source);
        const YamlPatcher editor(source, loaded.sourceMap);
        QCOMPARE(q(editor.moveItem(from.toStdString(), to.toStdString(), after)), expected);
    }

    void moveItemReindents()
    {
        const std::string source = "ccm:\n  resources:\n  - file:\n    - /a:\n        content: |\n          x\n"
                                   "    - /b: {}\n  - file:\n        - /c: {}\n";
        const LoadedManifest loaded = ccm::loadManifest(source);
        const YamlPatcher editor(source, loaded.sourceMap);
        QCOMPARE(q(editor.moveItem("/ccm/resources/0/file/0", "/ccm/resources/1/file/0", true)),
            QStringLiteral("ccm:\n  resources:\n  - file:\n    - /b: {}\n  - file:\n        - /c: {}\n"
                           "        - /a:\n            content: |\n              x\n"));
    }

    void renameKey_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringLiteral("x:\n  - /tmp/a: # keep\n      a: 1\n")
                               << QStringLiteral("/x/0/~1tmp~1a") << QStringLiteral("/tmp/b")
                               << QStringLiteral("x:\n  - /tmp/b: # keep\n      a: 1\n");
        QTest::newRow("quoted to plain") << QStringLiteral("x:\n  - \"a: b\": {}\n") << QStringLiteral("/x/0/a: b")
                                         << QStringLiteral("ab") << QStringLiteral("x:\n  - ab: {}\n");
        QTest::newRow("needs quotes") << QStringLiteral("x:\n  - 'it''s': 1\n") << QStringLiteral("/x/0/it's")
                                      << QStringLiteral("yes") << QStringLiteral("x:\n  - \"yes\": 1\n");
    }

    void renameKey()
    {
        QFETCH(QString, text);
        QFETCH(QString, pointer);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        const std::string source = text.toStdString();
        const LoadedManifest loaded = ccm::loadManifest(source);
        const YamlPatcher editor(source, loaded.sourceMap);
        QCOMPARE(q(editor.renameKey(pointer.toStdString(), name.toStdString())), expected);
    }

    void flowStyleIsRefused()
    {
        const std::string source = "ccm:\n  resources:\n    - file: [{/a: {mode: \"0644\"}}, {/b: {}}]\n";
        const LoadedManifest loaded = ccm::loadManifest(source);
        const YamlPatcher editor(source, loaded.sourceMap);
        QVERIFY(!editor.memberSpan("/ccm/resources/0/file/0/~1a/mode"));
        QVERIFY(!editor.itemSpan("/ccm/resources/0/file/1"));
        QVERIFY(!editor.setMember(
            "/ccm/resources/0/file/0/~1a", loaded.document["ccm"]["resources"][0]["file"][0]["/a"], "mode", "0600"));
        QVERIFY(!editor.itemSpan("/does/not/exist"));
    }

    void indented()
    {
        QCOMPARE(q(YamlPatcher::indented("a:\n\n  b: 1\n", 2)), QStringLiteral("  a:\n\n    b: 1\n"));
        QCOMPARE(q(YamlPatcher::indented("    a:\n  b\n", -4)), QStringLiteral("a:\nb\n"));
        QCOMPARE(q(YamlPatcher::indented("a\nb\n", 2, true)), QStringLiteral("a\n  b\n"));
    }
};

CCM_TEST_GUILESS_MAIN(TestYamlEdit)
#include "tst_yaml_edit.moc"
