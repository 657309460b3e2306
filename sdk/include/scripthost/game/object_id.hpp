#pragma once
// ObjectId: the stable identity of a local (native) object across reloads.

#include <charconv>
#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

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

    /// An id written as text, in every form the host prints or documents: "3:1" (the control
    /// protocol's `entities`), "#3:1" (log lines and reports) and "e3v1"; nullopt for
    /// anything else (a null id, generation 0, is not a valid text either).
    [[nodiscard]] static std::optional<ObjectId> fromText(std::string_view text) noexcept {
        char separator = ':';
        if (text.starts_with('#')) {
            text.remove_prefix(1);
        } else if (text.starts_with('e')) {
            text.remove_prefix(1);
            separator = 'v';
        }
        const std::size_t at = text.find(separator);
        if (at == std::string_view::npos || at == 0 || at + 1 == text.size())
            return std::nullopt;
        ObjectId id;
        const char* end = text.data() + text.size();
        const auto a = std::from_chars(text.data(), text.data() + at, id.index);
        const auto b = std::from_chars(text.data() + at + 1, end, id.generation);
        if (a.ec != std::errc() || b.ec != std::errc() || a.ptr != text.data() + at ||
            b.ptr != end || id.isNull())
            return std::nullopt;
        return id;
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
