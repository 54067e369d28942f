// SPDX-License-Identifier: Apache-2.0
#include "designer/core/function_catalog.h"

#include <QCoreApplication>

#include <iterator>

namespace ccm::designer {

namespace {

// Mirrors the builtins of backend/core/expression_eval.cpp, the template scope's functions
// (template_scope.cpp: readFile, file, template, jet, kvGet, registrations, which templates have
// but data resolution does not) and the validators of `# @validate`.
constexpr FunctionInfo kFunctions[] = {
    {"lookup", "lookup(path[, default])",
        QT_TRANSLATE_NOOP("FunctionCatalog", "value at a dotted path of facts, data or environ")},
    {"len", "len(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "length of a string, list or map")},
    {"lower", "lower(text)", QT_TRANSLATE_NOOP("FunctionCatalog", "text in lower case")},
    {"upper", "upper(text)", QT_TRANSLATE_NOOP("FunctionCatalog", "text in upper case")},
    {"trim", "trim(text[, chars])",
        QT_TRANSLATE_NOOP("FunctionCatalog", "text without leading and trailing blanks (or chars)")},
    {"split", "split(text, separator)", QT_TRANSLATE_NOOP("FunctionCatalog", "list of the parts of text")},
    {"join", "join(list[, separator])", QT_TRANSLATE_NOOP("FunctionCatalog", "list items joined into one string")},
    {"string", "string(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "value as a string")},
    {"int", "int(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "value as an integer")},
    {"float", "float(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "value as a number")},
    {"keys", "keys(map)", QT_TRANSLATE_NOOP("FunctionCatalog", "sorted keys of a map")},
    {"values", "values(map)", QT_TRANSLATE_NOOP("FunctionCatalog", "values of a map, in key order")},
    {"abs", "abs(number)", QT_TRANSLATE_NOOP("FunctionCatalog", "absolute value")},
    {"min", "min(a, ...)", QT_TRANSLATE_NOOP("FunctionCatalog", "smallest argument (or item of one list)")},
    {"max", "max(a, ...)", QT_TRANSLATE_NOOP("FunctionCatalog", "largest argument (or item of one list)")},
    {"toJSON", "toJSON(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "value as compact JSON text")},
    {"fromJSON", "fromJSON(text)", QT_TRANSLATE_NOOP("FunctionCatalog", "value parsed from JSON text")},
    {"isIP", "isIP(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "true for an IPv4 or IPv6 address")},
    {"isIPv4", "isIPv4(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "true for an IPv4 address")},
    {"isIPv6", "isIPv6(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "true for an IPv6 address")},
    {"isInt", "isInt(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "true for a whole number")},
    {"isFloat", "isFloat(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "true for a number")},
    {"isDuration", "isDuration(value)",
        QT_TRANSLATE_NOOP("FunctionCatalog", "true for a duration such as 30s or 1h30m")},
    {"isRegex", "isRegex(value, re)",
        QT_TRANSLATE_NOOP("FunctionCatalog", "true when value matches the regular expression re")},
    {"isShellSafe", "isShellSafe(value)",
        QT_TRANSLATE_NOOP("FunctionCatalog", "true when value has no shell metacharacters")},
    {"isHostname", "isHostname(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "true for a valid host name")},
    {"isFQDN", "isFQDN(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "true for a fully qualified domain name")},
    {"is_ip", "is_ip(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isIP")},
    {"is_ipv4", "is_ipv4(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isIPv4")},
    {"is_ipv6", "is_ipv6(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isIPv6")},
    {"is_int", "is_int(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isInt")},
    {"is_float", "is_float(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isFloat")},
    {"is_duration", "is_duration(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isDuration")},
    {"is_regex", "is_regex(value, re)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isRegex")},
    {"is_shell_safe", "is_shell_safe(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isShellSafe")},
    {"is_hostname", "is_hostname(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isHostname")},
    {"is_fqdn", "is_fqdn(value)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of isFQDN")},
    {"readFile", "readFile(path)",
        QT_TRANSLATE_NOOP("FunctionCatalog", "contents of a file, relative to the manifest")},
    {"file", "file(path)", QT_TRANSLATE_NOOP("FunctionCatalog", "alias of readFile")},
    {"template", "template(text)",
        QT_TRANSLATE_NOOP("FunctionCatalog", "a .templ or .jet file rendered, or text resolved")},
    {"jet", "jet(body[, left, right])",
        QT_TRANSLATE_NOOP("FunctionCatalog", "Jet template rendered ([[ ]] unless given)")},
    {"kvGet", "kvGet(bucket, key)", QT_TRANSLATE_NOOP("FunctionCatalog", "value of a key in a NATS key-value bucket")},
    {"registrations", "registrations()",
        QT_TRANSLATE_NOOP("FunctionCatalog", "registered services (always empty here)")},
};

} // namespace

std::span<const FunctionInfo> functionCatalog()
{
    return {std::begin(kFunctions), std::end(kFunctions)};
}

QString functionSummary(const FunctionInfo &function)
{
    return QCoreApplication::translate("FunctionCatalog", function.summary);
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
