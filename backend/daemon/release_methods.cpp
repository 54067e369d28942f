// SPDX-License-Identifier: Apache-2.0
// The user backend's release and rollout methods: the history of a bucket, rollbacks, and
// rollouts started, followed, paused, aborted and resumed from the designer.
#include "daemon/release_methods.h"

#include "base/signing_key.h"
#include "base/temp_dir.h"
#include "core/bundle/bundle_signature.h"
#include "daemon/fleet_errors.h"
#include "daemon/params.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_url.h"
#include "fleet/release/release_store.h"
#include "fleet/rollout/rollout_publisher.h"
#include "fleet/rollout/rollout_runner.h"

#include <spdlog/spdlog.h>

namespace ccm::daemon {
namespace {

namespace fs = std::filesystem;
using protocol::ErrorCode;
using protocol::RpcError;
using protocol::RpcResult;

/// The longest ring time limit and settle time a caller may ask for.
constexpr std::int64_t kLongestWaitMs = 24LL * 3600 * 1000;

RpcResult<std::unique_ptr<fleet::NatsConnection>> connectParams(const Params &params)
{
    auto settings = natsSettingsOfParams(params);
    if (!settings)
        return settings.error();
    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection)
        return fleetError(connection.error());
    return std::move(connection).value();
}

RpcResult<SigningKey> keyOf(const Params &params)
{
    auto path = params.path("key");
    if (!path)
        return path.error();
    auto key = loadPrivateKey(path.value());
    if (!key)
        return keyError("key", key.error());
    return std::move(key).value();
}

RpcResult<fleet::ReleaseStore> storeOf(fleet::NatsConnection &connection, const Params &params, bool create)
{
    auto bucket = params.text("bucket");
    if (!bucket)
        return bucket.error();
    auto store = fleet::ReleaseStore::open(connection, bucket.value(), create);
    if (!store)
        return bucketError(store.error());
    return std::move(store).value();
}

RpcResult<Json> listReleases(const Params &params)
{
    auto connection = connectParams(params);
    if (!connection)
        return connection.error();
    auto store = storeOf(**connection, params, false);
    if (!store)
        return store.error();
    auto name = params.optionalText("name");
    if (!name)
        return name.error();
    auto listed = store.value().list(name.value().value_or(""));
    if (!listed)
        return fleetError(listed.error());
    Json releases = Json::array();
    for (const fleet::Release &release : listed->releases)
        releases.push_back(releaseResultJson(release));
    Json skipped = Json::array();
    for (const fleet::SkippedRelease &entry : listed->skipped)
        skipped.push_back(Json {{"key", entry.key}, {"message", entry.error.message}});
    return Json {{"releases", std::move(releases)}, {"skipped", std::move(skipped)}};
}

/// The release fleet.rollback goes back to: params.to, else the newest one whose digest is not
/// the object's current one.
RpcResult<fleet::Release> rollbackTarget(fleet::ReleaseStore &store, const std::string &name, const Params &params)
{
    auto to = params.optionalText("to");
    if (!to)
        return to.error();
    auto listed = store.list(name);
    if (!listed)
        return fleetError(listed.error());
    auto current = store.snapshot(name);
    if (!current)
        return fleetError(current.error());
    for (const fleet::Release &release : listed->releases) {
        if (to.value() ? release.digest == *to.value() : release.digest != current.value())
            return release;
    }
    if (to.value())
        return Params::invalid("to", "is not a release of " + name + " in bucket " + store.bucket());
    return RpcError {ErrorCode::NotFound, "there is no earlier release of " + name + " to roll back to"};
}

RpcResult<Json> rollBack(const Params &params)
{
    auto key = keyOf(params);
    if (!key)
        return key.error();
    auto name = params.text("name");
    auto message = params.optionalText("message");
    if (!name || !message)
        return !name ? name.error() : message.error();
    auto connection = connectParams(params);
    if (!connection)
        return connection.error();
    auto store = storeOf(**connection, params, false);
    if (!store)
        return store.error();
    auto target = rollbackTarget(store.value(), name.value(), params);
    if (!target)
        return target.error();
    auto scratch = TempDir::create("ccm-rollback");
    if (!scratch)
        return RpcError {ErrorCode::InternalError, scratch.error().message};
    const fs::path kept = scratch->path() / "kept.tar.gz";
    const fs::path signedFile = scratch->path() / "signed.tar.gz";
    if (auto restored = store.value().restore(target->digest, kept); !restored)
        return fleetError(restored.error());
    auto check = signBundleFile(kept, key.value(), signedFile);
    if (!check)
        return RpcError {
            ErrorCode::InvalidBundle, "cannot sign the release " + target->digest + ": " + check.error().message};
    const fleet::ReleaseDetails details {fleet::processOwner(), check->signature->fingerprint(),
        message.value().value_or("rollback to " + target->digest)};
    auto published = store.value().publish(name.value(), signedFile, details);
    if (!published)
        return fleetError(published.error());
    spdlog::info("rolled {}/{} back to {}", store.value().bucket(), name.value(), target->digest);
    return Json {{"release", releaseResultJson(published->release)}, {"to", target->digest}};
}

RpcResult<fleet::KvBucket> rolloutRecords(fleet::NatsConnection &connection, const fleet::BucketReplicas &replicas = {})
{
    auto records = fleet::KvBucket::openOrCreate(connection, std::string(fleet::kRolloutsBucket), replicas);
    if (!records)
        return fleetError(records.error());
    return std::move(records).value();
}

RpcResult<Json> listRollouts(const Params &params)
{
    auto connection = connectParams(params);
    if (!connection)
        return connection.error();
    auto records = rolloutRecords(**connection);
    if (!records)
        return records.error();
    auto entries = records.value().entries();
    if (!entries)
        return fleetError(entries.error());
    std::vector<fleet::RolloutRecord> found;
    Json skipped = Json::array();
    for (const auto &[key, text] : entries.value()) {
        auto record = fleet::parseRollout(text);
        if (record)
            found.push_back(std::move(record).value());
        else
            skipped.push_back(Json {{"key", key}, {"message", record.error().message}});
    }
    std::sort(found.begin(), found.end(),
        [](const fleet::RolloutRecord &a, const fleet::RolloutRecord &b) { return a.created > b.created; });
    Json rollouts = Json::array();
    for (const fleet::RolloutRecord &record : found)
        rollouts.push_back(fleet::rolloutToJson(record));
    return Json {{"rollouts", std::move(rollouts)}, {"skipped", std::move(skipped)}};
}

/// A duration param in milliseconds, within [minimum, kLongestWaitMs].
RpcResult<std::optional<std::chrono::seconds>> waitParam(
    const Params &params, std::string_view name, std::int64_t minimum)
{
    auto value = params.optionalInteger(name);
    if (!value)
        return value.error();
    if (!value.value())
        return std::optional<std::chrono::seconds>();
    if (*value.value() < minimum || *value.value() > kLongestWaitMs)
        return Params::invalid(name,
            "must be between " + std::to_string(minimum) + " and " + std::to_string(kLongestWaitMs)
                + " (milliseconds)");
    return std::optional(std::chrono::duration_cast<std::chrono::seconds>(std::chrono::milliseconds(*value.value())));
}

/// The rings, the gate and the message of fleet.rollout, into `record`.
RpcResult<void> rolloutShape(const Params &params, fleet::RolloutRecord &record)
{
    auto bucket = params.text("bucket");
    if (!bucket)
        return bucket.error();
    record.bucket = bucket.value();
    auto rings = params.optionalList("rings", "a list of object names");
    if (!rings)
        return rings.error();
    if (!rings.value() || rings.value()->empty() || rings.value()->size() > 64)
        return Params::invalid("rings", "must list 1 to 64 object names, in rollout order");
    for (const Json &ring : *rings.value()) {
        if (!ring.is_string() || ring.get_ref<const std::string &>().empty())
            return Params::invalid("rings", "must hold non-empty object names");
        for (const fleet::RingRecord &known : record.rings)
            if (known.name == ring.get<std::string>())
                return Params::invalid("rings", "names " + known.name + " twice");
        fleet::RingRecord entry;
        entry.name = ring.get<std::string>();
        record.rings.push_back(entry);
    }
    auto budget = params.optionalText("max_failed");
    if (!budget)
        return budget.error();
    if (budget.value()) {
        auto parsed = fleet::FailureBudget::parse(*budget.value());
        if (!parsed)
            return Params::invalid("max_failed", "is neither a count (2) nor a share of a ring's hosts (10%)");
        record.maxFailed = parsed->text();
    }
    auto timeout = waitParam(params, "ring_timeout_ms", 1000);
    auto settle = waitParam(params, "settle_ms", 0);
    auto rollback = params.optionalBoolean("rollback");
    auto message = params.optionalText("message");
    if (!timeout || !settle || !rollback || !message)
        return !timeout ? timeout.error() : !settle ? settle.error() : !rollback ? rollback.error() : message.error();
    record.ringTimeout = timeout.value().value_or(record.ringTimeout);
    record.settle = settle.value().value_or(record.settle);
    record.rollback = rollback.value().value_or(true);
    record.message = message.value().value_or("");
    return {};
}

/// The bundle fleet.rollout rolls out, signed with `key`, in `directory`: params.manifest bundled
/// as fleet.preview bundles it, or the local bundle params.source.
RpcResult<fs::path> signedRelease(const Params &params, const SigningKey &key, const fs::path &directory)
{
    const fs::path out = directory / "release.tar.gz";
    auto source = params.optionalPath("source");
    if (!source)
        return source.error();
    if (source.value()) {
        if (params.has("manifest"))
            return Params::invalid("source", "cannot go with manifest: send one of them");
        if (!isBundlePath(*source.value()))
            return Params::invalid("source", "must be a local .tar.gz or .tgz bundle");
        auto signedFile = signBundleFile(*source.value(), key, out);
        if (!signedFile)
            return RpcError {ErrorCode::InvalidBundle, signedFile.error().message};
        return out;
    }
    auto plan = bundlePlanOfParams(params);
    if (!plan)
        return plan.error();
    if (!plan->ok())
        return RpcError {ErrorCode::InvalidBundle,
            "the manifest cannot be bundled for the fleet; fix the errors listed and try again",
            Json {{"findings", bundleFindingsJson(plan->findings)}}};
    if (auto written = writeBundle(plan.value(), out, &key); !written)
        return RpcError {ErrorCode::InternalError, "cannot build the bundle: " + written.error().message};
    return out;
}

/// Runs `work` (start, resume or a request) with a runner whose progress goes out as
/// fleet.rollout.progress notifications; answers the record as it ends.
template<typename Work>
RpcResult<Json> followRollout(fleet::NatsConnection &connection, fleet::KvBucket &records,
    fleet::RolloutPublisher &publisher, const Notify &notify, const std::atomic<bool> &cancel, Work work)
{
    const auto progress = [&notify](const Json &event) {
        if (notify)
            notify(protocol::notificationLine("fleet.rollout.progress", event));
    };
    fleet::RolloutRunner runner(connection, records, publisher, progress);
    runner.setCancel(&cancel);
    Result<fleet::RolloutRecord> ended = work(runner);
    if (!ended && ended.error().code == "interrupted")
        return RpcError {ErrorCode::Cancelled, ended.error().message};
    if (!ended) {
        const bool busy = ended.error().code == "busy" || ended.error().code == "finished";
        return busy ? RpcError {ErrorCode::InvalidParams, ended.error().message, Json {{"path", "id"}}}
                    : fleetError(ended.error());
    }
    spdlog::info("rollout {} ended {}", ended->id, fleet::rolloutStateName(ended->state));
    return fleet::rolloutToJson(ended.value());
}

RpcResult<Json> startRollout(const Params &params, const Notify &notify, const std::atomic<bool> &cancel)
{
    fleet::RolloutRecord record;
    if (auto shaped = rolloutShape(params, record); !shaped)
        return shaped.error();
    auto key = keyOf(params);
    if (!key)
        return key.error();
    auto replicas = fleetBucketReplicas(params);
    if (!replicas)
        return replicas.error();
    auto scratch = TempDir::create("ccm-rollout");
    if (!scratch)
        return RpcError {ErrorCode::InternalError, scratch.error().message};
    auto bundle = signedRelease(params, key.value(), scratch->path());
    if (!bundle)
        return bundle.error();
    auto connection = connectParams(params);
    if (!connection)
        return connection.error();
    auto records = rolloutRecords(**connection, replicas.value());
    if (!records)
        return records.error();
    auto publisher = fleet::ReleasePublisher::open(**connection, record.bucket, replicas.value());
    if (!publisher)
        return bucketError(publisher.error());
    auto kept = (*publisher)->keep(bundle.value(), keyFingerprint(key->publicKey));
    if (!kept)
        return fleetError(kept.error());
    record.digest = kept->digest;
    record.size = kept->size;
    record.signer = keyFingerprint(key->publicKey);
    return followRollout(**connection, records.value(), **publisher, notify, cancel,
        [&record](fleet::RolloutRunner &runner) { return runner.start(record); });
}

RpcResult<Json> controlRollout(const Params &params, const Notify &notify, const std::atomic<bool> &cancel)
{
    auto id = params.text("id");
    auto action = params.text("action");
    if (!id || !action)
        return !id ? id.error() : action.error();
    if (!fleet::isRolloutId(id.value()))
        return Params::invalid("id", "is not a rollout id");
    if (action.value() != "pause" && action.value() != "abort" && action.value() != "resume")
        return Params::invalid("action", "must be pause, abort or resume");
    auto connection = connectParams(params);
    if (!connection)
        return connection.error();
    auto records = rolloutRecords(**connection);
    if (!records)
        return records.error();
    auto entry = records.value().get(id.value());
    if (!entry)
        return fleetError(entry.error());
    if (!entry->has_value())
        return Params::invalid("id", "names no rollout in " + std::string(fleet::kRolloutsBucket));
    auto record = fleet::parseRollout(**entry);
    if (!record)
        return fleetError(record.error());
    auto publisher = fleet::ReleasePublisher::open(**connection, record->bucket);
    if (!publisher)
        return bucketError(publisher.error());
    const std::string what = action.value();
    const std::string rollout = id.value();
    return followRollout(
        **connection, records.value(), **publisher, notify, cancel, [&what, &rollout](fleet::RolloutRunner &runner) {
            return what == "resume" ? runner.resume(rollout) : runner.request(rollout, what);
        });
}

} // namespace

Json releaseResultJson(const fleet::Release &release)
{
    Json json = fleet::releaseToJson(release, false);
    if (json["signer"].is_null())
        json["signer"] = "";
    json["location"] = fleet::ObjectUrl {release.bucket, fleet::releaseArchiveName(release.digest)}.toString();
    return json;
}

bool isReleaseMethod(std::string_view method)
{
    return method == "fleet.releases" || method == "fleet.rollback" || method == "fleet.rollouts"
        || method == "fleet.rollout" || method == "fleet.rollout.control";
}

RpcResult<Json> runReleaseMethod(
    std::string_view method, const Json &json, const Notify &notify, const std::atomic<bool> &cancel)
{
    const Params params(json);
    if (method == "fleet.releases")
        return listReleases(params);
    if (method == "fleet.rollback")
        return rollBack(params);
    if (method == "fleet.rollouts")
        return listRollouts(params);
    if (method == "fleet.rollout")
        return startRollout(params, notify, cancel);
    return controlRollout(params, notify, cancel);
}

} // namespace ccm::daemon
