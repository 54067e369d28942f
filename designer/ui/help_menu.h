// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>

class QMenuBar;
class QTreeWidget;

namespace ccm::designer {

struct BackendInfo;

/// Where the user guide (designer.md) is: installed with the package, found from the programs'
/// directory by the package layout; else, in a build tree, the source tree's docs/. Empty when
/// neither exists.
[[nodiscard]] QString userGuidePath(const QString &programDirectory);

/// Opens the user guide at `path` in a window of its own, with its pictures; the window is
/// returned and deletes itself when closed.
QDialog *showUserGuide(const QString &path, QWidget *parent);

/// A line naming the backend in use, as its hello answered: server, version, protocol, where it
/// runs and what it may do; or that none is connected.
[[nodiscard]] QString backendDescription(const BackendInfo &info, bool connected);

/// Lists the keyboard shortcuts of every action in the menus of a menu bar, by menu, as they are
/// set when the dialog opens.
class ShortcutsDialog : public QDialog {
    Q_OBJECT

public:
    explicit ShortcutsDialog(const QMenuBar *menuBar, QWidget *parent = nullptr);

    /// The rows shown: "Menu › Action" and its shortcuts, for tests.
    [[nodiscard]] QList<QPair<QString, QString>> rows() const;

private:
    QTreeWidget *m_tree;
};

} // namespace ccm::designer
