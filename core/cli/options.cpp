// core/cli/options.cpp — what every `lookback` command shares: usage errors and
// option parsing (commands.h).
#include <cstdio>

#include "commands.h"

namespace lb::cli {

int usage_error(const std::string& message, const char* usage) {
    std::fprintf(stderr, "lookback: %s\nusage: %s\n", message.c_str(), usage);
    return 2;
}

bool take_option(const Args& args, size_t& i, const char* name, std::string& value) {
    const std::string& a = args[i];
    const std::string flag = name;
    if (a == flag) {
        if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
        value = args[i + 1];
        i += 2;
        return true;
    }
    if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=') {
        value = a.substr(flag.size() + 1);
        i += 1;
        return true;
    }
    return false;
}

long long parse_integer(const char* flag, const std::string& text, long long lo, long long hi) {
    bool digits = !text.empty() && text.size() <= 19;
    for (char c : text) digits = digits && c >= '0' && c <= '9';
    const long long v = digits ? std::stoll(text) : -1;
    if (!digits || v < lo || v > hi)
        throw UsageError(std::string(flag) + " must be an integer from " + std::to_string(lo) +
                         " to " + std::to_string(hi) + ", not '" + text + "'");
    return v;
}

}  // namespace lb::cli
