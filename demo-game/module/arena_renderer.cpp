#include "arena_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace demo {

using scripthost::ObjectId;
using scripthost::TextCanvas;
using scripthost::TextColor;
using scripthost::Transform;

namespace {

constexpr float kPi = 3.14159265f;

// A bar that turns with the entity: the angle of its rotation, in eighths of a turn.
char32_t spinnerGlyph(const Transform& t) {
    const float w = std::clamp(std::fabs(t.rotation.w), 0.0f, 1.0f);
    const float angle = 2.0f * std::acos(w); // 0 … 2π
    const int step = static_cast<int>(std::lround(angle / (kPi / 4.0f))) % 4;
    static constexpr char32_t bars[] = {U'|', U'/', U'-', U'\\'};
    return bars[step];
}

// An arrow for the direction the camera looks, projected onto the ground (screen up = +z).
char32_t cameraGlyph(const Transform& t) {
    const auto f = t.forward();
    if (std::fabs(f.x) > std::fabs(f.z))
        return f.x > 0 ? U'>' : U'<';
    return f.z > 0 ? U'^' : U'v';
}

} // namespace

void ArenaRenderer::draw(scripthost::game::GameWorld& world, const scripthost::game::HostStatus&,
                         TextCanvas& canvas) {
    // The legend (23 characters a line) to the right of the arena, one blank column between.
    const int legendWidth = canvas.width() >= 60 ? 25 : 0;
    const int viewWidth = canvas.width() - legendWidth;
    const int viewHeight = canvas.height();
    if (viewWidth < 8 || viewHeight < 5)
        return;
    // Cells are about twice as tall as wide: fit the arena (plus the walls) into the view.
    const float spanX = 2.0f * arena_.halfWidth;
    const float spanZ = 2.0f * arena_.halfDepth;
    const float cellsPerUnit = std::min(static_cast<float>(viewWidth - 2) / spanX,
                                        2.0f * static_cast<float>(viewHeight - 2) / spanZ);
    const int left = (viewWidth - static_cast<int>(spanX * cellsPerUnit)) / 2;
    const int top = (viewHeight - static_cast<int>(spanZ * cellsPerUnit / 2.0f)) / 2;
    const int right = left + static_cast<int>(spanX * cellsPerUnit);
    const int bottom = top + static_cast<int>(spanZ * cellsPerUnit / 2.0f);
    auto column = [&](float x) {
        return left + static_cast<int>(std::lround((x + arena_.halfWidth) * cellsPerUnit));
    };
    // Seen from above as in Unity's top view (+Y towards the viewer): +x right, +z up.
    auto row = [&](float z) {
        return top + static_cast<int>(std::lround((arena_.halfDepth - z) * cellsPerUnit / 2.0f));
    };

    for (int x = left; x <= right; ++x) {
        canvas.put(x, top, U'#', TextColor::Blue);
        canvas.put(x, bottom, U'#', TextColor::Blue);
    }
    for (int y = top; y <= bottom; ++y) {
        canvas.put(left, y, U'#', TextColor::Blue);
        canvas.put(right, y, U'#', TextColor::Blue);
    }

    int legendRow = 0;
    for (ObjectId e : world.entities()) {
        const Transform placed = world.worldTransform(e);
        const Transform* t = &placed;
        const std::string name = world.name(e);
        const int x = column(t->position.x);
        const int y = row(t->position.z);
        const bool flashing = arena_.flashes.contains(e);
        if (world.hasComponent(e, "Camera")) {
            canvas.put(x, y, cameraGlyph(*t), TextColor::Green, true);
        } else if (world.hasComponent(e, "Wall")) {
            canvas.put(x, y, U'#', TextColor::Blue);
        } else if (world.hasComponent(e, "Render")) {
            const auto classes = world.scriptClasses(e);
            const bool spinner =
                std::find(classes.begin(), classes.end(), "Demo.Spinner") != classes.end() ||
                std::find(classes.begin(), classes.end(), "Demo.NativeSpinner") != classes.end();
            const bool ball =
                std::find(classes.begin(), classes.end(), "Demo.BallScript") != classes.end();
            if (ball)
                canvas.put(x, y, U'O', flashing ? TextColor::Yellow : TextColor::White, true);
            else if (spinner)
                canvas.put(x, y, spinnerGlyph(*t), TextColor::Magenta, true);
            else
                canvas.put(x, y, U'*', TextColor::Cyan);
        }
        if (legendWidth > 0 && !name.starts_with("Spark") && legendRow < viewHeight) {
            char line[64];
            std::snprintf(line, sizeof line, "%-11.11s%6.1f%6.1f", name.c_str(),
                          static_cast<double>(t->position.x), static_cast<double>(t->position.z));
            canvas.text(viewWidth + 1, legendRow++, line, TextColor::Default);
        }
    }
}

} // namespace demo
