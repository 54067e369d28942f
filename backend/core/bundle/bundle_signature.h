// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error_code.h"
#include "base/result.h"
#include "base/signing_key.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// A signed bundle holds `SHA256SUMS.sig` beside its `SHA256SUMS`: an Ed25519 signature over the
/// exact bytes of SHA256SUMS, which lists the digest of every other file. The member is one line
/// of JSON with the signer's raw public key, so who signed can be told without knowing the key:
///
///     {"algorithm":"ed25519","fingerprint":"3f9a0c2e81b7d465","key":"<base64>","signature":"<base64>"}
///
/// Ed25519 signatures are deterministic, so the same bundle and key give the same bytes.
inline constexpr std::string_view kBundleSignatureName = "SHA256SUMS.sig";

/// The parsed signature member.
struct BundleSignature {
    std::string publicKey; ///< raw 32 bytes
    std::string signature; ///< raw 64 bytes

    /// keyFingerprint() of the public key: 16 hexadecimal digits.
    [[nodiscard]] std::string fingerprint() const;
};

/// The member's text (one line, ending in a newline).
std::string formatBundleSignature(const BundleSignature &signature);
/// Parses the member strictly: every field present, of the right kind and size, nothing else, and
/// the fingerprint that of the key. Error code "bad_signature" saying which field is wrong.
Result<BundleSignature> parseBundleSignature(std::string_view text);

/// The signature of `checksums` (the bytes of SHA256SUMS) with `key`.
Result<BundleSignature> signChecksums(const SigningKey &key, std::string_view checksums);

/// Why a bundle that had to be signed by a trusted key was refused.
enum class BundleSignatureErrc {
    Unsigned, ///< it carries no signature
    Untrusted, ///< it is signed, by a key not among the trusted ones
    Invalid, ///< its signature does not verify, cannot be read or does not cover every file
};

/// What a bundle's signature says, as UnpackedBundle reports it after the checksums verified.
struct BundleSignatureCheck {
    enum class State {
        Unsigned, ///< no SHA256SUMS.sig
        Signed, ///< the signature verifies over SHA256SUMS, which covers every file of the bundle
        Invalid, ///< a SHA256SUMS.sig that does not verify, cannot be read, or does not cover everything
    };
    State state = State::Unsigned;
    std::optional<BundleSignature> signature; ///< set when Signed, and when Invalid but readable
    std::string problem; ///< why it is Invalid

    /// "signed by key 3f9a0c2e81b7d465", "not signed", or "its signature is invalid: ...".
    [[nodiscard]] std::string describe() const;
    /// Signed, and by one of `keys` (raw public keys).
    [[nodiscard]] bool signedByOneOf(const std::vector<std::string> &keys) const;
    /// Why a bundle that must be signed by one of `keys` is refused ("it is not signed", "it is
    /// signed by key X, which is not trusted", "its signature is invalid: ..."); empty when it is
    /// signed by one of them.
    [[nodiscard]] std::string refusal(const std::vector<std::string> &keys) const;
    /// refusal() as an error with its BundleSignatureErrc; nothing when signed by one of `keys`.
    [[nodiscard]] std::optional<Error> refusalError(const std::vector<std::string> &keys) const;
};

/// Signs the bundle `input` with `key` and writes the result to `output` (they may be the same
/// file): the archive is unpacked with every check of UnpackedBundle::unpack() first, so only a
/// bundle whose SHA256SUMS verifies is signed, then written again as writeBundle() writes bundles
/// (reproducible), with SHA256SUMS (made when missing) and SHA256SUMS.sig replacing any earlier
/// signature. Signing a bundle already signed by `key` gives the same bytes. Written to a
/// temporary file beside `output`, then renamed.
Result<BundleSignatureCheck> signBundleFile(
    const std::filesystem::path &input, const SigningKey &key, const std::filesystem::path &output);

/// Unpacks the bundle `archive` with every check and reports its signature (for publish, releases
/// and commands that only need to know who signed).
Result<BundleSignatureCheck> readBundleSignature(const std::filesystem::path &archive);

} // namespace ccm

template<> struct ccm::ErrorCodeNames<ccm::BundleSignatureErrc> {
    using E = ccm::BundleSignatureErrc;
    static constexpr std::array kNames {
        std::pair {E::Unsigned, std::string_view("unsigned")},
        std::pair {E::Untrusted, std::string_view("untrusted_signer")},
        std::pair {E::Invalid, std::string_view("invalid_signature")},
    };
};
