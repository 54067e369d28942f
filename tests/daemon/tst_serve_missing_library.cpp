// SPDX-License-Identifier: Apache-2.0
// A library the backend opens on first use that cannot be loaded fails the request that needs it,
// with a message naming the library and what needs it; the daemon goes on serving everyone else.
// libarchive stands in for all of them: the dynamic loader finds a file that is no library under
// its name first, as on a machine where it is broken or missing.
#include "daemon_harness.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

namespace {

const QString kSiteExample = s(CCM_SOURCE_DIR "/resources/examples/static-site.yaml");
const std::string kArchiveMessage = "cannot load " CCM_LIBARCHIVE_SONAME ", which bundles and archive resources need: ";

/// The environment of the processes started from here: the broken libarchive comes first.
void breakLibarchive(const QString &directory)
{
    QFile fake(directory + s("/" CCM_LIBARCHIVE_SONAME));
    QVERIFY(fake.open(QIODevice::WriteOnly));
    QVERIFY(fake.write(QByteArray(64, '\0')) == 64);
    fake.close();
    QVERIFY(qputenv("LD_LIBRARY_PATH", directory.toLocal8Bit()));
}

} // namespace

class TestServeMissingLibrary : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_bundle;
    std::unique_ptr<DaemonProcess> m_daemon;
    RpcClient m_client;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Made while libarchive still works.
        m_bundle = m_dir.filePath(s("site.tar.gz"));
        QCOMPARE(runTool(s(CCM_BACKEND_BIN), {s("bundle"), kSiteExample, s("-o"), m_bundle}), 0);
        const QString libraries = m_dir.filePath(s("lib"));
        QVERIFY(QDir().mkpath(libraries));
        breakLibarchive(libraries);
        m_daemon = std::make_unique<DaemonProcess>();
        QVERIFY(m_client.connectTo(m_daemon->socket()));
    }

    void cleanupTestCase() { qunsetenv("LD_LIBRARY_PATH"); }

    void theRequestFailsAndTheDaemonServesOn()
    {
        for (const char *method : {"manifest.validate", "manifest.render"}) {
            const auto failed = m_client.call(method, {{"source", text(m_bundle)}});
            QVERIFY(failed.has_value());
            QVERIFY2(errorCode(*failed) != 0, failed->dump().c_str());
            const std::string message = (*failed)["error"].value("message", "");
            QVERIFY2(message.find(kArchiveMessage) != std::string::npos, failed->dump().c_str());
        }
        QVERIFY(m_daemon->running());

        // What needs no libarchive works as before, on the same connection.
        const auto rendered = m_client.call(
            "manifest.render", {{"manifest", "ccm:\n  resources: []\n"}, {"base_dir", text(m_dir.path())}});
        QVERIFY(rendered.has_value());
        QVERIFY2(errorCode(*rendered) == 0, rendered->dump().c_str());
        QVERIFY(m_daemon->running());
        // And a new client is served too.
        RpcClient another;
        QVERIFY(another.connectTo(m_daemon->socket()));
        const auto hello = another.call("backend.hello", {{"client", "test"}, {"version", "1"}});
        QVERIFY(hello.has_value());
        QCOMPARE(errorCode(*hello), 0);
    }

    void theCommandLineSaysWhatIsMissing()
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(s(CCM_BACKEND_BIN), {s("validate"), m_bundle});
        QVERIFY(process.waitForFinished(kPatienceMs));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        const std::string output = process.readAll().toStdString();
        QVERIFY2(output.find(text(m_bundle) + ": error: " + kArchiveMessage) != std::string::npos, output.c_str());
        QVERIFY2(process.exitCode() == 1, output.c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestServeMissingLibrary)
#include "tst_serve_missing_library.moc"
