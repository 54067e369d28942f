// SPDX-License-Identifier: Apache-2.0
// Saving manifests: canonical order, stable bytes, readable block scalars, exact round trips.
#include "core/model/manifest_writer.h"
#include "core/model/validator.h"
#include "core/yaml/yaml_reader.h"
#include "json_test_support.h"
#include "test_main.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {
std::string readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}
} // namespace

class TestManifestWriter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void examplesRoundTrip_data()
    {
        QTest::addColumn<QString>("path");
        const QDir examples(QStringLiteral(CCM_SOURCE_DIR "/resources/examples"));
        QStringList files;
        for (const QString &name : examples.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
            files << examples.filePath(name);
        const QDir parts(examples.filePath(QStringLiteral("parts")));
        for (const QString &name : parts.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
            files << parts.filePath(name);
        QVERIFY(files.size() >= 6);
        for (const QString &file : files)
            QTest::newRow(qPrintable(QFileInfo(file).fileName())) << file;
    }

    void examplesRoundTrip()
    {
        QFETCH(QString, path);
        const LoadedManifest first = loadManifest(readText(path));
        QVERIFY2(!hasErrors(first.diagnostics), qPrintable(describe(first.diagnostics)));
        const std::string saved = saveManifest(first.manifest);
        const LoadedManifest second = loadManifest(saved);
        QVERIFY2(
            !hasErrors(second.diagnostics), qPrintable(describe(second.diagnostics) + QStringLiteral("\n") + q(saved)));
        QVERIFY2(first.manifest == second.manifest, qPrintable(q(saved)));
        QCOMPARE(q(saveManifest(second.manifest)), q(saved));
        // What was valid stays valid once written out.
        QVERIFY2(!hasErrors(validateManifestText(saved)), qPrintable(describe(validateManifestText(saved))));
    }

    // Manifests that load without errors but leave nothing in the model must still be written as
    // text that loads again: an empty file is refused as an empty manifest.
    void emptyModelRoundTrip_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty map") << QStringLiteral("{}\n");
        QTest::newRow("null data") << QStringLiteral("data:\n");
        QTest::newRow("data with only a comment") << QStringLiteral("data:\n  # filled in later\n");
    }

    void emptyModelRoundTrip()
    {
        QFETCH(QString, text);
        const LoadedManifest first = loadManifest(text.toStdString());
        QVERIFY2(!hasErrors(first.diagnostics), qPrintable(describe(first.diagnostics)));
        const std::string saved = saveManifest(first.manifest);
        const LoadedManifest second = loadManifest(saved);
        QVERIFY2(
            !hasErrors(second.diagnostics), qPrintable(describe(second.diagnostics) + QStringLiteral("\n") + q(saved)));
        QVERIFY(first.manifest == second.manifest);
        QCOMPARE(q(saveManifest(second.manifest)), q(saved));
    }

    // YAML limits implicit keys to 1024 characters; longer keys, quoted or plain, are written as
    // explicit keys wherever a key is written, and read back the same.
    void longKeysRoundTrip_data()
    {
        QTest::addColumn<QString>("text");
        const QString plain = QString(1500, QLatin1Char('k'));
        const QString quoted = QStringLiteral("'a: b ") + QString(1100, QLatin1Char('q')) + QStringLiteral("'");
        QTest::newRow("data key") << QStringLiteral("data:\n  ? %1\n  : 1\n  short: 2\n").arg(plain);
        QTest::newRow("data key with a map") << QStringLiteral("data:\n  ? %1\n  :\n    inner: [1, 2]\n").arg(quoted);
        QTest::newRow("data key with a list") << QStringLiteral("data:\n  ? %1\n  :\n    - x\n").arg(plain);
        QTest::newRow("item key")
            << QStringLiteral("data:\n  list:\n    - ? %1\n      : one\n      second: two\n").arg(quoted);
        QTest::newRow("resource name") << QStringLiteral(
            "ccm:\n  resources:\n    - file:\n        - ? /%1\n          :\n            ensure: present\n")
                                              .arg(plain);
        QTest::newRow("resource without properties")
            << QStringLiteral("ccm:\n  resources:\n    - exec:\n        - ? %1\n          : {}\n").arg(quoted);
        QTest::newRow("property key") << QStringLiteral(
            "ccm:\n  resources:\n    - exec:\n        - x:\n            ? %1\n            : 1\n")
                                             .arg(plain);
    }

    void longKeysRoundTrip()
    {
        QFETCH(QString, text);
        const LoadedManifest first = loadManifest(text.toStdString());
        QVERIFY2(!hasErrors(first.diagnostics), qPrintable(describe(first.diagnostics)));
        const std::string saved = saveManifest(first.manifest);
        const LoadedManifest second = loadManifest(saved);
        QVERIFY2(
            !hasErrors(second.diagnostics), qPrintable(describe(second.diagnostics) + QStringLiteral("\n") + q(saved)));
        QVERIFY(first.manifest == second.manifest);
        QCOMPARE(q(saveManifest(second.manifest)), q(saved));
    }

    void canonicalLayout()
    {
        const LoadedManifest loaded = loadManifest("ccm:\n"
                                                   "  resources:\n"
                                                   "    - file:\n"
                                                   "        - /etc/motd:\n"
                                                   "            mode: \"0644\"\n"
                                                   "            require: [package#x]\n"
                                                   "            content: \"hello\\nworld\\n\"\n"
                                                   "            group: root\n"
                                                   "            owner: root\n"
                                                   "            ensure: present\n"
                                                   "  pre_message: hi\n"
                                                   "data:\n"
                                                   "  zeta: 1\n"
                                                   "  alpha: \"yes\"\n");
        const std::string expected = "data:\n"
                                     "  zeta: 1\n"
                                     "  alpha: \"yes\"\n"
                                     "ccm:\n"
                                     "  pre_message: hi\n"
                                     "  resources:\n"
                                     "    - file:\n"
                                     "        - /etc/motd:\n"
                                     "            ensure: present\n"
                                     "            content: |\n"
                                     "              hello\n"
                                     "              world\n"
                                     "            owner: root\n"
                                     "            group: root\n"
                                     "            mode: \"0644\"\n"
                                     "            require:\n"
                                     "              - package#x\n";
        QCOMPARE(q(saveManifest(loaded.manifest)), q(expected));
    }

    void singleFormAndDefaults()
    {
        const LoadedManifest loaded
            = loadManifest("ccm:\n  resources:\n"
                           "    - service: {enable: true, name: cron}\n"
                           "    - package:\n        - vim:\n        - defaults: {ensure: present}\n");
        const std::string expected = "ccm:\n"
                                     "  resources:\n"
                                     "    - service:\n"
                                     "        name: cron\n"
                                     "        enable: true\n"
                                     "    - package:\n"
                                     "        - vim: {}\n"
                                     "        - defaults:\n"
                                     "            ensure: present\n";
        QCOMPARE(q(saveManifest(loaded.manifest)), q(expected));
    }

    void scalars_data()
    {
        QTest::addColumn<Json>("value");
        QTest::addColumn<QString>("yaml");
        QTest::newRow("plain") << Json("nginx") << QStringLiteral("nginx\n");
        QTest::newRow("mode") << Json("0644") << QStringLiteral("\"0644\"\n");
        QTest::newRow("version") << Json("1.10") << QStringLiteral("\"1.10\"\n");
        QTest::newRow("yes") << Json("yes") << QStringLiteral("\"yes\"\n");
        QTest::newRow("null word") << Json("null") << QStringLiteral("\"null\"\n");
        QTest::newRow("empty") << Json("") << QStringLiteral("\"\"\n");
        QTest::newRow("template") << Json("{{ lookup('x') }}") << QStringLiteral("\"{{ lookup('x') }}\"\n");
        QTest::newRow("colon space") << Json("a: b") << QStringLiteral("\"a: b\"\n");
        QTest::newRow("comment") << Json("a #b") << QStringLiteral("\"a #b\"\n");
        QTest::newRow("leading dash") << Json("-rf") << QStringLiteral("\"-rf\"\n");
        QTest::newRow("path") << Json("/etc/motd") << QStringLiteral("/etc/motd\n");
        QTest::newRow("reference") << Json("file#/etc/motd") << QStringLiteral("file#/etc/motd\n");
        QTest::newRow("quote and backslash") << Json("say \"hi\"\\") << QStringLiteral("say \"hi\"\\\n");
        QTest::newRow("control character") << Json("a\x01") << QStringLiteral("\"a\\x01\"\n");
        QTest::newRow("integer") << Json(8080) << QStringLiteral("8080\n");
        QTest::newRow("float") << Json(1.5) << QStringLiteral("1.5\n");
        QTest::newRow("whole float") << Json(2.0) << QStringLiteral("2.0\n");
        QTest::newRow("bool") << Json(false) << QStringLiteral("false\n");
        QTest::newRow("null") << Json(nullptr) << QStringLiteral("null\n");
        QTest::newRow("no trailing newline") << Json("a\nb") << QStringLiteral("|-\n  a\n  b\n");
        QTest::newRow("two trailing newlines") << Json("a\n\n") << QStringLiteral("|+\n  a\n\n");
        QTest::newRow("leading spaces") << Json("  indented\nnext\n") << QStringLiteral("|2\n    indented\n  next\n");
        QTest::newRow("only newlines") << Json("\n\n") << QStringLiteral("\"\\n\\n\"\n");
        QTest::newRow("carriage return") << Json("a\r\nb") << QStringLiteral("\"a\\r\\nb\"\n");
    }

    void scalars()
    {
        QFETCH(Json, value);
        QFETCH(QString, yaml);
        Json wrapped = Json::object();
        wrapped["v"] = value;
        const std::string text = toYaml(wrapped);
        QCOMPARE(q(text), QStringLiteral("v: ") + yaml.replace(QStringLiteral("\n  "), QStringLiteral("\n  ")));
        const YamlReadResult back = readYaml(text);
        QVERIFY2(back.document, qPrintable(describe(back.diagnostics)));
        QCOMPARE(q(back.document->root["v"].dump()), q(value.dump()));
    }

    void nestedData()
    {
        Json data = Json::parse(
            R"({"list": [[1, 2], {"a": [], "b": {}}, "x"], "empty": {}, "deep": {"k": {"v": "line1\nline2\n"}}})");
        Json wrapped = Json::object();
        wrapped["data"] = data;
        const std::string text = toYaml(wrapped);
        const YamlReadResult back = readYaml(text);
        QVERIFY2(back.document, qPrintable(q(text)));
        QCOMPARE(q(back.document->root.dump()), q(wrapped.dump()));
    }
};

CCM_TEST_GUILESS_MAIN(TestManifestWriter)
#include "tst_manifest_writer.moc"
