// SPDX-License-Identifier: Apache-2.0
// The package type against the real apt and dpkg of this host: an old local build of `hello`
// is upgraded to the archive's version and removed again by the real ccm-backend.
#include "backend_process.h"
#include "test_main.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTest>

#include <unistd.h>

using namespace ccm::test;

namespace {

struct Ran {
    int exitCode = -1; ///< -1: did not finish or crashed
    QString out;
    QString err;
};

/// Runs a program to completion; apt-get may download, so the limit is generous.
Ran run(const QString &program, const QStringList &arguments, const QProcessEnvironment &environment = {})
{
    QProcess process;
    if (!environment.isEmpty())
        process.setProcessEnvironment(environment);
    process.start(program, arguments);
    Ran ran;
    if (!process.waitForFinished(600000)) {
        process.kill();
        process.waitForFinished();
        return ran;
    }
    ran.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    ran.out = QString::fromUtf8(process.readAllStandardOutput());
    ran.err = QString::fromUtf8(process.readAllStandardError());
    return ran;
}

/// The installed version of hello, or "" when dpkg does not have it installed.
QString installedHello()
{
    const Ran query = run(QStringLiteral("dpkg-query"),
        {QStringLiteral("-W"), QStringLiteral("-f=${Version} ${db:Status-Status}"), QStringLiteral("hello")});
    const QStringList fields = query.out.trimmed().split(QLatin1Char(' '));
    if (query.exitCode != 0 || fields.size() != 2 || fields.at(1) != QLatin1String("installed"))
        return {};
    return fields.at(0);
}

/// The archive's candidate version of hello, or "" when there is none.
QString candidateHello()
{
    const Ran policy = run(QStringLiteral("apt-cache"), {QStringLiteral("policy"), QStringLiteral("hello")});
    for (const QString &line : policy.out.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1String("Candidate:"))) {
            const QString candidate = trimmed.mid(10).trimmed();
            return candidate == QLatin1String("(none)") ? QString() : candidate;
        }
    }
    return {};
}

void purgeHello()
{
    run(QStringLiteral("dpkg"), {QStringLiteral("--purge"), QStringLiteral("hello")});
}

} // namespace

class TestPackageAptSystem : public QObject {
    Q_OBJECT

private:
    /// Applies a manifest with one package resource and returns its event.
    QJsonObject apply(const QString &ensure, bool noop = false)
    {
        const QString manifest = writeFile(m_dir, QStringLiteral("hello.yaml"),
            QStringLiteral("ccm:\n  resources:\n    - package:\n        - hello:\n            ensure: \"%1\"\n")
                .arg(ensure)
                .toUtf8());
        QStringList arguments {QStringLiteral("apply"), manifest, QStringLiteral("--json")};
        if (noop)
            arguments << QStringLiteral("--noop");
        const Ran ran = run(QStringLiteral(CCM_BACKEND_BIN), arguments, isolatedEnvironment(m_dir));
        const QString firstLine = ran.out.section(QLatin1Char('\n'), 0, 0);
        const QJsonObject event = QJsonDocument::fromJson(firstLine.toUtf8()).object();
        if (event.value(QStringLiteral("failed")).toBool(true))
            qWarning("apply failed (exit %d): %s %s", ran.exitCode, qPrintable(ran.out), qPrintable(ran.err));
        return event;
    }

    QTemporaryDir m_dir;
    QString m_candidate;

private Q_SLOTS:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("installing packages needs root");
        if (QStandardPaths::findExecutable(QStringLiteral("apt-get")).isEmpty()
            || QStandardPaths::findExecutable(QStringLiteral("dpkg-deb")).isEmpty())
            QSKIP("apt-get and dpkg-deb are needed: this is not a Debian host");
        m_candidate = candidateHello();
        if (m_candidate.isEmpty())
            QSKIP("apt-cache policy hello shows no candidate: no archive is configured");
        if (!installedHello().isEmpty())
            QSKIP("hello is installed on this host already; the test would remove it");
        QVERIFY(m_dir.isValid());
    }

    void cleanupTestCase() { purgeHello(); }

    void upgradeToLatestThenRemove()
    {
        const auto cleanup = qScopeGuard([] { purgeHello(); });

        // An older hello than any archive has: 2.9-1, built here with one file.
        const Ran architecture = run(QStringLiteral("dpkg"), {QStringLiteral("--print-architecture")});
        QCOMPARE(architecture.exitCode, 0);
        writeFile(m_dir, QStringLiteral("root/DEBIAN/control"),
            QStringLiteral("Package: hello\nVersion: 2.9-1\nArchitecture: %1\nMaintainer: CCM tests "
                           "<tests@example.invalid>\nDescription: old hello for the package type's system test\n")
                .arg(architecture.out.trimmed())
                .toUtf8());
        writeFile(m_dir, QStringLiteral("root/usr/share/ccm-test/hello.txt"), "an old hello\n");
        const QString deb = m_dir.filePath(QStringLiteral("hello_2.9-1.deb"));
        const Ran built = run(QStringLiteral("dpkg-deb"),
            {QStringLiteral("--root-owner-group"), QStringLiteral("--build"), m_dir.filePath(QStringLiteral("root")),
                deb});
        QVERIFY2(built.exitCode == 0, qPrintable(built.err));
        const Ran installed = run(QStringLiteral("dpkg"), {QStringLiteral("-i"), deb});
        QVERIFY2(installed.exitCode == 0, qPrintable(installed.err));
        QCOMPARE(installedHello(), QStringLiteral("2.9-1"));

        // Noop says what it would do and leaves the old version.
        const QJsonObject preview = apply(QStringLiteral("latest"), true);
        QCOMPARE(preview.value(QStringLiteral("failed")).toBool(true), false);
        QCOMPARE(preview.value(QStringLiteral("changed")).toBool(), true);
        QCOMPARE(
            preview.value(QStringLiteral("noop_message")).toString(), QStringLiteral("Would have upgraded to latest"));
        QCOMPARE(installedHello(), QStringLiteral("2.9-1"));

        // latest upgrades to the archive's candidate through apt-get.
        const QJsonObject upgraded = apply(QStringLiteral("latest"));
        QCOMPARE(upgraded.value(QStringLiteral("failed")).toBool(true), false);
        QCOMPARE(upgraded.value(QStringLiteral("changed")).toBool(), true);
        QCOMPARE(upgraded.value(QStringLiteral("provider")).toString(), QStringLiteral("apt"));
        QCOMPARE(upgraded.value(QStringLiteral("final_ensure")).toString(), m_candidate);
        QCOMPARE(installedHello(), m_candidate);

        const QJsonObject stable = apply(QStringLiteral("latest"));
        QCOMPARE(stable.value(QStringLiteral("failed")).toBool(true), false);
        QCOMPARE(stable.value(QStringLiteral("changed")).toBool(true), false);
        QCOMPARE(stable.value(QStringLiteral("final_ensure")).toString(), m_candidate);

        // absent removes it, and then there is nothing left to do.
        const QJsonObject removed = apply(QStringLiteral("absent"));
        QCOMPARE(removed.value(QStringLiteral("failed")).toBool(true), false);
        QCOMPARE(removed.value(QStringLiteral("changed")).toBool(), true);
        QCOMPARE(removed.value(QStringLiteral("final_ensure")).toString(), QStringLiteral("absent"));
        QCOMPARE(installedHello(), QString());

        const QJsonObject gone = apply(QStringLiteral("absent"));
        QCOMPARE(gone.value(QStringLiteral("failed")).toBool(true), false);
        QCOMPARE(gone.value(QStringLiteral("changed")).toBool(true), false);
        QCOMPARE(gone.value(QStringLiteral("final_ensure")).toString(), QStringLiteral("absent"));
    }
};

CCM_TEST_GUILESS_MAIN(TestPackageAptSystem)
#include "tst_package_apt_system.moc"
