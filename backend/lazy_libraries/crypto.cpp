// SPDX-License-Identifier: Apache-2.0
// The libcrypto (OpenSSL) functions the backend calls: file checksums (SHA-256), bundle digests,
// object-store digests and nonces, and the fleet's Ed25519 keys and signatures. Linked at start,
// libcrypto's relocations alone touched about a hundred pages of every run, a quarter of what an
// empty manifest's apply faults in.
#include "lazy_libraries/lazy_library.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

namespace ccm::lazy {
LazyLibrary libcrypto(
    CCM_CRYPTO_SONAME, "file checksums, bundles, the object store and the fleet's keys and signatures need");
}
using ccm::lazy::libcrypto;

// None of them is variadic; the password callbacks PEM_read_* take are passed through as they are.
#define CCM_CRYPTO_FUNCTION(result, name, parameters, arguments)                                                       \
    CCM_LAZY_FUNCTION(libcrypto, result, name, parameters, arguments)

// Digests
CCM_CRYPTO_FUNCTION(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())
CCM_CRYPTO_FUNCTION(void, EVP_MD_CTX_free, (EVP_MD_CTX * context), (context))
CCM_CRYPTO_FUNCTION(EVP_MD *, EVP_MD_fetch, (OSSL_LIB_CTX * library, const char *algorithm, const char *properties),
    (library, algorithm, properties))
CCM_CRYPTO_FUNCTION(void, EVP_MD_free, (EVP_MD * digest), (digest))
CCM_CRYPTO_FUNCTION(const EVP_MD *, EVP_sha256, (void), ())
CCM_CRYPTO_FUNCTION(
    int, EVP_DigestInit_ex, (EVP_MD_CTX * context, const EVP_MD *type, ENGINE *engine), (context, type, engine))
CCM_CRYPTO_FUNCTION(int, EVP_DigestUpdate, (EVP_MD_CTX * context, const void *data, size_t size), (context, data, size))
CCM_CRYPTO_FUNCTION(
    int, EVP_DigestFinal_ex, (EVP_MD_CTX * context, unsigned char *digest, unsigned int *size), (context, digest, size))
CCM_CRYPTO_FUNCTION(
    unsigned char *, SHA256, (const unsigned char *data, size_t size, unsigned char *digest), (data, size, digest))
CCM_CRYPTO_FUNCTION(int, EVP_Digest,
    (const void *data, size_t count, unsigned char *digest, unsigned int *size, const EVP_MD *type, ENGINE *engine),
    (data, count, digest, size, type, engine))

// Keys and signatures
CCM_CRYPTO_FUNCTION(EVP_PKEY *, EVP_PKEY_new_raw_private_key,
    (int type, ENGINE *engine, const unsigned char *key, size_t size), (type, engine, key, size))
CCM_CRYPTO_FUNCTION(EVP_PKEY *, EVP_PKEY_new_raw_public_key,
    (int type, ENGINE *engine, const unsigned char *key, size_t size), (type, engine, key, size))
CCM_CRYPTO_FUNCTION(
    int, EVP_PKEY_get_raw_private_key, (const EVP_PKEY *key, unsigned char *raw, size_t *size), (key, raw, size))
CCM_CRYPTO_FUNCTION(
    int, EVP_PKEY_get_raw_public_key, (const EVP_PKEY *key, unsigned char *raw, size_t *size), (key, raw, size))
CCM_CRYPTO_FUNCTION(int, EVP_PKEY_get_id, (const EVP_PKEY *key), (key))
CCM_CRYPTO_FUNCTION(void, EVP_PKEY_free, (EVP_PKEY * key), (key))
CCM_CRYPTO_FUNCTION(EVP_PKEY_CTX *, EVP_PKEY_CTX_new_id, (int type, ENGINE *engine), (type, engine))
CCM_CRYPTO_FUNCTION(void, EVP_PKEY_CTX_free, (EVP_PKEY_CTX * context), (context))
CCM_CRYPTO_FUNCTION(int, EVP_PKEY_keygen_init, (EVP_PKEY_CTX * context), (context))
CCM_CRYPTO_FUNCTION(int, EVP_PKEY_keygen, (EVP_PKEY_CTX * context, EVP_PKEY **key), (context, key))
CCM_CRYPTO_FUNCTION(int, EVP_DigestSignInit,
    (EVP_MD_CTX * context, EVP_PKEY_CTX **keyContext, const EVP_MD *type, ENGINE *engine, EVP_PKEY *key),
    (context, keyContext, type, engine, key))
CCM_CRYPTO_FUNCTION(int, EVP_DigestSign,
    (EVP_MD_CTX * context, unsigned char *signature, size_t *signatureSize, const unsigned char *data, size_t size),
    (context, signature, signatureSize, data, size))
CCM_CRYPTO_FUNCTION(int, EVP_DigestVerifyInit,
    (EVP_MD_CTX * context, EVP_PKEY_CTX **keyContext, const EVP_MD *type, ENGINE *engine, EVP_PKEY *key),
    (context, keyContext, type, engine, key))
CCM_CRYPTO_FUNCTION(int, EVP_DigestVerify,
    (EVP_MD_CTX * context, const unsigned char *signature, size_t signatureSize, const unsigned char *data,
        size_t size),
    (context, signature, signatureSize, data, size))
CCM_CRYPTO_FUNCTION(const char *, OBJ_nid2sn, (int nid), (nid))

// PEM files through memory buffers, Base64
CCM_CRYPTO_FUNCTION(const BIO_METHOD *, BIO_s_mem, (void), ())
CCM_CRYPTO_FUNCTION(BIO *, BIO_new, (const BIO_METHOD *method), (method))
CCM_CRYPTO_FUNCTION(BIO *, BIO_new_mem_buf, (const void *data, int size), (data, size))
CCM_CRYPTO_FUNCTION(
    long, BIO_ctrl, (BIO * bio, int command, long number, void *pointer), (bio, command, number, pointer))
CCM_CRYPTO_FUNCTION(int, BIO_free, (BIO * bio), (bio))
CCM_CRYPTO_FUNCTION(EVP_PKEY *, PEM_read_bio_PrivateKey,
    (BIO * bio, EVP_PKEY **key, pem_password_cb *callback, void *u), (bio, key, callback, u))
CCM_CRYPTO_FUNCTION(EVP_PKEY *, PEM_read_bio_PUBKEY, (BIO * bio, EVP_PKEY **key, pem_password_cb *callback, void *u),
    (bio, key, callback, u))
CCM_CRYPTO_FUNCTION(int, PEM_write_bio_PrivateKey,
    (BIO * bio, const EVP_PKEY *key, const EVP_CIPHER *cipher, const unsigned char *passphrase, int size,
        pem_password_cb *callback, void *u),
    (bio, key, cipher, passphrase, size, callback, u))
CCM_CRYPTO_FUNCTION(int, PEM_write_bio_PUBKEY, (BIO * bio, const EVP_PKEY *key), (bio, key))
CCM_CRYPTO_FUNCTION(int, EVP_EncodeBlock, (unsigned char *out, const unsigned char *in, int size), (out, in, size))
CCM_CRYPTO_FUNCTION(int, EVP_DecodeBlock, (unsigned char *out, const unsigned char *in, int size), (out, in, size))

// Randomness
CCM_CRYPTO_FUNCTION(int, RAND_bytes, (unsigned char *buffer, int size), (buffer, size))
