// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QString>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::designer {

/// How a property is edited. Derived from the schema's `x-ccm-widget` hint, or from its JSON type
/// when there is no hint.
enum class FieldKind {
    String, ///< one line of text (also urls and secrets)
    Enum, ///< one of enumValues, or free text when enumFreeForm
    Boolean, ///< true, false or unset
    Integer, ///< a whole number between minimum and maximum
    Duration, ///< a Go-style duration such as "30s"
    Mode, ///< an octal file mode such as "0644"
    Path, ///< a file system path
    StringList, ///< a list of strings
    IntegerList, ///< a list of whole numbers
    KeyValueMap, ///< a map of names to values
    KeyValueList, ///< a list of single-entry maps, kept in order (scaffold's post rules)
    Text, ///< multi-line text
    References, ///< a list of "type#name" references to other resources
    Expression, ///< control expressions: a map of expression strings (itemFields)
    NestedList, ///< a list of maps, each edited with itemFields
};

/// One property of a form: everything the editor needs to build and check its widget.
struct FieldDescription {
    std::string property; ///< the key in the resource body
    std::string label; ///< the schema title, or the property name when there is none
    FieldKind kind = FieldKind::String;
    std::string description; ///< the schema description, for tooltips
    Json defaultValue; ///< the schema default; null when there is none
    std::string placeholder; ///< x-ccm-placeholder, else the default as text
    bool required = false; ///< must always be given
    /// Required unless ensure is one of these values (x-ccm-required-unless-ensure).
    std::vector<std::string> requiredUnlessEnsure;
    std::vector<std::string> enumValues;
    bool enumFreeForm = false; ///< other values than enumValues are accepted
    bool triState = false; ///< unset means something distinct from true and false
    bool secret = false; ///< shown masked
    bool templatesAllowed = true; ///< false for x-ccm-templates "none"
    bool deferred = false; ///< templates are rendered at apply time (x-ccm-deferred)
    bool integerAccepted = false; ///< a text field that may also hold a number (a port)
    bool stringValues = true; ///< KeyValueMap: values are plain strings, not any JSON value
    std::optional<long long> minimum;
    std::optional<long long> maximum;
    /// The fields of one item (NestedList) or of the sub-expressions (Expression), in order.
    std::vector<FieldDescription> itemFields;
    std::string itemLabel; ///< the title of one item of a NestedList
};

/// A titled section of a form.
struct GroupDescription {
    std::string title;
    std::vector<FieldDescription> fields;
};

/// The form of a resource type: its groups in the schema's order, each with its fields in order.
/// Every property of the type appears in exactly one field.
struct FormDescription {
    std::string type;
    std::string label; ///< x-ccm-label, e.g. "Service"
    std::string summary; ///< x-ccm-summary
    std::vector<GroupDescription> groups;
    /// The schema's conditions on which properties apply (see inapplicableProperties()): the type
    /// schema itself for its allOf, if/then/else, dependencies and dependentSchemas, and its
    /// x-ccm-conditions, conditions in the same words that only the forms read.
    std::vector<Json> conditions;

    /// The field of a property; nullptr when the type has no such property.
    [[nodiscard]] const FieldDescription *field(std::string_view property) const;
    /// Whether the form has no fields (an unknown type).
    [[nodiscard]] bool empty() const { return groups.empty(); }
};

/// Builds the form of a resource type from the schema registry; an empty form for an unknown type.
/// Results are computed once per type and shared.
[[nodiscard]] const FormDescription &formDescription(std::string_view type);

/// A form built from an explicit schema (the body schema of a type, already loaded): for tests
/// and for callers with schemas of their own. `file` is the document the schema lives in, used to
/// resolve relative $refs.
[[nodiscard]] FormDescription describeForm(std::string_view type, const Json &schema, std::string_view file);

/// The properties that do not apply to a resource of `form` whose effective values (its own over
/// the block's defaults and the schema's defaults) are `values`: those to which a condition in
/// force gives the schema `false`. A condition is in force through allOf, through if/then/else
/// by whether `values` satisfy the if, and through dependencies/dependentSchemas when the property
/// it depends on is set.
[[nodiscard]] std::set<std::string> inapplicableProperties(const FormDescription &form, const Json &values);

/// Whether `value` satisfies `schema` in the keywords conditions are written with: true, false,
/// const, enum, type, required, properties, not, allOf, anyOf, oneOf and if/then/else. Other
/// keywords do not constrain here.
[[nodiscard]] bool satisfiesCondition(const Json &schema, const Json &value);

/// Whether a field is required given the value of ensure (empty when unset).
[[nodiscard]] bool isRequired(const FieldDescription &field, std::string_view ensure);

/// A text of the schemas meant for people (a title, a description, a group's or a type's label)
/// in the user's language. The translations live in the "schema" context; the list of texts is
/// designer/ui/schema_strings.cpp, written from the schemas by scripts/extract-schema-strings.
QString schemaText(const std::string &text);

} // namespace ccm::designer
