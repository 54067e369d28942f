// SPDX-License-Identifier: Apache-2.0
#include "base/signing_key.h"

#include "base/c_handle.h"
#include "base/hex.h"
#include "base/sha256.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <span>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ccm {
namespace {

using Pkey = CHandle<EVP_PKEY, EVP_PKEY_free>;
using Bio = CHandle<BIO, BIO_free>;
using DigestContext = CHandle<EVP_MD_CTX, EVP_MD_CTX_free>;

const auto *bytes(std::string_view data)
{
    return reinterpret_cast<const unsigned char *>(data.data());
}

Result<std::string> rawKey(EVP_PKEY *key, bool isPrivate)
{
    std::string out(kEd25519KeySize, '\0');
    std::size_t length = out.size();
    auto *target = reinterpret_cast<unsigned char *>(out.data());
    const int done = isPrivate ? EVP_PKEY_get_raw_private_key(key, target, &length)
                               : EVP_PKEY_get_raw_public_key(key, target, &length);
    if (done != 1 || length != kEd25519KeySize)
        return makeError(SigningErrc::Crypto, "cannot read the raw Ed25519 key");
    return out;
}

Result<SigningKey> fromPkey(EVP_PKEY *key)
{
    auto seed = rawKey(key, true);
    if (!seed)
        return seed.error();
    auto publicKey = rawKey(key, false);
    if (!publicKey)
        return publicKey.error();
    return SigningKey {std::move(seed).value(), std::move(publicKey).value()};
}

Result<std::string> pemOf(EVP_PKEY *key, bool isPrivate)
{
    const Bio bio(BIO_new(BIO_s_mem()));
    const int written = isPrivate ? PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr)
                                  : PEM_write_bio_PUBKEY(bio.get(), key);
    if (bio == nullptr || written != 1)
        return makeError(SigningErrc::Crypto, "cannot write the key as PEM");
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(length));
}

Result<std::string> readKeyFile(const std::filesystem::path &path)
{
    std::error_code error;
    if (!std::filesystem::exists(path, error))
        return makeError(
            SigningErrc::KeyNotFound, path.string() + ": no such key file; create one with `ccm-backend fleet keygen`");
    std::ifstream stream(path, std::ios::binary);
    std::ostringstream text;
    text << stream.rdbuf();
    if (!stream && !stream.eof())
        return makeError(SigningErrc::Io, path.string() + ": cannot read the key file: " + std::strerror(errno));
    return text.str();
}

Error badKey(const std::filesystem::path &path, const std::string &what)
{
    return makeError(SigningErrc::BadKey, path.string() + ": " + what);
}

/// Parses PEM text as a private key, else as a public key; the key must be Ed25519.
Result<Pkey> parsePem(const std::filesystem::path &path, const std::string &text, bool wantPrivate)
{
    if (text.find("-----BEGIN ") == std::string::npos)
        return badKey(
            path, "not a PEM file (no -----BEGIN line); expected an Ed25519 key from `ccm-backend fleet keygen`");
    const Bio bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
    Pkey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (!key && !wantPrivate) {
        const Bio again(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
        key.reset(PEM_read_bio_PUBKEY(again.get(), nullptr, nullptr, nullptr));
    }
    if (!key)
        return badKey(path,
            wantPrivate ? "holds no readable private key (an encrypted key or a public key?)"
                        : "holds no readable public key");
    if (EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
        return badKey(path,
            std::string("holds a ") + OBJ_nid2sn(EVP_PKEY_get_id(key.get()))
                + " key; fleet previews and bundles are signed with Ed25519 keys (make one with `ccm-backend fleet "
                  "keygen`)");
    return key;
}

Result<void> writeFile(const std::filesystem::path &path, const std::string &text, mode_t mode, bool overwrite)
{
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
    const int fd = ::open(path.c_str(), flags, mode);
    if (fd < 0 && errno == EEXIST)
        return makeError(SigningErrc::Exists, path.string() + ": the file exists; use --force to replace it");
    if (fd < 0)
        return makeError(SigningErrc::Io, path.string() + ": cannot create: " + std::strerror(errno));
    const bool written
        = ::fchmod(fd, mode) == 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int savedErrno = errno;
    ::close(fd);
    if (!written)
        return makeError(SigningErrc::Io, path.string() + ": cannot write: " + std::strerror(savedErrno));
    return {};
}

/// Creates the directories missing above `file`, outermost first, each with mode 0700 from the
/// start: they are made to hold a private key. Directories that exist keep their modes.
Result<void> createKeyDirectories(const std::filesystem::path &file)
{
    std::vector<std::filesystem::path> missing;
    std::error_code error;
    for (std::filesystem::path dir = std::filesystem::absolute(file, error).parent_path();
         !error && !dir.empty() && !std::filesystem::exists(dir, error) && !error; dir = dir.parent_path()) {
        missing.push_back(dir);
        if (dir == dir.parent_path())
            break;
    }
    for (auto dir = missing.rbegin(); dir != missing.rend(); ++dir)
        if (::mkdir(dir->c_str(), 0700) != 0 && errno != EEXIST)
            return makeError(
                SigningErrc::Io, "cannot create the directory " + dir->string() + ": " + std::strerror(errno));
    return {};
}

} // namespace

Result<SigningKey> generateSigningKey()
{
    EVP_PKEY *raw = nullptr;
    const CHandle<EVP_PKEY_CTX, EVP_PKEY_CTX_free> context(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr));
    if (!context || EVP_PKEY_keygen_init(context.get()) != 1 || EVP_PKEY_keygen(context.get(), &raw) != 1)
        return makeError(SigningErrc::Crypto, "cannot generate an Ed25519 key");
    const Pkey key(raw);
    return fromPkey(key.get());
}

Result<std::string> privateKeyPem(const SigningKey &key)
{
    const Pkey pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, bytes(key.seed), key.seed.size()));
    if (!pkey)
        return makeError(SigningErrc::Crypto, "not an Ed25519 private key");
    return pemOf(pkey.get(), true);
}

Result<std::string> publicKeyPem(std::string_view publicKey)
{
    const Pkey pkey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, bytes(publicKey), publicKey.size()));
    if (!pkey)
        return makeError(SigningErrc::Crypto, "not an Ed25519 public key");
    return pemOf(pkey.get(), false);
}

Result<void> writeKeyPair(const SigningKey &key, const std::filesystem::path &privatePath,
    const std::filesystem::path &publicPath, bool overwrite)
{
    auto privatePem = privateKeyPem(key);
    if (!privatePem)
        return privatePem.error();
    auto publicPem = publicKeyPem(key.publicKey);
    if (!publicPem)
        return publicPem.error();
    for (const auto &path : {privatePath, publicPath})
        if (!overwrite && std::filesystem::exists(path))
            return makeError(SigningErrc::Exists, path.string() + ": the file exists; use --force to replace it");
    for (const auto &path : {privatePath, publicPath})
        if (auto made = createKeyDirectories(path); !made)
            return made;
    auto written = writeFile(privatePath, *privatePem, 0600, overwrite);
    if (!written)
        return written;
    return writeFile(publicPath, *publicPem, 0644, overwrite);
}

Result<SigningKey> loadPrivateKey(const std::filesystem::path &path)
{
    auto text = readKeyFile(path);
    if (!text)
        return text.error();
    auto key = parsePem(path, *text, true);
    if (!key)
        return key.error();
    return fromPkey(key->get());
}

Result<std::string> loadPublicKey(const std::filesystem::path &path)
{
    auto text = readKeyFile(path);
    if (!text)
        return text.error();
    auto key = parsePem(path, *text, false);
    if (!key)
        return key.error();
    return rawKey(key->get(), false);
}

Result<std::string> signEd25519(const SigningKey &key, std::string_view message)
{
    const Pkey pkey(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, bytes(key.seed), key.seed.size()));
    const DigestContext context(EVP_MD_CTX_new());
    std::string signature(kEd25519SignatureSize, '\0');
    std::size_t length = signature.size();
    if (!pkey || !context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, pkey.get()) != 1
        || EVP_DigestSign(context.get(), reinterpret_cast<unsigned char *>(signature.data()), &length, bytes(message),
               message.size())
            != 1)
        return makeError(SigningErrc::Crypto, "cannot sign with the Ed25519 key");
    signature.resize(length);
    return signature;
}

bool verifyEd25519(std::string_view publicKey, std::string_view message, std::string_view signature)
{
    if (publicKey.size() != kEd25519KeySize || signature.size() != kEd25519SignatureSize)
        return false;
    const Pkey pkey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, bytes(publicKey), publicKey.size()));
    const DigestContext context(EVP_MD_CTX_new());
    return pkey && context && EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, pkey.get()) == 1
        && EVP_DigestVerify(context.get(), bytes(signature), signature.size(), bytes(message), message.size()) == 1;
}

std::string keyFingerprint(std::string_view publicKey)
{
    // The first 8 bytes of the key's SHA-256, as 16 hexadecimal digits.
    const Sha256Digest digest = sha256(publicKey);
    return toHex(std::span(digest).first(8));
}

} // namespace ccm
