// SPDX-License-Identifier: Apache-2.0
// A capture added to the manifest being edited: into the blocks of its types or new blocks in the
// capture's order, never twice, with its data merged and its source files written beside the
// manifest, all in one step of the undo history.
#include "designer/core/capture_client.h"
#include "designer/core/capture_insertion.h"
#include "designer/core/manifest_document.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using ccm::CapturedManifest;
using ccm::CapturedResource;
using ccm::CapturedSource;
using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

const char *const kExisting = R"(# Web server
data:
  port: 80
ccm:
  resources:
    - package:
        # the server
        - nginx:
            ensure: present
    - file:
        - /etc/motd:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: "Welcome\n"
    # services last
    - service:
        name: nginx
        ensure: running
)";

CapturedResource resource(const std::string &type, const std::string &name, Json properties)
{
    return CapturedResource {type, name, std::move(properties), {}};
}

/// A captured regular file's properties with `content` inline.
Json fileWith(const char *content)
{
    return {{"ensure", "present"}, {"owner", "root"}, {"group", "root"}, {"mode", "0644"}, {"content", content}};
}

/// Loads `text` into `document` from a file in `dir`, as opening a manifest does.
bool loadText(ManifestDocument &document, const QTemporaryDir &dir, const char *text)
{
    const QString path = dir.filePath(s("manifest.yaml"));
    QString error;
    return writeFile(path, text) && document.load(path, &error);
}

QStringList namesOf(const ManifestDocument &document, int block)
{
    QStringList names;
    for (const ccm::ResourceEntry &entry : document.blocks()[static_cast<std::size_t>(block)].entries)
        names.append(q(entry.name));
    return names;
}

/// The document's errors, one a line, for a failure message.
QString errorsOf(const ManifestDocument &document)
{
    QStringList lines;
    for (const ccm::Diagnostic &diagnostic : document.diagnostics()) {
        if (diagnostic.severity == ccm::Severity::Error)
            lines.append(q(diagnostic.path + ": " + diagnostic.message));
    }
    return lines.join(QLatin1Char('\n'));
}

QStringList blockTypes(const ManifestDocument &document)
{
    QStringList types;
    for (const ccm::ResourceBlock &block : document.blocks())
        types.append(q(block.type));
    return types;
}

} // namespace

class TestCaptureInsertion : public QObject {
    Q_OBJECT

private slots:
    void mergesIntoExistingBlocksWithoutDuplicates()
    {
        QTemporaryDir dir;
        ManifestDocument document;
        QVERIFY(loadText(document, dir, kExisting));
        const QString before = document.text();
        CapturedManifest capture;
        capture.resources = {
            resource("package", "nginx", {{"ensure", "present"}}),
            resource("package", "curl", {{"ensure", "present"}}),
            resource("file", "/etc/motd", fileWith("Other\n")),
            resource(
                "file", "/etc/app", {{"ensure", "directory"}, {"owner", "root"}, {"group", "root"}, {"mode", "0755"}}),
            resource("file", "/etc/app/app.conf", fileWith("a = 1\nb = 2\n")),
            resource("service", "nginx", {{"ensure", "running"}, {"enable", true}}),
            resource("service", "ssh", {{"ensure", "stopped"}, {"enable", false}}),
        };

        bool ok = false;
        QString error;
        const CaptureInsertionPlan plan = insertCapture(document, capture, s("Add from this machine"), &ok, &error);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(plan.alreadyPresent, (QStringList {s("package#nginx"), s("file#/etc/motd"), s("service#nginx")}));
        QCOMPARE(int(plan.added.size()), 4);
        QCOMPARE(blockTypes(document), (QStringList {s("package"), s("file"), s("service")}));
        QCOMPARE(namesOf(document, 0), (QStringList {s("nginx"), s("curl")}));
        QCOMPARE(namesOf(document, 1), (QStringList {s("/etc/motd"), s("/etc/app"), s("/etc/app/app.conf")}));
        QCOMPARE(namesOf(document, 2), (QStringList {s("nginx"), s("ssh")}));
        QVERIFY2(errorsOf(document).isEmpty(), qPrintable(errorsOf(document) + s("\n") + document.text()));
        // The existing text and its comments stay; the existing resources are as they were.
        for (const char *kept : {"# Web server", "# the server", "# services last", "content: \"Welcome\\n\""})
            QVERIFY2(document.text().contains(s(kept)), kept);
        const ccm::ResourceEntry &conf = document.blocks()[1].entries[2];
        QCOMPARE(q(conf.properties["content"].dump()), q(Json("a = 1\nb = 2\n").dump()));
        QCOMPARE(q(conf.properties["mode"].dump()), s("\"0644\""));

        // One step of the history: one undo takes every resource back.
        QCOMPARE(document.undoStack()->count(), 1);
        QCOMPARE(document.undoStack()->undoText(), s("Add from this machine"));
        document.undoStack()->undo();
        QCOMPARE(document.text(), before);
        document.undoStack()->redo();
        QCOMPARE(int(document.resources().size()), 7);

        // The same capture again adds nothing.
        const CaptureInsertionPlan again = insertCapture(document, capture, s("again"), &ok, &error);
        QVERIFY(ok);
        QVERIFY(again.added.empty());
        QCOMPARE(again.alreadyPresent.size(), 7);
    }

    void newBlocksFollowTheCaptureOrder_data()
    {
        QTest::addColumn<QString>("manifest");
        QTest::addColumn<QStringList>("types");
        QTest::newRow("empty") << s("ccm:\n  resources: []\n") << QStringList {s("package"), s("file"), s("service")};
        QTest::newRow("exec and service")
            << s("ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            cwd: /\n"
                 "    - service:\n        - cron:\n            ensure: running\n")
            << QStringList {s("exec"), s("package"), s("file"), s("service")};
        QTest::newRow("file only") << s("ccm:\n  resources:\n    - file:\n        - /tmp/x:\n"
                                        "            ensure: absent\n")
                                   << QStringList {s("package"), s("file"), s("service")};
    }

    void newBlocksFollowTheCaptureOrder()
    {
        QFETCH(QString, manifest);
        QFETCH(QStringList, types);
        QTemporaryDir dir;
        ManifestDocument document;
        const QByteArray text = manifest.toUtf8();
        QVERIFY(loadText(document, dir, text.constData()));
        CapturedManifest capture;
        capture.resources = {
            resource("package", "curl", {{"ensure", "present"}}),
            resource("file", "/etc/hosts", fileWith("127.0.0.1 localhost\n")),
            resource("service", "ssh", {{"ensure", "running"}, {"enable", true}}),
        };
        bool ok = false;
        insertCapture(document, capture, s("Add"), &ok);
        QVERIFY(ok);
        QCOMPARE(blockTypes(document), types);
        QCOMPARE(document.undoStack()->count(), 1);
        QVERIFY2(errorsOf(document).isEmpty(), qPrintable(errorsOf(document) + s("\n") + document.text()));
    }

    void mergesLookedUpData()
    {
        QTemporaryDir dir;
        ManifestDocument document;
        QVERIFY(loadText(document, dir,
            "data:\n  port: 80\n  hostname: other\nccm:\n  resources:\n"
            "    - package:\n        - nginx:\n            ensure: present\n"));
        CapturedManifest capture;
        capture.data = {{"hostname", "web1"}, {"package_versions", {{"nginx", "1.22"}, {"curl", "7.88"}}}};
        capture.resources = {
            resource("package", "nginx", {{"ensure", "{{ lookup('data.package_versions.nginx') }}"}}),
            resource("package", "curl", {{"ensure", "{{ lookup('data.package_versions.curl') }}"}}),
            resource("file", "/etc/issue", fileWith("{{ lookup('data.hostname') }}\n")),
        };
        bool ok = false;
        const CaptureInsertionPlan plan = insertCapture(document, capture, s("Add"), &ok);
        QVERIFY(ok);
        // nginx is in the manifest already, so its version is not looked up by anything added;
        // the manifest's hostname stays and the difference is reported.
        const Json expected = {{"port", 80}, {"hostname", "other"}, {"package_versions", {{"curl", "7.88"}}}};
        QCOMPARE(q(document.loaded().manifest.data->dump()), q(expected.dump()));
        QCOMPARE(plan.dataConflicts.size(), 1);
        QVERIFY2(plan.dataConflicts.front().contains(s("data.hostname")), qPrintable(plan.dataConflicts.front()));
        QCOMPARE(document.undoStack()->count(), 1);
        document.undoStack()->undo();
        QCOMPARE(q(document.loaded().manifest.data->dump()), q(Json({{"port", 80}, {"hostname", "other"}}).dump()));
    }

    void dataSectionAddedWhenMissing()
    {
        QTemporaryDir dir;
        ManifestDocument document;
        QVERIFY(loadText(document, dir, "ccm:\n  resources: []\n"));
        CapturedManifest capture;
        capture.data = {{"hostname", "web1"}};
        capture.resources = {resource("file", "/etc/issue", fileWith("{{ lookup('data.hostname') }}\n"))};
        bool ok = false;
        insertCapture(document, capture, s("Add"), &ok);
        QVERIFY(ok);
        QVERIFY(document.loaded().manifest.data.has_value());
        QCOMPARE(q(document.loaded().manifest.data->dump()), q(Json({{"hostname", "web1"}}).dump()));
        QVERIFY2(errorsOf(document).isEmpty(), qPrintable(errorsOf(document) + s("\n") + document.text()));
    }

    void unreadableManifestRefused()
    {
        QTemporaryDir dir;
        ManifestDocument document;
        QVERIFY(loadText(document, dir, "ccm:\n  resources: [\n"));
        CapturedManifest capture;
        capture.resources = {resource("package", "curl", {{"ensure", "present"}})};
        bool ok = true;
        QString error;
        insertCapture(document, capture, s("Add"), &ok, &error);
        QVERIFY(!ok);
        QVERIFY2(error.contains(s("does not read")), qPrintable(error));
        QCOMPARE(document.undoStack()->count(), 0);
    }

    void onlyReferencedSourcesPlanned()
    {
        QTemporaryDir dir;
        ManifestDocument document;
        QVERIFY(loadText(document, dir,
            "ccm:\n  resources:\n    - file:\n        - /bin/tool:\n"
            "            ensure: present\n            source: files/bin/tool\n"));
        CapturedManifest capture;
        capture.resources = {resource("file", "/bin/tool", {{"ensure", "present"}, {"source", "files/bin/tool"}}),
            resource("file", "/bin/other", {{"ensure", "present"}, {"source", "files/bin/other"}})};
        capture.sources = {{"files/bin/tool", "new bytes", false}, {"files/bin/other", "other", false}};
        const CaptureInsertionPlan plan = planCaptureInsertion(document, capture);
        QCOMPARE(int(plan.sources.size()), 1);
        QCOMPARE(q(plan.sources.front().path), s("files/bin/other"));
    }

    void writesSources()
    {
        QTemporaryDir dir;
        const std::vector<CapturedSource> sources = {
            {"files/etc/app/blob.bin", std::string("\0\1\2binary", 9), false},
            {"files/etc/app/secret.key", "-----BEGIN PRIVATE KEY-----\n", true},
        };
        const SourceWriteOutcome outcome = writeCaptureSources(dir.path(), sources);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.written, (QStringList {s("files/etc/app/blob.bin"), s("files/etc/app/secret.key")}));
        QCOMPARE(readAll(dir.filePath(s("files/etc/app/blob.bin"))), QByteArray("\0\1\2binary", 9));
        QCOMPARE(QFileInfo(dir.filePath(s("files/etc/app/secret.key"))).permissions()
                & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
            QFile::Permissions());
        QVERIFY(QFileInfo(dir.filePath(s("files/etc/app/blob.bin"))).permissions() & QFile::ReadOther);
        // No temporary file is left behind.
        QCOMPARE(QDir(dir.filePath(s("files/etc/app"))).entryList(QDir::Files | QDir::Hidden).size(), 2);

        // The same bytes again: left as they are.
        const SourceWriteOutcome same = writeCaptureSources(dir.path(), sources);
        QVERIFY(same.ok);
        QVERIFY(same.written.isEmpty());
        QCOMPARE(same.unchanged.size(), 2);
    }

    void refusesToOverwriteOtherContent()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(s("files/etc")));
        QVERIFY(writeFile(dir.filePath(s("files/etc/motd")), "mine\n"));
        const std::vector<CapturedSource> sources
            = {{"files/etc/issue", "new\n", false}, {"files/etc/motd", "captured\n", false}};
        const SourceWriteOutcome outcome = writeCaptureSources(dir.path(), sources);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(s("files/etc/motd")) && outcome.error.contains(s("other content")),
            qPrintable(outcome.error));
        // Checked before anything is written: neither file changed.
        QCOMPARE(readAll(dir.filePath(s("files/etc/motd"))), QByteArray("mine\n"));
        QVERIFY(!QFileInfo::exists(dir.filePath(s("files/etc/issue"))));
    }

    void refusesSymbolicLinksOnTheWay()
    {
        QTemporaryDir dir;
        QTemporaryDir elsewhere;
        QVERIFY(QFile::link(elsewhere.path(), dir.filePath(s("files"))));
        const SourceWriteOutcome outcome = writeCaptureSources(dir.path(), {{"files/etc/motd", "x\n", false}});
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(s("not a directory")), qPrintable(outcome.error));
        QVERIFY(QDir(elsewhere.path()).isEmpty());
    }

    void selectionParams()
    {
        CaptureSelection selection;
        selection.packages = {s("nginx"), s("lib*")};
        selection.files = {s("/etc/nginx")};
        selection.pin = true;
        const Json params = selection.toParams();
        QCOMPARE(q(params.dump()),
            q(Json({{"packages", {"nginx", "lib*"}}, {"files", {"/etc/nginx"}}, {"data", false}, {"pin", true},
                       {"include_private", false}})
                    .dump()));
    }

    void answersReadStrictly_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("problem");
        QTest::newRow("packages not a list") << s(R"({"packages": {}})") << s("result.packages is not a list");
        QTest::newRow("package without version")
            << s(R"({"packages": [{"name": "a"}]})") << s("packages[0] has no version");
        QTest::newRow("services state") << s(R"({"services": [{"name": "a", "running": "yes", "enabled": true,
            "capturable": true}]})") << s("services[0].running is not true or false");
        QTest::newRow("entry size") << s(R"({"path": "/", "truncated": false, "entries": [{"name": "a",
            "kind": "file", "owner": "root", "group": "root", "mode": "0644", "size": -1, "readable": true,
            "private": false}]})") << s("entries[0].size is not a whole number");
    }

    void answersReadStrictly()
    {
        QFETCH(QString, answer);
        QFETCH(QString, problem);
        const Json json = Json::parse(answer.toStdString());
        QString error;
        if (json.contains("packages"))
            QVERIFY(!capture::packagesFromJson(json, &error));
        else if (json.contains("services"))
            QVERIFY(!capture::servicesFromJson(json, &error));
        else
            QVERIFY(!capture::listingFromJson(json, &error));
        QVERIFY2(error.contains(problem), qPrintable(error));
    }

    void listingRead()
    {
        const Json json = Json::parse(R"({"path": "/etc", "truncated": true, "entries": [
            {"name": "motd", "kind": "file", "owner": "root", "group": "root", "mode": "0644", "size": 12,
             "readable": true, "private": false},
            {"name": "localtime", "kind": "symlink", "owner": "root", "group": "root", "mode": "0777", "size": 33,
             "link_target": "/usr/share/zoneinfo/UTC", "readable": true, "private": false}]})");
        QString error;
        const auto listing = capture::listingFromJson(json, &error);
        QVERIFY2(listing, qPrintable(error));
        QCOMPARE(listing->path, s("/etc"));
        QVERIFY(listing->truncated);
        QCOMPARE(int(listing->entries.size()), 2);
        QVERIFY(listing->entries[0].capturable());
        QVERIFY(!listing->entries[1].capturable());
        QCOMPARE(listing->entries[1].linkTarget, s("/usr/share/zoneinfo/UTC"));
    }
};

CCM_TEST_MAIN(TestCaptureInsertion)
#include "tst_capture_insertion.moc"
