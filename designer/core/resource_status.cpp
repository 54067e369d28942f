// SPDX-License-Identifier: Apache-2.0
#include "designer/core/resource_status.h"

#include <QCryptographicHash>

#include <optional>

namespace ccm::designer {

namespace {

/// Values longer than this are cut in a tooltip or a detail line.
constexpr qsizetype kMaxHostValueChars = 80;

/// The translation context of this file's texts.
class Texts {
    Q_DECLARE_TR_FUNCTIONS(ccm::designer::ResourceStatus)
};

QString statusText(const ccm::Json &object, const char *key, QString *problem)
{
    const auto found = object.find(key);
    if (found == object.end() || found->is_null())
        return {};
    if (!found->is_string()) {
        *problem = Texts::tr("its %1 is not a string").arg(QLatin1String(key));
        return {};
    }
    return QString::fromStdString(found->get<std::string>());
}

/// The differences member: a list of {property, current, wanted}; entries without a property name
/// say nothing a form could mark and are left out.
std::vector<HostDifference> differencesOf(const ccm::Json &result, QString *problem)
{
    std::vector<HostDifference> differences;
    const auto found = result.find("differences");
    if (found == result.end() || found->is_null())
        return differences;
    if (!found->is_array()) {
        *problem = Texts::tr("its differences are not a list");
        return differences;
    }
    for (const ccm::Json &entry : *found) {
        if (!entry.is_object() || !entry.contains("property") || !entry["property"].is_string())
            continue;
        differences.push_back({QString::fromStdString(entry["property"].get<std::string>()),
            entry.value("current", ccm::Json()), entry.value("wanted", ccm::Json())});
    }
    return differences;
}

/// The notes member: a list of strings; other entries are left out.
QStringList notesOf(const ccm::Json &result, QString *problem)
{
    QStringList notes;
    const auto found = result.find("notes");
    if (found == result.end() || found->is_null())
        return notes;
    if (!found->is_array()) {
        *problem = Texts::tr("its notes are not a list");
        return notes;
    }
    for (const ccm::Json &note : *found) {
        if (note.is_string() && !note.get_ref<const std::string &>().empty())
            notes.append(QString::fromStdString(note.get<std::string>()));
    }
    return notes;
}

/// A mode as a number: octal digits in a string ("0644", "644") or the digits of a number as
/// written in YAML (644).
std::optional<int> octalModeOf(const ccm::Json &value)
{
    QString text;
    if (value.is_string())
        text = QString::fromStdString(value.get<std::string>());
    else if (value.is_number_unsigned() || value.is_number_integer())
        text = QString::number(value.get<long long>());
    else
        return std::nullopt;
    bool ok = false;
    const int mode = text.toInt(&ok, 8);
    return ok && !text.isEmpty() ? std::optional<int>(mode) : std::nullopt;
}

QString hostScalarText(const ccm::Json &value)
{
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString::fromStdString(value.dump());
}

} // namespace

ResourceStatus ResourceStatus::fromJson(const ccm::Json &result)
{
    ResourceStatus status;
    if (!result.is_object()) {
        status.reason = Texts::tr("The backend's answer is not an object.");
        return status;
    }
    QString problem;
    const auto supported = result.find("supported");
    if (supported == result.end() || !supported->is_boolean())
        problem = Texts::tr("it does not say whether the state can be told");
    status.reason = statusText(result, "reason", &problem);
    status.summary = statusText(result, "summary", &problem);
    if (const auto state = result.find("state"); state != result.end() && state->is_object())
        status.state = *state;
    status.differences = differencesOf(result, &problem);
    status.notes = notesOf(result, &problem);
    if (!problem.isEmpty()) {
        status = ResourceStatus();
        status.reason = Texts::tr("The backend's answer cannot be read: %1.").arg(problem);
        return status;
    }
    status.supported = supported->get<bool>();
    return status;
}

bool sameHostValue(const QString &property, const ccm::Json &formValue, const ccm::Json &hostValue)
{
    if (formValue == hostValue)
        return true;
    if (formValue.is_null() || hostValue.is_null() || formValue.is_structured() || hostValue.is_structured())
        return false;
    // A content the backend describes by its checksum.
    static const QString checksumPrefix = QStringLiteral("sha256:");
    if (formValue.is_string() && hostValue.is_string()) {
        const QString host = QString::fromStdString(hostValue.get<std::string>());
        if (host.startsWith(checksumPrefix)) {
            const QByteArray content = QByteArray::fromStdString(formValue.get<std::string>());
            return QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex()
                == host.mid(checksumPrefix.size()).toLatin1();
        }
    }
    if (property == QLatin1String("mode")) {
        const auto form = octalModeOf(formValue);
        const auto host = octalModeOf(hostValue);
        if (form && host)
            return *form == *host;
    }
    return hostScalarText(formValue) == hostScalarText(hostValue);
}

bool holdsTemplate(const ccm::Json &value)
{
    return value.is_string() && value.get_ref<const std::string &>().find("{{") != std::string::npos;
}

QString hostValueText(const ccm::Json &value)
{
    if (value.is_null())
        return Texts::tr("nothing");
    QString text = hostScalarText(value).simplified();
    if (text.size() > kMaxHostValueChars)
        text = text.left(kMaxHostValueChars - 1) + QChar(0x2026);
    return text;
}

} // namespace ccm::designer
