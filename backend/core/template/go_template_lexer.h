// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/text.h"
#include "core/model/json.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::gotmpl {

/// A problem at a byte offset of the template text; turned into "FILE:LINE:COL: message" at the end.
struct Failure {
    std::size_t offset = 0;
    std::string message;
};

template<typename T> using Outcome = Result<T, Failure>;

struct Done { };

inline bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// Letters, digits and underscore; bytes of multi-byte UTF-8 sequences count as letters so that
/// non-ASCII keys can be fields, as Go's Unicode letters can.
inline bool isWordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isAsciiDigit(c) || c == '_'
        || static_cast<unsigned char>(c) >= 0x80;
}

enum class Tok {
    Text,
    LeftDelim,
    RightDelim,
    Identifier,
    Field,
    Variable,
    String,
    Number,
    Bool,
    Nil,
    Dot,
    Pipe,
    LeftParen,
    RightParen,
    Declare,
    Assign,
    Comma,
    If,
    Else,
    End,
    Range,
    With,
    Break,
    Continue,
    Unsupported,
    Eof,
};

struct Token {
    Tok type = Tok::Eof;
    std::string value; ///< text, field or function name, "$name", unquoted string, number text
    std::size_t offset = 0;
    std::size_t length = 0; ///< bytes of template text the token covers
    bool spaceBefore = false; ///< separates operands: ".a .b" is two, ".a.b" one
};

/// Splits template text into text and action tokens, as Go's lexer does: comments disappear,
/// trim markers remove the neighbouring whitespace, and every action ends with a right delimiter.
Outcome<std::vector<Token>> tokenize(std::string_view text, std::string_view left, std::string_view right);

/// A Go number literal as a value: integers (decimal, 0x, 0o, 0b, leading-zero octal, with
/// underscores between digits) become integers, anything with a fraction or exponent a float.
Outcome<Json> parseNumber(std::string_view text, std::size_t offset);

} // namespace ccm::gotmpl
