#pragma once
// FUZZ_CHECK: the harnesses' invariant check. A broken invariant prints what broke and
// aborts, which libFuzzer reports as a finding (and saves the input that caused it).

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, what)                                                                \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::fprintf(stderr, "%s:%d: invariant broken: %s (%s)\n", __FILE__, __LINE__, what,   \
                         #condition);                                                              \
            std::abort();                                                                          \
        }                                                                                          \
    } while (false)
