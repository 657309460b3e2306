#pragma once
// KeyboardInput: turns terminal key presses into held input actions.

#include "host/engine/input_state.hpp"
#include "host/modules/game_module_host.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace scripthost {

/// A terminal reports presses, not releases: a key counts as held for `holdSeconds`
/// after its last press (the terminal's key repeat keeps a held key pressed). Each bound
/// action reads the value of its most recently pressed key while held, else 0. Every key with
/// a KeyCode name is also the action "key:<name>" (1 while held, else 0), which Unity's
/// Input.GetKey reads; its release, and so GetKeyUp, comes when the hold time runs out.
class KeyboardInput {
public:
    explicit KeyboardInput(std::vector<KeyBinding> bindings, double holdSeconds = 0.35);
    /// Records a press at `now` (seconds). Returns false when the key is not bound.
    bool press(const std::string& key, double now);
    /// Writes every bound action's current value into `input`.
    void apply(InputState& input, double now) const;
    [[nodiscard]] const std::vector<KeyBinding>& bindings() const noexcept { return bindings_; }

private:
    struct Held {
        float value = 0;
        double until = -1;
    };
    std::vector<KeyBinding> bindings_;
    double holdSeconds_;
    std::unordered_map<std::string, Held> actions_;
    std::unordered_map<std::string, double> keysHeldUntil_; ///< by key action, e.g. key:W
};

} // namespace scripthost
