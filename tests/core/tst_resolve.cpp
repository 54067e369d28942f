// SPDX-License-Identifier: Apache-2.0
#include "core/model/resolve.h"
#include "core/template/template_scope.h"
#include "test_main.h"
#include "test_support.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

ResolveOptions options(const std::filesystem::path &baseDirectory = ".")
{
    ResolveOptions resolveOptions;
    resolveOptions.facts = Json::parse(R"({"host": {"info": {"platformFamily": "debian", "hostname": "web1"}}})");
    resolveOptions.environ = Json::parse(R"({"HOME": "/home/ops"})");
    resolveOptions.baseDirectory = baseDirectory;
    return resolveOptions;
}

ResolvedManifest resolveText(const std::string &text, const ResolveOptions &resolveOptions = options())
{
    return resolveManifest(loadManifest(text), text, resolveOptions);
}

const char *const kManifest = R"(data:
  owner: www-data
  port: "{{ 8080 }}"
ccm:
  pre_message: "on {{ Facts.host.info.hostname }}"
  post_message: "done with {{ lookup('data.owner') }}"
  fail_on_error: true
  resources:
    - file:
        - defaults:
            owner: "{{ lookup('data.owner') }}"
            group: root
            mode: "0644"
        - /srv/{{ Facts.host.info.hostname }}.conf:
            ensure: present
            content: "port={{ lookup('data.port') }}"
            require:
              - "file#{{ not.a.template }}"
            control:
              if: Data.port > 80
    - exec:
        name: "echo ${ Data.port }"
        command: "echo {{ readFile('/nonexistent/yet') }}"
        environment:
          - "PORT={{ lookup('data.port') }}"
        timeout: "{{ '10s' }}"
    - apply:
        name: child.yaml
        data:
          port: "{{ Data.port + 1 }}"
          label: "p{{ Data.port }}"
)";

} // namespace

class TestResolve : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resolvesByPropertyRule()
    {
        const ResolvedManifest resolved = resolveText(kManifest);
        QVERIFY2(resolved.ok(), qPrintable(describe(resolved.diagnostics)));
        QCOMPARE(q(resolved.data.dump()), QStringLiteral(R"({"owner":"www-data","port":8080})"));
        QCOMPARE(q(resolved.preMessage.value_or("?")), QStringLiteral("on web1"));
        QCOMPARE(q(resolved.postMessage.value_or("?")), QStringLiteral("done with www-data"));
        QVERIFY(resolved.failOnError);
        QCOMPARE(resolved.resources.size(), std::size_t(3));

        const ResolvedResource &file = resolved.resources[0];
        QCOMPARE(q(file.label()), QStringLiteral("file#/srv/web1.conf"));
        QCOMPARE(q(file.pointer), QStringLiteral("/ccm/resources/0/file/1/~1srv~1{{ Facts.host.info.hostname }}.conf"));
        // Defaults are applied and resolved like the entry's own properties.
        QCOMPARE(q(file.properties["owner"].get<std::string>()), QStringLiteral("www-data"));
        // Deferred: content stays a template; require and control are literal.
        QCOMPARE(q(file.properties["content"].get<std::string>()), QStringLiteral("port={{ lookup('data.port') }}"));
        QCOMPARE(q(file.properties["require"][0].get<std::string>()), QStringLiteral("file#{{ not.a.template }}"));
        QCOMPARE(q(file.properties["control"]["if"].get<std::string>()), QStringLiteral("Data.port > 80"));

        const ResolvedResource &exec = resolved.resources[1];
        QCOMPARE(q(exec.name), QStringLiteral("echo 8080"));
        QCOMPARE(q(exec.properties["timeout"].get<std::string>()), QStringLiteral("10s"));
        QCOMPARE(q(exec.properties["environment"][0].get<std::string>()), QStringLiteral("PORT={{ lookup('data.port') }}"));

        // Free data maps keep the type of a value that is exactly one expression.
        const ResolvedResource &apply = resolved.resources[2];
        QCOMPARE(q(apply.properties["data"].dump()), QStringLiteral(R"({"port":8081,"label":"p8080"})"));
    }

    void deferredFieldsResolveLater()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const ResolveOptions resolveOptions = options(dir.path().toStdString());
        const ResolvedManifest resolved = resolveText(kManifest, resolveOptions);
        QVERIFY(resolved.ok());
        const TemplateScope scope(resolveOptions.facts, resolved.data, resolveOptions.environ, resolveOptions.baseDirectory);

        const auto file = resolveDeferred(resolved.resources[0], scope);
        QVERIFY(file.ok());
        QCOMPARE(q(file.value()["content"].get<std::string>()), QStringLiteral("port=8080"));
        QCOMPARE(q(file.value()["require"][0].get<std::string>()), QStringLiteral("file#{{ not.a.template }}"));

        // The exec's command reads a file that does not exist yet: an error at apply time,
        // naming the field, until an earlier resource creates it.
        const auto missing = resolveDeferred(resolved.resources[1], scope);
        QVERIFY(!missing.ok());
        QCOMPARE(q(missing.error().pointer), QStringLiteral("/command"));
        QVERIFY2(q(missing.error().error.message).contains(QStringLiteral("/nonexistent/yet")),
                 missing.error().error.message.c_str());

        const std::string manifest = "ccm:\n  resources:\n    - exec:\n        name: show\n"
                                     "        command: \"cat {{ readFile('made-earlier.txt') }}\"\n";
        const ResolvedManifest later = resolveText(manifest, resolveOptions);
        QVERIFY(later.ok());
        QVERIFY(writeFile(dir.filePath(QStringLiteral("made-earlier.txt")), "/etc/hostname"));
        const auto command = resolveDeferred(later.resources[0], scope);
        QVERIFY(command.ok());
        QCOMPARE(q(command.value()["command"].get<std::string>()), QStringLiteral("cat /etc/hostname"));
    }

    void propertyRules_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("property");
        QTest::addColumn<int>("rule");
        const auto row = [](const char *type, const char *property, PropertyTemplates rule) {
            QTest::addRow("%s %s", type, property) << QString::fromLatin1(type) << QString::fromLatin1(property)
                                                   << static_cast<int>(rule);
        };
        row("file", "content", PropertyTemplates::Deferred);
        row("file", "source", PropertyTemplates::Deferred);
        row("file", "owner", PropertyTemplates::String);
        row("exec", "command", PropertyTemplates::Deferred);
        row("exec", "cwd", PropertyTemplates::Deferred);
        row("exec", "environment", PropertyTemplates::Deferred);
        row("exec", "creates", PropertyTemplates::Deferred);
        row("exec", "onlyif", PropertyTemplates::Deferred);
        row("exec", "unless", PropertyTemplates::Deferred);
        row("exec", "timeout", PropertyTemplates::String);
        row("package", "require", PropertyTemplates::None);
        row("service", "subscribe", PropertyTemplates::None);
        row("service", "control", PropertyTemplates::None);
        row("apply", "data", PropertyTemplates::Typed);
        row("scaffold", "data", PropertyTemplates::Typed);
        row("archive", "url", PropertyTemplates::String);
        row("package", "no_such_property", PropertyTemplates::String);
    }

    void propertyRules()
    {
        QFETCH(QString, type);
        QFETCH(QString, property);
        QFETCH(int, rule);
        QCOMPARE(static_cast<int>(propertyTemplates(type.toStdString(), property.toStdString())), rule);
    }

    void renderedYamlRoundTrips()
    {
        const ResolvedManifest resolved = resolveText(kManifest);
        QVERIFY(resolved.ok());
        const std::string yaml = renderedManifestYaml(resolved);
        const LoadedManifest again = loadManifest(yaml);
        QVERIFY2(!hasErrors(again.diagnostics), yaml.c_str());
        QVERIFY(again.manifest.ccm && again.manifest.ccm->resources);
        QCOMPARE(again.manifest.ccm->resources->size(), std::size_t(3));
        QCOMPARE(q(again.manifest.ccm->resources->at(0).entries.at(0).name), QStringLiteral("/srv/web1.conf"));
        QVERIFY(again.manifest.ccm->failOnError.value_or(false));
        QVERIFY(!again.manifest.hierarchy);
    }

    void errorsStopAtTheLoader()
    {
        const ResolvedManifest resolved = resolveText("ccm:\n  resources:\n    - nope: {}\n");
        QVERIFY(!resolved.ok());
        QVERIFY(resolved.resources.empty());
    }

    void everyFailingResourceIsReported()
    {
        const ResolvedManifest resolved = resolveText("ccm:\n  resources:\n    - package:\n"
                                                      "        - a:\n            ensure: \"{{ nope }}\"\n"
                                                      "        - b:\n            ensure: present\n"
                                                      "        - c:\n            ensure: \"{{ lookup('data.x') }}\"\n");
        QVERIFY(!resolved.ok());
        QCOMPARE(resolved.diagnostics.size(), std::size_t(2));
        QCOMPARE(resolved.diagnostics[0].position, (SourcePosition{5, 25}));
        QCOMPARE(resolved.diagnostics[1].position, (SourcePosition{9, 25}));
        QCOMPARE(resolved.resources.size(), std::size_t(1));
    }
};

CCM_TEST_GUILESS_MAIN(TestResolve)
#include "tst_resolve.moc"
