// SPDX-License-Identifier: Apache-2.0
// One valid and one invalid case for every validation rule of the resource types.
#include "core/model/validator.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestValidator : public QObject
{
    Q_OBJECT

private:
    void addRow(const char *name, const char *type, const char *resource, const char *props, const char *expect = "",
                const char *pointerSuffix = "", const char *severity = "error")
    {
        QTest::newRow(name) << QString::fromUtf8(type) << QString::fromUtf8(resource) << QString::fromUtf8(props)
                            << QString::fromUtf8(expect) << QString::fromUtf8(pointerSuffix)
                            << QString::fromUtf8(severity);
    }

private Q_SLOTS:
    void resourceRules_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("resource");
        QTest::addColumn<QString>("props");
        QTest::addColumn<QString>("expect"); // empty: the manifest is clean
        QTest::addColumn<QString>("pointerSuffix");
        QTest::addColumn<QString>("severity");

        // file: modes
        addRow("file mode 0644", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"0644\"}");
        addRow("file mode 644", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"644\"}");
        addRow("file mode 0o755", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"0o755\"}");
        addRow("file mode 0O700", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"0O700\"}");
        addRow("file mode 0888", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"0888\"}",
               "not a digit from 0 to 7", "/mode");
        addRow("file mode 4755", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"4755\"}",
               "above 0777", "/mode");
        addRow("file mode unquoted", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: 0644}",
               "quoted string", "/mode");
        addRow("file mode letters", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"rw-r--r--\"}",
               "not octal", "/mode");
        // file: paths
        addRow("file relative path", "file", "etc/motd", "{ensure: present, owner: root, group: root, mode: \"0644\"}",
               "absolute path", "/etc~1motd");
        addRow("file dot-dot path", "file", "/etc/../motd", "{ensure: present, owner: root, group: root, mode: \"0644\"}",
               "clean path");
        addRow("file double slash", "file", "/etc//motd", "{ensure: present, owner: root, group: root, mode: \"0644\"}",
               "clean path");
        addRow("file trailing slash", "file", "/etc/app/", "{ensure: directory, owner: root, group: root, mode: \"0755\"}",
               "clean path");
        addRow("file templated path", "file", "/etc/{{ lookup('data.x') }}",
               "{ensure: present, owner: root, group: root, mode: \"0644\"}");
        // file: content and source
        addRow("file content only", "file", "/etc/motd",
               "{ensure: present, owner: root, group: root, mode: \"0644\", content: hello}");
        addRow("file content and source", "file", "/etc/motd",
               "{ensure: present, owner: root, group: root, mode: \"0644\", content: hello, source: files/motd}",
               "mutually exclusive", "/source");
        // file: force
        addRow("file force absent", "file", "/var/lib/app", "{ensure: absent, force: true}");
        addRow("file force present", "file", "/var/lib/app",
               "{ensure: directory, owner: root, group: root, mode: \"0755\", force: true}", "only valid with ensure: absent",
               "/force");
        addRow("file force root", "file", "/", "{ensure: absent, force: true}", "cannot be used to remove /", "/force");
        // file: required attributes
        addRow("file absent without attributes", "file", "/tmp/lock", "{ensure: absent}");
        addRow("file present without owner", "file", "/etc/motd", "{ensure: present, group: root, mode: \"0644\"}",
               "owner is required unless ensure is absent");
        addRow("file directory without mode", "file", "/srv", "{ensure: directory, owner: root, group: root}",
               "mode is required unless ensure is absent");
        addRow("file without ensure", "file", "/etc/motd", "{owner: root, group: root, mode: \"0644\"}",
               "ensure is required");
        addRow("file bad ensure", "file", "/etc/motd", "{ensure: link, owner: root, group: root, mode: \"0644\"}",
               "expected one of present, absent, directory", "/ensure");
        addRow("file numeric owner", "file", "/etc/motd", "{ensure: present, owner: \"0\", group: \"0\", mode: \"0644\"}");
        addRow("file unquoted numeric owner", "file", "/etc/motd", "{ensure: present, owner: 0, group: root, mode: \"0644\"}",
               "write it in quotes", "/owner");

        // exec
        addRow("exec balanced quotes", "exec", "echo 'hello world'", "{}");
        addRow("exec unbalanced name", "exec", "echo 'hello", "{}", "unterminated single quote");
        addRow("exec unbalanced command", "exec", "greet", "{command: \"echo \\\"hi\"}", "unterminated double quote",
               "/command");
        addRow("exec timeout", "exec", "sleep 1", "{timeout: 1m30s}");
        addRow("exec timeout days", "exec", "sleep 1", "{timeout: 2d}");
        addRow("exec bad timeout", "exec", "sleep 1", "{timeout: 5 minutes}", "not a duration", "/timeout");
        addRow("exec path", "exec", "make", "{path: \"/usr/local/bin:/usr/bin:/bin\"}");
        addRow("exec relative path", "exec", "make", "{path: \"/usr/bin:bin\"}", "must be an absolute directory", "/path");
        addRow("exec environment", "exec", "make", "{environment: [CC=gcc, \"CFLAGS=-O2 -g\"]}");
        addRow("exec environment no value", "exec", "make", "{environment: [CC=]}", "non-empty key and value",
               "/environment/0");
        addRow("exec environment no key", "exec", "make", "{environment: [CC=gcc, =gcc]}", "non-empty key and value",
               "/environment/1");
        addRow("exec environment no equals", "exec", "make", "{environment: [CC]}", "non-empty key and value",
               "/environment/0");
        addRow("exec environment bad name", "exec", "make", "{environment: [1CC=gcc]}", "variable name",
               "/environment/0");
        addRow("exec returns", "exec", "make", "{returns: [0, 2]}");
        addRow("exec returns out of range", "exec", "make", "{returns: [0, 256]}", "outside 0 to 255", "/returns/1");
        addRow("exec refreshonly with subscribe", "exec", "systemctl daemon-reload",
            "{refreshonly: true, subscribe: [\"exec#make\"]}", "which no resource of this manifest declares",
            "/subscribe/0");
        addRow("exec refreshonly without subscribe", "exec", "make", "{refreshonly: true}", "never runs", "/refreshonly",
               "warning");
        addRow("exec refresh_only alias", "exec", "make", "{refresh_only: false}", "write refreshonly", "/refresh_only",
               "warning");
        addRow("exec refresh_only and refreshonly", "exec", "make", "{refresh_only: false, refreshonly: false}",
               "same setting", "/refresh_only");
        addRow("exec subscribe form", "exec", "make", "{subscribe: [make-config]}", "must be written type#name",
               "/subscribe/0");
        addRow("exec guard", "exec", "make", "{onlyif: \"test -f /etc/x\", unless: \"test -f /etc/y\"}");
        addRow("exec bad guard", "exec", "make", "{onlyif: \"test -f 'x\"}", "unterminated single quote", "/onlyif");
        addRow("exec bad ensure", "exec", "make", "{ensure: running}", "expected one of present, absent", "/ensure");

        // package
        addRow("package name plain", "package", "nginx", "{ensure: present}");
        addRow("package name rich", "package", "libstdc++6:amd64", "{ensure: latest}");
        addRow("package name semicolon", "package", "vim;reboot", "{ensure: present}", "contains ';'");
        addRow("package name space", "package", "vim reboot", "{ensure: present}", "contains a space");
        addRow("package name slash", "package", "../vim", "{ensure: present}", "contains '/'");
        addRow("package version", "package", "nginx", "{ensure: \"1:1.22.1-9+deb12u1~bpo\"}");
        addRow("package bad version", "package", "nginx", "{ensure: \"1.0 && reboot\"}", "version '1.0 && reboot' contains",
               "/ensure");
        addRow("package missing ensure", "package", "nginx", "{}", "ensure is required");
        addRow("package subscribe not allowed", "package", "nginx", "{ensure: present, subscribe: [\"file#/x\"]}",
               "unknown package property 'subscribe'", "/subscribe");

        // service
        addRow("service name", "service", "nginx.service", "{ensure: running, enable: true}");
        addRow("service name at", "service", "app@instance", "{}", "contains '@'");
        addRow("service default ensure", "service", "cron", "{enable: false}");
        addRow("service bad ensure", "service", "cron", "{ensure: restarted}", "expected one of running, stopped", "/ensure");
        addRow("service enable string", "service", "cron", "{enable: \"yes\"}", "'enable' must be true or false", "/enable");

        // archive
        const char *archiveOk = "{ensure: present, url: \"https://example.com/app-1.2.tar.gz\", owner: root, group: root}";
        addRow("archive https", "archive", "/opt/app.tar.gz", archiveOk);
        addRow("archive http zip", "archive", "/opt/app.zip",
               "{ensure: present, url: \"http://example.com/dl/app.zip?x=1\", owner: root, group: root}");
        addRow("archive ftp", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"ftp://example.com/app.tar.gz\", owner: root, group: root}", "use http or https",
               "/url");
        addRow("archive not a url", "archive", "/opt/app.tar.gz", "{ensure: present, url: app.tar.gz, owner: root, group: root}",
               "is not a URL", "/url");
        addRow("archive no host", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https:///app.tar.gz\", owner: root, group: root}", "has no host", "/url");
        addRow("archive url not an archive", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://example.com/app.rpm\", owner: root, group: root}",
               "must end in .tar.gz, .tgz, .tar or .zip", "/url");
        addRow("archive extension mismatch", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://example.com/app.zip\", owner: root, group: root}",
               "same kind of archive", "/url");
        addRow("archive name extension", "archive", "/opt/app.bin", archiveOk, "must end in .tar.gz");
        addRow("archive relative name", "archive", "opt/app.tar.gz", archiveOk, "absolute path");
        addRow("archive missing url", "archive", "/opt/app.tar.gz", "{ensure: present, owner: root, group: root}",
               "url is required");
        addRow("archive missing owner", "archive", "/opt/app.tar.gz", "{ensure: present, url: \"https://e.com/a.tar.gz\", group: root}",
               "owner is required");
        addRow("archive absent", "archive", "/opt/app.tar.gz", "{ensure: absent}");
        addRow("archive cleanup", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, extract_parent: /opt/app, "
               "creates: /opt/app/bin/app, cleanup: true}");
        addRow("archive cleanup without extract_parent", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, creates: /opt/app/bin/app, "
               "cleanup: true}",
               "cleanup needs extract_parent", "/cleanup");
        addRow("archive cleanup without creates", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, extract_parent: /opt/app, "
               "cleanup: true}",
               "cleanup needs creates", "/cleanup");
        addRow("archive relative extract_parent", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, extract_parent: opt/app}",
               "must be an absolute path", "/extract_parent");
        addRow("archive checksum", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, checksum: "
               "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855}");
        addRow("archive short checksum", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, checksum: a1b2c3}",
               "64 hexadecimal characters", "/checksum");
        addRow("archive username without password", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, username: deploy}",
               "used together", "/username");
        addRow("archive header line break", "archive", "/opt/app.tar.gz",
               "{ensure: present, url: \"https://e.com/a.tar.gz\", owner: root, group: root, headers: {X-Token: \"a\\nb\"}}",
               "line breaks", "/headers/X-Token");

        // scaffold
        addRow("scaffold jet", "scaffold", "/etc/app", "{ensure: present, source: templates/app}");
        addRow("scaffold go delimiters", "scaffold", "/etc/app",
               "{ensure: present, source: templates/app, engine: go, left_delimiter: \"<<\", right_delimiter: \">>\"}");
        addRow("scaffold bad engine", "scaffold", "/etc/app", "{ensure: present, source: t, engine: mustache}",
               "expected one of go, jet", "/engine");
        addRow("scaffold missing source", "scaffold", "/etc/app", "{ensure: present}", "source is required");
        addRow("scaffold relative target", "scaffold", "etc/app", "{ensure: present, source: t}", "absolute path");
        addRow("scaffold one delimiter", "scaffold", "/etc/app", "{ensure: present, source: t, left_delimiter: \"<<\"}",
               "set together", "/left_delimiter");
        addRow("scaffold post", "scaffold", "/etc/app", "{ensure: present, source: t, post: [{\"*.sh\": \"chmod +x {}\"}]}");
        addRow("scaffold empty post command", "scaffold", "/etc/app", "{ensure: present, source: t, post: [{\"*.sh\": \"\"}]}",
               "must not be empty", "/post/0/*.sh");
        addRow("scaffold post two keys", "scaffold", "/etc/app",
               "{ensure: present, source: t, post: [{\"*.sh\": a, \"*.py\": b}]}", "exactly one key", "/post/0");

        // apply
        addRow("apply present", "apply", "parts/base.yaml", "{noop: true, data: {port: 80}}");
        addRow("apply absent", "apply", "parts/base.yaml", "{ensure: absent}", "expected one of present", "/ensure");
        addRow("apply noop string", "apply", "parts/base.yaml", "{noop: maybe}", "must be true or false", "/noop");

        // common properties
        addRow("require", "package", "nginx", "{ensure: present, require: [\"package#nginx-common\"]}",
            "which no resource of this manifest declares", "/require/0");
        addRow("require bad form", "package", "nginx", "{ensure: present, require: [nginx-common]}",
               "must be written type#name", "/require/0");
        addRow("require unknown type", "package", "nginx", "{ensure: present, require: [\"pkg#nginx-common\"]}",
               "names the unknown type 'pkg'", "/require/0");
        addRow("require type typo", "package", "nginx", "{ensure: present, require: [\"pakcage#nginx-common\"]}",
               "unknown type 'pakcage'; did you mean 'package'?", "/require/0");
        addRow("require self", "package", "nginx", "{ensure: present, require: [\"package#nginx\"]}",
               "refers to the resource itself", "/require/0");
        addRow("control", "package", "nginx", "{ensure: present, control: {if: \"Facts.host.info.os == 'linux'\"}}");
        addRow("control empty", "package", "nginx", "{ensure: present, control: {if: \" \"}}", "empty expression",
               "/control/if");
        addRow("control templated", "package", "nginx", "{ensure: present, control: {unless: \"{{ Facts.x }}\"}}",
               "raw expression", "/control/unless");
        addRow("control syntax error", "package", "nginx", "{ensure: present, control: {if: \"(Facts.a == 1\"}}",
               "expected ')' at column 14", "/control/if");
        addRow("control unknown key", "package", "nginx", "{ensure: present, control: {when: \"true\"}}",
               "unknown property 'when'", "/control/when");
        addRow("health check", "service", "nginx",
               "{health_checks: [{command: \"/usr/lib/nagios/plugins/check_http -H localhost\", tries: 3, try_sleep: 2s}]}");
        addRow("health check goss", "service", "nginx", "{health_checks: [{goss_rules: {port: {\"tcp:80\": {listening: true}}}}]}");
        addRow("health check empty", "service", "nginx", "{health_checks: [{name: web}]}", "needs a command",
               "/health_checks/0");
        addRow("health check both", "service", "nginx", "{health_checks: [{command: check, goss_rules: {}}]}",
               "not both", "/health_checks/0");
        addRow("health check format mismatch", "service", "nginx", "{health_checks: [{command: check, format: goss}]}",
               "does not match", "/health_checks/0/format");
        addRow("health check bad timeout", "service", "nginx", "{health_checks: [{command: check, timeout: soon}]}",
               "not a duration", "/health_checks/0/timeout");
        addRow("health check zero tries", "service", "nginx", "{health_checks: [{command: check, tries: 0}]}",
               "must be at least 1", "/health_checks/0/tries");
        addRow("registration", "service", "nginx",
               "{register_when_stable: [{cluster: dc1, service: web, protocol: http, address: 192.168.1.10, port: 80, "
               "priority: 10}]}");
        addRow("registration bad address", "service", "nginx",
               "{register_when_stable: [{cluster: dc1, service: web, protocol: http, address: 300.1.1.1, port: 80, "
               "priority: 10}]}",
               "must be an IPv4 address", "/register_when_stable/0/address");
        addRow("registration bad priority", "service", "nginx",
               "{register_when_stable: [{cluster: dc1, service: web, protocol: http, address: 10.0.0.1, port: 80, "
               "priority: 300}]}",
               "at most 255", "/register_when_stable/0/priority");
        addRow("registration missing cluster", "service", "nginx",
               "{register_when_stable: [{service: web, protocol: http, address: 10.0.0.1, port: 80, priority: 1}]}",
               "required property 'cluster'", "/register_when_stable/0");
        addRow("provider", "exec", "make", "{provider: shell}");
        addRow("provider unknown", "exec", "make", "{provider: bash}", "unknown exec provider 'bash'; available: posix, shell",
               "/provider");
        addRow("unknown property", "file", "/etc/motd", "{ensure: present, owner: root, group: root, mode: \"0644\", contents: x}",
               "unknown file property 'contents'; did you mean 'content'?", "/contents");
        addRow("alias empty", "package", "nginx", "{ensure: present, alias: \"\"}", "alias must not be empty", "/alias");
    }

    void resourceRules()
    {
        QFETCH(QString, type);
        QFETCH(QString, resource);
        QFETCH(QString, props);
        QFETCH(QString, expect);
        QFETCH(QString, pointerSuffix);
        QFETCH(QString, severity);

        const Diagnostics diagnostics = validateManifestText(manifestWith(type, resource, props));
        if (expect.isEmpty()) {
            QVERIFY2(diagnostics.empty(), qPrintable(describe(diagnostics)));
            return;
        }
        const auto match = std::find_if(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic &d) {
            return q(d.message).contains(expect);
        });
        QVERIFY2(match != diagnostics.end(), qPrintable(QStringLiteral("expected '%1' in:\n%2").arg(expect, describe(diagnostics))));
        QCOMPARE(q(std::string(severityName(match->severity))), severity);
        QVERIFY2(match->position.line >= 4, qPrintable(describe(diagnostics)));
        QVERIFY2(q(match->path).endsWith(pointerSuffix), qPrintable(q(match->path)));
        QVERIFY2(q(match->message).startsWith(type + QLatin1Char('#')), qPrintable(q(match->message)));
    }

    void positionOfPropertyValue()
    {
        const std::string text = "ccm:\n"
                                 "  resources:\n"
                                 "    - file:\n"
                                 "        - /etc/motd:\n"
                                 "            ensure: present\n"
                                 "            owner: root\n"
                                 "            group: root\n"
                                 "            mode: \"0999\"\n";
        const Diagnostics diagnostics = validateManifestText(text);
        QCOMPARE(diagnostics.size(), std::size_t(1));
        QCOMPARE(diagnostics[0].position.line, 8);
        QCOMPARE(diagnostics[0].position.column, 19);
        QCOMPARE(q(diagnostics[0].path), QStringLiteral("/ccm/resources/0/file/0/~1etc~1motd/mode"));
    }

    void inheritedPropertyIsReportedAtDefaults()
    {
        const std::string text = "ccm:\n"
                                 "  resources:\n"
                                 "    - file:\n"
                                 "        - defaults:\n"
                                 "            mode: \"0999\"\n"
                                 "            owner: root\n"
                                 "            group: root\n"
                                 "        - /etc/a:\n"
                                 "            ensure: present\n"
                                 "        - /etc/b:\n"
                                 "            ensure: present\n"
                                 "            mode: \"0600\"\n";
        const Diagnostics diagnostics = validateManifestText(text);
        QCOMPARE(diagnostics.size(), std::size_t(1));
        QCOMPARE(diagnostics[0].position.line, 5);
        QVERIFY(q(diagnostics[0].message).startsWith(QStringLiteral("file#/etc/a: mode '0999'")));
    }

    void singleFormNameErrorsPointAtName()
    {
        const std::string text = "ccm:\n"
                                 "  resources:\n"
                                 "    - package:\n"
                                 "        ensure: present\n"
                                 "        name: \"vim|x\"\n";
        const Diagnostics diagnostics = validateManifestText(text);
        QCOMPARE(diagnostics.size(), std::size_t(1));
        QCOMPARE(diagnostics[0].position.line, 5);
        QCOMPARE(diagnostics[0].position.column, 15);
    }

    void duplicates()
    {
        const std::string text = "ccm:\n"
                                 "  resources:\n"
                                 "    - package:\n"
                                 "        - nginx: {ensure: present}\n"
                                 "        - web: {ensure: present, alias: nginx}\n"
                                 "        - nginx: {ensure: latest}\n";
        const Diagnostics diagnostics = validateManifestText(text);
        QCOMPARE(diagnostics.size(), std::size_t(2));
        QCOMPARE(diagnostics[0].severity, Severity::Warning);
        QCOMPARE(diagnostics[0].position.line, 5);
        QVERIFY(q(diagnostics[0].message).contains(QStringLiteral("package#nginx (alias) is declared more than once (first at line 4)")));
        QCOMPARE(diagnostics[1].position.line, 6);
    }

    void referenceOrder()
    {
        const std::string text = "ccm:\n"
                                 "  resources:\n"
                                 "    - service:\n"
                                 "        - nginx: {subscribe: [\"file#/etc/nginx/nginx.conf\"]}\n"
                                 "    - file:\n"
                                 "        - /etc/nginx/nginx.conf: {ensure: present, owner: root, group: root, mode: \"0644\"}\n"
                                 "    - exec:\n"
                                 "        - reload: {subscribe: [\"file#/etc/nginx/nginx.conf\"], refreshonly: true}\n";
        const Diagnostics diagnostics = validateManifestText(text);
        QCOMPARE(diagnostics.size(), std::size_t(1));
        QVERIFY(q(diagnostics[0].message).contains(QStringLiteral("declared later")));
        QCOMPARE(diagnostics[0].position.line, 4);
    }

    void fileModeParsing_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("value"); // -1: invalid
        QTest::newRow("0644") << QStringLiteral("0644") << 0644;
        QTest::newRow("644") << QStringLiteral("644") << 0644;
        QTest::newRow("0o755") << QStringLiteral("0o755") << 0755;
        QTest::newRow("0O700") << QStringLiteral("0O700") << 0700;
        QTest::newRow("0777") << QStringLiteral("0777") << 0777;
        QTest::newRow("0") << QStringLiteral("0") << 0;
        QTest::newRow("1000") << QStringLiteral("1000") << -1;
        QTest::newRow("0o") << QStringLiteral("0o") << -1;
        QTest::newRow("empty") << QString() << -1;
        QTest::newRow("0x1ff") << QStringLiteral("0x1ff") << -1;
        QTest::newRow("-644") << QStringLiteral("-644") << -1;
    }

    void fileModeParsing()
    {
        QFETCH(QString, mode);
        QFETCH(int, value);
        const auto parsed = parseFileMode(mode.toStdString());
        QCOMPARE(parsed.ok(), value >= 0);
        if (value >= 0)
            QCOMPARE(static_cast<int>(parsed.value()), value);
    }

    void cleanPaths_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("clean");
        QTest::newRow("root") << QStringLiteral("/") << true;
        QTest::newRow("file") << QStringLiteral("/etc/motd") << true;
        QTest::newRow("dots in name") << QStringLiteral("/etc/..hidden/a.b") << true;
        QTest::newRow("relative") << QStringLiteral("etc/motd") << false;
        QTest::newRow("dot") << QStringLiteral("/etc/./motd") << false;
        QTest::newRow("dot-dot") << QStringLiteral("/etc/../motd") << false;
        QTest::newRow("double slash") << QStringLiteral("//etc") << false;
        QTest::newRow("trailing slash") << QStringLiteral("/etc/") << false;
        QTest::newRow("empty") << QString() << false;
    }

    void cleanPaths()
    {
        QFETCH(QString, path);
        QFETCH(bool, clean);
        QCOMPARE(isAbsoluteCleanPath(path.toStdString()), clean);
    }
};

CCM_TEST_GUILESS_MAIN(TestValidator)
#include "tst_validator.moc"
