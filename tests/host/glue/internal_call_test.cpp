#include "../support/mono_test_support.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <glm/gtc/quaternion.hpp>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {
// Test-only internal calls declared by tests/host/scripts/MathProbe.cs.
glm::vec2 echo2(glm::vec2 v) {
    return v;
}
glm::vec3 echo3(glm::vec3 v) {
    return v;
}
glm::vec4 echo4(glm::vec4 v) {
    return v;
}
glm::quat echoQ(glm::quat v) {
    return v;
}
void double2(glm::vec2* v) {
    *v *= 2.0f;
}
void double3(glm::vec3* v) {
    *v *= 2.0f;
}
void double4(glm::vec4* v) {
    *v *= 2.0f;
}
void doubleQ(glm::quat* v) {
    *v = glm::quat(v->w * 2, v->x * 2, v->y * 2, v->z * 2);
}

void registerMathProbe() {
    MonoRuntime& rt = **MonoRuntime::start();
    const std::string c = "Tests.MathProbe::";
    rt.registerInternalCall(c + "EchoVector2", reinterpret_cast<const void*>(&echo2));
    rt.registerInternalCall(c + "EchoVector3", reinterpret_cast<const void*>(&echo3));
    rt.registerInternalCall(c + "EchoVector4", reinterpret_cast<const void*>(&echo4));
    rt.registerInternalCall(c + "EchoQuaternion", reinterpret_cast<const void*>(&echoQ));
    rt.registerInternalCall(c + "DoubleVector2", reinterpret_cast<const void*>(&double2));
    rt.registerInternalCall(c + "DoubleVector3", reinterpret_cast<const void*>(&double3));
    rt.registerInternalCall(c + "DoubleVector4", reinterpret_cast<const void*>(&double4));
    rt.registerInternalCall(c + "DoubleQuaternion", reinterpret_cast<const void*>(&doubleQ));
}
} // namespace

TEST_CASE("Internal calls round-trip every math type by value and by ref") {
    auto host = makeHost();
    registerMathProbe();
    // Distinct, non-trivial values per component so a swapped or dropped component shows.
    const glm::vec2 v2(1.25f, -2.5f);
    const glm::vec3 v3(3.5f, -4.75f, 1e-30f);
    const glm::vec4 v4(-1.0f, 2.0f, -3.0f, 4.5f);
    const glm::quat q(0.5f, 0.1f, -0.2f, 0.3f); // w, x, y, z
    const ObjectId probe = spawnScript(*host, "Tests.MathProbe",
                                       json{{"v2In", {v2.x, v2.y}},
                                            {"v3In", {v3.x, v3.y, v3.z}},
                                            {"v4In", {v4.x, v4.y, v4.z, v4.w}},
                                            {"qIn", {q.x, q.y, q.z, q.w}}});
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);
    CHECK(fieldOf<glm::vec2>(*host, probe, "v2ByValue") == v2);
    CHECK(fieldOf<glm::vec3>(*host, probe, "v3ByValue") == v3);
    CHECK(fieldOf<glm::vec4>(*host, probe, "v4ByValue") == v4);
    CHECK(fieldOf<glm::quat>(*host, probe, "qByValue") == q);
    CHECK(fieldOf<glm::vec2>(*host, probe, "v2ByRef") == v2 * 2.0f);
    CHECK(fieldOf<glm::vec3>(*host, probe, "v3ByRef") == v3 * 2.0f);
    CHECK(fieldOf<glm::vec4>(*host, probe, "v4ByRef") == v4 * 2.0f);
    const glm::quat doubled = fieldOf<glm::quat>(*host, probe, "qByRef");
    CHECK(doubled.x == q.x * 2);
    CHECK(doubled.y == q.y * 2);
    CHECK(doubled.z == q.z * 2);
    CHECK(doubled.w == q.w * 2);
}

TEST_CASE("The seed engine's camera script drives the native camera transform") {
    auto host = makeHost();
    const ObjectId driver = spawnScript(*host, "Tests.CameraDriver",
                                        json{{"speed", 2.0}, {"turnSpeed", 90.0}}, {"Camera"});
    CHECK(fieldOf<bool>(*host, driver, "foundCamera"));
    CHECK(fieldOf<bool>(*host, driver, "foundRender"));
    CHECK(fieldOf<bool>(*host, driver, "sameProxy"));
    const ObjectId entity = host->world().script(driver)->entity;

    host->input().set("MoveForward", 1.0f);
    for (int i = 0; i < 10; ++i)
        host->tick(0.1); // 1 s forward at 2 units/s along +Z (Unity's forward)
    const Transform& t = host->world().entity(entity)->transform;
    CHECK(t.position.x == doctest::Approx(0.0));
    CHECK(t.position.z == doctest::Approx(2.0));

    host->input().set("MoveForward", 0.0f);
    host->input().set("Turn", 1.0f);
    for (int i = 0; i < 10; ++i)
        host->tick(0.1); // 1 s at +90°/s about up: a right turn, now facing +X
    const glm::vec3 forward = host->world().entity(entity)->transform.forward();
    CHECK(forward.x == doctest::Approx(1.0).epsilon(1e-4));
    CHECK(forward.z == doctest::Approx(0.0).scale(1.0).epsilon(1e-4));
    CHECK(host->world().entity(entity)->transform.position.z == doctest::Approx(2.0));
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("Using a destroyed entity raises MissingReferenceException and the next frame runs") {
    auto host = makeHost();
    const ObjectId target = host->world().createEntity("Target");
    const ObjectId user = spawnScript(*host, "Tests.StaleUser");
    CHECK(fieldOf<bool>(*host, user, "found"));
    host->tick(0.016);
    CHECK(host->world().entity(target)->transform.position == glm::vec3(1, 1, 1));
    REQUIRE(host->destroyEntity(target));
    host->tick(0.016);
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, user, "caught") == "MissingReferenceException");
    CHECK(fieldOf<std::int64_t>(*host, user, "updates") == 3);
    REQUIRE(host->scriptFailureCount() == 2);
    CHECK(host->recentFailures().back().exceptionType == "UEngine.MissingReferenceException");
    CHECK(host->recentFailures().back().message.find("has been destroyed") != std::string::npos);
}

TEST_CASE("Bad arguments to the engine API become managed exceptions, never crashes") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.BadArguments");
    CHECK(fieldOf<std::string>(*host, s, "rotateZeroAxis") == "System.ArgumentException");
    CHECK(fieldOf<std::string>(*host, s, "nullAction") == "System.ArgumentNullException");
    CHECK(fieldOf<std::string>(*host, s, "nullName") == "System.ArgumentNullException");
    CHECK(host->scriptFailureCount() == 0);
}
