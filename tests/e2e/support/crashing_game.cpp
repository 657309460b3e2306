// A game module whose code crashes on purpose, for the native crash containment tests.
// Its system counts frames and crashes on frame SCRIPTHOST_TEST_CRASH_FRAME (default 30; 0:
// never by itself), or on any frame once the input action "CrashNow" is set, in the way
// SCRIPTHOST_TEST_CRASH says: "null" (the default) writes through a null pointer, "divide"
// divides by zero, "recurse" recurses without end. Its second system only counts, so a test
// can see it stop with the first. Its internal calls (C#: Crash.Native) add two numbers, write
// through a null pointer, and throw a C++ exception.
#include "scripthost/game/game_module.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

int frames = 0;
int afterFrames = 0;
volatile int zero = 0;

} // namespace

// Exported and never inlined, so a crash report can name them.
extern "C" __attribute__((visibility("default"), noinline)) void
crashing_game_write_through_null(int value) {
    volatile int* volatile nowhere = nullptr;
    *nowhere = value;
}

extern "C" __attribute__((visibility("default"), noinline)) int crashing_game_divide(int value) {
    return value / zero;
}

extern "C" __attribute__((visibility("default"), noinline)) int crashing_game_add(int a, int b) {
    return a + b;
}

extern "C" __attribute__((visibility("default"), noinline)) int crashing_game_throw(int value) {
    throw std::runtime_error("crashing_game_throw was asked for " + std::to_string(value));
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winfinite-recursion" // on purpose
extern "C" __attribute__((visibility("default"), noinline)) int crashing_game_recurse(int depth) {
    volatile char frame[512];
    frame[0] = static_cast<char>(depth);
    return crashing_game_recurse(depth + 1) + frame[0];
}
#pragma GCC diagnostic pop

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"crashing game", "1.0"};
    const char* how = std::getenv("SCRIPTHOST_TEST_CRASH");
    const std::string mode = how ? how : "null";
    const char* frame = std::getenv("SCRIPTHOST_TEST_CRASH_FRAME");
    const int crashFrame = frame ? std::atoi(frame) : 30;
    registry.registerInternalCall<&crashing_game_add>("Crash.Native::Add");
    registry.registerInternalCall<&crashing_game_write_through_null>(
        "Crash.Native::WriteThroughNull");
    registry.registerInternalCall<&crashing_game_throw>("Crash.Native::Throw");
    registry.addSystem(
        "crasher", scripthost::game::SystemPhase::BeforeScripts,
        [mode, crashFrame](scripthost::game::GameWorld& world, const scripthost::game::FrameTime&) {
            ++frames;
            if (frames != crashFrame && world.input("CrashNow") <= 0)
                return;
            if (mode == "divide")
                frames += crashing_game_divide(frames);
            else if (mode == "recurse")
                frames += crashing_game_recurse(0);
            else
                crashing_game_write_through_null(frames);
        });
    registry.addSystem("counter", scripthost::game::SystemPhase::AfterScripts,
                       [](scripthost::game::GameWorld&, const scripthost::game::FrameTime&) {
                           if (++afterFrames % 20 == 0)
                               std::printf("counter system at frame %d\n", afterFrames),
                                   std::fflush(stdout);
                       });
    return {};
}
