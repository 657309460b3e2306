// Scene loads from C# (SceneManager.LoadScene, GetActiveScene, UObject.DontDestroyOnLoad):
// real scene files in a temporary folder, scripts compiled by mcs, the real runtime.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

const std::string kScripts = R"(using UEngine;
using UEngine.SceneManagement;
public class Loader : UMonoScriptComponent {
  public string load = "", error = "", activeName = "", activePath = "";
  public bool keep;
  public int destroyedMarkers;
  void Update() {
    activeName = SceneManager.GetActiveScene().name;
    activePath = SceneManager.GetActiveScene().path;
    destroyedMarkers = Marker.s_Destroyed;
    if (keep) { DontDestroyOnLoad(this); keep = false; }
    if (load != "") {
      string now = load;
      load = "";
      try { SceneManager.LoadScene(now); } catch (System.ArgumentException e) { error = e.Message; }
    }
  }
}
public class Marker : UMonoScriptComponent {
  public static int s_Destroyed;
  public int value, starts;
  void Start() { starts++; }
  void OnDestroy() { s_Destroyed++; }
}
)";

const char* kFirst = R"({"entities": [
    {"name": "Manager", "scripts": [{"class": "Loader"}]},
    {"name": "Kept", "scripts": [{"class": "Marker", "fields": {"value": 1}}]},
    {"name": "KeptChild", "parent": "Kept"},
    {"name": "Doomed", "scripts": [{"class": "Marker", "fields": {"value": 2}}]},
    {"name": "DoomedChild", "parent": "Doomed", "scripts": [{"class": "Marker", "fields": {"value": 3}}]}]})";
const char* kSecond = R"({"entities": [
    {"name": "Fresh", "scripts": [{"class": "Marker", "fields": {"value": 7}}]}]})";
const char* kBad = R"({"entities": [{"name": "Odd", "scripts": [{"class": "Nope"}]}]})";

} // namespace

TEST_CASE(
    "SceneManager.LoadScene replaces the world at the end of the frame: what "
    "DontDestroyOnLoad kept stays with its children, the rest is destroyed with OnDestroy, "
    "the new scene's scripts start, GetActiveScene names it, and a bad name changes nothing") {
    TempDir dir("scene-load");
    writeFile(dir / "first.scene.json", kFirst);
    writeFile(dir / "second.scene.json", kSecond);
    writeFile(dir / "bad.json", kBad);
    auto host = makeHostFrom(compileScripts(dir, "Gen1.dll", {{"Scripts.cs", kScripts}}));
    auto first = Scene::load(dir / "first.scene.json");
    REQUIRE(first);
    REQUIRE(host->instantiate(*first));
    host->setActiveScenePath(dir / "first.scene.json");
    World& world = host->world();
    const ObjectId manager = world.findEntity("Manager");
    const ObjectId kept = world.findEntity("Kept");
    const ObjectId keptChild = world.findEntity("KeptChild");
    const ObjectId doomed = world.findEntity("Doomed");
    const ObjectId loader = world.entity(manager)->scripts.at(0);
    host->keepOnSceneLoad(keptChild); // its root, Kept, is kept
    REQUIRE(host->setField(loader, "keep", true));
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, loader, "activeName") == "first");
    CHECK(fieldOf<std::string>(*host, loader, "activePath") == (dir / "first.scene.json").string());

    const std::size_t before = world.entityCount();
    REQUIRE(host->setField(loader, "load", std::string("missing")));
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, loader, "error") ==
          "no scene \"missing\" (looked for " + (dir / "missing.scene.json").string() + ", " +
              (dir / "missing.json").string() + ")");
    REQUIRE(host->setField(loader, "load", std::string("bad")));
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, loader, "error") ==
          "scene " + (dir / "bad.json").string() + ": entity \"Odd\": no script class Nope");
    CHECK(world.entityCount() == before);
    CHECK(world.isAlive(doomed));

    REQUIRE(host->setField(loader, "load", std::string("second")));
    host->tick(0.016);
    CHECK_FALSE(world.isAlive(doomed));
    CHECK(world.findEntity("DoomedChild").isNull());
    CHECK(world.isAlive(manager));
    CHECK(world.isAlive(kept));
    CHECK(world.isAlive(keptChild));
    CHECK(world.entity(keptChild)->parent == kept);
    const ObjectId fresh = world.findEntity("Fresh");
    REQUIRE_FALSE(fresh.isNull());
    CHECK(host->activeScenePath() == dir / "second.scene.json");
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, loader, "activeName") == "second");
    CHECK(fieldOf<std::int64_t>(*host, loader, "destroyedMarkers") ==
          2); // Doomed's and its child's
    const ObjectId freshMarker = world.entity(fresh)->scripts.at(0);
    CHECK(fieldOf<std::int64_t>(*host, freshMarker, "value") == 7);
    CHECK(fieldOf<std::int64_t>(*host, freshMarker, "starts") == 1);

    // The active scene again, by the name GetActiveScene gives: built anew from its file.
    REQUIRE(host->setField(freshMarker, "value", std::int64_t{99}));
    REQUIRE(host->setField(loader, "load", std::string("second")));
    host->tick(0.016);
    const ObjectId again = world.findEntity("Fresh");
    REQUIRE_FALSE(again.isNull());
    CHECK(again != fresh);
    CHECK(fieldOf<std::int64_t>(*host, world.entity(again)->scripts.at(0), "value") == 7);
    CHECK(host->scriptFailureCount() == 0);
}
