// FieldWatch: rows as asked, values read between frames, a sweep in slices, rows that go
// (a destroyed script, a field a reload removed or retyped) and rows resolved again after a
// reload. Real mcs builds, the real runtime.
#include "../support/mono_test_support.hpp"
#include "host/engine/field_watch.hpp"

#include <limits>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

constexpr const char* kMoverV1 = R"(using UEngine;
public class Mover : UMonoScriptComponent {
  public int ticks;
  public float speed = 2.5f;
  public Vector3 where;
  public string label = "a";
  [HideInInspector] public int secret = 7;
  public override void Update(float dt) { ticks++; where = new Vector3(ticks, 0, 0); }
})";

// v2: speed is gone, label is now an int, a new field appears.
constexpr const char* kMoverV2 = R"(using UEngine;
public class Mover : UMonoScriptComponent {
  public int ticks;
  public Vector3 where;
  public int label;
  public bool fresh = true;
  [HideInInspector] public int secret = 7;
  public override void Update(float dt) { ticks += 10; where = new Vector3(ticks, 1, 0); }
})";

const auto kNoDeadline = std::chrono::steady_clock::time_point::max();
constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();

/// Runs a whole sweep at once.
void sweep(FieldWatch& watch, ScriptHost& host) {
    watch.beginSweep();
    REQUIRE(watch.sample(host, kAll, kNoDeadline));
}

} // namespace

TEST_CASE("FieldWatch: every shown field (not [HideInInspector]) or the ones named, values "
          "read as the scripts change them") {
    TempDir dir("field-watch");
    auto host = makeHostFrom(compileScripts(dir, "Movers.dll", {{"Mover.cs", kMoverV1}}));
    const ObjectId a = spawnScript(*host, "Mover");
    const ObjectId b = spawnScript(*host, "Mover");
    std::vector<FieldWatch::Problem> problems;
    FieldWatch watch =
        FieldWatch::make(*host, {{a, {}}, {b, {"where", "nope", "secret"}}}, problems);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].target == 1);
    CHECK(problems[0].message == "Mover has no serialized field 'nope'");
    REQUIRE(watch.rows().size() == 6);
    CHECK(watch.rows()[0].field == "ticks");
    CHECK(watch.rows()[3].field == "label");
    CHECK(watch.rows()[4].target == 1);
    CHECK(watch.rows()[4].field == "where");
    CHECK(watch.rows()[5].field == "secret"); // by name it is watched

    host->tick(0.016);
    host->tick(0.016);
    sweep(watch, *host);
    CHECK(std::get<std::int64_t>(watch.values()[0]) == 2);
    CHECK(std::get<float>(watch.values()[1]) == 2.5f);
    CHECK(std::get<glm::vec3>(watch.values()[2]) == glm::vec3(2, 0, 0));
    CHECK(std::get<std::string>(watch.values()[3]) == "a");
    CHECK(std::get<glm::vec3>(watch.values()[4]) == glm::vec3(2, 0, 0));
    CHECK(std::get<std::int64_t>(watch.values()[5]) == 7);
    CHECK(std::ranges::all_of(watch.present(), [](auto p) { return p == 1; }));

    REQUIRE(host->setField(a, "label", Value{std::string("changed")}));
    host->tick(0.016);
    sweep(watch, *host);
    CHECK(std::get<std::int64_t>(watch.values()[0]) == 3);
    CHECK(std::get<std::string>(watch.values()[3]) == "changed");
}

TEST_CASE("FieldWatch: a sweep goes in slices of at most the rows asked") {
    TempDir dir("field-watch-slices");
    auto host = makeHostFrom(compileScripts(dir, "Movers.dll", {{"Mover.cs", kMoverV1}}));
    std::vector<FieldWatchTarget> targets;
    for (int i = 0; i < 40; ++i)
        targets.push_back({spawnScript(*host, "Mover"), {"ticks", "where"}});
    std::vector<FieldWatch::Problem> problems;
    FieldWatch watch = FieldWatch::make(*host, targets, problems);
    CHECK(problems.empty());
    REQUIRE(watch.rows().size() == 80);
    host->tick(0.016);
    watch.beginSweep();
    CHECK_FALSE(watch.sample(*host, 6, kNoDeadline)); // whole targets: 3 of them
    CHECK(watch.rowsSampled() == 6);
    CHECK_FALSE(watch.sample(*host, 1, kNoDeadline));
    CHECK(watch.rowsSampled() == 8);
    // A deadline already past still reads a few targets, then stops.
    CHECK_FALSE(
        watch.sample(*host, kAll, std::chrono::steady_clock::now() - std::chrono::seconds(1)));
    CHECK(watch.rowsSampled() > 8);
    CHECK(watch.rowsSampled() < 80);
    CHECK(watch.sample(*host, kAll, kNoDeadline));
    CHECK(watch.rowsSampled() == 80);
    CHECK(std::get<std::int64_t>(watch.values()[78]) == 1);
}

TEST_CASE("FieldWatch: a destroyed script's rows go and after a reload rows are resolved again: "
          "a removed or retyped field's row goes") {
    TempDir dir("field-watch-reload");
    auto host = makeHostFrom(compileScripts(dir, "MoversA.dll", {{"Mover.cs", kMoverV1}}));
    const ObjectId kept = spawnScript(*host, "Mover");
    const ObjectId doomed = spawnScript(*host, "Mover");
    std::vector<FieldWatch::Problem> problems;
    FieldWatch watch = FieldWatch::make(
        *host, {{kept, {"ticks", "speed", "label", "where"}}, {doomed, {"ticks"}}}, problems);
    REQUIRE(watch.rows().size() == 5);
    host->tick(0.016);
    sweep(watch, *host);
    CHECK(watch.present()[4] == 1);

    REQUIRE(host->destroyEntity(host->world().script(doomed)->entity));
    sweep(watch, *host);
    CHECK(watch.present()[4] == 0);
    CHECK(watch.present()[0] == 1);

    reloadOk(*host, compileScripts(dir, "MoversB.dll", {{"Mover.cs", kMoverV2}}));
    host->tick(0.016);
    sweep(watch, *host);
    CHECK(watch.present()[0] == 1);
    CHECK(std::get<std::int64_t>(watch.values()[0]) == 11); // 1, then v2's Update: +10
    CHECK(watch.present()[1] == 0);                         // speed: removed
    CHECK(watch.present()[2] == 0);                         // label: string → int
    CHECK(watch.present()[3] == 1);
    CHECK(std::get<glm::vec3>(watch.values()[3]) == glm::vec3(11, 1, 0));
}
