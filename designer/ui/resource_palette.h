// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QListWidget>

namespace ccm::designer {

/// Lists the seven CCM resource types in manifest order (package, service, file, exec, archive,
/// scaffold, apply). Each item shows the type's icon, its keyword and a one-line description,
/// which is also the item's tooltip and status tip.
class ResourcePalette : public QListWidget
{
    Q_OBJECT

public:
    /// Item data role holding the type's keyword exactly as a manifest spells it, e.g. "package".
    static constexpr int TypeNameRole = Qt::UserRole;

    explicit ResourcePalette(QWidget *parent = nullptr);
};

} // namespace ccm::designer
