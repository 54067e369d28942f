// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/capture_wire.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace ccm::fleet {
namespace {

Error badCaptureRequest(const std::string &what)
{
    return Error {"bad_request", "malformed preview request: " + what};
}

struct CaptureList {
    const char *key;
    std::vector<std::string> CaptureSelection::*member;
};

constexpr std::array<CaptureList, 4> kCaptureLists {{
    {"packages", &CaptureSelection::packages},
    {"services", &CaptureSelection::services},
    {"files", &CaptureSelection::files},
    {"excludes", &CaptureSelection::excludes},
}};

struct CaptureFlag {
    const char *key;
    bool CaptureSelection::*member;
};

constexpr std::array<CaptureFlag, 3> kCaptureFlags {{
    {"data", &CaptureSelection::data},
    {"pin", &CaptureSelection::pin},
    {"include_private", &CaptureSelection::includePrivate},
}};

/// The list member `key`: at most kMaxCapturePatterns strings, each non-empty, at most
/// kMaxCapturePatternBytes, without NUL; with `absolute`, each starting with '/'.
Result<std::vector<std::string>> captureList(const Json &capture, const char *key, bool absolute)
{
    const std::string where = std::string("\"capture.") + key;
    const auto found = capture.find(key);
    if (found == capture.end() || !found->is_array() || found->size() > kMaxCapturePatterns)
        return badCaptureRequest(
            where + "\" must be a list of at most " + std::to_string(kMaxCapturePatterns) + " strings");
    std::vector<std::string> items;
    items.reserve(found->size());
    for (std::size_t i = 0; i < found->size(); ++i) {
        const Json &item = (*found)[i];
        const std::string at = where + "[" + std::to_string(i) + "]\"";
        if (!item.is_string())
            return badCaptureRequest(at + " must be a string");
        const std::string &text = item.get_ref<const std::string &>();
        if (text.empty() || text.size() > kMaxCapturePatternBytes || text.find('\0') != std::string::npos)
            return badCaptureRequest(
                at + " must be 1 to " + std::to_string(kMaxCapturePatternBytes) + " bytes without NUL");
        if (absolute && !text.starts_with('/'))
            return badCaptureRequest(at + " must be an absolute path");
        items.push_back(text);
    }
    return items;
}

} // namespace

Json captureSelectionToJson(const CaptureSelection &selection)
{
    Json json {{"host", selection.host}};
    for (const CaptureList &list : kCaptureLists)
        json[list.key] = selection.*list.member;
    for (const CaptureFlag &flag : kCaptureFlags)
        json[flag.key] = selection.*flag.member;
    return json;
}

Result<CaptureSelection> captureSelectionFromJson(const Json &json)
{
    constexpr std::size_t kMembers = 1 + kCaptureLists.size() + kCaptureFlags.size();
    if (!json.is_object() || json.size() != kMembers)
        return badCaptureRequest("\"capture\" must be an object with host, packages, services, files, excludes, "
                                 "data, pin and include_private, and nothing else");
    CaptureSelection selection;
    const auto host = json.find("host");
    if (host == json.end() || !host->is_string() || host->get_ref<const std::string &>().empty()
        || host->get_ref<const std::string &>().size() > kMaxCaptureHostBytes)
        return badCaptureRequest(
            "\"capture.host\" must be an agent identity (1 to " + std::to_string(kMaxCaptureHostBytes) + " bytes)");
    selection.host = host->get<std::string>();
    for (const CaptureList &list : kCaptureLists) {
        auto items = captureList(json, list.key, list.member == &CaptureSelection::files);
        if (!items)
            return items.error();
        selection.*list.member = std::move(items).value();
    }
    for (const CaptureFlag &flag : kCaptureFlags) {
        const auto found = json.find(flag.key);
        if (found == json.end() || !found->is_boolean())
            return badCaptureRequest(std::string("\"capture.") + flag.key + "\" must be a boolean");
        selection.*flag.member = found->get<bool>();
    }
    return selection;
}

Result<void> checkCaptureAnswer(const Json &message)
{
    const auto capture = message.find("capture");
    if (capture == message.end() || !capture->is_object())
        return Error {"bad_answer", "malformed preview answer: \"capture\" needs a \"capture\" object"};
    return {};
}

CaptureLimits fleetCaptureLimits()
{
    CaptureLimits limits;
    limits.maxFileBytes = 8ull * 1024 * 1024;
    limits.maxTotalBytes = 32ull * 1024 * 1024;
    return limits;
}

std::vector<std::string> captureCommandLine(const CaptureSelection &selection)
{
    std::vector<std::string> command {"ccm-backend", "fleet", "capture", selection.host};
    const std::array<std::pair<const char *, const std::vector<std::string> *>, 4> lists {{
        {"--package", &selection.packages},
        {"--service", &selection.services},
        {"--file", &selection.files},
        {"--exclude", &selection.excludes},
    }};
    for (const auto &[option, items] : lists)
        for (const std::string &item : *items) {
            command.emplace_back(option);
            command.push_back(item);
        }
    if (selection.data)
        command.emplace_back("--data");
    if (selection.pin)
        command.emplace_back("--pin");
    if (selection.includePrivate)
        command.emplace_back("--include-private");
    return command;
}

} // namespace ccm::fleet
