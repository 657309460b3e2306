// The size limits of production code: no file over 500 lines, no function over 100
// (docs/ARCHITECTURE.md, "Where to look"). Tests, tools and benchmarks are not held to them.
#include "source_size.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace scripthost::repository;

TEST_CASE("Repository: no production file over 500 lines, no production function over 100") {
    const auto violations = checkSizes(
        SCRIPTHOST_SOURCE_DIR,
        {"posix", "sdk", "watcher", "compiler-bridge", "host", "ScriptCore", "tools/scriptctl"},
        500, 100);
    std::string report;
    for (const SizeViolation& v : violations)
        report += v.line == 0 ? fmt::format("{}: {} lines\n", v.file, v.lines)
                              : fmt::format("{}:{}: a function of {} lines\n", v.file, v.line,
                                            v.lines);
    CHECK_MESSAGE(violations.empty(), report);
}

TEST_CASE("Repository: function bodies are found past comments, strings and control blocks") {
    const char* source = R"src(// a comment with a { brace
namespace n {
int f(int x) const noexcept {
    if (x) {
        return 1; // }
    }
    const char* s = "}{";
    auto g = [](int y) { return y; };
    return g('}');
}
struct S {
    void inlineMethod() override {
        for (;;) {
        }
    }
};
auto h() -> int
{
    return R"raw(}})raw"[0];
}
}
)src";
    const auto bodies = functionBodies(source);
    REQUIRE(bodies.size() == 3);
    CHECK(bodies[0] == std::pair{3, 7});  // f: lines 3..10
    CHECK(bodies[1] == std::pair{12, 3}); // inlineMethod: 12..15
    CHECK(bodies[2] == std::pair{18, 2}); // h: 18..20
}
