// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QListWidget>

namespace ccm::designer {

/// Lists the seven CCM resource types in manifest order (package, service, file, exec, archive,
/// scaffold, apply). Each item shows the type's icon, its keyword and a one-line description,
/// which is also the item's tooltip and status tip.
class ResourcePalette : public QListWidget {
    Q_OBJECT

public:
    /// Item data role holding the type's keyword exactly as a manifest spells it, e.g. "package".
    static constexpr int TypeNameRole = Qt::UserRole;

    /// The MIME type of a dragged palette item; its payload is the type's keyword in UTF-8.
    static QString mimeType();

    explicit ResourcePalette(QWidget *parent = nullptr);

signals:
    /// A type was chosen by double-click or Enter: add a resource of that type.
    void typeActivated(const QString &type);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QList<QListWidgetItem *> &items) const override;
};

} // namespace ccm::designer
