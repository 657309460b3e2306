// UEngine.Vector3 (ScriptCore/src/Math/Vector3.cs) against an independent source: GLM computes
// what each call should give, Unity's documented rules pin its own choices (the basis: +Z is
// forward; == within 1e-5; Lerp clamps t), and SmoothDamp follows the exact solution of the
// critically damped spring it approximates. The C# runs in a real ScriptHost from a real mcs
// build.
#define GLM_ENABLE_EXPERIMENTAL
#include "csharp_probe.hpp"

#include <cmath>
#include <glm/gtx/euler_angles.hpp>
#include <glm/gtx/projection.hpp>
#include <glm/gtx/rotate_vector.hpp>
#include <glm/gtx/vector_angle.hpp>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// Unity's basis: +X right, +Y up, +Z forward.
const glm::vec3 kRight{1, 0, 0}, kUp{0, 1, 0}, kForward{0, 0, 1};

glm::vec3 moveTowards(glm::vec3 current, glm::vec3 target, float maxDelta) {
    const float distance = glm::distance(current, target);
    return distance <= maxDelta ? target : current + glm::normalize(target - current) * maxDelta;
}

glm::vec3 clampMagnitude(glm::vec3 v, float maxLength) {
    return glm::length(v) > maxLength ? glm::normalize(v) * maxLength : v;
}

float degreesBetween(glm::vec3 a, glm::vec3 b) {
    return glm::degrees(glm::angle(glm::normalize(a), glm::normalize(b)));
}

// Unity's Slerp of vectors: the direction turns at a steady rate, the length goes linearly.
glm::vec3 slerpVectors(glm::vec3 a, glm::vec3 b, float t) {
    return glm::slerp(glm::normalize(a), glm::normalize(b), t) *
           glm::mix(glm::length(a), glm::length(b), t);
}

const char* kHelpers = R"(
  static Vector3 Normalized(Vector3 v) { v.Normalize(); return v; }
  static Vector3 ScaledInPlace(Vector3 v, Vector3 by) { v.Scale(by); return v; }
  static Vector3 SetTo(float x, float y, float z) { Vector3 v = Vector3.zero; v.Set(x, y, z); return v; }
  static Vector3 WithY(Vector3 v, float y) { v[1] = y; return v; }
  static float Component(Vector3 v, int i) { return v[i]; }
  static bool IndexThrows(int i) {
    try { return float.IsNaN(new Vector3(1, 2, 3)[i]); }
    catch (System.IndexOutOfRangeException) { return true; }
  }
  static Vector3 ToVector3(Vector2 v) { Vector3 w = v; return w; }
  static Vector2 ToVector2(Vector3 v) { Vector2 w = v; return w; }
)";

std::vector<Case> cases() {
    const glm::vec3 a{1.5F, -2.0F, 3.0F}, b{-4.0F, 0.5F, 2.0F};
    const glm::vec3 d{3.0F, 4.0F, 12.0F}; // length 13
    const glm::quat yaw90 = glm::quat_cast(glm::eulerAngleYXZ(glm::radians(90.0F), 0.0F, 0.0F));
    return {
        // The basis, as Unity's.
        {"Vector3.forward", kForward},
        {"Vector3.back", -kForward},
        {"Vector3.up", kUp},
        {"Vector3.down", -kUp},
        {"Vector3.right", kRight},
        {"Vector3.left", -kRight},
        {"Vector3.one", glm::vec3(1.0F)},
        {"Vector3.Cross(Vector3.up, Vector3.forward)", glm::cross(kUp, kForward)},
        {"Vector3.Cross(Vector3.up, Vector3.forward) == Vector3.right", 1},
        {"Vector3.Cross(Vector3.right, Vector3.up) == Vector3.forward", 1},
        {"Quaternion.Euler(0, 90, 0) * Vector3.forward", yaw90 * kForward},
        {"Quaternion.Euler(0, 90, 0) * Vector3.forward == Vector3.right", 1},
        {"Quaternion.AngleAxis(90, Vector3.up) * Vector3.forward == Vector3.right", 1},
        // Lengths and directions.
        {"new Vector3(3, 4, 12).magnitude", glm::length(d)},
        {"new Vector3(3, 4, 12).sqrMagnitude", glm::dot(d, d)},
        {"Vector3.Magnitude(new Vector3(3, 4, 12))", glm::length(d)},
        {"new Vector3(3, 4, 12).normalized", glm::normalize(d)},
        {"Normalized(new Vector3(3, 4, 12))", glm::normalize(d)},
        {"Vector3.Normalize(new Vector3(0, 0, 1e-6f))", glm::vec3(0.0F)}, // below kEpsilon
        {"Vector3.Dot(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))", glm::dot(a, b)},
        {"Vector3.Cross(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))", glm::cross(a, b)},
        {"Vector3.Distance(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))",
         glm::distance(a, b)},
        // Angles in degrees.
        {"Vector3.Angle(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))",
         degreesBetween(a, b)},
        {"Vector3.Angle(Vector3.forward, Vector3.back)", 180.0F},
        {"Vector3.Angle(Vector3.zero, Vector3.up)", 0.0F},
        {"Vector3.SignedAngle(Vector3.forward, Vector3.right, Vector3.up)",
         glm::degrees(glm::orientedAngle(kForward, kRight, kUp))},
        {"Vector3.SignedAngle(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), Vector3.up)",
         glm::degrees(glm::orientedAngle(glm::normalize(a), glm::normalize(b), kUp))},
        {"Vector3.SignedAngle(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), "
         "Vector3.down)",
         glm::degrees(glm::orientedAngle(glm::normalize(a), glm::normalize(b), -kUp))},
        // Interpolation and movement.
        {"Vector3.Lerp(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), 0.3f)",
         glm::mix(a, b, 0.3F)},
        {"Vector3.Lerp(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), 1.7f)", b},
        {"Vector3.Lerp(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), -1f)", a},
        {"Vector3.LerpUnclamped(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), 1.7f)",
         glm::mix(a, b, 1.7F)},
        {"Vector3.Slerp(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), 0.25f)",
         slerpVectors(a, b, 0.25F)},
        {"Vector3.Slerp(Vector3.forward * 2f, Vector3.right, 0.5f)",
         slerpVectors(kForward * 2.0F, kRight, 0.5F)},
        {"Vector3.Slerp(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), 3f)", b},
        {"Vector3.SlerpUnclamped(Vector3.forward, Vector3.right, 1.5f)",
         glm::rotate(kForward, glm::radians(135.0F), kUp)},
        {"Vector3.MoveTowards(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), 2f)",
         moveTowards(a, b, 2.0F)},
        {"Vector3.MoveTowards(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), 100f)", b},
        {"Vector3.MoveTowards(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f), -1f)",
         a - glm::normalize(b - a)},
        {"Vector3.ClampMagnitude(new Vector3(3, 4, 12), 6.5f)", clampMagnitude(d, 6.5F)},
        {"Vector3.ClampMagnitude(new Vector3(3, 4, 12), 20f)", d},
        // Component-wise.
        {"Vector3.Scale(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))", a * b},
        {"ScaledInPlace(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))", a * b},
        {"Vector3.Min(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))", glm::min(a, b)},
        {"Vector3.Max(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))", glm::max(a, b)},
        {"new Vector3(1.5f, -2f, 3f) * 2f - new Vector3(-4f, 0.5f, 2f) / 4f", a * 2.0F - b / 4.0F},
        {"-new Vector3(1.5f, -2f, 3f)", -a},
        // Projections and reflection.
        {"Vector3.Project(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))",
         glm::proj(a, b)},
        {"Vector3.Project(new Vector3(1.5f, -2f, 3f), Vector3.zero)", glm::vec3(0.0F)},
        {"Vector3.ProjectOnPlane(new Vector3(1.5f, -2f, 3f), new Vector3(-4f, 0.5f, 2f))",
         a - glm::proj(a, b)},
        {"Vector3.Reflect(new Vector3(1.5f, -2f, 3f), new Vector3(3, 4, 12).normalized)",
         glm::reflect(a, glm::normalize(d))},
        // Indexer, Set, conversions.
        {"Component(new Vector3(1.5f, -2f, 3f), 0)", a.x},
        {"Component(new Vector3(1.5f, -2f, 3f), 2)", a.z},
        {"WithY(new Vector3(1.5f, -2f, 3f), 7f)", glm::vec3(a.x, 7.0F, a.z)},
        {"IndexThrows(3)", 1},
        {"IndexThrows(-1)", 1},
        {"SetTo(1.5f, -2f, 3f)", a},
        {"ToVector2(new Vector3(1.5f, -2f, 3f))", glm::vec2(a)},
        {"ToVector3(new Vector2(1.5f, -2f))", glm::vec3(a.x, a.y, 0.0F)},
        // Unity's ==: within kEpsilon (1e-5); Equals is exact.
        {"new Vector3(1, 2, 3) == new Vector3(1, 2, 3.000004f)", 1},
        {"new Vector3(1, 2, 3) == new Vector3(1, 2, 3.0001f)", 0},
        {"new Vector3(1, 2, 3) != new Vector3(1, 2, 3.0001f)", 1},
        {"new Vector3(1, 2, 3).Equals(new Vector3(1, 2, 3.000004f))", 0},
        {"new Vector3(1, 2, 3).Equals(new Vector3(1, 2, 3))", 1},
        {"Vector3.kEpsilon", 1e-5F},
    };
}

} // namespace

TEST_CASE("Vector3: each member gives what GLM gives, in Unity's basis (+Z forward)") {
    checkCases("Vector3", cases(), kHelpers);
}

TEST_CASE("Vector3: SmoothDamp follows the critically damped spring on the line to the target, "
          "and maxSpeed limits the speed along it") {
    // x(t) = target + (x0 - target + (v0 + w (x0 - target)) t) e^(-w t), w = 2 / smoothTime: the
    // exact motion SmoothDamp approximates (Game Programming Gems 4, 1.10); a spring from rest
    // moves each component alike, so the whole path stays on the straight line.
    const float smoothTime = 0.3F;
    const float dt = 1.0F / 120.0F;
    const glm::vec3 target{6.0F, -3.0F, 2.0F};
    const std::vector<float> got = runProbe("Damp3", R"(using UEngine;
public class Damp3Probe : UMonoScriptComponent {
  [SerializeField] public float[] got;
  public override void Initialize() {
    got = new float[240 * 3 + 3 + 240];
    Vector3 p = Vector3.zero, v = Vector3.zero;
    for (int i = 0; i < 240; i++) {
      p = Vector3.SmoothDamp(p, new Vector3(6f, -3f, 2f), ref v, 0.3f, Mathf.Infinity, 1f / 120f);
      got[3 * i] = p.x; got[3 * i + 1] = p.y; got[3 * i + 2] = p.z;
    }
    got[720] = v.x; got[721] = v.y; got[722] = v.z;
    // Limited to 5 units/s: the distance covered per step never exceeds 5 * dt.
    Vector3 q = Vector3.zero, w = Vector3.zero;
    for (int i = 0; i < 240; i++) {
      Vector3 before = q;
      q = Vector3.SmoothDamp(q, new Vector3(6f, -3f, 2f), ref w, 0.3f, 5f, 1f / 120f);
      got[723 + i] = Vector3.Distance(before, q);
    }
  }
}
)");
    REQUIRE(got.size() == 240 * 3 + 3 + 240);
    const float w = 2.0F / smoothTime;
    for (int i = 0; i < 240; ++i) {
        const glm::vec3 p{got[3 * i], got[3 * i + 1], got[3 * i + 2]};
        const float t = dt * static_cast<float>(i + 1);
        const glm::vec3 exact = target + (-target + (w * -target) * t) * std::exp(-w * t);
        CHECK_MESSAGE(glm::distance(p, exact) < 0.05F, "step " << i);
        CHECK(glm::length(glm::cross(p, target)) < 1e-3F * glm::length(target)); // on the line
        CHECK(glm::dot(p, target) <= glm::dot(target, target) + 1e-3F);          // not past it
    }
    const glm::vec3 last{got[717], got[718], got[719]};
    CHECK(glm::distance(last, target) < 1e-2F);
    CHECK(glm::length(glm::vec3(got[720], got[721], got[722])) < 0.1F);
    float fastest = 0.0F;
    for (int i = 0; i < 240; ++i)
        fastest = std::max(fastest, got[723 + i]);
    CHECK(fastest <= 5.0F * dt * 1.001F);
    CHECK(fastest > 5.0F * dt * 0.9F); // the limit is what held it back
}
