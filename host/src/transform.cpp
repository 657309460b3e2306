#include "host/transform.hpp"

#include <cmath>
#include <glm/geometric.hpp>

namespace scripthost {

bool Transform::rotate(const glm::vec3& axis, float degrees) noexcept {
    const float length = glm::length(axis);
    if (!std::isfinite(length) || length < 1e-12f || !std::isfinite(degrees)) {
        return false;
    }
    rotation = glm::normalize(rotation * glm::angleAxis(glm::radians(degrees), axis / length));
    return true;
}

} // namespace scripthost
