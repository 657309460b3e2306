#pragma once
// sameScene: whether two scenes describe the same world, for the loader fuzzers. Exact
// except rotations, which the loader normalises (normalising twice may move the last bit).

#include "host/model/scene.hpp"

#include <cmath>
#include <cstddef>

namespace scripthost::fuzzing {

inline bool sameRotation(const glm::quat& a, const glm::quat& b) {
    constexpr float tolerance = 1e-6f;
    return std::abs(a.x - b.x) <= tolerance && std::abs(a.y - b.y) <= tolerance &&
           std::abs(a.z - b.z) <= tolerance && std::abs(a.w - b.w) <= tolerance;
}

inline bool sameScript(const SceneScript& a, const SceneScript& b) {
    return a.className == b.className && a.fields == b.fields && a.id == b.id &&
           a.parked == b.parked;
}

inline bool sameEntity(const SceneEntity& a, const SceneEntity& b) {
    if (a.name != b.name || a.transform.position != b.transform.position ||
        a.transform.scale != b.transform.scale ||
        !sameRotation(a.transform.rotation, b.transform.rotation) || a.components != b.components ||
        a.componentIds != b.componentIds || a.id != b.id || a.ownedByScripts != b.ownedByScripts ||
        a.scripts.size() != b.scripts.size())
        return false;
    for (std::size_t i = 0; i < a.scripts.size(); ++i)
        if (!sameScript(a.scripts[i], b.scripts[i]))
            return false;
    return true;
}

inline bool sameScene(const Scene& a, const Scene& b) {
    if (a.entities.size() != b.entities.size())
        return false;
    for (std::size_t i = 0; i < a.entities.size(); ++i)
        if (!sameEntity(a.entities[i], b.entities[i]))
            return false;
    return true;
}

} // namespace scripthost::fuzzing
