// SPDX-License-Identifier: Apache-2.0
// Publishing a rollout's releases to its rings through the bucket's object store, keeping every
// release by its digest.
#include "fleet/rollout/rollout_publisher.h"

#include "base/file_reading.h"
#include "base/temp_dir.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/object_store.h"

#include <fstream>
#include <sstream>

namespace ccm::fleet {
namespace {

/// The largest bundle a rollout takes, as agents do.
constexpr std::uint64_t kMaxBundleBytes = 256ULL * 1024 * 1024;

/// Where the release `digest` is kept: under a name no agent watches.
std::string keptName(const std::string &digest)
{
    return ".releases/" + digest;
}

class StorePublisher final : public ReleasePublisher {
public:
    explicit StorePublisher(ObjectStore store)
        : m_store(std::move(store))
    {
    }

    Result<KeptRelease> keep(const std::filesystem::path &bundle, const std::string &) override
    {
        auto bytes = readTextFile(bundle, kMaxBundleBytes);
        if (!bytes)
            return bytes.error();
        const std::string digest = objectDigest(*bytes);
        if (auto stored = storeKept(digest, *bytes); !stored)
            return stored.error();
        return KeptRelease {digest, bytes->size()};
    }

    Result<std::string> snapshot(const std::string &name) override
    {
        auto info = m_store.info(name);
        if (!info && hasCode(info.error(), NatsErrc::ObjectNotFound))
            return std::string();
        if (!info)
            return info.error();
        if (auto kept = m_store.info(keptName(info->digest)); kept)
            return info->digest;
        std::ostringstream contents;
        auto read = m_store.get(name, contents);
        if (!read)
            return read.error().withContext("keeping the release of " + name);
        if (auto stored = storeKept(read->digest, contents.str()); !stored)
            return stored.error();
        return read->digest;
    }

    Result<void> publish(const std::string &name, const std::string &digest, const std::string &) override
    {
        std::ostringstream contents;
        auto read = m_store.get(keptName(digest), contents);
        if (!read)
            return read.error().withContext("the kept release " + digest);
        if (read->digest != digest)
            return Error {"digest_mismatch", "the kept release " + digest + " has the digest " + read->digest};
        std::istringstream data(contents.str());
        auto stored = m_store.put(name, data);
        if (!stored)
            return stored.error();
        return {};
    }

    Result<void> remove(const std::string &name, const std::string &) override
    {
        auto removed = m_store.remove(name);
        if (!removed && hasCode(removed.error(), NatsErrc::ObjectNotFound))
            return {};
        return removed;
    }

private:
    Result<void> storeKept(const std::string &digest, const std::string &bytes)
    {
        if (auto kept = m_store.info(keptName(digest)); kept && kept->digest == digest)
            return {};
        std::istringstream data(bytes);
        auto stored = m_store.put(keptName(digest), data);
        if (!stored)
            return stored.error().withContext("keeping the release " + digest);
        return {};
    }

    ObjectStore m_store;
};

} // namespace

ReleasePublisher::~ReleasePublisher() = default;

Result<std::unique_ptr<ReleasePublisher>> ReleasePublisher::open(NatsConnection &connection, const std::string &bucket)
{
    auto store = ObjectStore::openOrCreate(connection, bucket);
    if (!store)
        return store.error();
    return std::unique_ptr<ReleasePublisher>(std::make_unique<StorePublisher>(std::move(store).value()));
}

} // namespace ccm::fleet
