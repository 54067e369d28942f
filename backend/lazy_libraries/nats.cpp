// SPDX-License-Identifier: Apache-2.0
// The libnats (cnats) functions backend/fleet calls: publish, the agent, previews, obj://, kv://.
#include "lazy_libraries/lazy_library.h"

#include <cstdint>
#include <nats/nats.h>

namespace ccm::lazy {
LazyLibrary libnats(CCM_NATS_SONAME,
    "the fleet commands (publish, agent, fleet, registration), obj:// and kv:// sources, kvGet and registrations need");
}
using ccm::lazy::libnats;

// None of them is variadic or returns a struct; the message handler natsConnection_Subscribe takes
// is a plain function pointer the library calls on its own threads, passed through as it is.
#define CCM_NATS_FUNCTION(result, name, parameters, arguments)                                                         \
    CCM_LAZY_FUNCTION(libnats, result, name, parameters, arguments)

// Errors. nats_GetLastError reports the last failure of the calling thread, which forwarding keeps.
CCM_NATS_FUNCTION(const char *, natsStatus_GetText, (natsStatus status), (status))
CCM_NATS_FUNCTION(const char *, nats_GetLastError, (natsStatus * status), (status))

// Connection options: server, credentials, TLS
CCM_NATS_FUNCTION(natsStatus, natsOptions_Create, (natsOptions * *options), (options))
CCM_NATS_FUNCTION(void, natsOptions_Destroy, (natsOptions * options), (options))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetURL, (natsOptions * options, const char *url), (options, url))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetServers, (natsOptions * options, const char **servers, int count),
    (options, servers, count))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetName, (natsOptions * options, const char *name), (options, name))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetTimeout, (natsOptions * options, std::int64_t timeout), (options, timeout))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetAllowReconnect, (natsOptions * options, bool allow), (options, allow))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetUserInfo, (natsOptions * options, const char *user, const char *password),
    (options, user, password))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetToken, (natsOptions * options, const char *token), (options, token))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetUserCredentialsFromFiles,
    (natsOptions * options, const char *userOrChainedFile, const char *seedFile),
    (options, userOrChainedFile, seedFile))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetNKeyFromSeed,
    (natsOptions * options, const char *publicKey, const char *seedFile), (options, publicKey, seedFile))
CCM_NATS_FUNCTION(natsStatus, natsOptions_SetSecure, (natsOptions * options, bool secure), (options, secure))
CCM_NATS_FUNCTION(natsStatus, natsOptions_LoadCATrustedCertificates, (natsOptions * options, const char *fileName),
    (options, fileName))
CCM_NATS_FUNCTION(natsStatus, natsOptions_LoadCertificatesChain,
    (natsOptions * options, const char *certificatesFile, const char *keyFile), (options, certificatesFile, keyFile))

// Connections
CCM_NATS_FUNCTION(
    natsStatus, natsConnection_Connect, (natsConnection * *connection, natsOptions *options), (connection, options))
CCM_NATS_FUNCTION(void, natsConnection_Close, (natsConnection * connection), (connection))
CCM_NATS_FUNCTION(void, natsConnection_Destroy, (natsConnection * connection), (connection))
CCM_NATS_FUNCTION(natsConnStatus, natsConnection_Status, (natsConnection * connection), (connection))
CCM_NATS_FUNCTION(std::int64_t, natsConnection_GetMaxPayload, (natsConnection * connection), (connection))
CCM_NATS_FUNCTION(natsStatus, natsConnection_GetConnectedUrl,
    (natsConnection * connection, char *buffer, std::size_t bufferSize), (connection, buffer, bufferSize))
CCM_NATS_FUNCTION(natsStatus, natsConnection_GetServers, (natsConnection * connection, char ***servers, int *count),
    (connection, servers, count))
CCM_NATS_FUNCTION(natsStatus, natsConnection_Flush, (natsConnection * connection), (connection))
CCM_NATS_FUNCTION(
    natsStatus, natsConnection_FlushTimeout, (natsConnection * connection, std::int64_t timeout), (connection, timeout))
CCM_NATS_FUNCTION(natsStatus, natsConnection_Publish,
    (natsConnection * connection, const char *subject, const void *data, int dataLength),
    (connection, subject, data, dataLength))
CCM_NATS_FUNCTION(
    natsStatus, natsConnection_PublishMsg, (natsConnection * connection, natsMsg *message), (connection, message))
CCM_NATS_FUNCTION(natsStatus, natsConnection_Subscribe,
    (natsSubscription * *subscription, natsConnection *connection, const char *subject, natsMsgHandler handler,
        void *closure),
    (subscription, connection, subject, handler, closure))
CCM_NATS_FUNCTION(natsStatus, natsConnection_SubscribeSync,
    (natsSubscription * *subscription, natsConnection *connection, const char *subject),
    (subscription, connection, subject))

// Subscriptions
CCM_NATS_FUNCTION(natsStatus, natsSubscription_NextMsg,
    (natsMsg * *message, natsSubscription *subscription, std::int64_t timeout), (message, subscription, timeout))
CCM_NATS_FUNCTION(natsStatus, natsSubscription_SetPendingLimits,
    (natsSubscription * subscription, int messageLimit, int bytesLimit), (subscription, messageLimit, bytesLimit))
CCM_NATS_FUNCTION(natsStatus, natsSubscription_Unsubscribe, (natsSubscription * subscription), (subscription))
CCM_NATS_FUNCTION(natsStatus, natsSubscription_Drain, (natsSubscription * subscription), (subscription))
CCM_NATS_FUNCTION(natsStatus, natsSubscription_WaitForDrainCompletion,
    (natsSubscription * subscription, std::int64_t timeout), (subscription, timeout))
CCM_NATS_FUNCTION(void, natsSubscription_Destroy, (natsSubscription * subscription), (subscription))

// Messages and reply inboxes
CCM_NATS_FUNCTION(natsStatus, natsMsg_Create,
    (natsMsg * *message, const char *subject, const char *reply, const char *data, int dataLength),
    (message, subject, reply, data, dataLength))
CCM_NATS_FUNCTION(void, natsMsg_Destroy, (natsMsg * message), (message))
CCM_NATS_FUNCTION(const char *, natsMsg_GetSubject, (const natsMsg *message), (message))
CCM_NATS_FUNCTION(const char *, natsMsg_GetReply, (const natsMsg *message), (message))
CCM_NATS_FUNCTION(const char *, natsMsg_GetData, (const natsMsg *message), (message))
CCM_NATS_FUNCTION(int, natsMsg_GetDataLength, (const natsMsg *message), (message))
CCM_NATS_FUNCTION(
    natsStatus, natsMsgHeader_Set, (natsMsg * message, const char *key, const char *value), (message, key, value))
CCM_NATS_FUNCTION(
    natsStatus, natsMsgHeader_Get, (natsMsg * message, const char *key, const char **value), (message, key, value))
CCM_NATS_FUNCTION(natsStatus, natsConnection_Request,
    (natsMsg * *reply, natsConnection *connection, const char *subject, const void *data, int dataLength,
        std::int64_t timeout),
    (reply, connection, subject, data, dataLength, timeout))
CCM_NATS_FUNCTION(natsStatus, natsInbox_Create, (natsInbox * *inbox), (inbox))
CCM_NATS_FUNCTION(void, natsInbox_Destroy, (natsInbox * inbox), (inbox))

// JetStream: streams, publishing, reading back (the object store is written on these)
CCM_NATS_FUNCTION(natsStatus, natsConnection_JetStream,
    (jsCtx * *context, natsConnection *connection, jsOptions *options), (context, connection, options))
CCM_NATS_FUNCTION(void, jsCtx_Destroy, (jsCtx * context), (context))
CCM_NATS_FUNCTION(natsStatus, jsOptions_Init, (jsOptions * options), (options))
CCM_NATS_FUNCTION(natsStatus, jsStreamConfig_Init, (jsStreamConfig * config), (config))
CCM_NATS_FUNCTION(natsStatus, jsSubOptions_Init, (jsSubOptions * options), (options))
CCM_NATS_FUNCTION(natsStatus, js_AddStream,
    (jsStreamInfo * *info, jsCtx *context, jsStreamConfig *config, jsOptions *options, jsErrCode *error),
    (info, context, config, options, error))
CCM_NATS_FUNCTION(natsStatus, js_UpdateStream,
    (jsStreamInfo * *info, jsCtx *context, jsStreamConfig *config, jsOptions *options, jsErrCode *error),
    (info, context, config, options, error))
CCM_NATS_FUNCTION(natsStatus, js_GetStreamInfo,
    (jsStreamInfo * *info, jsCtx *context, const char *stream, jsOptions *options, jsErrCode *error),
    (info, context, stream, options, error))
CCM_NATS_FUNCTION(void, jsStreamInfo_Destroy, (jsStreamInfo * info), (info))
CCM_NATS_FUNCTION(natsStatus, js_PurgeStream,
    (jsCtx * context, const char *stream, jsOptions *options, jsErrCode *error), (context, stream, options, error))
CCM_NATS_FUNCTION(natsStatus, js_Publish,
    (jsPubAck * *ack, jsCtx *context, const char *subject, const void *data, int dataLength, jsPubOptions *options,
        jsErrCode *error),
    (ack, context, subject, data, dataLength, options, error))
CCM_NATS_FUNCTION(natsStatus, js_PublishMsg,
    (jsPubAck * *ack, jsCtx *context, natsMsg *message, jsPubOptions *options, jsErrCode *error),
    (ack, context, message, options, error))
CCM_NATS_FUNCTION(natsStatus, js_GetLastMsg,
    (natsMsg * *message, jsCtx *context, const char *stream, const char *subject, jsOptions *options, jsErrCode *error),
    (message, context, stream, subject, options, error))
CCM_NATS_FUNCTION(natsStatus, js_SubscribeSync,
    (natsSubscription * *subscription, jsCtx *context, const char *subject, jsOptions *options,
        jsSubOptions *subscribeOptions, jsErrCode *error),
    (subscription, context, subject, options, subscribeOptions, error))
CCM_NATS_FUNCTION(natsStatus, natsMsg_GetMetaData, (jsMsgMetaData * *metaData, natsMsg *message), (metaData, message))
CCM_NATS_FUNCTION(void, jsMsgMetaData_Destroy, (jsMsgMetaData * metaData), (metaData))

// Key-value buckets
CCM_NATS_FUNCTION(natsStatus, kvConfig_Init, (kvConfig * config), (config))
CCM_NATS_FUNCTION(
    natsStatus, js_CreateKeyValue, (kvStore * *store, jsCtx *context, kvConfig *config), (store, context, config))
CCM_NATS_FUNCTION(
    natsStatus, js_KeyValue, (kvStore * *store, jsCtx *context, const char *bucket), (store, context, bucket))
CCM_NATS_FUNCTION(void, kvStore_Destroy, (kvStore * store), (store))
CCM_NATS_FUNCTION(natsStatus, kvStore_Get, (kvEntry * *entry, kvStore *store, const char *key), (entry, store, key))
CCM_NATS_FUNCTION(natsStatus, kvStore_Put,
    (std::uint64_t * revision, kvStore *store, const char *key, const void *data, int length),
    (revision, store, key, data, length))
CCM_NATS_FUNCTION(
    natsStatus, kvStore_Keys, (kvKeysList * list, kvStore *store, kvWatchOptions *options), (list, store, options))
CCM_NATS_FUNCTION(void, kvKeysList_Destroy, (kvKeysList * list), (list))
CCM_NATS_FUNCTION(natsStatus, kvWatchOptions_Init, (kvWatchOptions * options), (options))
CCM_NATS_FUNCTION(natsStatus, kvStore_WatchAll, (kvWatcher * *watcher, kvStore *store, kvWatchOptions *options),
    (watcher, store, options))
CCM_NATS_FUNCTION(
    natsStatus, kvWatcher_Next, (kvEntry * *entry, kvWatcher *watcher, std::int64_t timeout), (entry, watcher, timeout))
CCM_NATS_FUNCTION(void, kvWatcher_Destroy, (kvWatcher * watcher), (watcher))
CCM_NATS_FUNCTION(const char *, kvEntry_Key, (kvEntry * entry), (entry))
CCM_NATS_FUNCTION(const void *, kvEntry_Value, (kvEntry * entry), (entry))
CCM_NATS_FUNCTION(int, kvEntry_ValueLen, (kvEntry * entry), (entry))
CCM_NATS_FUNCTION(void, kvEntry_Destroy, (kvEntry * entry), (entry))
CCM_NATS_FUNCTION(std::uint64_t, kvEntry_Revision, (kvEntry * entry), (entry))
CCM_NATS_FUNCTION(natsStatus, kvStore_Delete, (kvStore * store, const char *key), (store, key))
CCM_NATS_FUNCTION(natsStatus, kvStore_Create,
    (std::uint64_t * revision, kvStore *store, const char *key, const void *data, int length),
    (revision, store, key, data, length))
CCM_NATS_FUNCTION(natsStatus, kvStore_Update,
    (std::uint64_t * revision, kvStore *store, const char *key, const void *data, int length, std::uint64_t last),
    (revision, store, key, data, length, last))
