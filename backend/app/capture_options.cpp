// SPDX-License-Identifier: Apache-2.0
#include "app/capture_options.h"

#include "app/option_value.h"

#include <array>
#include <map>
#include <ostream>
#include <system_error>
#include <utility>

namespace ccm::cli {
namespace {

/// `path` made absolute against the working directory, without "." or ".." parts or a
/// trailing '/'.
std::string captureAbsolutePath(const std::string &path)
{
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error);
    if (error)
        absolute = std::filesystem::path(path);
    absolute = absolute.lexically_normal();
    if (!absolute.has_filename() && absolute.has_parent_path() && absolute != absolute.root_path())
        absolute = absolute.parent_path();
    return absolute.string();
}

/// Why --file `text` is refused under `rules`; empty when it is taken.
std::string_view captureFileProblem(const std::string &text, const CaptureOptionRules &rules)
{
    if (rules.files == CaptureFilePaths::OtherHost)
        return text.starts_with('/') ? "" : "must be an absolute path on the host";
    return text.empty() ? "the path is empty" : "";
}

/// Stores the value of option `name`; false (after a message) when it is not acceptable.
bool storeCaptureSelectionValue(std::string_view name, const std::string &text, CaptureSelectionLine &line,
    const CaptureOptionRules &rules, std::ostream &err)
{
    std::string_view problem;
    if (name == "--package")
        line.packages.push_back(text);
    else if (name == "--service")
        line.services.push_back(text);
    else if (name == "--exclude")
        line.excludes.push_back(text);
    else if (name == "--file") {
        problem = captureFileProblem(text, rules);
        if (problem.empty())
            line.files.push_back(rules.files == CaptureFilePaths::ThisHost ? captureAbsolutePath(text) : text);
    } else if (captureOutputKnown(text))
        line.output = text;
    else
        problem = "the output must end in .yaml, .yml, .tar.gz or .tgz";
    if (problem.empty())
        return true;
    err << rules.command << ": " << name << " '" << text << "': " << problem << '\n';
    return false;
}

} // namespace

bool captureOutputKnown(const std::filesystem::path &output)
{
    const std::string name = output.filename().string();
    for (const std::string_view suffix : {".yaml", ".yml", ".tar.gz", ".tgz"}) {
        if (name.size() > suffix.size() && name.ends_with(suffix))
            return true;
    }
    return false;
}

std::optional<bool> takeCaptureSelectionOption(const std::vector<std::string> &args, std::size_t &i,
    CaptureSelectionLine &line, const CaptureOptionRules &rules, std::ostream &err)
{
    static constexpr std::array<std::string_view, 5> kNames {
        "--package", "--service", "--file", "--exclude", "--output"};
    for (const std::string_view name : kNames) {
        const auto value = optionValue(args, i, name, name == "--output" ? "-o" : "");
        if (!value)
            continue;
        if (!*value) {
            err << rules.command << ": " << value->error().message << '\n';
            return false;
        }
        return storeCaptureSelectionValue(name, value->value(), line, rules, err);
    }
    const std::string &arg = args[i];
    if (arg == "--data")
        line.data = true;
    else if (arg == "--pin")
        line.pin = true;
    else if (arg == "--include-private")
        line.includePrivate = true;
    else if (arg == "--json")
        line.json = true;
    else
        return std::nullopt;
    return true;
}

std::vector<std::string> captureCommandWords(std::vector<std::string> prefix, const CaptureSelectionLine &line)
{
    std::vector<std::string> words = std::move(prefix);
    const auto add = [&](std::string_view option, const std::vector<std::string> &values) {
        for (const std::string &value : values) {
            words.emplace_back(option);
            words.push_back(value);
        }
    };
    add("--package", line.packages);
    add("--service", line.services);
    add("--file", line.files);
    add("--exclude", line.excludes);
    for (const auto &[set, flag] : {std::pair {line.data, "--data"}, std::pair {line.pin, "--pin"},
             std::pair {line.includePrivate, "--include-private"}}) {
        if (set)
            words.emplace_back(flag);
    }
    return words;
}

std::string countOf(std::size_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + ' ' + std::string(n == 1 ? one : many);
}

std::string resourcesByType(const CapturedManifest &capture)
{
    std::map<std::string, std::size_t> counts;
    for (const CapturedResource &resource : capture.resources)
        ++counts[resource.type];
    std::string text;
    for (const std::string_view type : {"package", "file", "service"}) {
        if (const auto found = counts.find(std::string(type)); found != counts.end())
            text += (text.empty() ? "" : ", ") + countOf(found->second, type, std::string(type) + 's');
    }
    return text;
}

void printCaptureSummary(const CapturedManifest &capture, std::string_view where,
    const std::optional<std::filesystem::path> &output, std::ostream &err)
{
    err << "Captured " << countOf(capture.resources.size(), "resource", "resources") << where << '\n';
    if (output) {
        err << "Wrote " << output->string();
        if (!capture.sources.empty())
            err << " with " << countOf(capture.sources.size(), "source file", "source files")
                << (output->string().ends_with(".yaml") || output->string().ends_with(".yml")
                           ? " under files/ beside it"
                           : " in the bundle");
        err << '\n';
    }
    if (!capture.skipped.empty()) {
        err << "Skipped " << capture.skipped.size() << ":\n";
        for (const CaptureSkip &skip : capture.skipped)
            err << "  " << skip.path << ": " << skip.reason << " (" << skip.kind << ")\n";
    }
    for (const std::string &warning : capture.warnings)
        err << "warning: " << warning << '\n';
}

Json captureSummaryJson(const CapturedManifest &capture, const std::optional<std::filesystem::path> &output)
{
    Json byType = Json::object();
    for (const CapturedResource &resource : capture.resources)
        byType[resource.type] = byType.value(resource.type, 0) + 1;
    Json skipped = Json::array();
    for (const CaptureSkip &skip : capture.skipped)
        skipped.push_back({{"path", skip.path}, {"kind", skip.kind}, {"reason", skip.reason}});
    Json result = Json::object();
    result["output"] = output ? Json(output->string()) : Json(nullptr);
    result["resources"] = capture.resources.size();
    result["resources_by_type"] = std::move(byType);
    result["sources"] = capture.sources.size();
    result["skipped"] = std::move(skipped);
    result["warnings"] = capture.warnings;
    return result;
}

} // namespace ccm::cli
