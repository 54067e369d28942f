// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/object_url.h"

#include "fleet/nats/nats_connection.h"

namespace ccm::fleet {
namespace {

constexpr std::string_view kObjectScheme = "obj://";

} // namespace

bool isObjectUrl(const std::string &text)
{
    return text.starts_with(kObjectScheme);
}

Result<ObjectUrl> parseObjectUrl(const std::string &text)
{
    const Error bad {"bad_url", "invalid object URL '" + text + "': expected obj://BUCKET/KEY"};
    if (!isObjectUrl(text))
        return bad;
    const std::string rest = text.substr(kObjectScheme.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == rest.size())
        return bad;
    return ObjectUrl {rest.substr(0, slash), rest.substr(slash + 1)};
}

Result<ObjectInfo> downloadObject(
    const std::string &url, const NatsSettings &settings, const std::filesystem::path &destination)
{
    auto parsed = parseObjectUrl(url);
    if (!parsed)
        return parsed.error();
    auto connection = NatsConnection::connect(settings);
    if (!connection)
        return connection.error().withContext("fetching " + url);
    auto store = ObjectStore::open(*connection.value(), parsed->bucket);
    if (!store)
        return store.error().withContext("fetching " + url);
    auto fetched = store.value().getToFile(parsed->key, destination);
    if (!fetched)
        return fetched.error().withContext("fetching " + url);
    return fetched;
}

} // namespace ccm::fleet
