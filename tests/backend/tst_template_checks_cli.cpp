// SPDX-License-Identifier: Apache-2.0
// Template syntax errors and references no resource satisfies, as validate and render report them
// as real processes: at the offending place inside the string, naming the property.
#include "backend_process.h"
#include "test_main.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using ccm::test::BackendRun;
using ccm::test::runBackend;

namespace {

/// A file resource that is valid but for `content`, written as given (its own indentation).
QByteArray fileWithContent(const QByteArray &content)
{
    return QByteArray("data:\n  greeting: hello\nccm:\n  resources:\n    - file:\n        - /tmp/motd:\n"
                      "            ensure: present\n            owner: root\n            group: root\n"
                      "            mode: \"0644\"\n            content: ")
        + content + '\n';
}

} // namespace

class TestTemplateChecksCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QByteArray &text)
    {
        const QString path
            = QStringLiteral("%1/%2.yaml")
                  .arg(m_dir.path(),
                      QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        return ccm::test::writeFile(path, text) ? path : QString();
    }

private slots:
    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); ///< after "FILE:"
        QTest::newRow("content plain") << fileWithContent("hi {{ Data.greeting + }}")
                                       << QStringLiteral("11:44: error: file /tmp/motd › content: unexpected end of "
                                                         "expression, expected a value");
        QTest::newRow("content double quoted")
            << fileWithContent("\"hi {{ Data.greeting ) }}\"")
            << QStringLiteral("11:43: error: file /tmp/motd › content: unexpected ')', expected an operator or the "
                              "end of the expression");
        QTest::newRow("content block literal")
            << fileWithContent("|\n              first line\n              say ${ Data.greeting + }\n")
            << QStringLiteral("13:38: error: file /tmp/motd › content: unexpected end of expression, expected a value");
        QTest::newRow("deferred fact")
            << fileWithContent("'os {{ Facts.host.info.os == }}'")
            << QStringLiteral("11:51: error: file /tmp/motd › content: unexpected end of expression, expected a value");
        QTest::newRow("pre_message")
            << QByteArray("ccm:\n  pre_message: \"start {{ Data.greeting * }}\"\n  resources: []\n")
            << QStringLiteral("2:42: error: ccm › pre_message: unexpected end of expression, expected a value");
        QTest::newRow("data value") << QByteArray("data:\n  port: ${ 80 + }\nccm:\n  resources: []\n")
                                    << QStringLiteral(
                                           "2:17: error: data › port: unexpected end of expression, expected a value");
        QTest::newRow("override")
            << QByteArray("data:\n  greeting: hi\noverrides:\n  web:\n    greeting: '{{ Data.greeting ) }}'\nccm:\n"
                          "  resources: []\n")
            << QStringLiteral("5:33: error: overrides › web › greeting: unexpected ')', expected an operator or the "
                              "end of the expression");
        QTest::newRow("unsatisfied require")
            << QByteArray("ccm:\n  resources:\n    - package:\n        - nginx: {ensure: present}\n    - exec:\n"
                          "        - reload:\n            command: /bin/true\n            require: [package#ngnix]\n")
            << QStringLiteral("8:23: error: exec#reload: require refers to package#ngnix, which no resource of this "
                              "manifest declares; did you mean 'package#nginx'?");
        QTest::newRow("unsatisfied subscribe")
            << QByteArray("ccm:\n  resources:\n    - exec:\n        - reload:\n            command: /bin/true\n"
                          "            subscribe:\n              - service#nginx\n")
            << QStringLiteral("7:17: error: exec#reload: subscribe refers to service#nginx, which no resource of this "
                              "manifest declares");
    }

    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const QString path = write(text);
        QVERIFY(!path.isEmpty());
        const QString line = path + QLatin1Char(':') + expected;
        const BackendRun validate = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(validate.exitCode, 1);
        QCOMPARE(validate.out.trimmed(), line);
        const BackendRun render = runBackend({QStringLiteral("render"), path});
        QCOMPARE(render.exitCode, 1);
        QVERIFY2(render.err.contains(line), qPrintable(render.err));
    }

    /// A reference the manifest does not declare is looked up in its child manifests (apply
    /// resources, relative to the manifest's directory, and theirs in turn). Only when a child
    /// cannot be known before a run does it stay a warning.
    void childManifests_data()
    {
        QTest::addColumn<QString>("applied"); ///< the parent's apply resource
        QTest::addColumn<QByteArray>("child"); ///< parts/child.yaml
        QTest::addColumn<QString>("reference"); ///< what the parent's exec requires
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected"); ///< after "FILE:8:23: "; empty: no finding at all
        const QByteArray declaresNginx("ccm:\n  resources:\n    - package:\n        - nginx: {ensure: present}\n");
        const QString child = QStringLiteral("parts/child.yaml");
        QTest::newRow("declared by the child")
            << child << declaresNginx << QStringLiteral("package#nginx") << 0 << QString();
        QTest::newRow("declared by the child's alias")
            << child << QByteArray("ccm:\n  resources:\n    - package:\n        - nginx: {alias: web}\n")
            << QStringLiteral("package#web") << 0 << QString();
        QTest::newRow("declared by a grandchild")
            << child << QByteArray("ccm:\n  resources:\n    - apply:\n        - grandchild.yaml: {}\n")
            << QStringLiteral("package#nginx") << 0 << QString();
        QTest::newRow("a child that applies itself")
            << child
            << QByteArray("ccm:\n  resources:\n    - apply:\n        - child.yaml: {}\n    - package:\n"
                          "        - nginx: {ensure: present}\n")
            << QStringLiteral("package#nginx") << 0 << QString();
        QTest::newRow("declared nowhere")
            << child << declaresNginx << QStringLiteral("package#ngnix") << 1
            << QStringLiteral("error: exec#reload: require refers to package#ngnix, which neither this manifest nor "
                              "its child manifests declare; did you mean 'package#nginx'?");
        const QString mayBe = QStringLiteral(
            "warning: exec#reload: require refers to package#nginx, which this manifest does not declare (a parent "
            "or child manifest may)");
        QTest::newRow("a templated child") << QStringLiteral("parts/{{ Facts.host.info.os }}.yaml") << declaresNginx
                                           << QStringLiteral("package#nginx") << 0 << mayBe;
        QTest::newRow("a child that does not read")
            << QStringLiteral("parts/missing.yaml") << declaresNginx << QStringLiteral("package#nginx") << 0 << mayBe;
        QTest::newRow("a child with a templated name")
            << child << QByteArray("ccm:\n  resources:\n    - package:\n        - \"{{ Data.name }}\": {}\n")
            << QStringLiteral("package#nginx") << 0 << mayBe;
    }

    void childManifests()
    {
        QFETCH(QString, applied);
        QFETCH(QByteArray, child);
        QFETCH(QString, reference);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("parts")));
        QVERIFY(ccm::test::writeFile(dir.filePath(QStringLiteral("parts/child.yaml")), child));
        QVERIFY(ccm::test::writeFile(dir.filePath(QStringLiteral("parts/grandchild.yaml")),
            "ccm:\n  resources:\n    - package:\n        - nginx: {ensure: present}\n"));
        const QString path = dir.filePath(QStringLiteral("parent.yaml"));
        QVERIFY(ccm::test::writeFile(path,
            QStringLiteral("ccm:\n  resources:\n    - apply:\n        - \"%1\": {}\n    - exec:\n        - reload:\n"
                           "            command: /bin/true\n            require: [%2]\n")
                .arg(applied, reference)
                .toUtf8()));
        const BackendRun validate = runBackend({QStringLiteral("validate"), path});
        QCOMPARE(validate.exitCode, exitCode);
        if (expected.isEmpty())
            QVERIFY2(!validate.out.contains(QStringLiteral("require refers")), qPrintable(validate.out));
        else
            QVERIFY2(validate.out.contains(path + QStringLiteral(":8:23: ") + expected), qPrintable(validate.out));
    }
};

CCM_TEST_GUILESS_MAIN(TestTemplateChecksCli)
#include "tst_template_checks_cli.moc"
