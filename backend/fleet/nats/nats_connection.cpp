// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/nats_connection.h"

#include "base/file_reading.h"
#include "base/library_check.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/nats/nkey.h"

#include <algorithm>
#include <cstdlib>
#include <nats/nats.h>
#include <utility>

namespace ccm::fleet {
namespace {

constexpr const char *kDefaultUrl = "nats://127.0.0.1:4222";
constexpr std::size_t kMaxSeedFileBytes = 64 * 1024;

std::string lastErrorText(natsStatus status)
{
    natsStatus last = NATS_OK;
    const char *text = nats_GetLastError(&last);
    if (!text || !*text)
        return natsStatus_GetText(status);
    // cnats prefixes its messages with the source position, "(conn.c:2088): ", which means
    // nothing to a user.
    std::string message = text;
    if (message.starts_with('(')) {
        const std::size_t end = message.find("): ");
        if (end != std::string::npos)
            message.erase(0, end + 3);
    }
    return message;
}

/// Applies the credentials and TLS settings; the error names the setting that failed.
Result<void> applySettings(natsOptions *options, const NatsSettings &settings)
{
    auto failed = [&](const std::string &what, natsStatus status) {
        return Error {"bad_settings", what + " (from " + settings.source + "): " + lastErrorText(status)};
    };
    if (!settings.user.empty() || !settings.password.empty()) {
        if (natsStatus s = natsOptions_SetUserInfo(options, settings.user.c_str(), settings.password.c_str());
            s != NATS_OK)
            return failed("cannot use the user and password", s);
    }
    if (!settings.token.empty()) {
        if (natsStatus s = natsOptions_SetToken(options, settings.token.c_str()); s != NATS_OK)
            return failed("cannot use the token", s);
    }
    if (!settings.creds.empty()) {
        // cnats reads the file only when connecting and then reports a bare I/O error.
        if (auto readable = readTextFile(settings.creds, kMaxSeedFileBytes); !readable)
            return Error {
                "bad_settings", "credentials file (from " + settings.source + "): " + readable.error().message};
        if (natsStatus s = natsOptions_SetUserCredentialsFromFiles(options, settings.creds.c_str(), nullptr);
            s != NATS_OK)
            return failed("cannot use the credentials file " + settings.creds, s);
    }
    if (!settings.nkey.empty()) {
        auto seed = readTextFile(settings.nkey, kMaxSeedFileBytes);
        if (!seed)
            return Error {"bad_settings", "NKey seed file (from " + settings.source + "): " + seed.error().message};
        auto publicKey = nkeyUserPublicKey(seed.value());
        if (!publicKey)
            return Error {"bad_settings",
                "NKey seed file " + settings.nkey + " (from " + settings.source + "): " + publicKey.error().message};
        if (natsStatus s = natsOptions_SetNKeyFromSeed(options, publicKey->c_str(), settings.nkey.c_str());
            s != NATS_OK)
            return failed("cannot use the NKey seed file " + settings.nkey, s);
    }
    if (!settings.ca.empty()) {
        if (natsStatus s = natsOptions_LoadCATrustedCertificates(options, settings.ca.c_str()); s != NATS_OK)
            return failed("cannot load the CA certificates " + settings.ca, s);
        natsOptions_SetSecure(options, true);
    }
    if (!settings.cert.empty() || !settings.key.empty()) {
        if (settings.cert.empty() || settings.key.empty())
            return Error {
                "bad_settings", "a TLS client certificate needs both cert and key (from " + settings.source + ")"};
        if (natsStatus s = natsOptions_LoadCertificatesChain(options, settings.cert.c_str(), settings.key.c_str());
            s != NATS_OK)
            return failed("cannot load the client certificate " + settings.cert + " and key " + settings.key, s);
        natsOptions_SetSecure(options, true);
    }
    return {};
}

} // namespace

std::vector<std::string> splitServerList(const std::string &list)
{
    std::vector<std::string> urls;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = list.find(',', start);
        std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::size_t first = item.find_first_not_of(" \t");
        const std::size_t last = item.find_last_not_of(" \t");
        urls.push_back(first == std::string::npos ? std::string() : item.substr(first, last - first + 1));
        if (comma == std::string::npos)
            return urls;
        start = comma + 1;
    }
}

namespace {

/// Hands the server list to `options` as cnats' server pool, each URL checked on its own first so
/// that the error names the one that is wrong.
Result<void> applyServers(natsOptions *options, const std::vector<std::string> &urls, const NatsSettings &settings)
{
    std::vector<const char *> pointers;
    for (std::size_t i = 0; i < urls.size(); ++i) {
        const std::string &url = urls[i];
        if (url.empty())
            return Error {"bad_settings",
                "the NATS server list '" + settings.url + "' (from " + settings.source
                    + ") has an empty URL at position " + std::to_string(i + 1) + "; separate URLs with single commas"};
        const char *one = url.c_str();
        if (natsStatus s = natsOptions_SetServers(options, &one, 1); s != NATS_OK)
            return Error {
                "bad_settings", "invalid NATS URL '" + url + "' (from " + settings.source + "): " + lastErrorText(s)};
        pointers.push_back(url.c_str());
    }
    if (natsStatus s = natsOptions_SetServers(options, pointers.data(), static_cast<int>(pointers.size()));
        s != NATS_OK)
        return Error {"bad_settings",
            "invalid NATS server list '" + settings.url + "' (from " + settings.source + "): " + lastErrorText(s)};
    return {};
}

/// The error for a failed natsConnection_Connect to `servers` (the URL or the list, as given).
Error connectError(natsStatus status, const std::string &servers, bool several, const NatsSettings &settings)
{
    const std::string detail = lastErrorText(status);
    const std::string where
        = (several ? "NATS servers " : "NATS server ") + servers + " (from " + settings.source + ")";
    if (status == NATS_CONNECTION_AUTH_FAILED || status == NATS_NOT_PERMITTED
        || detail.find("uthorization") != std::string::npos)
        return makeError(NatsErrc::AuthFailed,
            where + " refused the credentials: " + detail
                + "; check the user, password, token, creds or nkey of the context");
    if (status == NATS_NO_SERVER || status == NATS_TIMEOUT || status == NATS_IO_ERROR)
        return makeError(NatsErrc::Unreachable,
            "cannot reach the " + where + ": " + detail
                + (several ? "; none of them answers: check that at least one runs and the URLs are right"
                           : "; check that the server runs and the URL is right"));
    const bool tls = !settings.ca.empty() || !settings.cert.empty() || servers.find("tls://") != std::string::npos;
    if (status == NATS_SSL_ERROR || tls)
        return makeError(NatsErrc::TlsFailed,
            "cannot connect to the " + where + " over TLS: " + detail
                + "; check the context's ca (the CA that signed the server's certificate)"
                  " and, when the server verifies clients, its cert and key");
    return makeError(NatsErrc::Nats, "cannot connect to the " + where + ": " + detail);
}

std::string connectedUrl(natsConnection *connection, const std::string &fallback)
{
    char buffer[512] = {};
    if (natsConnection_GetConnectedUrl(connection, buffer, sizeof buffer) != NATS_OK || buffer[0] == '\0')
        return fallback;
    return buffer;
}

} // namespace

Result<std::unique_ptr<NatsConnection>> NatsConnection::connect(const NatsSettings &settings, int waitMs)
{
    if (auto loaded = requireLibrary(lazy::libnats); !loaded)
        return loaded.error();
    const std::vector<std::string> urls
        = splitServerList(settings.url.empty() ? std::string(kDefaultUrl) : settings.url);
    std::string servers;
    for (const std::string &url : urls)
        servers += (servers.empty() ? "" : ",") + url;
    natsOptions *rawOptions = nullptr;
    if (natsStatus s = natsOptions_Create(&rawOptions); s != NATS_OK)
        return makeError(NatsErrc::Nats, "cannot set up a NATS connection: " + lastErrorText(s));
    const NatsOptionsPtr options(rawOptions);

    if (auto applied = applyServers(options.get(), urls, settings); !applied)
        return applied.error();
    natsOptions_SetName(options.get(), "ccm-backend");
    natsOptions_SetTimeout(options.get(), waitMs);
    // A command works on one connection for a short while: a broken one is an error to report,
    // not something to hide behind reconnection attempts. Connecting still tries every server of
    // the list.
    natsOptions_SetAllowReconnect(options.get(), false);
    if (auto applied = applySettings(options.get(), settings); !applied)
        return applied.error();

    natsConnection *connection = nullptr;
    const natsStatus status = natsConnection_Connect(&connection, options.get());
    if (status != NATS_OK)
        return connectError(status, servers, urls.size() > 1, settings);

    const std::string url = connectedUrl(connection, urls.front());
    jsOptions jetStreamOptions;
    jsOptions_Init(&jetStreamOptions);
    jetStreamOptions.Wait = waitMs;
    jsCtx *jetStream = nullptr;
    if (natsStatus s = natsConnection_JetStream(&jetStream, connection, &jetStreamOptions); s != NATS_OK) {
        natsConnection_Destroy(connection);
        return makeError(NatsErrc::Nats, "cannot set up JetStream on " + url + ": " + lastErrorText(s));
    }
    auto made = std::unique_ptr<NatsConnection>(new NatsConnection(connection, jetStream, url, waitMs));
    made->m_settings = settings;
    made->m_serverCount = urls.size();
    return made;
}

NatsConnection::NatsConnection(natsConnection *connection, jsCtx *jetStream, std::string url, int waitMs)
    : m_connection(connection)
    , m_jetStream(jetStream)
    , m_url(std::move(url))
    , m_waitMs(waitMs)
{
}

NatsConnection::~NatsConnection()
{
    jsCtx_Destroy(m_jetStream);
    natsConnection_Close(m_connection);
    natsConnection_Destroy(m_connection);
}

std::int64_t NatsConnection::maxPayload() const
{
    return natsConnection_GetMaxPayload(m_connection);
}

namespace {

/// The distinct servers of `connection`'s pool: the URLs it was given and those the server's INFO
/// named.
int poolSize(natsConnection *connection)
{
    char **servers = nullptr;
    int count = 0;
    if (natsConnection_GetServers(connection, &servers, &count) != NATS_OK || servers == nullptr)
        return 1;
    std::vector<std::string> distinct;
    for (int i = 0; i < count; ++i) {
        if (std::find(distinct.begin(), distinct.end(), servers[i]) == distinct.end())
            distinct.emplace_back(servers[i]);
        free(servers[i]); // NOLINT(cppcoreguidelines-no-malloc): cnats allocates them with malloc
    }
    free(servers); // NOLINT(cppcoreguidelines-no-malloc)
    return std::max(1, static_cast<int>(distinct.size()));
}

} // namespace

int NatsConnection::clusterSize() const
{
    if (m_serverCount <= 1)
        return poolSize(m_connection);
    NatsSettings alone = m_settings;
    alone.url = m_url;
    auto probe = connect(alone, m_waitMs);
    return probe ? poolSize(probe.value()->connection()) : poolSize(m_connection);
}

Error jetStreamError(const NatsConnection &connection, const std::string &what, int status, int jsErrorCode)
{
    if (status == NATS_NO_RESPONDERS || jsErrorCode == JSNotEnabledErr || jsErrorCode == JSNotEnabledForAccountErr)
        return makeError(NatsErrc::NoJetStream,
            "the NATS server " + connection.url()
                + " has no JetStream for this account; start nats-server with -js or enable"
                  " jetstream in its configuration (in a cluster or behind a leaf node, the servers holding"
                  " it may also be out of reach for now: a stream electing its leader, or the leaf's link to"
                  " the hub down)");
    std::string text = lastErrorText(static_cast<natsStatus>(status));
    if (status == NATS_TIMEOUT)
        text += " (no answer within " + std::to_string(connection.waitMs()) + " ms)";
    return makeError(NatsErrc::Nats, what + " on " + connection.url() + ": " + text);
}

} // namespace ccm::fleet
