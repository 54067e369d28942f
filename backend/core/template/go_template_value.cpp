// SPDX-License-Identifier: Apache-2.0
#include "core/template/go_template_value.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace ccm::gotmpl {

std::string describeValue(const Value &value)
{
    return value.isMissing() ? "a missing value" : describeJsonType(value.json());
}

/// Numbers print as JSON numbers: integers plainly, integral floats without ".0" (YAML and JSON do
/// not tell 3 from 3.0), other floats in their shortest exact form.
std::string formatNumber(const Json &number)
{
    if (number.is_number_unsigned())
        return std::to_string(number.get<std::uint64_t>());
    if (number.is_number_integer())
        return std::to_string(number.get<std::int64_t>());
    const double value = number.get<double>();
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    const double magnitude = std::fabs(value);
    std::array<char, 64> buffer {};
    if (value == std::trunc(value) && magnitude < 1e21) {
        std::snprintf(buffer.data(), buffer.size(), "%.0f", value);
        return buffer.data();
    }
    const auto format
        = magnitude >= 1e-4 && magnitude < 1e21 ? std::chars_format::fixed : std::chars_format::scientific;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format);
    return std::string(buffer.data(), result.ptr);
}

void appendJsonString(std::string &out, const std::string &text)
{
    out += Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void appendScalar(std::string &out, const Json &value)
{
    if (value.is_string())
        appendJsonString(out, value.get_ref<const std::string &>());
    else if (value.is_number())
        out += formatNumber(value);
    else if (value.is_boolean())
        out += value.get<bool>() ? "true" : "false";
    else
        out += "null";
}

/// Compact JSON with numbers as formatNumber() prints them. Iterative: data nesting is not bounded
/// by the template's limits.
void appendJson(std::string &out, const Json &root)
{
    std::vector<std::pair<const Json *, Json::const_iterator>> stack;
    const auto open = [&](const Json &value) {
        if (value.is_object() || value.is_array()) {
            out += value.is_object() ? '{' : '[';
            stack.emplace_back(&value, value.cbegin());
        } else {
            appendScalar(out, value);
        }
    };
    open(root);
    while (!stack.empty()) {
        auto &[container, it] = stack.back();
        if (it == container->cend()) {
            out += container->is_object() ? '}' : ']';
            stack.pop_back();
            continue;
        }
        if (it != container->cbegin())
            out += ',';
        if (container->is_object()) {
            appendJsonString(out, it.key());
            out += ':';
        }
        const Json &element = *it;
        ++it;
        open(element);
    }
}

/// A value as text: strings as they are, `nilText` for nil, anything else as JSON.
void appendValue(std::string &out, const Value &value, std::string_view nilText)
{
    if (value.isNil())
        out += nilText;
    else if (value.isString())
        out += value.json().get_ref<const std::string &>();
    else
        appendJson(out, value.json());
}

/// Go's truth: false, 0, nil and empty strings, lists and maps are false.
bool isTrue(const Value &value)
{
    if (value.isNil())
        return false;
    const Json &json = value.json();
    switch (json.type()) {
    case Json::value_t::boolean:
        return json.get<bool>();
    case Json::value_t::number_integer:
        return json.get<std::int64_t>() != 0;
    case Json::value_t::number_unsigned:
        return json.get<std::uint64_t>() != 0;
    case Json::value_t::number_float:
        return json.get<double>() != 0.0;
    case Json::value_t::string:
        return !json.get_ref<const std::string &>().empty();
    case Json::value_t::array:
    case Json::value_t::object:
        return !json.empty();
    default:
        return false;
    }
}

} // namespace ccm::gotmpl
