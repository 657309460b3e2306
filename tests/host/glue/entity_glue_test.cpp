// UEngine.UEntity's internal calls (host/glue/src/entity_glue.cpp), run from C# compiled by the
// test in a real ScriptHost: Find, name, new UEntity, the native components' list and
// AddComponent, each checked in the world, and bad input (null, a destroyed entity, an index
// out of range, an unknown script class) raising a clear managed exception.
#include "../support/glue_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kFinder = R"(
using System;
using UEngine;

public class Finder : UMonoScriptComponent
{
    [SerializeField] string lookFor = "";
    [SerializeField] UEntity found;
    [SerializeField] bool sameProxy;
    [SerializeField] string internalNull = "";
    [SerializeField] string managedNull = "";

    public override void Update(float deltaTime)
    {
        found = UEntity.Find(lookFor);
        sameProxy = ReferenceEquals(UEntity.Find(lookFor), found);
        managedNull = Probe.Outcome(() => UEntity.Find(null));
        internalNull = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_Find", new object[] { null }));
    }
}
)";

const std::string kNamer = R"(
using System;
using UEngine;

public class Namer : UMonoScriptComponent
{
    [SerializeField] UEntity target;
    [SerializeField] string newName = "";
    [SerializeField] string seen = "";
    [SerializeField] string readOutcome = "";
    [SerializeField] string renameOutcome = "";
    [SerializeField] string internalNullName = "";
    [SerializeField] string nullId = "";

    public override void Update(float deltaTime)
    {
        readOutcome = Probe.Outcome(() => { seen = target.name; });
        if (newName != "") renameOutcome = Probe.Outcome(() => { target.name = newName; });
        internalNullName = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_SetName", target.nativeId, null));
        nullId = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_GetName", 0UL));
    }
}
)";

} // namespace

TEST_CASE("Entity glue: Find gives the proxy of the earliest live entity of that name, null for "
          "an unknown name") {
    GlueHost host("entity-find", kFinder);
    const ObjectId first = host->world().createEntity("Twin ✓");
    const ObjectId second = host->world().createEntity("Twin ✓");
    const ObjectId finder = spawnScript(*host, "Finder");

    REQUIRE(host->setField(finder, "lookFor", std::string("Twin ✓")));
    host->tick(0.016);
    CHECK(fieldOf<ObjectRef>(*host, finder, "found").id == first);
    CHECK(fieldOf<bool>(*host, finder, "sameProxy"));

    REQUIRE(host->destroyEntity(first));
    host->tick(0.016);
    CHECK(fieldOf<ObjectRef>(*host, finder, "found").id == second);

    REQUIRE(host->setField(finder, "lookFor", std::string("Nobody")));
    host->tick(0.016);
    CHECK(fieldOf<ObjectRef>(*host, finder, "found").id.isNull());

    // The C# check and the internal call's own check behind it.
    CHECK(contains(host.text(finder, "managedNull"), "System.ArgumentNullException"));
    const std::string internalNull = host.text(finder, "internalNull");
    CHECK_MESSAGE(contains(internalNull, "System.ArgumentNullException"), internalNull);
    CHECK_MESSAGE(contains(internalNull, "name"), internalNull);
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("Entity glue: name reads and writes the native entity's name, and raises "
          "MissingReferenceException once the entity is destroyed") {
    GlueHost host("entity-name", kNamer);
    const ObjectId target = host->world().createEntity("Before");
    const ObjectId namer = spawnScript(*host, "Namer");
    REQUIRE(host->setField(namer, "target", ObjectRef{target}));

    host->tick(0.016);
    CHECK(host.text(namer, "readOutcome") == "ok");
    CHECK(host.text(namer, "seen") == "Before");

    const std::string renamed = "Après ✓ 名前";
    REQUIRE(host->setField(namer, "newName", renamed));
    host->tick(0.016);
    CHECK(host.text(namer, "renameOutcome") == "ok");
    CHECK(host->world().entity(target)->name == renamed);
    host->tick(0.016);
    CHECK(host.text(namer, "seen") == renamed); // read back through the internal call

    // A null name reaching the internal call leaves the name as it was.
    const std::string nullName = host.text(namer, "internalNullName");
    CHECK_MESSAGE(contains(nullName, "System.ArgumentNullException"), nullName);
    CHECK_MESSAGE(contains(nullName, "value"), nullName);
    CHECK(host->world().entity(target)->name == renamed);
    // The null id is no entity.
    const std::string nullId = host.text(namer, "nullId");
    CHECK_MESSAGE(contains(nullId, "System.ArgumentNullException"), nullId);

    // The script still holds the proxy it was given; the entity goes.
    REQUIRE(host->setField(namer, "newName", std::string("Too late")));
    REQUIRE(host->destroyEntity(target));
    host->tick(0.016);
    for (const char* field : {"readOutcome", "renameOutcome"}) {
        const std::string outcome = host.text(namer, field);
        CHECK_MESSAGE(contains(outcome, "UEngine.MissingReferenceException"), outcome);
        CHECK_MESSAGE(contains(outcome, target.toString() + " has been destroyed"), outcome);
    }
    CHECK(host->world().findEntity("Too late").isNull());
}

namespace {

const std::string kMaker = R"(
using System;
using UEngine;

public class Maker : UMonoScriptComponent
{
    [SerializeField] UEntity made;
    [SerializeField] bool sameAsFind;
    [SerializeField] string internalNull = "";

    public override void Update(float deltaTime)
    {
        if (made != null) return;
        made = new UEntity("Made ✓");
        sameAsFind = ReferenceEquals(UEntity.Find("Made ✓"), made);
        internalNull = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_Create", made, null));
    }
}
)";

} // namespace

TEST_CASE("Entity glue: new UEntity makes one script-owned entity whose proxy is the one Find "
          "gives back") {
    GlueHost host("entity-create", kMaker);
    const ObjectId maker = spawnScript(*host, "Maker");
    const std::size_t before = host->world().entityCount();
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    const ObjectId made = fieldOf<ObjectRef>(*host, maker, "made").id;
    const Entity* entity = host->world().entity(made);
    REQUIRE(entity != nullptr);
    CHECK(entity->name == "Made ✓");
    CHECK(entity->ownedByScripts);
    CHECK_FALSE(host->world().entity(host->world().script(maker)->entity)->ownedByScripts);
    CHECK(fieldOf<bool>(*host, maker, "sameAsFind"));
    // A null name is refused by the internal call itself, and makes no entity.
    const std::string internalNull = host.text(maker, "internalNull");
    CHECK_MESSAGE(contains(internalNull, "System.ArgumentNullException"), internalNull);
    CHECK(host->world().entityCount() == before + 1);
}

namespace {

const std::string kComponents = R"(
using System;
using UEngine;

public class Added : UMonoScriptComponent
{
    [SerializeField] public bool initialized;
    public override void Initialize() { initialized = true; }
}

public class Components : UMonoScriptComponent
{
    [SerializeField] UEntity target;
    [SerializeField] ulong doomed;
    [SerializeField] bool done;
    [SerializeField] UCameraComponent camera;
    [SerializeField] URenderComponent addedRender;
    [SerializeField] Added addedScript;
    [SerializeField] bool addedScriptFound;
    [SerializeField] int count;
    [SerializeField] string kinds = "";
    [SerializeField] string ids = "";
    [SerializeField] string pastEnd = "";
    [SerializeField] string negative = "";
    [SerializeField] string unknownScript = "";
    [SerializeField] string countDestroyed = "";
    [SerializeField] string addToDestroyed = "";
    [SerializeField] string addScriptToDestroyed = "";

    public override void Update(float deltaTime)
    {
        if (done) return;
        done = true;
        camera = target.GetComponent<UCameraComponent>();
        count = (int)Probe.Call(typeof(UEntity), "Internal_GetComponentCount", target.nativeId);
        for (int i = 0; i < count; i++)
        {
            object[] args = { target.nativeId, i, null };
            ulong id = (ulong)Probe.Call(typeof(UEntity), "Internal_GetComponentAt", args);
            kinds += (i == 0 ? "" : " ") + (string)args[2];
            ids += (i == 0 ? "" : " ") + id;
        }
        pastEnd = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_GetComponentAt", new object[] { target.nativeId, count, null }));
        negative = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_GetComponentAt", new object[] { target.nativeId, -1, null }));
        addedRender = target.AddComponent<URenderComponent>();
        addedScript = target.AddComponent<Added>();
        addedScriptFound = ReferenceEquals(target.GetComponent<Added>(), addedScript);
        unknownScript = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_AddScript", target.nativeId, "No.Such.Script"));
        countDestroyed = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_GetComponentCount", doomed));
        addToDestroyed = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_AddComponent", doomed, "Camera"));
        addScriptToDestroyed = Probe.Outcome(() => Probe.Call(typeof(UEntity), "Internal_AddScript", doomed, "Added"));
    }
}
)";

} // namespace

TEST_CASE("Entity glue: the native component list is read in order and AddComponent adds a "
          "native component or a script, refusing a destroyed entity and an unknown class") {
    GlueHost host("entity-components", kComponents);
    host->registerComponentKind("Physics"); // a kind no C# class stands for
    const ObjectId target = host->world().createEntity("Target");
    const ObjectId physics = *host->world().addComponent(target, "Physics");
    const ObjectId camera = *host->world().addComponent(target, "Camera");
    const ObjectId secondCamera = *host->world().addComponent(target, "Camera");
    const ObjectId doomed = host->world().createEntity("Doomed");
    REQUIRE(host->destroyEntity(doomed));
    const ObjectId s = spawnScript(*host, "Components");
    REQUIRE(host->setField(s, "target", ObjectRef{target}));
    REQUIRE(host->setField(s, "doomed", doomed.packed()));
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    CHECK(fieldOf<std::int64_t>(*host, s, "count") == 3);
    CHECK(host.text(s, "kinds") == "Physics Camera Camera");
    CHECK(host.text(s, "ids") == std::to_string(physics.packed()) + " " +
                                     std::to_string(camera.packed()) + " " +
                                     std::to_string(secondCamera.packed()));
    CHECK(fieldOf<ObjectRef>(*host, s, "camera").id == camera); // the first Camera, past Physics
    for (const char* field : {"pastEnd", "negative"}) {
        const std::string outcome = host.text(s, field);
        CHECK_MESSAGE(contains(outcome, "System.ArgumentException"), outcome);
        CHECK_MESSAGE(contains(outcome, "component index out of range"), outcome);
    }

    const Entity& entity = *host->world().entity(target);
    REQUIRE(entity.components.size() == 4);
    const ObjectId render = fieldOf<ObjectRef>(*host, s, "addedRender").id;
    CHECK(entity.components.back() == render);
    CHECK(host->world().component(render)->kind == "Render");
    const ObjectId added = fieldOf<ObjectRef>(*host, s, "addedScript").id;
    REQUIRE(entity.scripts.size() == 1);
    CHECK(entity.scripts.front() == added);
    CHECK(host->world().script(added)->className == "Added");
    CHECK(fieldOf<bool>(*host, added, "initialized"));
    CHECK(fieldOf<bool>(*host, s, "addedScriptFound"));

    const std::string unknown = host.text(s, "unknownScript");
    CHECK_MESSAGE(contains(unknown, "System.ArgumentException"), unknown);
    CHECK_MESSAGE(contains(unknown, "No.Such.Script"), unknown);
    for (const char* field : {"countDestroyed", "addToDestroyed", "addScriptToDestroyed"}) {
        const std::string outcome = host.text(s, field);
        CHECK_MESSAGE(contains(outcome, "UEngine.MissingReferenceException"), outcome);
        CHECK_MESSAGE(contains(outcome, doomed.toString()), outcome);
    }
    CHECK(host->world().entity(target)->scripts.size() == 1); // nothing more was added
}
