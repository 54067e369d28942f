// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "base/signing_key.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_signature.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kBundleUsage
    = R"(Usage: ccm-backend bundle MANIFEST -o FILE.tar.gz [--list] [--include PATH]... [--sign KEY.pem]

Exports a manifest as a bundle: a gzip tar archive holding the manifest as manifest.yaml,
every file it reaches (file and scaffold sources, files read by template(), readFile(),
file() and jet(), resources_jet_file, apply child manifests and their files) in their
layout relative to it, and SHA256SUMS. The same input gives the same bytes. Manifests
are rewritten where upstream's CCM schema is stricter, keeping comments and layout.

Options:
  -o, --output FILE   where to write the bundle (.tar.gz or .tgz)
  --list              print what would go in, and the warnings, without writing
  --include PATH      add a file, or a directory whole, that the manifest reads in a way
                      that cannot be followed (a path computed at run time); repeatable
  --sign KEY.pem      sign the bundle with this Ed25519 private key (from `ccm-backend
                      fleet keygen`): SHA256SUMS.sig holds the signature over SHA256SUMS
                      and the key's fingerprint; the same input and key give the same bytes
  -h, --help          show this help

Exit status: 0 when the bundle was written (or listed), 1 when the manifest or a file
it reaches is invalid or missing, 2 for a usage error.
)";

struct BundleArguments {
    std::optional<std::string> manifestPath;
    std::optional<std::string> output;
    std::optional<std::string> signingKey;
    BundleOptions options;
    bool list = false;
};

/// Reads the command line into arguments; the exit code when the command ends there (help or a usage error).
std::optional<int> parseBundleArguments(
    const std::vector<std::string> &args, BundleArguments &arguments, std::ostream &out, std::ostream &err)
{
    const auto usageError = [&](const std::string &message) {
        err << "ccm-backend bundle: " << message << '\n' << kBundleUsage;
        return UsageError;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        const auto value = [&](std::string_view name) -> std::optional<std::string> {
            const std::string prefix = std::string(name) + '=';
            if (arg.starts_with(prefix))
                return arg.substr(prefix.size());
            if (arg != name)
                return std::nullopt;
            if (i + 1 >= args.size())
                return std::string();
            return args[++i];
        };
        if (arg == "-h" || arg == "--help") {
            out << kBundleUsage;
            return Success;
        }
        if (arg == "--list") {
            arguments.list = true;
        } else if (auto file = arg == "-o" ? value("-o") : value("--output")) {
            if (file->empty())
                return usageError("option " + arg + " needs a file name");
            arguments.output = *file;
        } else if (auto key = value("--sign")) {
            if (key->empty())
                return usageError("option --sign needs a key file");
            arguments.signingKey = *key;
        } else if (auto include = value("--include")) {
            if (include->empty())
                return usageError("option --include needs a path");
            arguments.options.includes.emplace_back(*include);
        } else if (arg.size() > 1 && arg.front() == '-') {
            return usageError("unknown option '" + arg + "'");
        } else if (arguments.manifestPath) {
            return usageError("only one manifest may be given");
        } else {
            arguments.manifestPath = arg;
        }
    }
    if (!arguments.manifestPath)
        return usageError("no manifest given");
    if (!arguments.output && !arguments.list)
        return usageError("no output file given; use -o FILE.tar.gz, or --list to see what would go in");
    if (arguments.output && !isBundlePath(*arguments.output))
        return usageError("the output file '" + *arguments.output + "' must end in .tar.gz or .tgz");
    return std::nullopt;
}

} // namespace

int bundleCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    BundleArguments arguments;
    if (const auto exitCode = parseBundleArguments(args, arguments, out, err))
        return *exitCode;
    const std::string &manifestPath = *arguments.manifestPath;
    const std::optional<std::string> &output = arguments.output;

    std::optional<SigningKey> key;
    if (arguments.signingKey) {
        auto loaded = loadPrivateKey(*arguments.signingKey);
        if (!loaded) {
            err << "ccm-backend bundle: --sign: " << loaded.error().message << '\n';
            return Failure;
        }
        key = std::move(loaded).value();
    }
    const BundlePlan plan = planBundle(manifestPath, arguments.options);
    for (const BundleFinding &finding : plan.findings)
        err << formatBundleFinding(finding) << '\n';
    if (!plan.ok()) {
        err << "ccm-backend bundle: " << manifestPath << " cannot be bundled; nothing was written\n";
        return Failure;
    }
    if (arguments.list) {
        for (const BundleMember &member : plan.members)
            out << member.path << '\n';
        out << kBundleChecksumsName << '\n';
        if (key)
            out << kBundleSignatureName << '\n';
        return Success;
    }
    auto written = writeBundle(plan, *output, key ? &*key : nullptr);
    if (!written) {
        err << "ccm-backend bundle: " << written.error().message << '\n';
        return Failure;
    }
    err << "ccm-backend bundle: wrote " << *output << " (" << plan.members.size() + (key ? 2 : 1) << " files)";
    if (key)
        err << ", signed by key " << keyFingerprint(key->publicKey);
    err << '\n';
    return Success;
}

} // namespace ccm::cli
