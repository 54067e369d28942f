// SPDX-License-Identifier: Apache-2.0
// Publishing a rollout's releases to its rings through the bucket's release history.
#include "fleet/rollout/rollout_publisher.h"

#include "fleet/nats/nats_errors.h"
#include "fleet/release/release_store.h"

namespace ccm::fleet {
namespace {

class HistoryPublisher final : public ReleasePublisher {
public:
    explicit HistoryPublisher(ReleaseStore store)
        : m_store(std::move(store))
    {
    }

    Result<KeptRelease> keep(const std::filesystem::path &bundle, const std::string &signer) override
    {
        m_signer = signer;
        auto kept = m_store.keep(bundle);
        if (!kept)
            return kept.error();
        return KeptRelease {kept->digest, kept->size};
    }

    /// Keeps what the ring holds now; a bundle put there without a release (by hand, by another
    /// tool) is recorded as one, so that it can be rolled back to like any other.
    Result<std::string> snapshot(const std::string &name) override
    {
        auto digest = m_store.snapshot(name);
        if (!digest || digest->empty())
            return digest;
        auto known = m_store.find(name, *digest);
        if (!known)
            return known.error();
        if (known->has_value())
            return digest;
        auto info = m_store.objects().info(name);
        if (!info)
            return info.error();
        Release found;
        found.name = name;
        found.bucket = m_store.bucket();
        found.digest = *digest;
        found.size = info->size;
        found.time = std::chrono::system_clock::now();
        found.publisher = processOwner();
        found.message = "found in place when a rollout first changed " + name;
        if (auto recorded = m_store.record(found); !recorded)
            return recorded.error();
        return digest;
    }

    Result<void> publish(const std::string &name, const std::string &digest, const std::string &message) override
    {
        auto published = m_store.publishKept(name, digest, ReleaseDetails {processOwner(), m_signer, message});
        if (!published)
            return published.error();
        return {};
    }

    Result<void> remove(const std::string &name, const std::string &) override
    {
        auto removed = m_store.objects().remove(name);
        if (!removed && hasCode(removed.error(), NatsErrc::ObjectNotFound))
            return {};
        return removed;
    }

private:
    ReleaseStore m_store;
    std::string m_signer;
};

} // namespace

ReleasePublisher::~ReleasePublisher() = default;

Result<std::unique_ptr<ReleasePublisher>> ReleasePublisher::open(
    NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas)
{
    auto store = ReleaseStore::open(connection, bucket, true, replicas);
    if (!store)
        return store.error();
    return std::unique_ptr<ReleasePublisher>(std::make_unique<HistoryPublisher>(std::move(store).value()));
}

} // namespace ccm::fleet
