// core/cli/commands.h — the subcommands of `lookback`, one file each.
// Each takes the arguments after its name and returns the process exit code.
#pragma once
#include <string>
#include <vector>

namespace lb::cli {

using Args = std::vector<std::string>;

int worked_example(const Args& args);

// A usage error: prints the message and the command's usage, returns 2.
int usage_error(const std::string& message, const char* usage);

}  // namespace lb::cli
