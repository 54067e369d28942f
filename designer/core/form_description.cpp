// SPDX-License-Identifier: Apache-2.0
#include "designer/core/form_description.h"

#include "core/model/schema_registry.h"
#include "designer/core/json_members.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <mutex>

namespace ccm::designer {

namespace {

constexpr int kUnordered = 1000;

std::string text(const Json &node, const char *key)
{
    if (!node.is_object())
        return {};
    const auto it = node.find(key);
    return it != node.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings(const Json &node, const char *key)
{
    std::vector<std::string> out;
    if (!node.is_object())
        return out;
    const auto it = node.find(key);
    if (it == node.end() || !it->is_array())
        return out;
    for (const Json &item : *it) {
        if (item.is_string())
            out.push_back(item.get<std::string>());
    }
    return out;
}

int order(const Json &node)
{
    return static_cast<int>(std::clamp<long long>(integerOf(node, "x-ccm-order").value_or(kUnordered), 0, kUnordered));
}

/// Follows the $refs of node starting in file; file becomes the document the result lives in, so
/// the result's own relative $refs resolve against it.
const Json &follow(const Json &node, std::string &file)
{
    const Json *current = &node;
    for (int hops = 0; hops < 16; ++hops) {
        const std::string ref = text(*current, "$ref");
        if (ref.empty())
            break;
        const auto hash = ref.find('#');
        if (hash != 0)
            file = ref.substr(0, hash);
        current = &SchemaRegistry::instance().resolve(Json {{"$ref", ref}}, file);
    }
    return *current;
}

bool hasType(const Json &schema, std::string_view type)
{
    if (!schema.is_object())
        return false;
    const auto it = schema.find("type");
    if (it == schema.end())
        return false;
    if (it->is_string())
        return it->get<std::string>() == type;
    if (it->is_array())
        return std::any_of(
            it->begin(), it->end(), [&](const Json &t) { return t.is_string() && t.get<std::string>() == type; });
    return false;
}

FieldKind kindOf(const std::string &widget, const Json &schema)
{
    static const std::map<std::string, FieldKind, std::less<>> kinds {
        {"string", FieldKind::String},
        {"url", FieldKind::String},
        {"password", FieldKind::String},
        {"enum", FieldKind::Enum},
        {"ensure", FieldKind::Enum},
        {"bool", FieldKind::Boolean},
        {"tristate", FieldKind::Boolean},
        {"integer", FieldKind::Integer},
        {"duration", FieldKind::Duration},
        {"mode", FieldKind::Mode},
        {"path", FieldKind::Path},
        {"string-list", FieldKind::StringList},
        {"int-list", FieldKind::IntegerList},
        {"map", FieldKind::KeyValueMap},
        {"key-value", FieldKind::KeyValueMap},
        {"post-commands", FieldKind::KeyValueList},
        {"multiline", FieldKind::Text},
        {"references", FieldKind::References},
        {"expression", FieldKind::Expression},
        {"health-checks", FieldKind::NestedList},
        {"registrations", FieldKind::NestedList},
    };
    if (const auto it = kinds.find(widget); it != kinds.end())
        return it->second;
    if (schema.is_object() && schema.contains("enum"))
        return FieldKind::Enum;
    if (hasType(schema, "boolean"))
        return FieldKind::Boolean;
    if (hasType(schema, "integer"))
        return FieldKind::Integer;
    if (hasType(schema, "array"))
        return FieldKind::StringList;
    if (hasType(schema, "object"))
        return FieldKind::KeyValueMap;
    return FieldKind::String;
}

std::string placeholderFor(const Json &schema, const Json &defaultValue)
{
    std::string placeholder = text(schema, "x-ccm-placeholder");
    if (!placeholder.empty() || defaultValue.is_null())
        return placeholder;
    if (defaultValue.is_string())
        return defaultValue.get<std::string>();
    if (defaultValue.is_array() && defaultValue.size() == 1 && !defaultValue[0].is_structured())
        return defaultValue[0].dump();
    return defaultValue.dump();
}

struct Ordered {
    int group = 0;
    int order = 0;
    FieldDescription field;
};

std::vector<FieldDescription> objectFields(const Json &schema, const std::string &file);

FieldDescription describeField(const std::string &property, const Json &raw, std::string file, const Json &typeSchema)
{
    const Json &schema = follow(raw, file);
    FieldDescription field;
    field.property = property;
    field.label = text(schema, "title");
    if (field.label.empty())
        field.label = property;
    field.description = text(schema, "description");
    const std::string widget = text(schema, "x-ccm-widget");
    field.kind = kindOf(widget, schema);
    if (schema.is_object() && schema.contains("default"))
        field.defaultValue = schema["default"];
    if (property == "ensure" && field.defaultValue.is_null() && typeSchema.is_object()) {
        const auto it = typeSchema.find("x-ccm-ensure-default");
        if (it != typeSchema.end() && it->is_string())
            field.defaultValue = *it;
    }
    field.placeholder = placeholderFor(schema, field.defaultValue);
    field.required = boolOf(schema, "x-ccm-required");
    field.requiredUnlessEnsure = strings(schema, "x-ccm-required-unless-ensure");
    field.secret = boolOf(schema, "x-ccm-secret") || widget == "password";
    field.templatesAllowed = text(schema, "x-ccm-templates") != "none";
    field.deferred = boolOf(schema, "x-ccm-deferred");
    field.triState = widget == "tristate";
    field.minimum = integerOf(schema, "minimum");
    field.maximum = integerOf(schema, "maximum");

    if (field.kind == FieldKind::Enum) {
        field.enumValues = strings(schema, "enum");
        if (widget == "ensure") {
            if (field.enumValues.empty())
                field.enumValues = strings(typeSchema, "x-ccm-ensure");
            const auto it = typeSchema.is_object() ? typeSchema.find("x-ccm-ensure-free-form") : Json::const_iterator();
            field.enumFreeForm
                = !(typeSchema.is_object() && it != typeSchema.end() && it->is_boolean() && !it->get<bool>());
        } else if (field.enumValues.empty() && property == "provider") {
            field.enumValues = strings(typeSchema, "x-ccm-providers");
        }
        if (field.enumValues.empty())
            field.enumFreeForm = true;
    }
    if (field.kind == FieldKind::String && schema.is_object() && schema.contains("oneOf")
        && schema["oneOf"].is_array()) {
        for (const Json &branch : schema["oneOf"]) {
            if (hasType(branch, "integer")) {
                field.integerAccepted = true;
                field.minimum = integerOf(branch, "minimum");
                field.maximum = integerOf(branch, "maximum");
            }
        }
    }
    if (field.kind == FieldKind::KeyValueMap) {
        const Json additional = schema.is_object() ? schema.value("additionalProperties", Json()) : Json();
        field.stringValues = hasType(additional, "string");
    }
    if (field.kind == FieldKind::Expression)
        field.itemFields = objectFields(schema, file);
    if (field.kind == FieldKind::NestedList && schema.is_object() && schema.contains("items")) {
        std::string itemFile = file;
        const Json &items = follow(schema["items"], itemFile);
        field.itemLabel = text(items, "title");
        field.itemFields = objectFields(items, itemFile);
    }
    return field;
}

std::vector<FieldDescription> objectFields(const Json &schema, const std::string &file)
{
    std::vector<Ordered> ordered;
    if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object())
        return {};
    const std::vector<std::string> required = strings(schema, "required");
    for (const auto &[key, value] : schema["properties"].items()) {
        std::string valueFile = file;
        Ordered entry;
        entry.order = order(follow(value, valueFile));
        entry.field = describeField(key, value, file, Json());
        if (std::find(required.begin(), required.end(), key) != required.end())
            entry.field.required = true;
        ordered.push_back(std::move(entry));
    }
    std::stable_sort(
        ordered.begin(), ordered.end(), [](const Ordered &a, const Ordered &b) { return a.order < b.order; });
    std::vector<FieldDescription> out;
    for (Ordered &entry : ordered)
        out.push_back(std::move(entry.field));
    return out;
}

bool satisfiesType(const Json &type, const Json &value)
{
    const auto one = [&value](const Json &name) {
        if (!name.is_string())
            return true;
        const std::string &text = name.get_ref<const std::string &>();
        if (text == "integer")
            return value.is_number_integer();
        if (text == "number")
            return value.is_number();
        if (text == "string")
            return value.is_string();
        if (text == "boolean")
            return value.is_boolean();
        if (text == "object")
            return value.is_object();
        if (text == "array")
            return value.is_array();
        return text == "null" && value.is_null();
    };
    if (!type.is_array())
        return one(type);
    return std::any_of(type.begin(), type.end(), one);
}

/// The keywords of satisfiesCondition() that look at the value itself.
bool satisfiesValueKeywords(const Json &schema, const Json &value)
{
    if (const auto it = schema.find("const"); it != schema.end() && *it != value)
        return false;
    if (const auto it = schema.find("enum");
        it != schema.end() && it->is_array() && std::find(it->begin(), it->end(), value) == it->end())
        return false;
    if (const auto it = schema.find("type"); it != schema.end() && !satisfiesType(*it, value))
        return false;
    if (value.is_object()) {
        for (const std::string &name : strings(schema, "required")) {
            if (!value.contains(name))
                return false;
        }
        if (const auto it = schema.find("properties"); it != schema.end() && it->is_object()) {
            for (const auto &[name, sub] : it->items()) {
                if (value.contains(name) && !satisfiesCondition(sub, value[name]))
                    return false;
            }
        }
    }
    return true;
}

/// The properties a schema in force gives `false`, with the conditions it holds (see
/// inapplicableProperties()).
void collectInapplicable(const Json &schema, const Json &values, std::set<std::string> &out, int depth)
{
    if (!schema.is_object() || depth > 32)
        return;
    if (const auto it = schema.find("properties"); it != schema.end() && it->is_object()) {
        for (const auto &[name, sub] : it->items()) {
            if (sub.is_boolean() && !sub.get<bool>())
                out.insert(name);
        }
    }
    if (const auto it = schema.find("allOf"); it != schema.end() && it->is_array()) {
        for (const Json &branch : *it)
            collectInapplicable(branch, values, out, depth + 1);
    }
    if (const auto it = schema.find("if"); it != schema.end()) {
        const char *branch = satisfiesCondition(*it, values) ? "then" : "else";
        if (const auto chosen = schema.find(branch); chosen != schema.end())
            collectInapplicable(*chosen, values, out, depth + 1);
    }
    for (const char *keyword : {"dependentSchemas", "dependencies"}) {
        const auto it = schema.find(keyword);
        if (it == schema.end() || !it->is_object() || !values.is_object())
            continue;
        for (const auto &[name, sub] : it->items()) {
            if (values.contains(name) && !values[name].is_null() && sub.is_object())
                collectInapplicable(sub, values, out, depth + 1);
        }
    }
}

/// The parts of a type schema that hold conditions.
std::vector<Json> conditionsOf(const Json &schema)
{
    std::vector<Json> out;
    if (!schema.is_object())
        return out;
    Json own = Json::object();
    for (const char *keyword : {"allOf", "if", "then", "else", "dependencies", "dependentSchemas"}) {
        if (const auto it = schema.find(keyword); it != schema.end())
            own[keyword] = *it;
    }
    if (!own.empty())
        out.push_back(std::move(own));
    if (const auto it = schema.find("x-ccm-conditions"); it != schema.end() && it->is_object())
        out.push_back(*it);
    return out;
}

} // namespace

bool satisfiesCondition(const Json &schema, const Json &value)
{
    if (schema.is_boolean())
        return schema.get<bool>();
    if (!schema.is_object())
        return true;
    if (!satisfiesValueKeywords(schema, value))
        return false;
    if (const auto it = schema.find("not"); it != schema.end() && satisfiesCondition(*it, value))
        return false;
    const auto branches = [&](const char *keyword) -> const Json * {
        const auto it = schema.find(keyword);
        return it != schema.end() && it->is_array() ? &*it : nullptr;
    };
    const auto holds = [&value](const Json &branch) { return satisfiesCondition(branch, value); };
    if (const Json *all = branches("allOf"); all && !std::all_of(all->begin(), all->end(), holds))
        return false;
    if (const Json *any = branches("anyOf"); any && !std::any_of(any->begin(), any->end(), holds))
        return false;
    if (const Json *one = branches("oneOf"); one && std::count_if(one->begin(), one->end(), holds) != 1)
        return false;
    if (const auto it = schema.find("if"); it != schema.end()) {
        const auto branch = schema.find(satisfiesCondition(*it, value) ? "then" : "else");
        if (branch != schema.end() && !satisfiesCondition(*branch, value))
            return false;
    }
    return true;
}

std::set<std::string> inapplicableProperties(const FormDescription &form, const Json &values)
{
    std::set<std::string> out;
    for (const Json &conditions : form.conditions)
        collectInapplicable(conditions, values, out, 0);
    return out;
}

const FieldDescription *FormDescription::field(std::string_view property) const
{
    for (const GroupDescription &group : groups) {
        for (const FieldDescription &candidate : group.fields) {
            if (candidate.property == property)
                return &candidate;
        }
    }
    return nullptr;
}

FormDescription describeForm(std::string_view type, const Json &schema, std::string_view file)
{
    FormDescription form;
    form.type = std::string(type);
    form.label = text(schema, "x-ccm-label");
    if (form.label.empty())
        form.label = form.type;
    form.summary = text(schema, "x-ccm-summary");
    form.conditions = conditionsOf(schema);
    if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object())
        return form;

    std::vector<std::string> titles = strings(schema, "x-ccm-groups");
    std::vector<Ordered> ordered;
    for (const auto &[key, value] : schema["properties"].items()) {
        std::string fieldFile(file);
        const Json &resolved = follow(value, fieldFile);
        std::string group = text(resolved, "x-ccm-group");
        if (group.empty())
            group = titles.empty() ? std::string("General") : titles.front();
        auto it = std::find(titles.begin(), titles.end(), group);
        if (it == titles.end())
            it = titles.insert(titles.end(), group);
        Ordered entry;
        entry.group = static_cast<int>(it - titles.begin());
        entry.order = order(resolved);
        entry.field = describeField(key, value, std::string(file), schema);
        ordered.push_back(std::move(entry));
    }
    std::stable_sort(ordered.begin(), ordered.end(),
        [](const Ordered &a, const Ordered &b) { return a.group != b.group ? a.group < b.group : a.order < b.order; });
    for (std::size_t index = 0; index < titles.size(); ++index) {
        GroupDescription group;
        group.title = titles[index];
        for (Ordered &entry : ordered) {
            if (entry.group == static_cast<int>(index))
                group.fields.push_back(std::move(entry.field));
        }
        if (!group.fields.empty())
            form.groups.push_back(std::move(group));
    }
    return form;
}

const FormDescription &formDescription(std::string_view type)
{
    static std::mutex mutex;
    static std::map<std::string, FormDescription, std::less<>> cache;
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(type); it != cache.end())
        return it->second;
    const std::string file = std::string(type) + ".json";
    const Json &schema = SchemaRegistry::instance().typeSchema(type);
    return cache.emplace(std::string(type), describeForm(type, schema, file)).first->second;
}

bool isRequired(const FieldDescription &field, std::string_view ensure)
{
    if (field.required)
        return true;
    if (field.requiredUnlessEnsure.empty())
        return false;
    return std::find(field.requiredUnlessEnsure.begin(), field.requiredUnlessEnsure.end(), ensure)
        == field.requiredUnlessEnsure.end();
}

QString schemaText(const std::string &text)
{
    if (text.empty())
        return {};
    return QCoreApplication::translate("schema", text.c_str());
}

} // namespace ccm::designer
