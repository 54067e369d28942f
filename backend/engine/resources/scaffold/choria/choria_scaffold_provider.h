// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/scaffold/scaffold_type.h"
#include "engine/util/atomic_file.h"
#include "engine/util/command_runner.h"

namespace ccm::engine {

/// Renders template directories as CCM's choria provider does: every regular file below the source
/// is a template (directories named `_partials` are skipped), rendered with Jet or Go into a private
/// staging directory, where the post commands run on the rendered copies (`{}` is the staged
/// file's path). Only the result is compared with the target, by content, so post commands that
/// rewrite a file (formatters) stay idempotent and a failing template or command leaves the target
/// untouched. Files that differ are installed atomically with the staged file's permission bits.
class ChoriaScaffoldProvider : public ScaffoldProvider {
public:
    explicit ChoriaScaffoldProvider(CommandRunner &runner);

    [[nodiscard]] std::string_view name() const override { return "choria"; }

    [[nodiscard]] Result<ScaffoldState> status(
        const TemplateEnvironment &environment, const ScaffoldProperties &properties) override;
    [[nodiscard]] Result<ScaffoldState> scaffold(
        const TemplateEnvironment &environment, const ScaffoldProperties &properties) override;
    [[nodiscard]] Result<void> remove(const ScaffoldProperties &properties, const ScaffoldState &state) override;

private:
    CommandRunner &m_runner;
    // The provider lives for one run: each directory it writes into is listed once in it for
    // abandoned temporary files, not once per file.
    TemporarySweep m_temporaries;
};

/// The only scaffold provider: manageable everywhere with priority 1.
class ChoriaScaffoldProviderFactory : public ProviderFactory {
public:
    [[nodiscard]] std::string_view typeName() const override { return "scaffold"; }
    [[nodiscard]] std::string_view name() const override { return "choria"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;
};

} // namespace ccm::engine
