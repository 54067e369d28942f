// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace ccm::designer {

/// File ▸ Open Location…: an http(s):// or obj:// URL of a bundle, or a local .tar.gz, and the NATS
/// CLI context an obj:// URL is fetched with.
class OpenLocationDialog : public QDialog {
    Q_OBJECT

public:
    OpenLocationDialog(const QStringList &contexts, const QString &preferred, QWidget *parent = nullptr);

    /// The location as typed: a URL, or a local path made absolute.
    QString location() const;
    /// The context for obj:// URLs; empty when there is none to choose.
    QString context() const;

    QLineEdit *locationEdit() const { return m_location; }
    QComboBox *contextBox() const { return m_context; }

private:
    void browse();
    void updateState();

    QLineEdit *m_location = nullptr;
    QComboBox *m_context = nullptr;
    QPushButton *m_open = nullptr;
};

} // namespace ccm::designer
