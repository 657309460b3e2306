#pragma once
// InputState: the current value of each named input action, and its value in the last frame.

#include <string>
#include <string_view>
#include <unordered_map>

namespace scripthost {

/// Named analogue input actions ("MoveForward" = 1.0, "key:Space" = 1, …) that scripts read
/// through UInputSystem.GetActionState and Unity's Input. Unknown actions read as 0. Each
/// action also keeps the value it had when the last frame ended, so a script can tell a key
/// that went down or up in this frame (Input.GetKeyDown, GetKeyUp). Main thread only.
class InputState {
public:
    /// What a script reads of an action: its value now, its value at the end of the last frame,
    /// and whether anything has ever set it (Unity's Input falls back to default keys if not).
    struct Reading {
        float value = 0;
        float previous = 0;
        bool known = false;
    };

    void set(std::string action, float value) { actions_[std::move(action)].value = value; }
    [[nodiscard]] float get(std::string_view action) const { return read(action).value; }
    [[nodiscard]] Reading read(std::string_view action) const {
        auto it = actions_.find(std::string(action));
        if (it == actions_.end())
            return {};
        return {it->second.value, it->second.previous, true};
    }
    /// The end of a frame: every action's value becomes its previous one.
    void advanceFrame() noexcept {
        for (auto& [action, entry] : actions_)
            entry.previous = entry.value;
    }
    void clear() noexcept { actions_.clear(); }

private:
    struct Entry {
        float value = 0;
        float previous = 0;
    };
    std::unordered_map<std::string, Entry> actions_;
};

} // namespace scripthost
