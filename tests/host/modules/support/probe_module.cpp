// A game module for the modules' unit tests: one of every registration, systems whose work a
// test can see in the world, and failures on request.
// - info "probe module" "2.5"; component kind "Probe"; key "p" bound to action "Poke" (1.0);
// - system "mover" (before scripts): moves the entity named "Moved" one unit along +x and
//   counts the frames it has run;
// - system "thrower" (after scripts): throws a C++ exception while input "Throw" is set;
// - system "crasher" (after scripts): writes through a null pointer while input "Crash" is set;
// - internal call Probe.Native::Add(int, int);
// - its state (SCRIPTHOST_GAME_STATE): "frames=<count>", which the next build restores;
// - SCRIPTHOST_PROBE_ATTACH_FAILS set: its attach fails with that message.
#include "scripthost/game/game_module.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

int frames = 0;

int add(int a, int b) {
    return a + b;
}

std::string saveFrames() {
    return "frames=" + std::to_string(frames);
}

scripthost::Result<void> restoreFrames(std::string_view state) {
    constexpr std::string_view prefix = "frames=";
    if (!state.starts_with(prefix))
        return scripthost::fail("not a probe module state: " + std::string(state));
    frames = std::stoi(std::string(state.substr(prefix.size())));
    return {};
}

} // namespace

extern "C" __attribute__((visibility("default"), noinline)) void
probe_module_write_through_null(int value) {
    volatile int* volatile nowhere = nullptr;
    *nowhere = value;
}

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"probe module", "2.5"};
    if (const char* failure = std::getenv("SCRIPTHOST_PROBE_ATTACH_FAILS"))
        return scripthost::fail(failure);
    using scripthost::game::FrameTime;
    using scripthost::game::GameWorld;
    using scripthost::game::SystemPhase;
    registry.registerComponent("Probe", "a probed thing");
    registry.bindKey("p", "Poke", 1.0F);
    registry.registerInternalCall<&add>("Probe.Native::Add");
    registry.addSystem("mover", SystemPhase::BeforeScripts, [](GameWorld& world, const FrameTime&) {
        ++frames;
        if (auto* transform = world.transform(world.findEntity("Moved")))
            transform->position.x += 1;
    });
    registry.addSystem("thrower", SystemPhase::AfterScripts, [](GameWorld& world, const FrameTime&) {
        if (world.input("Throw") > 0)
            throw std::runtime_error("the thrower was asked to throw");
    });
    registry.addSystem("crasher", SystemPhase::AfterScripts, [](GameWorld& world, const FrameTime&) {
        if (world.input("Crash") > 0)
            probe_module_write_through_null(frames);
    });
    return {};
}

SCRIPTHOST_GAME_STATE(saveFrames, restoreFrames)
