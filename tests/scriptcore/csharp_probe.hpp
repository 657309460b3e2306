#pragma once
// What the tests of ScriptCore's math share: C# expressions compiled with the real mcs into a
// probe script, run in a real ScriptHost, and their values checked against what the test
// computed independently (GLM, the C++ library, Unity's documented results).
#include "../host/support/mono_test_support.hpp"

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <sstream>

namespace scripthost::testing {

/// What a C# expression should give, as the floats the probe records for it: a float (a bool
/// as 1 or 0), a Vector2 or Vector3 as its components, a Quaternion as x, y, z, w.
struct Expected {
    std::vector<float> values;
    bool eitherSign = false; ///< a rotation: q and -q are the same one

    Expected(float v) : values{v} {}                      // NOLINT: implicit on purpose
    Expected(double v) : values{static_cast<float>(v)} {} // NOLINT
    Expected(int v) : values{static_cast<float>(v)} {}    // NOLINT: also a bool, as 1 or 0
    Expected(glm::vec2 v) : values{v.x, v.y} {}           // NOLINT
    Expected(glm::vec3 v) : values{v.x, v.y, v.z} {}      // NOLINT
    Expected(glm::quat q) : values{q.x, q.y, q.z, q.w} {} // NOLINT: these exact components
};

/// A rotation: either q or -q passes.
inline Expected rotation(glm::quat q) {
    Expected e(q);
    e.eitherSign = true;
    return e;
}

struct Case {
    std::string csharp; ///< an expression of type float, bool, Vector2, Vector3 or Quaternion
    Expected expected;
    double epsilon = 1e-5; ///< doctest::Approx's relative tolerance (absolute near zero)
};

/// A probe class `<name>Probe` whose Initialize records each case's value; `helpers` are
/// extra members (static functions for what is not an expression, e.g. an in-place call).
inline std::string probeSource(const std::string& name, const std::vector<Case>& cases,
                               const std::string& helpers) {
    std::ostringstream s;
    s << "using System.Collections.Generic;\nusing UEngine;\n"
      << "public class " << name << "Probe : UMonoScriptComponent {\n"
      << "  [SerializeField] public float[] got;\n"
      << "  readonly List<float> values = new List<float>();\n"
      << "  void F(float v) { values.Add(v); }\n"
      << "  void F(bool v) { values.Add(v ? 1f : 0f); }\n"
      << "  void F(Vector2 v) { values.Add(v.x); values.Add(v.y); }\n"
      << "  void F(Vector3 v) { values.Add(v.x); values.Add(v.y); values.Add(v.z); }\n"
      << "  void F(Quaternion q) { values.Add(q.x); values.Add(q.y); values.Add(q.z); "
         "values.Add(q.w); }\n"
      << helpers << "\n  public override void Initialize() {\n";
    for (const Case& c : cases)
        s << "    F(" << c.csharp << ");\n";
    s << "    got = values.ToArray();\n  }\n}\n";
    return s.str();
}

/// Compiles `source`, whose class `<name>Probe` fills `float[] got` in Initialize, runs it in
/// a real ScriptHost and returns `got`.
inline std::vector<float> runProbe(const std::string& name, const std::string& source) {
    TempDir dir(name);
    auto host = makeHostFrom(compileScripts(dir, name + ".dll", {{name + "Probe.cs", source}}));
    const ObjectId probe = spawnScript(*host, name + "Probe");
    auto got = host->getField(probe, "got");
    REQUIRE_MESSAGE(got, (got ? "" : got.error().message));
    std::vector<float> out;
    for (const Value& v : std::get<ValueList>(*got))
        out.push_back(std::get<float>(v));
    return out;
}

/// Evaluates every case in one probe script and checks each value against its expectation.
inline void checkCases(const std::string& name, const std::vector<Case>& cases,
                       const std::string& helpers = "") {
    const std::vector<float> got = runProbe(name, probeSource(name, cases, helpers));
    std::size_t expectedCount = 0;
    for (const Case& c : cases)
        expectedCount += c.expected.values.size();
    REQUIRE(got.size() == expectedCount);
    std::size_t at = 0;
    for (const Case& c : cases) {
        const std::vector<float>& want = c.expected.values;
        std::vector<float> value(got.begin() + static_cast<std::ptrdiff_t>(at),
                                 got.begin() + static_cast<std::ptrdiff_t>(at + want.size()));
        at += want.size();
        if (c.expected.eitherSign) {
            float dot = 0.0F;
            for (std::size_t i = 0; i < want.size(); ++i)
                dot += want[i] * value[i];
            if (dot < 0.0F)
                for (float& v : value)
                    v = -v;
        }
        std::ostringstream shown, wanted;
        for (std::size_t i = 0; i < want.size(); ++i) {
            shown << (i ? ", " : "") << value[i];
            wanted << (i ? ", " : "") << want[i];
        }
        bool close = true;
        for (std::size_t i = 0; i < want.size(); ++i)
            close = close && value[i] == doctest::Approx(want[i]).epsilon(c.epsilon);
        CHECK_MESSAGE(close, c.csharp << " gave (" << shown.str() << "), expected (" << wanted.str()
                                      << ")");
    }
}

} // namespace scripthost::testing
