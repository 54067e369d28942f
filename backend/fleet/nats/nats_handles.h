// SPDX-License-Identifier: Apache-2.0
// Owning pointers for the cnats objects the fleet code holds: each destroys its object with the
// library's own function when it goes. For the units that use cnats directly.
#pragma once

#include "base/c_handle.h"

#include <nats/nats.h>

namespace ccm::fleet {

using NatsMsgPtr = CHandle<natsMsg, natsMsg_Destroy>;
using NatsInboxPtr = CHandle<natsInbox, natsInbox_Destroy>;
using NatsOptionsPtr = CHandle<natsOptions, natsOptions_Destroy>;
using JsCtxPtr = CHandle<jsCtx, jsCtx_Destroy>;
using KvStorePtr = CHandle<kvStore, kvStore_Destroy>;
using KvEntryPtr = CHandle<kvEntry, kvEntry_Destroy>;
using KvWatcherPtr = CHandle<kvWatcher, kvWatcher_Destroy>;
using StreamInfoPtr = CHandle<jsStreamInfo, jsStreamInfo_Destroy>;

/// Unsubscribes before destroying, so no message arrives for a subscription being destroyed.
inline void unsubscribeAndDestroy(natsSubscription *subscription)
{
    natsSubscription_Unsubscribe(subscription);
    natsSubscription_Destroy(subscription);
}
using NatsSubscriptionPtr = CHandle<natsSubscription, unsubscribeAndDestroy>;

} // namespace ccm::fleet
