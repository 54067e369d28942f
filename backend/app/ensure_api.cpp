// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/ensure_run.h"
#include "core/model/ensure_request.h"

#include <exception>
#include <istream>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kPipeUsage
    = R"(Usage: ccm-backend ensure api pipe [--yaml] [--noop] [--facts FILE] [--data FILE|URL]
                                  [--session DIR] [--hiera SOURCE] [--read-env|--no-read-env]
                                  [--context NAME] [--nats URL]

Reads one resource ensure request (protocol io.choria.ccm.v1.resource.ensure.request) as
JSON or YAML from standard input, ensures that one resource as `ensure TYPE` would, and
writes one response (io.choria.ccm.v1.resource.ensure.response) to standard output: the
resource's transaction event as "state", or why nothing was applied as "error". Text that
starts with '{' or '[' is read as JSON, anything else as YAML. Requests over 4 MiB are
refused. `ensure api piped` is the same command.

A request names the protocol, the resource's type (package, service, file, exec, archive
or scaffold) and its properties, `name` among them, which obey the same schema and rules
as in a manifest: {"protocol": "io.choria.ccm.v1.resource.ensure.request", "type": "file",
"properties": {"name": "/etc/motd", "ensure": "present", "content": "hello", "owner": "root",
"group": "root", "mode": "0644"}}. The properties may also be given as in a manifest: a
list of one {NAME: {...}} entry, with an optional {defaults: {...}} entry.

Options:
  --yaml              write the response as YAML instead of JSON
  --noop              change nothing; the event says what would change
  --facts FILE        facts (a JSON or YAML map) merged over the system's
  --data FILE|URL     data (a JSON or YAML map) merged over the Hiera data that templates
                      see; a file, an http(s):// URL or kv://BUCKET/KEY
  --session DIR       record the event in this session store (default: $CCM_SESSION_STORE)
  --hiera SOURCE      Hiera data resolved against the facts (default: $CCM_HIERA_DATA,
                      else .hiera; a missing file is no data)
  --read-env, --no-read-env
                      merge ./.env into the environment templates see (default: --read-env)
  --context NAME, --nats URL
                      how kv lookups in templates reach NATS
  -h, --help          show this help

Exit status: 0 when a response was written, whether it carries a state (changed,
stable, failed or skipped alike) or an error; read the response to know what happened.
1 when the response could not be written, 2 when the command line is wrong (then
standard input is not read and nothing is written to standard output).
)";

/// Reads standard input up to one byte past the limit, so that a larger request is known as such
/// without reading all of it.
std::string readRequest(std::istream &in)
{
    std::string text;
    char buffer[64 * 1024];
    while (text.size() <= kMaxEnsureRequestBytes && in.read(buffer, sizeof buffer))
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() <= kMaxEnsureRequestBytes)
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    return text;
}

/// Logs of the resource's type and provider go to standard error, which the response never uses.
class PipeObserver : public engine::RunObserver {
public:
    explicit PipeObserver(std::ostream &err)
        : m_err(err)
    {
    }

    void log(engine::LogLevel level, std::string_view resource, std::string_view message) override
    {
        if (level == engine::LogLevel::Warning || level == engine::LogLevel::Error)
            m_err << resource << ": " << message << '\n';
    }

private:
    std::ostream &m_err;
};

/// Takes the options of the pipe itself at args[index]; false when args[index] is not one of them.
Result<bool> takePipeOption(
    const std::vector<std::string> &args, std::size_t &index, EnsureSettings &settings, bool &yaml)
{
    const std::string &arg = args[index];
    if (arg == "--yaml") {
        yaml = true;
        return true;
    }
    if (arg == "--noop") {
        settings.noop = true;
        return true;
    }
    for (std::string_view option : {"--facts", "--data"}) {
        std::string value;
        if (arg == option) {
            if (index + 1 >= args.size())
                return Error {"usage", std::string(option) + " needs a value"};
            value = args[++index];
        } else if (arg.starts_with(std::string(option) + "=")) {
            value = arg.substr(option.size() + 1);
        } else {
            continue;
        }
        if (value.empty())
            return Error {"usage", std::string(option) + " needs a value"};
        if (option == "--facts")
            settings.facts.factsFile = value;
        else
            settings.dataFile = value;
        return true;
    }
    return false;
}

/// The response to one request read from `in`; never throws.
Json answer(std::istream &in, const EnsureSettings &settings, std::ostream &err)
{
    try {
        const std::string text = readRequest(in);
        if (in.bad())
            return ensureErrorResponse("cannot read the request from standard input");
        const auto request = parseEnsureRequest(text);
        if (!request)
            return ensureErrorResponse(request.error().message);
        PipeObserver observer(err);
        const auto event = ensureResource(request->type, request->properties, settings, observer);
        if (!event)
            return ensureErrorResponse(event.error().message);
        return ensureStateResponse(event.value());
    } catch (const std::exception &e) {
        return ensureErrorResponse(std::string("the request could not be handled: ") + e.what());
    }
}

} // namespace

int ensureApiPipe(const std::vector<std::string> &args, const EnsureSettings &defaults, std::istream &in,
    std::ostream &out, std::ostream &err)
{
    EnsureSettings settings = defaults;
    bool yaml = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << kPipeUsage;
            return Success;
        }
        auto taken = takePipeOption(args, i, settings, yaml);
        if (taken && !taken.value())
            taken = takeEnsureOption(args, i, settings);
        if (!taken) {
            err << "ccm-backend ensure api pipe: " << taken.error().message << '\n';
            return UsageError;
        }
        if (!taken.value()) {
            err << "ccm-backend ensure api pipe: unknown argument '" << arg << "'\n" << kPipeUsage;
            return UsageError;
        }
    }
    const Json response = answer(in, settings, err);
    std::string text;
    try {
        text = formatEnsureResponse(response, yaml);
    } catch (const std::exception &e) {
        text = formatEnsureResponse(
            ensureErrorResponse(std::string("the response could not be written: ") + e.what()), false);
    }
    out << text << std::flush;
    if (!out) {
        err << "ccm-backend ensure api pipe: cannot write the response\n";
        return Failure;
    }
    return Success;
}

} // namespace ccm::cli
