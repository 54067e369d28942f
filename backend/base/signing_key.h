// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/base64.h"
#include "base/error_code.h"
#include "base/result.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace ccm {

/// What can go wrong making, reading, writing and using a signing key (fleet previews, bundles). The daemon turns
/// these into JSON-RPC errors on the param that named the key (fleet_errors.cpp).
enum class SigningErrc {
    KeyNotFound, ///< no key file at the path
    Io, ///< the key file or its directory cannot be read, created or written
    BadKey, ///< the file holds no PEM, or no Ed25519 key of the kind wanted
    Exists, ///< a key file is there and was not to be replaced
    Crypto, ///< OpenSSL cannot make, convert or use the key
};

/// An Ed25519 key that signs fleet preview requests and bundles: the raw 32-byte seed and its public key.
struct SigningKey {
    std::string seed; ///< raw private key bytes
    std::string publicKey; ///< raw public key bytes
};

/// The length of raw Ed25519 public keys and seeds, and of signatures.
inline constexpr std::size_t kEd25519KeySize = 32;
inline constexpr std::size_t kEd25519SignatureSize = 64;

/// A fresh key from the system's random source. Error code "crypto" when OpenSSL cannot make one.
Result<SigningKey> generateSigningKey();

/// The private key as PKCS#8 PEM, and a raw public key as SubjectPublicKeyInfo PEM.
Result<std::string> privateKeyPem(const SigningKey &key);
Result<std::string> publicKeyPem(std::string_view publicKey);

/// Writes the key pair: the private PEM with mode 0600 (created so, never readable by others in
/// between), the public PEM 0644. Directories missing above either file are created with mode
/// 0700; existing ones are left as they are. Error codes "exists" (a file is there and `overwrite` is false),
/// "io"; messages name the file.
Result<void> writeKeyPair(const SigningKey &key, const std::filesystem::path &privatePath,
    const std::filesystem::path &publicPath, bool overwrite);

/// Reads a private key PEM. Error codes: "key_not_found" (no such file), "io" (unreadable),
/// "bad_key" (not PEM, or a key that is not Ed25519); messages name the file and what to do.
Result<SigningKey> loadPrivateKey(const std::filesystem::path &path);
/// Reads a public key PEM (a private key PEM is accepted too: its public half is used), with
/// the errors of loadPrivateKey(). Returns the raw 32 bytes.
Result<std::string> loadPublicKey(const std::filesystem::path &path);

/// The Ed25519 signature of `message`. Error code "crypto".
Result<std::string> signEd25519(const SigningKey &key, std::string_view message);
/// Whether `signature` is `publicKey`'s signature of `message`; false for malformed input.
bool verifyEd25519(std::string_view publicKey, std::string_view message, std::string_view signature);

/// The contract's fingerprint: the first 16 hex characters of the SHA-256 of the raw public key.
std::string keyFingerprint(std::string_view publicKey);

} // namespace ccm

template<> struct ccm::ErrorCodeNames<ccm::SigningErrc> {
    using E = ccm::SigningErrc;
    static constexpr std::array kNames {
        std::pair {E::KeyNotFound, std::string_view("key_not_found")},
        std::pair {E::Io, std::string_view("io")},
        std::pair {E::BadKey, std::string_view("bad_key")},
        std::pair {E::Exists, std::string_view("exists")},
        std::pair {E::Crypto, std::string_view("crypto")},
    };
};
