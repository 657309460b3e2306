// UEngine.Quaternion (ScriptCore/src/Math/Quaternion.cs) against an independent source: GLM
// computes what each call should give (eulerAngleYXZ for Unity's Euler order, quatLookAtLH for
// LookRotation, slerp, inverse, angleAxis, rotation), Möller and Hughes' matrix gives the half
// turn FromToRotation picks for opposite directions, and Unity's documented rules pin its own
// choices (eulerAngles in [0, 360), == on the dot product). The basis identities hold: Euler(0,
// 90, 0) * forward is right, LookRotation(d) * forward is d normalised. The C# runs in a real
// ScriptHost from a real mcs build.
#define GLM_ENABLE_EXPERIMENTAL
#include "csharp_probe.hpp"

#include <cmath>
#include <cstdio>
#include <glm/gtx/euler_angles.hpp>
#include <glm/gtx/quaternion.hpp>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const glm::vec3 kRight{1, 0, 0}, kUp{0, 1, 0}, kForward{0, 0, 1}; // Unity's basis

/// Unity's Euler(x, y, z): z about Z, then x about X, then y about Y.
glm::quat euler(float x, float y, float z) {
    return glm::quat_cast(glm::eulerAngleYXZ(glm::radians(y), glm::radians(x), glm::radians(z)));
}

std::string lit(float v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9gf", static_cast<double>(v));
    return buffer;
}
std::string cs(glm::vec3 v) {
    return "new Vector3(" + lit(v.x) + ", " + lit(v.y) + ", " + lit(v.z) + ")";
}
std::string cs(glm::quat q) {
    return "new Quaternion(" + lit(q.x) + ", " + lit(q.y) + ", " + lit(q.z) + ", " + lit(q.w) + ")";
}

float wrap360(float degrees) {
    return degrees < 0.0F ? degrees + 360.0F : degrees;
}

/// The Euler angles GLM reads back from the rotation, as Unity returns them (each in [0, 360)).
glm::vec3 eulerAnglesOf(glm::quat q) {
    float y = 0, x = 0, z = 0;
    glm::extractEulerAngleYXZ(glm::mat4_cast(q), y, x, z);
    return {wrap360(glm::degrees(x)), wrap360(glm::degrees(y)), wrap360(glm::degrees(z))};
}

/// The angle in degrees between two rotations, the shorter way (in [0, 180]).
float angleBetween(glm::quat a, glm::quat b) {
    const float turn = glm::degrees(glm::angle(glm::normalize(glm::inverse(a) * b)));
    return turn > 180.0F ? 360.0F - turn : turn;
}

/// Möller and Hughes, "Efficiently Building a Matrix to Rotate One Vector to Another" (1999):
/// for nearly opposite directions, two reflections about planes through the coordinate axis
/// most nearly perpendicular to `from`.
glm::quat fromToReflections(glm::vec3 from, glm::vec3 to) {
    const glm::vec3 f = glm::normalize(from), t = glm::normalize(to), n = glm::abs(f);
    const glm::vec3 x = n.x < n.y ? (n.x < n.z ? kRight : kForward) : (n.y < n.z ? kUp : kForward);
    const glm::vec3 u = x - f, v = x - t;
    const float c1 = 2.0F / glm::dot(u, u), c2 = 2.0F / glm::dot(v, v);
    const float c3 = c1 * c2 * glm::dot(u, v);
    glm::mat3 m;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            m[j][i] =
                (i == j ? 1.0F : 0.0F) - c1 * u[i] * u[j] - c2 * v[i] * v[j] + c3 * v[i] * u[j];
    return glm::quat_cast(m);
}

const char* kHelpers = R"(
  static Vector3 EulerAnglesOf(float x, float y, float z) { return Quaternion.Euler(x, y, z).eulerAngles; }
  static Quaternion WithEulerAngles(Vector3 e) { Quaternion q = Quaternion.identity; q.eulerAngles = e; return q; }
  static Quaternion Negated(Quaternion q) { return new Quaternion(-q.x, -q.y, -q.z, -q.w); }
  static Quaternion Normalized(Quaternion q) { q.Normalize(); return q; }
  static float AngleOf(Quaternion q) { float a; Vector3 axis; q.ToAngleAxis(out a, out axis); return a; }
  static Vector3 AxisOf(Quaternion q) { float a; Vector3 axis; q.ToAngleAxis(out a, out axis); return axis; }
  static float Component(Quaternion q, int i) { return q[i]; }
  static Quaternion SetTo(float x, float y, float z, float w) { Quaternion q = Quaternion.identity; q.Set(x, y, z, w); return q; }
  static bool LooksAlong(Vector3 d) { return Quaternion.LookRotation(d) * Vector3.forward == d.normalized; }
)";

void addBasisAndEuler(std::vector<Case>& c) {
    c.push_back({"Quaternion.Euler(0, 90, 0) * Vector3.forward", euler(0, 90, 0) * kForward});
    c.push_back({"Quaternion.Euler(0, 90, 0) * Vector3.forward == Vector3.right", 1});
    c.push_back({"Quaternion.Euler(90, 0, 0) * Vector3.forward == Vector3.down", 1}); // pitch down
    c.push_back({"Quaternion.Euler(0, 0, 90) * Vector3.right", euler(0, 0, 90) * kRight});
    c.push_back({"Quaternion.AngleAxis(90, Vector3.up) * Vector3.forward == Vector3.right", 1});
    c.push_back(
        {"Quaternion.Euler(30, 45, 60) == Quaternion.AngleAxis(45, Vector3.up) * "
         "Quaternion.AngleAxis(30, Vector3.right) * Quaternion.AngleAxis(60, Vector3.forward)",
         1});
    for (const glm::vec3 e :
         {glm::vec3(30, 45, 60), glm::vec3(-20, 170, 5), glm::vec3(80, -100, 250),
          glm::vec3(0, 90, 0), glm::vec3(90, 0, 0), glm::vec3(370, -45, 720.5F)})
        c.push_back({"Quaternion.Euler(" + lit(e.x) + ", " + lit(e.y) + ", " + lit(e.z) + ")",
                     rotation(euler(e.x, e.y, e.z))});
    c.push_back({"Quaternion.Euler(new Vector3(30, 45, 60))", rotation(euler(30, 45, 60))});
    // eulerAngles: Euler's inverse, each angle in [0, 360), away from gimbal lock.
    for (const glm::vec3 e :
         {glm::vec3(30, 45, 60), glm::vec3(10, 200, 350), glm::vec3(300, 20, 100),
          glm::vec3(80, 330, 5), glm::vec3(275, 123, 321), glm::vec3(1, 2, 3)}) {
        const std::string args = lit(e.x) + ", " + lit(e.y) + ", " + lit(e.z);
        c.push_back({"EulerAnglesOf(" + args + ")", e, 1e-4});
        c.push_back({"EulerAnglesOf(" + args + ")", eulerAnglesOf(euler(e.x, e.y, e.z)), 1e-4});
    }
    c.push_back({"EulerAnglesOf(-30, -45, 370)", glm::vec3(330, 315, 10), 1e-4});
    const glm::quat any =
        glm::angleAxis(glm::radians(73.0F), glm::normalize(glm::vec3(1, 2, -0.5F)));
    c.push_back({cs(any) + ".eulerAngles", eulerAnglesOf(any), 1e-4});
    c.push_back({"Quaternion.identity.eulerAngles", glm::vec3(0.0F)});
    c.push_back({"WithEulerAngles(new Vector3(30, 45, 60))", rotation(euler(30, 45, 60))});
    // Gimbal lock (x = ±90): the angles are not unique, the rotation is.
    c.push_back({"EulerAnglesOf(90, 30, 10).x", 90.0F, 1e-4});
    c.push_back({"Quaternion.Euler(EulerAnglesOf(90, 30, 10))", rotation(euler(90, 30, 10)), 1e-4});
    c.push_back(
        {"Quaternion.Euler(EulerAnglesOf(-90, 30, 10))", rotation(euler(-90, 30, 10)), 1e-4});
}

void addLookAndFromTo(std::vector<Case>& c) {
    const glm::vec3 tilted = glm::vec3(0.3F, 1.0F, -0.2F);
    for (const glm::vec3 d : {glm::vec3(1, 2, 3), glm::vec3(-4, 0.5F, -2), glm::vec3(0, 0, -5),
                              glm::vec3(3, -1, 0.2F), glm::vec3(0.1F, -7, 0.3F)}) {
        c.push_back({"Quaternion.LookRotation(" + cs(d) + ")",
                     rotation(glm::quatLookAtLH(glm::normalize(d), kUp))});
        c.push_back({"Quaternion.LookRotation(" + cs(d) + ", " + cs(tilted) + ")",
                     rotation(glm::quatLookAtLH(glm::normalize(d), tilted))});
        c.push_back(
            {"Quaternion.LookRotation(" + cs(d) + ") * Vector3.forward", glm::normalize(d)});
        c.push_back({"LooksAlong(" + cs(d) + ")", 1});
    }
    c.push_back(
        {"Quaternion.LookRotation(Vector3.back)", rotation(glm::angleAxis(glm::pi<float>(), kUp))});
    // Along up itself: Unity falls back to FromToRotation(forward, d).
    c.push_back({"Quaternion.LookRotation(Vector3.up * 3f) * Vector3.forward", kUp});
    c.push_back({"Quaternion.LookRotation(Vector3.up)", rotation(glm::rotation(kForward, kUp))});
    c.push_back({"Quaternion.LookRotation(Vector3.zero)", rotation(glm::quat(1, 0, 0, 0))});

    const glm::vec3 a{1, 2, 3}, b{-2, 0.5F, 1};
    c.push_back({"Quaternion.FromToRotation(" + cs(a) + ", " + cs(b) + ")",
                 rotation(glm::rotation(glm::normalize(a), glm::normalize(b)))});
    c.push_back(
        {"Quaternion.FromToRotation(" + cs(a) + ", " + cs(b) + ") * " + cs(a) + ".normalized",
         glm::normalize(b)});
    c.push_back({"Quaternion.FromToRotation(Vector3.forward, Vector3.back)",
                 rotation(fromToReflections(kForward, -kForward))});
    c.push_back({"Quaternion.FromToRotation(Vector3.right, Vector3.left)",
                 rotation(fromToReflections(kRight, -kRight))});
    c.push_back({"Quaternion.FromToRotation(" + cs(a) + ", -" + cs(a) + ")",
                 rotation(fromToReflections(a, -a))});
    c.push_back({"Quaternion.FromToRotation(" + cs(a) + ", " + cs(a * 2.0F) + ")",
                 rotation(glm::quat(1, 0, 0, 0))});
}

void addInterpolation(std::vector<Case>& c) {
    const glm::quat qa = euler(10, 20, 30), qb = euler(-40, 100, 5);
    const std::string A = cs(qa), B = cs(qb);
    c.push_back(
        {"Quaternion.Slerp(" + A + ", " + B + ", 0.3f)", rotation(glm::slerp(qa, qb, 0.3F))});
    c.push_back({"Quaternion.Slerp(" + A + ", Negated(" + B + "), 0.3f)",
                 rotation(glm::slerp(qa, qb, 0.3F))}); // the shorter way either sign
    c.push_back({"Quaternion.Slerp(" + A + ", " + B + ", 1.4f)", rotation(qb)});
    c.push_back({"Quaternion.SlerpUnclamped(" + A + ", " + B + ", 1.4f)",
                 rotation(glm::slerp(qa, qb, 1.4F))});
    const glm::quat qb2 = glm::dot(qa, qb) < 0.0F ? -qb : qb;
    c.push_back({"Quaternion.Lerp(" + A + ", " + B + ", 0.3f)",
                 rotation(glm::normalize(qa * 0.7F + qb2 * 0.3F))});
    c.push_back({"Quaternion.Lerp(" + A + ", " + B + ", -2f)", rotation(qa)});
    c.push_back({"Quaternion.LerpUnclamped(" + A + ", " + B + ", 1.25f)",
                 rotation(glm::normalize(qa * -0.25F + qb2 * 1.25F))});
    c.push_back({"Quaternion.Angle(" + A + ", " + B + ")", angleBetween(qa, qb), 1e-4});
    c.push_back({"Quaternion.Angle(" + A + ", Negated(" + A + "))", 0.0F});
    const float angle = angleBetween(qa, qb);
    c.push_back({"Quaternion.RotateTowards(" + A + ", " + B + ", 10f)",
                 rotation(glm::slerp(qa, qb, 10.0F / angle)), 1e-4});
    c.push_back({"Quaternion.RotateTowards(" + A + ", " + B + ", 1000f)", rotation(qb)});
    c.push_back({"Quaternion.Angle(Quaternion.RotateTowards(" + A + ", " + B + ", 10f), " + A + ")",
                 10.0F, 1e-4});
}

void addAlgebra(std::vector<Case>& c) {
    const glm::quat qa = euler(10, 20, 30), qb = euler(-40, 100, 5);
    const std::string A = cs(qa), B = cs(qb);
    const glm::quat raw(4, 1, 2, 3); // w, x, y, z: not a unit quaternion
    const glm::vec3 v{1.5F, -2, 3}, axis{1, 2, -2};
    c.push_back({"Quaternion.identity", glm::quat(1, 0, 0, 0)});
    c.push_back({A + " * " + B, qa * qb});
    c.push_back({A + " * " + cs(v), qa * v});
    c.push_back({"Quaternion.Inverse(" + A + ")", glm::inverse(qa)});
    c.push_back({"Quaternion.Inverse(new Quaternion(1, 2, 3, 4))", glm::inverse(raw)});
    c.push_back({"Quaternion.Dot(" + A + ", " + B + ")", glm::dot(qa, qb)});
    c.push_back({"Quaternion.Normalize(new Quaternion(1, 2, 3, 4))", glm::normalize(raw)});
    c.push_back({"new Quaternion(1, 2, 3, 4).normalized", glm::normalize(raw)});
    c.push_back({"Normalized(new Quaternion(1, 2, 3, 4))", glm::normalize(raw)});
    c.push_back({"Quaternion.AngleAxis(37, " + cs(axis) + ")",
                 glm::angleAxis(glm::radians(37.0F), glm::normalize(axis))});
    c.push_back({"Quaternion.AngleAxis(30, Vector3.zero)", glm::quat(1, 0, 0, 0)});
    const glm::quat turn270 = glm::angleAxis(glm::radians(270.0F), kUp);
    c.push_back({"AngleOf(Quaternion.AngleAxis(270, Vector3.up))",
                 glm::degrees(glm::angle(turn270)), 1e-4});
    c.push_back({"AxisOf(Quaternion.AngleAxis(270, Vector3.up))", glm::axis(turn270)});
    const glm::quat any = glm::angleAxis(glm::radians(73.0F), glm::normalize(axis));
    c.push_back({"AngleOf(" + cs(any) + ")", glm::degrees(glm::angle(any)), 1e-4});
    c.push_back({"AxisOf(" + cs(any) + ")", glm::axis(any), 1e-4});
    c.push_back({"AxisOf(Quaternion.identity)", kRight});
    c.push_back({"Component(" + A + ", 3)", qa.w});
    c.push_back({"SetTo(1, 2, 3, 4)", raw});
    // Unity's ==: the dot product above 1 - 1e-6; so q and -q are not ==. Equals is exact.
    c.push_back({"Quaternion.Euler(10, 20, 30) == Quaternion.Euler(10, 20, 30.0001f)", 1});
    c.push_back({"Quaternion.Euler(10, 20, 30) == Quaternion.Euler(10, 20, 31)", 0});
    c.push_back({A + " == Negated(" + A + ")", 0});
    c.push_back({"Quaternion.Euler(10, 20, 30).Equals(Quaternion.Euler(10, 20, 30.0001f))", 0});
}

} // namespace

TEST_CASE("Quaternion: Euler and eulerAngles follow Unity's order (Z, X, Y) and basis, as GLM's "
          "eulerAngleYXZ") {
    std::vector<Case> c;
    addBasisAndEuler(c);
    checkCases("QuaternionEuler", c, kHelpers);
}

TEST_CASE("Quaternion: LookRotation and FromToRotation turn forward as GLM's quatLookAtLH and "
          "rotation do") {
    std::vector<Case> c;
    addLookAndFromTo(c);
    checkCases("QuaternionLook", c, kHelpers);
}

TEST_CASE("Quaternion: Slerp, Lerp, Angle and RotateTowards take the shorter way, as GLM's slerp") {
    std::vector<Case> c;
    addInterpolation(c);
    checkCases("QuaternionSlerp", c, kHelpers);
}

TEST_CASE("Quaternion: products, Inverse, Normalize, AngleAxis and == give GLM's results and "
          "Unity's rules") {
    std::vector<Case> c;
    addAlgebra(c);
    checkCases("QuaternionAlgebra", c, kHelpers);
}
