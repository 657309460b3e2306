// UEngine.Mathf (ScriptCore/src/Math/Mathf.cs) against an independent source: GLM and the C++
// standard library compute what each call should give, Unity's documented examples pin its own
// rules (Sign(0) is 1, Round to even, DeltaAngle's range), and SmoothDamp follows the exact
// solution of the critically damped spring it approximates. The C# runs in a real ScriptHost
// from a real mcs build.
#include "csharp_probe.hpp"

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/constants.hpp>
#include <sstream>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

float repeatOf(float t, float length) {
    return glm::mod(t, length); // x - y * floor(x / y)
}

std::vector<Case> cases() {
    const float pi = glm::pi<float>();
    return {
        {"Mathf.Clamp(7.5f, 0f, 5f)", glm::clamp(7.5F, 0.0F, 5.0F)},
        {"Mathf.Clamp(-3f, -2f, 5f)", glm::clamp(-3.0F, -2.0F, 5.0F)},
        {"Mathf.Clamp(9, 1, 4)", 4},
        {"Mathf.Clamp01(1.25f)", glm::clamp(1.25F, 0.0F, 1.0F)},
        {"Mathf.Lerp(2f, 10f, 0.25f)", glm::mix(2.0F, 10.0F, 0.25F)},
        {"Mathf.Lerp(2f, 10f, 1.5f)", glm::mix(2.0F, 10.0F, 1.0F)},
        {"Mathf.LerpUnclamped(2f, 10f, 1.5f)", glm::mix(2.0F, 10.0F, 1.5F)},
        {"Mathf.InverseLerp(5f, 10f, 8f)", (8.0F - 5.0F) / (10.0F - 5.0F)},
        {"Mathf.InverseLerp(5f, 10f, 12f)", 1.0F},
        {"Mathf.SmoothStep(0f, 10f, 0.3f)",
         glm::mix(0.0F, 10.0F, glm::smoothstep(0.0F, 1.0F, 0.3F))},
        {"Mathf.Repeat(7.5f, 3f)", repeatOf(7.5F, 3.0F)},
        {"Mathf.Repeat(-1f, 3f)", repeatOf(-1.0F, 3.0F)},
        {"Mathf.PingPong(3f, 2f)", 2.0F - std::abs(repeatOf(3.0F, 4.0F) - 2.0F)},
        {"Mathf.PingPong(5.5f, 2f)", 2.0F - std::abs(repeatOf(5.5F, 4.0F) - 2.0F)},
        {"Mathf.DeltaAngle(1080f, 90f)", std::remainder(90.0F - 1080.0F, 360.0F)},
        {"Mathf.DeltaAngle(350f, 20f)", std::remainder(20.0F - 350.0F, 360.0F)},
        {"Mathf.DeltaAngle(20f, 350f)", std::remainder(350.0F - 20.0F, 360.0F)},
        {"Mathf.LerpAngle(350f, 10f, 0.5f)",
         350.0F + std::remainder(10.0F - 350.0F, 360.0F) * 0.5F},
        {"Mathf.MoveTowards(0f, 10f, 3f)", 3.0F},
        {"Mathf.MoveTowards(9f, 10f, 3f)", 10.0F},
        {"Mathf.MoveTowards(5f, 0f, 2f)", 3.0F},
        {"Mathf.MoveTowardsAngle(350f, 10f, 5f)", 355.0F},
        {"Mathf.Sign(0f)", 1.0F},
        {"Mathf.Sign(-2f)", -1.0F},
        {"Mathf.Abs(-4.5f)", std::abs(-4.5F)},
        {"Mathf.Min(3f, -1f, 2f)", std::min({3.0F, -1.0F, 2.0F})},
        {"Mathf.Max(3, -1, 8)", 8},
        {"Mathf.Round(2.5f)", std::nearbyint(2.5F)}, // to even, the default rounding mode
        {"Mathf.Round(3.5f)", std::nearbyint(3.5F)},
        {"Mathf.RoundToInt(-2.5f)", std::nearbyint(-2.5F)},
        {"Mathf.FloorToInt(-1.5f)", std::floor(-1.5F)},
        {"Mathf.CeilToInt(-1.5f)", std::ceil(-1.5F)},
        {"Mathf.Sqrt(2f)", std::sqrt(2.0F)},
        {"Mathf.Pow(2f, 10f)", std::pow(2.0F, 10.0F)},
        {"Mathf.Log(8f, 2f)", 3.0F},
        {"Mathf.Atan2(1f, -1f)", std::atan2(1.0F, -1.0F)},
        {"Mathf.Sin(Mathf.PI / 6f)", std::sin(pi / 6.0F)},
        {"Mathf.Cos(60f * Mathf.Deg2Rad)", std::cos(glm::radians(60.0F))},
        {"Mathf.Acos(0.5f) * Mathf.Rad2Deg", glm::degrees(std::acos(0.5F))},
        {"Mathf.NextPowerOfTwo(33)", 64},
        {"Mathf.ClosestPowerOfTwo(33)", 32},
        {"Mathf.IsPowerOfTwo(64) ? 1f : 0f", 1},
        {"Mathf.IsPowerOfTwo(96) ? 1f : 0f", 0},
        {"Mathf.Approximately(1f, 1f + 1e-7f) ? 1f : 0f", 1},
        {"Mathf.Approximately(1f, 1.001f) ? 1f : 0f", 0},
    };
}

} // namespace

TEST_CASE("Mathf: each function gives what GLM, the C++ library and Unity's documented examples "
          "give") {
    checkCases("Mathf", cases());
}

TEST_CASE("Mathf: SmoothDamp follows the critically damped spring, never overshoots and settles") {
    // x(t) = target + (x0 - target + (v0 + w (x0 - target)) t) e^(-w t), w = 2 / smoothTime: the
    // exact motion SmoothDamp approximates step by step (Game Programming Gems 4, 1.10).
    const float smoothTime = 0.3F;
    const float dt = 1.0F / 120.0F;
    TempDir dir("mathf-smoothdamp");
    auto host = makeHostFrom(compileScripts(dir, "Damp.dll", {{"Damp.cs", R"(using UEngine;
public class Damp : UMonoScriptComponent {
  [SerializeField] public float[] path;
  [SerializeField] public float velocity;
  public override void Initialize() {
    path = new float[240];
    float x = 0f, v = 0f;
    for (int i = 0; i < path.Length; i++) {
      x = Mathf.SmoothDamp(x, 10f, ref v, 0.3f, Mathf.Infinity, 1f / 120f);
      path[i] = x;
    }
    velocity = v;
  }
}
)"}}));
    const ObjectId damp = spawnScript(*host, "Damp");
    const auto path = std::get<ValueList>(*host->getField(damp, "path"));
    REQUIRE(path.size() == 240);
    const float w = 2.0F / smoothTime;
    float previous = 0.0F;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const float x = std::get<float>(path[i]);
        const float t = dt * static_cast<float>(i + 1);
        const float exact = 10.0F + (-10.0F + (0.0F + w * -10.0F) * t) * std::exp(-w * t);
        CHECK_MESSAGE(std::abs(x - exact) < 0.05F, "step " << i << ": " << x << " vs " << exact);
        CHECK(x >= previous); // always on its way, never back
        CHECK(x <= 10.0F);    // never past the target
        previous = x;
    }
    CHECK(std::get<float>(path.back()) == doctest::Approx(10.0F).epsilon(1e-3));
    CHECK(std::abs(std::get<float>(*host->getField(damp, "velocity"))) < 0.1F);
}
