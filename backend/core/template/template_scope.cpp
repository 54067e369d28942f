// SPDX-License-Identifier: Apache-2.0
#include "core/template/template_scope.h"

#include "base/file_reading.h"
#include "core/template/jet_template.h"
#include "core/template/template_string.h"

#include <system_error>


namespace ccm {
namespace {

constexpr int kMaxTemplateDepth = 16;

Error functionError(std::string message)
{
    return Error{"template", std::move(message)};
}

/// Increments a depth counter for the lifetime of a nested template call.
class DepthGuard
{
public:
    explicit DepthGuard(int &depth)
        : m_depth(depth)
    {
        ++m_depth;
    }
    ~DepthGuard() { --m_depth; }
    DepthGuard(const DepthGuard &) = delete;
    DepthGuard &operator=(const DepthGuard &) = delete;

private:
    int &m_depth;
};

Result<std::string> stringArgument(const std::vector<Json> &args, std::size_t index, std::string_view function)
{
    if (index >= args.size() || !args[index].is_string())
        return functionError(std::string(function) + "() expects a string as argument " + std::to_string(index + 1)
                             + (index < args.size() ? ", not " + describeJsonType(args[index]) : std::string()));
    return args[index].get<std::string>();
}

} // namespace

Result<std::string> readTemplateFile(const std::string &path, const std::filesystem::path &baseDirectory)
{
    if (path.empty())
        return functionError("no file name given");
    std::filesystem::path full(path);
    if (full.is_relative())
        full = baseDirectory / full;
    const std::string shown = full.lexically_normal().string();

    auto content = readRegularFile(full, kMaxTemplateFileBytes);
    if (content)
        return std::move(content).value();
    switch (content.error().kind) {
    case FileReadFailure::Kind::Directory:
        return functionError("cannot read " + shown + ": it is a directory");
    case FileReadFailure::Kind::NotRegular:
        return functionError("cannot read " + shown + ": not a regular file");
    case FileReadFailure::Kind::TooLarge:
        return functionError("cannot read " + shown + ": larger than "
                             + std::to_string(kMaxTemplateFileBytes / (1024 * 1024)) + " MiB");
    case FileReadFailure::Kind::Missing:
    case FileReadFailure::Kind::Unreadable:
        break;
    }
    return functionError("cannot read " + shown + ": " + std::generic_category().message(content.error().error));
}

TemplateScope::TemplateScope(const Json &facts, const Json &data, const Json &environment,
    std::filesystem::path baseDirectory, KvGetFunction kvGet, RegistrationsFunction registrations)
    : m_variables(facts, data, environment)
    , m_baseDirectory(std::move(baseDirectory))
    , m_kvGet(std::move(kvGet))
    , m_registrations(std::move(registrations))
{
}

TemplateScope::TemplateScope(const LazyFacts &facts, const Json &data, const Json &environment,
    std::filesystem::path baseDirectory, KvGetFunction kvGet, RegistrationsFunction registrations)
    : m_variables(facts, data, environment)
    , m_baseDirectory(std::move(baseDirectory))
    , m_kvGet(std::move(kvGet))
    , m_registrations(std::move(registrations))
{
}

const Json *TemplateScope::variable(std::string_view name) const
{
    return m_variables.variable(name);
}

std::optional<Result<Json>> TemplateScope::callFunction(std::string_view name, const std::vector<Json> &args) const
{
    if (name == "readFile" || name == "file") {
        if (args.size() != 1)
            return Result<Json>(functionError(std::string(name) + "() takes 1 argument, got " + std::to_string(args.size())));
        auto path = stringArgument(args, 0, name);
        if (!path)
            return Result<Json>(path.error());
        auto content = readTemplateFile(path.value(), m_baseDirectory);
        if (!content)
            return Result<Json>(content.error());
        return Result<Json>(Json(std::move(content).value()));
    }
    if (name == "template")
        return templateFunction(args);
    if (name == "jet")
        return jetFunction(args);
    if (name == "kvGet")
        return kvGetFunction(args);
    if (name == "registrations" && m_registrations)
        return registrationsFunction(args);
    return std::nullopt;
}

Result<Json> TemplateScope::registrationsFunction(const std::vector<Json> &args) const
{
    if (args.size() != 4)
        return functionError("registrations() takes 4 arguments (cluster, protocol, service, address), got "
            + std::to_string(args.size()));
    std::vector<std::string> values;
    for (std::size_t i = 0; i < args.size(); ++i) {
        auto value = stringArgument(args, i, "registrations");
        if (!value)
            return value.error();
        values.push_back(std::move(value).value());
    }
    auto found = m_registrations(values[0], values[1], values[2], values[3]);
    if (!found)
        return functionError("registrations(\"" + values[0] + "\", \"" + values[1] + "\", \"" + values[2] + "\", \""
            + values[3] + "\"): " + found.error().message);
    return std::move(found).value();
}

Result<Json> TemplateScope::kvGetFunction(const std::vector<Json> &args) const
{
    if (args.size() != 2)
        return functionError("kvGet() takes 2 arguments (bucket, key), got " + std::to_string(args.size()));
    auto bucket = stringArgument(args, 0, "kvGet");
    if (!bucket)
        return bucket.error();
    auto key = stringArgument(args, 1, "kvGet");
    if (!key)
        return key.error();
    if (!m_kvGet)
        return functionError("kvGet needs a NATS connection: none is configured here; run the manifest with "
                             "ccm-backend, which connects with --context NAME or --nats URL");
    auto value = m_kvGet(bucket.value(), key.value());
    if (!value)
        return functionError("kvGet(\"" + bucket.value() + "\", \"" + key.value() + "\"): " + value.error().message);
    return Json(std::move(value).value());
}

Result<Json> TemplateScope::templateFunction(const std::vector<Json> &args) const
{
    if (args.size() != 1)
        return functionError("template() takes 1 argument, got " + std::to_string(args.size()));
    auto source = stringArgument(args, 0, "template");
    if (!source)
        return source.error();
    if (m_depth >= kMaxTemplateDepth)
        return functionError("templates nest more than " + std::to_string(kMaxTemplateDepth) + " levels deep");
    DepthGuard guard(m_depth);

    const std::string &text = source.value();
    if (text.ends_with(".jet"))
        return jetFunction(args);
    std::string body = text;
    std::string fileName;
    if (text.ends_with(".templ")) {
        auto content = readTemplateFile(text, m_baseDirectory);
        if (!content)
            return content.error();
        body = std::move(content).value();
        fileName = text;
    }
    auto resolved = resolveTemplate(body, *this, TemplateValue::Typed);
    if (!resolved) {
        const std::string where = fileName.empty() ? std::string() : fileName + ": ";
        return functionError(where + resolved.error().describe());
    }
    return std::move(resolved).value();
}

Result<Json> TemplateScope::jetFunction(const std::vector<Json> &args) const
{
    if (args.empty() || args.size() == 2 || args.size() > 3)
        return functionError("jet() takes 1 or 3 arguments (body, left and right delimiter), got "
                             + std::to_string(args.size()));
    auto body = stringArgument(args, 0, "jet");
    if (!body)
        return body.error();
    JetOptions options;
    if (args.size() == 3) {
        auto left = stringArgument(args, 1, "jet");
        auto right = stringArgument(args, 2, "jet");
        if (!left)
            return left.error();
        if (!right)
            return right.error();
        if (left.value().empty() || right.value().empty())
            return functionError("jet() delimiters must not be empty");
        options.leftDelimiter = left.value();
        options.rightDelimiter = right.value();
    }
    if (m_depth >= kMaxTemplateDepth)
        return functionError("templates nest more than " + std::to_string(kMaxTemplateDepth) + " levels deep");
    DepthGuard guard(m_depth);

    std::string text = body.value();
    if (text.ends_with(".jet")) {
        auto content = readTemplateFile(text, m_baseDirectory);
        if (!content)
            return content.error();
        options.fileName = text;
        text = std::move(content).value();
    }
    auto rendered = renderJet(text, *this, options);
    if (!rendered)
        return rendered.error();
    return Json(std::move(rendered).value());
}

} // namespace ccm
