// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/capture_answer.h"

#include "base/user_database.h"
#include "core/capture/captured_manifest.h"
#include "engine/capture/host_capture.h"
#include "engine/util/user_identity.h"

namespace ccm::fleet {
namespace {

/// Refuses to start a command once the agent stops, so that a capture waiting on package or
/// service queries ends soon.
class CancellableCaptureRunner final : public CommandRunner {
public:
    CancellableCaptureRunner(CommandRunner &inner, const std::atomic<bool> *cancel)
        : m_inner(inner)
        , m_cancel(cancel)
    {
    }

    Result<CommandResult> run(const Command &command) override
    {
        if (m_cancel != nullptr && m_cancel->load())
            return Error {"cancelled", "the agent is stopping"};
        return m_inner.run(command);
    }

    [[nodiscard]] std::optional<Credentials> identity() const override { return m_inner.identity(); }

private:
    CommandRunner &m_inner;
    const std::atomic<bool> *m_cancel;
};

bool captureCancelled(const CaptureAnswerSettings &settings)
{
    return settings.cancel != nullptr && settings.cancel->load();
}

} // namespace

Result<Json> captureForRequest(
    const CaptureSelection &selection, const CaptureAnswerSettings &settings, CommandRunner &runner)
{
    auto user = findUser(settings.previewUser);
    if (!user)
        return user.error().withContext("looking up the preview user " + settings.previewUser);
    if (!user->has_value())
        return Error {"no_user",
            "the preview user '" + settings.previewUser
                + "' does not exist on this host; create it or set preview.user to an existing user"};
    const engine::UserIdentity reader = engine::describeUser((*user)->uid, (*user)->gid);
    engine::CaptureRequest request;
    request.packages = selection.packages;
    request.services = selection.services;
    request.files.assign(selection.files.begin(), selection.files.end());
    request.excludes = selection.excludes;
    request.data = selection.data;
    request.pin = selection.pin;
    request.includePrivate = selection.includePrivate;
    request.limits = fleetCaptureLimits();
    request.reader = reader;
    request.command = captureCommandLine(selection);
    if (captureCancelled(settings))
        return Error {"cancelled", "the agent is stopping"};
    // Every package and service query runs as the preview user, like a preview's.
    IdentityRunner asReader(runner, engine::userCredentials(reader));
    CancellableCaptureRunner cancellable(asReader, settings.cancel);
    auto capture = engine::captureHost(request, cancellable);
    if (!capture)
        return capture.error();
    if (captureCancelled(settings))
        return Error {"cancelled", "the agent is stopping"};
    Json json = captureToJson(*capture);
    const std::size_t size = json.dump(-1, ' ', false, Json::error_handler_t::replace).size();
    if (settings.maxAnswerBytes > 0 && size > settings.maxAnswerBytes)
        return Error {"too_large",
            "the capture is " + std::to_string(size) + " bytes as JSON, more than the "
                + std::to_string(settings.maxAnswerBytes)
                + " a fleet capture may send; narrow it with fewer paths or --exclude"};
    return json;
}

} // namespace ccm::fleet
