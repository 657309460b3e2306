#pragma once
// ArenaState: what the demo module's internal calls, systems and renderer share.

#include <scripthost/game/game_module.hpp>
#include <unordered_map>

namespace demo {

struct ArenaState {
    static constexpr int kFlashFrames = 12;
    float halfWidth = 10.0f; ///< walls at x = ±halfWidth
    float halfDepth = 6.0f;  ///< walls at z = ±halfDepth
    scripthost::game::GameWorld* world = nullptr;
    /// Entities drawn highlighted, with the frames the highlight has left.
    std::unordered_map<scripthost::ObjectId, int> flashes;
};

} // namespace demo
