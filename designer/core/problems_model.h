// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"

#include <QAbstractTableModel>
#include <QIcon>

#include <array>
#include <string>
#include <vector>

namespace ccm::designer {

/// How serious a severity is, for sorting and for picking the worst of several: error 2,
/// warning 1, info 0.
int severityRank(Severity severity);

/// A JSON Pointer into a manifest as a person reads it: the resource by its type and name, then
/// the property, each step after " › " and list items counted from 1:
/// `/ccm/resources/0/file/1/~1srv~1www/mode` reads `file /srv/www › mode`,
/// `/hierarchy/order/0` reads `hierarchy › order › item 1`. Empty for the manifest as a whole.
QString readablePath(const std::string &pointer);

/// The diagnostics of one manifest as a table: severity, message, location, and the property as
/// readablePath() gives it (the JSON Pointer is its tooltip).
class ProblemsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { SeverityColumn, MessageColumn, LocationColumn, PathColumn, ColumnCount };

    /// Role giving a value that sorts a column sensibly: severity rank, or line then column.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// Role giving the ccm::Severity of a row as an int.
    static constexpr int SeverityRole = Qt::UserRole + 2;

    explicit ProblemsModel(QObject *parent = nullptr);

    /// The icons the severity column shows; none until set (the widgets set their style's).
    void setSeverityIcons(const QIcon &error, const QIcon &warning, const QIcon &info);

    /// Replaces the rows; `fileName` prefixes each location ("file:line:col").
    void setDiagnostics(const ccm::Diagnostics &diagnostics, const QString &fileName);

    /// Replaces the rows of a file the manifest uses (a template being edited), shown after the
    /// manifest's own; their locations name the file. Empty `diagnostics` removes its rows.
    void setFileDiagnostics(const QString &filePath, const ccm::Diagnostics &diagnostics);
    /// The file a row's diagnostic is positioned in; empty for the manifest's own rows.
    [[nodiscard]] QString filePathOf(int row) const;

    /// The diagnostic shown in `row`.
    [[nodiscard]] const ccm::Diagnostic &diagnostic(int row) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct FileRow {
        QString filePath;
        ccm::Diagnostic diagnostic;
    };

    [[nodiscard]] QString location(const ccm::Diagnostic &diagnostic, const QString &fileName) const;

    ccm::Diagnostics m_diagnostics;
    std::vector<FileRow> m_fileRows;
    QString m_fileName;
    /// By severityRank().
    std::array<QIcon, 3> m_severityIcons;
};

} // namespace ccm::designer
