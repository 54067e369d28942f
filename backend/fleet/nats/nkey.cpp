// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/nkey.h"

#include "base/c_handle.h"

#include <array>
#include <cstdint>
#include <memory>
#include <openssl/evp.h>
#include <optional>
#include <sstream>
#include <vector>

namespace ccm::fleet {
namespace {

constexpr std::string_view kBase32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
// NKey prefix bytes: the first five bits of the encoded text select its kind.
constexpr std::uint8_t kPrefixSeed = 18 << 3;
constexpr std::uint8_t kPrefixUser = 20 << 3;
constexpr std::size_t kRawKeySize = 32;

std::uint16_t crc16(const std::uint8_t *data, std::size_t size)
{
    // CRC-16/XMODEM, the checksum NKeys append.
    std::uint16_t crc = 0;
    for (std::size_t i = 0; i < size; ++i) {
        crc ^= static_cast<std::uint16_t>(data[i]) << 8;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? static_cast<std::uint16_t>((crc << 1) ^ 0x1021)
                                 : static_cast<std::uint16_t>(crc << 1);
    }
    return crc;
}

std::optional<std::vector<std::uint8_t>> decodeBase32(std::string_view text)
{
    std::vector<std::uint8_t> out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const char c : text) {
        const std::size_t value = kBase32Alphabet.find(c);
        if (value == std::string_view::npos)
            return std::nullopt;
        buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>(buffer >> bits));
        }
    }
    return out;
}

std::string encodeBase32(const std::vector<std::uint8_t> &data)
{
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const std::uint8_t byte : data) {
        buffer = (buffer << 8) | byte;
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out += kBase32Alphabet[(buffer >> bits) & 31];
        }
    }
    if (bits > 0)
        out += kBase32Alphabet[(buffer << (5 - bits)) & 31];
    return out;
}

std::optional<std::array<std::uint8_t, kRawKeySize>> decodeUserSeed(std::string_view seed)
{
    auto raw = decodeBase32(seed);
    if (!raw || raw->size() != 2 + kRawKeySize + 2)
        return std::nullopt;
    const std::vector<std::uint8_t> &bytes = *raw;
    const auto stored = static_cast<std::uint16_t>(bytes[bytes.size() - 2] | (bytes[bytes.size() - 1] << 8));
    if (crc16(bytes.data(), bytes.size() - 2) != stored)
        return std::nullopt;
    if ((bytes[0] & 0xf8) != kPrefixSeed)
        return std::nullopt;
    const auto prefix = static_cast<std::uint8_t>(((bytes[0] & 7) << 5) | ((bytes[1] & 0xf8) >> 3));
    if (prefix != kPrefixUser)
        return std::nullopt;
    std::array<std::uint8_t, kRawKeySize> key {};
    std::copy(bytes.begin() + 2, bytes.begin() + 2 + kRawKeySize, key.begin());
    return key;
}

} // namespace

Result<std::string> nkeyUserPublicKey(const std::string &text)
{
    std::istringstream words(text);
    std::string word;
    std::optional<std::array<std::uint8_t, kRawKeySize>> seed;
    while (!seed && words >> word) {
        if (word.starts_with("SU"))
            seed = decodeUserSeed(word);
    }
    if (!seed)
        return Error {"bad_nkey", "no valid user NKey seed (a line starting with SU) found"};

    const CHandle<EVP_PKEY, EVP_PKEY_free> key(
        EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed->data(), seed->size()));
    std::vector<std::uint8_t> encoded(1 + kRawKeySize);
    std::size_t publicSize = kRawKeySize;
    if (!key || EVP_PKEY_get_raw_public_key(key.get(), encoded.data() + 1, &publicSize) != 1
        || publicSize != kRawKeySize)
        return Error {"bad_nkey", "the NKey seed is not a valid Ed25519 key"};
    encoded[0] = kPrefixUser;
    const std::uint16_t crc = crc16(encoded.data(), encoded.size());
    encoded.push_back(static_cast<std::uint8_t>(crc & 0xff));
    encoded.push_back(static_cast<std::uint8_t>(crc >> 8));
    return encodeBase32(encoded);
}

} // namespace ccm::fleet
