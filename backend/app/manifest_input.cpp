// SPDX-License-Identifier: Apache-2.0
#include "manifest_input.h"

#include <atomic>
#include <csignal>
#include <unistd.h>

namespace ccm::cli {
namespace {

/// The paths the signal handler removes: those of the one unpacked bundle a command holds. Set
/// before the handler is installed and cleared after it is gone, so the handler only reads a list
/// nothing changes.
std::atomic<const std::vector<std::string> *> g_removeOnSignal {nullptr};

/// SIGINT and SIGTERM remove the bundle while it exists; the previous handlers come back after.
class RemoveOnSignal {
public:
    explicit RemoveOnSignal(std::vector<std::string> paths)
        : m_paths(std::move(paths))
    {
        g_removeOnSignal.store(&m_paths);
        struct sigaction action { };
        action.sa_handler = removeBundlesAndDie;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &m_oldInt);
        ::sigaction(SIGTERM, &action, &m_oldTerm);
    }
    ~RemoveOnSignal()
    {
        ::sigaction(SIGINT, &m_oldInt, nullptr);
        ::sigaction(SIGTERM, &m_oldTerm, nullptr);
        g_removeOnSignal.store(nullptr);
    }
    RemoveOnSignal(const RemoveOnSignal &) = delete;
    RemoveOnSignal &operator=(const RemoveOnSignal &) = delete;

private:
    std::vector<std::string> m_paths;
    struct sigaction m_oldInt { };
    struct sigaction m_oldTerm { };
};

std::optional<RemoveOnSignal> g_signalGuard;

} // namespace

extern "C" void removeBundlesAndDie(int signal)
{
    if (const std::vector<std::string> *paths = g_removeOnSignal.load()) {
        // Deepest first: files are unlinked and each directory is empty by the time it is reached.
        for (const std::string &path : *paths)
            if (::unlink(path.c_str()) != 0)
                ::rmdir(path.c_str());
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

Result<ManifestInput> ManifestInput::open(const std::string &argument)
{
    ManifestInput input;
    if (!isBundlePath(argument)) {
        input.m_file = argument;
        input.m_shownName = argument;
        return input;
    }
    if (g_signalGuard)
        return Error {"usage", "only one bundle can be open at a time"};
    auto bundle = UnpackedBundle::unpack(argument);
    if (!bundle)
        return bundle.error();
    input.m_bundle.emplace(std::move(bundle).value());
    input.m_file = input.m_bundle->manifestPath();
    input.m_shownName
        = argument + '(' + input.m_file.lexically_relative(input.m_bundle->directory()).generic_string() + ')';
    g_signalGuard.emplace(input.m_bundle->createdPaths());
    return input;
}

ManifestInput::ManifestInput(ManifestInput &&other) noexcept
    : m_file(std::move(other.m_file))
    , m_shownName(std::move(other.m_shownName))
    , m_bundle(std::move(other.m_bundle))
{
    other.m_bundle.reset();
}

ManifestInput::~ManifestInput()
{
    if (m_bundle) {
        g_signalGuard.reset();
        m_bundle.reset();
    }
}

std::filesystem::path ManifestInput::baseDirectory() const
{
    if (m_bundle)
        return m_bundle->baseDirectory();
    const std::filesystem::path parent = m_file.parent_path();
    return parent.empty() ? std::filesystem::path(".") : parent;
}

} // namespace ccm::cli
