#pragma once
// Transform: an entity's position, rotation and scale.

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

namespace scripthost {

/// Position, rotation and scale of an entity. An unrotated entity faces -Z with +Y up
/// (GLM/OpenGL convention); rotations are applied in local space.
struct Transform {
    glm::vec3 position{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f}; // glm::quat(w, x, y, z): identity
    glm::vec3 scale{1.0f};

    [[nodiscard]] glm::vec3 forward() const noexcept { return rotation * glm::vec3(0, 0, -1); }
    [[nodiscard]] glm::vec3 up() const noexcept { return rotation * glm::vec3(0, 1, 0); }
    [[nodiscard]] glm::vec3 right() const noexcept { return rotation * glm::vec3(1, 0, 0); }

    /// Adds `delta` to the position (world space).
    void move(const glm::vec3& delta) noexcept { position += delta; }
    /// Rotates by `degrees` about `axis` in local space. Returns false (and changes nothing)
    /// when the axis has no direction or a value is not finite.
    bool rotate(const glm::vec3& axis, float degrees) noexcept;
    /// Multiplies the scale component-wise.
    void scaleBy(const glm::vec3& factor) noexcept { scale *= factor; }

    bool operator==(const Transform&) const = default;
};

} // namespace scripthost
