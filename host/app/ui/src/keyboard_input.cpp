#include "host/ui/keyboard_input.hpp"

#include "host/ui/key_code_name.hpp"

namespace scripthost {

KeyboardInput::KeyboardInput(std::vector<KeyBinding> bindings, double holdSeconds)
    : bindings_(std::move(bindings)), holdSeconds_(holdSeconds) {
    for (const KeyBinding& binding : bindings_)
        actions_.try_emplace(binding.action);
}

bool KeyboardInput::press(const std::string& key, double now) {
    if (const std::string name = keyCodeName(key); !name.empty())
        keysHeldUntil_["key:" + name] = now + holdSeconds_;
    bool bound = false;
    for (const KeyBinding& binding : bindings_) {
        if (binding.key == key) {
            actions_[binding.action] = Held{binding.value, now + holdSeconds_};
            bound = true;
        }
    }
    return bound;
}

void KeyboardInput::apply(InputState& input, double now) const {
    for (const auto& [action, held] : actions_)
        input.set(action, now < held.until ? held.value : 0.0f);
    for (const auto& [action, until] : keysHeldUntil_)
        input.set(action, now < until ? 1.0f : 0.0f);
}

} // namespace scripthost
