// SPDX-License-Identifier: Apache-2.0
// Signed bundles: the SHA256SUMS.sig member, signing a bundle, and what its signature says.
#include "core/bundle/bundle_signature.h"

#include "base/base64.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "core/model/json.h"

#include <algorithm>
#include <sys/stat.h>

namespace ccm {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kAlgorithm = "ed25519";
/// The member is one short line; anything longer is not one.
constexpr std::size_t kMaxSignatureMemberBytes = 4096;

Error badSignature(const std::string &what)
{
    return Error {"bad_signature", std::string(kBundleSignatureName) + ": " + what};
}

Result<std::string> decodedField(const Json &object, const char *field, std::size_t size)
{
    const auto member = object.find(field);
    if (member == object.end() || !member->is_string())
        return badSignature(std::string("'") + field + "' is missing or not a string");
    auto decoded = decodeBase64(member->get_ref<const std::string &>());
    if (!decoded || decoded->size() != size)
        return badSignature(std::string("'") + field + "' is not the base64 of " + std::to_string(size) + " bytes");
    return decoded;
}

/// The bundle's files below its base directory as a plan, SHA256SUMS and its signature left out
/// (writeBundle() makes them again). A file outside the base directory would not be covered by
/// SHA256SUMS, so such a bundle is not signed.
Result<BundlePlan> planOf(const UnpackedBundle &bundle)
{
    BundlePlan plan;
    const fs::path base = bundle.baseDirectory();
    std::error_code error;
    for (auto it = fs::recursive_directory_iterator(bundle.directory(), error); !error && it != fs::end(it);
         it.increment(error)) {
        if (!it->is_regular_file(error))
            continue;
        const fs::path relative = it->path().lexically_relative(base);
        if (relative.empty() || *relative.begin() == "..")
            return Error {"invalid_bundle",
                "'" + it->path().lexically_relative(bundle.directory()).generic_string()
                    + "' lies outside the manifest's directory, where SHA256SUMS cannot cover it; make the bundle "
                      "again with `ccm-backend bundle`"};
        const std::string path = relative.generic_string();
        if (path == kBundleChecksumsName || path == kBundleSignatureName)
            continue;
        struct stat info { };
        const bool executable = ::stat(it->path().c_str(), &info) == 0 && (info.st_mode & 0111) != 0;
        plan.members.push_back(BundleMember {path, it->path(), std::nullopt, executable});
    }
    if (error)
        return Error {"io", "cannot list the unpacked bundle: " + error.message()};
    std::sort(plan.members.begin(), plan.members.end(),
        [](const BundleMember &a, const BundleMember &b) { return a.path < b.path; });
    return plan;
}

} // namespace

std::string BundleSignature::fingerprint() const
{
    return keyFingerprint(publicKey);
}

std::string formatBundleSignature(const BundleSignature &signature)
{
    Json object = Json::object();
    appendMember(object, "algorithm", std::string(kAlgorithm));
    appendMember(object, "fingerprint", signature.fingerprint());
    appendMember(object, "key", encodeBase64(signature.publicKey));
    appendMember(object, "signature", encodeBase64(signature.signature));
    return object.dump() + '\n';
}

Result<BundleSignature> parseBundleSignature(std::string_view text)
{
    if (text.size() > kMaxSignatureMemberBytes)
        return badSignature("longer than " + std::to_string(kMaxSignatureMemberBytes) + " bytes");
    const Json object = parseJson(text, false);
    if (!object.is_object())
        return badSignature("not a JSON object");
    for (const auto &[key, value] : object.items())
        if (key != "algorithm" && key != "fingerprint" && key != "key" && key != "signature")
            return badSignature("unknown field '" + key + "'");
    if (stringMember(object, "algorithm") != kAlgorithm)
        return badSignature("'algorithm' is not \"ed25519\"");
    auto key = decodedField(object, "key", kEd25519KeySize);
    if (!key)
        return key.error();
    auto signature = decodedField(object, "signature", kEd25519SignatureSize);
    if (!signature)
        return signature.error();
    BundleSignature parsed {std::move(key).value(), std::move(signature).value()};
    if (stringMember(object, "fingerprint") != parsed.fingerprint())
        return badSignature("'fingerprint' is not that of 'key'");
    return parsed;
}

Result<BundleSignature> signChecksums(const SigningKey &key, std::string_view checksums)
{
    auto signature = signEd25519(key, checksums);
    if (!signature)
        return signature.error();
    return BundleSignature {key.publicKey, std::move(signature).value()};
}

std::string BundleSignatureCheck::describe() const
{
    switch (state) {
    case State::Unsigned:
        return "not signed";
    case State::Signed:
        return "signed by key " + signature->fingerprint();
    case State::Invalid:
        return "its signature is invalid: " + problem;
    }
    return {};
}

bool BundleSignatureCheck::signedByOneOf(const std::vector<std::string> &keys) const
{
    return state == State::Signed && std::find(keys.begin(), keys.end(), signature->publicKey) != keys.end();
}

std::string BundleSignatureCheck::refusal(const std::vector<std::string> &keys) const
{
    if (signedByOneOf(keys))
        return {};
    switch (state) {
    case State::Unsigned:
        return "it is not signed, and only bundles signed by a trusted key are accepted";
    case State::Signed:
        return "it is signed by key " + signature->fingerprint() + ", which is not trusted";
    case State::Invalid:
        return describe();
    }
    return {};
}

std::optional<Error> BundleSignatureCheck::refusalError(const std::vector<std::string> &keys) const
{
    if (signedByOneOf(keys))
        return std::nullopt;
    const BundleSignatureErrc code = state == State::Unsigned ? BundleSignatureErrc::Unsigned
        : state == State::Signed                              ? BundleSignatureErrc::Untrusted
                                                              : BundleSignatureErrc::Invalid;
    return makeError(code, refusal(keys));
}

Result<BundleSignatureCheck> signBundleFile(const fs::path &input, const SigningKey &key, const fs::path &output)
{
    auto bundle = UnpackedBundle::unpack(input);
    if (!bundle)
        return bundle.error().withContext(input.string());
    auto plan = planOf(bundle.value());
    if (!plan)
        return plan.error().withContext(input.string());
    auto written = writeBundle(plan.value(), output, &key);
    if (!written)
        return written.error();
    return readBundleSignature(output);
}

Result<BundleSignatureCheck> readBundleSignature(const fs::path &archive)
{
    auto bundle = UnpackedBundle::unpack(archive);
    if (!bundle)
        return bundle.error().withContext(archive.string());
    return bundle->signatureCheck();
}

} // namespace ccm
