// SPDX-License-Identifier: Apache-2.0
// What each type tells of a resource's current state (status, resource.status), and how the given
// properties differ from it: files, archives, execs and scaffolds on real temporary paths, packages
// and services against recorded apt and systemctl output.
#include "base/sha256.h"
#include "command_test_support.h"
#include "engine/resource_status.h"
#include "engine/resources/exec/exec_type.h"
#include "engine/resources/exec/posix/posix_exec_provider.h"
#include "engine/resources/package/apt/apt_package_provider.h"
#include "engine/resources/service/service_type.h"
#include "engine/resources/service/systemd/systemd_service_provider.h"
#include "package_test_support.h"
#include "recording_runner.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

/// The differences as "property: current -> wanted", for comparisons that show what differs.
QStringList differencesOf(const ResourceState &state)
{
    QStringList list;
    for (const StateDifference &difference : state.differences)
        list << q(difference.property + ": " + difference.current.dump() + " -> " + difference.wanted.dump());
    return list;
}

QString message(const Result<ResourceState> &state)
{
    return state ? QString() : q(state.error().message);
}

std::string systemdRecorded(const QString &file)
{
    return (QStringLiteral(CCM_FIXTURES_DIR "/tool-output/systemd/") + file).toStdString();
}

} // namespace

class TestResourceStatus : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    ProcessRunner m_runner;
    LazyFacts m_facts {Json::object()};

    [[nodiscard]] StatusContext context() const
    {
        return StatusContext {.runner = const_cast<ProcessRunner &>(m_runner),
            .facts = m_facts,
            .workingDirectory = m_dir.path().toStdString(),
            .mayRead = {}};
    }

    [[nodiscard]] std::string path(const char *name) const { return m_dir.filePath(s(name)).toStdString(); }

    Result<ResourceState> status(
        const std::string &type, const std::string &name, const Json &properties = Json::object()) const
    {
        return resourceStatus(standardCatalog(), type, name, properties, context());
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void filePresentWithItsAttributesAndChecksum()
    {
        const std::string file = path("motd");
        QVERIFY(writeFile(q(file), "hello\n"));
        QVERIFY(QFile::setPermissions(q(file), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        const auto state = status("file", file);
        QVERIFY2(state, qPrintable(message(state)));
        const std::string owner = (currentUserName() + s(":") + currentGroupName()).toStdString();
        QCOMPARE(q(state->summary), q("present, 0640 " + owner + ", sha256 5891b5b522d5\u2026"));
        QCOMPARE(q(state->state["ensure"].get<std::string>()), s("present"));
        QCOMPARE(q(state->state["metadata"]["checksum"].get<std::string>()), q(sha256Hex("hello\n")));
        QCOMPARE(q(state->state["metadata"]["mode"].get<std::string>()), s("0640"));
        QVERIFY(state->supported);
        QVERIFY(state->differences.empty());
        QVERIFY(state->notes.empty());
    }

    void fileDifferencesAreThoseApplyWouldChange_data()
    {
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QStringList>("differences");
        const QString sum = q(sha256Hex("hello\n"));
        QTest::newRow("as it is") << s(R"({"ensure": "present", "content": "hello\n", "mode": "0640"})")
                                  << QStringList {};
        QTest::newRow("owner by id") << q(R"({"owner": ")" + std::to_string(::geteuid()) + R"("})") << QStringList {};
        QTest::newRow("content and mode")
            << s(R"({"content": "bye\n", "mode": "644"})")
            << QStringList {s("content: \"sha256:") + sum + s("\" -> \"sha256:") + q(sha256Hex("bye\n")) + s("\""),
                   s("mode: \"0640\" -> \"0644\"")};
        QTest::newRow("source relative to the working directory")
            << s(R"({"source": "other.txt"})")
            << QStringList {s("source: \"sha256:") + sum + s("\" -> \"sha256:") + q(sha256Hex("other\n")) + s("\"")};
        QTest::newRow("ensure first") << s(R"({"ensure": "directory", "mode": "0755"})")
                                      << QStringList {s(R"(ensure: "present" -> "directory")")};
        QTest::newRow("unknown owner") << s(R"({"owner": "no-such-user-ccm"})")
                                       << QStringList {q("owner: \"" + currentUserName().toStdString()
                                              + "\" -> \"no-such-user-ccm\"")};
    }
    void fileDifferencesAreThoseApplyWouldChange()
    {
        QFETCH(QString, properties);
        QFETCH(QStringList, differences);
        const std::string file = path("compared");
        QVERIFY(writeFile(q(file), "hello\n"));
        QVERIFY(writeFile(q(path("other.txt")), "other\n"));
        QVERIFY(QFile::setPermissions(q(file), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        const auto state = status("file", file, Json::parse(properties.toStdString()));
        QVERIFY2(state, qPrintable(message(state)));
        QCOMPARE(differencesOf(*state), differences);
    }

    void fileAbsentAndDirectory()
    {
        const auto absent = status("file", path("missing"), {{"ensure", "present"}, {"mode", "0644"}});
        QVERIFY2(absent, qPrintable(message(absent)));
        QCOMPARE(q(absent->summary), s("absent"));
        QVERIFY(absent->state["metadata"]["mode"].is_null());
        QCOMPARE(differencesOf(*absent), QStringList {s(R"(ensure: "absent" -> "present")")});

        const std::string directory = path("conf.d");
        QVERIFY(QDir().mkpath(q(directory)));
        QVERIFY(QFile::setPermissions(
            q(directory), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup));
        const auto dir = status("file", directory, {{"ensure", "directory"}, {"mode", "0755"}});
        QVERIFY2(dir, qPrintable(message(dir)));
        QVERIFY(dir->summary.starts_with("directory, 0750 "));
        QCOMPARE(differencesOf(*dir), QStringList {s(R"(mode: "0750" -> "0755")")});
    }

    void fileContentTheCallerMayNotReadIsNeitherReadNorCompared()
    {
        const std::string file = path("secret");
        QVERIFY(writeFile(q(file), "s3cret\n"));
        StatusContext limited = context();
        limited.mayRead = [file](const std::filesystem::path &asked) { return asked != file; };
        const auto state = resourceStatus(standardCatalog(), "file", file, {{"content", "other"}}, limited);
        QVERIFY2(state, qPrintable(message(state)));
        QVERIFY(state->state["metadata"]["checksum"].is_null());
        QVERIFY(state->summary.find("sha256") == std::string::npos);
        QVERIFY(state->differences.empty());
        QCOMPARE(state->notes.size(), std::size_t(1));
        QVERIFY(state->notes.front().find("is not read") != std::string::npos);
    }

    void badFileNamesAndPropertiesAreErrors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("error");
        QTest::newRow("relative") << s("etc/motd") << s("{}") << s("must be a clean absolute path");
        QTest::newRow("bad mode") << s("/tmp") << s(R"({"mode": "0999"})") << s("mode");
        QTest::newRow("bad mode of an absent file")
            << s("/nonexistent-ccm-status") << s(R"({"mode": "rwx"})") << s("mode");
        QTest::newRow("bad ensure") << s("/tmp") << s(R"({"ensure": "running"})") << s("ensure 'running'");
        QTest::newRow("unknown provider")
            << s("/tmp") << s(R"({"provider": "nope"})") << s("unknown file provider 'nope'");
    }
    void badFileNamesAndPropertiesAreErrors()
    {
        QFETCH(QString, name);
        QFETCH(QString, properties);
        QFETCH(QString, error);
        const auto state = status("file", name.toStdString(), Json::parse(properties.toStdString()));
        QVERIFY(!state);
        QVERIFY2(message(state).contains(error), qPrintable(message(state)));
    }

    void unknownTypeListsTheTypes()
    {
        for (const char *type : {"bogus", "apply"}) {
            const auto state = status(type, "x");
            QVERIFY(!state);
            QCOMPARE(q(state.error().code), s("unknown_type"));
            QVERIFY2(message(state).contains(s("archive, exec, file, package, scaffold, service")),
                qPrintable(message(state)));
        }
    }

    void packageStateAndEnsureAgainstRecordedApt_data()
    {
        QTest::addColumn<QString>("recording");
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<bool>("asksPolicy");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QStringList>("differences");
        const QString installed = s("dpkg_query_installed.txt");
        const QString absent = s("dpkg_query_absent.txt");
        QTest::newRow("no properties") << installed << QString() << false << s("installed 5.9-4+b15 (amd64)")
                                       << QStringList {};
        QTest::newRow("same version") << installed << s("5.9-4+b15") << false << s("installed 5.9-4+b15 (amd64)")
                                      << QStringList {};
        QTest::newRow("other version") << installed << s("5.10-1") << false << s("installed 5.9-4+b15 (amd64)")
                                       << QStringList {s(R"(ensure: "5.9-4+b15" -> "5.10-1")")};
        QTest::newRow("latest, at the candidate")
            << installed << s("latest") << true << s("installed 5.9-4+b15 (amd64)") << QStringList {};
        QTest::newRow("to be removed") << installed << s("absent") << false << s("installed 5.9-4+b15 (amd64)")
                                       << QStringList {s(R"(ensure: "5.9-4+b15" -> "absent")")};
        QTest::newRow("absent") << absent << s("present") << false << s("absent")
                                << QStringList {s(R"(ensure: "absent" -> "present")")};
    }
    void packageStateAndEnsureAgainstRecordedApt()
    {
        QFETCH(QString, recording);
        QFETCH(QString, ensure);
        QFETCH(bool, asksPolicy);
        QFETCH(QString, summary);
        QFETCH(QStringList, differences);
        RecordingRunner runner;
        runner.expect(dpkgStatusArgv("zsh"), exited(0, aptRecorded(recording)));
        if (asksPolicy)
            runner.expect({"apt-cache", "policy", "zsh"}, exited(0, aptRecorded(s("apt_cache_policy.txt"))));
        AptPackageProvider provider(runner);
        const Json properties = ensure.isEmpty() ? Json::object() : Json {{"ensure", ensure.toStdString()}};
        const StatusContext looking {.runner = runner, .facts = m_facts};
        const auto state = standardCatalog().type("package")->currentState("zsh", properties, provider, looking);
        QVERIFY2(state, qPrintable(message(state)));
        QCOMPARE(q(state->summary), summary);
        QCOMPARE(differencesOf(*state), differences);
        QCOMPARE(q(state->state["metadata"]["provider"].get<std::string>()), s("apt"));
        QVERIFY(runner.pending().empty());
    }

    void packageNameIsCheckedBeforeTheProviderRuns()
    {
        RecordingRunner runner;
        AptPackageProvider provider(runner);
        const StatusContext looking {.runner = runner, .facts = m_facts};
        const auto state = standardCatalog().type("package")->currentState("-rf", Json::object(), provider, looking);
        QVERIFY(!state);
        QVERIFY2(message(state).contains(s("must not start with '-'")), qPrintable(message(state)));
        QVERIFY(runner.commands().empty());
    }

    void serviceStateAgainstRecordedSystemctl()
    {
        RecordingRunner runner;
        runner.expect(
            systemctl("is-active", "nginx"), RecordingRunner::fromFile(systemdRecorded(s("is-active-active.txt"))));
        runner.expect(systemctl("is-enabled", "nginx"),
            RecordingRunner::fromFile(systemdRecorded(s("is-enabled-disabled.txt")), 1));
        SystemdServiceProvider provider(runner);
        const StatusContext looking {.runner = runner, .facts = m_facts};
        const auto state = standardCatalog().type("service")->currentState(
            "nginx", {{"ensure", "stopped"}, {"enable", true}}, provider, looking);
        QVERIFY2(state, qPrintable(message(state)));
        QCOMPARE(q(state->summary), s("running, disabled"));
        QCOMPARE(
            differencesOf(*state), (QStringList {s(R"(ensure: "running" -> "stopped")"), s("enable: false -> true")}));
        QVERIFY(state->state["metadata"]["running"] == Json(true));
        QVERIFY(runner.pending().empty());
    }

    void execIsToldOnlyByCreates()
    {
        RecordingRunner runner;
        PosixExecProvider provider(runner);
        StatusContext looking = context();
        looking.runner = runner;
        const ResourceType *exec = standardCatalog().type("exec");
        const auto unknown = exec->currentState("/bin/false", Json::object(), provider, looking);
        QVERIFY2(unknown, qPrintable(message(unknown)));
        QVERIFY(!unknown->supported);
        QVERIFY(unknown->reason.find("cannot be told without running") != std::string::npos);

        QVERIFY(writeFile(q(path("done")), ""));
        const auto done = exec->currentState("/bin/false", {{"creates", "done"}}, provider, looking);
        QVERIFY2(done, qPrintable(message(done)));
        QVERIFY(done->supported);
        QCOMPARE(q(done->summary), q("creates " + path("done") + " exists: the command would not run"));
        QVERIFY(done->differences.empty());

        const auto pending = exec->currentState(
            "/bin/false", {{"creates", path("never")}, {"unless", "/bin/true"}}, provider, looking);
        QVERIFY2(pending, qPrintable(message(pending)));
        QCOMPARE(differencesOf(*pending), QStringList {s("creates: false -> true")});
        QCOMPARE(pending->notes.size(), std::size_t(1));
        QVERIFY(runner.commands().empty());
    }

    void archiveFileChecksumOwnerAndCreates()
    {
        const std::string archive = path("app.tar.gz");
        QVERIFY(writeFile(q(archive), "not really an archive"));
        const std::string sum = sha256Hex("not really an archive");
        std::string upper = sum;
        for (char &c : upper)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        const auto same = status(
            "archive", archive, {{"ensure", "present"}, {"checksum", upper}, {"owner", std::to_string(::geteuid())}});
        QVERIFY2(same, qPrintable(message(same)));
        QVERIFY(same->summary.starts_with("present, 21 bytes, "));
        QCOMPARE(q(same->state["metadata"]["checksum"].get<std::string>()), q(sum));
        QVERIFY(same->differences.empty());

        const auto differs = status("archive", archive,
            {{"checksum", std::string(64, 'a')}, {"creates", path("app/bin")}, {"extract_parent", path("app")}});
        QVERIFY2(differs, qPrintable(message(differs)));
        QCOMPARE(differencesOf(*differs),
            (QStringList {
                s("creates: false -> true"), q("checksum: \"" + sum + "\" -> \"" + std::string(64, 'a') + "\"")}));
        QVERIFY(differs->summary.ends_with("; creates " + path("app/bin") + " does not exist"));

        const auto removed = status("archive", archive, {{"ensure", "absent"}});
        QVERIFY2(removed, qPrintable(message(removed)));
        QCOMPARE(differencesOf(*removed), QStringList {s(R"(ensure: "present" -> "absent")")});

        const auto missing = status("archive", path("none.zip"), {{"ensure", "present"}});
        QVERIFY2(missing, qPrintable(message(missing)));
        QCOMPARE(q(missing->summary), s("absent"));
        QCOMPARE(differencesOf(*missing), QStringList {s(R"(ensure: "absent" -> "present")")});

        QVERIFY(!status("archive", path("app.rar")));
    }

    void archiveTheCallerMayNotReadHasNoChecksum()
    {
        const std::string archive = path("private.tgz");
        QVERIFY(writeFile(q(archive), "bytes"));
        StatusContext limited = context();
        limited.mayRead = [](const std::filesystem::path &) { return false; };
        const auto state
            = resourceStatus(standardCatalog(), "archive", archive, {{"checksum", std::string(64, 'b')}}, limited);
        QVERIFY2(state, qPrintable(message(state)));
        QVERIFY(state->state["metadata"]["checksum"].is_null());
        QVERIFY(state->state["metadata"]["archive_exists"] == Json(true));
        QVERIFY(state->differences.empty());
        QCOMPARE(state->notes.size(), std::size_t(1));
    }

    void scaffoldComparesTheRenderedTemplatesWithTheTarget()
    {
        const auto unknown = status("scaffold", path("site"));
        QVERIFY2(unknown, qPrintable(message(unknown)));
        QVERIFY(!unknown->supported);
        QVERIFY(unknown->reason.find("give source") != std::string::npos);

        QVERIFY(QDir().mkpath(m_dir.filePath(s("templates"))));
        QVERIFY(writeFile(m_dir.filePath(s("templates/index.html")), "hello\n"));
        const Json properties = {{"source", "templates"}};
        const auto fresh = status("scaffold", path("site"), properties);
        QVERIFY2(fresh, qPrintable(message(fresh)));
        QCOMPARE(q(fresh->summary), s("absent, 1 files to render"));
        QCOMPARE(
            differencesOf(*fresh), QStringList {q("source: [\"" + path("site/index.html") + "\"] -> \"as rendered\"")});
        QVERIFY(!QFile::exists(q(path("site"))));

        QVERIFY(QDir().mkpath(q(path("site"))));
        QVERIFY(writeFile(q(path("site/index.html")), "hello\n"));
        const auto stable = status("scaffold", path("site"), properties);
        QVERIFY2(stable, qPrintable(message(stable)));
        QCOMPARE(q(stable->summary), s("present, 1 files as rendered, 0 to change, 0 not rendered"));
        QVERIFY(stable->differences.empty());
    }

    void resourceStateAsJson()
    {
        ResourceState state;
        state.summary = "absent";
        state.state = {{"ensure", "absent"}};
        addDifference(state, "ensure", "absent", "present");
        const Json json = resourceStateToJson(state);
        QCOMPARE(dump(json),
            s(R"({"supported":true,"summary":"absent","state":{"ensure":"absent"},)"
              R"("differences":[{"property":"ensure","current":"absent","wanted":"present"}],"notes":[]})"));
        state.supported = false;
        state.reason = "why";
        QCOMPARE(q(resourceStateToJson(state)["reason"].get<std::string>()), s("why"));
    }
};

CCM_TEST_GUILESS_MAIN(TestResourceStatus)
#include "tst_resource_status.moc"
