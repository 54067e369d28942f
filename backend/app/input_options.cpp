// SPDX-License-Identifier: Apache-2.0
#include "input_options.h"

#include "environ.h"
#include "manifest.h"
#include "yaml_reader.h"

namespace ccm::cli {

const char *const kInputOptionsUsage
    = R"(  --fact KEY=VALUE    set a fact (a string; repeatable); merged over the system and
                      custom facts
  --facts FILE        facts from a JSON or YAML map, merged over --fact
)";

namespace {

/// The value of "--name VALUE" or "--name=VALUE" at args[index], advancing index past it.
std::optional<Result<std::string>> optionValue(
    const std::vector<std::string> &args, std::size_t &index, const std::string &name)
{
    const std::string &arg = args[index];
    if (arg.starts_with(name + "="))
        return Result<std::string>(arg.substr(name.size() + 1));
    if (arg != name)
        return std::nullopt;
    if (index + 1 >= args.size())
        return Result<std::string>(Error {"usage", "option " + name + " needs a value"});
    return Result<std::string>(args[++index]);
}

} // namespace

Result<bool> takeInputOption(
    const std::vector<std::string> &args, std::size_t &index, InputOptions &options, bool withData)
{
    if (auto fact = optionValue(args, index, "--fact")) {
        if (!*fact)
            return fact->error();
        if (fact->value().find('=') == std::string::npos)
            return Error {"usage", "--fact expects KEY=VALUE, not '" + fact->value() + "'"};
        options.facts.commandLineFacts.push_back(fact->value());
        return true;
    }
    if (auto file = optionValue(args, index, "--facts")) {
        if (!*file)
            return file->error();
        options.facts.factsFile = file->value();
        return true;
    }
    if (withData) {
        if (auto file = optionValue(args, index, "--data")) {
            if (!*file)
                return file->error();
            options.dataFile = file->value();
            return true;
        }
    }
    return false;
}

Result<Json> loadDataFile(const std::string &path)
{
    const FileText file = readManifestFile(path);
    if (file.problem)
        return Error {"data", path + ": " + file.problem->message};
    YamlReadResult read = readYaml(file.text);
    if (!read.document) {
        if (read.diagnostics.empty())
            return Error {"data", path + ": not a YAML or JSON document"};
        return Error {"data", formatDiagnostic(path, read.diagnostics.front())};
    }
    if (!read.document->root.is_object())
        return Error {
            "data", path + ": data must be a map of names to values, not " + describeJsonType(read.document->root)};
    return std::move(read.document->root);
}

Result<ResolveOptions> resolveInputs(const InputOptions &options)
{
    ResolveOptions inputs;
    auto facts = gatherFacts(options.facts);
    if (!facts)
        return facts.error();
    inputs.facts = std::move(facts).value();
    inputs.environ = processEnviron();
    if (options.dataFile) {
        auto data = loadDataFile(*options.dataFile);
        if (!data)
            return data.error();
        inputs.externalData = std::move(data).value();
    }
    return inputs;
}

} // namespace ccm::cli
