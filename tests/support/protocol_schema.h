// SPDX-License-Identifier: Apache-2.0
#pragma once

// resources/schemas/protocol.json as tests check messages against it. Needs valijson on the include
// path and VALIJSON_USE_EXCEPTIONS=1.
#include "core/model/json.h"
#include "core/model/schema_registry.h"
#include "test_common.h"

#include <QStringList>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <memory>

namespace ccm::test {

/// The protocol schema as compiled into the backend, in the JSON flavour valijson reads.
inline nlohmann::json protocolSchema()
{
    const Json &document = SchemaRegistry::instance().document("protocol.json");
    if (document.is_null())
        return nullptr;
    return nlohmann::json::parse(document.dump());
}

/// The schema with its root replaced by a reference to one definition (the whole schema when
/// definition is empty), compiled; null when it does not compile.
inline std::unique_ptr<valijson::Schema> compileSchema(nlohmann::json schema, const QString &definition)
{
    if (!definition.isEmpty()) {
        schema.erase("anyOf");
        schema["allOf"] = nlohmann::json::array({{{"$ref", "#/definitions/" + definition.toStdString()}}});
    }
    auto compiled = std::make_unique<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(schema);
    try {
        parser.populateSchema(adapter, *compiled);
    } catch (const std::exception &) {
        return nullptr;
    }
    return compiled;
}

/// The problems valijson finds with value; empty when it conforms.
inline QStringList schemaProblems(const valijson::Schema &schema, const nlohmann::json &value)
{
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(value);
    QStringList found;
    if (!validator.validate(schema, target, &results)) {
        valijson::ValidationResults::Error error;
        while (results.popError(error)) {
            QString context;
            for (const auto &part : error.context)
                context += q(part);
            found << context + QStringLiteral(": ") + q(error.description);
        }
    }
    return found;
}

/// The problems of `message` as an instance of the protocol definition `definition`.
inline QStringList protocolProblems(const QString &definition, const Json &message)
{
    const auto schema = compileSchema(protocolSchema(), definition);
    if (!schema)
        return {QStringLiteral("cannot compile the schema for ") + definition};
    return schemaProblems(*schema, nlohmann::json::parse(message.dump()));
}

} // namespace ccm::test
