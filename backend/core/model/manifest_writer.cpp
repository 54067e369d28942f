// SPDX-License-Identifier: Apache-2.0
#include "core/model/manifest_writer.h"

#include "base/hex.h"
#include "core/model/schema_registry.h"
#include "core/yaml/yaml_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ccm {
namespace {

/// True when text can be written as a plain scalar and reads back as the same string, also
/// in YAML 1.1 readers (which take yes/no/on/off as booleans).
bool canBePlain(std::string_view text)
{
    if (text.empty())
        return false;
    if (!resolvePlainScalar(text).is_string())
        return false;
    static constexpr std::string_view yaml11Words[]
        = {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "<<", "="};
    if (std::find(std::begin(yaml11Words), std::end(yaml11Words), text) != std::end(yaml11Words))
        return false;
    const char first = text.front();
    if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(first) != std::string_view::npos) {
        // "-x", "?x" and ":x" are plain when followed by a non-space, but keep it simple and safe.
        return false;
    }
    if ((first >= '0' && first <= '9') || first == '+' || first == '.')
        return false; // looks numeric to some reader (1_000, 1e3, .5, 0644)
    if (text.front() == ' ' || text.back() == ' ' || text.back() == ':')
        return false;
    if (text.find(": ") != std::string_view::npos || text.find(" #") != std::string_view::npos)
        return false;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
            return false;
    }
    return true;
}

std::string doubleQuoted(std::string_view text)
{
    std::string out = "\"";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (u < 0x20 || u == 0x7f) {
                out += "\\x";
                appendHexByte(out, u);
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

/// Multi-line text that a literal block can carry exactly.
bool suitsLiteralBlock(std::string_view text)
{
    if (text.find('\n') == std::string_view::npos)
        return false;
    if (text.find_first_not_of("\n ") == std::string_view::npos)
        return false;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f)
            return false;
    }
    // A line of only spaces before the first content line would change the detected indentation.
    const std::size_t firstContent = text.find_first_not_of('\n');
    if (text[firstContent] == ' ' && text.substr(0, firstContent).find(' ') != std::string_view::npos)
        return false;
    // Trailing spaces on the last line cannot be represented before the chomping indicator's
    // trailing newlines are counted, but literal blocks keep them; tabs are content too.
    return true;
}

std::string literalBlock(std::string_view text, int indent)
{
    std::size_t trailing = 0;
    while (trailing < text.size() && text[text.size() - 1 - trailing] == '\n')
        ++trailing;
    std::string header = "|";
    const std::size_t firstContent = text.find_first_not_of('\n');
    if (text[firstContent] == ' ')
        header += "2";
    if (trailing == 0)
        header += "-";
    else if (trailing > 1)
        header += "+";
    std::string out = header + "\n";
    const std::string_view body = trailing == 0 ? text : text.substr(0, text.size() - 1);
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    std::size_t start = 0;
    while (start <= body.size()) {
        const std::size_t end = std::min(body.find('\n', start), body.size());
        const std::string_view line = body.substr(start, end - start);
        if (!line.empty())
            out += pad;
        out += line;
        out += '\n';
        if (end == body.size())
            break;
        start = end + 1;
    }
    return out;
}

std::string numberText(const Json &value)
{
    if (value.is_number_integer())
        return std::to_string(value.get<std::int64_t>());
    if (value.is_number_unsigned())
        return std::to_string(value.get<std::uint64_t>());
    const double d = value.get<double>();
    if (std::isnan(d))
        return ".nan";
    if (std::isinf(d))
        return d > 0 ? ".inf" : "-.inf";
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
    std::string text(buffer, ec == std::errc() ? end : buffer);
    if (text.find_first_of(".eE") == std::string::npos)
        text += ".0";
    return text;
}

class Writer {
public:
    std::string take() { return std::move(m_out); }

    /// Writes a scalar inline (after "key: " or "- "), ending the line.
    void scalar(const Json &value, int indent)
    {
        if (value.is_null()) {
            m_out += "null\n";
        } else if (value.is_boolean()) {
            m_out += value.get<bool>() ? "true\n" : "false\n";
        } else if (value.is_number()) {
            m_out += numberText(value) + "\n";
        } else {
            const auto &text = value.get_ref<const std::string &>();
            if (suitsLiteralBlock(text))
                m_out += literalBlock(text, indent);
            else
                m_out += (canBePlain(text) ? text : doubleQuoted(text)) + "\n";
        }
    }

    static std::string key(std::string_view text) { return canBePlain(text) ? std::string(text) : doubleQuoted(text); }

    /// A map key and its ':' for a key that starts at column. YAML allows an implicit key of at
    /// most 1024 characters, so a longer one is written as an explicit key: "? key", then the ':'
    /// on the next line at the key's column.
    static std::string keyed(std::string_view text, int column)
    {
        constexpr std::size_t kLongestImplicitKey = 1000;
        std::string written = key(text);
        if (written.size() <= kLongestImplicitKey)
            return written + ":";
        return "? " + written + "\n" + std::string(static_cast<std::size_t>(column), ' ') + ":";
    }

    /// Writes the value that follows "key:" on the current line.
    void afterKey(const Json &value, int indent)
    {
        if (value.is_object() && !value.empty()) {
            m_out += '\n';
            members(value, indent + 2, false, {});
        } else if (value.is_array() && !value.empty()) {
            m_out += '\n';
            items(value, indent + 2);
        } else if (value.is_object()) {
            m_out += " {}\n";
        } else if (value.is_array()) {
            m_out += " []\n";
        } else {
            m_out += ' ';
            scalar(value, indent + 2);
        }
    }

    /// Writes map members at indent. When firstInline, the first member continues a "- " line.
    /// Keys listed in order come first in that order, the rest keep their own order.
    void members(const Json &map, int indent, bool firstInline, const std::vector<std::string> &order)
    {
        bool first = true;
        const auto write = [&](const std::string &k, const Json &v) {
            if (!(first && firstInline))
                m_out.append(static_cast<std::size_t>(indent), ' ');
            first = false;
            m_out += keyed(k, indent);
            afterKey(v, indent);
        };
        for (const std::string &k : order) {
            if (map.contains(k))
                write(k, map[k]);
        }
        for (const auto &[k, v] : map.items()) {
            if (std::find(order.begin(), order.end(), k) == order.end())
                write(k, v);
        }
    }

    void items(const Json &list, int indent)
    {
        for (const Json &item : list) {
            m_out.append(static_cast<std::size_t>(indent), ' ');
            m_out += "- ";
            item_(item, indent);
        }
    }

    /// Writes a list item's value after "- ".
    void item_(const Json &item, int indent, const std::vector<std::string> &order = {})
    {
        if (item.is_object() && !item.empty()) {
            members(item, indent + 2, true, order);
        } else if (item.is_array() && !item.empty()) {
            m_out += '\n';
            items(item, indent + 2);
        } else if (item.is_object()) {
            m_out += "{}\n";
        } else if (item.is_array()) {
            m_out += "[]\n";
        } else {
            scalar(item, indent + 2);
        }
    }

    void raw(std::string_view text) { m_out += text; }

private:
    std::string m_out;
};

Json hierarchyJson(const Hierarchy &hierarchy)
{
    Json out = Json::object();
    if (hierarchy.order)
        out["order"] = *hierarchy.order;
    if (hierarchy.merge)
        out["merge"] = *hierarchy.merge;
    return out;
}

void writeBlock(Writer &writer, const ResourceBlock &block)
{
    const auto &order = SchemaRegistry::instance().propertyOrder(block.type);
    writer.raw("    - " + Writer::keyed(block.type, 6));
    if (block.form == BodyForm::Single && !block.entries.empty()) {
        const ResourceEntry &entry = block.entries.front();
        Json body = Json::object();
        MemberSetter members(body);
        members["name"] = entry.name;
        for (const auto &[k, v] : entry.properties.items())
            members[k] = v;
        writer.raw("\n");
        writer.members(body, 8, false, order);
        return;
    }
    if (block.entries.empty()) {
        writer.raw(" []\n");
        return;
    }
    writer.raw("\n");
    for (const ResourceEntry &entry : block.entries) {
        const std::string name = entry.isDefaults ? std::string(kDefaultsKey) : entry.name;
        writer.raw("        - " + Writer::keyed(name, 10));
        if (entry.properties.empty()) {
            writer.raw(" {}\n");
            continue;
        }
        writer.raw("\n");
        writer.members(entry.properties, 12, false, order);
    }
}

} // namespace

std::string toYaml(const Json &value, int indent)
{
    Writer writer;
    if (value.is_object() && !value.empty())
        writer.members(value, indent, false, {});
    else if (value.is_array() && !value.empty())
        writer.items(value, indent);
    else
        writer.scalar(value, indent);
    return writer.take();
}

std::string saveManifest(const Manifest &manifest)
{
    Writer writer;
    const auto section = [&](const char *name, const Json &value) {
        writer.raw(name);
        writer.raw(":");
        writer.afterKey(value, 0);
    };
    if (manifest.data)
        section("data", *manifest.data);
    if (manifest.hierarchy)
        section("hierarchy", hierarchyJson(*manifest.hierarchy));
    if (manifest.overrides)
        section("overrides", *manifest.overrides);
    if (manifest.ccm) {
        const CcmSettings &ccm = *manifest.ccm;
        Json settings = Json::object();
        if (ccm.preMessage)
            settings["pre_message"] = *ccm.preMessage;
        if (ccm.postMessage)
            settings["post_message"] = *ccm.postMessage;
        if (ccm.failOnError)
            settings["fail_on_error"] = *ccm.failOnError;
        if (ccm.resourcesJetFile)
            settings["resources_jet_file"] = *ccm.resourcesJetFile;
        if (settings.empty() && !ccm.resources) {
            writer.raw("ccm: {}\n");
        } else {
            writer.raw("ccm:\n");
            if (!settings.empty())
                writer.members(settings, 2, false, {});
            if (ccm.resources) {
                if (ccm.resources->empty()) {
                    writer.raw("  resources: []\n");
                } else {
                    writer.raw("  resources:\n");
                    for (const ResourceBlock &block : *ccm.resources)
                        writeBlock(writer, block);
                }
            }
        }
    }
    std::string text = writer.take();
    // An empty file reads as no manifest at all; an empty map reads back as the empty model.
    if (text.empty())
        text = "{}\n";
    return text;
}

} // namespace ccm
