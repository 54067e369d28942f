// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace ccm::designer {

/// File ▸ Publish to Fleet…: where to publish (a NATS CLI context or a server URL, a bucket and
/// an object name), the fleet key that signs the release and its message, the progress, and in
/// the end the obj:// URL agents fetch, with a Copy button, and the signer's fingerprint.
/// Publish emits publishRequested(); the FleetController does the work and reports back.
class PublishDialog : public QDialog {
    Q_OBJECT

public:
    /// `contexts` fill the combo; `preferred` is selected when among them.
    PublishDialog(const QStringList &contexts, const QString &preferred, QWidget *parent = nullptr);

    /// The chosen context; empty when a server URL is given instead.
    QString context() const;
    /// The server URL given instead of a context; empty when a context is chosen.
    QString serverUrl() const;
    QString bucket() const;
    QString objectName() const;
    void setBucket(const QString &bucket);
    void setObjectName(const QString &name);
    /// The fleet key (Fleet ▸ Fleet Key…) at `path`; signing is offered, and on, when it exists.
    void setSigningKey(const QString &path, bool exists);
    /// The key to sign with; empty when the release goes out unsigned.
    QString signingKey() const;
    /// Why this release is made, for the release history.
    QString releaseMessage() const;

    /// Publishing has started: the fields are locked and the progress shows `text`.
    void setBusy(const QString &text);
    void setProgress(qint64 sent, qint64 total);
    /// Done: shows the URL with its Copy button and who signed it (`signer` empty: unsigned).
    void setPublished(const QString &url, const QString &signer);
    /// Failed: shows why; the fields can be changed and Publish tried again.
    void setFailed(const QString &message);

    QComboBox *contextBox() const { return m_context; }
    QLineEdit *serverUrlEdit() const { return m_url; }
    QLineEdit *bucketEdit() const { return m_bucket; }
    QLineEdit *objectNameEdit() const { return m_name; }
    QCheckBox *signBox() const { return m_sign; }
    QLineEdit *releaseMessageEdit() const { return m_releaseMessage; }
    QLabel *signerLabel() const { return m_signer; }
    QPushButton *publishButton() const { return m_publish; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *messageLabel() const { return m_message; }
    QLineEdit *resultEdit() const { return m_result; }
    QPushButton *copyButton() const { return m_copy; }

signals:
    void publishRequested();

private:
    QFormLayout *createTargetForm(const QStringList &contexts, const QString &preferred);
    QWidget *createResultRow();
    void connectSignals(QDialogButtonBox *buttons);
    void updateState();

    QComboBox *m_context = nullptr;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_bucket = nullptr;
    QLineEdit *m_name = nullptr;
    QCheckBox *m_sign = nullptr;
    QString m_keyPath;
    bool m_keyExists = false;
    QLineEdit *m_releaseMessage = nullptr;
    QLabel *m_signer = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_message = nullptr;
    QLineEdit *m_result = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_publish = nullptr;
    QWidget *m_resultRow = nullptr;
    bool m_busy = false;
};

} // namespace ccm::designer
