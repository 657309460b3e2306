// The object bridge: proxies, GC, script-owned entities, factory functions, checked input.
#include "../support/mono_test_support.hpp"

#include <algorithm>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("Thousands of proxies survive a forced full GC and still resolve to their entities") {
    auto host = makeHost();
    ValueList targets;
    for (int i = 0; i < 5000; ++i) {
        targets.push_back(ObjectRef{host->world().createEntity("E" + std::to_string(i))});
    }
    const ObjectId holder = spawnScript(*host, "Tests.ProxyHolder");
    REQUIRE(host->setField(holder, "targets", targets));
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, holder, "resolved") == 5000);
    for (int round = 0; round < 3; ++round) {
        ScriptDomain::collectGarbage(); // sgen moves young objects: ids must not care
        host->tick(0.016);
        CHECK(fieldOf<std::int64_t>(*host, holder, "resolved") == 5000);
        CHECK(fieldOf<std::int64_t>(*host, holder, "identical") == 5000);
    }
    CHECK(fieldOf<ValueList>(*host, holder, "targets") == targets);
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("Entities a script creates and drops are destroyed exactly once, after GC, on the main "
          "thread") {
    auto host = makeHost();
    const ObjectId spawner =
        spawnScript(*host, "Tests.Spawner", json{{"count", 1000}, {"keep", 10}});
    host->tick(0.016);
    REQUIRE(host->world().entityCount() == 1 + 1000);
    CHECK(fieldOf<ValueList>(*host, spawner, "kept").size() == 10);

    ScriptDomain::collectGarbage();
    // Finalizers only queue; nothing is destroyed until the main thread's next frame.
    CHECK(host->world().entityCount() == 1 + 1000);
    host->tick(0.016);
    CHECK(host->releasedByCollector() == 990);
    CHECK(host->world().entityCount() == 1 + 10);
    for (const Value& kept : fieldOf<ValueList>(*host, spawner, "kept")) {
        CHECK(host->world().isAlive(std::get<ObjectRef>(kept).id));
    }
    // Nothing is released twice.
    ScriptDomain::collectGarbage();
    host->tick(0.016);
    CHECK(host->releasedByCollector() == 990);
    CHECK(host->world().entityCount() == 1 + 10);
}

TEST_CASE("An entity the scripts made and hold only through its transform outlives a collection, "
          "and the transform leads back to it") {
    auto host = makeHost();
    const ObjectId spawner = spawnScript(*host, "Tests.Spawner",
                                         json{{"count", 100}, {"keep", 0}, {"keepTransforms", 7}});
    host->tick(0.016);
    REQUIRE(host->world().entityCount() == 1 + 100);
    for (int i = 0; i < 2; ++i) {
        ScriptDomain::collectGarbage();
        host->tick(0.016);
    }
    CHECK(host->releasedByCollector() == 93);
    CHECK(host->world().entityCount() == 1 + 7);
    CHECK(fieldOf<std::int64_t>(*host, spawner, "transformsLeadBack") == 7);
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("Scene entities are never released by the GC, however often their proxies die") {
    auto host = makeHost();
    const ObjectId target = host->world().createEntity("Target");
    spawnScript(*host, "Tests.StaleUser"); // holds a proxy of Target, then drops nothing
    for (int i = 0; i < 3; ++i) {
        ScriptDomain::collectGarbage();
        host->tick(0.016);
    }
    CHECK(host->world().isAlive(target));
    CHECK(host->releasedByCollector() == 0);
}

TEST_CASE("Every UTransform member on a destroyed entity raises MissingReferenceException") {
    auto host = makeHost();
    const ObjectId doomed = host->world().createEntity("Doomed");
    const ObjectId s = spawnScript(*host, "Tests.TransformOnDestroyed");
    host->tick(0.016);
    REQUIRE(host->destroyEntity(doomed));
    host->tick(0.016); // every member is called here
    host->tick(0.016); // and the next frame runs
    CHECK(fieldOf<std::int64_t>(*host, s, "thrown") == 12);
    CHECK(fieldOf<std::int64_t>(*host, s, "updates") == 3);
    CHECK(fieldOf<std::string>(*host, s, "firstMessage").find("has been destroyed") !=
          std::string::npos);
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("A transform held past its entity's destruction raises, even when the slot is reused") {
    auto host = makeHost();
    Transform oldPlace;
    oldPlace.position = {-4.0f, 0.5f, 8.0f};
    const ObjectId old = host->world().createEntity("Old", oldPlace);
    const ObjectId s = spawnScript(*host, "Tests.StaleTransform");
    host->tick(0.016);
    host->tick(0.016); // read through the held transform on two frames: its cache is warm
    CHECK(fieldOf<glm::vec3>(*host, s, "heldPosition") == oldPlace.position);
    REQUIRE(host->destroyEntity(old));
    Transform placed;
    placed.position = {1.5f, -2.0f, 3.25f};
    placed.scale = {0.5f, 0.5f, 0.5f};
    const ObjectId fresh = host->world().createEntity("New", placed);
    REQUIRE(fresh.index == old.index); // the slot is reused, with a new generation
    REQUIRE(fresh.generation != old.generation);
    host->tick(0.016);
    CHECK(fieldOf<bool>(*host, s, "checkedNow"));
    CHECK(fieldOf<std::int64_t>(*host, s, "staleThrown") == 5);
    CHECK(fieldOf<glm::vec3>(*host, s, "newPosition") == glm::vec3(1.5f, -2.0f, 3.25f));
    CHECK(fieldOf<glm::vec3>(*host, s, "newScaling") == glm::vec3(0.5f, 0.5f, 0.5f));
    CHECK(fieldOf<glm::quat>(*host, s, "newRotation") == placed.rotation);
    const Entity* e = host->world().entity(fresh);
    REQUIRE(e != nullptr);
    CHECK(e->transform.position == glm::vec3(2.5f, -2.0f, 3.25f)); // the stale writes missed it
    CHECK(e->transform.scale == glm::vec3(2.0f, 3.0f, 4.0f));
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("Factory functions from C#: new UEntity, AddComponent (native and script), Destroy") {
    auto host = makeHost();
    const ObjectId f = spawnScript(*host, "Tests.Factory");
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);
    const ObjectId made = fieldOf<ObjectRef>(*host, f, "made").id;
    REQUIRE(host->world().entity(made) != nullptr);
    CHECK(host->world().entity(made)->name == "Made");
    CHECK(host->world().entity(made)->ownedByScripts);
    const ObjectId camera = fieldOf<ObjectRef>(*host, f, "addedCamera").id;
    REQUIRE(host->world().component(camera) != nullptr);
    CHECK(host->world().component(camera)->kind == "Camera");
    const ObjectId counter = fieldOf<ObjectRef>(*host, f, "addedScript").id;
    REQUIRE(host->world().script(counter) != nullptr);
    CHECK(host->world().script(counter)->className == "Tests.Counter");
    CHECK(fieldOf<bool>(*host, counter, "initialized")); // Initialize ran at once
    CHECK(fieldOf<bool>(*host, f, "scriptFound"));
    CHECK(fieldOf<bool>(*host, f, "cameraFound"));
    CHECK(fieldOf<std::string>(*host, f, "nullDestroy") == "ArgumentNullException");
    CHECK(fieldOf<std::string>(*host, f, "notAComponent") == "ArgumentException");
    CHECK(fieldOf<std::string>(*host, f, "abstractComponent") == "ArgumentException");
    CHECK(fieldOf<std::string>(*host, f, "missingKind") == "ArgumentException");

    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") >= 1); // the added script runs
    for (int i = 0; i < 3 && host->world().isAlive(made); ++i)
        host->tick(0.016);
    CHECK_FALSE(host->world().isAlive(made)); // Destroy(made) at the end of a frame
    CHECK_FALSE(host->world().isAlive(camera));
    CHECK_FALSE(host->world().isAlive(counter));
    CHECK(host->domain()->instanceCount() == 1); // only the Factory is left
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("C++ creates script instances by class name and reads them back through the bridge") {
    auto host = makeHost();
    const ObjectId e = host->world().createEntity("Holder");
    auto a = host->addScript(e, SceneScript{"Tests.Counter", json{{"step", 2}}});
    auto b = host->addScript(e, SceneScript{"Idle", json::object()}); // short name
    REQUIRE(a);
    REQUIRE(b);
    CHECK(host->world().entity(e)->scripts == std::vector<ObjectId>{*a, *b});
    CHECK(host->world().script(*b)->className == "Tests.Idle");
    CHECK(fieldOf<std::int64_t>(*host, *b, "untouched") == 7);
}

TEST_CASE("A UTransform field is a reference to its entity: set from a scene by name, the entity's "
          "own transform, carried across a reload, null after a reload once the entity is gone") {
    TempDir dir("transform-field");
    const std::string source = R"(using UEngine;
public class Follower : UMonoScriptComponent {
  public UTransform target;
  [SerializeField] public bool same;
  [SerializeField] public float targetX = -1;
  public override void Update(float dt) {
    // Only this field holds the transform: a collection must not part it from its entity.
    System.GC.Collect(); System.GC.WaitForPendingFinalizers(); System.GC.Collect();
    same = target != null && ReferenceEquals(target, target.gameObject.transform);
    targetX = target == null ? -1f : target.position.x;
  }
})";
    auto host = makeHostFrom(compileScripts(dir, "Gen1.dll", {{"Follower.cs", source}}));
    const ScriptClassInfo* info = host->domain()->findScriptClass("Follower");
    REQUIRE(info != nullptr);
    const auto field = std::find_if(info->fields.begin(), info->fields.end(),
                                    [](const FieldInfo& f) { return f.name == "target"; });
    REQUIRE(field != info->fields.end());
    CHECK(field->type.kind == ValueKind::ObjectRef);
    CHECK(field->type.refTarget == RefTarget::Entity);
    CHECK(field->type.typeName == "UEngine.UTransform");

    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "Leader", "transform": {"position": [7, 0, 0]}},
        {"name": "Chaser", "scripts": [{"class": "Follower", "fields": {"target": {"entity": "Leader"}}}]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    const ObjectId leader = host->world().findEntity("Leader");
    const ObjectId follower =
        host->world().entity(host->world().findEntity("Chaser"))->scripts.at(0);
    host->tick(0.016);
    CHECK(fieldOf<float>(*host, follower, "targetX") == 7.0F);
    CHECK(fieldOf<bool>(*host, follower, "same"));
    CHECK(host->getField(follower, "target").value() == Value{ObjectRef{leader}});

    (void)reloadOk(*host, compileScripts(dir, "Gen2.dll", {{"Follower.cs", source}}));
    CHECK(host->getField(follower, "target").value() == Value{ObjectRef{leader}});
    host->tick(0.016);
    CHECK(fieldOf<float>(*host, follower, "targetX") == 7.0F);
    CHECK(fieldOf<bool>(*host, follower, "same"));

    REQUIRE(host->destroyEntity(leader));
    (void)reloadOk(*host, compileScripts(dir, "Gen3.dll", {{"Follower.cs", source}}));
    CHECK(host->getField(follower, "target").value() == Value{ObjectRef{}});
    host->tick(0.016);
    CHECK(fieldOf<float>(*host, follower, "targetX") == -1.0F);
    CHECK(host->scriptFailureCount() == 0);
}
