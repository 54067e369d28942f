// SPDX-License-Identifier: Apache-2.0
#include "engine/prepared_manifest.h"
#include "engine/resources/registration.h"
#include "engine/resources/scaffold/choria/choria_scaffold_provider.h"
#include "engine/resources/scaffold/scaffold_type.h"
#include "engine/run.h"
#include "engine_test_support.h"
#include "file_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

using Tree = QMap<QString, QByteArray>;

Json json(const char *text)
{
    return Json::parse(text);
}

/// A provider that reports success but writes nothing, as a broken system would.
class IneffectiveScaffoldProvider : public ChoriaScaffoldProvider {
public:
    using ChoriaScaffoldProvider::ChoriaScaffoldProvider;
    Result<ScaffoldState> scaffold(const TemplateEnvironment &, const ScaffoldProperties &) override
    {
        return ScaffoldState {};
    }
};

/// An apply's outcome with the scaffold's file lists at hand.
struct ScaffoldOutcome : ApplyOutcome {
    [[nodiscard]] QStringList list(const char *name) const
    {
        QStringList paths;
        for (const Json &path : event.status["metadata"][name])
            paths << q(path.get<std::string>());
        return paths;
    }
};

/// A template directory `src` and a target directory `target` in a temporary directory, which is
/// also the manifest's directory.
class Fixture {
public:
    Fixture() { QDir(m_dir.path()).mkpath(QStringLiteral("src")); }

    [[nodiscard]] QString root() const { return m_dir.path(); }
    [[nodiscard]] QString path(const QString &relative) const { return m_dir.filePath(relative); }
    [[nodiscard]] std::string target() const { return local(path(QStringLiteral("target"))); }

    void write(const QString &relative, const QByteArray &content) const
    {
        QDir(m_dir.path()).mkpath(QFileInfo(path(relative)).path());
        QVERIFY(writeFile(path(relative), content));
    }

    /// Every file and directory below `relative`, files with their content, directories as "<dir>".
    [[nodiscard]] Tree tree(const QString &relative = QStringLiteral("target")) const
    {
        Tree entries;
        const QString top = path(relative);
        if (!QFileInfo::exists(top))
            return {{QString(), QByteArray("<missing>")}};
        QDirIterator it(
            top, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            QFile content(file);
            entries.insert(QDir(top).relativeFilePath(file),
                QFileInfo(file).isDir()                 ? QByteArray("<dir>")
                    : content.open(QIODevice::ReadOnly) ? content.readAll()
                                                        : QByteArray("<unreadable>"));
        }
        return entries;
    }

    ScaffoldOutcome apply(Json properties, bool noop = false, ScaffoldProvider *provider = nullptr)
    {
        if (!properties.contains("source"))
            properties["source"] = "src";
        if (!properties.contains("ensure"))
            properties["ensure"] = "present";
        const LazyFacts lazyFacts(facts);
        ApplyContext context {.noop = noop,
            .runner = m_runner,
            .log = m_log,
            .facts = lazyFacts,
            .workingDirectory = local(m_dir.path()),
            .mayShowDiff = {},
            .runChildManifest = {},
            .data = &data,
            .environ = &environ,
            .kvGet = kvGet};
        ChoriaScaffoldProvider choria(m_runner);
        ScaffoldOutcome outcome;
        outcome.result = ScaffoldType().apply(
            name.empty() ? target() : name, properties, provider ? *provider : choria, context, outcome.event);
        return outcome;
    }

    [[nodiscard]] CommandRunner &runner() { return m_runner; }
    /// The log messages of every apply so far; cleared on reading.
    [[nodiscard]] QStringList takeLog()
    {
        QStringList messages;
        for (const std::string &message : m_log.messages)
            messages << q(message);
        m_log.messages.clear();
        return messages;
    }

    Json facts = json(R"({"role": "db", "host": {"info": {"hostname": "node1"}}})");
    Json data = json(R"({"a": 1, "name": "hiera"})");
    Json environ = json(R"({"GREETING": "hello"})");
    std::string name;
    KvGetFunction kvGet;

private:
    QTemporaryDir m_dir;
    ProcessRunner m_runner;
    RecordingLogger m_log;
};

/// The decision rows' template tree: a.conf renders "A=1\n" with the fixture's data.
void writeTemplates(const Fixture &fixture)
{
    fixture.write(QStringLiteral("src/a.conf"), "A=[[ Data.a ]]\n");
    fixture.write(QStringLiteral("src/sub/b.txt"), "b\n");
}

/// Target contents by name: "missing", "empty", "stable" (what the templates render), "partial"
/// (a.conf out of date, sub/b.txt missing), "extra" (only an unmanaged file); "+extra" adds the
/// unmanaged extra.txt.
void writeTarget(const Fixture &fixture, const QString &setup)
{
    const QString kind = setup.section(QLatin1Char('+'), 0, 0);
    if (kind == QLatin1String("missing"))
        return;
    QDir(fixture.root()).mkpath(QStringLiteral("target"));
    if (kind == QLatin1String("stable")) {
        fixture.write(QStringLiteral("target/a.conf"), "A=1\n");
        fixture.write(QStringLiteral("target/sub/b.txt"), "b\n");
    } else if (kind == QLatin1String("partial")) {
        fixture.write(QStringLiteral("target/a.conf"), "A=old\n");
    }
    if (kind == QLatin1String("extra") || setup.endsWith(QLatin1String("+extra")))
        fixture.write(QStringLiteral("target/extra.txt"), "unmanaged\n");
}

Tree treeOf(const QStringList &entries)
{
    Tree tree;
    for (const QString &entry : entries) {
        const qsizetype equals = entry.indexOf(QLatin1Char('='));
        tree.insert(entry.left(equals), entry.mid(equals + 1).toUtf8());
    }
    return tree;
}

class EventRecorder : public RunObserver {
public:
    void resourceFinished(const TransactionEvent &event) override { events.push_back(event); }
    std::vector<TransactionEvent> events;
};

mode_t modeOf(const QString &path)
{
    struct stat status { };
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 ? status.st_mode & 07777 : 0;
}

} // namespace

class TestScaffoldType : public QObject {
    Q_OBJECT

private slots:
    void decision_data()
    {
        QTest::addColumn<QString>("ensure");
        QTest::addColumn<bool>("purge");
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("noopMessage");
        QTest::addColumn<QStringList>("after");

        const QStringList rendered {s("a.conf=A=1\n"), s("sub=<dir>"), s("sub/b.txt=b\n")};
        const QStringList renderedExtra = rendered + QStringList {s("extra.txt=unmanaged\n")};
        const QStringList onlyExtra {s("extra.txt=unmanaged\n")};
        const QStringList missing {s("=<missing>")};
        const QStringList empty;

        QTest::newRow("absent, target missing") << "absent" << false << "missing"
                                                << "" << missing;
        QTest::newRow("absent, no managed file on disk") << "absent" << false << "empty"
                                                         << "" << empty;
        QTest::newRow("absent, only unmanaged files, purge") << "absent" << true << "extra"
                                                             << "" << onlyExtra;
        QTest::newRow("absent, managed files remain") << "absent" << false << "stable+extra"
                                                      << "Would have removed 2 scaffold files" << onlyExtra;
        QTest::newRow("absent, managed files remain, purge counts unmanaged")
            << "absent" << true << "stable+extra"
            << "Would have removed 3 scaffold files" << onlyExtra;
        QTest::newRow("absent, changed file on disk") << "absent" << false << "partial"
                                                      << "Would have removed 1 scaffold files" << missing;
        QTest::newRow("present, all stable") << "present" << false << "stable"
                                             << "" << rendered;
        QTest::newRow("present, all stable, purge") << "present" << true << "stable"
                                                    << "" << rendered;
        QTest::newRow("present, unmanaged file ignored without purge") << "present" << false << "stable+extra"
                                                                       << "" << renderedExtra;
        QTest::newRow("present, unmanaged file purged") << "present" << true << "stable+extra"
                                                        << "Would have changed 1 scaffold files" << rendered;
        QTest::newRow("present, render needed") << "present" << false << "partial+extra"
                                                << "Would have changed 2 scaffold files" << renderedExtra;
        QTest::newRow("present, render needed, purge") << "present" << true << "partial+extra"
                                                       << "Would have changed 3 scaffold files" << rendered;
        QTest::newRow("present, empty target") << "present" << false << "empty"
                                               << "Would have changed 2 scaffold files" << rendered;
        QTest::newRow("present, target missing") << "present" << false << "missing"
                                                 << "Would have changed 2 scaffold files" << rendered;
    }

    void decision()
    {
        QFETCH(QString, ensure);
        QFETCH(bool, purge);
        QFETCH(QString, setup);
        QFETCH(QString, noopMessage);
        QFETCH(QStringList, after);

        Fixture fixture;
        writeTemplates(fixture);
        writeTarget(fixture, setup);
        Json properties = Json::object();
        properties["ensure"] = ensure.toStdString();
        properties["purge"] = purge;
        const Tree before = fixture.tree(QString());

        const ScaffoldOutcome preview = fixture.apply(properties, true);
        QVERIFY2(preview.result.ok(), qPrintable(preview.error()));
        QCOMPARE(preview.event.changed, !noopMessage.isEmpty());
        QCOMPARE(q(preview.event.noopMessage), noopMessage);
        QCOMPARE(fixture.tree(QString()), before);

        const ScaffoldOutcome applied = fixture.apply(properties);
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(applied.event.changed, !noopMessage.isEmpty());
        QVERIFY(applied.event.noopMessage.empty());
        QCOMPARE(fixture.tree(), treeOf(after));
        QCOMPARE(q(applied.event.finalEnsure), after == QStringList {s("=<missing>")} ? s("absent") : s("present"));

        const ScaffoldOutcome again = fixture.apply(properties);
        QVERIFY2(again.result.ok(), qPrintable(again.error()));
        QVERIFY(!again.event.changed);
        QCOMPARE(fixture.tree(), treeOf(after));
        const ScaffoldOutcome againPreview = fixture.apply(properties, true);
        QVERIFY(!againPreview.event.changed);
        QVERIFY(againPreview.event.noopMessage.empty());
    }

    void statusLists()
    {
        Fixture fixture;
        writeTemplates(fixture);
        writeTarget(fixture, QStringLiteral("partial+extra"));
        fixture.write(QStringLiteral("src/c.txt"), "c\n");
        fixture.write(QStringLiteral("target/c.txt"), "c\n");
        const ScaffoldOutcome preview = fixture.apply(json(R"({"purge": true})"), true);
        QVERIFY2(preview.result.ok(), qPrintable(preview.error()));
        const QString target = q(fixture.target());
        QCOMPARE(preview.list("changed"), (QStringList {target + s("/a.conf"), target + s("/sub/b.txt")}));
        QCOMPARE(preview.list("stable"), QStringList {target + s("/c.txt")});
        QCOMPARE(preview.list("purged"), QStringList {target + s("/extra.txt")});
        const Json &metadata = preview.event.status["metadata"];
        QCOMPARE(q(preview.event.status["ensure"].get<std::string>()), s("present"));
        QCOMPARE(q(metadata["name"].get<std::string>()), target);
        QCOMPARE(q(metadata["provider"].get<std::string>()), s("choria"));
        QCOMPARE(q(metadata["engine"].get<std::string>()), s("jet"));
        QVERIFY(metadata["target_exists"].get<bool>());

        QCOMPARE(fixture.takeLog(), QStringList {s("Would have changed 3 scaffold files")});
        const ScaffoldOutcome applied = fixture.apply(json(R"({"purge": true})"));
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.takeLog(),
            (QStringList {s("rendered ") + target + s("/a.conf"), s("rendered ") + target + s("/sub/b.txt"),
                s("purged ") + target + s("/extra.txt")}));
        QCOMPARE(applied.list("changed"), QStringList {});
        QCOMPARE(applied.list("stable").size(), 3);
        QCOMPARE(applied.list("purged"), QStringList {});
    }

    void engines_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");

        QTest::newRow("jet by default") << ""
                                        << ""
                                        << ""
                                        << "[[ Data.name ]]/[[ Facts.role ]]"
                                        << "hiera/db";
        QTest::newRow("jet") << "jet"
                             << ""
                             << ""
                             << "[[ Data.a + 1 ]] [[ Environ.GREETING ]]"
                             << "2 hello";
        QTest::newRow("jet range") << "jet"
                                   << ""
                                   << ""
                                   << "[[ range Facts.host.info ]][[ . ]][[ end ]]"
                                   << "node1";
        QTest::newRow("jet ignores go delimiters") << "jet"
                                                   << ""
                                                   << ""
                                                   << "{{ .Data.name }}"
                                                   << "{{ .Data.name }}";
        QTest::newRow("jet custom delimiters") << "jet"
                                               << "<<"
                                               << ">>"
                                               << "<< Data.name >> [[ Data.name ]]"
                                               << "hiera [[ Data.name ]]";
        QTest::newRow("go") << "go"
                            << ""
                            << ""
                            << "{{ .Data.name }}/{{ .Facts.role }} {{ .Environ.GREETING }}"
                            << "hiera/db hello";
        QTest::newRow("go if") << "go"
                               << ""
                               << ""
                               << "{{ if eq .Data.a 1 }}one{{ else }}other{{ end }}"
                               << "one";
        QTest::newRow("go ignores jet delimiters") << "go"
                                                   << ""
                                                   << ""
                                                   << "[[ Data.name ]]"
                                                   << "[[ Data.name ]]";
        QTest::newRow("go custom delimiters") << "go"
                                              << "<<"
                                              << ">>"
                                              << "<< .Data.name >> {{ .Data.name }}"
                                              << "hiera {{ .Data.name }}";
    }

    void engines()
    {
        QFETCH(QString, engine);
        QFETCH(QString, left);
        QFETCH(QString, right);
        QFETCH(QString, source);
        QFETCH(QString, expected);

        Fixture fixture;
        fixture.write(QStringLiteral("src/out.txt"), source.toUtf8());
        Json properties = Json::object();
        if (!engine.isEmpty())
            properties["engine"] = engine.toStdString();
        if (!left.isEmpty()) {
            properties["left_delimiter"] = left.toStdString();
            properties["right_delimiter"] = right.toStdString();
        }
        const ScaffoldOutcome applied = fixture.apply(properties);
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(), treeOf({QStringLiteral("out.txt=") + expected}));
        QCOMPARE(
            q(applied.event.status["metadata"]["engine"].get<std::string>()), engine.isEmpty() ? s("jet") : engine);
        QVERIFY(!fixture.apply(properties).event.changed);
    }

    void templatesReadKv_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QByteArray>("source");
        QTest::newRow("jet") << s("jet") << QByteArray("[[ kvGet(\"config\", \"motd\") ]]");
        QTest::newRow("go") << s("go") << QByteArray("{{ kvGet \"config\" \"motd\" }}");
        QTest::newRow("go pipeline") << s("go") << QByteArray("{{ \"motd\" | kvGet \"config\" }}");
    }

    void templatesReadKv()
    {
        QFETCH(QString, engine);
        QFETCH(QByteArray, source);
        Fixture fixture;
        fixture.write(QStringLiteral("src/out.txt"), source);
        Json properties = {{"engine", engine.toStdString()}};
        const ScaffoldOutcome without = fixture.apply(properties);
        QVERIFY(!without.result.ok());
        QVERIFY2(without.error().contains(s("kvGet needs a NATS connection")), qPrintable(without.error()));
        fixture.kvGet = [](const std::string &bucket, const std::string &key) -> Result<std::string> {
            return bucket + "/" + key + " from kv";
        };
        const ScaffoldOutcome applied = fixture.apply(properties);
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(), treeOf({QStringLiteral("out.txt=config/motd from kv")}));
    }

    void customData_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("expected");

        QTest::newRow("no data: the manifest's data") << ""
                                                      << "hiera";
        QTest::newRow("empty data: the manifest's data") << "{}"
                                                         << "hiera";
        QTest::newRow("data replaces the manifest's data") << R"({"name": "custom"})"
                                                           << "custom";
        QTest::newRow("manifest data is gone with custom data") << R"({"other": 1})"
                                                                << "none";
    }

    void customData()
    {
        QFETCH(QString, data);
        QFETCH(QString, expected);

        Fixture fixture;
        fixture.write(QStringLiteral("src/out.txt"), "[[ Data.name ?? \"none\" ]] [[ Facts.role ]]");
        Json properties = Json::object();
        if (!data.isEmpty())
            properties["data"] = Json::parse(data.toStdString());
        const ScaffoldOutcome applied = fixture.apply(properties);
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(), treeOf({QStringLiteral("out.txt=") + expected + s(" db")}));
    }

    void goEngineSeesCustomData()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("src/out.txt"), "{{ .Data.port }}");
        const ScaffoldOutcome applied = fixture.apply(json(R"({"engine": "go", "data": {"port": 8080}})"));
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(), treeOf({s("out.txt=8080")}));
    }

    void skipEmpty_data()
    {
        QTest::addColumn<bool>("skipEmpty");
        QTest::addColumn<QStringList>("after");

        QTest::newRow("skip_empty leaves out blank files") << true << QStringList {s("full.txt=x")};
        QTest::newRow("without skip_empty blank files are written")
            << false << QStringList {s("blank.txt= \n\t\n"), s("full.txt=x")};
    }

    void skipEmpty()
    {
        QFETCH(bool, skipEmpty);
        QFETCH(QStringList, after);

        Fixture fixture;
        fixture.write(QStringLiteral("src/blank.txt"), "[[ if false ]]text[[ end ]] \n\t\n");
        fixture.write(QStringLiteral("src/full.txt"), "x");
        Json properties = Json::object();
        properties["skip_empty"] = skipEmpty;
        const ScaffoldOutcome preview = fixture.apply(properties, true);
        QCOMPARE(
            q(preview.event.noopMessage), QStringLiteral("Would have changed %1 scaffold files").arg(after.size()));
        const ScaffoldOutcome applied = fixture.apply(properties);
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(), treeOf(after));
        QVERIFY(!fixture.apply(properties).event.changed);
    }

    void partialsAreNotRendered()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("src/_partials/helper.txt"), "[[ broken");
        fixture.write(QStringLiteral("src/main.txt"), "main");
        const ScaffoldOutcome applied = fixture.apply(Json::object());
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(), treeOf({s("main.txt=main")}));
    }

    void postCommands()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("src/run.sh"), "echo [[ Data.name ]]\n");
        fixture.write(QStringLiteral("src/bin/tool.sh"), "tool\n");
        fixture.write(QStringLiteral("src/app.conf"), "conf x\n");
        const std::string log = local(fixture.path(QStringLiteral("post.log")));
        Json properties = Json::object();
        properties["post"] = Json::array({
            Json::object({{"*.sh", "/bin/sh -c 'echo \"$1\" >> " + log + "' post {}"}}),
            Json::object({{"*.sh", "/bin/chmod 0750"}}),
            Json::object({{"*.conf", "/bin/sed -i s/x/y/ {}"}}),
        });

        const Tree before = fixture.tree(QString());
        const ScaffoldOutcome preview = fixture.apply(properties, true);
        QVERIFY2(preview.result.ok(), qPrintable(preview.error()));
        QCOMPARE(q(preview.event.noopMessage), s("Would have changed 3 scaffold files"));
        QCOMPARE(fixture.tree(QStringLiteral("target")), treeOf({s("=<missing>")}));
        QVERIFY(!QFileInfo::exists(fixture.path(QStringLiteral("target"))));

        const ScaffoldOutcome applied = fixture.apply(properties);
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(),
            treeOf({s("app.conf=conf y\n"), s("bin=<dir>"), s("bin/tool.sh=tool\n"), s("run.sh=echo hiera\n")}));
        QCOMPARE(modeOf(fixture.path(QStringLiteral("target/run.sh"))), mode_t(0750));
        QCOMPARE(modeOf(fixture.path(QStringLiteral("target/bin/tool.sh"))), mode_t(0750));
        QCOMPARE(modeOf(fixture.path(QStringLiteral("target/app.conf"))), mode_t(0644));

        // A rewriting post command does not make the next run see a difference.
        const ScaffoldOutcome again = fixture.apply(properties);
        QVERIFY2(again.result.ok(), qPrintable(again.error()));
        QVERIFY(!again.event.changed);

        QFile logged(fixture.path(QStringLiteral("post.log")));
        QVERIFY(logged.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(logged.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(!lines.isEmpty());
        for (const QString &line : lines)
            QVERIFY2(line.endsWith(QLatin1String("/run.sh")) || line.endsWith(QLatin1String("/bin/tool.sh")),
                qPrintable(line));
        QVERIFY(lines.filter(QStringLiteral("app.conf")).isEmpty());
    }

    void postCommandFailure_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("error");

        QTest::newRow("non-zero exit") << "/bin/sh -c 'echo broken >&2; exit 3' post"
                                       << "post command '/bin/sh -c 'echo broken >&2; exit 3' post' for "
                                          "TARGET/run.sh exited with code 3: broken";
        QTest::newRow("not found") << "/nonexistent/tool {}"
                                   << "post command '/nonexistent/tool {}' for TARGET/run.sh could not run: ";
        QTest::newRow("bad quoting") << "/bin/echo 'open"
                                     << "invalid post command for '*.sh': ";
    }

    void postCommandFailure()
    {
        QFETCH(QString, command);
        QFETCH(QString, error);

        Fixture fixture;
        fixture.write(QStringLiteral("src/run.sh"), "run\n");
        Json properties = Json::object();
        properties["post"] = Json::array({Json::object({{"*.sh", command.toStdString()}})});
        for (const bool noop : {true, false}) {
            const ScaffoldOutcome outcome = fixture.apply(properties, noop);
            QVERIFY(!outcome.result.ok());
            QVERIFY2(outcome.error().startsWith(QString(error).replace(QStringLiteral("TARGET"), q(fixture.target()))),
                qPrintable(outcome.error()));
            QVERIFY(!QFileInfo::exists(fixture.path(QStringLiteral("target"))));
        }
    }

    void errors_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("error");

        QTest::newRow("jet syntax error names the template and line")
            << "jet"
            << "{}"
            << "cannot render template: ROOT/src/sub/bad.conf:2:";
        QTest::newRow("go syntax error names the template and line")
            << "go"
            << R"({"engine": "go"})"
            << "cannot render template: ROOT/src/sub/bad.conf:2:";
        QTest::newRow("jet evaluation error") << "jet-eval"
                                              << "{}"
                                              << "cannot render template: ROOT/src/sub/bad.conf:1:";
        QTest::newRow("source missing") << ""
                                        << R"({"source": "nope"})"
                                        << "source directory ROOT/nope does not exist";
        QTest::newRow("source is a file") << ""
                                          << R"({"source": "src/file.txt"})"
                                          << "source ROOT/src/file.txt is not a directory";
        QTest::newRow("target is a file") << "target-file"
                                          << "{}"
                                          << "target ROOT/target exists and is not a directory";
        QTest::newRow("directory in the way")
            << "dir-in-way"
            << "{}"
            << "cannot render file.txt: ROOT/target/file.txt is a directory in the target";
        QTest::newRow("symbolic link in the source")
            << "link"
            << "{}"
            << "invalid file in source: ROOT/src/link.txt is not a regular file or directory";
    }

    void errors()
    {
        QFETCH(QString, setup);
        QFETCH(QString, properties);
        QFETCH(QString, error);

        Fixture fixture;
        fixture.write(QStringLiteral("src/file.txt"), "file\n");
        if (setup == QLatin1String("jet"))
            fixture.write(QStringLiteral("src/sub/bad.conf"), "ok\n[[ if Data.a ]]never closed\n");
        else if (setup == QLatin1String("go"))
            fixture.write(QStringLiteral("src/sub/bad.conf"), "ok\n{{ .Data.a \n");
        else if (setup == QLatin1String("jet-eval"))
            fixture.write(QStringLiteral("src/sub/bad.conf"), "[[ Data.a + \"x\" * 2 ]]\n");
        else if (setup == QLatin1String("target-file"))
            fixture.write(QStringLiteral("target"), "a file\n");
        else if (setup == QLatin1String("dir-in-way"))
            fixture.write(QStringLiteral("target/file.txt/inner"), "x");
        else if (setup == QLatin1String("link"))
            QVERIFY(QFile::link(
                fixture.path(QStringLiteral("src/file.txt")), fixture.path(QStringLiteral("src/link.txt"))));

        const Tree before = fixture.tree(QString());
        for (const bool noop : {true, false}) {
            const ScaffoldOutcome outcome = fixture.apply(Json::parse(properties.toStdString()), noop);
            QVERIFY(!outcome.result.ok());
            QVERIFY2(outcome.error().startsWith(QString(error).replace(QStringLiteral("ROOT"), fixture.root())),
                qPrintable(outcome.error()));
            QVERIFY(!outcome.event.changed);
            QCOMPARE(fixture.tree(QString()), before);
        }
    }

    void invalidProperties_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("error");

        QTest::newRow("relative target") << "etc/app"
                                         << "{}"
                                         << "scaffold target name 'etc/app' must be an absolute path starting with /";
        QTest::newRow("unclean target") << "/etc/../app"
                                        << "{}"
                                        << "scaffold target name '/etc/../app' must be a clean path without '.', "
                                           "'..', '//' or a trailing /";
        QTest::newRow("root target") << "/"
                                     << "{}"
                                     << "scaffold target name '/' is not allowed";
        QTest::newRow("unknown ensure") << ""
                                        << R"({"ensure": "latest"})"
                                        << "ensure 'latest' is not one of present, absent";
        QTest::newRow("empty source") << ""
                                      << R"({"source": ""})"
                                      << "source is required";
        QTest::newRow("URL source") << ""
                                    << R"({"source": "https://example.com/t.tgz"})"
                                    << "source 'https://example.com/t.tgz' is a URL; only a local template "
                                       "directory can be rendered";
        QTest::newRow("unknown engine") << ""
                                        << R"({"engine": "mustache"})"
                                        << "engine 'mustache' is not one of go, jet";
        QTest::newRow("one delimiter") << ""
                                       << R"({"left_delimiter": "<<"})"
                                       << "left_delimiter and right_delimiter are set together";
        QTest::newRow("empty delimiter") << ""
                                         << R"({"left_delimiter": "", "right_delimiter": ">>"})"
                                         << "left_delimiter must not be empty";
        QTest::newRow("purge not a bool") << ""
                                          << R"({"purge": "yes"})"
                                          << "purge must be true or false, not a string";
        QTest::newRow("empty post command") << ""
                                            << R"({"post": [{"*.sh": " "}]})"
                                            << "post command for '*.sh' must not be empty";
        QTest::newRow("empty post pattern") << ""
                                            << R"({"post": [{"": "chmod +x"}]})"
                                            << "post entry needs a non-empty file pattern";
        QTest::newRow("post entry with two patterns")
            << ""
            << R"({"post": [{"a": "x", "b": "y"}]})"
            << "post entry 1 must be a map with exactly one pattern and its command";
        QTest::newRow("data not a map") << ""
                                        << R"({"data": [1]})"
                                        << "data must be a map, not a list";
    }

    void invalidProperties()
    {
        QFETCH(QString, name);
        QFETCH(QString, properties);
        QFETCH(QString, error);

        Fixture fixture;
        fixture.write(QStringLiteral("src/file.txt"), "file\n");
        fixture.name = name.toStdString();
        const Tree before = fixture.tree(QString());
        const ScaffoldOutcome outcome = fixture.apply(Json::parse(properties.toStdString()));
        QVERIFY(!outcome.result.ok());
        QVERIFY2(outcome.error().startsWith(error), qPrintable(outcome.error()));
        QCOMPARE(fixture.tree(QString()), before);
    }

    void absentKeepsUnmanagedFiles()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("src/a.conf"), "a\n");
        fixture.write(QStringLiteral("src/keep/b.conf"), "b\n");
        fixture.write(QStringLiteral("src/gone/deep/c.conf"), "c\n");
        fixture.write(QStringLiteral("src/notthere/d.conf"), "d\n");
        fixture.write(QStringLiteral("target/a.conf"), "a changed locally\n");
        fixture.write(QStringLiteral("target/keep/b.conf"), "b\n");
        fixture.write(QStringLiteral("target/keep/mine.txt"), "mine\n");
        fixture.write(QStringLiteral("target/gone/deep/c.conf"), "c\n");
        QDir(fixture.root()).mkpath(QStringLiteral("target/empty-unmanaged"));

        const ScaffoldOutcome preview = fixture.apply(json(R"({"ensure": "absent"})"), true);
        QCOMPARE(q(preview.event.noopMessage), s("Would have removed 3 scaffold files"));
        const QString target = q(fixture.target());
        QCOMPARE(preview.list("changed"), QStringList {target + s("/a.conf")});
        QCOMPARE(preview.list("stable"), (QStringList {target + s("/gone/deep/c.conf"), target + s("/keep/b.conf")}));

        QCOMPARE(fixture.takeLog(), QStringList {s("Would have removed 3 scaffold files")});
        const ScaffoldOutcome applied = fixture.apply(json(R"({"ensure": "absent"})"));
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QVERIFY(applied.event.changed);
        QCOMPARE(fixture.takeLog(),
            (QStringList {s("removed ") + target + s("/a.conf"), s("removed ") + target + s("/gone/deep/c.conf"),
                s("removed ") + target + s("/keep/b.conf")}));
        QCOMPARE(fixture.tree(), treeOf({s("empty-unmanaged=<dir>"), s("keep=<dir>"), s("keep/mine.txt=mine\n")}));
        QCOMPARE(q(applied.event.finalEnsure), s("present"));
        QCOMPARE(fixture.tree(QStringLiteral("src")).size(), 8);
        QVERIFY(!fixture.apply(json(R"({"ensure": "absent"})")).event.changed);
    }

    void relativeAndAbsoluteSource()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("templates/x.txt"), "x");
        const ScaffoldOutcome relative = fixture.apply(json(R"({"source": "templates"})"));
        QVERIFY2(relative.result.ok(), qPrintable(relative.error()));
        QCOMPARE(fixture.tree(), treeOf({s("x.txt=x")}));
        Json properties = Json::object();
        properties["source"] = local(fixture.path(QStringLiteral("templates")));
        const ScaffoldOutcome absolute = fixture.apply(properties);
        QVERIFY2(absolute.result.ok(), qPrintable(absolute.error()));
        QVERIFY(!absolute.event.changed);
    }

    void targetInsideSource()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("src/a.txt"), "a");
        fixture.name = local(fixture.path(QStringLiteral("src/out")));
        QVERIFY(fixture.apply(Json::object()).event.changed);
        const ScaffoldOutcome again = fixture.apply(json(R"({"purge": true})"));
        QVERIFY2(again.result.ok(), qPrintable(again.error()));
        QVERIFY(!again.event.changed);
        QCOMPARE(fixture.tree(QStringLiteral("src")), treeOf({s("a.txt=a"), s("out=<dir>"), s("out/a.txt=a")}));
    }

    void sourceInsideTargetIsNotPurged()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("target/templates/a.txt"), "a");
        const ScaffoldOutcome applied = fixture.apply(json(R"({"source": "target/templates/", "purge": true})"));
        QVERIFY2(applied.result.ok(), qPrintable(applied.error()));
        QCOMPARE(fixture.tree(), treeOf({s("a.txt=a"), s("templates=<dir>"), s("templates/a.txt=a")}));
        QCOMPARE(applied.list("purged"), QStringList {});
    }

    void desiredStateNotAchieved()
    {
        Fixture fixture;
        writeTemplates(fixture);
        IneffectiveScaffoldProvider provider(fixture.runner());
        const ScaffoldOutcome outcome = fixture.apply(Json::object(), false, &provider);
        QCOMPARE(outcome.error(),
            s("desired state not achieved: target directory ") + q(fixture.target()) + s(" does not exist"));
        QDir(fixture.root()).mkpath(QStringLiteral("target"));
        const ScaffoldOutcome second = fixture.apply(Json::object(), false, &provider);
        const QString target = q(fixture.target());
        QCOMPARE(second.error(),
            s("desired state not achieved: 2 files still differ: ") + target + s("/a.conf, ") + target
                + s("/sub/b.txt"));
        QVERIFY(second.event.changed);
    }

    void manifestDataAndTemplatedDataInARun()
    {
        Fixture fixture;
        fixture.write(QStringLiteral("src/out.txt"), "[[ Data.name ]] [[ Data.port + 1 ]]");
        const QString manifest = s("data:\n  name: hiera\n  port: 1\n"
                                   "ccm:\n  resources:\n    - scaffold:\n"
                                   "        - TARGET/one:\n            ensure: present\n            source: src\n"
                                   "        - TARGET/two:\n            ensure: present\n            source: src\n"
                                   "            data:\n              name: \"{{ Facts.role }}\"\n"
                                   "              port: \"{{ 41 }}\"\n");
        fixture.write(QStringLiteral("manifest.yaml"),
            QString(manifest).replace(QStringLiteral("TARGET"), q(fixture.target())).toUtf8());
        ResolveOptions inputs;
        inputs.facts = fixture.facts;
        const PreparedManifest prepared
            = prepareManifestFile(local(fixture.path(QStringLiteral("manifest.yaml"))), inputs);
        QVERIFY2(prepared.ok(), prepared.diagnosticText().c_str());
        inputs.baseDirectory = local(fixture.root());
        ProcessRunner runner;
        EventRecorder recorder;
        const RunResult result = runManifest(prepared.resolved, inputs, RunOptions {}, runner, recorder);
        QCOMPARE(result.summary.failed, std::size_t(0));
        QCOMPARE(recorder.events.size(), std::size_t(2));
        QVERIFY(recorder.events[0].changed);
        QCOMPARE(
            fixture.tree(), treeOf({s("one=<dir>"), s("one/out.txt=hiera 2"), s("two=<dir>"), s("two/out.txt=db 42")}));
    }

    void registered()
    {
        const Catalog &catalog = standardCatalog();
        QVERIFY(catalog.type("scaffold"));
        auto selected = catalog.providers().select("scaffold", json(R"({"ensure": "present", "source": "t"})"), LazyFacts());
        QVERIFY(selected.ok());
        QCOMPARE(q(std::string(selected.value()->name())), s("choria"));
    }
};

CCM_TEST_GUILESS_MAIN(TestScaffoldType)
#include "tst_scaffold_type.moc"
