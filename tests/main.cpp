// tests/main.cpp — doctest's runner. The same test sources build natively
// (run by ctest) and with em++ (run under node), so both run every case.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
