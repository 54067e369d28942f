// SPDX-License-Identifier: Apache-2.0
#include "function_catalog.h"

#include <iterator>

namespace ccm::designer {

namespace {

constexpr FunctionScope kAll = FunctionScope::Everywhere;
constexpr FunctionScope kTemplates = FunctionScope::Templates;

// Mirrors the builtins of backend/core/expression_eval.cpp, the template scope's functions
// (template_scope.cpp) and the validators of `# @validate`.
constexpr FunctionInfo kFunctions[] = {
    {"lookup", "lookup(path[, default])", "value at a dotted path of facts, data or environ", kAll},
    {"len", "len(value)", "length of a string, list or map", kAll},
    {"lower", "lower(text)", "text in lower case", kAll},
    {"upper", "upper(text)", "text in upper case", kAll},
    {"trim", "trim(text[, chars])", "text without leading and trailing blanks (or chars)", kAll},
    {"split", "split(text, separator)", "list of the parts of text", kAll},
    {"join", "join(list[, separator])", "list items joined into one string", kAll},
    {"string", "string(value)", "value as a string", kAll},
    {"int", "int(value)", "value as an integer", kAll},
    {"float", "float(value)", "value as a number", kAll},
    {"keys", "keys(map)", "sorted keys of a map", kAll},
    {"values", "values(map)", "values of a map, in key order", kAll},
    {"abs", "abs(number)", "absolute value", kAll},
    {"min", "min(a, ...)", "smallest argument (or item of one list)", kAll},
    {"max", "max(a, ...)", "largest argument (or item of one list)", kAll},
    {"toJSON", "toJSON(value)", "value as compact JSON text", kAll},
    {"fromJSON", "fromJSON(text)", "value parsed from JSON text", kAll},
    {"isIP", "isIP(value)", "true for an IPv4 or IPv6 address", kAll},
    {"isIPv4", "isIPv4(value)", "true for an IPv4 address", kAll},
    {"isIPv6", "isIPv6(value)", "true for an IPv6 address", kAll},
    {"isInt", "isInt(value)", "true for a whole number", kAll},
    {"isFloat", "isFloat(value)", "true for a number", kAll},
    {"isDuration", "isDuration(value)", "true for a duration such as 30s or 1h30m", kAll},
    {"isRegex", "isRegex(value, re)", "true when value matches the regular expression re", kAll},
    {"isShellSafe", "isShellSafe(value)", "true when value has no shell metacharacters", kAll},
    {"isHostname", "isHostname(value)", "true for a valid host name", kAll},
    {"isFQDN", "isFQDN(value)", "true for a fully qualified domain name", kAll},
    {"is_ip", "is_ip(value)", "alias of isIP", kAll},
    {"is_ipv4", "is_ipv4(value)", "alias of isIPv4", kAll},
    {"is_ipv6", "is_ipv6(value)", "alias of isIPv6", kAll},
    {"is_int", "is_int(value)", "alias of isInt", kAll},
    {"is_float", "is_float(value)", "alias of isFloat", kAll},
    {"is_duration", "is_duration(value)", "alias of isDuration", kAll},
    {"is_regex", "is_regex(value, re)", "alias of isRegex", kAll},
    {"is_shell_safe", "is_shell_safe(value)", "alias of isShellSafe", kAll},
    {"is_hostname", "is_hostname(value)", "alias of isHostname", kAll},
    {"is_fqdn", "is_fqdn(value)", "alias of isFQDN", kAll},
    {"readFile", "readFile(path)", "contents of a file, relative to the manifest", kTemplates},
    {"file", "file(path)", "alias of readFile", kTemplates},
    {"template", "template(text)", "a .templ or .jet file rendered, or text resolved", kTemplates},
    {"jet", "jet(body[, left, right])", "Jet template rendered ([[ ]] unless given)", kTemplates},
    {"kvGet", "kvGet(bucket, key)", "value of a key in a NATS key-value bucket", kTemplates},
    {"registrations", "registrations()", "registered services (always empty here)", kTemplates},
};

} // namespace

std::span<const FunctionInfo> functionCatalog()
{
    return {std::begin(kFunctions), std::end(kFunctions)};
}

const FunctionInfo *findFunction(const QString &name)
{
    for (const FunctionInfo &function : kFunctions) {
        if (name == QLatin1String(function.name))
            return &function;
    }
    return nullptr;
}

} // namespace ccm::designer
