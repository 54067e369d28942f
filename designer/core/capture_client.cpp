// SPDX-License-Identifier: Apache-2.0
#include "designer/core/capture_client.h"

#include <QCoreApplication>

#include <utility>

namespace ccm::designer {
namespace {

/// The translation context of this file's texts.
class CaptureTexts {
    Q_DECLARE_TR_FUNCTIONS(ccm::designer::CaptureClient)
};

/// Reads members of one object of an answer, remembering the first one that is wrong.
class MemberReader {
public:
    MemberReader(const ccm::Json &object, QString where, QString *error)
        : m_object(object)
        , m_where(std::move(where))
        , m_error(error)
    {
    }

    [[nodiscard]] bool ok() const { return m_ok; }

    /// A string member; `required` ones must be there, optional ones read as empty when absent.
    QString text(const char *key, bool required = true)
    {
        const ccm::Json *value = member(key, required);
        if (value == nullptr)
            return {};
        if (!value->is_string()) {
            wrong(key, CaptureTexts::tr("a string"));
            return {};
        }
        return QString::fromStdString(value->get<std::string>());
    }

    bool flag(const char *key, bool required = true)
    {
        const ccm::Json *value = member(key, required);
        if (value == nullptr)
            return false;
        if (!value->is_boolean()) {
            wrong(key, CaptureTexts::tr("true or false"));
            return false;
        }
        return value->get<bool>();
    }

    qint64 number(const char *key, bool required = true)
    {
        const ccm::Json *value = member(key, required);
        if (value == nullptr)
            return 0;
        if (!value->is_number_integer() || value->get<qint64>() < 0) {
            wrong(key, CaptureTexts::tr("a whole number"));
            return 0;
        }
        return value->get<qint64>();
    }

    /// An array member; nullptr (and an error) when missing or not an array.
    const ccm::Json *list(const char *key)
    {
        const ccm::Json *value = member(key, true);
        if (value != nullptr && !value->is_array()) {
            wrong(key, CaptureTexts::tr("a list"));
            return nullptr;
        }
        return value;
    }

private:
    const ccm::Json *member(const char *key, bool required)
    {
        if (!m_ok)
            return nullptr;
        const auto found = m_object.find(key);
        if (found == m_object.end() || (!required && found->is_null())) {
            if (required)
                fail(CaptureTexts::tr("%1 has no %2").arg(m_where, QString::fromLatin1(key)));
            return nullptr;
        }
        return &*found;
    }

    void wrong(const char *key, const QString &expected)
    {
        fail(CaptureTexts::tr("%1.%2 is not %3").arg(m_where, QString::fromLatin1(key), expected));
    }

    void fail(const QString &message)
    {
        if (m_ok && m_error != nullptr)
            *m_error = CaptureTexts::tr("The backend's answer cannot be read: %1").arg(message);
        m_ok = false;
    }

    const ccm::Json &m_object;
    QString m_where;
    QString *m_error;
    bool m_ok = true;
};

/// Reads the array `key` of `result`, each item an object read by `read`.
template<typename T, typename Read>
std::optional<std::vector<T>> readItems(const ccm::Json &result, const char *key, QString *error, Read read)
{
    if (!result.is_object()) {
        *error = CaptureTexts::tr("The backend's answer cannot be read: it is not an object");
        return std::nullopt;
    }
    MemberReader top(result, QStringLiteral("result"), error);
    const ccm::Json *items = top.list(key);
    if (items == nullptr)
        return std::nullopt;
    std::vector<T> out;
    out.reserve(items->size());
    for (std::size_t i = 0; i < items->size(); ++i) {
        const QString where = QStringLiteral("%1[%2]").arg(QString::fromLatin1(key)).arg(i);
        const ccm::Json &item = (*items)[i];
        if (!item.is_object()) {
            *error = CaptureTexts::tr("The backend's answer cannot be read: %1 is not an object").arg(where);
            return std::nullopt;
        }
        MemberReader reader(item, where, error);
        T value = read(reader);
        if (!reader.ok())
            return std::nullopt;
        out.push_back(std::move(value));
    }
    return out;
}

InventoryEntry readEntry(MemberReader &reader)
{
    InventoryEntry entry;
    entry.name = reader.text("name");
    entry.kind = reader.text("kind");
    entry.owner = reader.text("owner");
    entry.group = reader.text("group");
    entry.mode = reader.text("mode");
    entry.size = reader.number("size");
    entry.linkTarget = reader.text("link_target", false);
    entry.readable = reader.flag("readable");
    entry.privateToOwner = reader.flag("private");
    return entry;
}

/// Calls `method` and hands the decoded result, or why there is none, to `done`.
template<typename T, typename Decode>
void callAndDecode(
    BackendClient *client, const QString &method, ccm::Json params, capture::Handler<T> done, Decode decode)
{
    client->call(method, std::move(params),
        [done = std::move(done), decode = std::move(decode)](const BackendClient::Answer &answer) {
            if (!answer.ok) {
                done(std::nullopt, BackendClient::errorText(answer.code, answer.message, answer.data));
                return;
            }
            QString error;
            std::optional<T> value = decode(answer.result, &error);
            done(std::move(value), error);
        });
}

ccm::Json stringList(const QStringList &items)
{
    ccm::Json out = ccm::Json::array();
    for (const QString &item : items)
        out.push_back(item.toStdString());
    return out;
}

} // namespace

ccm::Json CaptureSelection::toParams() const
{
    ccm::Json params = ccm::Json::object();
    const std::pair<const char *, const QStringList *> lists[]
        = {{"packages", &packages}, {"services", &services}, {"files", &files}, {"excludes", &excludes}};
    for (const auto &[key, items] : lists) {
        if (!items->isEmpty())
            params[key] = stringList(*items);
    }
    params["data"] = data;
    params["pin"] = pin;
    params["include_private"] = includePrivate;
    return params;
}

namespace capture {

std::optional<std::vector<InventoryPackage>> packagesFromJson(const ccm::Json &result, QString *error)
{
    return readItems<InventoryPackage>(result, "packages", error, [](MemberReader &reader) {
        InventoryPackage package;
        package.name = reader.text("name");
        package.version = reader.text("version");
        package.arch = reader.text("arch", false);
        package.summary = reader.text("summary", false);
        return package;
    });
}

std::optional<std::vector<InventoryService>> servicesFromJson(const ccm::Json &result, QString *error)
{
    return readItems<InventoryService>(result, "services", error, [](MemberReader &reader) {
        InventoryService service;
        service.name = reader.text("name");
        service.running = reader.flag("running");
        service.enabled = reader.flag("enabled");
        service.activeState = reader.text("active_state", false);
        service.enabledState = reader.text("enabled_state", false);
        service.description = reader.text("description", false);
        service.capturable = reader.flag("capturable");
        service.reason = reader.text("reason", false);
        return service;
    });
}

std::optional<InventoryListing> listingFromJson(const ccm::Json &result, QString *error)
{
    std::optional<std::vector<InventoryEntry>> entries = readItems<InventoryEntry>(result, "entries", error, readEntry);
    if (!entries)
        return std::nullopt;
    MemberReader top(result, QStringLiteral("result"), error);
    InventoryListing listing;
    listing.path = top.text("path");
    listing.truncated = top.flag("truncated", false);
    listing.entries = std::move(*entries);
    if (!top.ok())
        return std::nullopt;
    return listing;
}

std::optional<CaptureAnswer> answerFromJson(const ccm::Json &result, QString *error)
{
    if (!result.is_object()) {
        *error = CaptureTexts::tr("The backend's answer cannot be read: it is not an object");
        return std::nullopt;
    }
    Result<CapturedManifest> capture = captureFromJson(result);
    if (!capture) {
        *error = CaptureTexts::tr("The backend's capture cannot be read: %1")
                     .arg(QString::fromStdString(capture.error().message));
        return std::nullopt;
    }
    MemberReader top(result, QStringLiteral("result"), error);
    CaptureAnswer answer;
    answer.capture = std::move(capture).value();
    answer.yaml = top.text("yaml", false);
    answer.identity = top.text("identity", false);
    if (!top.ok())
        return std::nullopt;
    return answer;
}

void listPackages(BackendClient *client, Handler<std::vector<InventoryPackage>> done)
{
    callAndDecode(
        client, QStringLiteral("host.inventory"), ccm::Json {{"kind", "packages"}}, std::move(done), packagesFromJson);
}

void listServices(BackendClient *client, Handler<std::vector<InventoryService>> done)
{
    callAndDecode(
        client, QStringLiteral("host.inventory"), ccm::Json {{"kind", "services"}}, std::move(done), servicesFromJson);
}

void listDirectory(BackendClient *client, const QString &path, Handler<InventoryListing> done)
{
    callAndDecode(client, QStringLiteral("host.inventory"), ccm::Json {{"kind", "files"}, {"path", path.toStdString()}},
        std::move(done), listingFromJson);
}

void captureHost(BackendClient *client, const CaptureSelection &selection, Handler<CaptureAnswer> done)
{
    callAndDecode(client, QStringLiteral("host.capture"), selection.toParams(), std::move(done), answerFromJson);
}

void captureFleetHost(
    BackendClient *client, const FleetTarget &target, const CaptureSelection &selection, Handler<CaptureAnswer> done)
{
    ccm::Json params = selection.toParams();
    params["host"] = target.host.toStdString();
    params["key"] = target.key.toStdString();
    if (!target.serverUrl.isEmpty())
        params["nats"] = target.serverUrl.toStdString();
    else if (!target.context.isEmpty())
        params["context"] = target.context.toStdString();
    if (target.timeoutMs > 0)
        params["timeout_ms"] = target.timeoutMs;
    callAndDecode(client, QStringLiteral("fleet.capture"), std::move(params), std::move(done), answerFromJson);
}

} // namespace capture

} // namespace ccm::designer
