// SPDX-License-Identifier: Apache-2.0
#include "core/template/go_template_exec.h"

#include "core/template/go_template_functions.h"
#include "core/template/go_template_value.h"
#include "core/template/template_steps.h"

#include <algorithm>
#include <span>
#include <utility>

namespace ccm::gotmpl {

namespace {

class Executor {
public:
    Executor(std::string_view source, Limits limits, const ExpressionScope *scope, LineSink sink)
        : m_source(source)
        , m_maxOutput(limits.maxOutput)
        , m_steps(limits.maxSteps)
        , m_scope(scope)
        , m_sink(sink)
    {
    }

    Outcome<std::string> run(const std::vector<Node> &root, const Json &dot)
    {
        const Value rootValue = Value::borrowed(dot);
        m_variables.emplace_back("$", rootValue);
        auto flow = walk(root, rootValue);
        if (!flow)
            return flow.error();
        return std::move(m_out);
    }

private:
    enum class Flow { Next, Break, Continue };

    [[nodiscard]] std::string outputExceeded() const
    {
        return "output exceeds the limit of " + std::to_string(m_maxOutput) + " bytes";
    }

    /// Counts one step of the work at `offset`; fails once the steps are used up.
    Outcome<Done> step(std::size_t offset)
    {
        if (!m_steps.take())
            return Failure {offset,
                "the template takes more than " + std::to_string(m_steps.limit())
                    + " steps (pieces of text, actions and passes of loops): loops nested over large data?"};
        return Done {};
    }

    Outcome<Done> emit(std::string_view text, std::size_t offset, OutputLineMap::Origin origin)
    {
        if (text.size() > m_maxOutput - m_out.size())
            return Failure {offset, outputExceeded()};
        m_out.append(text);
        if (m_sink.map)
            m_sink.map->append(text, m_sink.lines->at(offset).line, origin);
        return Done {};
    }

    void truncateVariables(std::size_t mark)
    {
        m_variables.erase(m_variables.begin() + static_cast<std::ptrdiff_t>(mark), m_variables.end());
    }

    Outcome<Flow> walk(const std::vector<Node> &nodes, const Value &dot)
    {
        for (const Node &node : nodes) {
            auto flow = walkNode(node, dot);
            if (!flow || flow.value() != Flow::Next)
                return flow;
        }
        return Flow::Next;
    }

    Outcome<Flow> walkNode(const Node &node, const Value &dot)
    {
        if (auto counted = step(node.offset); !counted)
            return counted.error();
        switch (node.kind) {
        case Node::Kind::Text:
            if (auto done = emit(node.text, node.offset, OutputLineMap::Origin::Verbatim); !done)
                return done.error();
            return Flow::Next;
        case Node::Kind::Action: {
            auto value = evalPipeline(node.pipeline, dot);
            if (!value)
                return value.error();
            if (node.pipeline.variables.empty()) {
                std::string text;
                appendValue(text, value.value(), "<no value>");
                if (auto done = emit(text, node.offset, OutputLineMap::Origin::Action); !done)
                    return done.error();
            }
            return Flow::Next;
        }
        case Node::Kind::If:
        case Node::Kind::With: {
            const std::size_t mark = m_variables.size();
            auto value = evalPipeline(node.pipeline, dot);
            if (!value)
                return value.error();
            auto flow = isTrue(value.value()) ? walk(node.body, node.kind == Node::Kind::With ? value.value() : dot)
                                              : walk(node.elseBody, dot);
            truncateVariables(mark);
            return flow;
        }
        case Node::Kind::Range:
            return walkRange(node, dot);
        case Node::Kind::Break:
            return Flow::Break;
        case Node::Kind::Continue:
            return Flow::Continue;
        }
        return Flow::Next;
    }

    /// Lists in order, maps in sorted key order (as Go); nil runs the else branch like an empty
    /// collection.
    Outcome<Flow> walkRange(const Node &node, const Value &dot)
    {
        const std::size_t mark = m_variables.size();
        auto collection = evalPipeline(node.pipeline, dot);
        if (!collection)
            return collection.error();
        const Value &items = collection.value();
        const std::vector<std::string> &variables = node.pipeline.variables;

        // Returns false after {{break}}.
        const auto iterate = [&](const Value &key, const Value &element) -> Outcome<bool> {
            if (auto counted = step(node.offset); !counted)
                return counted.error();
            const std::array<const Value *, 2> values {variables.size() == 2 ? &key : &element, &element};
            for (std::size_t i = 0; i < variables.size(); ++i) {
                if (!node.pipeline.assign) {
                    m_variables[mark + i].second = *values[i];
                } else if (auto done = setVariable(variables[i], *values[i], node.pipeline.offset); !done) {
                    return done.error();
                }
            }
            const std::size_t inner = m_variables.size();
            auto flow = walk(node.body, element);
            truncateVariables(inner);
            if (!flow)
                return flow.error();
            return flow.value() != Flow::Break;
        };

        bool any = false;
        if (!items.isNil()) {
            const Json &json = items.json();
            if (json.is_array()) {
                for (std::size_t i = 0; i < json.size(); ++i) {
                    any = true;
                    auto more = iterate(Value::owned(i), items.part(json[i]));
                    if (!more)
                        return more.error();
                    if (!more.value())
                        break;
                }
            } else if (json.is_object()) {
                std::vector<std::pair<const std::string *, const Json *>> entries;
                for (auto it = json.cbegin(); it != json.cend(); ++it)
                    entries.emplace_back(&it.key(), &it.value());
                std::sort(
                    entries.begin(), entries.end(), [](const auto &a, const auto &b) { return *a.first < *b.first; });
                for (const auto &[key, element] : entries) {
                    any = true;
                    auto more = iterate(Value::owned(*key), items.part(*element));
                    if (!more)
                        return more.error();
                    if (!more.value())
                        break;
                }
            } else {
                return Failure {node.pipeline.offset, "range can't iterate over " + describeValue(items)};
            }
        }
        Outcome<Flow> flow = Flow::Next;
        if (!any)
            flow = walk(node.elseBody, dot);
        truncateVariables(mark);
        return flow;
    }

    Outcome<Value> variable(const std::string &name, std::size_t offset) const
    {
        for (auto it = m_variables.rbegin(); it != m_variables.rend(); ++it) {
            if (it->first == name)
                return it->second;
        }
        return Failure {offset, "undefined variable \"" + name + "\""};
    }

    Outcome<Done> setVariable(const std::string &name, const Value &value, std::size_t offset)
    {
        for (auto it = m_variables.rbegin(); it != m_variables.rend(); ++it) {
            if (it->first == name) {
                it->second = value;
                return Done {};
            }
        }
        return Failure {offset, "undefined variable \"" + name + "\""};
    }

    /// Runs the commands, each one's result the last argument of the next; declares or assigns
    /// the pipeline's variables. A null result becomes missing, as Go unwraps a nil interface.
    Outcome<Value> evalPipeline(const Pipeline &pipeline, const Value &dot)
    {
        std::optional<Value> value;
        for (const Command &command : pipeline.commands) {
            auto result = evalCommand(command, dot, value);
            if (!result)
                return result.error();
            value = std::move(result).value();
        }
        const Value result = value->isNil() ? Value::missing() : *value;
        for (const std::string &name : pipeline.variables) {
            if (!pipeline.assign)
                m_variables.emplace_back(name, result);
            else if (auto done = setVariable(name, result, pipeline.offset); !done)
                return done.error();
        }
        return result;
    }

    Outcome<Value> evalCommand(const Command &command, const Value &dot, const std::optional<Value> &final)
    {
        const Operand &first = command.operands.front();
        const bool hasArgs = command.operands.size() > 1 || final.has_value();
        if (first.kind == Operand::Kind::Function)
            return callFunction(first, std::span(command.operands).subspan(1), dot, final);
        if (first.kind == Operand::Kind::Nil)
            return Failure {first.offset, "nil is not a command"};
        if (hasArgs && first.fields.empty())
            return Failure {first.offset,
                "can't give argument to non-function " + std::string(m_source.substr(first.offset, first.length))};
        return evalOperand(first, dot, hasArgs);
    }

    /// An operand's value; `hasArgs` when it heads a command with arguments, which only a
    /// function may have.
    Outcome<Value> evalOperand(const Operand &operand, const Value &dot, bool hasArgs = false)
    {
        Value base = dot;
        switch (operand.kind) {
        case Operand::Kind::Dot:
        case Operand::Kind::Field:
            break;
        case Operand::Kind::Literal:
            base = Value::borrowed(operand.literal);
            break;
        case Operand::Kind::Nil:
            base = Value::owned(nullptr);
            break;
        case Operand::Kind::Variable: {
            auto value = variable(operand.name, operand.offset);
            if (!value)
                return value.error();
            base = std::move(value).value();
            break;
        }
        case Operand::Kind::Pipeline: {
            auto value = evalPipeline(*operand.pipeline, dot);
            if (!value)
                return value.error();
            base = std::move(value).value();
            break;
        }
        case Operand::Kind::Function:
            return callFunction(operand, {}, dot, std::nullopt);
        }
        for (std::size_t i = 0; i < operand.fields.size(); ++i) {
            const std::string &field = operand.fields[i];
            if (base.isMissing())
                return base;
            const Json &json = base.json();
            if (!json.is_object())
                return Failure {operand.offset, "can't evaluate field " + field + " of " + describeValue(base)};
            if (hasArgs && i + 1 == operand.fields.size())
                return Failure {operand.offset, field + " is not a method but has arguments"};
            const Json *found = m_members.find(json, field);
            base = found ? base.part(*found) : Value::missing();
        }
        return base;
    }

    Outcome<Value> callFunction(const Operand &operand, std::span<const Operand> argOperands, const Value &dot,
        const std::optional<Value> &final)
    {
        const Function *builtin = findFunction(operand.name);
        if (builtin == nullptr)
            return callScopeFunction(operand, argOperands, dot, final);
        const Function &function = *builtin;
        const std::size_t count = argOperands.size() + (final ? 1 : 0);
        if (count < function.minArgs || count > function.maxArgs) {
            const std::string wanted = function.minArgs == function.maxArgs
                ? std::to_string(function.minArgs)
                : "at least " + std::to_string(function.minArgs);
            return Failure {operand.offset,
                "wrong number of args for " + std::string(function.name) + ": want " + wanted + " got "
                    + std::to_string(count)};
        }
        const auto argument = [&](std::size_t i) -> Outcome<Value> {
            if (i < argOperands.size())
                return evalOperand(argOperands[i], dot);
            return *final;
        };
        if (function.call == nullptr && function.callWithScope == nullptr) {
            const bool isAnd = function.name == "and";
            for (std::size_t i = 0;; ++i) {
                auto value = argument(i);
                if (!value || isTrue(value.value()) != isAnd || i + 1 == count)
                    return value;
            }
        }
        Args args;
        args.reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
            auto value = argument(i);
            if (!value)
                return value.error();
            args.push_back(std::move(value).value());
        }
        auto result = function.call != nullptr ? function.call(args) : function.callWithScope(args, m_scope);
        if (!result)
            return Failure {
                operand.offset, "error calling " + std::string(function.name) + ": " + result.error().message};
        if (result.value().isString() && result.value().json().get_ref<const std::string &>().size() > m_maxOutput)
            return Failure {operand.offset, "error calling " + std::string(function.name) + ": " + outputExceeded()};
        return std::move(result).value();
    }

    /// A function of GoTemplateOptions::scopeFunctions, called with its arguments' JSON values.
    Outcome<Value> callScopeFunction(const Operand &operand, std::span<const Operand> argOperands, const Value &dot,
        const std::optional<Value> &final)
    {
        std::vector<Json> args;
        for (const Operand &argument : argOperands) {
            auto value = evalOperand(argument, dot);
            if (!value)
                return value.error();
            args.push_back(value.value().isMissing() ? Json() : value.value().json());
        }
        if (final)
            args.push_back(final->isMissing() ? Json() : final->json());
        std::optional<Result<Json>> result;
        if (m_scope != nullptr)
            result = m_scope->callFunction(operand.name, args);
        if (!result)
            return Failure {operand.offset, "function \"" + operand.name + "\" is not available here"};
        if (!*result)
            return Failure {operand.offset, "error calling " + operand.name + ": " + result->error().message};
        return Value::owned(std::move(*result).value());
    }

    std::string_view m_source;
    std::size_t m_maxOutput;
    TemplateSteps m_steps;
    const ExpressionScope *m_scope;
    LineSink m_sink;
    std::string m_out;
    std::vector<std::pair<std::string, Value>> m_variables;
    /// Field lookups in large maps (.Data of a big manifest) go through hash indexes.
    MemberIndex m_members;
};

} // namespace

Outcome<std::string> execute(std::string_view source, Limits limits, const ExpressionScope *scope,
    const std::vector<Node> &root, const Json &dot, LineSink sink)
{
    return Executor(source, limits, scope, sink).run(root, dot);
}

} // namespace ccm::gotmpl
