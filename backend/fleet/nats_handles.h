// SPDX-License-Identifier: Apache-2.0
// Owning pointers for the cnats objects the fleet code holds: each destroys its object with the
// library's own function when it goes. For the units that use cnats directly.
#pragma once

#include <memory>
#include <nats/nats.h>

namespace ccm::fleet {

struct NatsMsgDeleter {
    void operator()(natsMsg *message) const { natsMsg_Destroy(message); }
};
using NatsMsgPtr = std::unique_ptr<natsMsg, NatsMsgDeleter>;

/// Unsubscribes before destroying, so no message arrives for a subscription being destroyed.
struct NatsSubscriptionDeleter {
    void operator()(natsSubscription *subscription) const
    {
        natsSubscription_Unsubscribe(subscription);
        natsSubscription_Destroy(subscription);
    }
};
using NatsSubscriptionPtr = std::unique_ptr<natsSubscription, NatsSubscriptionDeleter>;

struct NatsInboxDeleter {
    void operator()(natsInbox *inbox) const { natsInbox_Destroy(inbox); }
};
using NatsInboxPtr = std::unique_ptr<natsInbox, NatsInboxDeleter>;

struct NatsOptionsDeleter {
    void operator()(natsOptions *options) const { natsOptions_Destroy(options); }
};
using NatsOptionsPtr = std::unique_ptr<natsOptions, NatsOptionsDeleter>;

struct KvStoreDeleter {
    void operator()(kvStore *store) const { kvStore_Destroy(store); }
};
using KvStorePtr = std::unique_ptr<kvStore, KvStoreDeleter>;

struct KvEntryDeleter {
    void operator()(kvEntry *entry) const { kvEntry_Destroy(entry); }
};
using KvEntryPtr = std::unique_ptr<kvEntry, KvEntryDeleter>;

struct StreamInfoDeleter {
    void operator()(jsStreamInfo *info) const { jsStreamInfo_Destroy(info); }
};
using StreamInfoPtr = std::unique_ptr<jsStreamInfo, StreamInfoDeleter>;

} // namespace ccm::fleet
