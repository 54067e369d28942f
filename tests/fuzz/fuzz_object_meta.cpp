// SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary meta records to parseObjectMeta(), the one place an object store record becomes
// an ObjectInfo: it may refuse the record but never crash, and a record it accepts must be safe to
// use as a subject, since its nuid is purged and read as $O.<bucket>.C.<nuid>: a plain token (not
// empty, no '.', '*', '>', whitespace or control characters), for the bucket and name asked for.
// The input is the bucket, a newline, the name, a newline and the record, so that the names vary
// too; without two newlines the whole input is the record of "site.tgz" in bucket "bundles".
#include "fleet/nats/object_store.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    std::string_view input(reinterpret_cast<const char *>(bytes), size);
    std::string_view bucket = "bundles";
    std::string_view name = "site.tgz";
    if (const auto first = input.find('\n'); first != std::string_view::npos) {
        if (const auto second = input.find('\n', first + 1); second != std::string_view::npos) {
            bucket = input.substr(0, first);
            name = input.substr(first + 1, second - first - 1);
            input.remove_prefix(second + 1);
        }
    }
    const ccm::Result<ccm::fleet::ObjectInfo> parsed = ccm::fleet::parseObjectMeta(input, bucket, name);
    if (!parsed) {
        if (parsed.error().code != "bad_meta" || parsed.error().message.empty())
            std::abort();
        return 0;
    }
    const ccm::fleet::ObjectInfo &info = parsed.value();
    if (info.bucket != bucket || info.name != name || info.nuid.empty() || bucket.empty())
        std::abort();
    for (const char c : info.nuid) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '.' || c == '*' || c == '>' || byte <= 0x20 || byte == 0x7f)
            std::abort();
    }
    for (const char c : info.bucket) {
        const bool allowed
            = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!allowed)
            std::abort();
    }
    return 0;
}
