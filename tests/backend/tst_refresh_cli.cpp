// SPDX-License-Identifier: Apache-2.0
// A refresh says what caused it: `ccm-backend apply` (noop and real, lines and --json events) on
// real manifests in temporary directories. The events stay valid for protocol.json and, without this
// project's keys, for upstream's transactionEvent.
#include "backend_process.h"
#include "protocol_schema.h"
#include "test_main.h"

#include <QFile>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

/// The report line of `resource` in the output of a run, without its level word.
QString lineOf(const QString &out, const QString &resource)
{
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        const QString text = line.section(QLatin1Char(' '), 1).trimmed();
        if (text.startsWith(resource + QLatin1Char(' ')))
            return text;
    }
    return {};
}

/// The event of `resource` among the JSON lines of a run; null when there is none.
Json eventOf(const QString &out, const QString &resource)
{
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        Json json = Json::parse(line.toStdString(), nullptr, false);
        if (json.is_object() && json.value("resource", "") == resource.toStdString())
            return json;
    }
    return nullptr;
}

QString text(const Json &json, const char *key)
{
    return QString::fromStdString(json.value(key, std::string()));
}

QString upstreamSchemaPath()
{
    return s(CCM_SHARED_DIR "/reference/ccm-v1/resource_ensure_response.json");
}

} // namespace

class TestRefreshCli : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const char *name) const { return m_dir->filePath(s(name)); }

    /// Writes the manifest with DIR replaced by the test's directory, USER and GROUP by the user and
    /// group running the test.
    QString manifest(const char *body, const char *name = "manifest.yaml")
    {
        QString content = s(body);
        content.replace(s("DIR"), m_dir->path());
        content.replace(s("USER"), currentUserName());
        content.replace(s("GROUP"), currentGroupName());
        return writeFile(*m_dir, s(name), content.toUtf8());
    }

    BackendRun apply(const QStringList &arguments)
    {
        return runBackend(QStringList {s("apply")} + arguments, m_dir->path(), isolatedEnvironment(*m_dir));
    }

    /// Two files that would change, one that stays, and a reload that subscribes to all three.
    QString nginxManifest()
    {
        const QString types = writeFile(*m_dir, s("mime.types"), "text/html html\n");
        QFile::setPermissions(types, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        return manifest(R"(ccm:
  resources:
    - file:
        - DIR/nginx.conf:
            ensure: present
            content: "worker_processes 2;\n"
            owner: USER
            group: GROUP
            mode: "0644"
        - DIR/site.conf:
            ensure: present
            content: "listen 80;\n"
            owner: USER
            group: GROUP
            mode: "0644"
            alias: site
        - DIR/mime.types:
            ensure: present
            content: "text/html html\n"
            owner: USER
            group: GROUP
            mode: "0644"
    - exec:
        - reload:
            command: /bin/sh -c 'echo reloaded >> DIR/reloads'
            refreshonly: true
            subscribe: [file#DIR/nginx.conf, file#DIR/mime.types, file#site]
        - quiet:
            command: /bin/sh -c 'echo quiet >> DIR/quiet'
            refreshonly: true
            subscribe: [file#DIR/mime.types]
)");
    }

    void checkAgainstSchemas(const Json &event)
    {
        const QStringList problems = protocolProblems(s("transactionEvent"), event);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        const QString upstream = upstreamSchemaPath();
        if (!QFile::exists(upstream))
            QSKIP(qPrintable(s("upstream's reference schema %1 is missing; to compare with it, configure with "
                               "-DCCM_SHARED_DIR=DIR where DIR has reference/ccm-v1/")
                                 .arg(upstream)));
        QFile file(upstream);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const nlohmann::json response = nlohmann::json::parse(file.readAll().toStdString());
        const nlohmann::json schema
            = {{"$defs", response["$defs"]}, {"allOf", {{{"$ref", "#/$defs/transactionEvent"}}}}};
        const auto compiled = compileSchema(schema, {});
        QVERIFY(compiled);
        // Without the keys this project adds, the event is one of upstream's.
        nlohmann::json plain = nlohmann::json::parse(event.dump());
        for (const char *key : {"diff", "refreshed_by", "resource"})
            plain.erase(key);
        const QStringList upstreamProblems = schemaProblems(*compiled, plain);
        QVERIFY2(upstreamProblems.isEmpty(), qPrintable(upstreamProblems.join(QLatin1Char('\n'))));
    }

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void noopNamesTheSubscriptionsThatWouldFire()
    {
        const QString file = nginxManifest();
        const BackendRun noop = apply({file, s("--noop")});
        QCOMPARE(noop.exitCode, 0);
        const QString dir = m_dir->path();
        // Both files that would change are named, nginx.conf by path and site.conf by its alias as
        // subscribe lists them; mime.types, which stays, is not.
        const QString line = lineOf(noop.out, s("exec#reload"));
        QVERIFY2(line.startsWith(s("exec#reload refreshed ensure=present runtime=")), qPrintable(noop.out));
        QVERIFY2(line.endsWith(s(" provider=posix noop=\"would refresh: subscribed to file#%1/nginx.conf and "
                                 "file#site, which would change\"")
                                   .arg(dir)),
            qPrintable(line));
        QCOMPARE(lineOf(noop.out, s("exec#quiet")).section(QLatin1Char(' '), 0, 1), s("exec#quiet stable"));
        QVERIFY(!QFile::exists(path("reloads")));

        const BackendRun json = apply({file, s("--noop"), s("--json")});
        QCOMPARE(json.exitCode, 0);
        const Json reload = eventOf(json.out, s("exec#reload"));
        QVERIFY2(reload.is_object(), qPrintable(json.out));
        QCOMPARE(text(reload, "noop_message"),
            s("would refresh: subscribed to file#%1/nginx.conf and file#site, which would change").arg(dir));
        QCOMPARE(
            QString::fromStdString(reload["refreshed_by"].dump()), s(R"(["file#%1/nginx.conf","file#site"])").arg(dir));
        QVERIFY(reload.value("refreshed", false));
        checkAgainstSchemas(reload);
        const Json quiet = eventOf(json.out, s("exec#quiet"));
        QVERIFY(quiet.is_object());
        QVERIFY(!quiet.contains("refreshed_by"));
        checkAgainstSchemas(quiet);
    }

    void aRealRunSaysWhatChanged()
    {
        const QString file = nginxManifest();
        const BackendRun real = apply({file});
        QCOMPARE(real.exitCode, 0);
        const QString dir = m_dir->path();
        const QString line = lineOf(real.out, s("exec#reload"));
        QVERIFY2(line.startsWith(s("exec#reload refreshed ensure=present runtime=")), qPrintable(real.out));
        QVERIFY2(line.endsWith(
                     s(" provider=posix message=\"refreshed: subscribed to file#%1/nginx.conf and file#site, which "
                       "changed\"")
                         .arg(dir)),
            qPrintable(line));
        QVERIFY(!line.contains(s("noop=")));
        QCOMPARE(lineOf(real.out, s("exec#quiet")).section(QLatin1Char(' '), 0, 1), s("exec#quiet stable"));
        QFile reloads(path("reloads"));
        QVERIFY(reloads.open(QIODevice::ReadOnly));
        QCOMPARE(reloads.readAll(), QByteArray("reloaded\n"));
        QVERIFY(!QFile::exists(path("quiet")));

        // Once the files are as declared nothing fires, and nothing is named.
        const BackendRun again = apply({file, s("--json")});
        QCOMPARE(again.exitCode, 0);
        const Json stable = eventOf(again.out, s("exec#reload"));
        QVERIFY(stable.is_object());
        QVERIFY(!stable.value("refreshed", true));
        QVERIFY(!stable.contains("refreshed_by"));

        // A real refresh in --json: no noop message, the cause in refreshed_by.
        QVERIFY(QFile::remove(path("nginx.conf")));
        const BackendRun json = apply({file, s("--json")});
        QCOMPARE(json.exitCode, 0);
        const Json reload = eventOf(json.out, s("exec#reload"));
        QVERIFY(reload.is_object());
        QVERIFY(!reload.contains("noop_message"));
        QCOMPARE(QString::fromStdString(reload["refreshed_by"].dump()), s(R"(["file#%1/nginx.conf"])").arg(dir));
        checkAgainstSchemas(reload);
    }

    void aNoopChildSaysARealChangeWouldRefreshIt()
    {
        // A child applied with noop: true inside a real run: its subscriber would refresh because of
        // a change that really happened in the parent.
        manifest(R"(ccm:
  resources:
    - exec:
        - restart-app:
            command: /bin/sh -c 'echo restarted >> DIR/restarts'
            refreshonly: true
            subscribe: [file#DIR/app.conf]
)",
            "child.yaml");
        const QString file = manifest(R"(ccm:
  resources:
    - file:
        - DIR/app.conf:
            ensure: present
            content: "port = 8080\n"
            owner: USER
            group: GROUP
            mode: "0644"
    - apply:
        - child.yaml:
            noop: true
)");
        const BackendRun real = apply({file, s("--json")});
        QCOMPARE(real.exitCode, 0);
        const Json restart = eventOf(real.out, s("exec#restart-app"));
        QVERIFY2(restart.is_object(), qPrintable(real.out + real.err));
        QVERIFY(restart.value("noop", false));
        QCOMPARE(text(restart, "noop_message"),
            s("would refresh: subscribed to file#%1/app.conf, which changed").arg(m_dir->path()));
        QVERIFY(!QFile::exists(path("restarts")));
    }
};

CCM_TEST_GUILESS_MAIN(TestRefreshCli)
#include "tst_refresh_cli.moc"
