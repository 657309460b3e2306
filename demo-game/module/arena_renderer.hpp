#pragma once
// ArenaRenderer: draws the arena from above into the terminal.

#include "arena_state.hpp"

namespace demo {

/// Top-down view of the x/z plane as Unity's top view (+x right, +z up the screen): the walls as
/// a frame, the ball as 'O' (yellow while it flashes), spinners as a turning bar, sparks as '*',
/// cameras as an arrow pointing where they look, and a legend of the scripted entities on the
/// right when it fits.
class ArenaRenderer final : public scripthost::game::GameRenderer {
public:
    explicit ArenaRenderer(const ArenaState& arena) : arena_(arena) {}
    void draw(scripthost::game::GameWorld& world, const scripthost::game::HostStatus& status,
              scripthost::TextCanvas& canvas) override;

private:
    const ArenaState& arena_;
};

} // namespace demo
