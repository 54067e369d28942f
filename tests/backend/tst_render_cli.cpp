// SPDX-License-Identifier: Apache-2.0
// `ccm-backend render` as a user runs it: a real process on the shipped examples and on manifests
// written to a temporary directory.
#include "backend_process.h"
#include "core/model/manifest.h"
#include "core/model/resolve.h"
#include "core/model/validator.h"
#include "core/yaml/yaml_reader.h"
#include "test_main.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

/// Every string in `value` that still holds a template, with its pointer.
void collectTemplates(const Json &value, const std::string &pointer, QStringList &out)
{
    if (value.is_string()) {
        const std::string &s = value.get_ref<const std::string &>();
        if (s.find("{{") != std::string::npos || s.find("${") != std::string::npos)
            out << text(pointer);
    } else if (value.is_object()) {
        for (const auto &[key, item] : value.items())
            collectTemplates(item, pointer + "/" + key, out);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            collectTemplates(value[i], pointer + "/" + std::to_string(i), out);
    }
}

} // namespace

class TestRenderCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_debianFacts;
    QString m_rhelFacts;
    QProcessEnvironment m_environment = isolatedEnvironment(m_dir);

    BackendRun render(const QStringList &arguments)
    {
        return runBackend(QStringList{QStringLiteral("render")} + arguments, m_dir.path(), m_environment);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_debianFacts = writeFile(m_dir, QStringLiteral("debian.json"),
                                  R"({"host": {"info": {"platformFamily": "debian", "hostname": "web1"}}})");
        m_rhelFacts = writeFile(m_dir, QStringLiteral("rhel.yaml"),
                                "host:\n  info:\n    platformFamily: rhel\n    hostname: db1\n");
    }

    void examples_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &name : QDir(QStringLiteral(CCM_SOURCE_DIR "/resources/examples"))
                                       .entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << name;
    }

    /// Every example renders, and what it prints is a valid manifest whose only templates left
    /// are in deferred fields.
    void examples()
    {
        QFETCH(QString, file);
        const BackendRun run = render({examplePath(file), QStringLiteral("--facts"), m_debianFacts});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));

        const std::string output = run.out.toStdString();
        const LoadedManifest rendered = loadManifest(output);
        const Diagnostics problems = validateManifest(rendered);
        QVERIFY2(!hasErrors(problems), qPrintable(run.out));
        QVERIFY(rendered.manifest.ccm && rendered.manifest.ccm->resources);
        QVERIFY(!rendered.manifest.ccm->resources->empty());
        for (const ResourceBlock &block : *rendered.manifest.ccm->resources) {
            QCOMPARE(block.form, BodyForm::Single);
            QCOMPARE(block.entries.size(), std::size_t(1));
            const ResourceEntry &entry = block.entries.front();
            QVERIFY2(entry.name.find("{{") == std::string::npos, entry.name.c_str());
            for (const auto &[key, value] : entry.properties.items()) {
                const PropertyTemplates rule = propertyTemplates(block.type, key);
                if (rule == PropertyTemplates::Deferred || rule == PropertyTemplates::None)
                    continue;
                QStringList left;
                collectTemplates(value, key, left);
                QVERIFY2(left.isEmpty(), qPrintable(text(block.type + '#' + entry.name) + QLatin1Char(' ') + left.join(QLatin1Char(','))));
            }
        }
        QVERIFY2(!run.out.contains(QStringLiteral("hierarchy:")), qPrintable(run.out));
        QVERIFY2(!run.out.contains(QStringLiteral("overrides:")), qPrintable(run.out));
    }

    void hieraFollowsFacts_data()
    {
        QTest::addColumn<bool>("rhel");
        QTest::addColumn<QString>("package");
        QTest::newRow("debian") << false << QStringLiteral("apache2");
        QTest::newRow("rhel") << true << QStringLiteral("httpd");
    }

    void hieraFollowsFacts()
    {
        QFETCH(bool, rhel);
        QFETCH(QString, package);
        const BackendRun run = render({examplePath(QStringLiteral("hiera.yaml")), QStringLiteral("--facts"),
                                       rhel ? m_rhelFacts : m_debianFacts});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const YamlReadResult read = readYaml(run.out.toStdString());
        QVERIFY(read.document);
        const Json &root = read.document->root;
        QCOMPARE(text(root["data"]["package_name"].get<std::string>()), package);
        QCOMPARE(text(root["ccm"]["pre_message"].get<std::string>()),
                 QStringLiteral("Setting up %1 on a %2 host").arg(package, rhel ? QStringLiteral("rhel") : QStringLiteral("debian")));
        const Json &first = root["ccm"]["resources"][0]["package"];
        QCOMPARE(text(first["name"].get<std::string>()), package);
        QCOMPARE(text(first["alias"].get<std::string>()), QStringLiteral("webserver"));
        // Control expressions are evaluated by the engine, not by render.
        const Json &file = root["ccm"]["resources"][2]["file"];
        QCOMPARE(text(file["control"]["if"].get<std::string>()), QStringLiteral("Facts.host.info.platformFamily == \"debian\""));
        QVERIFY(file["content"].get<std::string>().find("{{ lookup('data.server_admin') }}") != std::string::npos);
    }

    void commandLineFactsAndData()
    {
        const QString manifest = writeFile(m_dir, QStringLiteral("params.yaml"),
                                           "data:\n  pkg: \"{{ lookup('facts.wanted') }}\"\n  port: 80\n"
                                           "ccm:\n  resources:\n    - package:\n        - \"{{ lookup('data.pkg') }}\":\n"
                                           "            ensure: \"{{ lookup('data.version') }}\"\n");
        const QString data = writeFile(m_dir, QStringLiteral("data.yaml"), "version: \"1.2\"\nport: 8080\n");
        const BackendRun run = render({manifest, QStringLiteral("--fact"), QStringLiteral("wanted=zsh"),
                                       QStringLiteral("--data=") + data});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("name: zsh")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("ensure: \"1.2\"")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("port: 8080")), qPrintable(run.out));

        // --facts is merged over --fact.
        const QString facts = writeFile(m_dir, QStringLiteral("wanted.json"), R"({"wanted": "fish"})");
        const BackendRun both = render({manifest, QStringLiteral("--fact"), QStringLiteral("wanted=zsh"),
                                        QStringLiteral("--facts"), facts, QStringLiteral("--data"), data});
        QVERIFY2(both.exitCode == 0, qPrintable(both.err));
        QVERIFY2(both.out.contains(QStringLiteral("name: fish")), qPrintable(both.out));
    }

    void jetResources()
    {
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("jet")));
        writeFile(m_dir, QStringLiteral("jet/packages.jet"),
                  "[[ range Data.packages ]]\n- package:\n    - \"[[ . ]]\":\n        ensure: present\n[[ end ]]"
                  "- file:\n    - /etc/motd:\n        ensure: present\n        owner: root\n        group: root\n"
                  "        mode: \"0644\"\n        content: \"{{ Facts.host.info.hostname }}\"\n");
        const QString manifest = writeFile(m_dir, QStringLiteral("jet/manifest.yaml"),
                                           "data:\n  packages: [vim, git]\nccm:\n  resources_jet_file: packages.jet\n");
        const BackendRun run = render({manifest, QStringLiteral("--facts"), m_debianFacts});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const YamlReadResult read = readYaml(run.out.toStdString());
        QVERIFY(read.document);
        const Json &resources = read.document->root["ccm"]["resources"];
        QCOMPARE(resources.size(), std::size_t(3));
        QCOMPARE(text(resources[0]["package"]["name"].get<std::string>()), QStringLiteral("vim"));
        QCOMPARE(text(resources[1]["package"]["name"].get<std::string>()), QStringLiteral("git"));
        QCOMPARE(text(resources[2]["file"]["content"].get<std::string>()),
                 QStringLiteral("{{ Facts.host.info.hostname }}"));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("manifest"); // written to bad.yaml when not empty
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message"); // a regular expression the error output must match

        const QStringList withManifest{QStringLiteral("bad.yaml")};
        QTest::newRow("no manifest") << QStringList{} << QByteArray() << 2 << QStringLiteral("no manifest given");
        QTest::newRow("two manifests") << QStringList{QStringLiteral("a.yaml"), QStringLiteral("b.yaml")}
                                       << QByteArray() << 2 << QStringLiteral("only one manifest");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--bogus")} << QByteArray() << 2
                                        << QStringLiteral("unknown option '--bogus'");
        QTest::newRow("fact without value") << QStringList{QStringLiteral("--fact")} << QByteArray() << 2
                                            << QStringLiteral("--fact needs a value");
        QTest::newRow("fact without equals") << (withManifest + QStringList{QStringLiteral("--fact"), QStringLiteral("x")})
                                             << QByteArray("ccm:\n  resources: []\n") << 2
                                             << QStringLiteral("--fact expects KEY=VALUE");
        QTest::newRow("missing file") << QStringList{QStringLiteral("missing.yaml")} << QByteArray() << 1
                                      << QStringLiteral("missing.yaml: error: .*(no such file|does not exist)");
        QTest::newRow("invalid manifest") << withManifest << QByteArray("ccm:\n  resources:\n    - packge: {name: x}\n")
                                          << 1 << QStringLiteral("bad.yaml:3:7: error: .*packge");
        QTest::newRow("template error in a property")
            << withManifest
            << QByteArray("ccm:\n  resources:\n    - package:\n        - vim:\n            ensure: \"{{ lookup('data.v') }}\"\n")
            << 1 << QStringLiteral("bad.yaml:5:25: error: cannot resolve ensure of package#vim: missing key 'data.v'");
        QTest::newRow("template error in a name")
            << withManifest
            << QByteArray("ccm:\n  resources:\n    - package:\n        - \"{{ 1 + }}\":\n            ensure: present\n")
            << 1
            << QStringLiteral(
                   "bad.yaml:4:19: error: package \\{\\{ 1 \\+ \\}\\}: unexpected end of expression, expected a value");
        QTest::newRow("required data missing")
            << withManifest << QByteArray("data:\n  # @require\n  token: \"\"\nccm:\n  resources: []\n") << 1
            << QStringLiteral("bad.yaml:3:3: error: data value 'token' is required");
        QTest::newRow("@validate fails on the resolved value")
            << (withManifest + QStringList {QStringLiteral("--fact"), QStringLiteral("addr=10.0.0.300")})
            << QByteArray("data:\n  # @validate isIPv4(value)\n  listen: \"{{ Facts.addr }}\"\nccm:\n  resources: []\n")
            << 1 << QStringLiteral("bad.yaml:3:3: error: data value 'listen' fails @validate isIPv4\\(value\\)");
        QTest::newRow("@validate after the value fails on its text")
            << withManifest
            << QByteArray("data:\n  cmd: \"rm -rf /; true\" # @validate is_shell_safe(value)\nccm:\n  resources: []\n")
            << 1 << QStringLiteral("bad.yaml:2:3: error: data value 'cmd' fails @validate is_shell_safe");
        QTest::newRow("@required is @require")
            << withManifest << QByteArray("data:\n  # @required\n  token: \"\"\nccm:\n  resources: []\n") << 1
            << QStringLiteral("bad.yaml:3:3: error: data value 'token' is required");
        QTest::newRow("bad facts file")
            << (withManifest + QStringList{QStringLiteral("--facts"), QStringLiteral("bad.yaml")})
            << QByteArray("[1, 2\n") << 1 << QStringLiteral("bad.yaml");
        QTest::newRow("data file not a map")
            << QStringList{QStringLiteral("ok.yaml"), QStringLiteral("--data"), QStringLiteral("bad.yaml")}
            << QByteArray("- 1\n") << 1 << QStringLiteral("bad.yaml: data must be a map");
        QTest::newRow("missing jet file")
            << withManifest << QByteArray("ccm:\n  resources_jet_file: nothing.jet\n") << 1
            << QStringLiteral("bad.yaml:2:23: error: resources_jet_file: cannot read .*nothing.jet");
        QTest::newRow("jet renders an invalid resource")
            << QStringList{QStringLiteral("jetbad.yaml")} << QByteArray() << 1
            << QStringLiteral("jetbad.yaml:2:23: error: .*unknown.*ensur.*rendered from broken.jet, line 3");
    }

    void annotationWarningsDoNotFail()
    {
        writeFile(m_dir, QStringLiteral("warn.yaml"),
            "data:\n  # @requiired\n  port: 8080 # @validate isInt(value)\nccm:\n  resources:\n    - exec:\n"
            "        - \"echo {{ len(lookup('data')) }}\": {}\n");
        const BackendRun run = render({QStringLiteral("warn.yaml")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains(QStringLiteral("warn.yaml:2:5: warning: unknown annotation '@requiired'")),
            qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("echo 1")), qPrintable(run.out));
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, manifest);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        writeFile(m_dir, QStringLiteral("ok.yaml"), "ccm:\n  resources: []\n");
        writeFile(m_dir, QStringLiteral("broken.jet"), "- package:\n    - vim:\n        ensur: present\n");
        writeFile(m_dir, QStringLiteral("jetbad.yaml"), "ccm:\n  resources_jet_file: broken.jet\n");
        if (!manifest.isEmpty())
            writeFile(m_dir, QStringLiteral("bad.yaml"), manifest);
        const BackendRun run = render(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(QRegularExpression(message, QRegularExpression::CaseInsensitiveOption)),
                 qPrintable(run.err));
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
    }
};

CCM_TEST_GUILESS_MAIN(TestRenderCli)
#include "tst_render_cli.moc"
