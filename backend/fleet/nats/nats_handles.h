// SPDX-License-Identifier: Apache-2.0
// Owning pointers for the cnats objects the fleet code holds: each destroys its object with the
// library's own function when it goes. For the units that use cnats directly.
#pragma once

#include <memory>
#include <nats/nats.h>

namespace ccm::fleet {

/// Destroys an object with the library's function `destroy`.
template<auto destroy> struct NatsDestroyer {
    template<typename T> void operator()(T *object) const { destroy(object); }
};

using NatsMsgPtr = std::unique_ptr<natsMsg, NatsDestroyer<&natsMsg_Destroy>>;
using NatsInboxPtr = std::unique_ptr<natsInbox, NatsDestroyer<&natsInbox_Destroy>>;
using NatsOptionsPtr = std::unique_ptr<natsOptions, NatsDestroyer<&natsOptions_Destroy>>;
using KvStorePtr = std::unique_ptr<kvStore, NatsDestroyer<&kvStore_Destroy>>;
using KvEntryPtr = std::unique_ptr<kvEntry, NatsDestroyer<&kvEntry_Destroy>>;
using StreamInfoPtr = std::unique_ptr<jsStreamInfo, NatsDestroyer<&jsStreamInfo_Destroy>>;

/// Unsubscribes before destroying, so no message arrives for a subscription being destroyed.
struct NatsSubscriptionDeleter {
    void operator()(natsSubscription *subscription) const
    {
        natsSubscription_Unsubscribe(subscription);
        natsSubscription_Destroy(subscription);
    }
};
using NatsSubscriptionPtr = std::unique_ptr<natsSubscription, NatsSubscriptionDeleter>;

} // namespace ccm::fleet
