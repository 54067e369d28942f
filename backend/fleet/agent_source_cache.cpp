// SPDX-License-Identifier: Apache-2.0
// SourceWorker: fetching a remote source into the cache, and the cache's records.
#include "agent_worker.h"
#include "file_reading.h"
#include "object_store.h"
#include "object_url.h"

#include <sys/stat.h>

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
    std::error_code error;
    if (!std::filesystem::is_regular_file(m_cacheFile, error))
        return;
    auto text = readTextFile(metaFileFor(m_cacheFile), kMaxMetaBytes);
    if (!text)
        return;
    const Json meta = Json::parse(*text, nullptr, false);
    if (!meta.is_object())
        return;
    m_digest = meta.value("digest", "");
    m_validators.etag = meta.value("etag", "");
    m_validators.lastModified = meta.value("last_modified", "");
}

void SourceWorker::saveCacheMeta()
{
    const Json meta {{"source", m_shown}, {"digest", m_digest}, {"etag", m_validators.etag},
        {"last_modified", m_validators.lastModified}};
    if (auto written = writePrivateFile(metaFileFor(m_cacheFile), meta.dump(2) + "\n"); !written)
        m_shared.log.warn(m_shown + ": " + written.error().message);
}

void SourceWorker::fetchFailed(const Error &error)
{
    m_shared.metrics.recordFetchError(m_shown);
    std::error_code ignored;
    const bool cached = std::filesystem::is_regular_file(m_cacheFile, ignored);
    if (error.message != m_lastFetchError)
        m_shared.log.warn(m_shown + ": fetch failed: " + error.message
            + (cached ? "; running the cached bundle" : "; nothing cached to run yet"));
    m_lastFetchError = error.message;
}

/// Moves a verified download into place as the source's cache file, private to root.
Result<void> SourceWorker::installDownload(const std::filesystem::path &download)
{
    if (::chmod(download.c_str(), 0600) != 0)
        return Error {"io", "cannot make " + download.string() + " private"};
    auto bytes = readTextFile(download, 256ull * 1024 * 1024);
    if (!bytes)
        return bytes.error();
    std::error_code error;
    std::filesystem::rename(download, m_cacheFile, error);
    if (error)
        return Error {
            "io", "cannot rename " + download.string() + " to " + m_cacheFile.string() + ": " + error.message()};
    m_digest = objectDigest(*bytes);
    saveCacheMeta();
    return {};
}

bool SourceWorker::refresh()
{
    std::error_code error;
    std::filesystem::create_directories(m_shared.config.cacheDir, error);
    if (error) {
        fetchFailed(Error {
            "io", "cannot create the cache directory " + m_shared.config.cacheDir.string() + ": " + error.message()});
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
        return false;
    }
    const std::filesystem::path download = m_cacheFile.string() + ".download";
    auto fetched = store.value().getToFile(url->key, download);
    auto installed = fetched ? installDownload(download) : Result<void>(fetched.error().withContext(m_shown));
    if (!installed) {
        std::filesystem::remove(download, ignored);
        fetchFailed(installed.error());
        return false;
    }
    return true;
}

bool SourceWorker::refreshHttp()
{
    std::error_code ignored;
    const bool cached = std::filesystem::is_regular_file(m_cacheFile, ignored);
    const std::filesystem::path download = m_cacheFile.string() + ".download";
    SourceOptions options;
    auto fetched = fetchHttpIfChanged(m_source, options, download, cached ? m_validators : HttpValidators {});
    if (!fetched) {
        fetchFailed(fetched.error());
        return false;
    }
    if (fetched->notModified) {
        m_lastFetchError.clear();
        return false;
    }
    const std::string previous = m_digest;
    m_validators = fetched->validators;
    if (auto installed = installDownload(download); !installed) {
        std::filesystem::remove(download, ignored);
        fetchFailed(installed.error());
        return false;
    }
    // A server without validators sends the whole body every time: only new bytes are a change.
    return m_digest != previous;
}

} // namespace ccm::fleet
