// SPDX-License-Identifier: Apache-2.0
// The run loop with scripted package and service types: what runs, in which order, and how the
// events and summary come out. Real child manifests (apply type) and real health check commands.
#include "engine/prepared_manifest.h"
#include "engine/resources/registration.h"
#include "engine/run.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace ccm;
using namespace ccm::engine;
using ccm::test::q;

namespace {

/// What the scripted types were asked to do, in order.
struct Journal {
    std::vector<std::string> applied; ///< "type#name" plus " noop" and " refresh" flags
};

class ScriptedProvider : public Provider {
public:
    explicit ScriptedProvider(std::string name)
        : m_name(std::move(name))
    {
    }
    [[nodiscard]] std::string_view name() const override { return m_name; }

private:
    std::string m_name;
};

class ScriptedFactory : public ProviderFactory {
public:
    ScriptedFactory(std::string type, std::string name, std::optional<int> priority)
        : m_type(std::move(type))
        , m_name(std::move(name))
        , m_priority(priority)
    {
    }
    [[nodiscard]] std::string_view typeName() const override { return m_type; }
    [[nodiscard]] std::string_view name() const override { return m_name; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &, const LazyFacts &) const override
    {
        return m_priority;
    }
    [[nodiscard]] std::string unavailableReason() const override { return "the tool is not installed"; }
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &) const override
    {
        return std::make_unique<ScriptedProvider>(m_name);
    }

private:
    std::string m_type;
    std::string m_name;
    std::optional<int> m_priority;
};

/// A type whose behaviour is its resource's name: "ok..." is stable, "change..." changes,
/// "fail..." fails. Service resources also change when refreshed.
class ScriptedType : public ResourceType {
public:
    ScriptedType(std::string name, Journal &journal)
        : m_name(std::move(name))
        , m_journal(journal)
    {
    }
    [[nodiscard]] std::string_view name() const override { return m_name; }
    [[nodiscard]] std::string defaultEnsure() const override { return m_name == "service" ? "running" : ""; }
    [[nodiscard]] Result<void> apply(const std::string &name, const Json &, Provider &, ApplyContext &context,
        TransactionEvent &event) const override
    {
        m_journal.applied.push_back(
            m_name + '#' + name + (context.noop ? " noop" : "") + (context.refresh() ? " refresh" : ""));
        if (name.starts_with("fail"))
            return Error {"scripted", "scripted failure"};
        if (name.starts_with("change") || context.refresh()) {
            event.changed = true;
            event.refreshed = context.refresh();
            if (context.noop)
                event.noopMessage = "Would have changed";
        }
        return {};
    }

private:
    std::string m_name;
    Journal &m_journal;
};

/// Collects everything a run reports.
class Recorder : public RunObserver {
public:
    void message(std::string_view text) override { messages.emplace_back(text); }
    void resourceStarting(std::string_view resource, std::size_t done, std::size_t total) override
    {
        progress.push_back(std::string(resource) + ' ' + std::to_string(done) + '/' + std::to_string(total));
    }
    void resourceFinished(const TransactionEvent &event) override
    {
        events.push_back(event);
        if (cancelAfter && events.size() == *cancelAfter)
            cancel.store(true);
    }
    void log(LogLevel, std::string_view resource, std::string_view message) override
    {
        logs.push_back(std::string(resource) + ": " + std::string(message));
    }

    [[nodiscard]] const TransactionEvent *event(const std::string &resource) const
    {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (it->resource() == resource)
                return &*it;
        return nullptr;
    }

    std::vector<std::string> messages;
    std::vector<std::string> progress;
    std::vector<TransactionEvent> events;
    std::vector<std::string> logs;
    std::optional<std::size_t> cancelAfter;
    std::atomic<bool> cancel {false};
};

std::vector<std::string> list(std::initializer_list<const char *> items)
{
    return {items.begin(), items.end()};
}

} // namespace

class TestRun : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    /// How many times a run gathered its facts (see run()).
    int m_factsGathered = 0;
    Journal m_journal;
    Catalog m_catalog;
    Recorder m_recorder;
    ProcessRunner m_runner;
    RunResult m_result;

    QString path(const std::string &name) const { return m_dir->filePath(q(name)); }

    void write(const std::string &name, const std::string &text)
    {
        QDir().mkpath(QFileInfo(path(name)).absolutePath());
        QVERIFY(ccm::test::writeFile(path(name), QByteArray::fromStdString(text)));
    }

    /// Runs the manifest file `name` in the temporary directory; false when it did not resolve.
    bool run(const std::string &name, RunOptions options = {})
    {
        ResolveOptions inputs;
        // Facts as a run gets them: gathered when something first reads them.
        inputs.facts = LazyFacts::deferred([this] {
            ++m_factsGathered;
            return Json {{"role", "web"}};
        });
        const PreparedManifest prepared = prepareManifestFile(path(name).toStdString(), inputs);
        if (!prepared.ok()) {
            qWarning("%s", prepared.diagnosticText().c_str());
            return false;
        }
        inputs.baseDirectory = m_dir->path().toStdString();
        if (m_recorder.cancelAfter)
            options.cancel = &m_recorder.cancel;
        m_result = runManifest(prepared.resolved, inputs, options, m_runner, m_recorder, m_catalog);
        return true;
    }

    std::vector<std::string> outcomes() const
    {
        std::vector<std::string> list;
        for (const TransactionEvent &event : m_recorder.events) {
            std::string outcome = event.failed ? "failed"
                : event.skipped                ? "skipped"
                : event.changed                ? "changed"
                                               : "stable";
            list.push_back(event.resource() + ' ' + outcome);
        }
        return list;
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_factsGathered = 0;
        m_journal = {};
        m_catalog = Catalog();
        m_catalog.addType(std::make_unique<ScriptedType>("package", m_journal));
        m_catalog.addType(std::make_unique<ScriptedType>("service", m_journal));
        m_catalog.addProvider(std::make_unique<ScriptedFactory>("package", "apt", 1));
        m_catalog.addProvider(std::make_unique<ScriptedFactory>("package", "dnf", 5));
        m_catalog.addProvider(std::make_unique<ScriptedFactory>("service", "systemd", 1));
        registerApplyResources(m_catalog);
        m_recorder.messages.clear();
        m_recorder.progress.clear();
        m_recorder.events.clear();
        m_recorder.logs.clear();
        m_recorder.cancelAfter.reset();
        m_recorder.cancel.store(false);
    }

    void runsInDeclarationOrderAndCounts()
    {
        write("m.yaml",
            "ccm:\n  pre_message: before\n  post_message: after\n  resources:\n"
            "    - package:\n        - ok-a: {ensure: present}\n        - change-b: {ensure: present}\n"
            "    - service:\n        - ok-c: {}\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied, list({"package#ok-a", "package#change-b", "service#ok-c"}));
        QCOMPARE(outcomes(), list({"package#ok-a stable", "package#change-b changed", "service#ok-c stable"}));
        QCOMPARE(m_recorder.messages, list({"before", "after"}));
        QCOMPARE(m_recorder.progress, list({"package#ok-a 0/3", "package#change-b 1/3", "service#ok-c 2/3"}));
        QCOMPARE(m_result.summary.total, std::size_t(3));
        QCOMPARE(m_result.summary.changed, std::size_t(1));
        QCOMPARE(m_result.summary.stable, std::size_t(2));
        const TransactionEvent &service = m_recorder.events.back();
        QCOMPARE(service.requestedEnsure, std::string("running"));
        QCOMPARE(service.finalEnsure, std::string("running"));
        QCOMPARE(service.provider, std::string("systemd"));
        QCOMPARE(service.properties.value("name", ""), std::string("ok-c"));
        QVERIFY(!m_result.aborted && !m_result.cancelled);
    }

    void selectsProviderByPriorityOrByName()
    {
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n        - ok-a: {ensure: present}\n"
            "        - ok-b: {ensure: present, provider: apt}\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_recorder.events[0].provider, std::string("dnf"));
        QCOMPARE(m_recorder.events[1].provider, std::string("apt"));
        QCOMPARE(m_journal.applied, list({"package#ok-a", "package#ok-b"}));
    }

    void registryExplainsWhyNoProviderFits()
    {
        ProviderRegistry registry;
        registry.add(std::make_unique<ScriptedFactory>("package", "apt", std::nullopt));
        registry.add(std::make_unique<ScriptedFactory>("package", "dnf", std::nullopt));
        auto forced = registry.select("package", {{"provider", "apt"}}, LazyFacts());
        QVERIFY(!forced);
        QCOMPARE(forced.error().message,
            std::string("provider 'apt' cannot manage this package resource: the tool is not installed"));
        auto unknown = registry.select("package", {{"provider", "yum"}}, LazyFacts());
        QCOMPARE(unknown.error().message, std::string("unknown package provider 'yum' (known: apt, dnf)"));
        auto none = registry.select("package", Json::object(), LazyFacts());
        QCOMPARE(none.error().message,
            std::string("no suitable provider for this package resource on this host (apt: the tool is not installed; "
                        "dnf: the tool is not installed)"));
        registry.add(std::make_unique<ScriptedFactory>("package", "zypper", 2));
        QCOMPARE(std::string(registry.select("package", Json::object(), LazyFacts()).value()->name()),
            std::string("zypper"));
    }

    void requireSkipsDependentsOfFailures()
    {
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n"
            "        - fail-a: {ensure: present}\n"
            "        - ok-b: {ensure: present, require: [package#fail-a]}\n"
            "        - ok-c: {ensure: present, require: [package#ok-b]}\n"
            "        - ok-d: {ensure: present, control: {if: 'false'}}\n"
            "        - ok-e: {ensure: present, require: [package#ok-d]}\n"
            "        - ok-f: {ensure: present, require: [package#later]}\n"
            "        - later: {ensure: present}\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied, list({"package#fail-a", "package#ok-e", "package#later"}));
        QCOMPARE(m_recorder.event("package#ok-b")->unmetRequirements, list({"package#fail-a"}));
        QVERIFY(m_recorder.event("package#ok-b")->skipped);
        // Unmet requirements propagate: ok-c's requirement was itself skipped for one.
        QCOMPARE(m_recorder.event("package#ok-c")->unmetRequirements, list({"package#ok-b"}));
        // A resource skipped by control satisfies its dependents.
        QVERIFY(m_recorder.event("package#ok-e")->unmetRequirements.empty());
        QVERIFY(m_recorder.event("package#ok-f")->failed);
        QCOMPARE(m_recorder.event("package#ok-f")->errors.front(),
            std::string("require package#later: no such resource has run before this one"));
        QCOMPARE(m_result.summary.unmetRequirements, std::size_t(2));
        QCOMPARE(m_result.summary.failed, std::size_t(2));
    }

    void aliasesAnswerReferences()
    {
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n"
            "        - change-a: {ensure: present, alias: web}\n"
            "    - service:\n        - ok-b: {subscribe: [package#web], require: [package#web]}\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied, list({"package#change-a", "service#ok-b refresh"}));
        QCOMPARE(m_recorder.event("package#change-a")->alias, std::string("web"));
    }

    void controlGatesResources_data()
    {
        QTest::addColumn<QString>("control");
        QTest::addColumn<bool>("managed");
        QTest::newRow("if true") << "{if: 'Facts.role == \"web\"'}" << true;
        QTest::newRow("if false") << "{if: 'Facts.role == \"db\"'}" << false;
        QTest::newRow("unless true") << "{unless: 'Facts.role == \"web\"'}" << false;
        QTest::newRow("unless false") << "{unless: 'Facts.role == \"db\"'}" << true;
        QTest::newRow("both pass") << "{if: 'true', unless: 'false'}" << true;
        QTest::newRow("if passes, unless stops") << "{if: 'true', unless: 'true'}" << false;
    }

    void controlGatesResources()
    {
        QFETCH(QString, control);
        QFETCH(bool, managed);
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n        - change-a:\n            ensure: present\n"
            "            control: "
                + control.toStdString() + "\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied.size(), std::size_t(managed ? 1 : 0));
        QCOMPARE(m_recorder.events.front().skipped, !managed);
        QCOMPARE(m_recorder.events.front().changed, managed);
    }

    /// Choosing a provider and applying a resource leave the facts alone: they are gathered only
    /// when an expression or a template reads them, once for the whole run.
    void factsAreGatheredOnlyWhenRead_data()
    {
        QTest::addColumn<QString>("control");
        QTest::addColumn<int>("gathered");
        QTest::newRow("no control") << QString() << 0;
        QTest::newRow("control without facts") << "control: {if: 'true'}" << 0;
        QTest::newRow("control reads facts") << "control: {if: 'Facts.role == \"web\"'}" << 1;
    }

    void factsAreGatheredOnlyWhenRead()
    {
        QFETCH(QString, control);
        QFETCH(int, gathered);
        const std::string extra = control.isEmpty() ? std::string() : "            " + control.toStdString() + "\n";
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n        - change-a:\n            ensure: present\n" + extra
                + "        - change-b:\n            ensure: present\n" + extra);
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied.size(), std::size_t(2));
        QCOMPARE(m_factsGathered, gathered);
    }

    void controlErrorsStopTheRun_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("error");
        QTest::newRow("not boolean") << "Facts.role"
                                     << "control if expression 'Facts.role' must give true or false, not a string";
        QTest::newRow("evaluation error") << "Facts.role > 3"
                                          << "control if expression 'Facts.role > 3': ";
    }

    void controlErrorsStopTheRun()
    {
        QFETCH(QString, expression);
        QFETCH(QString, error);
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n        - ok-a:\n            ensure: present\n"
            "            control: {if: '"
                + expression.toStdString() + "'}\n        - ok-b: {ensure: present}\n");
        QVERIFY(run("m.yaml"));
        QVERIFY(m_journal.applied.empty());
        QCOMPARE(m_recorder.events.size(), std::size_t(1));
        QVERIFY(m_recorder.events.front().failed);
        QVERIFY2(q(m_recorder.events.front().errors.front()).startsWith(error),
            m_recorder.events.front().errors.front().c_str());
        QVERIFY(m_result.aborted);
    }

    void failOnErrorStopsAtTheFirstFailure()
    {
        write("m.yaml",
            "ccm:\n  fail_on_error: true\n  post_message: after\n  resources:\n    - package:\n"
            "        - ok-a: {ensure: present}\n        - fail-b: {ensure: present}\n        - ok-c: {ensure: "
            "present}\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied, list({"package#ok-a", "package#fail-b"}));
        QVERIFY(m_result.aborted);
        QVERIFY(m_recorder.messages.empty());
        QCOMPARE(m_result.summary.total, std::size_t(2));
    }

    void withoutFailOnErrorTheRunGoesOnButSkipsThePostMessage()
    {
        write("m.yaml",
            "ccm:\n  post_message: after\n  resources:\n    - package:\n"
            "        - fail-a: {ensure: present}\n        - ok-b: {ensure: present}\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied, list({"package#fail-a", "package#ok-b"}));
        QVERIFY(!m_result.aborted);
        QVERIFY(m_recorder.messages.empty());
        QCOMPARE(m_recorder.events.front().errors, list({"scripted failure"}));
    }

    void subscribeRefreshesOnChangesOnly_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::newRow("real") << false;
        QTest::newRow("noop") << true;
    }

    void subscribeRefreshesOnChangesOnly()
    {
        QFETCH(bool, noop);
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n        - change-a: {ensure: present}\n"
            "        - ok-b: {ensure: present}\n"
            "    - service:\n        - ok-x: {subscribe: [package#change-a]}\n"
            "        - ok-y: {subscribe: [package#ok-b]}\n"
            "        - ok-z: {subscribe: [package#nothing]}\n");
        RunOptions options;
        options.noop = noop;
        QVERIFY(run("m.yaml", options));
        const std::string flag = noop ? " noop" : "";
        QCOMPARE(m_journal.applied,
            (std::vector<std::string> {"package#change-a" + flag, "package#ok-b" + flag,
                "service#ok-x" + flag + " refresh", "service#ok-y" + flag}));
        QVERIFY(m_recorder.event("service#ok-x")->refreshed);
        QCOMPARE(m_recorder.event("service#ok-x")->noop, noop);
        QVERIFY(m_recorder.event("service#ok-z")->failed);
        QCOMPARE(m_result.summary.refreshed, std::size_t(1));
    }

    void refreshNamesEverySubscriptionThatFired_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::newRow("real") << false;
        QTest::newRow("noop") << true;
    }

    void refreshNamesEverySubscriptionThatFired()
    {
        QFETCH(bool, noop);
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n        - change-a: {ensure: present}\n"
            "        - ok-b: {ensure: present}\n"
            "        - change-c: {ensure: present, alias: cee}\n"
            "    - service:\n        - ok-x: {subscribe: [package#change-a, package#ok-b, package#cee]}\n"
            "        - ok-y: {subscribe: [package#ok-b]}\n");
        RunOptions options;
        options.noop = noop;
        QVERIFY(run("m.yaml", options));
        // Named as subscribe names them, the alias too; a subscription that did not fire is not.
        QCOMPARE(m_recorder.event("service#ok-x")->refreshedBy, list({"package#change-a", "package#cee"}));
        QVERIFY(m_recorder.event("service#ok-y")->refreshedBy.empty());
        QVERIFY(m_recorder.event("package#change-a")->refreshedBy.empty());
    }

    void healthChecksDecideTheResource()
    {
        write("counter.sh",
            "#!/bin/sh\nn=$(cat \"$1\" 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > \"$1\"\n"
            "[ $n -ge 3 ] && { echo OK - third time; exit 0; }\necho WARNING - try $n; exit 1\n");
        QFile::setPermissions(
            path("counter.sh"), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        const std::string counter = path("count").toStdString();
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n"
            "        - ok-a:\n            ensure: present\n            health_checks:\n"
            "              - {name: fine, command: /bin/true}\n"
            "        - ok-b:\n            ensure: present\n            health_checks:\n"
            "              - {command: \"/bin/sh -c 'echo CRITICAL - down; exit 2'\"}\n"
            "        - fail-c:\n            ensure: present\n            health_checks:\n"
            "              - {command: /bin/true}\n"
            "        - ok-d:\n            ensure: present\n            health_checks:\n"
            "              - {command: '"
                + path("counter.sh").toStdString() + " " + counter
                + "', tries: 5, try_sleep: 10ms}\n"
                  "        - ok-e:\n            ensure: present\n            health_checks:\n"
                  "              - {command: /nonexistent/check}\n"
                  "              - {goss_rules: {file: {/etc/passwd: {exists: true}}}}\n");
        RunOptions options;
        options.gossBinary = path("no-goss-here").toStdString();
        QVERIFY(run("m.yaml", options));

        const TransactionEvent *a = m_recorder.event("package#ok-a");
        QVERIFY(!a->failed);
        QCOMPARE(a->healthChecks.size(), std::size_t(1));
        QCOMPARE(a->healthChecks.front().status, HealthCheckResult::Status::Ok);

        const TransactionEvent *b = m_recorder.event("package#ok-b");
        QVERIFY(b->failed);
        QCOMPARE(b->healthChecks.front().output, std::string("CRITICAL - down"));
        QVERIFY2(b->errors.front().starts_with("health check status \"CRITICAL\""), b->errors.front().c_str());

        // Checks run after a failed apply too.
        const TransactionEvent *c = m_recorder.event("package#fail-c");
        QCOMPARE(c->healthChecks.size(), std::size_t(1));
        QCOMPARE(c->errors, list({"scripted failure"}));

        const TransactionEvent *d = m_recorder.event("package#ok-d");
        QVERIFY(!d->failed);
        QCOMPARE(d->healthChecks.front().tries, 3);
        QCOMPARE(d->healthChecks.front().output, std::string("OK - third time"));

        const TransactionEvent *e = m_recorder.event("package#ok-e");
        QCOMPARE(e->healthChecks.size(), std::size_t(2));
        QCOMPARE(e->healthChecks[0].status, HealthCheckResult::Status::Unknown);
        QCOMPARE(e->healthChecks[1].status, HealthCheckResult::Status::Unknown);
        QVERIFY2(e->healthChecks[1].output.starts_with("goss is not installed"), e->healthChecks[1].output.c_str());
        QCOMPARE(m_result.summary.checksOk, std::size_t(3));
        QCOMPARE(m_result.summary.checksCritical, std::size_t(1));
    }

    void gossChecksReadGossResults()
    {
        // A stand-in for goss that answers as goss does: a JSON report and exit 1 on failures.
        write("goss",
            "#!/bin/sh\nif grep -q broken \"$2\"; then\n"
            "echo '{\"results\":[{\"successful\":false,\"summary-line\":\"File: /broken: exists: Expected true\"}],"
            "\"summary\":{\"failed-count\":1,\"test-count\":2}}'; exit 1; fi\n"
            "echo '{\"results\":[],\"summary\":{\"failed-count\":0,\"test-count\":2}}'\n");
        QFile::setPermissions(path("goss"), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n"
            "        - ok-a:\n            ensure: present\n            health_checks:\n"
            "              - {goss_rules: {file: {/etc/passwd: {exists: true}}}}\n"
            "        - ok-b:\n            ensure: present\n            health_checks:\n"
            "              - {goss_rules: {file: {/broken: {exists: true}}}}\n");
        RunOptions options;
        options.gossBinary = path("goss").toStdString();
        QVERIFY(run("m.yaml", options));
        QCOMPARE(m_recorder.event("package#ok-a")->healthChecks.front().status, HealthCheckResult::Status::Ok);
        QCOMPARE(
            m_recorder.event("package#ok-a")->healthChecks.front().output, std::string("2 of 2 goss tests passed"));
        const TransactionEvent *b = m_recorder.event("package#ok-b");
        QCOMPARE(b->healthChecks.front().status, HealthCheckResult::Status::Critical);
        QVERIFY(b->healthChecks.front().output.find("File: /broken: exists: Expected true") != std::string::npos);
        QVERIFY(b->failed);
    }

    void healthCheckOnlyRunsNoType()
    {
        write("m.yaml",
            "ccm:\n  resources:\n    - package:\n        - change-a:\n            ensure: present\n"
            "            health_checks: [{command: /bin/false}]\n");
        RunOptions options;
        options.healthCheckOnly = true;
        QVERIFY(run("m.yaml", options));
        QVERIFY(m_journal.applied.empty());
        const TransactionEvent &event = m_recorder.events.front();
        QVERIFY(event.healthCheckOnly);
        QVERIFY(!event.changed);
        QVERIFY(event.failed);
        QCOMPARE(event.healthChecks.front().status, HealthCheckResult::Status::Warning);
    }

    void healthCheckOnlyReachesChildManifests()
    {
        write("child.yaml",
            "ccm:\n  resources:\n    - package:\n        - change-c:\n            ensure: present\n"
            "            health_checks: [{command: /bin/false}]\n");
        write("m.yaml", "ccm:\n  resources:\n    - apply:\n        - child.yaml: {}\n");
        RunOptions options;
        options.healthCheckOnly = true;
        QVERIFY(run("m.yaml", options));
        // The child's resource is not applied, but its health check runs and fails it.
        QVERIFY(m_journal.applied.empty());
        const TransactionEvent *child = m_recorder.event("package#change-c");
        QVERIFY(child);
        QVERIFY(child->healthCheckOnly);
        QVERIFY(child->failed);
        QCOMPARE(child->healthChecks.size(), std::size_t(1));
        const TransactionEvent *apply = m_recorder.event("apply#child.yaml");
        QVERIFY(apply->healthCheckOnly);
        QVERIFY(apply->failed);
        QVERIFY(!apply->changed);
        QCOMPARE(apply->errors, list({"1 resource of 1 failed in child manifest child.yaml"}));
    }

    void cancelStopsBeforeTheNextResource()
    {
        write("m.yaml",
            "ccm:\n  post_message: after\n  resources:\n    - package:\n        - ok-a: {ensure: present}\n"
            "        - ok-b: {ensure: present}\n        - ok-c: {ensure: present}\n");
        m_recorder.cancelAfter = 1;
        QVERIFY(run("m.yaml"));
        QCOMPARE(m_journal.applied, list({"package#ok-a"}));
        QVERIFY(m_result.cancelled);
        QCOMPARE(m_result.summary.total, std::size_t(1));
        QVERIFY(m_recorder.messages.empty());
    }

    void childManifestsRunInline()
    {
        write("parts/child.yaml",
            "data:\n  flavour: plain\nccm:\n  pre_message: 'child {{ Data.flavour }}'\n  resources:\n"
            "    - package:\n        - change-in-child:\n            ensure: present\n"
            "            control: {if: 'Data.flavour == \"spicy\"'}\n"
            "        - ok-child: {ensure: present}\n");
        write("m.yaml",
            "ccm:\n  resources:\n    - apply:\n        - parts/child.yaml:\n            noop: true\n"
            "            data: {flavour: spicy}\n"
            "    - package:\n        - ok-after: {ensure: present, require: [package#ok-child]}\n"
            "    - service:\n        - ok-svc: {subscribe: [apply#parts/child.yaml]}\n");
        QVERIFY(run("m.yaml"));
        // The child ran in noop with the parent's data; the parent's next resources did not, and a
        // change that only would have happened does not refresh a real subscriber.
        QCOMPARE(m_journal.applied,
            list({"package#change-in-child noop", "package#ok-child noop", "package#ok-after", "service#ok-svc"}));
        QCOMPARE(m_recorder.messages, list({"child spicy"}));
        const TransactionEvent *apply = m_recorder.event("apply#parts/child.yaml");
        QVERIFY(apply->changed);
        QVERIFY(!apply->failed);
        QCOMPARE(apply->status["resource_count"].get<int>(), 2);
        QCOMPARE(apply->status["changed"].get<int>(), 1);
        QCOMPARE(apply->noopMessage, std::string("Would have changed 1 resource of the child manifest"));
        QCOMPARE(outcomes(),
            list({"package#change-in-child changed", "package#ok-child stable", "apply#parts/child.yaml changed",
                "package#ok-after stable", "service#ok-svc stable"}));
    }

    void childFailuresFailTheApplyResource()
    {
        write("child.yaml",
            "ccm:\n  resources:\n    - package:\n        - fail-x: {ensure: present}\n"
            "        - ok-y: {ensure: present}\n");
        write("m.yaml", "ccm:\n  resources:\n    - apply:\n        - child.yaml: {}\n");
        QVERIFY(run("m.yaml"));
        const TransactionEvent *apply = m_recorder.event("apply#child.yaml");
        QVERIFY(apply->failed);
        QCOMPARE(apply->errors, list({"1 resource of 2 failed in child manifest child.yaml"}));
    }

    void failOnErrorInAChildStopsOnlyTheChild()
    {
        write("child.yaml",
            "ccm:\n  fail_on_error: true\n  resources:\n    - package:\n        - fail-x: {ensure: present}\n"
            "        - ok-y: {ensure: present}\n");
        write("m.yaml",
            "ccm:\n  resources:\n    - apply:\n        - child.yaml: {}\n"
            "    - package:\n        - ok-after: {ensure: present}\n");
        QVERIFY(run("m.yaml"));
        QCOMPARE(outcomes(), list({"package#fail-x failed", "apply#child.yaml failed", "package#ok-after stable"}));
        QCOMPARE(m_recorder.event("apply#child.yaml")->errors,
            list({"1 resource of 1 failed in child manifest child.yaml"}));
        QVERIFY(!m_result.aborted);
        QCOMPARE(m_result.summary.total, std::size_t(3));
    }

    void childManifestProblemsFailTheApplyResource_data()
    {
        QTest::addColumn<QString>("child");
        QTest::addColumn<QString>("applyProperties");
        QTest::addColumn<QString>("error");
        QTest::newRow("missing file")
            << ""
            << "{}"
            << "child manifest DIR/child.yaml is invalid:\nDIR/child.yaml: error: cannot read "
               "the file: No such file or directory";
        QTest::newRow("invalid child") << "ccm:\n  resources:\n    - package:\n        - x: {ensure: 3}\n"
                                       << "{}"
                                       << "child manifest DIR/child.yaml is invalid:\nDIR/child.yaml:4:23: error: "
                                          "package#x: 'ensure' must be a string";
        QTest::newRow("apply not allowed")
            << "ccm:\n  resources:\n    - apply:\n        - other.yaml: {}\n"
            << "{allow_apply: false}"
            << "child manifest DIR/child.yaml contains apply#other.yaml but allow_apply is false";
    }

    void childManifestProblemsFailTheApplyResource()
    {
        QFETCH(QString, child);
        QFETCH(QString, applyProperties);
        QFETCH(QString, error);
        if (!child.isEmpty())
            write("child.yaml", child.toStdString());
        write("m.yaml",
            "ccm:\n  resources:\n    - apply:\n        - child.yaml: " + applyProperties.toStdString()
                + "\n    - package:\n        - ok-after: {ensure: present}\n");
        QVERIFY(run("m.yaml"));
        const TransactionEvent *apply = m_recorder.event("apply#child.yaml");
        QVERIFY(apply->failed);
        error.replace(QStringLiteral("DIR"), m_dir->path());
        QVERIFY2(q(apply->errors.front()).startsWith(error), apply->errors.front().c_str());
        QCOMPARE(m_journal.applied, list({"package#ok-after"}));
    }

    void nestingIsLimited()
    {
        // A manifest that applies itself recurses until the depth limit stops it.
        write("self.yaml", "ccm:\n  resources:\n    - apply:\n        - self.yaml: {}\n");
        RunOptions options;
        options.maxApplyDepth = 3;
        QVERIFY(run("self.yaml", options));
        QCOMPARE(m_recorder.events.size(), std::size_t(4));
        QVERIFY(m_recorder.events.front().failed);
        QCOMPARE(m_recorder.events.front().errors.front(),
            std::string("child manifest self.yaml would nest deeper than the limit of 3 levels"));
        for (const TransactionEvent &event : m_recorder.events)
            QVERIFY(event.failed);
    }

    void parentNoopCannotBeWeakened()
    {
        write("child.yaml", "ccm:\n  resources:\n    - package:\n        - change-x: {ensure: present}\n");
        write("m.yaml", "ccm:\n  resources:\n    - apply:\n        - child.yaml: {noop: false}\n");
        RunOptions options;
        options.noop = true;
        QVERIFY(run("m.yaml", options));
        QCOMPARE(m_journal.applied, list({"package#change-x noop"}));
        QVERIFY(std::any_of(m_recorder.logs.begin(), m_recorder.logs.end(),
            [](const std::string &line) { return line.find("noop: false has no effect") != std::string::npos; }));
    }
};

CCM_TEST_GUILESS_MAIN(TestRun)
#include "tst_run.moc"
