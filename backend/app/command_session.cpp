// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/ensure_run.h"
#include "app/option_value.h"
#include "app/session_store.h"
#include "base/temp_dir.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kSessionUsage = R"usage(Usage: ccm-backend session new [--directory DIR]
       ccm-backend session report [--session DIR] [--remove]

Sessions carry the outcome of `ensure` calls from one call to the next: within a session,
--require fails a resource whose requirement failed earlier, and --subscribe (-S)
refreshes a resource when the one it subscribes to changed earlier. A session store is a
directory holding one JSON file per event (<ksuid>.event), in upstream CCM's format, so
upstream's ccm can share it.

Commands:
  new                 create a session store and print the line that makes later ensure
                      calls use it: eval "$(ccm-backend session new)" (also start, create)
  report              print the summary of a session

Options:
  --directory DIR     new: the store's directory, which must not exist yet (default: a new
                      ccm-session-XXXXXX in the temporary directory, $TMPDIR or /tmp)
  --session DIR       report: the session store (default: $CCM_SESSION_STORE)
  --remove            report: remove the store after the report, when it is inside the
                      temporary directory; a store elsewhere is kept, and said so
  -h, --help          show this help

Exit status: 0 on success, 1 when the store cannot be created, read or removed, 2 when
the command line is wrong or no session store is given.
)usage";

constexpr std::string_view kNewUsage = R"usage(Usage: ccm-backend session new [--directory DIR]

Creates a session store and prints the line that makes later ensure calls use it, for
eval "$(ccm-backend session new)". Also called start and create.

Options:
  --directory DIR     the store's directory, which must not exist yet (default: a new
                      ccm-session-XXXXXX in the temporary directory, $TMPDIR or /tmp)
  -h, --help          show this help

Exit status: 0 on success, 1 when the store cannot be created (it exists), 2 when the
command line is wrong.
)usage";

constexpr std::string_view kReportUsage = R"usage(Usage: ccm-backend session report [--session DIR] [--remove]

Prints the summary of a session: its run time, and how many resources its events have,
how many are unique, stable, changed, failed, skipped and refreshed, and its errors.
Event files that cannot be read are skipped, each said on stderr.

Options:
  --session DIR       the session store (default: $CCM_SESSION_STORE)
  --remove            remove the store after the report when it is inside the temporary
                      directory ($TMPDIR or /tmp); a store elsewhere is kept, and said so
  -h, --help          show this help

Exit status: 0 on success, 1 when the store cannot be read or removed, 2 when the
command line is wrong or no session store is given.
)usage";

/// A path as a shell word: as it is when that is safe, else in single quotes.
std::string shellWord(const std::string &text)
{
    const bool plain = !text.empty() && std::ranges::all_of(text, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || std::string_view("/._-+,:@%=").find(c) != std::string_view::npos;
    });
    if (plain)
        return text;
    std::string quoted = "'";
    for (char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

int newSession(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    std::optional<std::string> directory;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (auto value = optionValue(args, i, "--directory")) {
            if (!*value) {
                err << "ccm-backend session new: " << value->error().message << '\n';
                return UsageError;
            }
            directory = value->value();
            continue;
        }
        err << "ccm-backend session new: unexpected argument '" << args[i] << "'\n";
        return UsageError;
    }
    if (directory && directory->empty()) {
        err << "ccm-backend session new: --directory must not be empty\n";
        return UsageError;
    }
    Result<SessionStore> store = Error {};
    if (directory) {
        store = SessionStore::create(*directory);
    } else {
        auto made = TempDir::create("ccm-session");
        if (!made) {
            err << "ccm-backend session new: " << made.error().message << '\n';
            return Failure;
        }
        store = SessionStore::start(made.value().release());
    }
    if (!store) {
        err << "ccm-backend session new: " << store.error().message << '\n';
        return Failure;
    }
    out << "export CCM_SESSION_STORE=" << shellWord(store->directory().string()) << '\n';
    return Success;
}

/// Whether `directory` lies inside the temporary directory (not the directory itself), symlinks
/// resolved, as upstream's --remove asks.
bool insideTemporaryDirectory(const std::filesystem::path &directory)
{
    std::error_code error;
    const auto temporary = std::filesystem::weakly_canonical(TempDir::systemDirectory(), error);
    const auto target = std::filesystem::weakly_canonical(directory, error);
    if (error)
        return false;
    const std::filesystem::path relative = target.lexically_relative(temporary);
    return !relative.empty() && relative != "." && *relative.begin() != "..";
}

/// Removes the store after its report when it is inside the temporary directory.
int removeSession(const SessionStore &store, std::ostream &err)
{
    if (!insideTemporaryDirectory(store.directory())) {
        err << "ccm-backend session report: not removing " << store.directory().string()
            << ": only a session store inside the temporary directory (" << TempDir::systemDirectory().string()
            << ") is removed\n";
        return Success;
    }
    std::error_code error;
    std::filesystem::remove_all(store.directory(), error);
    if (error) {
        err << "ccm-backend session report: cannot remove " << store.directory().string() << ": " << error.message()
            << '\n';
        return Failure;
    }
    return Success;
}

int reportSession(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    std::optional<std::string> directory;
    if (const char *fromEnvironment = std::getenv("CCM_SESSION_STORE"); fromEnvironment && *fromEnvironment)
        directory = fromEnvironment;
    bool remove = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--remove") {
            remove = true;
            continue;
        }
        auto value = optionValue(args, i, "--session");
        if (!value || !*value) {
            err << "ccm-backend session report: "
                << (value ? value->error().message : "unexpected argument '" + args[i] + "'") << '\n';
            return UsageError;
        }
        directory = value->value();
    }
    if (!directory || directory->empty()) {
        err << "ccm-backend session report: no session store specified; give --session DIR or set "
               "CCM_SESSION_STORE\n";
        return UsageError;
    }
    auto store = SessionStore::open(*directory);
    auto contents = store ? store->read() : Result<SessionContents>(store.error());
    if (!contents) {
        err << "ccm-backend session report: " << contents.error().message << '\n';
        return Failure;
    }
    for (const std::string &problem : contents->problems)
        err << "ccm-backend session report: skipped " << problem << '\n';
    out << sessionSummaryText(summarizeSession(contents.value())) << std::flush;
    return remove ? removeSession(store.value(), err) : Success;
}

} // namespace

int sessionCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty()) {
        err << "ccm-backend session: expected new or report\n" << kSessionUsage;
        return UsageError;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (std::ranges::any_of(args, [](const std::string &arg) { return arg == "-h" || arg == "--help"; })) {
        const bool isNew = args[0] == "new" || args[0] == "start" || args[0] == "create";
        out << (isNew ? kNewUsage : args[0] == "report" ? kReportUsage : kSessionUsage);
        return Success;
    }
    if (args[0] == "new" || args[0] == "start" || args[0] == "create")
        return newSession(rest, out, err);
    if (args[0] == "report")
        return reportSession(rest, out, err);
    err << "ccm-backend session: unknown command '" << args[0] << "'; expected new or report\n" << kSessionUsage;
    return UsageError;
}

} // namespace ccm::cli
