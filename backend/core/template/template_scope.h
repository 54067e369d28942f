// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/expr/expression.h"

#include <filesystem>
#include <functional>
#include <string>

namespace ccm {

/// Files read by template functions larger than this are refused.
inline constexpr std::uintmax_t kMaxTemplateFileBytes = 16 * 1024 * 1024;

/// Reads a file for a template function: `path` relative to `baseDirectory` unless absolute.
/// Directories, devices, pipes, unreadable and oversized files are errors naming the path.
Result<std::string> readTemplateFile(const std::string &path, const std::filesystem::path &baseDirectory);

/// Reads the value of `key` in the NATS key-value bucket `bucket` for kvGet(). The engine does not
/// talk to NATS itself: the program running it supplies one (ccm::fleet::KvReader).
using KvGetFunction = std::function<Result<std::string>(const std::string &bucket, const std::string &key)>;

/// Looks up registration entries for registrations(cluster, protocol, service, address): a list of
/// entry maps ("*" or "" matches any value). The program running the engine supplies it
/// (ccm::fleet::RegistrationReader); without one registrations() gives an empty list.
using RegistrationsFunction = std::function<Result<Json>(
    const std::string &cluster, const std::string &protocol, const std::string &service, const std::string &address)>;

/// What manifest templates see (ENGINE-SPEC §4): Facts, Data and Environ, and the functions
/// readFile/file, template and jet, reading files relative to the manifest's directory, and
/// kvGet(bucket, key), which returns a NATS key-value entry's value as a string, as upstream does,
/// and, when a lookup is given, registrations(cluster, protocol, service, address).
/// The referenced values must outlive the scope.
class TemplateScope : public ExpressionScope
{
public:
    TemplateScope(const Json &facts, const Json &data, const Json &environment, std::filesystem::path baseDirectory,
        KvGetFunction kvGet = {}, RegistrationsFunction registrations = {});
    TemplateScope(const LazyFacts &facts, const Json &data, const Json &environment,
        std::filesystem::path baseDirectory, KvGetFunction kvGet = {}, RegistrationsFunction registrations = {});

    [[nodiscard]] const Json *variable(std::string_view name) const override;
    [[nodiscard]] std::optional<Result<Json>> callFunction(std::string_view name,
                                                           const std::vector<Json> &args) const override;

    [[nodiscard]] const std::filesystem::path &baseDirectory() const { return m_baseDirectory; }

private:
    Result<Json> templateFunction(const std::vector<Json> &args) const;
    Result<Json> jetFunction(const std::vector<Json> &args) const;
    Result<Json> kvGetFunction(const std::vector<Json> &args) const;
    Result<Json> registrationsFunction(const std::vector<Json> &args) const;

    StandardScope m_variables;
    std::filesystem::path m_baseDirectory;
    KvGetFunction m_kvGet;
    RegistrationsFunction m_registrations;
    /// template() and jet() may call each other through files; this bounds the nesting.
    mutable int m_depth = 0;
};

} // namespace ccm
