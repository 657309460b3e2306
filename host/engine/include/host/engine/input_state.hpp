#pragma once
// InputState: the current value of each named input action.

#include <string>
#include <string_view>
#include <unordered_map>

namespace scripthost {

/// Named analogue input actions ("MoveForward" = 1.0, …) that scripts read through
/// UInputSystem.GetActionState. Unknown actions read as 0. Main thread only.
class InputState {
public:
    void set(std::string action, float value) { actions_[std::move(action)] = value; }
    [[nodiscard]] float get(std::string_view action) const {
        auto it = actions_.find(std::string(action));
        return it == actions_.end() ? 0.0f : it->second;
    }
    void clear() noexcept { actions_.clear(); }

private:
    std::unordered_map<std::string, float> actions_;
};

} // namespace scripthost
