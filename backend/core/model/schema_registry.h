// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccm {

/// A schema violation: where in the validated value (JSON Pointer) and what is wrong, in words
/// meant for people.
struct SchemaViolation {
    std::string pointer;
    std::string message;
    bool atKey = false; ///< the problem is the key itself (an unknown property), not its value
};

/// The project's JSON Schemas (resources/schemas), compiled into the binary. Each document is
/// parsed, and each schema compiled for validation, the first time it is needed, so a process
/// pays only for the types its manifest uses. Gives the schema documents, the canonical property
/// order of each type, and validation of resource bodies and whole documents with readable
/// messages.
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

    /// Problems reading or compiling the embedded schemas; empty in a correct build. Compiles
    /// every schema.
    [[nodiscard]] const std::vector<std::string> &loadErrors() const;
    /// The problems of loadErrors() that concern one resource type's schema: its file missing or
    /// not valid JSON, or the schema not compiling (which covers the files it refers to).
    [[nodiscard]] std::vector<std::string> loadErrors(std::string_view type) const;

private:
    SchemaRegistry();
    /// resolve() that also updates file to the document the result lives in.
    const Json &resolveIn(const Json &node, std::string &file) const;
    struct Compiled;
    struct Document;
    /// The parsed document of an embedded file, parsing it on first use; null for an unknown file.
    const Document *parsed(std::string_view fileName) const;
    /// The compiled schema of a file, compiling it on first use; null for a file never compiled.
    const Compiled *compiled(std::string_view file) const;

    /// The sub-schema that applies at an instance pointer's tokens, following properties, items,
    /// additionalProperties, $ref and the first matching branch of allOf/anyOf/oneOf; null if none.
    const Json &schemaAt(const Json &schemaRoot, std::string_view file, const std::vector<std::string> &tokens) const;
    /// The schema one token below `candidate`, resolved; `currentFile` follows $refs into other files.
    const Json *childSchema(const Json &candidate, const std::string &token, std::string &currentFile) const;
    std::vector<SchemaViolation> validate(const Compiled &compiled, const Json &schemaRoot, std::string_view file,
                                          const Json &value) const;

    /// Every embedded file; the JSON of one is parsed the first time it is read (protocol.json,
    /// the largest, is never read by a manifest's validation).
    std::map<std::string, std::unique_ptr<Document>, std::less<>> m_documents;
    std::map<std::string, std::unique_ptr<Compiled>, std::less<>> m_compiled;
    /// Files compiled for validation, in the order loadErrors() lists their problems.
    std::vector<std::string> m_compileOrder;
    mutable std::once_flag m_allCompiled;
    mutable std::vector<std::string> m_loadErrors;
};

} // namespace ccm
