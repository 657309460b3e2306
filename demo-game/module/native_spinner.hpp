#pragma once
// Demo.NativeSpinner: the demo's Spinner written in C++ — a native script class. It spins its
// entity about an axis; C# sees it through its generated proxy (Demo.NativeSpinner, with
// `axis` and `speed` properties and a `Reverse()` method), scenes and `scriptctl` through its
// fields. Edit `update` or the default speed, rebuild the module (cmake --build build
// --target demo_game) and the running host swaps the new build in: both spinners' values
// are carried.

#include <scripthost/game/native_script.hpp>

namespace demo {

struct NativeSpinner : scripthost::game::NativeScript {
    glm::vec3 axis{0.0f, 1.0f, 0.0f};
    float speed = 90.0f; ///< degrees per second

    void update(float deltaTime) override { transform().rotate(axis, speed * deltaTime); }

    /// Turns the other way; returns the new speed.
    float reverse() { return speed = -speed; }

    static scripthost::game::NativeScriptClass<NativeSpinner> describe() {
        return scripthost::game::NativeScriptClass<NativeSpinner>(
                   "Demo.NativeSpinner",
                   "Spins its entity about an axis (C++, in the demo module).")
            .field("axis", &NativeSpinner::axis)
            .field("speed", &NativeSpinner::speed)
            .method<&NativeSpinner::reverse>("Reverse");
    }
};

} // namespace demo
