// SPDX-License-Identifier: Apache-2.0
#include "app/manifest_input.h"

#include "base/file_reading.h"
#include "base/temp_dir.h"

#include <array>
#include <atomic>
#include <csignal>
#include <unistd.h>

namespace ccm::cli {
namespace {

/// The lists of paths the signal handler removes. A list is published before anything it names
/// is created and withdrawn after it is gone, so the handler only reads lists nothing changes.
constexpr std::size_t kSlots = 8;
std::array<std::atomic<const std::vector<std::string> *>, kSlots> g_removeOnSignal {};

/// The handlers before the first RemoveOnSignal, restored after the last.
int g_guards = 0;
struct sigaction g_oldInt { };
struct sigaction g_oldTerm { };

std::string withoutPrefix(const std::string &message, const std::string &prefix)
{
    return message.starts_with(prefix) ? message.substr(prefix.size()) : message;
}

std::vector<std::string> withDirectory(std::vector<std::string> paths, const std::filesystem::path &directory)
{
    paths.push_back(directory.string());
    return paths;
}

} // namespace

extern "C" void removeBundlesAndDie(int signal)
{
    for (const auto &slot : g_removeOnSignal) {
        if (const std::vector<std::string> *paths = slot.load()) {
            for (const std::string &path : *paths)
                if (::unlink(path.c_str()) != 0)
                    ::rmdir(path.c_str());
        }
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

RemoveOnSignal::RemoveOnSignal(std::vector<std::string> paths)
    : m_paths(std::make_unique<std::vector<std::string>>(std::move(paths)))
{
    for (std::size_t i = 0; i < kSlots && m_slot < 0; ++i) {
        if (g_removeOnSignal[i].load() == nullptr) {
            m_slot = static_cast<int>(i);
            g_removeOnSignal[i].store(m_paths.get());
        }
    }
    if (g_guards++ == 0) {
        struct sigaction action { };
        action.sa_handler = removeBundlesAndDie;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &g_oldInt);
        ::sigaction(SIGTERM, &action, &g_oldTerm);
    }
}

RemoveOnSignal::~RemoveOnSignal()
{
    if (--g_guards == 0) {
        ::sigaction(SIGINT, &g_oldInt, nullptr);
        ::sigaction(SIGTERM, &g_oldTerm, nullptr);
    }
    if (m_slot >= 0)
        g_removeOnSignal[static_cast<std::size_t>(m_slot)].store(nullptr);
}

void RemoveOnSignal::replace(std::vector<std::string> paths)
{
    auto next = std::make_unique<std::vector<std::string>>(std::move(paths));
    if (m_slot >= 0)
        g_removeOnSignal[static_cast<std::size_t>(m_slot)].store(next.get());
    // The commands are single-threaded: a handler that read the old list has ended the process.
    m_paths = std::move(next);
}

Result<std::unique_ptr<PrivateDirectory>> PrivateDirectory::create(const std::vector<std::string> &files)
{
    auto created = TempDir::create("ccm-source");
    if (!created)
        return created.error();
    std::unique_ptr<PrivateDirectory> directory(new PrivateDirectory);
    directory->m_directory = std::move(created).value();
    std::vector<std::string> paths;
    for (const std::string &file : files)
        paths.push_back((directory->path() / file).string());
    directory->m_onSignal.emplace(withDirectory(std::move(paths), directory->path()));
    return directory;
}

PrivateDirectory::~PrivateDirectory()
{
    // Removed first, then no longer covered: a signal in between finds nothing left to remove.
    (void)m_directory.remove();
    m_onSignal.reset();
}

std::string ManifestInput::displayName(const std::string &argument)
{
    return fleet::redactUrl(argument);
}

Result<ManifestInput> ManifestInput::open(const std::string &argument, const fleet::SourceOptions &sources)
{
    ManifestInput input;
    const fleet::SourceKind kind = fleet::sourceKind(argument);
    if (kind == fleet::SourceKind::YamlFile) {
        if (!sources.requiredSigners.empty())
            return makeError(BundleSignatureErrc::Unsigned,
                "a manifest file cannot carry a signature; --require-signature takes a bundle (make one with "
                "`ccm-backend bundle --sign`)");
        input.m_file = argument;
        input.m_shownName = argument;
        return input;
    }
    if (kind == fleet::SourceKind::HttpBundle || kind == fleet::SourceKind::ObjectBundle) {
        auto download = BundleDownload::create();
        if (!download)
            return download.error();
        input.m_onSignal = std::make_unique<RemoveOnSignal>(download->fetchPaths());
        auto fetched = fleet::fetchBundle(argument, sources, download->archivePath());
        if (!fetched) {
            // The caller names the source: the message keeps what failed.
            const std::string shown = displayName(argument);
            return Error {fetched.error().code,
                withoutPrefix(withoutPrefix(fetched.error().message, "fetching " + shown + ": "), shown + ": ")};
        }
        auto bundle = UnpackedBundle::unpack(std::move(download).value());
        if (!bundle)
            return bundle.error();
        input.m_bundle.emplace(std::move(bundle).value());
        input.m_onSignal->replace(input.m_bundle->createdPaths());
    } else {
        auto bundle = UnpackedBundle::unpack(argument);
        if (!bundle)
            return bundle.error();
        input.m_bundle.emplace(std::move(bundle).value());
        input.m_onSignal = std::make_unique<RemoveOnSignal>(input.m_bundle->createdPaths());
    }
    if (!sources.requiredSigners.empty())
        if (auto refused = input.m_bundle->signatureCheck().refusalError(sources.requiredSigners))
            return *refused;
    input.m_file = input.m_bundle->manifestPath();
    input.m_displayName = displayName(argument);
    input.m_shownName = input.m_displayName + '('
        + input.m_file.lexically_relative(input.m_bundle->directory()).generic_string() + ')';
    return input;
}

std::string ManifestInput::signatureNote() const
{
    if (!m_bundle)
        return {};
    const BundleSignatureCheck &check = m_bundle->signatureCheck();
    const bool invalid = check.state == BundleSignatureCheck::State::Invalid;
    return m_displayName + ": " + (invalid ? "warning: " : "") + check.describe();
}

ManifestInput::ManifestInput(ManifestInput &&other) noexcept
    : m_file(std::move(other.m_file))
    , m_shownName(std::move(other.m_shownName))
    , m_displayName(std::move(other.m_displayName))
    , m_bundle(std::move(other.m_bundle))
    , m_onSignal(std::move(other.m_onSignal))
{
    other.m_bundle.reset();
}

ManifestInput::~ManifestInput()
{
    // Removed first, then no longer covered: a signal in between finds nothing left to remove.
    m_bundle.reset();
    m_onSignal.reset();
}

std::filesystem::path ManifestInput::baseDirectory() const
{
    if (m_bundle)
        return m_bundle->baseDirectory();
    const std::filesystem::path parent = m_file.parent_path();
    return parent.empty() ? std::filesystem::path(".") : parent;
}

Result<std::string> fetchText(const std::string &url, const fleet::SourceOptions &sources, std::uint64_t maxBytes)
{
    auto directory = PrivateDirectory::create({"data.part", "data"});
    if (!directory)
        return directory.error();
    fleet::SourceOptions options = sources;
    options.maxBytes = maxBytes;
    const std::filesystem::path file = directory.value()->path() / "data";
    auto fetched = fleet::fetchHttp(url, options, file);
    if (!fetched)
        return fetched.error();
    auto content = readRegularFile(file, maxBytes);
    if (!content)
        return Error {"io", fleet::redactUrl(url) + ": cannot read the downloaded file"};
    return std::move(content).value();
}

} // namespace ccm::cli
