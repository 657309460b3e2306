#pragma once
// ObjectId: the stable identity of a local (native) object across reloads.

#include <compare>
#include <cstdint>
#include <functional>
#include <string>

namespace scripthost {

/// A generational index: `index` picks a slot, `generation` tells reuses of that slot
/// apart, so a stale id is detected instead of aliasing a newer object. Generation 0
/// is never issued: a default-constructed id is the null id.
struct ObjectId {
    std::uint32_t index = 0;
    std::uint32_t generation = 0;

    [[nodiscard]] constexpr bool isNull() const noexcept { return generation == 0; }

    /// The 64-bit form that managed proxies carry (generation high, index low).
    [[nodiscard]] constexpr std::uint64_t packed() const noexcept {
        return (std::uint64_t{generation} << 32) | index;
    }
    [[nodiscard]] static constexpr ObjectId unpack(std::uint64_t packed) noexcept {
        return ObjectId{static_cast<std::uint32_t>(packed & 0xffffffffu),
                        static_cast<std::uint32_t>(packed >> 32)};
    }

    /// "#index:generation", for logs and messages.
    [[nodiscard]] std::string toString() const {
        return "#" + std::to_string(index) + ":" + std::to_string(generation);
    }

    constexpr auto operator<=>(const ObjectId&) const = default;
};

} // namespace scripthost

template <> struct std::hash<scripthost::ObjectId> {
    std::size_t operator()(const scripthost::ObjectId& id) const noexcept {
        return std::hash<std::uint64_t>{}(id.packed());
    }
};
