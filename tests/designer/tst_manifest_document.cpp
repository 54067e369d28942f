// SPDX-License-Identifier: Apache-2.0
#include "core/model/schema_registry.h"
#include "designer/core/manifest_document.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <filesystem>
#include <functional>

using ccm::Json;
using ccm::designer::EntryRef;
using ccm::designer::ManifestDocument;

namespace {

const char *const kManifest = R"(# Web server
data:
  port: 80 # the default
ccm:
  resources:
    - package:
        # the server
        - nginx:
            ensure: present
        - curl:
            ensure: latest
    - file:
        - defaults:
            owner: root
            group: root
        - /etc/motd:
            ensure: present
            mode: "0644"
            content: |
              Welcome
              # to this host
    # services last
    - service:
        name: nginx
        ensure: running
        require:
          - package#nginx
)";

QString manifestText()
{
    return QString::fromUtf8(kManifest);
}

int errorCount(const ccm::Diagnostics &diagnostics)
{
    return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
        [](const ccm::Diagnostic &d) { return d.severity == ccm::Severity::Error; }));
}

QString describe(const ccm::Diagnostics &diagnostics)
{
    QStringList out;
    for (const auto &d : diagnostics)
        out << QString::fromStdString(d.path + ": " + d.message);
    return out.join(QLatin1Char('\n'));
}

using Edit = std::function<void(ManifestDocument &)>;
using ccm::test::writeFile;

} // namespace

Q_DECLARE_METATYPE(Edit)
Q_DECLARE_METATYPE(EntryRef)

class TestManifestDocument : public QObject {
    Q_OBJECT

private slots:
    void bundleOriginOwnsItsDirectory()
    {
        QTemporaryDir dir;
        const auto unpacked = [&](const QString &name) {
            const QString path = dir.filePath(name);
            QDir().mkpath(path);
            QFile file(path + QStringLiteral("/manifest.yaml"));
            file.open(QIODevice::WriteOnly);
            file.write("ccm:\n  resources: []\n");
            return path;
        };
        const QString first = unpacked(QStringLiteral("first"));
        const QString second = unpacked(QStringLiteral("second"));
        QString error;
        {
            ManifestDocument document;
            QVERIFY(document.load(first + QStringLiteral("/manifest.yaml"), &error));
            document.setBundleOrigin(QStringLiteral("obj://b/site.tgz"), first);
            QCOMPARE(document.bundleLocation(), QStringLiteral("obj://b/site.tgz"));
            QCOMPARE(document.bundleDirectory(), first);
            QCOMPARE(document.baseDirectory(), first);
            // Saved elsewhere, the document forgets where it came from but keeps the files.
            document.forgetBundleLocation();
            QVERIFY(document.bundleLocation().isEmpty());
            QVERIFY(QFileInfo::exists(first));
            // Another file loaded: the unpacked directory goes.
            QVERIFY(document.load(second + QStringLiteral("/manifest.yaml"), &error));
            QVERIFY(!QFileInfo::exists(first));
            QVERIFY(document.bundleDirectory().isEmpty());
            document.setBundleOrigin(dir.filePath(QStringLiteral("site.tar.gz")), second);
        }
        // The document went, and the directory with it.
        QVERIFY(!QFileInfo::exists(second));
        QVERIFY(QFileInfo::exists(dir.path()));
    }

    void newDocumentIsEmptyAndValid()
    {
        ManifestDocument document;
        QCOMPARE(document.text(), QStringLiteral("ccm:\n  resources: []\n"));
        QVERIFY(document.blocks().empty());
        QCOMPARE(errorCount(document.diagnostics()), 0);
        QVERIFY(!document.isModified());
        QVERIFY(document.filePath().isEmpty());
    }

    void addResourceDefaultsValidate_data()
    {
        QTest::addColumn<QString>("type");
        for (const char *type : {"package", "service", "file", "exec", "archive", "scaffold", "apply"})
            QTest::newRow(type) << QString::fromLatin1(type);
    }

    void addResourceDefaultsValidate()
    {
        QFETCH(QString, type);
        ManifestDocument document;
        const EntryRef first = document.addResource(type.toStdString());
        QCOMPARE(first, (EntryRef {0, 0}));
        const EntryRef second = document.addResource(type.toStdString());
        QCOMPARE(second, (EntryRef {0, 1}));
        QCOMPARE(document.resources().size(), std::size_t(2));
        QCOMPARE(errorCount(document.diagnostics()), 0);
        QVERIFY2(document.diagnostics().empty(), qPrintable(describe(document.diagnostics())));
        QVERIFY(document.resources()[0].name != document.resources()[1].name);
        QVERIFY(document.isModified());
    }

    void newResourceComesFromSchema_data()
    {
        QTest::addColumn<QString>("type");
        for (const std::string_view type : ccm::kResourceTypes)
            QTest::newRow(std::string(type).c_str()) << QString::fromUtf8(type.data(), qsizetype(type.size()));
    }

    void newResourceComesFromSchema()
    {
        QFETCH(QString, type);
        const Json &schema = ccm::SchemaRegistry::instance().typeSchema(type.toStdString());
        QVERIFY(schema.contains("x-ccm-new-resource"));
        const Json &annotation = schema["x-ccm-new-resource"];
        QVERIFY(annotation["name"].is_string());
        QVERIFY(annotation["properties"].is_object());
        ManifestDocument document;
        const EntryRef added = document.addResource(type.toStdString());
        QVERIFY(added.valid());
        const ccm::ResourceEntry &entry = document.blocks()[0].entries[0];
        QCOMPARE(entry.name, annotation["name"].get<std::string>());
        Json expected = annotation["properties"];
        const Json &ensureDefault = schema["x-ccm-ensure-default"];
        if (!expected.contains("ensure") && ensureDefault.is_string())
            expected["ensure"] = ensureDefault;
        QVERIFY2(ccm::sameValue(entry.properties, expected), entry.properties.dump().c_str());
    }

    void addResourceNamesAndPlaces()
    {
        ManifestDocument document;
        document.addResource("file");
        document.addResource("file");
        QCOMPARE(QString::fromStdString(document.blocks()[0].entries[1].name), QStringLiteral("/tmp/new-file-2"));
        document.addResource("package");
        QCOMPARE(document.blocks().size(), std::size_t(2));
        // After an entry of the same type: right after it.
        const EntryRef added = document.addResource("file", {0, 0});
        QCOMPARE(added, (EntryRef {0, 1}));
        QCOMPARE(QString::fromStdString(document.blocks()[0].entries[1].name), QStringLiteral("/tmp/new-file-3"));
        // A palette drop onto another type's block makes a new block there.
        const EntryRef inserted = document.insertResource("service", 1, 0);
        QCOMPARE(inserted, (EntryRef {1, 0}));
        QCOMPARE(QString::fromStdString(document.blocks()[1].type), QStringLiteral("service"));
        QCOMPARE(QString::fromStdString(document.blocks()[2].type), QStringLiteral("package"));
        QCOMPARE(document.insertResource("nonsense", 0, 0), EntryRef());
    }

    void editsKeepCommentsAndUndoExactly_data()
    {
        QTest::addColumn<Edit>("edit");
        QTest::addColumn<QString>("expectedFragment");

        QTest::newRow("set property") << Edit([](ManifestDocument &d) {
            d.setProperty({0, 1}, "ensure", "absent");
        }) << QStringLiteral("        - curl:\n            ensure: absent\n");
        QTest::newRow("new property on defaults") << Edit([](ManifestDocument &d) {
            d.setProperty({1, 0}, "mode", "0600");
        }) << QStringLiteral("            group: root\n            mode: \"0600\"\n");
        QTest::newRow("block scalar") << Edit([](ManifestDocument &d) {
            d.setProperty({1, 1}, "content", "Hello\nthere\n");
        }) << QStringLiteral("            content: |\n              Hello\n              there\n    # services last");
        QTest::newRow("single form") << Edit([](ManifestDocument &d) {
            d.setProperty({2, 0}, "enable", true);
        }) << QStringLiteral("          - package#nginx\n        enable: true\n");
        QTest::newRow("remove property") << Edit([](ManifestDocument &d) {
            d.removeProperty({1, 1}, "mode");
        }) << QStringLiteral("            ensure: present\n            content: |");
        QTest::newRow("rename") << Edit([](ManifestDocument &d) {
            d.renameEntry({0, 1}, "wget");
        }) << QStringLiteral("        - wget:\n");
        QTest::newRow("rename single form") << Edit([](ManifestDocument &d) {
            d.renameEntry({2, 0}, "apache2");
        }) << QStringLiteral("        name: apache2\n");
        QTest::newRow("add") << Edit([](ManifestDocument &d) {
            d.addResource("package", {0, 0});
        })
                             << QStringLiteral("            ensure: present\n        - new-package:\n"
                                               "            ensure: present\n        - curl:");
        QTest::newRow("remove") << Edit([](ManifestDocument &d) {
            d.removeEntry({0, 0});
        }) << QStringLiteral("        # the server\n        - curl:");
        QTest::newRow("remove last of block") << Edit([](ManifestDocument &d) {
            d.removeEntry({2, 0});
        }) << QStringLiteral("    # services last\n");
        QTest::newRow("duplicate") << Edit([](ManifestDocument &d) {
            d.duplicateEntry({0, 1});
        })
                                   << QStringLiteral("        - curl:\n            ensure: latest\n"
                                                     "        - curl-2:\n            ensure: latest\n");
        QTest::newRow("move entry") << Edit([](ManifestDocument &d) {
            QVERIFY(d.moveEntry({0, 1}, 0, 0));
        })
                                    << QStringLiteral(
                                           "        # the server\n        - curl:\n            ensure: latest\n"
                                           "        - nginx:");
        QTest::newRow("move block") << Edit([](ManifestDocument &d) { d.moveBlock(2, 0); })
                                    << QStringLiteral("  resources:\n    - service:\n        name: nginx");
        QTest::newRow("data") << Edit([](ManifestDocument &d) {
            d.setData(Json {{"port", 8080}});
        }) << QStringLiteral("# Web server\ndata:\n  port: 8080\nccm:");
        QTest::newRow("hierarchy") << Edit([](ManifestDocument &d) {
            d.setHierarchy(ccm::Hierarchy {std::vector<std::string> {"a"}, "deep"});
        }) << QStringLiteral("  port: 80 # the default\nhierarchy:\n  order:\n    - a\n  merge: deep\nccm:");
        QTest::newRow("overrides") << Edit([](ManifestDocument &d) {
            d.setOverrides(Json {{"a", {{"port", 1}}}});
        }) << QStringLiteral("overrides:\n  a:\n    port: 1\nccm:\n  resources:");
        QTest::newRow("messages") << Edit([](ManifestDocument &d) {
            d.setMessages(QStringLiteral("start"), QStringLiteral("done"));
        }) << QStringLiteral("ccm:\n  pre_message: start\n  post_message: done\n  resources:");
        QTest::newRow("fail_on_error") << Edit([](ManifestDocument &d) { d.setFailOnError(true); })
                                       << QStringLiteral("ccm:\n  fail_on_error: true\n  resources:");
        QTest::newRow("defaults added") << Edit([](ManifestDocument &d) {
            d.addDefaults(0);
        }) << QStringLiteral("    - package:\n        # the server\n        - defaults: {}\n        - nginx:");
    }

    void editsKeepCommentsAndUndoExactly()
    {
        QFETCH(Edit, edit);
        QFETCH(QString, expectedFragment);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.yaml"));
        QVERIFY(writeFile(path, kManifest));
        ManifestDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        QSignalSpy changed(&document, &ManifestDocument::changed);
        edit(document);
        const QString after = document.text();
        QVERIFY2(after.contains(expectedFragment), qPrintable(after));
        QVERIFY(after != manifestText());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(document.undoStack()->count(), 1);
        // The comments of what the edit did not touch are still there.
        for (const char *comment : {"# Web server", "# the server", "# services last"})
            QVERIFY(after.contains(QString::fromLatin1(comment)));
        QVERIFY(document.isModified());
        document.undoStack()->undo();
        QCOMPARE(document.text(), manifestText());
        QVERIFY(!document.isModified());
        document.undoStack()->redo();
        QCOMPARE(document.text(), after);
    }

    void setTextMergesUntilClosed()
    {
        ManifestDocument document;
        const QString start = document.text();
        document.setText(start + QStringLiteral("#"));
        document.setText(start + QStringLiteral("#a"));
        QCOMPARE(document.undoStack()->count(), 1);
        document.closeTextEdit();
        document.setText(start + QStringLiteral("#ab"));
        QCOMPARE(document.undoStack()->count(), 2);
        document.undoStack()->undo();
        QCOMPARE(document.text(), start + QStringLiteral("#a"));
        document.undoStack()->undo();
        QCOMPARE(document.text(), start);
        document.setText(start);
        QCOMPARE(document.undoStack()->index(), 0);
    }

    void setPropertyMergesSameProperty()
    {
        ManifestDocument document;
        document.addResource("package");
        document.setProperty({0, 0}, "ensure", "a");
        document.setProperty({0, 0}, "ensure", "ab");
        QCOMPARE(document.undoStack()->count(), 2);
        document.setProperty({0, 0}, "provider", "apt");
        QCOMPARE(document.undoStack()->count(), 3);
        document.undoStack()->undo();
        document.undoStack()->undo();
        QCOMPARE(QString::fromStdString(document.blocks()[0].entries[0].properties["ensure"].get<std::string>()),
            QStringLiteral("present"));
    }

    void textDiagnosticsAndRefusedModelEdits()
    {
        ManifestDocument document;
        document.setText(QStringLiteral("ccm:\n  resources: [\n"));
        QVERIFY(!document.loaded().parsed);
        QVERIFY(errorCount(document.diagnostics()) > 0);
        const QString broken = document.text();
        QCOMPARE(document.addResource("file"), EntryRef());
        document.setData(Json {{"a", 1}});
        QCOMPARE(document.text(), broken);
    }

    void flowStyleFallsBackToWholeDocument()
    {
        ManifestDocument document;
        document.setText(QStringLiteral("ccm: {resources: [{package: [{nginx: {ensure: present}}]}]}\n"));
        document.setProperty({0, 0}, "ensure", "absent");
        QCOMPARE(document.text(),
            QStringLiteral("ccm:\n  resources:\n    - package:\n        - nginx:\n            ensure: absent\n"));
    }

    void queries()
    {
        ManifestDocument document;
        document.setText(manifestText());
        QCOMPARE(document.lineOf({0, 0}), 8);
        QCOMPARE(document.lineOf({2, 0}), 23);
        QCOMPARE(document.lineOf({9, 9}), 0);
        QCOMPARE(document.entryAtLine(9), std::optional<EntryRef>(EntryRef {0, 0}));
        QCOMPARE(document.entryAtLine(20), std::optional<EntryRef>(EntryRef {1, 1}));
        QCOMPARE(document.entryAtLine(2), std::nullopt);
        QCOMPARE(document.entryAtLine(22), std::nullopt);
        QCOMPARE(document.entryAtLine(24), std::optional<EntryRef>(EntryRef {2, 0}));
        QCOMPARE(
            QString::fromStdString(document.entryPointer({0, 1})), QStringLiteral("/ccm/resources/0/package/1/curl"));
        QCOMPARE(document.entryPointer({5, 0}), std::string());
        QCOMPARE(document.referenceTargets(),
            (QStringList {QStringLiteral("package#nginx"), QStringLiteral("package#curl"),
                QStringLiteral("file#/etc/motd"), QStringLiteral("service#nginx")}));
        document.setProperty({1, 1}, "mode", "rwx");
        QVERIFY(!document.diagnosticsFor({1, 1}).empty());
        QVERIFY(document.diagnosticsFor({0, 0}).empty());
        document.setProperty({1, 1}, "alias", "motd");
        QVERIFY(document.referenceTargets().contains(QStringLiteral("file#motd")));
    }

    void entryQueries()
    {
        ManifestDocument document;
        document.setText(manifestText());
        QVERIFY(document.hasEntry({1, 1}));
        QVERIFY(!document.hasEntry({2, 1}));
        QVERIFY(!document.hasEntry({-1, 0}));
        QCOMPARE(document.entryCount(0), 2);
        QCOMPARE(document.entryCount(2), 1);
        QCOMPARE(document.entryCount(3), 0);
        QCOMPARE(document.entryCount(-1), 0);
        QCOMPARE(document.defaultsOf(1), (EntryRef {1, 0}));
        QVERIFY(!document.defaultsOf(0).valid());
        QVERIFY(!document.defaultsOf(7).valid());
        const auto inherited = [&](EntryRef entry) { return document.inheritedProperties(entry).dump(); };
        QCOMPARE(inherited({1, 1}), (Json {{"owner", "root"}, {"group", "root"}}).dump());
        QCOMPARE(inherited({1, 0}), std::string("{}"));
        QCOMPARE(inherited({0, 0}), std::string("{}"));
        QCOMPARE(inherited({9, 0}), std::string("{}"));
    }

    void lineRanges_data()
    {
        QTest::addColumn<EntryRef>("entry");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::newRow("list entry") << EntryRef {0, 0} << 8 << 9;
        QTest::newRow("runs to the next block's entry") << EntryRef {0, 1} << 10 << 12;
        QTest::newRow("comment before the next block") << EntryRef {1, 1} << 16 << 22;
        QTest::newRow("last entry to the end") << EntryRef {2, 0} << 23 << 28;
        QTest::newRow("invalid") << EntryRef {9, 9} << 0 << -1;
    }

    void lineRanges()
    {
        QFETCH(EntryRef, entry);
        QFETCH(int, first);
        QFETCH(int, last);
        ManifestDocument document;
        document.setText(manifestText());
        QCOMPARE(document.lineRange(entry), std::make_pair(first, last));
    }

    void entryContainingPointer_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<EntryRef>("entry");
        QTest::newRow("entry itself") << QStringLiteral("/ccm/resources/0/package/1/curl") << EntryRef {0, 1};
        QTest::newRow("below an entry") << QStringLiteral("/ccm/resources/0/package/1/curl/ensure") << EntryRef {0, 1};
        QTest::newRow("escaped name") << QStringLiteral("/ccm/resources/1/file/1/~1etc~1motd/mode") << EntryRef {1, 1};
        QTest::newRow("single form") << QStringLiteral("/ccm/resources/2/service/require/0") << EntryRef {2, 0};
        QTest::newRow("prefix only up to a slash") << QStringLiteral("/ccm/resources/0/package/1/curly") << EntryRef {};
        QTest::newRow("outside the resources") << QStringLiteral("/data/port") << EntryRef {};
        QTest::newRow("empty") << QString() << EntryRef {};
    }

    void entryContainingPointer()
    {
        QFETCH(QString, pointer);
        QFETCH(EntryRef, entry);
        ManifestDocument document;
        document.setText(manifestText());
        QCOMPARE(document.entryContaining(pointer.toStdString()), entry);
    }

    void moveEntryRules()
    {
        ManifestDocument document;
        document.setText(QStringLiteral("ccm:\n  resources:\n    - package:\n        - a: {}\n        - b: {}\n"
                                        "    - file:\n        - /x: {}\n    - package:\n        - c: {}\n"));
        QVERIFY(!document.moveEntry({0, 0}, 1, 0));
        QVERIFY(document.moveEntry({0, 0}, 2, 1));
        QCOMPARE(document.text(),
            QStringLiteral("ccm:\n  resources:\n    - package:\n        - b: {}\n"
                           "    - file:\n        - /x: {}\n    - package:\n        - c: {}\n"
                           "        - a: {}\n"));
        // Moving the last entry out of a block removes the block.
        QVERIFY(document.moveEntry({0, 0}, 2, 0));
        QCOMPARE(document.blocks().size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(document.blocks()[1].entries[0].name), QStringLiteral("b"));
    }

    void loadedTextReachesViewsBeforeItsModel()
    {
        // A loaded text is announced on its own, while its model is worked out, then the model's
        // change; an edit announces only the change.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.yaml"));
        QVERIFY(writeFile(path, kManifest));
        ManifestDocument document;
        QStringList signalsSeen;
        QString announced;
        connect(&document, &ManifestDocument::textLoading, this, [&](const QString &text) {
            signalsSeen << QStringLiteral("textLoading");
            announced = text;
        });
        connect(&document, &ManifestDocument::changed, this, [&] { signalsSeen << QStringLiteral("changed"); });
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        QCOMPARE(signalsSeen, QStringList({QStringLiteral("textLoading"), QStringLiteral("changed")}));
        QCOMPARE(announced, manifestText());
        QCOMPARE(document.text(), manifestText());
        QCOMPARE(document.blocks().size(), std::size_t {3});
        QCOMPARE(document.resources().size(), std::size_t {4});
        QVERIFY2(errorCount(document.diagnostics()) == 0, qPrintable(describe(document.diagnostics())));

        signalsSeen.clear();
        document.setText(manifestText() + QStringLiteral("# more\n"));
        QCOMPARE(signalsSeen, QStringList({QStringLiteral("changed")}));
    }

    void saveAndOpenAreByteStable()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.yaml"));
        const QByteArray bytes = QByteArray(kManifest) + "\n\n# end without newline";
        QVERIFY(writeFile(path, bytes));
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        ManifestDocument document;
        QSignalSpy pathChanged(&document, &ManifestDocument::filePathChanged);
        QString error;
        QVERIFY(document.load(path, &error));
        QCOMPARE(pathChanged.count(), 1);
        QCOMPARE(document.filePath(), path);
        QCOMPARE(document.baseDirectory(), QFileInfo(path).absolutePath());
        const QString copy = dir.filePath(QStringLiteral("copy.yaml"));
        QVERIFY(document.save(path, &error));
        QVERIFY(document.save(copy, &error));
        for (const QString &written : {path, copy}) {
            QFile file(written);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), bytes);
        }
        QCOMPARE(std::filesystem::status(path.toStdString()).permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
        QCOMPARE(document.filePath(), copy);
    }

    void modifiedFollowsSaveAndRevert()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.yaml"));
        QVERIFY(writeFile(path, kManifest));
        ManifestDocument document;
        QSignalSpy modified(&document, &ManifestDocument::modifiedChanged);
        QString error;
        QVERIFY(document.load(path, &error));
        document.setProperty({0, 0}, "ensure", "absent");
        QVERIFY(document.isModified());
        QCOMPARE(modified.count(), 1);
        QVERIFY(document.save(path, &error));
        QVERIFY(!document.isModified());
        document.setProperty({0, 0}, "ensure", "latest");
        QVERIFY(document.revert(&error));
        QVERIFY(!document.isModified());
        QVERIFY(document.text().contains(QStringLiteral("ensure: absent")));
        document.undoStack()->undo();
        QVERIFY(document.text().contains(QStringLiteral("- nginx:\n            ensure: latest")));

        ManifestDocument fresh;
        QVERIFY(!fresh.revert(&error));
        QVERIFY(!error.isEmpty());
        fresh.restore(manifestText());
        QCOMPARE(fresh.text(), manifestText());
        QVERIFY(fresh.isModified());
    }

    void loadErrors()
    {
        QTemporaryDir dir;
        ManifestDocument document;
        document.setText(QStringLiteral("ccm: {}\n"));
        const QString before = document.text();
        QString error;
        QVERIFY(!document.load(dir.filePath(QStringLiteral("missing.yaml")), &error));
        QVERIFY(error.contains(QStringLiteral("missing.yaml")));
        error.clear();
        QVERIFY(!document.load(dir.path(), &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(document.text(), before);
        QVERIFY(!document.save(dir.filePath(QStringLiteral("no/such/dir/m.yaml")), &error));
        QVERIFY(error.contains(QStringLiteral("m.yaml")));
    }

    void bundles()
    {
        QTemporaryDir dir;
        const QString content = dir.filePath(QStringLiteral("content"));
        QVERIFY(QDir().mkpath(content + QStringLiteral("/files")));
        QVERIFY(writeFile(content + QStringLiteral("/manifest.yaml"), kManifest));
        QVERIFY(writeFile(content + QStringLiteral("/files/motd"), "hi\n"));
        const QString bundle = dir.filePath(QStringLiteral("b.tar.gz"));
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                     {QStringLiteral("-czf"), bundle, QStringLiteral("-C"), content, QStringLiteral(".")}),
            0);
        ManifestDocument document;
        QString error;
        QVERIFY2(document.load(bundle, &error), qPrintable(error));
        QCOMPARE(document.text(), manifestText());
        QVERIFY(document.filePath().isEmpty());
        QCOMPARE(document.loadedFrom(), bundle);

        const QString empty = dir.filePath(QStringLiteral("empty.tgz"));
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                     {QStringLiteral("-czf"), empty, QStringLiteral("-C"), content, QStringLiteral("files")}),
            0);
        QVERIFY(!document.load(empty, &error));
        QVERIFY(error.contains(QStringLiteral("manifest.yaml")));

        const QString unsafe = dir.filePath(QStringLiteral("unsafe.tar.gz"));
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                     {QStringLiteral("-czf"), unsafe, QStringLiteral("-C"), content,
                         QStringLiteral("--transform=s,^,../,"), QStringLiteral("manifest.yaml")}),
            0);
        QVERIFY(!document.load(unsafe, &error));
        QVERIFY(error.contains(QStringLiteral("unsafe")));

        const QString garbage = dir.filePath(QStringLiteral("garbage.tar.gz"));
        QVERIFY(writeFile(garbage, "not an archive"));
        QVERIFY(!document.load(garbage, &error));
        QVERIFY(error.contains(QStringLiteral("garbage.tar.gz")));
        QCOMPARE(document.text(), manifestText());
    }

    void bundlesAreVerifiedAsEveryProgramOpensThem()
    {
        QTemporaryDir dir;
        const QString content = dir.filePath(QStringLiteral("content"));
        QVERIFY(QDir().mkpath(content + QStringLiteral("/files")));
        QVERIFY(writeFile(content + QStringLiteral("/manifest.yaml"), kManifest));
        QVERIFY(writeFile(content + QStringLiteral("/files/motd"), "changed\n"));
        // The digest of "hi\n", not of what the bundle holds.
        QVERIFY(writeFile(content + QStringLiteral("/SHA256SUMS"),
            "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4  files/motd\n"));
        const QString bundle = dir.filePath(QStringLiteral("changed.TGZ"));
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                     {QStringLiteral("-czf"), bundle, QStringLiteral("-C"), content, QStringLiteral(".")}),
            0);
        // Unpacked in a private directory below TMPDIR, which is gone after, on errors too.
        const QByteArray savedTmp = qgetenv("TMPDIR");
        const QString tmp = dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(tmp));
        qputenv("TMPDIR", QFile::encodeName(tmp));
        const auto restoreTmp = qScopeGuard([&] {
            if (savedTmp.isNull())
                qunsetenv("TMPDIR");
            else
                qputenv("TMPDIR", savedTmp);
        });
        ManifestDocument document;
        QString error;
        QVERIFY(!document.load(bundle, &error));
        QVERIFY2(error.contains(QStringLiteral("the SHA-256 of 'files/motd' does not match")), qPrintable(error));
        QVERIFY(error.contains(QStringLiteral("changed.TGZ")));
        QVERIFY(QDir(tmp).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));

        QVERIFY(QFile::remove(content + QStringLiteral("/SHA256SUMS")));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), content + QStringLiteral("/files/link")));
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                     {QStringLiteral("-czf"), bundle, QStringLiteral("-C"), content, QStringLiteral(".")}),
            0);
        QVERIFY(!document.load(bundle, &error));
        QVERIFY2(error.contains(QStringLiteral("is a symbolic link")), qPrintable(error));
        QVERIFY(QDir(tmp).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));

        QVERIFY(QFile::remove(content + QStringLiteral("/files/link")));
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                     {QStringLiteral("-czf"), bundle, QStringLiteral("-C"), content, QStringLiteral(".")}),
            0);
        QVERIFY2(document.load(bundle, &error), qPrintable(error));
        QCOMPARE(document.loadedFrom(), bundle);
        QVERIFY(QDir(tmp).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
    }
};

CCM_TEST_GUILESS_MAIN(TestManifestDocument)
#include "tst_manifest_document.moc"
