// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// A schema violation: where in the validated value (JSON Pointer) and what is wrong, in words
/// meant for people.
struct SchemaViolation {
    std::string pointer;
    std::string message;
    bool atKey = false; ///< the problem is the key itself (an unknown property), not its value
};

/// The project's JSON Schemas (resources/schemas), compiled into the binary and loaded once.
/// Gives the schema documents, the canonical property order of each type, and validation of
/// resource bodies and whole documents with readable messages.
class SchemaRegistry
{
public:
    /// The shared registry, loaded on first use. Thread-safe.
    static const SchemaRegistry &instance();

    ~SchemaRegistry();
    SchemaRegistry(const SchemaRegistry &) = delete;
    SchemaRegistry &operator=(const SchemaRegistry &) = delete;

    /// A schema document by file name ("file.json"); a null value when there is none.
    [[nodiscard]] const Json &document(std::string_view fileName) const;
    /// The body schema of a resource type; a null value for an unknown type.
    [[nodiscard]] const Json &typeSchema(std::string_view type) const;
    /// Property names of a type in canonical (schema) order, `name` first.
    [[nodiscard]] const std::vector<std::string> &propertyOrder(std::string_view type) const;
    /// The schema of one property of a type with $ref resolved; a null value when unknown.
    [[nodiscard]] const Json &propertySchema(std::string_view type, std::string_view property) const;
    /// Follows a $ref (if any) of node, which lives in file; returns node itself otherwise.
    [[nodiscard]] const Json &resolve(const Json &node, std::string_view file = {}) const;

    /// Validates a resource body (the property map, name included or not) against its type.
    /// Unknown properties at the top of the body are reported too, with a suggestion.
    [[nodiscard]] std::vector<SchemaViolation> validateBody(std::string_view type, const Json &body) const;
    /// Validates a whole manifest document against manifest.json.
    [[nodiscard]] std::vector<SchemaViolation> validateDocument(const Json &document) const;

    /// Problems compiling the embedded schemas; empty in a correct build.
    [[nodiscard]] const std::vector<std::string> &loadErrors() const { return m_loadErrors; }

private:
    SchemaRegistry();
    /// resolve() that also updates file to the document the result lives in.
    const Json &resolveIn(const Json &node, std::string &file) const;
    struct Compiled;

    std::vector<SchemaViolation> validate(const Compiled &compiled, const Json &schemaRoot, std::string_view file,
                                          const Json &value) const;

    std::map<std::string, Json, std::less<>> m_documents;
    std::map<std::string, std::vector<std::string>, std::less<>> m_order;
    std::map<std::string, std::unique_ptr<Compiled>, std::less<>> m_compiled;
    std::vector<std::string> m_loadErrors;
};

} // namespace ccm
