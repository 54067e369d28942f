// SPDX-License-Identifier: Apache-2.0
// SourceWorker: fetching a remote source into the cache, and the cache's records.
#include "base/file_reading.h"
#include "base/private_files.h"
#include "fleet/agent/agent_worker.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"

#include <cctype>

namespace ccm::fleet {
namespace {

constexpr std::size_t kMaxMetaBytes = 64 * 1024;

std::filesystem::path metaFileFor(const std::filesystem::path &cacheFile)
{
    std::filesystem::path meta = cacheFile;
    return meta.replace_extension().replace_extension(".json");
}

} // namespace

void SourceWorker::loadCacheMeta()
{
    auto text = readTextFile(metaFileFor(m_cacheFile), kMaxMetaBytes);
    if (!text)
        return;
    const Json meta = Json::parse(*text, nullptr, false);
    if (!meta.is_object())
        return;
    m_refused = refusalFromJson(meta.value("refused", Json()));
    if (m_refused)
        m_shared.status.recordRefusal(m_shown, m_refused);
    // The validators stand for the newest version seen: asking with them again fetches nothing.
    m_validators.etag = meta.value("etag", "");
    m_validators.lastModified = meta.value("last_modified", "");
    std::error_code error;
    if (std::filesystem::is_regular_file(m_cacheFile, error))
        m_digest = meta.value("digest", "");
}

void SourceWorker::saveCacheMeta()
{
    Json meta {{"source", m_shown}, {"digest", m_digest}, {"etag", m_validators.etag},
        {"last_modified", m_validators.lastModified}};
    if (m_refused)
        meta["refused"] = refusalToJson(*m_refused);
    if (auto written = writePrivateFile(metaFileFor(m_cacheFile), meta.dump(2) + "\n"); !written)
        m_shared.log.warn(m_shown + ": " + written.error().message);
}

void SourceWorker::fetchFailed(const Error &error)
{
    m_fetchFailed = true;
    m_shared.metrics.recordFetchError(m_shown);
    std::error_code ignored;
    const bool cached = std::filesystem::is_regular_file(m_cacheFile, ignored);
    if (error.message != m_lastFetchError)
        m_shared.log.warn(m_shown + ": fetch failed: " + error.message
            + (cached ? "; running the cached bundle" : "; nothing cached to run yet"));
    m_lastFetchError = error.message;
}

bool SourceWorker::stillRefused(const std::string &digest)
{
    if (!m_refused || m_refused->digest != digest)
        return false;
    m_shared.log.debug(m_shown + ": " + digest + " was refused: not fetched again");
    return true;
}

void SourceWorker::refuse(const std::string &digest, const Error &reason)
{
    m_lastFetchError.clear();
    std::string why = reason.message;
    while (!why.empty() && std::isspace(static_cast<unsigned char>(why.back())))
        why.pop_back();
    m_refused = BundleRefusal {digest, why, std::chrono::system_clock::now()};
    saveCacheMeta();
    // Counted before it is logged, so that whoever reads the log line finds it counted.
    m_shared.metrics.recordRefusedBundle(m_shown);
    if (const auto refusal = errorCodeOf<BundleSignatureErrc>(reason))
        m_shared.metrics.recordSignatureRefusal(m_shown, *refusal);
    m_shared.status.recordRefusal(m_shown, m_refused);
    std::error_code ignored;
    const bool cached = std::filesystem::is_regular_file(m_cacheFile, ignored);
    m_shared.log.error(m_shown + ": refused the bundle " + digest + ": " + why
        + (cached ? "; running the last good bundle " + m_digest : "; no good bundle to run yet"));
    publishStatus();
}

void SourceWorker::clearRefusal()
{
    if (!m_refused)
        return;
    m_refused.reset();
    saveCacheMeta();
    m_shared.status.recordRefusal(m_shown, std::nullopt);
    publishStatus();
}

bool SourceWorker::adoptDownload(const std::filesystem::path &download, const std::string &digest)
{
    ManifestRunRequest check {download, m_shown, RunMode::Apply, m_shared.facts.get(), m_shared.config.externalDataUrl,
        m_shared.config.natsContext, &m_shared.cancel};
    check.checkOnly = true;
    check.requiredSigners = m_shared.config.bundleKeys;
    engine::RunObserver quiet;
    auto checked = m_shared.runner(check, quiet);
    std::error_code ignored;
    if (!checked) {
        std::filesystem::remove(download, ignored);
        if (hasCode(checked.error(), ManifestRunErrc::ExternalData))
            fetchFailed(checked.error().withContext("cannot check the new bundle " + digest));
        else
            refuse(digest, checked.error());
        return false;
    }
    std::error_code error;
    std::filesystem::rename(download, m_cacheFile, error);
    if (error) {
        std::filesystem::remove(download, ignored);
        fetchFailed(Error {
            "io", "cannot rename " + download.string() + " to " + m_cacheFile.string() + ": " + error.message()});
        return false;
    }
    m_digest = digest;
    if (m_refused)
        clearRefusal();
    else
        saveCacheMeta();
    return true;
}

bool SourceWorker::refresh()
{
    if (auto created = createPrivateDirectory(m_shared.config.cacheDir); !created) {
        fetchFailed(created.error());
        return false;
    }
    const bool changed = sourceKind(m_source) == SourceKind::ObjectBundle ? refreshObject() : refreshHttp();
    if (changed) {
        m_lastFetchError.clear();
        m_shared.log.info(m_shown + ": fetched a new bundle (" + m_digest + ")");
    }
    return changed;
}

bool SourceWorker::refreshObject()
{
    auto url = parseObjectUrl(m_source);
    if (!url) {
        fetchFailed(url.error());
        return false;
    }
    auto connection = m_shared.nats.connection();
    if (!connection) {
        fetchFailed(m_shared.nats.lastError());
        return false;
    }
    auto store = ObjectStore::open(*connection, url->bucket);
    auto info = store ? store.value().info(url->key) : Result<ObjectInfo>(store.error());
    if (!info) {
        fetchFailed(info.error().withContext(m_shown));
        return false;
    }
    std::error_code ignored;
    if (info->digest == m_digest && std::filesystem::is_regular_file(m_cacheFile, ignored)) {
        m_lastFetchError.clear();
        clearRefusal();
        return false;
    }
    if (stillRefused(info->digest)) {
        m_lastFetchError.clear();
        return false;
    }
    // The meta record says how big the object is: a bundle too large is refused unfetched.
    if (info->size > kMaxBundleBytes) {
        refuse(info->digest,
            Error {"too_large",
                "larger than the limit of " + std::to_string(kMaxBundleBytes / (1024 * 1024)) + " MiB ("
                    + std::to_string(info->size) + " bytes)"});
        return false;
    }
    // The download is created 0600 with O_EXCL: a leftover of an interrupted fetch goes first.
    std::filesystem::remove(m_downloadFile.string() + ".part", ignored);
    auto fetched = store.value().getToFile(url->key, m_downloadFile);
    if (!fetched) {
        fetchFailed(fetched.error().withContext(m_shown));
        return false;
    }
    return adoptDownload(m_downloadFile, fetched->digest);
}

bool SourceWorker::refreshHttp()
{
    std::error_code ignored;
    const bool cached = std::filesystem::is_regular_file(m_cacheFile, ignored);
    // A leftover of an interrupted fetch goes, so that the fetch creates its file afresh (0600).
    std::filesystem::remove(m_downloadFile.string() + ".part", ignored);
    std::filesystem::remove(m_downloadFile, ignored);
    SourceOptions options;
    options.maxBytes = kMaxBundleBytes;
    auto fetched
        = fetchHttpIfChanged(m_source, options, m_downloadFile, cached || m_refused ? m_validators : HttpValidators {});
    if (!fetched) {
        fetchFailed(fetched.error());
        return false;
    }
    if (fetched->notModified) {
        m_lastFetchError.clear();
        return false;
    }
    const bool newValidators = fetched->validators.etag != m_validators.etag
        || fetched->validators.lastModified != m_validators.lastModified;
    m_validators = fetched->validators;
    auto bytes = readTextFile(m_downloadFile, kMaxBundleBytes);
    if (!bytes) {
        std::filesystem::remove(m_downloadFile, ignored);
        fetchFailed(bytes.error());
        return false;
    }
    const std::string digest = objectDigest(*bytes);
    // A server without validators sends the whole body every time: only new bytes are a change.
    if ((cached && digest == m_digest) || stillRefused(digest)) {
        std::filesystem::remove(m_downloadFile, ignored);
        m_lastFetchError.clear();
        if (digest == m_digest)
            clearRefusal();
        if (newValidators)
            saveCacheMeta();
        return false;
    }
    return adoptDownload(m_downloadFile, digest);
}

} // namespace ccm::fleet
