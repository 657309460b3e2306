// UEngine.Random (ScriptCore/src/Math/Random.cs): a seed gives Marsaglia's xorshift128 sequence
// (checked against a reference written here in C++), ranges keep their bounds and reach every
// value, the state saved and put back repeats the sequence, and a reload neither restarts nor
// reseeds it. The C# runs in a real ScriptHost from real mcs builds.
#include "../host/support/mono_test_support.hpp"
#include "../support/xorshift128.hpp"

#include <cmath>
#include <set>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

std::vector<std::int64_t> intsOf(ScriptHost& host, ObjectId script, const std::string& field) {
    auto value = host.getField(script, field);
    REQUIRE_MESSAGE(value, (value ? "" : value.error().message));
    std::vector<std::int64_t> out;
    for (const Value& v : std::get<ValueList>(*value))
        out.push_back(std::get<std::int64_t>(v));
    return out;
}

std::unique_ptr<ScriptHost> hostWith(const TempDir& dir, const std::string& source) {
    return makeHostFrom(compileScripts(dir, "Rng.dll", {{"Rng.cs", source}}));
}

} // namespace

TEST_CASE("Random: a seed gives the xorshift128 sequence, seeded as Unity seeds it") {
    TempDir dir("random-seed");
    auto host = hostWith(dir, R"(using UEngine;
public class Rng : UMonoScriptComponent {
  [SerializeField] public int[] drawn;
  public override void Initialize() {
    UEngine.Random.InitState(42);
    drawn = new int[20];
    for (int i = 0; i < drawn.Length; i++) drawn[i] = UEngine.Random.Range(0, 1000);
  }
}
)");
    const ObjectId rng = spawnScript(*host, "Rng");
    Xorshift128 reference(42);
    std::vector<std::int64_t> expected;
    for (int i = 0; i < 20; ++i)
        expected.push_back(reference.range(0, 1000));
    CHECK(intsOf(*host, rng, "drawn") == expected);
}

TEST_CASE("Random: ranges keep their bounds, reach every value, and the shapes their radius") {
    TempDir dir("random-ranges");
    auto host = hostWith(dir, R"(using UEngine;
public class Rng : UMonoScriptComponent {
  [SerializeField] public int[] dice;
  [SerializeField] public int[] backwards;
  [SerializeField] public float lowest = 99f, highest = -99f, valueMin = 99f, valueMax = -99f;
  [SerializeField] public float sphereMax, onSphereMin = 99f, onSphereMax, circleMax, rotationError;
  [SerializeField] public int same;
  public override void Initialize() {
    UEngine.Random.InitState(1234);
    dice = new int[600];
    for (int i = 0; i < dice.Length; i++) dice[i] = UEngine.Random.Range(0, 6);
    backwards = new int[200];
    for (int i = 0; i < backwards.Length; i++) backwards[i] = UEngine.Random.Range(10, 0);
    same = UEngine.Random.Range(5, 5);
    for (int i = 0; i < 2000; i++) {
      float f = UEngine.Random.Range(-2f, 3f);
      lowest = Mathf.Min(lowest, f); highest = Mathf.Max(highest, f);
      float v = UEngine.Random.value;
      valueMin = Mathf.Min(valueMin, v); valueMax = Mathf.Max(valueMax, v);
      sphereMax = Mathf.Max(sphereMax, UEngine.Random.insideUnitSphere.magnitude);
      float on = UEngine.Random.onUnitSphere.magnitude;
      onSphereMin = Mathf.Min(onSphereMin, on); onSphereMax = Mathf.Max(onSphereMax, on);
      circleMax = Mathf.Max(circleMax, UEngine.Random.insideUnitCircle.magnitude);
      Quaternion q = UEngine.Random.rotation;
      rotationError = Mathf.Max(rotationError, Mathf.Abs(q.x*q.x + q.y*q.y + q.z*q.z + q.w*q.w - 1f));
    }
  }
}
)");
    const ObjectId rng = spawnScript(*host, "Rng");
    const auto dice = intsOf(*host, rng, "dice");
    CHECK(std::set<std::int64_t>(dice.begin(), dice.end()) ==
          std::set<std::int64_t>{0, 1, 2, 3, 4, 5});
    const auto backwards = intsOf(*host, rng, "backwards");
    for (std::int64_t b : backwards) {
        CHECK(b > 0); // Unity's rule for max below min: (max, min]
        CHECK(b <= 10);
    }
    CHECK(fieldOf<std::int64_t>(*host, rng, "same") == 5);
    auto f = [&](const char* name) { return fieldOf<float>(*host, rng, name); };
    CHECK(f("lowest") >= -2.0F);
    CHECK(f("highest") <= 3.0F);
    CHECK(f("highest") - f("lowest") > 4.9F); // spread over the whole range
    CHECK(f("valueMin") >= 0.0F);
    CHECK(f("valueMax") <= 1.0F);
    CHECK(f("sphereMax") <= 1.0F);
    CHECK(f("onSphereMin") == doctest::Approx(1.0F).epsilon(1e-4));
    CHECK(f("onSphereMax") == doctest::Approx(1.0F).epsilon(1e-4));
    CHECK(f("circleMax") <= 1.0F);
    CHECK(f("rotationError") < 1e-4F);
}

TEST_CASE("Random: a state saved and put back repeats the sequence from there") {
    TempDir dir("random-state");
    auto host = hostWith(dir, R"(using UEngine;
public class Rng : UMonoScriptComponent {
  [SerializeField] public int[] first;
  [SerializeField] public int[] again;
  public override void Initialize() {
    UEngine.Random.InitState(9);
    UEngine.Random.Range(0, 100);
    UEngine.Random.State saved = UEngine.Random.state;
    first = new int[5];
    for (int i = 0; i < 5; i++) first[i] = UEngine.Random.Range(0, 100);
    UEngine.Random.state = saved;
    again = new int[5];
    for (int i = 0; i < 5; i++) again[i] = UEngine.Random.Range(0, 100);
  }
}
)");
    const ObjectId rng = spawnScript(*host, "Rng");
    const auto first = intsOf(*host, rng, "first");
    CHECK(first == intsOf(*host, rng, "again"));
    Xorshift128 reference(9);
    (void)reference.range(0, 100);
    for (std::int64_t drawn : first)
        CHECK(drawn == reference.range(0, 100));
}

TEST_CASE("Random: a reload continues the sequence instead of restarting or reseeding it") {
    const std::string source = R"(using UEngine;
public class Rng : UMonoScriptComponent {
  [SerializeField] public int[] before;
  [SerializeField] public int[] after;
  public override void Initialize() {
    UEngine.Random.InitState(7);
    before = new int[3];
    for (int i = 0; i < 3; i++) before[i] = UEngine.Random.Range(0, 1000000);
  }
  public override void Update(float dt) {
    if (after != null && after.Length > 0) return;
    after = new int[3];
    for (int i = 0; i < 3; i++) after[i] = UEngine.Random.Range(0, 1000000);
  }
}
)";
    TempDir dir("random-reload");
    auto host = makeHostFrom(compileScripts(dir, "gen1.dll", {{"Rng.cs", source}}));
    const ObjectId rng = spawnScript(*host, "Rng");
    reloadOk(*host, compileScripts(dir, "gen2.dll", {{"Rng.cs", source + "// edited\n"}}));
    host->tick(0.016);
    Xorshift128 reference(7);
    std::vector<std::int64_t> expected;
    for (int i = 0; i < 6; ++i)
        expected.push_back(reference.range(0, 1000000));
    CHECK(intsOf(*host, rng, "before") ==
          std::vector<std::int64_t>(expected.begin(), expected.begin() + 3));
    CHECK(intsOf(*host, rng, "after") ==
          std::vector<std::int64_t>(expected.begin() + 3, expected.end()));
}
