// UEngine.UObject's and UEngine.Internal.ObjectTable's internal calls
// (host/glue/src/object_glue.cpp), run from C# compiled by the test in a real ScriptHost:
// isAlive for every kind of object, Destroy at the end of the frame, one proxy per live object,
// which component kinds have a proxy class, and a destroyed object or another thread raising a
// clear managed exception.
#include "../support/glue_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kWatcher = R"(
using System;
using UEngine;

public class Other : UMonoScriptComponent { }

public class Watcher : UMonoScriptComponent
{
    [SerializeField] bool entityAlive;
    [SerializeField] bool cameraAlive;
    [SerializeField] bool scriptAlive;
    [SerializeField] string offThread = "";
    UEntity entity;
    UCameraComponent camera;
    Other other;

    public override void Initialize()
    {
        entity = UEntity.Find("Target");
        camera = entity.GetComponent<UCameraComponent>();
        other = entity.GetComponent<Other>();
    }

    public override void Update(float deltaTime)
    {
        entityAlive = entity.isAlive;
        cameraAlive = camera.isAlive;
        scriptAlive = other.isAlive;
        offThread = Probe.OnThread(() => { bool alive = entity.isAlive; });
    }
}
)";

struct Alive {
    bool entity;
    bool camera;
    bool script;
    bool operator==(const Alive&) const = default;
};

Alive aliveSeen(ScriptHost& host, ObjectId watcher) {
    return {fieldOf<bool>(host, watcher, "entityAlive"),
            fieldOf<bool>(host, watcher, "cameraAlive"),
            fieldOf<bool>(host, watcher, "scriptAlive")};
}

} // namespace

TEST_CASE("Object glue: isAlive follows the world for an entity, a native component and a "
          "script, and is refused off the game loop's thread") {
    GlueHost host("object-alive", kWatcher);
    const ObjectId target = host->world().createEntity("Target");
    const ObjectId camera = *host->world().addComponent(target, "Camera");
    auto other = host->addScript(target, SceneScript{"Other", nlohmann::json::object()});
    REQUIRE(other);
    const ObjectId watcher = spawnScript(*host, "Watcher");

    host->tick(0.016);
    CHECK(aliveSeen(*host, watcher) == Alive{true, true, true});
    const std::string offThread = host.text(watcher, "offThread");
    CHECK_MESSAGE(contains(offThread, "System.InvalidOperationException"), offThread);
    CHECK_MESSAGE(contains(offThread, "outside the host's game loop"), offThread);

    REQUIRE(host->destroyObject(camera));
    host->tick(0.016);
    CHECK(aliveSeen(*host, watcher) == Alive{true, false, true});

    REQUIRE(host->removeScript(*other));
    host->tick(0.016);
    CHECK(aliveSeen(*host, watcher) == Alive{true, false, false});

    REQUIRE(host->destroyEntity(target));
    host->tick(0.016);
    CHECK(aliveSeen(*host, watcher) == Alive{false, false, false});
    CHECK(host->scriptFailureCount() == 0);
}

namespace {

const std::string kDestroyer = R"(
using System;
using UEngine;

public class Destroyer : UMonoScriptComponent
{
    [SerializeField] UEntity entity;
    [SerializeField] UCameraComponent camera;
    [SerializeField] bool go;
    [SerializeField] int round;
    [SerializeField] bool entityAliveRightAfter;
    [SerializeField] bool cameraAliveRightAfter;
    [SerializeField] string again = "";

    public override void Update(float deltaTime)
    {
        if (!go) return;
        round++;
        if (round == 1)
        {
            UObject.Destroy(camera);
            UObject.Destroy(entity);
            UObject.Destroy(entity); // twice in one frame
            entityAliveRightAfter = entity.isAlive;
            cameraAliveRightAfter = camera.isAlive;
        }
        else if (round == 2)
        {
            again = Probe.Outcome(() => { UObject.Destroy(entity); UObject.Destroy(camera); });
        }
    }
}
)";

} // namespace

TEST_CASE("Object glue: Destroy takes effect at the end of the frame, and destroying what is "
          "gone does nothing") {
    GlueHost host("object-destroy", kDestroyer);
    const ObjectId entity = host->world().createEntity("Doomed");
    const ObjectId camera = *host->world().addComponent(entity, "Camera");
    const ObjectId bystander = host->world().createEntity("Bystander");
    const ObjectId bystanderCamera = *host->world().addComponent(bystander, "Camera");
    // The camera to destroy is another entity's, so that destroying it is seen on its own.
    const ObjectId s = spawnScript(*host, "Destroyer");
    REQUIRE(host->setField(s, "entity", ObjectRef{entity}));
    REQUIRE(host->setField(s, "camera", ObjectRef{bystanderCamera}));
    host->tick(0.016);
    CHECK(host->world().isAlive(entity)); // nothing asked yet

    REQUIRE(host->setField(s, "go", true));
    host->tick(0.016);
    CHECK(fieldOf<bool>(*host, s, "entityAliveRightAfter"));
    CHECK(fieldOf<bool>(*host, s, "cameraAliveRightAfter"));
    CHECK_FALSE(host->world().isAlive(entity));
    CHECK_FALSE(host->world().isAlive(camera)); // with its entity
    CHECK_FALSE(host->world().isAlive(bystanderCamera));
    REQUIRE(host->world().entity(bystander) != nullptr);
    CHECK(host->world().entity(bystander)->components.empty());

    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "round") == 2);
    CHECK(host.text(s, "again") == "ok");
    host->tick(0.016);
    CHECK(host->world().isAlive(bystander));
    CHECK(host->scriptFailureCount() == 0);
}

namespace {

const std::string kTable = R"(
using System;
using UEngine;

public class Table : UMonoScriptComponent
{
    [SerializeField] ulong live;
    [SerializeField] ulong doomed;
    [SerializeField] bool sameProxy;
    [SerializeField] ulong proxyId;
    [SerializeField] string proxyType = "";
    [SerializeField] string destroyedProxy = "";
    [SerializeField] string kinds = "";
    [SerializeField] string ownerOfHeld = "";
    [SerializeField] bool checkHeld;
    UCameraComponent held;

    static Type ObjectTable { get { return typeof(UObject).Assembly.GetType("UEngine.Internal.ObjectTable"); } }

    public override void Initialize() { held = UEntity.Find("Holder").GetComponent<UCameraComponent>(); }

    public override void Update(float deltaTime)
    {
        if (checkHeld)
        {
            ownerOfHeld = Probe.Outcome(() => { var owner = held.gameObject; });
            return;
        }
        object a = Probe.Call(ObjectTable, "Internal_GetProxy", live);
        sameProxy = ReferenceEquals(a, Probe.Call(ObjectTable, "Internal_GetProxy", live));
        proxyId = ((UObject)a).nativeId;
        proxyType = a.GetType().FullName;
        destroyedProxy = Probe.Outcome(() => Probe.Call(ObjectTable, "Internal_GetProxy", doomed));
        foreach (string kind in new[] { "Camera", "Render", "Physics", "" })
            kinds += kind + "=" + Probe.Call(ObjectTable, "Internal_HasProxyClass", kind) + " ";
    }
}
)";

} // namespace

TEST_CASE("Object glue: one proxy per live object, none for a destroyed one, and proxy classes "
          "only for the component kinds ScriptCore or the scripts bind") {
    GlueHost host("object-table", kTable);
    host->registerComponentKind("Physics");
    const ObjectId live = host->world().createEntity("Live");
    const ObjectId doomed = host->world().createEntity("Doomed");
    REQUIRE(host->destroyEntity(doomed));
    const ObjectId holder = host->world().createEntity("Holder");
    REQUIRE(host->world().addComponent(holder, "Camera"));
    const ObjectId s = spawnScript(*host, "Table");
    REQUIRE(host->setField(s, "live", live.packed()));
    REQUIRE(host->setField(s, "doomed", doomed.packed()));
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    CHECK(fieldOf<bool>(*host, s, "sameProxy"));
    CHECK(fieldOf<std::uint64_t>(*host, s, "proxyId") == live.packed());
    CHECK(host.text(s, "proxyType") == "UEngine.UEntity");
    const std::string destroyed = host.text(s, "destroyedProxy");
    CHECK_MESSAGE(contains(destroyed, "UEngine.MissingReferenceException"), destroyed);
    CHECK_MESSAGE(contains(destroyed, "the object " + doomed.toString() + " has been destroyed"),
                  destroyed);
    CHECK(host.text(s, "kinds") == "Camera=True Render=True Physics=False =False ");

    // A component proxy held past its entity: asking for its entity's proxy now raises.
    REQUIRE(host->destroyEntity(holder));
    REQUIRE(host->setField(s, "checkHeld", true));
    host->tick(0.016);
    const std::string owner = host.text(s, "ownerOfHeld");
    CHECK_MESSAGE(contains(owner, "UEngine.MissingReferenceException"), owner);
    CHECK_MESSAGE(contains(owner, holder.toString()), owner);
    CHECK(host->scriptFailureCount() == 0);
}

namespace {

const std::string kLater = R"(
using UEngine;

public class Later : UMonoScriptComponent
{
    public UEntity target;
    [SerializeField] public float delay = 0.5f;
    public override void Initialize() { Destroy(target, delay); Destroy(target, 5f); }
}
)";

} // namespace

TEST_CASE("Object glue: Destroy(obj, t) destroys it at the end of the first frame t seconds of "
          "game time later, across a reload too") {
    GlueHost host("object-destroy-later", kLater);
    const ObjectId target = host->world().createEntity("Target");
    const ObjectId bystander = host->world().createEntity("Bystander");
    auto scene = Scene::fromJson(nlohmann::json::parse(R"({"entities": [{"name": "Timer",
        "scripts": [{"class": "Later", "fields": {"target": {"entity": "Target"}}}]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    host->tick(0.25); // t = 0.25
    CHECK(host->world().isAlive(target));
    (void)reloadOk(*host, compileScripts(host.dir, "Gen2.dll",
                                         {{"Probe.cs", kGlueProbeSource}, {"Later.cs", kLater}}));
    host->tick(0.2); // t = 0.45
    CHECK(host->world().isAlive(target));
    host->tick(0.05); // t = 0.5: due
    CHECK_FALSE(host->world().isAlive(target));
    for (int i = 0; i < 20; ++i)
        host->tick(0.25); // t = 5.5: the second appointment finds it gone, nothing happens
    CHECK(host->world().isAlive(bystander));
    CHECK(host->scriptFailureCount() == 0);
}
