// Transform spaces: a child's world transform under its parent's, and back.
#include "host/model/transform_space.hpp"

#include <cstdint>
#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

using namespace scripthost;

namespace {

bool near(const glm::vec3& a, const glm::vec3& b, float tolerance = 1e-4f) {
    return glm::length(a - b) <= tolerance;
}
bool sameRotation(const glm::quat& a, const glm::quat& b) {
    return std::abs(glm::dot(a, b)) >= 1.0f - 1e-5f; // q and -q are one rotation
}

// A small deterministic generator (a linear congruential one) for many transforms.
struct Numbers {
    std::uint64_t state;
    float next(float lo, float hi) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return lo + (hi - lo) * static_cast<float>(state >> 40) / static_cast<float>(1U << 24);
    }
    Transform transform(float minScale) {
        Transform t;
        t.position = {next(-10, 10), next(-10, 10), next(-10, 10)};
        t.rotation = glm::normalize(glm::quat(next(-1, 1), next(-1, 1), next(-1, 1), next(-1, 1)));
        const float s = next(minScale, 3);
        t.scale = {s, s, s}; // uniform: toWorld and toLocal are exact inverses then
        return t;
    }
};

} // namespace

TEST_CASE("toWorld: a child's position is scaled, rotated and moved by its parent's, rotations "
          "compose, scales multiply") {
    Transform parent;
    parent.position = {5, 0, 0};
    parent.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)); // +Z turns to +X
    parent.scale = {2, 2, 2};
    Transform child;
    child.position = {0, 0, 1};
    child.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0));
    child.scale = {0.5f, 1, 3};

    const Transform world = toWorld(parent, child);
    CHECK(near(world.position, {7, 0, 0})); // 2 units along the parent's forward, +X
    CHECK(sameRotation(world.rotation, glm::angleAxis(glm::radians(180.0f), glm::vec3(0, 1, 0))));
    CHECK(near(world.scale, {1, 2, 6}));
    CHECK(near(world.forward(), {0, 0, -1}));
}

TEST_CASE("toLocal undoes toWorld for 500 seeded parents and children, uniform scales") {
    Numbers numbers{20261128};
    for (int i = 0; i < 500; ++i) {
        const Transform parent = numbers.transform(0.25f);
        const Transform local = numbers.transform(0.25f);
        const Transform back = toLocal(parent, toWorld(parent, local));
        CHECK(near(back.position, local.position, 1e-3f));
        CHECK(sameRotation(back.rotation, local.rotation));
        CHECK(near(back.scale, local.scale));
    }
}

TEST_CASE("toLocal under a parent scaled to 0 on an axis maps that axis to 0, never to a NaN") {
    Transform parent;
    parent.scale = {0, 1, 1};
    Transform world;
    world.position = {3, 4, 5};
    world.scale = {2, 2, 2};
    const Transform local = toLocal(parent, world);
    CHECK(local.position == glm::vec3(0, 4, 5));
    CHECK(local.scale == glm::vec3(0, 2, 2));
}
