// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QLabel;
class QListWidget;
class QPushButton;

namespace ccm::designer {

/// File ▸ Export Bundle…: what will go into the bundle and the warnings about it, shown before
/// anything is written; Export… asks where to write it (exportRequested()).
class ExportBundleDialog : public QDialog {
    Q_OBJECT

public:
    /// One finding of bundle.list: its severity ("error" or "warning") and its line of text.
    struct Finding {
        QString severity;
        QString text;
    };

    explicit ExportBundleDialog(QWidget *parent = nullptr);

    /// Shows the members and findings; Export… is enabled when `ok` (no errors).
    void setListing(const QStringList &members, const QList<Finding> &findings, bool ok);
    /// Shows that something is going on (Export… disabled meanwhile).
    void setBusy(const QString &text);
    /// Shows an outcome in words: where the bundle went, or what failed.
    void setMessage(const QString &text, bool failed);

    QListWidget *membersView() const { return m_members; }
    QListWidget *findingsView() const { return m_findings; }
    QLabel *messageLabel() const { return m_message; }
    QPushButton *exportButton() const { return m_export; }

signals:
    void exportRequested();

private:
    QListWidget *m_members = nullptr;
    QListWidget *m_findings = nullptr;
    QLabel *m_findingsTitle = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_export = nullptr;
    bool m_ok = false;
};

} // namespace ccm::designer
