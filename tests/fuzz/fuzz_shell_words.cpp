// SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary text to the shell word splitter: it may refuse the text but never crash, and
// the words it returns must split back to themselves once each is quoted the way a shell would
// need it (single quotes, with an embedded quote written as '\'').
#include "base/shell_words.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string quoted(const std::vector<std::string> &words)
{
    std::string line;
    for (const std::string &word : words) {
        if (!line.empty())
            line += ' ';
        line += '\'';
        for (const char c : word) {
            if (c == '\'')
                line += "'\\''";
            else
                line += c;
        }
        line += '\'';
    }
    return line;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(bytes), size);
    const ccm::Result<std::vector<std::string>> words = ccm::splitShellWords(text);
    if (!words)
        return 0;
    // Every word holds at most the input's bytes.
    std::size_t total = 0;
    for (const std::string &word : words.value())
        total += word.size();
    if (total > size)
        std::abort();

    const ccm::Result<std::vector<std::string>> again = ccm::splitShellWords(quoted(words.value()));
    if (!again || again.value() != words.value())
        std::abort();
    return 0;
}
