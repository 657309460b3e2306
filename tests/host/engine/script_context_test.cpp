// ScriptContextBinding: the bound context and the bound world's epoch, per thread.
#include "host/engine/script_context.hpp"
#include "host/model/world.hpp"

#include <doctest/doctest.h>
#include <thread>

using namespace scripthost;

TEST_CASE("ScriptContextBinding: binds the context and its world's epoch, and restores both") {
    World outer;
    World inner;
    ScriptContext outerContext;
    outerContext.world = &outer;
    ScriptContext innerContext;
    innerContext.world = &inner;
    ScriptContext worldless;

    REQUIRE(ScriptContext::current() == nullptr);
    REQUIRE(detail::tBoundWorldEpoch == 0);
    {
        ScriptContextBinding bindOuter(outerContext);
        CHECK(ScriptContext::current() == &outerContext);
        CHECK(detail::tBoundWorldEpoch == outer.epoch().value());
        {
            ScriptContextBinding bindInner(innerContext);
            CHECK(detail::tBoundWorldEpoch == inner.epoch().value());
            {
                ScriptContextBinding bindNone(worldless);
                CHECK(detail::tBoundWorldEpoch == 0);
            }
            CHECK(detail::tBoundWorldEpoch == inner.epoch().value());
        }
        // The outer world changed while the inner one was bound: the restored cell holds its
        // epoch now, not the one it had when it was first bound.
        outer.destroy(outer.createEntity("E"));
        {
            ScriptContextBinding bindInner(innerContext);
            outer.destroy(outer.createEntity("F"));
        }
        CHECK(detail::tBoundWorldEpoch == outer.epoch().value());

        // A thread that binds nothing sees neither.
        bool strayBound = true;
        std::thread([&] {
            strayBound = ScriptContext::current() != nullptr || detail::tBoundWorldEpoch != 0;
        }).join();
        CHECK_FALSE(strayBound);
    }
    CHECK(ScriptContext::current() == nullptr);
    CHECK(detail::tBoundWorldEpoch == 0);
}
