// SPDX-License-Identifier: Apache-2.0
#include "base/shell_words.h"

namespace ccm {

Result<std::vector<std::string>> splitShellWords(std::string_view line)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    std::size_t i = 0;
    while (i < line.size()) {
        const char c = line[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (inWord) {
                words.push_back(std::move(word));
                word.clear();
                inWord = false;
            }
            ++i;
        } else if (c == '\'') {
            const std::size_t close = line.find('\'', i + 1);
            if (close == std::string_view::npos)
                return Error{"unterminated_quote", "unterminated single quote at column " + std::to_string(i + 1)};
            word.append(line.substr(i + 1, close - i - 1));
            inWord = true;
            i = close + 1;
        } else if (c == '"') {
            const std::size_t open = i++;
            bool closed = false;
            while (i < line.size()) {
                const char d = line[i];
                if (d == '"') {
                    closed = true;
                    ++i;
                    break;
                }
                if (d == '\\' && i + 1 < line.size()
                    && (line[i + 1] == '"' || line[i + 1] == '\\' || line[i + 1] == '$' || line[i + 1] == '`'
                        || line[i + 1] == '\n')) {
                    if (line[i + 1] != '\n')
                        word += line[i + 1];
                    i += 2;
                    continue;
                }
                word += d;
                ++i;
            }
            if (!closed)
                return Error{"unterminated_quote", "unterminated double quote at column " + std::to_string(open + 1)};
            inWord = true;
        } else if (c == '\\') {
            if (i + 1 >= line.size())
                return Error{"unterminated_escape", "unterminated backslash escape at the end of the command"};
            if (line[i + 1] != '\n')
                word += line[i + 1];
            inWord = true;
            i += 2;
        } else {
            word += c;
            inWord = true;
            ++i;
        }
    }
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

} // namespace ccm
