// SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as a record of CCM_RELEASES, as `releases`, `rollback`, `rollout` and the
// prune read what anyone allowed to write the bucket may have stored. The input is the key, a
// newline and the record; without a newline the whole input is the record of a fixed key.
// Nothing may crash, hang or leak, and:
// - every refusal is "bad_release" and names the record's key;
// - an accepted record has the name and bucket its key gives, an object store digest, a size of
//   at most 1 GiB, a signer that is empty or a fingerprint, printable texts within their bounds,
//   and the archive name of its digest;
// - written back as `releases --json` writes it, it reads again to the same record.
#include "fleet/release/release_store.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view kDefaultKey = "bundles.c2l0ZS50Z3o=.a1b2c3d4e5f6";

void require(bool condition)
{
    if (!condition)
        std::abort();
}

bool printable(std::string_view text)
{
    return std::none_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte == 0x7f;
    });
}

bool fingerprint(std::string_view text)
{
    return text.size() == 16 && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
}

void checkAccepted(const ccm::fleet::Release &release, std::string_view key)
{
    require(release.key == key);
    require(!release.bucket.empty() && key.starts_with(release.bucket + "."));
    require(!release.name.empty() && release.name.size() <= 1024 && printable(release.name));
    require(ccm::fleet::isObjectDigest(release.digest));
    require(release.size <= ccm::fleet::kMaxReleaseBytes);
    require(release.signer.empty() || fingerprint(release.signer));
    require(release.publisher.size() <= 512 && printable(release.publisher));
    require(ccm::fleet::isReleaseMessage(release.message));
    require(release.archive() == ccm::fleet::releaseArchiveName(release.digest));
    require(release.archive().starts_with(ccm::fleet::kReleaseArchivePrefix));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    std::string_view record(reinterpret_cast<const char *>(bytes), size);
    std::string_view key = kDefaultKey;
    if (const auto newline = record.find('\n'); newline != std::string_view::npos) {
        key = record.substr(0, newline);
        record.remove_prefix(newline + 1);
    }
    const auto parsed = ccm::fleet::parseRelease(key, record);
    if (!parsed) {
        const std::string named = "release record '" + std::string(key) + "' of CCM_RELEASES: ";
        require(parsed.error().code == "bad_release" && parsed.error().message.starts_with(named)
            && parsed.error().message.size() > named.size());
        return 0;
    }
    checkAccepted(*parsed, key);
    const ccm::Json written = ccm::fleet::releaseToJson(*parsed);
    const auto again = ccm::fleet::parseRelease(key, written.dump());
    require(again.ok());
    require(ccm::fleet::releaseToJson(*again) == written);
    require(again->time == parsed->time && again->signer == parsed->signer && again->name == parsed->name);
    return 0;
}
