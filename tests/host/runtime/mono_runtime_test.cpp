// Its own executable: it shuts the runtime down, which nothing after it could survive.
#include "host/runtime/mono_runtime.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("MonoRuntime starts once per process and refuses to start after shutdown") {
    CHECK(MonoRuntime::running() == nullptr);
    auto first = MonoRuntime::start();
    REQUIRE(first);
    CHECK(MonoRuntime::running() == *first);
    auto second = MonoRuntime::start();
    REQUIRE(second);
    CHECK(*second == *first);
    CHECK((*first)->version().find("6.") == 0);
    MonoRuntime::shutdown();
    CHECK(MonoRuntime::running() == nullptr);
    auto again = MonoRuntime::start(); // would segfault inside Mono; must be an error instead
    REQUIRE_FALSE(again);
    CHECK(again.error().message.find("cannot start again") != std::string::npos);
}
