// scripthost::Transform (sdk/include/scripthost/game/transform.hpp): Unity's basis (+X right,
// +Y up, +Z forward) with GLM's quaternions, checked against GLM's own constructions of the same
// rotations (eulerAngleYXZ for Unity's Euler order, quatLookAtLH for a rotation facing a
// direction) and the identities Unity's documentation states: Cross(up, forward) is right, a
// quarter turn about up takes forward to right, pitching down by 90° makes forward point down.
#define GLM_ENABLE_EXPERIMENTAL
#include <cmath>
#include <doctest/doctest.h>
#include <glm/gtx/euler_angles.hpp>
#include <initializer_list>
#include <limits>
#include <scripthost/game/transform.hpp>

using scripthost::Transform;

namespace {

const glm::vec3 kRight{1, 0, 0}, kUp{0, 1, 0}, kForward{0, 0, 1};

bool near(glm::vec3 a, glm::vec3 b) {
    return glm::length(a - b) < 1e-5F;
}

/// Unity's Euler(x, y, z): z about Z, then x about X, then y about Y (degrees).
glm::quat euler(float x, float y, float z) {
    return glm::quat_cast(glm::eulerAngleYXZ(glm::radians(y), glm::radians(x), glm::radians(z)));
}

Transform rotated(glm::quat q) {
    Transform t;
    t.rotation = q;
    return t;
}

} // namespace

TEST_CASE("Transform: an unrotated entity faces +Z with +Y up and +X right, Unity's basis") {
    const Transform t;
    CHECK(t.forward() == kForward);
    CHECK(t.up() == kUp);
    CHECK(t.right() == kRight);
    CHECK(glm::cross(kUp, kForward) == kRight); // Unity's Cross(up, forward) == right
    CHECK(glm::cross(kRight, kUp) == kForward);
}

TEST_CASE("Transform: forward, up and right follow the rotation as Unity's do") {
    // A quarter turn about up takes forward to right; pitching down by 90° points it down.
    CHECK(near(rotated(glm::angleAxis(glm::radians(90.0F), kUp)).forward(), kRight));
    CHECK(near(rotated(euler(0, 90, 0)).forward(), kRight));
    CHECK(near(rotated(euler(90, 0, 0)).forward(), -kUp));
    CHECK(near(rotated(euler(0, 0, 90)).up(), -kRight)); // a roll to the left
    for (const glm::vec3 e :
         {glm::vec3(30, 45, 60), glm::vec3(-20, 170, 5), glm::vec3(80, -100, 250)}) {
        const glm::mat3 m =
            glm::mat3(glm::eulerAngleYXZ(glm::radians(e.y), glm::radians(e.x), glm::radians(e.z)));
        const Transform t = rotated(euler(e.x, e.y, e.z));
        CAPTURE(e);
        CHECK(near(t.right(), m[0])); // the matrix's columns are the rotated axes
        CHECK(near(t.up(), m[1]));
        CHECK(near(t.forward(), m[2]));
        CHECK(near(glm::cross(t.up(), t.forward()), t.right()));
    }
}

TEST_CASE("Transform: a rotation looking along d has forward d, upright") {
    for (const glm::vec3 d : {glm::vec3(1, 2, 3), glm::vec3(-4, 0.5F, -2), glm::vec3(0, 0, -5),
                              glm::vec3(3, -1, 0.2F)}) {
        const Transform t = rotated(glm::quatLookAtLH(glm::normalize(d), kUp));
        CAPTURE(d);
        CHECK(near(t.forward(), glm::normalize(d)));
        CHECK(std::abs(glm::dot(t.right(), kUp)) < 1e-6F); // no roll: right stays level
        CHECK(t.up().y > 0.0F);
    }
    // Facing back (-Z) is half a turn about up: right becomes -X.
    const Transform back = rotated(glm::quatLookAtLH(-kForward, kUp));
    CHECK(near(back.right(), -kRight));
}

TEST_CASE("Transform: rotate turns in local space, and refuses an axis of no direction") {
    Transform t;
    REQUIRE(t.rotate(kUp, 90.0F)); // yaw right
    CHECK(near(t.forward(), kRight));
    REQUIRE(t.rotate(kRight, 90.0F)); // then pitch down about the entity's own right (world -Z)
    CHECK(near(t.forward(), -kUp));
    CHECK(near(t.right(), -kForward));

    const Transform before = t;
    CHECK_FALSE(t.rotate(glm::vec3(0.0F), 10.0F));
    CHECK_FALSE(t.rotate(kUp, std::numeric_limits<float>::infinity()));
    CHECK_FALSE(t.rotate(glm::vec3(std::nanf(""), 0, 0), 10.0F));
    CHECK(t == before);
}

TEST_CASE("Transform: move adds in world space and scaleBy multiplies component-wise") {
    Transform t;
    t.rotation = euler(0, 90, 0);
    t.move({1, 2, 3});
    CHECK(t.position == glm::vec3(1, 2, 3)); // not turned by the rotation
    t.scaleBy({2, 0.5F, -1});
    CHECK(t.scale == glm::vec3(2, 0.5F, -1));
}
