// SPDX-License-Identifier: Apache-2.0
#include "designer/core/run_results.h"

#include "core/model/ensure.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "designer/core/json_members.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace ccm::designer {
namespace {

/// The member `key` as shown: a string as it is, another value as compact JSON, null as nothing.
QString shownText(const Json &object, const char *key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return {};
    if (it->is_string())
        return QString::fromStdString(it->get<std::string>());
    return QString::fromStdString(it->dump(-1, ' ', false, Json::error_handler_t::replace));
}

QStringList errorsOf(const Json &event)
{
    QStringList errors;
    const auto it = event.find("error");
    if (it == event.end() || !it->is_array())
        return errors;
    for (const Json &error : *it) {
        if (error.is_string())
            errors << QString::fromStdString(error.get<std::string>());
    }
    return errors;
}

bool hasUnmetRequirements(const Json &event)
{
    const auto it = event.find("unmet_requirements");
    return it != event.end() && it->is_array() && !it->empty();
}

QString resourceOf(const Json &event)
{
    const QString resource = shownText(event, "resource");
    if (!resource.isEmpty())
        return resource;
    return shownText(event, "type") + QLatin1Char('#') + shownText(event, "name");
}

/// Two modes are the same when they are the same octal number: "644" and "0644" do not differ.
bool sameMode(const QString &a, const QString &b)
{
    bool aOk = false;
    bool bOk = false;
    const int aValue = a.toInt(&aOk, 8);
    const int bValue = b.toInt(&bOk, 8);
    return aOk && bOk ? aValue == bValue : a == b;
}

Json countsOf(const std::vector<Json> &events)
{
    qint64 total = 0, stable = 0, changed = 0, failed = 0, skipped = 0, refreshed = 0, unmet = 0, errors = 0;
    qint64 ok = 0, warning = 0, critical = 0, unknown = 0;
    for (const Json &event : events) {
        ++total;
        if (boolOf(event, "failed"))
            ++failed;
        else if (boolOf(event, "skipped"))
            ++skipped;
        else if (boolOf(event, "changed"))
            ++changed;
        else
            ++stable;
        if (boolOf(event, "refreshed"))
            ++refreshed;
        if (hasUnmetRequirements(event))
            ++unmet;
        errors += errorsOf(event).size();
        const auto checks = event.find("health_check");
        if (checks == event.end() || !checks->is_array())
            continue;
        for (const Json &check : *checks) {
            const QString status = shownText(check, "status");
            if (status == QLatin1String("ok"))
                ++ok;
            else if (status == QLatin1String("warning"))
                ++warning;
            else if (status == QLatin1String("critical"))
                ++critical;
            else
                ++unknown;
        }
    }
    return Json {{"total", total}, {"stable", stable}, {"changed", changed}, {"failed", failed}, {"skipped", skipped},
        {"refreshed", refreshed}, {"unmet_requirements", unmet},
        {"checks", {{"ok", ok}, {"warning", warning}, {"critical", critical}, {"unknown", unknown}}},
        {"errors", errors}};
}

} // namespace

Outcome outcomeOf(const Json &event)
{
    if (!event.is_object())
        return Outcome::Stable;
    if (boolOf(event, "failed"))
        return Outcome::Failed;
    if (hasUnmetRequirements(event))
        return Outcome::Unmet;
    if (boolOf(event, "skipped"))
        return Outcome::Skipped;
    if (boolOf(event, "refreshed"))
        return Outcome::Refreshed;
    if (boolOf(event, "changed"))
        return Outcome::Changed;
    return Outcome::Stable;
}

QString outcomeKey(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Stable:
        return QStringLiteral("stable");
    case Outcome::Changed:
        return QStringLiteral("changed");
    case Outcome::Failed:
        return QStringLiteral("failed");
    case Outcome::Skipped:
        return QStringLiteral("skipped");
    case Outcome::Unmet:
        return QStringLiteral("unmet_requirements");
    case Outcome::Refreshed:
        return QStringLiteral("refreshed");
    }
    return {};
}

QString outcomeName(Outcome outcome, bool noop)
{
    switch (outcome) {
    case Outcome::Stable:
        return RunResults::tr("stable");
    case Outcome::Changed:
        return noop ? RunResults::tr("would change") : RunResults::tr("changed");
    case Outcome::Failed:
        return noop ? RunResults::tr("would fail") : RunResults::tr("failed");
    case Outcome::Skipped:
        return RunResults::tr("skipped");
    case Outcome::Unmet:
        return RunResults::tr("unmet requirement");
    case Outcome::Refreshed:
        return noop ? RunResults::tr("would refresh") : RunResults::tr("refreshed");
    }
    return {};
}

RunResults::RunResults(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int RunResults::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RunResults::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunResults::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case ResourceColumn:
            return row.resource;
        case OutcomeColumn:
            return outcomeName(
                row.outcome, row.event.is_object() && row.event.contains("noop") ? boolOf(row.event, "noop") : m_noop);
        case MessageColumn:
            if (role == Qt::DisplayRole)
                return eventMessage(row.event);
            // The tooltip has the whole message, errors a line each.
            if (const QStringList errors = errorsOf(row.event); !errors.isEmpty())
                return errors.join(QLatin1Char('\n'));
            return eventNote(row.event);
        case ProviderColumn:
            return shownText(row.event, "provider");
        case DurationColumn:
            return tr("%1 ms").arg(double(integerOf(row.event, "duration").value_or(0)) / 1e6, 0, 'f', 1);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if (index.column() == DurationColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        if (m_stale)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case OutcomeNameRole:
        return outcomeKey(row.outcome);
    case EventRole:
        return QByteArray::fromStdString(row.event.dump(-1, ' ', false, Json::error_handler_t::replace));
    case OutcomeRole:
        return int(row.outcome);
    case ResourceRole:
        return row.resource;
    default:
        return {};
    }
}

QVariant RunResults::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ResourceColumn:
        return tr("Resource");
    case OutcomeColumn:
        return tr("Outcome");
    case MessageColumn:
        return tr("Message");
    case ProviderColumn:
        return tr("Provider");
    case DurationColumn:
        return tr("Duration");
    default:
        return {};
    }
}

void RunResults::startRun(const QString &manifest, bool noop, const QDateTime &started)
{
    clear();
    m_manifest = manifest;
    m_noop = noop;
    m_started = started;
}

void RunResults::clear()
{
    beginResetModel();
    m_rows.clear();
    m_stream.clear();
    m_rowOf.clear();
    m_result = Json();
    m_stale = false;
    endResetModel();
}

void RunResults::addEvent(const Json &event)
{
    if (!event.is_object())
        return;
    m_stream.push_back(event);
    Row row {event, outcomeOf(event), resourceOf(event)};
    if (const auto existing = m_rowOf.constFind(row.resource); existing != m_rowOf.constEnd()) {
        m_rows[std::size_t(*existing)] = std::move(row);
        emit dataChanged(index(*existing, 0), index(*existing, ColumnCount - 1));
        return;
    }
    const int position = int(m_rows.size());
    beginInsertRows({}, position, position);
    m_rowOf.insert(row.resource, position);
    m_rows.push_back(std::move(row));
    endInsertRows();
}

void RunResults::setFinished(const Json &result)
{
    m_result = result.is_object() ? result : Json::object();
    if (const auto noop = m_result.find("noop"); noop != m_result.end() && noop->is_boolean())
        m_noop = noop->get<bool>();
}

const Json &RunResults::eventAt(int row) const
{
    static const Json none;
    return row >= 0 && std::size_t(row) < m_rows.size() ? m_rows[std::size_t(row)].event : none;
}

Outcome RunResults::outcomeAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_rows.size() ? m_rows[std::size_t(row)].outcome : Outcome::Stable;
}

int RunResults::rowOf(const QString &resource) const
{
    return m_rowOf.value(resource, -1);
}

void RunResults::setStale(bool stale)
{
    if (stale == m_stale)
        return;
    m_stale = stale;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole});
}

Json RunResults::summary() const
{
    if (const auto it = m_result.find("summary"); m_result.is_object() && it != m_result.end() && it->is_object())
        return *it;
    return countsOf(m_stream);
}

QByteArray RunResults::toJson() const
{
    QByteArray out;
    const auto append = [&out](const Json &value) {
        out += QByteArray::fromStdString(value.dump(-1, ' ', false, Json::error_handler_t::replace));
        out += '\n';
    };
    for (const Json &event : m_stream)
        append(event);
    if (m_result.is_object())
        append(m_result);
    return out;
}

QString RunResults::toText() const
{
    QString out;
    const QString when = m_started.isValid() ? m_started.toString(Qt::ISODate) : QString();
    out += (m_noop ? tr("Preview (noop) of %1, %2") : tr("Apply of %1, %2")).arg(m_manifest, when);
    out += QLatin1String("\n\n");

    qsizetype width = 0;
    for (const Row &row : m_rows)
        width = std::max(width, outcomeName(row.outcome, m_noop).size());
    for (const Row &row : m_rows) {
        QString line = outcomeName(row.outcome, m_noop).leftJustified(width) + QLatin1String("  ") + row.resource;
        const QString note = eventNote(row.event);
        if (!note.isEmpty())
            line += QLatin1String("  ") + note;
        out += line.trimmed() + QLatin1Char('\n');
        for (const QString &error : errorsOf(row.event))
            out += QLatin1String("    ") + error + QLatin1Char('\n');
        const auto unmet = row.event.find("unmet_requirements");
        if (unmet != row.event.end() && unmet->is_array() && !unmet->empty()) {
            QStringList names;
            for (const Json &name : *unmet)
                names << (name.is_string() ? QString::fromStdString(name.get<std::string>())
                                           : QString::fromStdString(name.dump()));
            out += QLatin1String("    ") + tr("unmet: %1").arg(names.join(QLatin1String(", "))) + QLatin1Char('\n');
        }
    }

    const Json counts = summary();
    const auto count = [&counts](const char *key) { return QString::number(integerOf(counts, key).value_or(0)); };
    const Json checks = counts.value("checks", Json::object());
    const auto check = [&checks](const char *key) { return QString::number(integerOf(checks, key).value_or(0)); };
    out += QLatin1Char('\n');
    if (counts.contains("run_time"))
        out += QLatin1String("Run time: ")
            + QString::fromStdString(
                formatDuration(std::chrono::nanoseconds(integerOf(counts, "run_time").value_or(0))))
            + QLatin1Char('\n');
    out += QLatin1String("Resources: total=") + count("total") + QLatin1String(" stable=") + count("stable")
        + QLatin1String(" changed=") + count("changed") + QLatin1String(" failed=") + count("failed")
        + QLatin1String(" skipped=") + count("skipped") + QLatin1String(" refreshed=") + count("refreshed")
        + QLatin1String(" unmet_requirements=") + count("unmet_requirements") + QLatin1Char('\n');
    out += QLatin1String("Checked resources: ok=") + check("ok") + QLatin1String(" warning=") + check("warning")
        + QLatin1String(" critical=") + check("critical") + QLatin1String(" unknown=") + check("unknown")
        + QLatin1Char('\n');
    out += QLatin1String("Errors: ") + count("errors") + QLatin1Char('\n');
    if (boolOf(m_result, "cancelled"))
        out += tr("The run was cancelled before its end.") + QLatin1Char('\n');
    else if (boolOf(m_result, "aborted"))
        out += tr("The run stopped after a failure.") + QLatin1Char('\n');
    else if (!isFinished())
        out += tr("The run did not end.") + QLatin1Char('\n');
    return out;
}

FileChanges RunResults::fileChanges(int row) const
{
    return fileChangesOf(eventAt(row));
}

FileChanges fileChangesOf(const Json &event)
{
    FileChanges changes;
    if (!event.is_object() || shownText(event, "type") != QLatin1String("file"))
        return changes;
    changes.diff = shownText(event, "diff");
    const Json properties = event.value("properties", Json::object());
    if (parseEnsure(stringMember(properties, "ensure")) == Ensure::Absent)
        return changes;
    const Json status = event.value("status", Json::object());
    const Json metadata = status.is_object() ? status.value("metadata", Json::object()) : Json::object();
    for (const char *attribute : {"owner", "group", "mode"}) {
        const QString to = shownText(properties, attribute);
        if (to.isEmpty())
            continue;
        const QString from = shownText(metadata, attribute);
        const bool same = qstrcmp(attribute, "mode") == 0 ? sameMode(from, to) : from == to;
        if (!same)
            changes.attributes.append({QString::fromLatin1(attribute), from, to});
    }
    return changes;
}

QString eventNote(const Json &event)
{
    if (!event.is_object())
        return {};
    const QString noopMessage = shownText(event, "noop_message");
    if (!noopMessage.isEmpty() || boolOf(event, "noop") || !boolOf(event, "refreshed"))
        return noopMessage;
    // A real run has no noop message: what made the resource refresh is in refreshed_by.
    std::vector<std::string> causes;
    if (const auto by = event.find("refreshed_by"); by != event.end() && by->is_array()) {
        for (const Json &cause : *by) {
            if (cause.is_string())
                causes.push_back(cause.get<std::string>());
        }
    }
    return causes.empty() ? QString() : QString::fromStdString(refreshText(false, causes));
}

QString eventMessage(const Json &event)
{
    const QStringList errors = errorsOf(event);
    if (!errors.isEmpty())
        return errors.join(QLatin1String("; "));
    return eventNote(event);
}

} // namespace ccm::designer
