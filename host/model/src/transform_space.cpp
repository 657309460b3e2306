#include "host/model/transform_space.hpp"

#include <glm/gtc/quaternion.hpp>

namespace scripthost {

namespace {

glm::vec3 divideOrZero(const glm::vec3& v, const glm::vec3& by) noexcept {
    return {by.x != 0.0f ? v.x / by.x : 0.0f, by.y != 0.0f ? v.y / by.y : 0.0f,
            by.z != 0.0f ? v.z / by.z : 0.0f};
}

} // namespace

Transform toWorld(const Transform& parentWorld, const Transform& local) noexcept {
    Transform world;
    world.position =
        parentWorld.position + parentWorld.rotation * (parentWorld.scale * local.position);
    world.rotation = glm::normalize(parentWorld.rotation * local.rotation);
    world.scale = parentWorld.scale * local.scale;
    return world;
}

Transform toLocal(const Transform& parentWorld, const Transform& world) noexcept {
    const glm::quat inverse = glm::inverse(parentWorld.rotation);
    Transform local;
    local.position =
        divideOrZero(inverse * (world.position - parentWorld.position), parentWorld.scale);
    local.rotation = glm::normalize(inverse * world.rotation);
    local.scale = divideOrZero(world.scale, parentWorld.scale);
    return local;
}

} // namespace scripthost
