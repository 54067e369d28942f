// SPDX-License-Identifier: Apache-2.0
#include "core/model/registry_warnings.h"

#include "core/template/template_string.h"
#include "core/yaml/source_map.h"

namespace ccm {
namespace {

constexpr std::string_view kWord = "registrations";

bool isWordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/// A warning at each call in the templates of `template`, a scalar that starts at `start`.
void warnAtCalls(const std::string &pointer, const std::string &templateText, SourcePosition start,
    std::string_view text, Diagnostics &out)
{
    if (templateText.find(kWord) == std::string::npos)
        return;
    for (const TemplateSegment &segment : scanTemplate(templateText)) {
        if (segment.kind != TemplateSegment::Kind::Expression)
            continue;
        for (const std::size_t offset : registrationsCalls(segment.text)) {
            const int column = static_cast<int>(segment.offset + offset) + 1;
            out.push_back(
                {Severity::Warning, std::string(kNoRegistryMessage), pointer, positionInScalar(text, start, column)});
        }
    }
}

/// Every string of `value`, keys too (resource names are keys), with the templates in them.
void collect(const Json &value, const std::string &pointer, const LoadedManifest &manifest, std::string_view text,
    Diagnostics &out)
{
    if (value.is_object()) {
        for (const auto &[key, item] : value.items()) {
            const std::string itemPointer = appendPointer(pointer, key);
            warnAtCalls(itemPointer, key, manifest.sourceMap.keyAt(itemPointer), text, out);
            collect(item, itemPointer, manifest, text, out);
        }
        return;
    }
    if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            collect(value[i], appendPointer(pointer, i), manifest, text, out);
        return;
    }
    if (value.is_string())
        warnAtCalls(pointer, value.get_ref<const std::string &>(), manifest.sourceMap.valueAt(pointer), text, out);
}

} // namespace

std::vector<std::size_t> registrationsCalls(std::string_view text)
{
    std::vector<std::size_t> calls;
    for (std::size_t at = text.find(kWord); at != std::string_view::npos; at = text.find(kWord, at + 1)) {
        const std::size_t after = at + kWord.size();
        if ((at > 0 && isWordChar(text[at - 1])) || (after < text.size() && isWordChar(text[after])))
            continue;
        const std::size_t next = text.find_first_not_of(" \t", after);
        // A call: "registrations(" or, in Go templates, "registrations \"a\"" and the like.
        const bool goArgument = next != std::string_view::npos && next > after
            && std::string_view("\"`$.").find(text[next]) != std::string_view::npos;
        if (next != std::string_view::npos && (text[next] == '(' || goArgument))
            calls.push_back(at);
    }
    return calls;
}

Diagnostics registryWarnings(const LoadedManifest &manifest, std::string_view text)
{
    Diagnostics found;
    if (text.find(kWord) != std::string_view::npos)
        collect(manifest.document, "", manifest, text, found);
    return found;
}

} // namespace ccm
