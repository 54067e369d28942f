// SPDX-License-Identifier: Apache-2.0
// The exec type: the working directory, the environment, PATH, logged output, shell or posix, the properties it takes
// and its providers.
#include "exec_test_support.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

class TestExecTypeCommands : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cwd_data()
    {
        QTest::addColumn<QString>("cwd");
        QTest::addColumn<QString>("expected"); // relative to the temporary directory
        QTest::newRow("absolute") << QStringLiteral("<dir>/work") << QStringLiteral("work");
        QTest::newRow("relative to the manifest") << QStringLiteral("work") << QStringLiteral("work");
        QTest::newRow("nested relative") << QStringLiteral("work/deeper") << QStringLiteral("work/deeper");
    }

    void cwd()
    {
        QFETCH(QString, cwd);
        QFETCH(QString, expected);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QVERIFY(QDir(q(harness.root())).mkpath(QStringLiteral("work/deeper")));
        harness.workingDirectory = harness.root();
        cwd.replace(QStringLiteral("<dir>"), q(harness.root()));
        const ApplyOutcome outcome
            = harness.apply("where", Json {{"command", script("pwd > where")}, {"cwd", cwd.toStdString()}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        const QString directory = QDir::cleanPath(q(harness.path(expected)));
        QCOMPARE(QDir::cleanPath(QString::fromLocal8Bit(harness.read(expected + QStringLiteral("/where")).trimmed())),
            directory);
    }

    void badCwdFails()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome
            = harness.apply("where", Json {{"command", "/bin/true"}, {"cwd", "/nonexistent/dir"}});
        QCOMPARE(
            outcome.error(), QStringLiteral("cannot run /bin/true in /nonexistent/dir: No such file or directory"));
    }

    void environment_data()
    {
        QTest::addColumn<Json>("environment");
        QTest::addColumn<QByteArray>("seen");
        QTest::newRow("none") << Json() << QByteArray("[] [C]\n");
        QTest::newRow("one") << Json {"GREETING=hello world"} << QByteArray("[hello world] [C]\n");
        QTest::newRow("value with =") << Json {"GREETING=a=b"} << QByteArray("[a=b] [C]\n");
        QTest::newRow("replaces the runner's")
            << Json {"GREETING=hi", "LANG=de_DE.UTF-8"} << QByteArray("[hi] [de_DE.UTF-8]\n");
        QTest::newRow("later wins") << Json {"GREETING=first", "GREETING=second"} << QByteArray("[second] [C]\n");
    }

    void environment()
    {
        QFETCH(Json, environment);
        QFETCH(QByteArray, seen);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        Json properties {{"command", script("echo \"[$GREETING] [$LANG]\" > seen")}};
        if (!environment.is_null())
            properties["environment"] = environment;
        const ApplyOutcome outcome = harness.apply("env", properties);
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QCOMPARE(harness.read(QStringLiteral("seen")), seen);
    }

    void pathLookup()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QVERIFY(QDir(q(harness.root())).mkpath(QStringLiteral("tools")));
        QVERIFY(writeFile(q(harness.path(QStringLiteral("tools/my-tool"))), "#!/bin/sh\necho \"$1 $PATH\" > found\n"));
        QVERIFY(QFile::setPermissions(
            q(harness.path(QStringLiteral("tools/my-tool"))), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        const std::string searchPath = harness.path(QStringLiteral("tools")) + ":/usr/bin:/bin";

        const ApplyOutcome without = harness.apply("tool", Json {{"command", "my-tool argument"}});
        QCOMPARE(without.error(),
            QStringLiteral("command not found: my-tool (searched PATH=%1)")
                .arg(QString::fromLatin1(ProcessRunner::kPath)));

        const ApplyOutcome with = harness.apply("tool", Json {{"command", "my-tool argument"}, {"path", searchPath}});
        QVERIFY2(with.result.ok(), qPrintable(with.error()));
        QCOMPARE(harness.read(QStringLiteral("found")), QByteArray::fromStdString("argument " + searchPath + "\n"));

        // path wins over a PATH= entry in environment.
        const ApplyOutcome both = harness.apply(
            "tool", Json {{"command", "my-tool again"}, {"path", searchPath}, {"environment", {"PATH=/nonexistent"}}});
        QVERIFY2(both.result.ok(), qPrintable(both.error()));
        QCOMPARE(harness.read(QStringLiteral("found")), QByteArray::fromStdString("again " + searchPath + "\n"));
    }

    void logOutput_data()
    {
        QTest::addColumn<bool>("logOutput");
        QTest::addColumn<QStringList>("info");
        QTest::addColumn<QStringList>("warnings");
        QTest::newRow("logoutput") << true
                                   << QStringList {QStringLiteral("one"), QString(), QStringLiteral("two"),
                                          QStringLiteral("three")}
                                   << QStringList {QStringLiteral("complaint")};
        QTest::newRow("silent") << false << QStringList() << QStringList();
    }

    void logOutput()
    {
        QFETCH(bool, logOutput);
        QFETCH(QStringList, info);
        QFETCH(QStringList, warnings);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply("talk",
            Json {{"command", script("echo one; echo; printf \"two\\r\\nthree\"; echo complaint >&2")},
                {"logoutput", logOutput}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QCOMPARE(harness.log().lines(LogLevel::Info), info);
        QCOMPARE(harness.log().lines(LogLevel::Warning), warnings);
    }

    void logOutputOfAFailureKeepsStderrInTheLog()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply(
            "talk", Json {{"command", script("echo partial; echo broken >&2; exit 5")}, {"logoutput", true}});
        QCOMPARE(outcome.error(),
            QStringLiteral("desired state not achieved: command exited with code 5 (expected one of 0)"));
        QCOMPARE(harness.log().lines(LogLevel::Info), QStringList {QStringLiteral("partial")});
        QCOMPARE(harness.log().lines(LogLevel::Warning), QStringList {QStringLiteral("broken")});
    }

    void logOutputSaysWhenOutputWasCut()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply(
            "flood", Json {{"command", "head -c 1100000 /dev/zero | tr \"\\0\" a"}, {"logoutput", true}}, Kind::Shell);
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QCOMPARE(harness.log().lines(LogLevel::Info).size(), 1);
        QCOMPARE(harness.log().lines(LogLevel::Info).front().size(), 1024 * 1024);
        QCOMPARE(harness.log().lines(LogLevel::Warning),
            QStringList {QStringLiteral("the command wrote more to stdout than is kept; the rest was dropped")});
    }

    void shellAndPosixDiffer_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<std::string>("command");
        QTest::addColumn<QStringList>("logged");
        QTest::addColumn<bool>("fileMade");
        QTest::newRow("posix passes $USER literally")
            << int(Kind::Posix) << std::string("/bin/echo $USER") << QStringList {QStringLiteral("$USER")} << false;
        QTest::newRow("shell expands $USER")
            << int(Kind::Shell) << std::string("/bin/echo $USER") << QStringList {QStringLiteral("alice")} << false;
        QTest::newRow("posix passes a pipe and redirection as arguments")
            << int(Kind::Posix) << std::string("echo hello | tr a-z A-Z > upper")
            << QStringList {QStringLiteral("hello | tr a-z A-Z > upper")} << false;
        QTest::newRow("shell runs the pipe and redirection")
            << int(Kind::Shell) << std::string("echo hello | tr a-z A-Z > upper") << QStringList() << true;
        QTest::newRow("shell runs builtins and logic") << int(Kind::Shell) << std::string("cd / && pwd || echo failed")
                                                       << QStringList {QStringLiteral("/")} << false;
    }

    void shellAndPosixDiffer()
    {
        QFETCH(int, kind);
        QFETCH(std::string, command);
        QFETCH(QStringList, logged);
        QFETCH(bool, fileMade);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply(
            "differ", Json {{"command", command}, {"environment", {"USER=alice"}}, {"logoutput", true}}, Kind(kind));
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QCOMPARE(harness.log().lines(LogLevel::Info), logged);
        QCOMPARE(harness.exists(QStringLiteral("upper")), fileMade);
        if (fileMade)
            QCOMPARE(harness.read(QStringLiteral("upper")), QByteArray("HELLO\n"));
    }

    void shellGuardsUseTheShell()
    {
        ExecHarness harness;
        QVERIFY(harness.isValid());
        QVERIFY(writeFile(q(harness.path(QStringLiteral("list.txt"))), "example\n"));
        const ApplyOutcome outcome = harness.apply("repo",
            Json {{"command", "echo ran > command-ran"}, {"unless", "grep -q example *.txt 2>/dev/null"}}, Kind::Shell);
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QVERIFY(!outcome.event.changed);
        QVERIFY(!harness.exists(QStringLiteral("command-ran")));
        QCOMPARE(dump(outcome.event.status), dump(status(std::nullopt, false, std::nullopt, true)));
    }

    void commandDefaultsToTheName_data()
    {
        QTest::addColumn<Json>("properties");
        QTest::newRow("no command") << Json::object();
        QTest::newRow("null command") << Json {{"command", nullptr}};
        QTest::newRow("empty command, as a template may leave it") << Json {{"command", ""}};
    }

    void commandDefaultsToTheName()
    {
        QFETCH(Json, properties);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply("/bin/sh -c 'echo named > named'", properties);
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QCOMPARE(harness.read(QStringLiteral("named")), QByteArray("named\n"));
    }

    void invalidProperties_data()
    {
        QTest::addColumn<std::string>("name");
        QTest::addColumn<Json>("properties");
        QTest::addColumn<QString>("error");
        const std::string ok = script("echo ran > command-ran");
        QTest::newRow("command quoting")
            << ok << Json {{"command", "echo 'oops"}}
            << QStringLiteral("command cannot be split into arguments: unterminated single quote at column 6");
        QTest::newRow("name quoting")
            << std::string("echo \"oops") << Json::object()
            << QStringLiteral(
                   "the name is the command and cannot be split into arguments: unterminated double quote at "
                   "column 6");
        QTest::newRow("command not a string")
            << ok << Json {{"command", 5}} << QStringLiteral("command must be a string, not an integer");
        QTest::newRow("environment without =")
            << ok << Json {{"environment", {"NOVALUE"}}}
            << QStringLiteral("environment entry 'NOVALUE' must be KEY=VALUE with a non-empty key and value");
        QTest::newRow("environment with empty value")
            << ok << Json {{"environment", {"KEY="}}}
            << QStringLiteral("environment entry 'KEY=' must be KEY=VALUE with a non-empty key and value");
        QTest::newRow("environment with empty key")
            << ok << Json {{"environment", {"=value"}}}
            << QStringLiteral("environment entry '=value' must be KEY=VALUE with a non-empty key and value");
        QTest::newRow("environment name with a digit first")
            << ok << Json {{"environment", {"1X=a"}}}
            << QStringLiteral("environment variable name '1X' may hold only letters, digits and _ and must not start "
                              "with a digit");
        QTest::newRow("environment name with a dash")
            << ok << Json {{"environment", {"MY-VAR=a"}}}
            << QStringLiteral("environment variable name 'MY-VAR' may hold only letters, digits and _ and must not "
                              "start with a digit");
        QTest::newRow("environment not a list")
            << ok << Json {{"environment", "A=b"}}
            << QStringLiteral("environment must be a list of KEY=VALUE entries, not string");
        QTest::newRow("environment entry not a string")
            << ok << Json {{"environment", {1}}} << QStringLiteral("environment entry 1 must be a KEY=VALUE string");
        QTest::newRow("relative path entry")
            << ok << Json {{"path", "/usr/bin:relative/bin"}}
            << QStringLiteral("path entry 'relative/bin' must be an absolute directory");
        QTest::newRow("empty path entry")
            << ok << Json {{"path", "/usr/bin::/bin"}} << QStringLiteral("path entry '' must be an absolute directory");
        QTest::newRow("bad timeout") << ok << Json {{"timeout", "soon"}}
                                     << QStringLiteral("timeout: 'soon' is not a duration: ") + QStringLiteral("*");
        QTest::newRow("exit code too large")
            << ok << Json {{"returns", {0, 300}}} << QStringLiteral("exit code 300 is outside 0 to 255");
        QTest::newRow("negative exit code")
            << ok << Json {{"returns", {-1}}} << QStringLiteral("exit code -1 is outside 0 to 255");
        QTest::newRow("templated exit code too large")
            << ok << Json {{"returns", {"256"}}} << QStringLiteral("exit code \"256\" is outside 0 to 255");
        QTest::newRow("exit code not a number")
            << ok << Json {{"returns", {"two"}}}
            << QStringLiteral("returns entry \"two\" must be an exit code from 0 to 255");
        QTest::newRow("exit code a fraction") << ok << Json {{"returns", {1.5}}}
                                              << QStringLiteral("returns entry 1.5 must be an exit code from 0 to 255");
        QTest::newRow("returns not a list")
            << ok << Json {{"returns", 0}} << QStringLiteral("returns must be a list of exit codes, not number");
        QTest::newRow("refreshonly not a boolean")
            << ok << Json {{"refreshonly", "maybe"}}
            << QStringLiteral("refreshonly must be true or false, not \"maybe\"");
        QTest::newRow("refresh_only not a boolean")
            << ok << Json {{"refresh_only", 1}} << QStringLiteral("refresh_only must be true or false, not 1");
        QTest::newRow("logoutput not a boolean")
            << ok << Json {{"logoutput", "yes"}} << QStringLiteral("logoutput must be true or false, not \"yes\"");
    }

    void invalidProperties()
    {
        QFETCH(std::string, name);
        QFETCH(Json, properties);
        QFETCH(QString, error);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply(name, properties);
        if (error.endsWith(QLatin1Char('*')))
            QVERIFY2(outcome.error().startsWith(error.chopped(1)), qPrintable(outcome.error()));
        else
            QCOMPARE(outcome.error(), error);
        QVERIFY(!harness.exists(QStringLiteral("command-ran")));
        QVERIFY(!outcome.event.changed);
    }

    void templatedValuesThatAreValid()
    {
        // Resolved templates leave booleans as text.
        ExecHarness harness;
        QVERIFY(harness.isValid());
        harness.noop = true;
        const ApplyOutcome outcome
            = harness.apply("t", Json {{"command", "/bin/true"}, {"refreshonly", "true"}, {"logoutput", "false"}});
        QVERIFY2(outcome.result.ok(), qPrintable(outcome.error()));
        QVERIFY(!outcome.event.changed);
    }

    void emptyCommand_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("error");
        QTest::newRow("posix") << int(Kind::Posix) << QStringLiteral("no command specified");
        QTest::newRow("shell") << int(Kind::Shell) << QStringLiteral("no command to execute");
    }

    void emptyCommand()
    {
        QFETCH(int, kind);
        QFETCH(QString, error);
        ExecHarness harness;
        QVERIFY(harness.isValid());
        const ApplyOutcome outcome = harness.apply("   ", Json::object(), Kind(kind));
        QCOMPARE(outcome.error(), error);
    }

    void providersCheckTheirInput_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<std::string>("command");
        QTest::addColumn<QString>("error");
        QTest::newRow("posix, bad quoting") << int(Kind::Posix) << std::string("echo \"x")
                                            << QStringLiteral("invalid command: unterminated double quote at column 6");
        QTest::newRow("posix, blank") << int(Kind::Posix) << std::string(" \t ")
                                      << QStringLiteral("no command specified");
        QTest::newRow("shell, blank") << int(Kind::Shell) << std::string("\n")
                                      << QStringLiteral("no command to execute");
    }

    void providersCheckTheirInput()
    {
        QFETCH(int, kind);
        QFETCH(std::string, command);
        QFETCH(QString, error);
        RecordingRunner runner;
        PosixExecProvider posix(runner);
        ShellExecProvider shell(runner);
        ExecProvider &provider = Kind(kind) == Kind::Posix ? static_cast<ExecProvider &>(posix) : shell;
        ExecProperties properties;
        properties.command = command;
        const auto result = provider.execute(properties);
        QVERIFY(!result);
        QCOMPARE(q(result.error().message), error);
        QVERIFY(runner.commands().empty());
    }

    void everyCommandRunsAsTheRunnersIdentity_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::addColumn<int>("kind");
        QTest::newRow("posix, real") << false << int(Kind::Posix);
        QTest::newRow("posix, noop") << true << int(Kind::Posix);
        QTest::newRow("shell, real") << false << int(Kind::Shell);
        QTest::newRow("shell, noop") << true << int(Kind::Shell);
    }

    void everyCommandRunsAsTheRunnersIdentity()
    {
        QFETCH(bool, noop);
        QFETCH(int, kind);
        const bool posixKind = Kind(kind) == Kind::Posix;
        const auto argv = [&](const std::string &line) {
            return posixKind
                ? std::vector<std::string> {line.substr(0, line.find(' ')), line.substr(line.find(' ') + 1)}
                : std::vector<std::string> {"/bin/sh", "-c", line};
        };
        RecordingRunner runner;
        runner.expect(argv("/usr/bin/test-ready /etc/app"), exited(0));
        runner.expect(argv("/usr/bin/test-done /etc/app"), exited(1));
        runner.expect(argv("/usr/bin/make build"), exited(0));
        LevelLogger log;
        const LazyFacts facts;
        const Credentials peer {4242, 4343, {4444, 4545}};
        IdentityRunner asPeer(runner, peer);
        ApplyContext context {.noop = noop,
            .runner = asPeer,
            .log = log,
            .facts = facts,
            .workingDirectory = {},
            .mayShowDiff = {},
            .runChildManifest = {}};
        PosixExecProvider posix(asPeer);
        ShellExecProvider shell(asPeer);
        ExecProvider &provider = posixKind ? static_cast<ExecProvider &>(posix) : shell;
        TransactionEvent event;
        const Json properties {{"command", "/usr/bin/make build"}, {"onlyif", "/usr/bin/test-ready /etc/app"},
            {"unless", "/usr/bin/test-done /etc/app"}, {"cwd", "/opt/app"}, {"environment", {"CC=gcc"}},
            {"path", "/usr/local/bin:/usr/bin"}, {"timeout", "90s"}};
        const auto result = ExecType().apply("build", properties, provider, context, event);
        QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
        QVERIFY(event.changed);

        const std::vector<Command> commands = runner.commands();
        QCOMPARE(commands.size(), noop ? 2u : 3u);
        for (std::size_t i = 0; i < commands.size(); ++i) {
            const Command &command = commands[i];
            QCOMPARE(q(command.cwd), QStringLiteral("/opt/app"));
            QCOMPARE(command.environment, (std::vector<std::string> {"CC=gcc", "PATH=/usr/local/bin:/usr/bin"}));
            QCOMPARE(command.timeout, std::chrono::milliseconds(90s));
            QVERIFY(command.runAs.has_value());
            QCOMPARE(command.runAs->uid, uid_t(4242));
            QCOMPARE(command.runAs->gid, gid_t(4343));
            QCOMPARE(command.runAs->groups, (std::vector<gid_t> {4444, 4545}));
        }
        QCOMPARE(runner.pending().size(), noop ? 1u : 0u);
    }

    void aRefreshNamesEverySubscriptionThatFired()
    {
        // A noop child manifest in a real run: one subscription changed for real, two would have.
        RecordingRunner runner;
        LevelLogger log;
        const LazyFacts facts;
        ApplyContext context {.noop = true,
            .refreshCauses = {{.reference = "file#/etc/app.conf", .noop = false},
                {.reference = "package#app", .noop = true}, {.reference = "file#app-env", .noop = true}},
            .runner = runner,
            .log = log,
            .facts = facts,
            .workingDirectory = {},
            .mayShowDiff = {},
            .runChildManifest = {}};
        PosixExecProvider posix(runner);
        TransactionEvent event;
        const auto result = ExecType().apply("/usr/bin/systemctl reload app", Json::object(), posix, context, event);
        QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
        QVERIFY(event.changed && event.refreshed);
        QCOMPARE(q(event.noopMessage),
            QStringLiteral("would refresh: subscribed to file#/etc/app.conf, which changed, and to package#app and "
                           "file#app-env, which would change"));
        QVERIFY(runner.commands().empty());
    }

    void notAnExecProvider()
    {
        class Other : public Provider {
        public:
            [[nodiscard]] std::string_view name() const override { return "other"; }
        } other;
        RecordingRunner runner;
        LevelLogger log;
        const LazyFacts facts;
        ApplyContext context {.noop = false,
            .runner = runner,
            .log = log,
            .facts = facts,
            .workingDirectory = {},
            .mayShowDiff = {},
            .runChildManifest = {}};
        TransactionEvent event;
        const auto result = ExecType().apply("x", Json::object(), other, context, event);
        QVERIFY(!result);
        QCOMPARE(q(result.error().message), QStringLiteral("provider 'other' is not an exec provider"));
    }

    void providerSelection_data()
    {
        QTest::addColumn<Json>("properties");
        QTest::addColumn<QString>("provider");
        QTest::newRow("nothing asked") << Json::object() << QStringLiteral("posix");
        QTest::newRow("posix asked") << Json {{"provider", "posix"}} << QStringLiteral("posix");
        QTest::newRow("shell asked") << Json {{"provider", "shell"}} << QStringLiteral("shell");
        QTest::newRow("empty provider") << Json {{"provider", ""}} << QStringLiteral("posix");
    }

    void providerSelection()
    {
        QFETCH(Json, properties);
        QFETCH(QString, provider);
        Catalog catalog;
        registerExecResources(catalog);
        const ResourceType *type = catalog.type("exec");
        QVERIFY(type);
        QCOMPARE(q(type->defaultEnsure()), QStringLiteral("present"));
        QCOMPARE(catalog.providers().providerNames("exec"), (std::vector<std::string> {"posix", "shell"}));
        const auto selected = catalog.providers().select("exec", properties, LazyFacts());
        QVERIFY2(selected.ok(), selected.ok() ? "" : selected.error().message.c_str());
        QCOMPARE(q(std::string((*selected)->name())), provider);
        RecordingRunner runner;
        const auto created = (*selected)->create(runner);
        QVERIFY(dynamic_cast<ExecProvider *>(created.get()));
        QCOMPARE(q(std::string(created->name())), provider);
    }

    void shellNeverChosenOnItsOwn()
    {
        const Json plain = Json::object();
        const Json asked {{"provider", "shell"}};
        QCOMPARE(*PosixExecProviderFactory().manageable(plain, LazyFacts()), std::optional<int>(1));
        QCOMPARE(*PosixExecProviderFactory().manageable(asked, LazyFacts()), std::optional<int>(1));
        QCOMPARE(*ShellExecProviderFactory().manageable(plain, LazyFacts()), std::optional<int>());
        QCOMPARE(*ShellExecProviderFactory().manageable(asked, LazyFacts()), std::optional<int>(99));
        QCOMPARE(q(ShellExecProviderFactory().unavailableReason()), QString());
    }

    void shellMissing()
    {
        const Json asked {{"provider", "shell"}};
        const ShellExecProviderFactory missing("/nonexistent/sh");
        QCOMPARE(*missing.manageable(asked, LazyFacts()), std::optional<int>());
        QCOMPARE(q(missing.unavailableReason()), QStringLiteral("/nonexistent/sh does not exist"));

        ProviderRegistry registry;
        registry.add(std::make_unique<PosixExecProviderFactory>());
        registry.add(std::make_unique<ShellExecProviderFactory>("/nonexistent/sh"));
        const auto selected = registry.select("exec", asked, LazyFacts());
        QVERIFY(!selected);
        QCOMPARE(q(selected.error().message),
            QStringLiteral("provider 'shell' cannot manage this exec resource: /nonexistent/sh does not exist"));
    }
};

CCM_TEST_GUILESS_MAIN(TestExecTypeCommands)
#include "tst_exec_type_commands.moc"
