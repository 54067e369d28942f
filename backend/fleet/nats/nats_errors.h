// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error_code.h"

namespace ccm::fleet {

/// What can go wrong talking to NATS: connecting, JetStream, and the key-value and object stores.
/// The daemon turns these into JSON-RPC error codes (fleet_methods.cpp), so each is a name the
/// compiler checks.
enum class NatsErrc {
    Unreachable, ///< no server answers at the URL
    AuthFailed, ///< the server refused the credentials
    TlsFailed, ///< the TLS handshake or a certificate failed
    NoJetStream, ///< nothing answers the JetStream API
    Nats, ///< anything else cnats reports, with its own text
    ContextNotFound, ///< no NATS CLI context of that name
    BucketNotFound, ///< no key-value or object store bucket of that name
    KeyNotFound, ///< no value under that key
    ObjectNotFound, ///< no object of that name, or it was deleted
    DigestMismatch, ///< an object's contents do not have the digest its meta record gives
    SizeMismatch, ///< an object's contents do not have the size its meta record gives
    BadMeta, ///< an object's meta record is not one the store writes
    BadName, ///< a bucket, key or object name the stores do not take (empty, or not [A-Za-z0-9_-]+ for a bucket)
    Exists, ///< a download's partial file is already there: another download of it is going
    Changed, ///< a key-value entry was written by someone else since it was read
};

} // namespace ccm::fleet

template<> struct ccm::ErrorCodeNames<ccm::fleet::NatsErrc> {
    using E = ccm::fleet::NatsErrc;
    static constexpr std::array kNames {
        std::pair {E::Unreachable, std::string_view("unreachable")},
        std::pair {E::AuthFailed, std::string_view("auth_failed")},
        std::pair {E::TlsFailed, std::string_view("tls_failed")},
        std::pair {E::NoJetStream, std::string_view("no_jetstream")},
        std::pair {E::Nats, std::string_view("nats")},
        std::pair {E::ContextNotFound, std::string_view("context_not_found")},
        std::pair {E::BucketNotFound, std::string_view("bucket_not_found")},
        std::pair {E::KeyNotFound, std::string_view("key_not_found")},
        std::pair {E::ObjectNotFound, std::string_view("object_not_found")},
        std::pair {E::DigestMismatch, std::string_view("digest_mismatch")},
        std::pair {E::SizeMismatch, std::string_view("size_mismatch")},
        std::pair {E::BadMeta, std::string_view("bad_meta")},
        std::pair {E::BadName, std::string_view("bad_name")},
        std::pair {E::Exists, std::string_view("exists")},
        std::pair {E::Changed, std::string_view("changed")},
    };
};
