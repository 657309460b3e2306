#pragma once
// WorldEpoch: whether a pointer into a World's entities, taken earlier, still points at the
// same live entity.

#include <cstdint>

namespace scripthost {

/// A number that changes whenever a World's entities may have moved or an entity's slot may
/// be given to another object: when the world's record array reallocates and when an entity
/// is destroyed. No two worlds in a process ever share a number, not even a copy or a world
/// built where an old one was, and 0 is never one.
///
/// Scripts cache where an entity's transform lives together with the epoch they found it
/// under, and read it directly while the world bound on their thread still has that epoch
/// (UTransform, docs/MONO.md §6). The bound world's epoch sits in a thread-local cell,
/// detail::tBoundWorldEpoch, that ScriptContextBinding fills and advance() keeps current.
class WorldEpoch {
public:
    WorldEpoch() noexcept : value_(next()) {}
    /// A copy is another world: a number of its own.
    WorldEpoch(const WorldEpoch&) noexcept : value_(next()) {}
    /// The entities moved to the new owner: both get new numbers.
    WorldEpoch(WorldEpoch&& other) noexcept : value_(next()) { other.advance(); }
    WorldEpoch& operator=(const WorldEpoch&) noexcept {
        advance();
        return *this;
    }
    WorldEpoch& operator=(WorldEpoch&& other) noexcept {
        advance();
        other.advance();
        return *this;
    }
    /// A world bound on this thread while it is destroyed leaves the cell empty.
    ~WorldEpoch();

    [[nodiscard]] std::uint64_t value() const noexcept { return value_; }

    /// Takes a new number. When this world is the one bound on this thread, the cell follows,
    /// so every cached pointer into it stops matching.
    void advance() noexcept;

private:
    static std::uint64_t next() noexcept;
    std::uint64_t value_;
};

namespace detail {
/// The epoch of the world bound on this thread (ScriptContextBinding), or 0 when none is.
/// Its address is handed to managed code, which compares it with a cached epoch before
/// reading a transform directly; thread_local, so a thread that binds nothing never matches.
inline thread_local std::uint64_t tBoundWorldEpoch = 0;
} // namespace detail

} // namespace scripthost
