// ScriptHost::instantiate: a scene builds every entity, sets the fields before Initialize, and
// a scene with a bad script creates nothing. Real mcs builds, the real runtime.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("ScriptHost: a scene with a bad script creates nothing") {
    auto host = makeHost();
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "Good", "scripts": [{"class": "Tests.Counter", "fields": {"step": 2}}]},
        {"name": "Bad", "scripts": [{"class": "Tests.Counter", "fields": {"nope": 1}}]}]})"));
    REQUIRE(scene);
    auto made = host->instantiate(*scene);
    REQUIRE_FALSE(made);
    CHECK(made.error().message.find("entity \"Bad\"") != std::string::npos);
    CHECK(host->world().entityCount() == 0);
}

TEST_CASE("ScriptHost: a scene sets fields before Initialize and builds every entity") {
    auto host = makeHost();
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "A", "components": ["Render"], "scripts": [{"class": "Tests.Counter", "fields": {"step": 4}}]},
        {"name": "B", "transform": {"position": [1, 2, 3]}, "scripts": ["Tests.FieldZoo"]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    const ObjectId a = host->world().findEntity("A");
    const ObjectId b = host->world().findEntity("B");
    REQUIRE_FALSE(a.isNull());
    CHECK(host->world().entity(b)->transform.position == glm::vec3(1, 2, 3));
    const ObjectId counter = host->world().entity(a)->scripts.at(0);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 4);
}

TEST_CASE("ScriptHost: Instantiate copies an entity, its components and its scripts' fields "
          "before Awake, and references inside the copy point at the copy") {
    TempDir dir("instantiate");
    auto host = makeHostFrom(compileScripts(dir, "Clones.dll", {{"Clones.cs", R"(using UEngine;
public class Enemy : UMonoScriptComponent {
  public int health = 10;
  public Enemy self;
  public UEntity home;
  public UTransform body;
  [SerializeField] public string seenAtAwake = "";
  [SerializeField] public int starts;
  void Awake() { seenAtAwake = health + "/" + (self == this) + "/" + transform.position.x; }
  void Start() { starts++; }
}
public class Spawner : UMonoScriptComponent {
  public Enemy prefab;
  [SerializeField] public Enemy made;
  [SerializeField] public UEntity plain;
  public override void Update(float dt) {
    if (made != null) return;
    made = Instantiate(prefab, new Vector3(5, 0, 0), Quaternion.identity);
    plain = Instantiate(UEntity.Find("Home"));
  }
})"}}));
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "Home", "components": ["Render"]},
        {"name": "Template", "transform": {"position": [1, 0, 0]}, "components": ["Render"],
         "scripts": [{"class": "Enemy", "fields": {"health": 42,
            "self": {"entity": "Template", "script": "Enemy"},
            "home": {"entity": "Home"}, "body": {"entity": "Template"}}}]},
        {"name": "Spawner", "scripts": [{"class": "Spawner",
            "fields": {"prefab": {"entity": "Template", "script": "Enemy"}}}]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    World& world = host->world();
    const ObjectId home = world.findEntity("Home");
    const ObjectId templateEntity = world.findEntity("Template");
    const ObjectId templateEnemy = world.entity(templateEntity)->scripts.at(0);
    const ObjectId spawner = world.entity(world.findEntity("Spawner"))->scripts.at(0);
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    const ObjectId copy = world.findEntity("Template(Clone)");
    REQUIRE_FALSE(copy.isNull());
    const Entity& made = *world.entity(copy);
    CHECK(made.transform.position == glm::vec3(5, 0, 0));
    CHECK_FALSE(made.ownedByScripts); // a scene object, as in Unity
    REQUIRE(made.components.size() == 1);
    CHECK(world.component(made.components[0])->kind == "Render");
    REQUIRE(made.scripts.size() == 1);
    const ObjectId enemy = made.scripts[0];
    CHECK(host->getField(spawner, "made").value() == Value{ObjectRef{enemy}});
    CHECK(fieldOf<std::int64_t>(*host, enemy, "health") == 42);
    // Its fields were there, and it was placed, before its Awake.
    CHECK(fieldOf<std::string>(*host, enemy, "seenAtAwake") == "42/True/5");
    CHECK(host->getField(enemy, "self").value() == Value{ObjectRef{enemy}});
    CHECK(host->getField(enemy, "body").value() == Value{ObjectRef{copy}});
    CHECK(host->getField(enemy, "home").value() == Value{ObjectRef{home}});
    // The template is untouched.
    CHECK(host->getField(templateEnemy, "self").value() == Value{ObjectRef{templateEnemy}});
    CHECK(world.entity(templateEntity)->transform.position == glm::vec3(1, 0, 0));
    // The template's Start had run (frame 1, before the Spawner's Update): the copy has its
    // count, and its own Start adds one at the next fixed step or frame, once.
    CHECK(fieldOf<std::int64_t>(*host, templateEnemy, "starts") == 1);
    CHECK(fieldOf<std::int64_t>(*host, enemy, "starts") == 1);
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, enemy, "starts") == 2);
    CHECK(fieldOf<std::int64_t>(*host, templateEnemy, "starts") == 1);

    // An entity with no scripts is copied too, components and all, where the original is.
    const ObjectId plain = world.findEntity("Home(Clone)");
    REQUIRE_FALSE(plain.isNull());
    CHECK(host->getField(spawner, "plain").value() == Value{ObjectRef{plain}});
    CHECK(world.entity(plain)->components.size() == 1);
}

TEST_CASE("ScriptHost: Instantiate of a destroyed entity raises MissingReferenceException in the "
          "script and copies nothing") {
    TempDir dir("instantiate-gone");
    auto host = makeHostFrom(compileScripts(dir, "Gone.dll", {{"Gone.cs", R"(using UEngine;
public class Copier : UMonoScriptComponent {
  [SerializeField] public string error = "";
  UEntity doomed;
  public override void Update(float dt) {
    if (ReferenceEquals(doomed, null)) { doomed = new UEntity("Doomed"); UObject.Destroy(doomed); return; }
    if (error.Length != 0) return;
    try { Instantiate(doomed); error = "none"; }
    catch (System.Exception e) { error = e.GetType().Name; }
  }
})"}}));
    const ObjectId copier = spawnScript(*host, "Copier");
    host->tick(0.016); // made, and destroyed at the end of the frame
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, copier, "error") == "MissingReferenceException");
    CHECK(host->world().findEntity("Doomed(Clone)").isNull());
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("ScriptHost: a scene's inactive entity gets no Update until a script activates it, its "
          "tag is kept, and a snapshot saves both") {
    auto host = makeHost();
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "Sleeper", "active": false, "tag": "Enemy",
         "scripts": [{"class": "Tests.Counter", "fields": {"step": 1}}]},
        {"name": "Awake", "scripts": [{"class": "Tests.Counter", "fields": {"step": 1}}]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    World& world = host->world();
    const ObjectId sleeper = world.findEntity("Sleeper");
    const ObjectId sleeping = world.entity(sleeper)->scripts.at(0);
    const ObjectId running = world.entity(world.findEntity("Awake"))->scripts.at(0);
    CHECK_FALSE(world.entity(sleeper)->active);
    CHECK(world.entity(sleeper)->tag == "Enemy");
    host->tick(0.016);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, sleeping, "updates") == 0);
    CHECK(fieldOf<std::int64_t>(*host, running, "updates") == 2);

    auto saved = host->saveScene();
    REQUIRE(saved);
    const json file = saved->toJson();
    REQUIRE(file["entities"].size() == 2);
    CHECK(file["entities"][0]["active"] == false);
    CHECK(file["entities"][0]["tag"] == "Enemy");
    CHECK_FALSE(file["entities"][1].contains("active"));

    // The saved scene loads as it was saved: inactive, tagged, still not updating.
    auto again = makeHost();
    REQUIRE(again->instantiate(*saved));
    const ObjectId restored = again->world().findEntity("Sleeper");
    CHECK_FALSE(again->world().entity(restored)->active);
    CHECK(again->world().entity(restored)->tag == "Enemy");
    again->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*again, again->world().entity(restored)->scripts.at(0),
                                "updates") == 0);
}

TEST_CASE("ScriptHost: a Destroy(obj, t) still pending is saved with the time left, and a host "
          "built from the saved scene destroys the object when that time has passed") {
    auto host = makeHost();
    const ObjectId doomed = host->world().createEntity("Doomed");
    const ObjectId spared = host->world().createEntity("Spared");
    host->queueDestroyAfter(doomed, 1.0);
    host->tick(0.25);
    auto saved = host->saveScene();
    REQUIRE(saved);
    REQUIRE(saved->delayedDestroys.size() == 1);
    CHECK(saved->delayedDestroys[0].id == doomed.packed());
    CHECK(saved->delayedDestroys[0].seconds == doctest::Approx(0.75));
    const json file = saved->toJson();
    CHECK(file["destroyAfter"][0]["id"] == doomed.packed());

    auto restored = makeHost();
    auto scene = Scene::fromJson(file);
    REQUIRE(scene);
    REQUIRE(restored->instantiate(*scene));
    const ObjectId copy = restored->world().findEntity("Doomed");
    REQUIRE_FALSE(copy.isNull());
    restored->tick(0.5);
    CHECK(restored->world().isAlive(copy)); // 0.5 s of the 0.75 left
    restored->tick(0.5);
    CHECK_FALSE(restored->world().isAlive(copy));
    CHECK_FALSE(restored->world().findEntity("Spared").isNull());
    (void)spared;
}
