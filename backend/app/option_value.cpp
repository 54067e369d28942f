// SPDX-License-Identifier: Apache-2.0
#include "app/option_value.h"

namespace ccm::cli {

std::optional<Result<std::string>> optionValue(
    const std::vector<std::string> &args, std::size_t &index, std::string_view name, std::string_view shortName)
{
    const std::string &arg = args[index];
    if (arg.size() > name.size() && arg.starts_with(name) && arg[name.size()] == '=')
        return Result<std::string>(arg.substr(name.size() + 1));
    if (!shortName.empty() && arg.size() > shortName.size() && arg.starts_with(shortName))
        return Result<std::string>(arg.substr(shortName.size()));
    if (arg != name && (shortName.empty() || arg != shortName))
        return std::nullopt;
    if (index + 1 >= args.size())
        return Result<std::string>(Error {"usage", "option " + std::string(name) + " needs a value"});
    return Result<std::string>(args[++index]);
}

} // namespace ccm::cli
