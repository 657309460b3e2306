// UEngine.Vector2 (ScriptCore/src/Math/Vector2.cs) against an independent source: GLM computes
// what each call should give, Unity's documented rules pin its own choices (== within 1e-5,
// Lerp clamps t, SignedAngle is counter-clockwise positive, the conversions to and from
// Vector3 drop or zero z), and SmoothDamp follows the exact solution of the critically damped
// spring it approximates. The C# runs in a real ScriptHost from a real mcs build.
#define GLM_ENABLE_EXPERIMENTAL
#include "csharp_probe.hpp"

#include <cmath>
#include <glm/gtx/rotate_vector.hpp>
#include <glm/gtx/vector_angle.hpp>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

glm::vec2 moveTowards(glm::vec2 current, glm::vec2 target, float maxDelta) {
    const float distance = glm::distance(current, target);
    return distance <= maxDelta ? target : current + glm::normalize(target - current) * maxDelta;
}

const char* kHelpers = R"(
  static Vector2 Normalized(Vector2 v) { v.Normalize(); return v; }
  static Vector2 ScaledInPlace(Vector2 v, Vector2 by) { v.Scale(by); return v; }
  static Vector2 SetTo(float x, float y) { Vector2 v = Vector2.zero; v.Set(x, y); return v; }
  static Vector2 WithX(Vector2 v, float x) { v[0] = x; return v; }
  static float Component(Vector2 v, int i) { return v[i]; }
  static bool IndexThrows(int i) {
    try { return float.IsNaN(new Vector2(1, 2)[i]); }
    catch (System.IndexOutOfRangeException) { return true; }
  }
  static Vector2 FromVector3(Vector3 v) { Vector2 w = v; return w; }
  static Vector3 ToVector3(Vector2 v) { Vector3 w = v; return w; }
)";

std::vector<Case> cases() {
    const glm::vec2 a{1.5F, -2.0F}, b{-4.0F, 0.5F}, d{5.0F, 12.0F}; // |d| = 13
    return {
        {"Vector2.zero", glm::vec2(0.0F)},
        {"Vector2.one", glm::vec2(1.0F)},
        {"Vector2.up", glm::vec2(0, 1)},
        {"Vector2.down", glm::vec2(0, -1)},
        {"Vector2.left", glm::vec2(-1, 0)},
        {"Vector2.right", glm::vec2(1, 0)},
        {"new Vector2(5, 12).magnitude", glm::length(d)},
        {"new Vector2(5, 12).sqrMagnitude", glm::dot(d, d)},
        {"Vector2.SqrMagnitude(new Vector2(5, 12))", glm::dot(d, d)},
        {"new Vector2(5, 12).normalized", glm::normalize(d)},
        {"Normalized(new Vector2(5, 12))", glm::normalize(d)},
        {"new Vector2(1e-6f, 0f).normalized", glm::vec2(0.0F)}, // below kEpsilon
        {"Vector2.Dot(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))", glm::dot(a, b)},
        {"Vector2.Distance(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))", glm::distance(a, b)},
        {"Vector2.Angle(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))",
         glm::degrees(glm::angle(glm::normalize(a), glm::normalize(b)))},
        {"Vector2.Angle(Vector2.zero, Vector2.up)", 0.0F},
        {"Vector2.SignedAngle(Vector2.right, Vector2.up)", 90.0F}, // counter-clockwise positive
        {"Vector2.SignedAngle(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))",
         glm::degrees(glm::orientedAngle(glm::normalize(a), glm::normalize(b)))},
        {"Vector2.SignedAngle(new Vector2(-4f, 0.5f), new Vector2(1.5f, -2f))",
         glm::degrees(glm::orientedAngle(glm::normalize(b), glm::normalize(a)))},
        {"Vector2.Perpendicular(new Vector2(1.5f, -2f))", glm::rotate(a, glm::radians(90.0F))},
        {"Vector2.Reflect(new Vector2(1.5f, -2f), new Vector2(5, 12).normalized)",
         glm::reflect(a, glm::normalize(d))},
        {"Vector2.Lerp(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f), 0.3f)",
         glm::mix(a, b, 0.3F)},
        {"Vector2.Lerp(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f), 1.7f)", b},
        {"Vector2.LerpUnclamped(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f), 1.7f)",
         glm::mix(a, b, 1.7F)},
        {"Vector2.MoveTowards(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f), 2f)",
         moveTowards(a, b, 2.0F)},
        {"Vector2.MoveTowards(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f), 100f)", b},
        {"Vector2.ClampMagnitude(new Vector2(5, 12), 6.5f)", glm::normalize(d) * 6.5F},
        {"Vector2.ClampMagnitude(new Vector2(5, 12), 20f)", d},
        {"Vector2.Scale(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))", a * b},
        {"ScaledInPlace(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))", a * b},
        {"new Vector2(1.5f, -2f) * new Vector2(-4f, 0.5f)", a * b},
        {"new Vector2(1.5f, -2f) / new Vector2(-4f, 0.5f)", a / b},
        {"Vector2.Min(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))", glm::min(a, b)},
        {"Vector2.Max(new Vector2(1.5f, -2f), new Vector2(-4f, 0.5f))", glm::max(a, b)},
        {"new Vector2(1.5f, -2f) * 2f - new Vector2(-4f, 0.5f) / 4f + -Vector2.one",
         a * 2.0F - b / 4.0F - glm::vec2(1.0F)},
        {"Component(new Vector2(1.5f, -2f), 1)", a.y},
        {"WithX(new Vector2(1.5f, -2f), 7f)", glm::vec2(7.0F, a.y)},
        {"IndexThrows(2)", 1},
        {"SetTo(1.5f, -2f)", a},
        {"FromVector3(new Vector3(1.5f, -2f, 9f))", a},
        {"ToVector3(new Vector2(1.5f, -2f))", glm::vec3(a, 0.0F)},
        {"new Vector2(1, 2) == new Vector2(1, 2.000004f)", 1},
        {"new Vector2(1, 2) == new Vector2(1, 2.0001f)", 0},
        {"new Vector2(1, 2).Equals(new Vector2(1, 2.000004f))", 0},
        {"Vector2.kEpsilon", 1e-5F},
    };
}

} // namespace

TEST_CASE("Vector2: each member gives what GLM gives, with Unity's rules") {
    checkCases("Vector2", cases(), kHelpers);
}

TEST_CASE("Vector2: SmoothDamp follows the critically damped spring, and maxSpeed limits the "
          "speed") {
    // The exact motion (Game Programming Gems 4, 1.10), as in vector3_test.cpp.
    const float smoothTime = 0.3F;
    const float dt = 1.0F / 120.0F;
    const glm::vec2 target{-6.0F, 4.0F};
    const std::vector<float> got = runProbe("Damp2", R"(using UEngine;
public class Damp2Probe : UMonoScriptComponent {
  [SerializeField] public float[] got;
  public override void Initialize() {
    got = new float[240 * 2 + 240];
    Vector2 p = Vector2.zero, v = Vector2.zero, q = Vector2.zero, w = Vector2.zero;
    for (int i = 0; i < 240; i++) {
      p = Vector2.SmoothDamp(p, new Vector2(-6f, 4f), ref v, 0.3f, Mathf.Infinity, 1f / 120f);
      got[2 * i] = p.x; got[2 * i + 1] = p.y;
      Vector2 before = q;
      q = Vector2.SmoothDamp(q, new Vector2(-6f, 4f), ref w, 0.3f, 5f, 1f / 120f);
      got[480 + i] = Vector2.Distance(before, q);
    }
  }
}
)");
    REQUIRE(got.size() == 240 * 2 + 240);
    const float w = 2.0F / smoothTime;
    float fastest = 0.0F;
    for (int i = 0; i < 240; ++i) {
        const glm::vec2 p{got[2 * i], got[2 * i + 1]};
        const float t = dt * static_cast<float>(i + 1);
        const glm::vec2 exact = target + (-target + (w * -target) * t) * std::exp(-w * t);
        CHECK_MESSAGE(glm::distance(p, exact) < 0.05F, "step " << i);
        CHECK(glm::dot(p, target) <= glm::dot(target, target) + 1e-3F); // never past it
        fastest = std::max(fastest, got[480 + i]);
    }
    CHECK(glm::distance(glm::vec2(got[478], got[479]), target) < 1e-2F);
    CHECK(fastest <= 5.0F * dt * 1.001F);
    CHECK(fastest > 5.0F * dt * 0.9F);
}
