// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"

#include <optional>
#include <string_view>

namespace ccm {

/// Evaluates a gjson path (github.com/tidwall/gjson, as upstream CCM's `hiera --query` uses it) on
/// a value. The subset supported, with gjson's meaning:
///  - keys separated by `.` (`name.first`), `\` escaping the next character (`fav\.movie`), the
///    wildcards `*` and `?` in keys (the first member whose key matches and whose rest of the
///    path exists wins);
///  - array indexes (`children.1`), `#` for a list's length, `#.PATH` for PATH of every element
///    (`friends.#.first`, elements without it left out);
///  - queries `#(PATH OP VALUE)` (the first element that matches) and `#(...)#` (all of them),
///    with OP one of `==` `=` `!=` `<` `<=` `>` `>=` `%` (like: `*` and `?`) `!%`, VALUE a quoted
///    string, a number, `true`/`false`, or `~true` `~false` `~null` `~*` (truthiness), PATH empty
///    for the element itself, and `#(PATH)` for existence; queries nest;
///  - `|` (applies the rest of the path to the result so far, instead of to each element);
///  - the modifiers `@this`, `@reverse`, `@keys`, `@values`, `@flatten` (`@flatten:{"deep":true}`),
///    `@join` and `@valid`.
/// Multipaths (`[a,b]`, `{a,b}`), literals (`!true`), JSON Lines (`..`) and the modifiers
/// `@pretty`, `@ugly`, `@tostr`, `@fromstr`, `@group` and `@dig` are refused with an error that
/// says so and where, as are queries without their closing bracket; nothing is guessed.
/// Returns nullopt when the path leads nowhere (gjson's non-existent result).
Result<std::optional<Json>> queryJson(const Json &document, std::string_view path);

} // namespace ccm
