// SPDX-License-Identifier: Apache-2.0
#include "designer/core/problems_model.h"

#include <QFileInfo>

#include <algorithm>

namespace ccm::designer {

namespace {

/// The reference tokens of a JSON Pointer, unescaped.
QStringList pointerTokens(const std::string &pointer)
{
    QStringList tokens;
    if (pointer.empty() || pointer.front() != '/')
        return tokens;
    for (QString token : QString::fromStdString(pointer.substr(1)).split(QLatin1Char('/'))) {
        token.replace(QLatin1String("~1"), QLatin1String("/"));
        token.replace(QLatin1String("~0"), QLatin1String("~"));
        tokens.append(token);
    }
    return tokens;
}

/// A step of a path: a property by its name, an array index as "item N" counted from 1.
QString readableStep(const QString &token)
{
    bool isIndex = false;
    const int index = token.toInt(&isIndex);
    return isIndex && index >= 0 && !token.startsWith(QLatin1Char('+')) ? ProblemsModel::tr("item %1").arg(index + 1)
                                                                        : token;
}

} // namespace

QString readablePath(const std::string &pointer)
{
    const QStringList tokens = pointerTokens(pointer);
    const QString separator = QStringLiteral(" › ");
    QStringList steps;
    qsizetype rest = 0;
    const bool inResources
        = tokens.size() >= 4 && tokens[0] == QLatin1String("ccm") && tokens[1] == QLatin1String("resources");
    if (inResources && tokens.size() >= 6) {
        // /ccm/resources/BLOCK/TYPE/ENTRY/NAME/...: the resource as its list shows it.
        steps.append(tokens[5] == QLatin1String("defaults") ? ProblemsModel::tr("%1 defaults").arg(tokens[3])
                                                            : tokens[3] + QLatin1Char(' ') + tokens[5]);
        rest = 6;
    } else if (inResources && tokens.size() == 5) {
        steps.append(ProblemsModel::tr("%1 %2").arg(tokens[3], readableStep(tokens[4])));
        rest = 5;
    } else if (inResources) {
        steps.append(ProblemsModel::tr("%1 block").arg(tokens[3]));
        rest = 4;
    }
    for (qsizetype i = rest; i < tokens.size(); ++i)
        steps.append(readableStep(tokens[i]));
    return steps.join(separator);
}

ProblemsModel::ProblemsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ProblemsModel::setSeverityIcons(const QIcon &error, const QIcon &warning, const QIcon &info)
{
    m_severityIcons = {info, warning, error};
    if (rowCount() > 0)
        emit dataChanged(index(0, SeverityColumn), index(rowCount() - 1, SeverityColumn), {Qt::DecorationRole});
}

void ProblemsModel::setDiagnostics(const ccm::Diagnostics &diagnostics, const QString &fileName)
{
    beginResetModel();
    m_diagnostics = diagnostics;
    m_fileName = fileName;
    endResetModel();
}

void ProblemsModel::setFileDiagnostics(const QString &filePath, const ccm::Diagnostics &diagnostics)
{
    beginResetModel();
    m_fileRows.erase(std::remove_if(m_fileRows.begin(), m_fileRows.end(),
                         [&](const FileRow &row) { return row.filePath == filePath; }),
        m_fileRows.end());
    for (const Diagnostic &diagnostic : diagnostics)
        m_fileRows.push_back({filePath, diagnostic});
    endResetModel();
}

QString ProblemsModel::filePathOf(int row) const
{
    const auto own = static_cast<int>(m_diagnostics.size());
    return row >= own ? m_fileRows.at(static_cast<std::size_t>(row - own)).filePath : QString();
}

const ccm::Diagnostic &ProblemsModel::diagnostic(int row) const
{
    const auto own = static_cast<int>(m_diagnostics.size());
    if (row >= own)
        return m_fileRows.at(static_cast<std::size_t>(row - own)).diagnostic;
    return m_diagnostics.at(static_cast<std::size_t>(row));
}

int ProblemsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_diagnostics.size() + m_fileRows.size());
}

int ProblemsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Diagnostic &item = diagnostic(index.row());
    if (role == SeverityRole)
        return static_cast<int>(item.severity);
    switch (index.column()) {
    case SeverityColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
            switch (item.severity) {
            case Severity::Error:
                return tr("Error");
            case Severity::Warning:
                return tr("Warning");
            case Severity::Info:
                return tr("Note");
            }
        }
        if (role == Qt::DecorationRole)
            return m_severityIcons.at(static_cast<std::size_t>(severityRank(item.severity)));
        if (role == SortRole)
            return severityRank(item.severity);
        break;
    case MessageColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == SortRole)
            return QString::fromStdString(item.message);
        break;
    case LocationColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
            const QString file = filePathOf(index.row());
            return location(item, file.isEmpty() ? m_fileName : QFileInfo(file).fileName());
        }
        if (role == SortRole)
            return static_cast<qlonglong>(item.position.line) * 1000000 + item.position.column;
        break;
    case PathColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return readablePath(item.path);
        if (role == Qt::ToolTipRole && !item.path.empty())
            return tr("JSON Pointer: %1").arg(QString::fromStdString(item.path));
        break;
    default:
        break;
    }
    return {};
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case MessageColumn:
        return tr("Message");
    case LocationColumn:
        return tr("Location");
    case PathColumn:
        return tr("Property");
    default:
        break;
    }
    return {};
}

QString ProblemsModel::location(const ccm::Diagnostic &item, const QString &fileName) const
{
    if (!item.position.known())
        return fileName;
    QString text = fileName.isEmpty() ? QString() : fileName + QLatin1Char(':');
    text += QString::number(item.position.line);
    if (item.position.column > 0)
        text += QLatin1Char(':') + QString::number(item.position.column);
    return text;
}

int severityRank(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return 2;
    case Severity::Warning:
        return 1;
    case Severity::Info:
        break;
    }
    return 0;
}

} // namespace ccm::designer
