// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace ccm::gotmpl {

/// A value during execution: JSON, or missing (Go's invalid value, what a map gives for a key it
/// does not have). Values inside the data are borrowed; computed ones are owned, and a part of an
/// owned value keeps its owner alive.
class Value {
public:
    static Value missing() { return Value(nullptr); }
    static Value borrowed(const Json &json)
    {
        return Value(std::shared_ptr<const Json>(std::shared_ptr<const Json>(), &json));
    }
    static Value owned(Json json) { return Value(std::make_shared<const Json>(std::move(json))); }

    [[nodiscard]] bool isMissing() const { return !m_json; }
    /// Missing or null: what Go calls nil.
    [[nodiscard]] bool isNil() const { return !m_json || m_json->is_null(); }
    [[nodiscard]] bool isString() const { return m_json && m_json->is_string(); }
    /// Only valid when !isMissing().
    [[nodiscard]] const Json &json() const { return *m_json; }
    [[nodiscard]] Value part(const Json &element) const { return Value(std::shared_ptr<const Json>(m_json, &element)); }

private:
    explicit Value(std::shared_ptr<const Json> json)
        : m_json(std::move(json))
    {
    }

    std::shared_ptr<const Json> m_json;
};

/// "a missing value" or the JSON type, for messages.
std::string describeValue(const Value &value);

/// Numbers print as JSON numbers: integers plainly, integral floats without ".0", other floats in
/// their shortest exact form.
std::string formatNumber(const Json &number);

/// Appends `value` as Go's fmt prints it, with `nilText` for nil.
void appendValue(std::string &out, const Value &value, std::string_view nilText);

/// Go's truth: false, 0, nil, empty strings and empty collections are false.
bool isTrue(const Value &value);

} // namespace ccm::gotmpl
