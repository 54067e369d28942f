// SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as a signed bundle's SHA256SUMS.sig member, as an agent, publish and
// releases read it from a bundle anyone may have made, and verifies it over a SHA256SUMS text.
// The input is the member, a NUL byte and the SHA256SUMS bytes; without a NUL byte the whole
// input is the member and SHA256SUMS a fixed text. Nothing may crash, hang or leak, and:
// - every refusal is "bad_signature", its message naming the member;
// - an accepted member holds a 32-byte key and a 64-byte signature, writes back as one line that
//   reads again to the same key and signature, and is judged by BundleSignatureCheck with the
//   documented codes (untrusted_signer, invalid_signature; none when its key is trusted);
// - the fuzzer holds a fixed key: the member it signs over the SHA256SUMS bytes reads back and
//   verifies, and any member that carries that key and verifies over those bytes is exactly that
//   signature (Ed25519 signatures are deterministic; another one that verifies is malleable).
#include "base/signing_key.h"
#include "core/bundle/bundle_signature.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view kChecksums
    = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  manifest.yaml\n";

const ccm::SigningKey &fixedKey()
{
    static const ccm::SigningKey key {
        std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18"
                    "\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20",
            32),
        std::string("\x79\xb5\x56\x2e\x8f\xe6\x54\xf9\x40\x78\xb1\x12\xe8\xa9\x8b\xa7\x90\x1f\x85\x3a\xe6\x95\xbe\xd7"
                    "\xe0\xe3\x91\x0b\xad\x04\x96\x64",
            32)};
    return key;
}

void require(bool condition)
{
    if (!condition)
        std::abort();
}

/// The fixed key's member over `checksums`, which must read back and verify; its signature.
std::string ownSignature(std::string_view checksums)
{
    const auto own = ccm::signChecksums(fixedKey(), checksums);
    require(own.ok());
    const auto back = ccm::parseBundleSignature(ccm::formatBundleSignature(*own));
    require(back.ok() && back->publicKey == fixedKey().publicKey && back->signature == own->signature);
    require(ccm::verifyEd25519(back->publicKey, checksums, back->signature));
    return own->signature;
}

/// How BundleSignatureCheck judges a readable signature, signed or not.
void checkJudgement(const ccm::BundleSignature &signature, bool verifies)
{
    using State = ccm::BundleSignatureCheck::State;
    ccm::BundleSignatureCheck check;
    check.signature = signature;
    check.state = verifies ? State::Signed : State::Invalid;
    check.problem = verifies ? "" : "it does not verify";
    const std::vector<std::string> trusted {signature.publicKey};
    const std::vector<std::string> others {
        fixedKey().publicKey == signature.publicKey ? std::string(32, '\0') : fixedKey().publicKey};
    const auto byTrusted = check.refusalError(trusted);
    const auto byOthers = check.refusalError(others);
    require(byOthers.has_value() && !byOthers->message.empty());
    if (verifies) {
        require(!byTrusted.has_value() && byOthers->code == "untrusted_signer");
        require(byOthers->message.find(signature.fingerprint()) != std::string::npos);
    } else {
        require(
            byTrusted.has_value() && byTrusted->code == "invalid_signature" && byOthers->code == "invalid_signature");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    std::string_view member(reinterpret_cast<const char *>(bytes), size);
    std::string_view checksums = kChecksums;
    if (const auto nul = member.find('\0'); nul != std::string_view::npos) {
        checksums = member.substr(nul + 1);
        member = member.substr(0, nul);
    }
    const auto parsed = ccm::parseBundleSignature(member);
    if (!parsed) {
        require(parsed.error().code == "bad_signature" && parsed.error().message.starts_with("SHA256SUMS.sig: "));
        return 0;
    }
    require(parsed->publicKey.size() == ccm::kEd25519KeySize);
    require(parsed->signature.size() == ccm::kEd25519SignatureSize);
    require(parsed->fingerprint().size() == 16);
    const std::string line = ccm::formatBundleSignature(*parsed);
    require(line.ends_with('\n') && line.find('\n') == line.size() - 1);
    const auto again = ccm::parseBundleSignature(line);
    require(again.ok() && again->publicKey == parsed->publicKey && again->signature == parsed->signature);
    require(ccm::formatBundleSignature(*again) == line);
    const bool verifies = ccm::verifyEd25519(parsed->publicKey, checksums, parsed->signature);
    if (verifies && parsed->publicKey == fixedKey().publicKey)
        require(parsed->signature == ownSignature(checksums));
    checkJudgement(*parsed, verifies);
    return 0;
}
