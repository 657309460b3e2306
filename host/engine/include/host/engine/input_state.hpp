#pragma once
// InputState: the current value of each named input action, and its value in the last frame.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace scripthost {

/// Named analogue input actions ("MoveForward" = 1.0, "key:Space" = 1, …) that scripts read
/// through UInputSystem.GetActionState and Unity's Input. Unknown actions read as 0. Each
/// action also keeps the value it had when the last frame ended, so a script can tell a key
/// that went down or up in this frame (Input.GetKeyDown, GetKeyUp). An action has a number
/// for the life of the process (handle()), so a reader that asks every frame looks it up by
/// index instead of by name. Main thread only.
class InputState {
public:
    /// What a script reads of an action: its value now, its value at the end of the last frame,
    /// and whether anything has ever set it (Unity's Input falls back to default keys if not).
    struct Reading {
        float value = 0;
        float previous = 0;
        bool known = false;
    };

    /// The action's number, made on first use (it reads as unknown until set).
    std::uint32_t handle(std::string_view action) {
        if (auto it = index_.find(action); it != index_.end())
            return it->second;
        const auto number = static_cast<std::uint32_t>(entries_.size());
        entries_.emplace_back();
        index_.emplace(std::string(action), number);
        return number;
    }
    void set(std::string_view action, float value) {
        Entry& entry = entries_[handle(action)];
        entry.value = value;
        entry.known = true;
    }
    [[nodiscard]] float get(std::string_view action) const { return read(action).value; }
    [[nodiscard]] Reading read(std::string_view action) const {
        auto it = index_.find(action);
        return it == index_.end() ? Reading{} : read(it->second);
    }
    /// By handle(); a number it never gave reads as unknown.
    [[nodiscard]] Reading read(std::uint32_t handle) const noexcept {
        if (handle >= entries_.size())
            return {};
        const Entry& e = entries_[handle];
        return {e.value, e.previous, e.known};
    }
    /// The end of a frame: every action's value becomes its previous one.
    void advanceFrame() noexcept {
        for (Entry& entry : entries_)
            entry.previous = entry.value;
    }
    /// Every action back to unknown and 0; their numbers stay.
    void clear() noexcept {
        for (Entry& entry : entries_)
            entry = Entry{};
    }

private:
    struct Entry {
        float value = 0;
        float previous = 0;
        bool known = false;
    };
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> index_;
    std::vector<Entry> entries_;
};

} // namespace scripthost
