// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace ccm::designer {

class FleetController;

/// Fleet ▸ Fleet Key…: explains why fleet previews are signed, where the private key lives (kept
/// in QSettings under "fleet/previewKey"), creates a key pair with fleet.keygen, and shows the
/// public key, its fingerprint and the agents' `preview:` configuration, each with a Copy button.
class FleetKeyDialog : public QDialog {
    Q_OBJECT

public:
    explicit FleetKeyDialog(FleetController *controller, QWidget *parent = nullptr);

    /// The configured private key: the setting, else fleet::defaultKeyPath().
    static QString keyPath();
    static void setKeyPath(const QString &path);

    /// The lines agents need to trust previews signed with this key.
    static QString agentSnippet();

    /// Asks the backend for the key at the chosen path (fleet.keyinfo) and shows it.
    void showKeyInfo();
    /// Creates a key pair at the chosen path (fleet.keygen), replacing one after asking.
    void generateKey();

    QLineEdit *pathEdit() const { return m_path; }
    QPushButton *generateButton() const { return m_generate; }
    QPlainTextEdit *publicKeyView() const { return m_publicKey; }
    QLabel *fingerprintLabel() const { return m_fingerprint; }
    QLabel *messageLabel() const { return m_message; }
    QPushButton *copyKeyButton() const { return m_copyKey; }
    QPlainTextEdit *snippetView() const { return m_snippet; }

private:
    QWidget *createKeyRow();
    QWidget *createResultArea();
    void showKey(const QString &pem, const QString &fingerprint, const QString &publicPath);
    void showMessage(const QString &text, bool error);

    FleetController *m_controller;
    QLineEdit *m_path = nullptr;
    QPushButton *m_generate = nullptr;
    QLabel *m_fingerprint = nullptr;
    QPlainTextEdit *m_publicKey = nullptr;
    QPushButton *m_copyKey = nullptr;
    QLabel *m_where = nullptr;
    QPlainTextEdit *m_snippet = nullptr;
    QLabel *m_message = nullptr;
};

} // namespace ccm::designer
