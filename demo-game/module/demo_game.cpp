// The demo game's native module: an arena seen from above, drawn in the terminal.
//
// It registers the arena's size and a flash effect as internal calls (Demo.Arena in
// demo-game/scripts/Arena.cs), key bindings for the camera's input actions, a system
// that keeps the camera inside the arena, a top-down text renderer, and a native script
// class (Demo.NativeSpinner, native_spinner.hpp) that "Spinner B" runs.

#include "arena_renderer.hpp"
#include "arena_state.hpp"
#include "native_spinner.hpp"

#include <algorithm>
#include <scripthost/game/game_module.hpp>

namespace {

using namespace scripthost;
using namespace scripthost::game;

demo::ArenaState g_arena;

// Internal calls: plain arguments and results; they run guarded (a crash switches the
// module off and raises an exception in the calling script).
float halfWidth() {
    return g_arena.halfWidth;
}
float halfDepth() {
    return g_arena.halfDepth;
}
bool flash(std::uint64_t entity) {
    const ObjectId id = ObjectId::unpack(entity);
    if (g_arena.world == nullptr || !g_arena.world->isAlive(id))
        return false;
    g_arena.flashes[id] = demo::ArenaState::kFlashFrames;
    return true;
}

// Keeps every camera inside the arena (with a margin) whatever the scripts do.
void clampCameras(GameWorld& world, const FrameTime&) {
    const float marginX = g_arena.halfWidth + 2.0f;
    const float marginZ = g_arena.halfDepth + 2.0f;
    for (ObjectId e : world.entities()) {
        if (!world.hasComponent(e, "Camera"))
            continue;
        Transform* t = world.transform(e);
        t->position.x = std::clamp(t->position.x, -marginX, marginX);
        t->position.z = std::clamp(t->position.z, -marginZ, marginZ);
    }
}

// Counts flashes down, one per frame, and forgets entities that are gone.
void fadeFlashes(GameWorld& world, const FrameTime&) {
    for (auto it = g_arena.flashes.begin(); it != g_arena.flashes.end();) {
        if (!world.isAlive(it->first) || --it->second <= 0)
            it = g_arena.flashes.erase(it);
        else
            ++it;
    }
}

} // namespace

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"demo arena", "1.0"};
    g_arena = demo::ArenaState{};
    g_arena.world = &registry.world();

    registry.registerComponent("Wall", "a wall of the arena (drawn as #)");
    registry.registerScript(demo::NativeSpinner::describe());
    registry.registerInternalCall<&halfWidth>("Demo.Arena/Native::Internal_HalfWidth");
    registry.registerInternalCall<&halfDepth>("Demo.Arena/Native::Internal_HalfDepth");
    registry.registerInternalCall<&flash>("Demo.Arena/Native::Internal_Flash");

    for (const char* key : {"w", "W", "Up"})
        registry.bindKey(key, "MoveForward", 1.0f);
    for (const char* key : {"s", "S", "Down"})
        registry.bindKey(key, "MoveForward", -1.0f);
    for (const char* key : {"a", "A", "Left"})
        registry.bindKey(key, "Turn", -1.0f);
    for (const char* key : {"d", "D", "Right"})
        registry.bindKey(key, "Turn", 1.0f);

    registry.addSystem("fade flashes", SystemPhase::BeforeScripts, &fadeFlashes);
    registry.addSystem("keep cameras in the arena", SystemPhase::AfterScripts, &clampCameras);
    registry.setRenderer(std::make_unique<demo::ArenaRenderer>(g_arena));
    return {};
}
