// SPDX-License-Identifier: Apache-2.0
// A capture written as YAML: it loads back into exactly the captured values, is valid for this
// project and for upstream's schema, and is laid out and commented as documented; its JSON form
// reads back strictly, naming the member at fault.
#include "base/base64.h"
#include "core/capture/captured_manifest.h"
#include "core/model/validator.h"
#include "json_test_support.h"
#include "test_main.h"
#include "test_support.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

CapturedResource capturedFile(const std::string &name, const Json &content)
{
    Json properties = Json::object();
    properties["ensure"] = "present";
    properties["owner"] = "root";
    properties["group"] = "root";
    properties["mode"] = "0644";
    properties["content"] = content;
    return {"file", name, properties, {}};
}

/// A capture of each kind of resource, with data, a source, skips and warnings.
CapturedManifest sampleCapture()
{
    CapturedManifest capture;
    capture.host = "web1";
    capture.capturedAt = "2026-11-29T06:00:00Z";
    capture.capturedBy = "root";
    capture.command = {"ccm-backend", "capture", "--package", "nginx*", "--file", "/etc/motd", "--data"};
    capture.data = Json::parse(R"({"hostname": "web1", "package_versions": {"nginx": "1.22.1-9"}})");
    capture.resources.push_back(
        {"service", "nginx", Json::parse(R"({"ensure": "running", "enable": true})"), "running and enabled"});
    capture.resources.push_back(capturedFile("/etc/motd", "Welcome to {{ lookup('data.hostname') }}\n"));
    capture.resources.back().comment = "the host's name moved to data";
    capture.resources.push_back({"file", "/etc/app",
        Json::parse(R"({"ensure": "directory", "owner": "root", "group": "root", "mode": "0755"})"), {}});
    capture.resources.push_back({"file", "/etc/app/logo.png",
        Json::parse(R"({"ensure": "present", "owner": "root", "group": "root", "mode": "0644",
                        "source": "files/etc/app/logo.png"})"),
        "binary content"});
    capture.resources.push_back(
        {"package", "nginx", Json::parse(R"({"ensure": "{{ lookup('data.package_versions.nginx') }}"})"), {}});
    capture.sources.push_back({"files/etc/app/logo.png", std::string("\x89PNG\r\n\x1a\n\0\1", 10), false});
    capture.skipped.push_back({"/etc/app/current", "symlink", "a symbolic link cannot be a file resource"});
    capture.warnings.push_back("/etc/app/secret.key is only readable by its owner and was left out");
    return capture;
}

/// The entries of a loaded manifest's blocks as [type, name, properties] triples, in order.
Json loadedEntries(const LoadedManifest &loaded)
{
    Json out = Json::array();
    if (!loaded.manifest.ccm || !loaded.manifest.ccm->resources)
        return out;
    for (const ResourceBlock &block : *loaded.manifest.ccm->resources) {
        for (const ResourceEntry &entry : block.entries)
            out.push_back(Json::array({block.type, entry.name, entry.properties}));
    }
    return out;
}

/// The capture's resources in the order captureToYaml writes them, as loadedEntries gives them.
Json expectedEntries(const CapturedManifest &capture)
{
    Json out = Json::array();
    for (const char *type : {"package", "file", "service"}) {
        for (const CapturedResource &resource : capture.resources) {
            if (resource.type == type)
                out.push_back(Json::array({resource.type, resource.name, resource.properties}));
        }
    }
    return out;
}

bool captureHas(const std::string &text, const char *part)
{
    return text.find(part) != std::string::npos;
}

/// Runs python3 with arguments; its exit code (-1 when it did not finish) and merged output.
int captureRunPython(const QStringList &arguments, QByteArray *output)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(python3(), arguments);
    if (!process.waitForFinished(60000))
        return -1;
    *output = process.readAll();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

/// A JSON capture with `pointer` set to `value` (or removed when value is discarded).
Json patchedCapture(const std::string &pointer, const Json &value)
{
    Json json = captureToJson(sampleCapture());
    const Json::json_pointer at(pointer);
    if (value.is_discarded())
        json[at.parent_pointer()].erase(at.back());
    else
        json[at] = value;
    return json;
}

} // namespace

class TestCapturedManifest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void awkwardContentRoundTrips_data()
    {
        QTest::addColumn<QString>("content");
        QTest::newRow("empty") << QString();
        QTest::newRow("one line, no newline") << s("hello");
        QTest::newRow("one line") << s("hello\n");
        QTest::newRow("no final newline") << s("a\nb");
        QTest::newRow("trailing newlines") << s("a\nb\n\n\n");
        QTest::newRow("leading spaces") << s("  indented\nnext\n");
        QTest::newRow("leading spaces, no newline") << s("   x\n y");
        QTest::newRow("leading newlines") << s("\n\nafter blank lines\n");
        QTest::newRow("blank line of spaces") << s("a\n   \nb\n");
        QTest::newRow("trailing spaces") << s("a  \nb  ");
        QTest::newRow("only spaces") << s("   ");
        QTest::newRow("only newlines") << s("\n\n");
        QTest::newRow("tabs") << s("\tkey\tvalue\n\t\n");
        QTest::newRow("document marker") << s("---\n...\n");
        QTest::newRow("document marker alone") << s("---");
        QTest::newRow("hash") << s("# not a comment\nx # y\n");
        QTest::newRow("hash alone") << s("#");
        QTest::newRow("colon space") << s("key: value");
        QTest::newRow("list item") << s("- item\n- other\n");
        QTest::newRow("UTF-8") << s("Grüße, 世界 ✓\n");
        QTest::newRow("CRLF") << s("line one\r\nline two\r\n");
        QTest::newRow("CR alone") << s("a\rb");
        QTest::newRow("yes") << s("yes");
        QTest::newRow("no") << s("no");
        QTest::newRow("on") << s("on");
        QTest::newRow("Off") << s("Off");
        QTest::newRow("true") << s("true");
        QTest::newRow("null") << s("null");
        QTest::newRow("tilde") << s("~");
        QTest::newRow("integer") << s("42");
        QTest::newRow("octal") << s("0644");
        QTest::newRow("float") << s("1.5");
        QTest::newRow("exponent") << s("1e3");
        QTest::newRow("quotes") << s("'single' \"double\" \\back\n");
        QTest::newRow("flow characters") << s("{a: [b, c]}\n");
        QTest::newRow("directive") << s("%YAML 1.2\n");
        QTest::newRow("line separators") << s("a\u2028b\u2029c\u0085d\n");
        QTest::newRow("anchor and alias") << s("&a *b !tag |x >y @z `w\n");
    }

    void awkwardContentRoundTrips()
    {
        QFETCH(QString, content);
        CapturedManifest capture = sampleCapture();
        capture.resources.push_back(capturedFile("/etc/awkward", content.toStdString()));
        const std::string yaml = captureToYaml(capture);
        const LoadedManifest loaded = loadManifest(yaml);
        QVERIFY2(
            loaded.parsed && loaded.diagnostics.empty(), qPrintable(describe(loaded.diagnostics) + q("\n" + yaml)));
        COMPARE_JSON(loadedEntries(loaded), expectedEntries(capture));
        COMPARE_JSON(*loaded.manifest.data, capture.data);
        const Diagnostics diagnostics = validateManifestText(yaml);
        QVERIFY2(diagnostics.empty(), qPrintable(describe(diagnostics) + q("\n" + yaml)));
        QCOMPARE(q(captureToYaml(capture)), q(yaml));
    }

    void awkwardNamesRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("space") << s("/srv/with space/file name");
        QTest::newRow("UTF-8") << s("/srv/ünïcödé/日本");
        QTest::newRow("hash") << s("/srv/#hash");
        QTest::newRow("colon") << s("/srv/a: b");
        QTest::newRow("quote") << s("/srv/it's \"quoted\"");
        QTest::newRow("dash") << s("/srv/- x");
        QTest::newRow("line separator") << s("/srv/a\u2028b\u0085c");
    }

    void awkwardNamesRoundTrip()
    {
        QFETCH(QString, name);
        CapturedManifest capture = sampleCapture();
        capture.resources.push_back(capturedFile(name.toStdString(), "text\n"));
        capture.resources.back().comment = "named " + name.toStdString();
        const std::string yaml = captureToYaml(capture);
        const LoadedManifest loaded = loadManifest(yaml);
        QVERIFY2(
            loaded.parsed && loaded.diagnostics.empty(), qPrintable(describe(loaded.diagnostics) + q("\n" + yaml)));
        COMPARE_JSON(loadedEntries(loaded), expectedEntries(capture));
        const Diagnostics diagnostics = validateManifestText(yaml);
        QVERIFY2(diagnostics.empty(), qPrintable(describe(diagnostics) + q("\n" + yaml)));
    }

    void layout()
    {
        CapturedManifest capture = sampleCapture();
        capture.resources.push_back(capturedFile("/etc/issue", "line one\nline two\n"));
        capture.resources.push_back(capturedFile("/etc/hostname", "  web1"));
        const std::string expected = R"(# Captured from web1 at 2026-11-29T06:00:00Z as root.
# Command: ccm-backend capture --package 'nginx*' --file /etc/motd --data
# A noop of this manifest on that host finds nothing to change.
#
# Skipped (1):
#   /etc/app/current (symlink): a symbolic link cannot be a file resource
#
# Warnings:
#   /etc/app/secret.key is only readable by its owner and was left out
data:
  hostname: web1
  package_versions:
    nginx: "1.22.1-9"
ccm:
  resources:
    - package:
        - nginx:
            ensure: "{{ lookup('data.package_versions.nginx') }}"
    - file:
        # the host's name moved to data
        - /etc/motd:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: |
              Welcome to {{ lookup('data.hostname') }}
        - /etc/app:
            ensure: directory
            owner: root
            group: root
            mode: "0755"
        # binary content
        - /etc/app/logo.png:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            source: files/etc/app/logo.png
        - /etc/issue:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: |
              line one
              line two
        - /etc/hostname:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: "  web1"
    - service:
        # running and enabled
        - nginx:
            ensure: running
            enable: true
)";
        const std::string yaml = captureToYaml(capture);
        QVERIFY2(yaml == expected, yaml.c_str());
    }

    void literalBlockHeaders_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("written");
        QTest::newRow("clip") << s("a\nb\n") << s("content: |\n              a\n              b\n");
        QTest::newRow("strip") << s("a\nb") << s("content: |-\n              a\n              b\n");
        QTest::newRow("keep") << s("a\nb\n\n") << s("content: |+\n              a\n              b\n\n");
        QTest::newRow("indented") << s("  a\nb\n") << s("content: |2\n                a\n              b\n");
    }

    void literalBlockHeaders()
    {
        QFETCH(QString, content);
        QFETCH(QString, written);
        CapturedManifest capture;
        capture.resources.push_back(capturedFile("/etc/x", content.toStdString()));
        const QString yaml = q(captureToYaml(capture));
        QVERIFY2(yaml.endsWith(written), qPrintable(yaml));
    }

    void emptyCapture()
    {
        const std::string yaml = captureToYaml(CapturedManifest {});
        QVERIFY2(yaml.ends_with("ccm:\n  resources: []\n"), yaml.c_str());
        QVERIFY(!captureHas(yaml, "data:"));
        const LoadedManifest loaded = loadManifest(yaml);
        QVERIFY2(loaded.diagnostics.empty(), qPrintable(describe(loaded.diagnostics)));
        QVERIFY(validateManifestText(yaml).empty());
    }

    // A host name, a reason or a comment with a line break cannot end its comment line and add YAML.
    void commentsStayComments()
    {
        CapturedManifest capture = sampleCapture();
        capture.host = "evil\nccm:\n  resources: []";
        capture.skipped.push_back({"/etc/x\ndata: {}", "fifo", "line\u2028break\u0085here\r"});
        capture.warnings.push_back("two\nlines");
        capture.resources.front().comment = "a\n- package:\n    - x:";
        capture.command.push_back("it's\na test");
        const std::string yaml = captureToYaml(capture);
        const LoadedManifest loaded = loadManifest(yaml);
        QVERIFY2(loaded.diagnostics.empty(), qPrintable(describe(loaded.diagnostics) + q("\n" + yaml)));
        COMPARE_JSON(loadedEntries(loaded), expectedEntries(capture));
        QVERIFY(captureHas(yaml, "# Captured from evil ccm:   resources: [] at"));
        QVERIFY(captureHas(yaml, "#   /etc/x data: {} (fifo): line break here \n"));
        QVERIFY(captureHas(yaml, "'it'\\''s a test'"));
    }

    // Upstream's schema accepts the capture, and an independent YAML reader (PyYAML) reads the same
    // values this project's loader reads.
    void validForUpstream()
    {
        const QString schema = referenceSchemaPath("manifest.json");
        CapturedManifest capture = sampleCapture();
        const char *contents[] = {"", "a", "a\n", "a\nb", "a\n\n\n", "  x\ny\n", "\tx\n", "---\n", "# c\n", "k: v",
            "yes", "0644", "Grüße\n", "a\r\nb\r\n", "\n\nx\n", "a\n   \nb"};
        int index = 0;
        for (const char *content : contents)
            capture.resources.push_back(capturedFile("/etc/c" + std::to_string(index++), content));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("capture.yaml"));
        QVERIFY(writeFile(path, QByteArray::fromStdString(captureToYaml(capture))));
        QByteArray output;
        const QString reader = QStringLiteral("import json, sys, yaml\n"
                                              "doc = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))\n"
                                              "out = []\n"
                                              "for block in doc['ccm']['resources']:\n"
                                              "    for kind, entries in block.items():\n"
                                              "        for entry in entries:\n"
                                              "            for name, props in entry.items():\n"
                                              "                out.append([kind, name, props])\n"
                                              "print(json.dumps({'data': doc['data'], 'entries': out}))\n");
        QCOMPARE(captureRunPython({QStringLiteral("-c"), reader, path}, &output), 0);
        const Json read = Json::parse(output.toStdString());
        COMPARE_JSON(read["entries"], expectedEntries(capture));
        COMPARE_JSON(read["data"], capture.data);
        if (const QByteArray missing = missingReferenceSchema(schema); !missing.isEmpty())
            QSKIP(missing.constData());
        const int status = captureRunPython(
            {QStringLiteral(CCM_SOURCE_DIR "/tests/core/upstream_schema_check.py"), schema, path}, &output);
        QVERIFY2(status == 0, output.constData());
    }

    void jsonRoundTrip()
    {
        const CapturedManifest capture = sampleCapture();
        const Json json = captureToJson(capture);
        QCOMPARE(
            q(json["sources"][0]["content_base64"].get<std::string>()), q(encodeBase64(capture.sources[0].content)));
        const auto back = captureFromJson(Json::parse(json.dump()));
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        COMPARE_JSON(captureToJson(*back), json);
        QCOMPARE(q(captureToYaml(*back)), q(captureToYaml(capture)));
        QCOMPARE(back->sources.at(0).content, capture.sources.at(0).content);
        // Members a result adds beside the capture (the daemon's "yaml", the fleet's "identity").
        Json extended = json;
        extended["yaml"] = captureToYaml(capture);
        QVERIFY(captureFromJson(extended));
    }

    void jsonRefused_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<Json>("value");
        QTest::addColumn<QString>("member");
        const Json missing = Json(Json::value_t::discarded);
        QTest::newRow("host missing") << s("/host") << missing << s("host: missing");
        QTest::newRow("host a number") << s("/host") << Json(1) << s("host: expected a string");
        QTest::newRow("command not a list") << s("/command") << Json("x") << s("command: expected a list");
        QTest::newRow("command item") << s("/command/1") << Json(true) << s("command[1]: expected a string");
        QTest::newRow("data a list") << s("/data") << Json::array() << s("data: expected a map");
        QTest::newRow("data nested") << s("/data/package_versions/nginx") << Json::object({{"a", "b"}})
                                     << s("data.package_versions.nginx: expected a string");
        QTest::newRow("resources missing") << s("/resources") << missing << s("resources: missing");
        QTest::newRow("resource not a map") << s("/resources/2") << Json("x") << s("resources[2]: expected a map");
        QTest::newRow("resource type") << s("/resources/3/type") << Json("exec")
                                       << s("resources[3].type: \"exec\" is not one of");
        QTest::newRow("resource name empty") << s("/resources/0/name") << Json("") << s("resources[0].name: empty");
        QTest::newRow("resource name missing") << s("/resources/0/name") << missing << s("resources[0].name: missing");
        QTest::newRow("properties a list")
            << s("/resources/1/properties") << Json::array() << s("resources[1].properties: expected a map");
        QTest::newRow("unknown property") << s("/resources/1/properties/require") << Json::array({"package#x"})
                                          << s("resources[1].properties.require: a captured file has no property");
        QTest::newRow("package removed") << s("/resources/4/properties/ensure") << Json("absent")
                                         << s("resources[4].properties.ensure: \"absent\" is not a state");
        QTest::newRow("service state") << s("/resources/0/properties/ensure") << Json("restarted")
                                       << s("resources[0].properties.ensure:");
        QTest::newRow("enable a string") << s("/resources/0/properties/enable") << Json("yes")
                                         << s("resources[0].properties.enable: expected a boolean");
        QTest::newRow("mode a number") << s("/resources/2/properties/mode") << Json(755)
                                       << s("resources[2].properties.mode: expected a string");
        QTest::newRow("source of the host") << s("/resources/3/properties/source") << Json("/etc/shadow")
                                            << s("resources[3].properties.source: \"/etc/shadow\" is none");
        QTest::newRow("comment missing") << s("/resources/0/comment") << missing << s("resources[0].comment: missing");
        QTest::newRow("source absolute") << s("/sources/0/path") << Json("/etc/passwd")
                                         << s("sources[0].path: \"/etc/passwd\" does not start with");
        QTest::newRow("source dotdot") << s("/sources/0/path") << Json("files/../x") << s("sources[0].path:");
        QTest::newRow("source dot") << s("/sources/0/path") << Json("files/./x") << s("sources[0].path:");
        QTest::newRow("source empty part") << s("/sources/0/path") << Json("files//x") << s("sources[0].path:");
        QTest::newRow("source trailing slash") << s("/sources/0/path") << Json("files/x/") << s("sources[0].path:");
        QTest::newRow("source bad base64")
            << s("/sources/0/content_base64") << Json("!!!!") << s("sources[0].content_base64:");
        QTest::newRow("source private") << s("/sources/0/private") << Json(0)
                                        << s("sources[0].private: expected a boolean");
        QTest::newRow("twice") << s("/sources/1") << Json::parse(R"({"path": "files/etc/app/logo.png",
            "content_base64": "", "private": false})")
                               << s("sources[1].path: \"files/etc/app/logo.png\" is there twice");
        QTest::newRow("inside another") << s("/sources/1") << Json::parse(R"({"path": "files/etc/app/logo.png/x",
            "content_base64": "", "private": false})")
                                        << s("sources[1].path: \"files/etc/app/logo.png/x\" lies inside");
        QTest::newRow("skip kind") << s("/skipped/0/kind") << Json("whatever") << s("skipped[0].kind:");
        QTest::newRow("skip reason") << s("/skipped/0/reason") << Json(nullptr)
                                     << s("skipped[0].reason: expected a string");
        QTest::newRow("warnings") << s("/warnings") << Json::object() << s("warnings: expected a list");
    }

    void jsonRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(Json, value);
        QFETCH(QString, member);
        const auto capture = captureFromJson(patchedCapture(pointer.toStdString(), value));
        QVERIFY(!capture);
        QCOMPARE(q(capture.error().code), QStringLiteral("bad_capture"));
        QVERIFY2(q(capture.error().message).startsWith(member), capture.error().message.c_str());
    }

    void jsonNotAMap()
    {
        const auto capture = captureFromJson(Json::array());
        QVERIFY(!capture);
        QCOMPARE(q(capture.error().code), QStringLiteral("bad_capture"));
    }

    void jsonLimits()
    {
        const Json json = captureToJson(sampleCapture());
        CaptureLimits limits;
        limits.maxFiles = 2;
        auto capture = captureFromJson(json, limits);
        QVERIFY(!capture);
        QVERIFY2(
            q(capture.error().message).startsWith(s("resources: more than 2 files")), capture.error().message.c_str());
        limits = {};
        limits.maxFileBytes = 9;
        capture = captureFromJson(json, limits);
        QVERIFY(!capture);
        QVERIFY2(q(capture.error().message).startsWith(s("sources[0].content_base64: larger than the 9 bytes")),
            capture.error().message.c_str());
        limits = {};
        limits.maxTotalBytes = 20;
        capture = captureFromJson(json, limits);
        QVERIFY(!capture);
        QVERIFY2(
            q(capture.error().message).contains(s("more than 20 bytes of content")), capture.error().message.c_str());
        limits = {};
        limits.maxPackages = 0;
        capture = captureFromJson(json, limits);
        QVERIFY(!capture);
        QVERIFY2(q(capture.error().message).startsWith(s("resources: more than 0 packages")),
            capture.error().message.c_str());
        limits = {};
        limits.maxFiles = 0;
        limits.maxPackages = 0;
        limits.maxServices = 0;
        capture = captureFromJson(json, limits);
        QVERIFY(!capture);
        QVERIFY2(
            q(capture.error().message).startsWith(s("command: more than 0 entries")), capture.error().message.c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestCapturedManifest)
#include "tst_captured_manifest.moc"
