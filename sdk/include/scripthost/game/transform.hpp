#pragma once
// Transform: an entity's position, rotation and scale.

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

namespace scripthost {

/// Position, rotation and scale of an entity. The basis is Unity's, as in the scripts' C#:
/// +X right, +Y up, +Z forward, so an unrotated entity faces +Z (not -Z as in OpenGL's camera
/// convention). GLM's ordinary quaternion and cross product give Unity's results in it:
/// cross(up, forward) == right, angleAxis(90°, up) * forward == right (docs/SDK.md, "Transform").
/// Rotations are applied in local space.
struct Transform {
    glm::vec3 position{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f}; // glm::quat(w, x, y, z): identity
    glm::vec3 scale{1.0f};

    /// rotation * (0, 0, 1): +Z, Unity's forward (SDK API version 4; it was -Z before).
    [[nodiscard]] glm::vec3 forward() const noexcept { return rotation * glm::vec3(0, 0, 1); }
    [[nodiscard]] glm::vec3 up() const noexcept { return rotation * glm::vec3(0, 1, 0); }
    [[nodiscard]] glm::vec3 right() const noexcept { return rotation * glm::vec3(1, 0, 0); }

    /// Adds `delta` to the position: the parent's space for a child, world space for a root
    /// (the position is local: GameWorld::worldTransform gives the world's).
    void move(const glm::vec3& delta) noexcept { position += delta; }
    /// Rotates by `degrees` about `axis` in local space. Returns false (and changes nothing)
    /// when the axis has no direction or a value is not finite.
    /// Inline, so game modules can use it without linking the host.
    bool rotate(const glm::vec3& axis, float degrees) noexcept {
        const float length = glm::length(axis);
        if (!std::isfinite(length) || length < 1e-12f || !std::isfinite(degrees)) {
            return false;
        }
        rotation = glm::normalize(rotation * glm::angleAxis(glm::radians(degrees), axis / length));
        return true;
    }
    /// Multiplies the scale component-wise.
    void scaleBy(const glm::vec3& factor) noexcept { scale *= factor; }

    bool operator==(const Transform&) const = default;
};

} // namespace scripthost
