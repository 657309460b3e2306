#pragma once
// Transform spaces: a child's local transform and its world one, under its parent's.

#include "scripthost/game/transform.hpp"

namespace scripthost {

/// A child's world transform: `local` placed under its parent's world transform. The
/// position is scaled, rotated and moved by the parent; rotations compose; scales multiply
/// component-wise (Unity's lossyScale: exact unless a rotated child sits under a parent
/// scaled unevenly, where no scale vector is exact).
[[nodiscard]] Transform toWorld(const Transform& parentWorld, const Transform& local) noexcept;

/// The local transform that toWorld(parentWorld, ·) maps to `world` (its inverse). A parent
/// scale of 0 on an axis maps that axis to 0.
[[nodiscard]] Transform toLocal(const Transform& parentWorld, const Transform& world) noexcept;

} // namespace scripthost
