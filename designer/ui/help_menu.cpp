// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/help_menu.h"

#include "designer/core/backend_client.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QImageReader>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace ccm::designer {

namespace {

constexpr QSize kGuideSize(900, 700);
/// Room the guide's text leaves beside a picture: margins and the scroll bar.
constexpr int kGuideMargin = 80;
constexpr QSize kShortcutsSize(520, 600);

QString plainText(const QAction *action)
{
    QString text = action->text();
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return text.replace(QStringLiteral("&&"), QStringLiteral("&"));
}

/// The shortcuts of the actions of `menu` and its submenus, as children of `parent`.
void addMenu(QTreeWidgetItem *parent, const QMenu *menu)
{
    for (const QAction *action : menu->actions()) {
        if (action->isSeparator())
            continue;
        if (const QMenu *submenu = action->menu()) {
            addMenu(parent, submenu);
            continue;
        }
        QStringList keys;
        for (const QKeySequence &sequence : action->shortcuts())
            keys.append(sequence.toString(QKeySequence::NativeText));
        if (keys.isEmpty())
            continue;
        auto *item = new QTreeWidgetItem(parent, {plainText(action), keys.join(QStringLiteral(", "))});
        item->setToolTip(0, action->statusTip());
    }
}

/// Shrinks the guide's pictures that are wider than `width` to it, keeping their proportions.
void fitImages(QTextBrowser *browser, int width)
{
    QTextDocument *document = browser->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto fragment = block.begin(); !fragment.atEnd(); ++fragment) {
            const QTextFragment piece = fragment.fragment();
            if (!piece.isValid() || !piece.charFormat().isImageFormat())
                continue;
            QTextImageFormat image = piece.charFormat().toImageFormat();
            const QUrl url = browser->source().resolved(QUrl(image.name()));
            const QSize size = QImageReader(url.toLocalFile()).size();
            if (!size.isValid() || size.width() <= width)
                continue;
            image.setWidth(width);
            image.setHeight(static_cast<double>(size.height()) * width / size.width());
            QTextCursor cursor(document);
            cursor.setPosition(piece.position());
            cursor.setPosition(piece.position() + piece.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
    }
}

} // namespace

QString userGuidePath(const QString &programDirectory)
{
    const QStringList candidates {
        QDir::cleanPath(programDirectory + QLatin1Char('/') + QStringLiteral(CCM_GUIDE_FROM_BINDIR)),
        QStringLiteral(CCM_SOURCE_GUIDE),
    };
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isFile())
            return candidate;
    }
    return {};
}

QDialog *showUserGuide(const QString &path, QWidget *parent)
{
    auto *dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("userGuide"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QDialog::tr("CCM Designer User Guide"));
    auto *browser = new QTextBrowser(dialog);
    browser->setObjectName(QStringLiteral("guideBrowser"));
    browser->setOpenExternalLinks(true);
    // Its pictures are beside it, under images/.
    browser->setSearchPaths({QFileInfo(path).absolutePath()});
    browser->setSource(QUrl::fromLocalFile(path), QTextDocument::MarkdownResource);
    fitImages(browser, kGuideSize.width() - kGuideMargin);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    dialog->resize(kGuideSize);
    dialog->show();
    return dialog;
}

QString backendDescription(const BackendInfo &info, bool connected)
{
    if (!connected)
        return QDialog::tr("Backend: not connected");
    const QString where = info.embedded ? QDialog::tr("your own, started by the designer")
        : info.socketPath.isEmpty()     ? QDialog::tr("unknown socket")
                                        : QDir::toNativeSeparators(info.socketPath);
    //: %1 server name, %2 its version, %3 the protocol version, %4 where it runs, %5 its role.
    return QDialog::tr("Backend: %1 %2, protocol %3 (%4; %5)")
        .arg(info.server.isEmpty() ? QStringLiteral("ccm-backend") : info.server, info.version)
        .arg(info.protocol)
        .arg(where, info.role);
}

ShortcutsDialog::ShortcutsDialog(const QMenuBar *menuBar, QWidget *parent)
    : QDialog(parent)
    , m_tree(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_tree->setObjectName(QStringLiteral("shortcuts"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Action"), tr("Shortcut")});
    m_tree->setRootIsDecorated(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    for (const QAction *top : menuBar->actions()) {
        const QMenu *menu = top->menu();
        if (!menu)
            continue;
        auto *heading = new QTreeWidgetItem(m_tree, {plainText(top)});
        QFont bold = heading->font(0);
        bold.setBold(true);
        heading->setFont(0, bold);
        heading->setFirstColumnSpanned(true);
        addMenu(heading, menu);
        if (heading->childCount() == 0)
            delete heading;
    }
    m_tree->expandAll();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tree);
    layout->addWidget(buttons);
    resize(kShortcutsSize);
}

QList<QPair<QString, QString>> ShortcutsDialog::rows() const
{
    QList<QPair<QString, QString>> out;
    for (int top = 0; top < m_tree->topLevelItemCount(); ++top) {
        const QTreeWidgetItem *heading = m_tree->topLevelItem(top);
        for (int child = 0; child < heading->childCount(); ++child) {
            const QTreeWidgetItem *item = heading->child(child);
            out.append({heading->text(0) + QStringLiteral(" › ") + item->text(0), item->text(1)});
        }
    }
    return out;
}

} // namespace ccm::designer
