// SPDX-License-Identifier: Apache-2.0
#include "core/model/resource_checks.h"

#include "base/shell_words.h"
#include "core/expr/expression.h"
#include "core/model/duration.h"
#include "core/model/ensure.h"
#include "core/model/schema_registry.h"
#include "core/model/validator.h"
#include "core/template/template_string.h"

#include <algorithm>
#include <regex>
#include <unordered_map>
#include <unordered_set>

namespace ccm {
namespace {

const std::vector<std::string> kArchiveExtensions {".tar.gz", ".tgz", ".tar", ".zip"};

std::string archiveExtension(std::string_view path)
{
    for (const std::string &extension : kArchiveExtensions) {
        if (path.size() > extension.size() && path.substr(path.size() - extension.size()) == extension)
            return extension;
    }
    return {};
}

/// Applies the semantic rules to one flattened resource.
class ResourceChecker {
public:
    ResourceChecker(const LoadedManifest &loaded, const FlatResource &resource, Diagnostics &out)
        : m_loaded(loaded)
        , m_resource(resource)
        , m_props(resource.properties)
        , m_out(out)
    {
    }

    void check()
    {
        checkEnsure();
        checkCommon();
        const std::string &type = m_resource.type;
        if (type == "file")
            checkFile();
        else if (type == "exec")
            checkExec();
        else if (type == "package")
            checkPackage();
        else if (type == "service")
            checkService();
        else if (type == "archive")
            checkArchive();
        else if (type == "scaffold")
            checkScaffold();
    }

private:
    // --- reporting -------------------------------------------------------------------------
    void report(Severity severity, const std::string &pointer, SourcePosition position, const std::string &message)
    {
        m_out.push_back({severity, m_resource.label() + ": " + message, pointer, position});
    }
    /// A problem with the value of a property.
    void atValue(std::string_view property, const std::string &message, Severity severity = Severity::Error)
    {
        const std::string pointer = m_resource.propertyPointer(property);
        report(severity, pointer, m_loaded.sourceMap.valueAt(pointer), message);
    }
    /// A problem with an item (or deeper node) below a property.
    void atNode(const std::string &pointer, const std::string &message, Severity severity = Severity::Error)
    {
        report(severity, pointer, m_loaded.sourceMap.valueAt(pointer), message);
    }
    /// A problem with a property's key (it should not be there).
    void atKey(std::string_view property, const std::string &message, Severity severity = Severity::Error)
    {
        const std::string pointer = m_resource.propertyPointer(property);
        report(severity, pointer, m_loaded.sourceMap.keyAt(pointer), message);
    }
    /// A problem with the resource's name: the list key, or the name property of the single form.
    void atName(const std::string &message)
    {
        const std::string namePointer = appendPointer(m_resource.pointer, "name");
        if (m_loaded.sourceMap.contains(namePointer))
            report(Severity::Error, namePointer, m_loaded.sourceMap.valueAt(namePointer), message);
        else
            atResource(message);
    }
    /// A problem with the resource as a whole (a missing property).
    void atResource(const std::string &message, Severity severity = Severity::Error)
    {
        report(severity, m_resource.pointer, m_loaded.sourceMap.keyAt(m_resource.pointer), message);
    }

    // --- access -----------------------------------------------------------------------------
    /// The value of a property, or null when the resource does not have it. Every rule asks for
    /// several properties of every resource, so one search each, without building a key string.
    const Json *property(std::string_view name) const
    {
        const auto it = m_props.find(name);
        return it == m_props.end() ? nullptr : &*it;
    }
    bool has(std::string_view name) const
    {
        const Json *value = property(name);
        return value && !value->is_null();
    }
    /// The string value of a property, when it is a string.
    std::optional<std::string> text(std::string_view name) const
    {
        const Json *value = property(name);
        if (!value || !value->is_string())
            return std::nullopt;
        return value->get<std::string>();
    }
    bool isTrue(std::string_view name) const
    {
        const Json *value = property(name);
        return value && value->is_boolean() && value->get<bool>();
    }
    std::string ensure() const
    {
        if (auto value = text("ensure"))
            return *value;
        const std::string &type = m_resource.type;
        if (type == "service")
            return ensureText(Ensure::Running);
        if (type == "exec" || type == "apply")
            return ensureText(Ensure::Present);
        return {};
    }

    // --- shared rules -------------------------------------------------------------------------
    void requireProperty(std::string_view property, std::string_view why)
    {
        if (!has(property))
            atResource(std::string(property) + " is required" + std::string(why));
        else if (auto value = text(property); value && value->empty())
            atValue(property, std::string(property) + " must not be empty");
    }

    void checkAbsoluteCleanPath(const std::string &property, const std::string &what)
    {
        const auto value = text(property);
        if (!value || isTemplated(*value))
            return;
        if (value->empty() || value->front() != '/')
            atValue(property, what + " '" + *value + "' must be an absolute path starting with /");
        else if (!isAbsoluteCleanPath(*value))
            atValue(property, what + " '" + *value + "' must be a clean path without '.', '..', '//' or a trailing /");
    }

    void checkNamePath(const std::string &what)
    {
        const std::string &name = m_resource.name;
        if (isTemplated(name) || name.empty())
            return;
        if (name.front() != '/')
            atName(what + " name '" + name + "' must be an absolute path starting with /");
        else if (!isAbsoluteCleanPath(name))
            atName(what + " name '" + name + "' must be a clean path without '.', '..', '//' or a trailing /");
    }

    void checkDuration(const std::string &pointer, const Json &value, const std::string &what)
    {
        if (!value.is_string() || isTemplated(value.get<std::string>()))
            return;
        if (auto parsed = parseDuration(value.get<std::string>()); !parsed)
            atNode(pointer, what + ": " + parsed.error().message);
    }

    void checkCommandLine(const std::string &pointer, const Json &value, const std::string &what)
    {
        if (!value.is_string() || isTemplated(value.get<std::string>()))
            return;
        const auto command = value.get<std::string>();
        if (command.find_first_not_of(" \t\r\n") == std::string::npos) {
            atNode(pointer, what + " must not be empty");
            return;
        }
        if (auto words = splitShellWords(command); !words)
            atNode(pointer, what + " cannot be split into arguments: " + words.error().message);
    }

    void checkEnsure()
    {
        const std::string &type = m_resource.type;
        const bool optional = type == "exec" || type == "apply" || type == "service";
        if (!has("ensure") && !optional) {
            const Json &schema = SchemaRegistry::instance().typeSchema(type);
            std::string values;
            for (const auto &v : schema.value("x-ccm-ensure", Json::array()))
                values += (values.empty() ? "" : ", ") + v.get<std::string>();
            atResource("ensure is required (" + values + ")");
        }
    }

    void checkReferences(const std::string &property)
    {
        if (!m_props.contains(property) || !m_props[property].is_array())
            return;
        const Json &list = m_props[property];
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_string())
                continue;
            const auto reference = list[i].get<std::string>();
            const std::string pointer = appendPointer(m_resource.propertyPointer(property), i);
            const auto hash = reference.find('#');
            if (hash == std::string::npos || hash == 0 || hash + 1 == reference.size()) {
                atNode(pointer, property + " entry '" + reference + "' must be written type#name, e.g. package#nginx");
                continue;
            }
            const std::string type = reference.substr(0, hash);
            if (!isResourceType(type)) {
                std::string message = property + " entry '" + reference + "' names the unknown type '" + type + "'";
                if (auto suggestion = closestMatch(type, {kResourceTypes.begin(), kResourceTypes.end()}))
                    message += "; did you mean '" + *suggestion + "'?";
                atNode(pointer, message);
            }
        }
    }

    void checkCommon()
    {
        if (auto alias = text("alias"); alias && alias->empty())
            atValue("alias", "alias must not be empty");

        if (auto provider = text("provider"); provider && !isTemplated(*provider)) {
            const Json &providers
                = SchemaRegistry::instance().typeSchema(m_resource.type).value("x-ccm-providers", Json::array());
            bool known = false;
            std::string list;
            for (const auto &p : providers) {
                known = known || p.get<std::string>() == *provider;
                list += (list.empty() ? "" : ", ") + p.get<std::string>();
            }
            if (!known)
                atValue("provider", "unknown " + m_resource.type + " provider '" + *provider + "'; available: " + list);
        }

        checkReferences("require");
        checkReferences("subscribe");

        if (m_props.contains("control") && m_props["control"].is_object()) {
            for (const char *key : {"if", "unless"}) {
                const Json &control = m_props["control"];
                if (!control.contains(key) || !control[key].is_string())
                    continue;
                const auto expression = control[key].get<std::string>();
                const std::string pointer = appendPointer(m_resource.propertyPointer("control"), key);
                if (expression.find_first_not_of(" \t\r\n") == std::string::npos)
                    atNode(pointer, std::string("control ") + key + " must not be an empty expression");
                else if (isTemplated(expression))
                    atNode(pointer,
                        std::string("control ") + key
                            + " is a raw expression; write it without {{ }} or ${ }, e.g. Facts.host.info.os == "
                              "\"linux\"");
                else if (auto parsed = Expression::parse(expression); !parsed)
                    atNode(pointer,
                        std::string("control ") + key + " is not a valid expression: " + parsed.error().message
                            + " at column " + std::to_string(parsed.error().column) + " of '" + expression + "'");
            }
        }

        if (m_props.contains("health_checks") && m_props["health_checks"].is_array()) {
            const Json &checks = m_props["health_checks"];
            for (std::size_t i = 0; i < checks.size(); ++i)
                checkHealthCheck(checks[i], appendPointer(m_resource.propertyPointer("health_checks"), i));
        }

        if (m_props.contains("register_when_stable") && m_props["register_when_stable"].is_array()) {
            const Json &entries = m_props["register_when_stable"];
            for (std::size_t i = 0; i < entries.size(); ++i)
                checkRegistration(entries[i], appendPointer(m_resource.propertyPointer("register_when_stable"), i));
        }
    }

    void checkHealthCheck(const Json &check, const std::string &pointer)
    {
        if (!check.is_object())
            return;
        const bool command = check.contains("command") && !check["command"].is_null();
        const bool goss = check.contains("goss_rules") && !check["goss_rules"].is_null();
        if (command == goss) {
            atNode(pointer,
                command ? "a health check has either command or goss_rules, not both"
                        : "a health check needs a command (nagios style) or goss_rules");
        }
        if (command)
            checkCommandLine(appendPointer(pointer, "command"), check["command"], "health check command");
        if (check.contains("format") && check["format"].is_string()) {
            const auto format = check["format"].get<std::string>();
            if ((format == "nagios" && goss) || (format == "goss" && command && !goss))
                atNode(appendPointer(pointer, "format"),
                    "health check format '" + format + "' does not match its " + (goss ? "goss_rules" : "command"));
        }
        for (const char *key : {"timeout", "try_sleep"}) {
            if (check.contains(key))
                checkDuration(appendPointer(pointer, key), check[key], std::string("health check ") + key);
        }
    }

    void checkRegistration(const Json &entry, const std::string &pointer)
    {
        if (!entry.is_object())
            return;
        if (entry.contains("service") && entry["service"].is_string()) {
            static const std::regex pattern("^[a-zA-Z][a-zA-Z0-9_-]*$");
            const auto service = entry["service"].get<std::string>();
            if (!isTemplated(service) && !std::regex_match(service, pattern))
                atNode(appendPointer(pointer, "service"),
                    "registration service '" + service
                        + "' must start with a letter and hold only letters, digits, _ and -");
        }
        if (entry.contains("address") && entry["address"].is_string()) {
            static const std::regex ipv4(
                "^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$");
            const auto address = entry["address"].get<std::string>();
            if (!isTemplated(address) && !std::regex_match(address, ipv4))
                atNode(appendPointer(pointer, "address"),
                    "registration address '" + address + "' must be an IPv4 address");
        }
        if (entry.contains("port") && entry["port"].is_string()) {
            const auto port = entry["port"].get<std::string>();
            if (!isTemplated(port))
                atNode(appendPointer(pointer, "port"),
                    "registration port '" + port + "' must be a number from 1 to 65535 or a template expression");
        }
    }

    // --- types ---------------------------------------------------------------------------------
    void checkFile()
    {
        checkNamePath("file");
        const std::string state = ensure();
        const std::optional<Ensure> wanted = parseEnsure(state);
        if (wanted != Ensure::Absent) {
            for (const char *property : {"owner", "group", "mode"})
                requireProperty(property, " unless ensure is absent");
        }
        if (m_props.contains("mode")) {
            const Json &mode = m_props["mode"];
            if (mode.is_number_integer()) {
                atValue("mode",
                    "mode must be a quoted string such as \"0644\"; unquoted, YAML reads it as the number "
                        + mode.dump());
            } else if (mode.is_string() && !isTemplated(mode.get<std::string>())) {
                if (auto parsed = parseFileMode(mode.get<std::string>()); !parsed)
                    atValue("mode", parsed.error().message);
            }
        }
        if (has("content") && has("source"))
            atKey("source", "content and source are mutually exclusive; keep one of them");
        if (isTrue("force")) {
            if (wanted != Ensure::Absent)
                atValue("force", "force is only valid with ensure: absent (ensure is " + state + ")");
            if (m_resource.name == "/")
                atValue("force", "force cannot be used to remove /");
        }
        if (wanted == Ensure::Directory) {
            for (const char *property : {"content", "source"}) {
                if (has(property))
                    atKey(property, std::string(property) + " is ignored for ensure: directory", Severity::Warning);
            }
        }
        if (auto source = text("source"); source && source->empty())
            atValue("source", "source must not be empty; leave it out to manage only attributes");
    }

    void checkExec()
    {
        const std::string commandProperty = has("command") ? "command" : "";
        if (commandProperty.empty()) {
            if (!isTemplated(m_resource.name)) {
                if (auto words = splitShellWords(m_resource.name); !words)
                    atName("the name is the command and cannot be split into arguments: " + words.error().message);
            }
        } else {
            checkCommandLine(m_resource.propertyPointer("command"), m_props["command"], "command");
        }
        for (const char *guard : {"onlyif", "unless"}) {
            if (m_props.contains(guard))
                checkCommandLine(m_resource.propertyPointer(guard), m_props[guard], guard);
        }
        if (m_props.contains("timeout"))
            checkDuration(m_resource.propertyPointer("timeout"), m_props["timeout"], "timeout");

        checkExecPath();
        checkExecEnvironment();
        checkExecReturns();

        if (m_props.contains("refresh_only")) {
            if (m_props.contains("refreshonly"))
                atKey("refresh_only", "refresh_only and refreshonly are the same setting; keep refreshonly");
            else
                atKey("refresh_only", "refresh_only is an old spelling; write refreshonly", Severity::Warning);
        }
        const bool refreshOnly = isTrue("refreshonly") || isTrue("refresh_only");
        const bool subscribes
            = m_props.contains("subscribe") && m_props["subscribe"].is_array() && !m_props["subscribe"].empty();
        if (refreshOnly && !subscribes)
            atKey(isTrue("refreshonly") ? "refreshonly" : "refresh_only",
                "refreshonly without subscribe never runs; add subscribe or remove refreshonly", Severity::Warning);
    }

    /// Every entry of the search path must be an absolute directory.
    void checkExecPath()
    {
        if (auto path = text("path"); path && !isTemplated(*path)) {
            std::size_t start = 0;
            while (start <= path->size()) {
                const std::size_t end = std::min(path->find(':', start), path->size());
                const std::string dir = path->substr(start, end - start);
                if (dir.empty() || dir.front() != '/') {
                    atValue("path", "path entry '" + dir + "' must be an absolute directory");
                    break;
                }
                start = end + 1;
            }
        }
    }

    /// Every environment entry must be KEY=VALUE with a valid variable name.
    void checkExecEnvironment()
    {
        if (m_props.contains("environment") && m_props["environment"].is_array()) {
            static const std::regex key("^[A-Za-z_][A-Za-z0-9_]*$");
            const Json &environment = m_props["environment"];
            for (std::size_t i = 0; i < environment.size(); ++i) {
                if (!environment[i].is_string())
                    continue;
                const auto entry = environment[i].get<std::string>();
                const std::string pointer = appendPointer(m_resource.propertyPointer("environment"), i);
                const auto equals = entry.find('=');
                if (equals == std::string::npos || equals == 0 || equals + 1 == entry.size())
                    atNode(
                        pointer, "environment entry '" + entry + "' must be KEY=VALUE with a non-empty key and value");
                else if (!isTemplated(entry) && !std::regex_match(entry.substr(0, equals), key))
                    atNode(pointer,
                        "environment variable name '" + entry.substr(0, equals)
                            + "' may hold only letters, digits and _ and must not start with a digit");
            }
        }
    }

    /// Every expected exit code must be one a process can return.
    void checkExecReturns()
    {
        if (m_props.contains("returns") && m_props["returns"].is_array()) {
            const Json &returns = m_props["returns"];
            for (std::size_t i = 0; i < returns.size(); ++i) {
                if (returns[i].is_number_integer()
                    && (returns[i].get<std::int64_t>() < 0 || returns[i].get<std::int64_t>() > 255))
                    atNode(appendPointer(m_resource.propertyPointer("returns"), i),
                        "exit code " + returns[i].dump() + " is outside 0 to 255");
            }
        }
    }

    void checkPackageOrServiceName(const std::string &what)
    {
        const std::string &name = m_resource.name;
        if (isTemplated(name))
            return;
        if (auto problem = nameCharacterProblem(name))
            atName(what + " name '" + name + "' " + *problem);
    }

    void checkPackage()
    {
        checkPackageOrServiceName("package");
        const auto version = text("ensure");
        if (!version || isTemplated(*version))
            return;
        if (const auto named = parseEnsure(*version);
            named == Ensure::Present || named == Ensure::Absent || named == Ensure::Latest)
            return;
        if (version->empty())
            atValue("ensure", "ensure must be present, absent, latest or a version");
        else if (auto problem = nameCharacterProblem(*version))
            atValue("ensure", "version '" + *version + "' " + *problem);
    }

    void checkService() { checkPackageOrServiceName("service"); }

    void checkArchive()
    {
        checkNamePath("archive");
        const std::optional<Ensure> state = parseEnsure(ensure());
        const std::string nameExtension = archiveExtension(m_resource.name);
        if (!isTemplated(m_resource.name) && nameExtension.empty())
            atName("archive name '" + m_resource.name + "' must end in .tar.gz, .tgz, .tar or .zip");
        if (state != Ensure::Absent) {
            for (const char *property : {"url", "owner", "group"})
                requireProperty(property, " unless ensure is absent");
        }
        if (auto url = text("url"); url && !url->empty() && !isTemplated(*url))
            checkArchiveUrl(*url, nameExtension);
        if (auto checksum = text("checksum"); checksum && !isTemplated(*checksum)) {
            const bool hex = checksum->size() == 64 && std::all_of(checksum->begin(), checksum->end(), [](char c) {
                return std::isxdigit(static_cast<unsigned char>(c));
            });
            if (!hex)
                atValue("checksum", "checksum must be the SHA-256 of the archive: 64 hexadecimal characters");
        }
        checkAbsoluteCleanPath("extract_parent", "extract_parent");
        if (isTrue("cleanup")) {
            if (!has("extract_parent"))
                atValue("cleanup", "cleanup needs extract_parent: only an extracted archive can be cleaned up");
            if (!has("creates"))
                atValue("cleanup", "cleanup needs creates, which tells later runs the archive was already extracted");
        }
        if (has("username") != has("password"))
            atKey(has("username") ? "username" : "password",
                "username and password are used together for basic authentication");
        if (m_props.contains("headers") && m_props["headers"].is_object()) {
            static const std::regex token("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$");
            for (const auto &[header, value] : m_props["headers"].items()) {
                const std::string pointer = appendPointer(m_resource.propertyPointer("headers"), header);
                if (!std::regex_match(header, token))
                    report(Severity::Error, pointer, m_loaded.sourceMap.keyAt(pointer),
                        m_resource.label() + ": header name '" + header + "' is not a valid HTTP header name");
                else if (value.is_string() && value.get<std::string>().find_first_of("\r\n") != std::string::npos)
                    atNode(pointer, "header '" + header + "' must not contain line breaks");
            }
        }
    }

    void checkArchiveUrl(const std::string &url, const std::string &nameExtension)
    {
        const auto schemeEnd = url.find("://");
        std::string scheme = schemeEnd == std::string::npos ? std::string() : url.substr(0, schemeEnd);
        std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
        if (schemeEnd == std::string::npos) {
            atValue("url", "url '" + url + "' is not a URL; expected http:// or https://");
            return;
        }
        if (scheme != "http" && scheme != "https") {
            atValue("url", "url scheme '" + scheme + "' is not supported; use http or https");
            return;
        }
        if (url.find_first_of(" \t\r\n") != std::string::npos) {
            atValue("url", "url must not contain whitespace");
            return;
        }
        const std::string rest = url.substr(schemeEnd + 3);
        const std::size_t pathStart = rest.find('/');
        const std::string authority = rest.substr(0, pathStart);
        const std::string host
            = authority.substr(authority.rfind('@') == std::string::npos ? 0 : authority.rfind('@') + 1);
        if (host.empty() || host.front() == ':') {
            atValue("url", "url '" + url + "' has no host");
            return;
        }
        std::string path = pathStart == std::string::npos ? std::string() : rest.substr(pathStart);
        path = path.substr(0, path.find_first_of("?#"));
        const std::string urlExtension = archiveExtension(path);
        if (urlExtension.empty())
            atValue("url", "url path '" + path + "' must end in .tar.gz, .tgz, .tar or .zip");
        else if (!nameExtension.empty() && urlExtension != nameExtension)
            atValue("url",
                "url ends in " + urlExtension + " but the archive name ends in " + nameExtension
                    + "; they must be the same kind of archive");
    }

    void checkScaffold()
    {
        checkNamePath("scaffold target");
        requireProperty("source", "");
        const bool left = has("left_delimiter");
        const bool right = has("right_delimiter");
        if (left != right)
            atKey(left ? "left_delimiter" : "right_delimiter", "left_delimiter and right_delimiter are set together");
        for (const char *property : {"left_delimiter", "right_delimiter"}) {
            if (auto value = text(property); value && value->empty())
                atValue(property, std::string(property) + " must not be empty");
        }
        if (m_props.contains("post") && m_props["post"].is_array()) {
            const Json &post = m_props["post"];
            for (std::size_t i = 0; i < post.size(); ++i) {
                if (!post[i].is_object())
                    continue;
                const std::string pointer = appendPointer(m_resource.propertyPointer("post"), i);
                for (const auto &[glob, command] : post[i].items()) {
                    if (glob.empty())
                        atNode(pointer, "post entry needs a non-empty file pattern");
                    if (command.is_string() && command.get<std::string>().find_first_not_of(" \t") == std::string::npos)
                        atNode(appendPointer(pointer, glob), "post command for '" + glob + "' must not be empty");
                }
            }
        }
    }

    const LoadedManifest &m_loaded;
    const FlatResource &m_resource;
    const Json &m_props;
    Diagnostics &m_out;
};

} // namespace

void checkResource(const LoadedManifest &loaded, const FlatResource &resource, Diagnostics &out)
{
    ResourceChecker(loaded, resource, out).check();
}

} // namespace ccm
