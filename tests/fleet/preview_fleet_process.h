// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace ccm::test {

/// ccm-preview-fleet (tests/fleet/preview_agent_main.cpp) running until the object goes; start()
/// returns once its responders listen. Needs CCM_PREVIEW_FLEET_BIN.
class PreviewFleetProcess {
public:
    bool start(const QStringList &arguments)
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral(CCM_PREVIEW_FLEET_BIN), arguments);
        if (!m_process.waitForStarted(kPatienceMs))
            return false;
        while (!m_output.contains("ready")) {
            if (!m_process.waitForReadyRead(kPatienceMs))
                return false;
            m_output += m_process.readAllStandardOutput();
        }
        return true;
    }

    ~PreviewFleetProcess()
    {
        // It runs until its stdin closes.
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(kPatienceMs))
            m_process.kill();
        m_process.waitForFinished();
    }

private:
    static constexpr int kPatienceMs = 30000;
    QProcess m_process;
    QByteArray m_output;
};

} // namespace ccm::test
