// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/expr/expression.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::expr {

enum class TokenKind {
    End,
    Integer,
    Float,
    String,
    Name, ///< identifiers and the word operators (and, in, matches, ...)
    Operator, ///< punctuation: + ** ?. ( ...
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text; ///< the name, the operator, or the decoded string
    std::string_view source; ///< the token as written, for messages
    std::int64_t integer = 0;
    double number = 0;
    int column = 0; ///< 1-based byte column of the first character
    bool spaceBefore = false; ///< whitespace separates it from the previous token
};

/// Splits `text` into tokens, the last one End. Errors name the column of the bad character.
ExpressionResult<std::vector<Token>> tokenize(std::string_view text);

/// How a token reads in a message: "')'", "'foo'", "a string", "the end of the expression".
std::string describeToken(const Token &token);

} // namespace ccm::expr
