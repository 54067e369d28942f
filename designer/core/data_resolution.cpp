// SPDX-License-Identifier: Apache-2.0
#include "designer/core/data_resolution.h"

#include "designer/core/json_members.h"

#include <QCoreApplication>

namespace ccm::designer {

namespace {

int intOf(const ccm::Json &object, const char *name, int fallback = 0)
{
    const auto found = object.find(name);
    return found != object.end() && found->is_number_integer() ? found->get<int>() : fallback;
}

const ccm::Json &arrayOf(const ccm::Json &object, const char *name)
{
    static const ccm::Json empty = ccm::Json::array();
    const auto found = object.find(name);
    return found != object.end() && found->is_array() ? *found : empty;
}

DataLayer layerOf(const ccm::Json &key)
{
    DataLayer layer;
    const auto found = key.find("layer");
    if (found == key.end() || !found->is_object())
        return layer;
    const QString kind = stringOf(*found, "kind");
    if (kind == QLatin1String("data"))
        layer.kind = DataLayer::Kind::Data;
    else if (kind == QLatin1String("override"))
        layer.kind = DataLayer::Kind::Override;
    else if (kind == QLatin1String("external"))
        layer.kind = DataLayer::Kind::External;
    layer.entry = intOf(*found, "entry", -1);
    layer.name = stringOf(*found, "name");
    return layer;
}

} // namespace

ccm::Diagnostics diagnosticsFromJson(const ccm::Json &array)
{
    ccm::Diagnostics out;
    if (!array.is_array())
        return out;
    for (const ccm::Json &item : array) {
        if (!item.is_object())
            continue;
        ccm::Diagnostic diagnostic;
        const QString severity = stringOf(item, "severity");
        diagnostic.severity = severity == QLatin1String("warning") ? ccm::Severity::Warning
            : severity == QLatin1String("info")                    ? ccm::Severity::Info
                                                                   : ccm::Severity::Error;
        diagnostic.message = stringOf(item, "message").toStdString();
        diagnostic.path = stringOf(item, "path").toStdString();
        diagnostic.position = {intOf(item, "line"), intOf(item, "column")};
        out.push_back(std::move(diagnostic));
    }
    return out;
}

DataResolution DataResolution::fromJson(const ccm::Json &result)
{
    DataResolution out;
    if (!result.is_object())
        return out;
    if (const auto data = result.find("data"); data != result.end() && data->is_object())
        out.data = *data;
    for (const ccm::Json &key : arrayOf(result, "keys")) {
        if (key.is_object()) {
            out.keys.push_back({stringOf(key, "pointer"), key.value("value", ccm::Json()), layerOf(key),
                intOf(key, "line"), intOf(key, "column")});
        }
    }
    if (const auto hierarchy = result.find("hierarchy"); hierarchy != result.end() && hierarchy->is_object()) {
        out.merge = stringOf(*hierarchy, "merge");
        for (const ccm::Json &entry : arrayOf(*hierarchy, "entries")) {
            if (entry.is_object()) {
                out.entries.push_back(
                    {stringOf(entry, "template"), stringOf(entry, "resolved"), boolOf(entry, "matched"),
                        boolOf(entry, "override_exists"), boolOf(entry, "applied"), stringOf(entry, "error")});
            }
        }
    }
    for (const ccm::Json &suggestion : arrayOf(result, "suggestions")) {
        if (suggestion.is_object())
            out.suggestions.push_back({intOf(suggestion, "entry", -1), stringOf(suggestion, "name")});
    }
    out.diagnostics = diagnosticsFromJson(result.value("diagnostics", ccm::Json()));
    return out;
}

const ResolvedKey *DataResolution::key(const QString &pointer) const
{
    for (const ResolvedKey &candidate : keys) {
        if (candidate.pointer == pointer)
            return &candidate;
    }
    return nullptr;
}

ccm::Diagnostics DataResolution::diagnosticsAt(const QString &pointer) const
{
    ccm::Diagnostics out;
    const std::string path = pointer.toStdString();
    for (const ccm::Diagnostic &diagnostic : diagnostics) {
        if (diagnostic.path == path)
            out.push_back(diagnostic);
    }
    return out;
}

QString describeLayer(const DataLayer &layer)
{
    switch (layer.kind) {
    case DataLayer::Kind::Data:
        return QCoreApplication::translate("DataResolution", "data");
    case DataLayer::Kind::Override:
        return QCoreApplication::translate("DataResolution", "override %1 (entry %2)")
            .arg(layer.name)
            .arg(layer.entry + 1);
    case DataLayer::Kind::External:
        return QCoreApplication::translate("DataResolution", "external");
    case DataLayer::Kind::Unknown:
        break;
    }
    return QCoreApplication::translate("DataResolution", "unknown");
}

} // namespace ccm::designer
