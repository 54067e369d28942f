// SPDX-License-Identifier: Apache-2.0
// A real HTTP(S) server for a test: tests/fleet/http_server.py on 127.0.0.1, on a port the system
// picks, serving the files of a directory; stopped when the object goes.
#pragma once

#include "test_common.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace ccm::test {

class HttpServer {
public:
    HttpServer() = default;
    HttpServer(const HttpServer &) = delete;
    HttpServer &operator=(const HttpServer &) = delete;
    ~HttpServer() { stop(); }

    static bool available() { return !QStandardPaths::findExecutable(ccm::test::python3()).isEmpty(); }

    /// Starts serving root(); with `tls`, https with a certificate signed by the CA caFile() holds.
    /// False, with error() saying why, when it does not say its port within 30 s.
    bool start(bool tls = false)
    {
        QDir().mkpath(root());
        QStringList arguments {
            QStringLiteral(CCM_SOURCE_DIR "/tests/fleet/http_server.py"), QStringLiteral("--root"), root()};
        if (tls)
            arguments << QStringLiteral("--tls") << m_dir.path();
        m_tls = tls;
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(ccm::test::python3(), arguments);
        QDeadlineTimer deadline(30000);
        QByteArray out;
        while (!out.contains('\n')) {
            if (m_process.state() == QProcess::NotRunning || deadline.hasExpired()
                || !m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())))) {
                m_error = QStringLiteral("http_server.py did not say its port: ") + QString::fromUtf8(out);
                return false;
            }
            out += m_process.readAllStandardOutput();
        }
        m_port = out.mid(5, out.indexOf('\n') - 5).trimmed().toUShort();
        return m_port != 0;
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished();
    }

    /// The directory served.
    QString root() const { return m_dir.filePath(QStringLiteral("root")); }
    /// The CA certificate that verifies the https server.
    QString caFile() const { return m_dir.filePath(QStringLiteral("ca.pem")); }
    /// "http(s)://127.0.0.1:PORT" and `path`.
    QString url(const QString &path = {}) const
    {
        return (m_tls ? QStringLiteral("https://127.0.0.1:") : QStringLiteral("http://127.0.0.1:"))
            + QString::number(m_port) + path;
    }
    std::string urlString(const QString &path = {}) const { return url(path).toStdString(); }
    QString error() const { return m_error; }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    bool m_tls = false;
    QString m_error;
};

} // namespace ccm::test
