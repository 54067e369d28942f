// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMainWindow>
#include <QString>

class QPlainTextEdit;

namespace ccm::designer {

class ResourcePalette;

/// The designer's main window: the resource type palette in a dock and the opened manifest's text
/// as the central, read-only view. Geometry and dock layout persist in the application's QSettings
/// (the caller sets the organisation and application names) from one session to the next.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    /// Shows the manifest at @p path and puts its file name in the window title. Returns false when
    /// the file cannot be read: the shown text and title stay as they were, and the reason, naming
    /// the path, is shown in the status bar and returned by errorString(). Never opens a dialog.
    bool openFile(const QString &path);

    /// Why the last failed openFile() failed; empty after a successful one.
    QString errorString() const;

    /// The palette of resource types shown in the "Resource Types" dock.
    ResourcePalette *resourcePalette() const;

    /// The read-only view showing the opened manifest's text.
    QPlainTextEdit *manifestView() const;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void openWithDialog();
    void showAbout();
    void updateTitle();

    ResourcePalette *m_palette = nullptr;
    QPlainTextEdit *m_manifestView = nullptr;
    QString m_errorString;
};

} // namespace ccm::designer
