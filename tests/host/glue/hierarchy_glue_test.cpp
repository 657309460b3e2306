// The transform hierarchy from C# (UTransform's parent, children, sibling order, Find, local
// and world space; UEntity's activeInHierarchy and the GetComponent*InChildren/InParent family)
// and from native code (ScriptHost::reparent, setEntityActive): real scripts compiled by mcs,
// run by the real runtime, against a scene whose entities name their parents.
#include "../support/mono_test_support.hpp"

#include <glm/gtc/quaternion.hpp>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

bool near(const glm::vec3& a, const glm::vec3& b) {
    return glm::length(a - b) <= 1e-4f;
}

const std::string kProbe = R"(using System;
using UEngine;
public class HierarchyProbe : UMonoScriptComponent {
  public UTransform body;
  public int childCount;
  public string childNames = "", order = "", found = "", handRoot = "", cycleError = "", outOfRange = "";
  public bool handInBody, bodyInHand, sameParent, handIsRoot;
  public int legBefore, legAfter;
  public Vector3 armPosition, armLocal, armForward, handAfterMove, handDetached;
  bool done;
  void Update() {
    if (done) return;
    done = true;
    childCount = body.childCount;
    foreach (UTransform c in body) childNames += c.name + ",";
    UTransform hand = body.Find("Arm/Hand");
    found = hand == null ? "none" : hand.name;
    handRoot = hand.root.name;
    handInBody = hand.IsChildOf(body);
    bodyInHand = body.IsChildOf(hand);
    UTransform arm = body.GetChild(0);
    sameParent = ReferenceEquals(arm.parent, body);
    armPosition = arm.position;
    armLocal = arm.localPosition;
    armForward = arm.forward;
    try { body.SetParent(hand); } catch (ArgumentException e) { cycleError = e.Message; }
    try { body.GetChild(9); } catch (ArgumentOutOfRangeException) { outOfRange = "thrown"; }
    UTransform leg = body.Find("Leg");
    legBefore = leg.GetSiblingIndex();
    leg.SetAsFirstSibling();
    legAfter = leg.GetSiblingIndex();
    foreach (UTransform c in body) order += c.name + ",";
    body.position = body.position + new Vector3(0, 5, 0);
    handAfterMove = hand.position;
    hand.parent = null;
    handDetached = hand.position;
    handIsRoot = hand.parent == null;
  }
}
)";

const std::string kActivity = R"(using UEngine;
public class Activity : UMonoScriptComponent {
  public static int s_Destroyed;
  public int updates, enables, disables;
  void OnEnable() { enables++; }
  void OnDisable() { disables++; }
  void Update() { updates++; }
  void OnDestroy() { s_Destroyed++; }
}
public class Driver : UMonoScriptComponent {
  public UEntity parent, off, child, clone;
  public int cloneChildren = -1;
  public bool cloneChildOwnScript;
  public string command = "";
  public int inChildren = -1, inParents = -1, destroyed = -1;
  public bool ownFirst, inactiveSkipped, inactiveIncluded, childActiveSelf, childInHierarchy;
  void Update() {
    destroyed = Activity.s_Destroyed;
    if (child != null) {
      childActiveSelf = child.activeSelf;
      childInHierarchy = child.activeInHierarchy;
    }
    string now = command;
    command = "";
    switch (now) {
      case "off": parent.SetActive(false); break;
      case "on": parent.SetActive(true); break;
      case "underOff": child.transform.SetParent(off.transform); break;
      case "destroyParent": Destroy(parent); break;
      case "clone":
        clone = Instantiate(parent);
        cloneChildren = clone.transform.childCount;
        Activity copied = clone.transform.GetChild(0).GetComponent<Activity>();
        cloneChildOwnScript = copied != null && !ReferenceEquals(copied, child.GetComponent<Activity>());
        break;
      case "find":
        inChildren = parent.GetComponentsInChildren<Activity>().Length;
        inParents = child.GetComponentsInParent<Activity>().Length;
        ownFirst = ReferenceEquals(child.GetComponentInParent<Activity>(), child.GetComponent<Activity>());
        inactiveSkipped = off.GetComponentInChildren<Activity>() == null;
        inactiveIncluded = off.GetComponentInChildren<Activity>(true) != null;
        break;
    }
  }
}
)";

const char* kActivityScene = R"({"entities": [
    {"name": "Parent", "scripts": [{"class": "Activity"}]},
    {"name": "Child", "parent": "Parent", "scripts": [{"class": "Activity"}]},
    {"name": "Off", "active": false},
    {"name": "OffKid", "parent": "Off", "scripts": [{"class": "Activity"}]},
    {"name": "Driver", "scripts": [{"class": "Driver", "fields": {
        "parent": {"entity": "Parent"}, "off": {"entity": "Off"}, "child": {"entity": "Child"}}}]}]})";

struct ActivityWorld {
    TempDir dir{"hierarchy-activity"};
    std::unique_ptr<ScriptHost> host;
    ObjectId parent, child, off, offKid;
    ObjectId parentScript, childScript, offKidScript, driver;

    ActivityWorld() {
        host = makeHostFrom(compileScripts(dir, "Gen1.dll", {{"Activity.cs", kActivity}}));
        auto scene = Scene::fromJson(json::parse(kActivityScene));
        REQUIRE(scene);
        auto made = host->instantiate(*scene);
        REQUIRE_MESSAGE(made, (made ? "" : made.error().message));
        World& world = host->world();
        parent = world.findEntity("Parent");
        child = world.findEntity("Child");
        off = world.findEntity("Off");
        offKid = world.findEntity("OffKid");
        parentScript = world.entity(parent)->scripts.at(0);
        childScript = world.entity(child)->scripts.at(0);
        offKidScript = world.entity(offKid)->scripts.at(0);
        driver = world.entity(world.findEntity("Driver"))->scripts.at(0);
    }
    std::int64_t count(ObjectId script, const char* name) {
        return fieldOf<std::int64_t>(*host, script, name);
    }
    void command(const std::string& what) {
        REQUIRE(host->setField(driver, "command", what));
        host->tick(0.016);
    }
};

} // namespace

TEST_CASE("Hierarchy from C#: children in sibling order, Find by path, root and IsChildOf, world "
          "position under a turned parent, a cycle and a bad index refused, a moved parent "
          "carries its children, a detached child stays where it is") {
    TempDir dir("hierarchy-probe");
    auto host = makeHostFrom(compileScripts(dir, "Gen1.dll", {{"HierarchyProbe.cs", kProbe}}));
    // Body faces +X (90 degrees about +Y): its local +Z is the world's +X.
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "Body", "transform": {"position": [10, 0, 0], "rotation": [0, 0.70710678, 0, 0.70710678]}},
        {"name": "Arm", "parent": "Body", "transform": {"position": [0, 0, 1]}},
        {"name": "Hand", "parent": "Arm"},
        {"name": "Leg", "parent": "Body", "transform": {"position": [0, -1, 0]}},
        {"name": "Probe", "scripts": [{"class": "HierarchyProbe", "fields": {"body": {"entity": "Body"}}}]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    const ObjectId probe = host->world().entity(host->world().findEntity("Probe"))->scripts.at(0);
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    CHECK(fieldOf<std::int64_t>(*host, probe, "childCount") == 2);
    CHECK(fieldOf<std::string>(*host, probe, "childNames") == "Arm,Leg,");
    CHECK(fieldOf<std::string>(*host, probe, "found") == "Hand");
    CHECK(fieldOf<std::string>(*host, probe, "handRoot") == "Body");
    CHECK(fieldOf<bool>(*host, probe, "handInBody"));
    CHECK_FALSE(fieldOf<bool>(*host, probe, "bodyInHand"));
    CHECK(fieldOf<bool>(*host, probe, "sameParent"));
    CHECK(near(fieldOf<glm::vec3>(*host, probe, "armPosition"), {11, 0, 0}));
    CHECK(fieldOf<glm::vec3>(*host, probe, "armLocal") == glm::vec3(0, 0, 1));
    CHECK(near(fieldOf<glm::vec3>(*host, probe, "armForward"), {1, 0, 0}));
    CHECK(fieldOf<std::string>(*host, probe, "cycleError") ==
          "cannot make \"Body\" a child of \"Hand\": the parent lies below it");
    CHECK(fieldOf<std::string>(*host, probe, "outOfRange") == "thrown");
    CHECK(fieldOf<std::int64_t>(*host, probe, "legBefore") == 1);
    CHECK(fieldOf<std::int64_t>(*host, probe, "legAfter") == 0);
    CHECK(fieldOf<std::string>(*host, probe, "order") == "Leg,Arm,");
    CHECK(near(fieldOf<glm::vec3>(*host, probe, "handAfterMove"), {11, 5, 0}));
    CHECK(near(fieldOf<glm::vec3>(*host, probe, "handDetached"), {11, 5, 0}));
    CHECK(fieldOf<bool>(*host, probe, "handIsRoot"));

    const World& world = host->world();
    const ObjectId hand = world.findEntity("Hand");
    CHECK(world.entity(hand)->parent.isNull());
    CHECK(near(world.entity(hand)->transform.position, {11, 5, 0}));
    CHECK(world.entity(world.findEntity("Body"))->children ==
          std::vector<ObjectId>{world.findEntity("Leg"), world.findEntity("Arm")});
}

TEST_CASE("Hierarchy from C#: a parent's SetActive and a move under an inactive parent switch its "
          "children's scripts off and on (OnDisable, OnEnable, no Update while inactive)") {
    ActivityWorld w;
    w.host->tick(0.016);
    CHECK(w.count(w.childScript, "enables") == 1);
    CHECK(w.count(w.childScript, "updates") == 1);
    CHECK(w.count(w.offKidScript, "updates") == 0); // under an inactive parent from the start
    CHECK(w.count(w.offKidScript, "enables") == 0);

    w.command("off");
    w.host->tick(0.016);
    CHECK(w.count(w.childScript, "disables") == 1);
    CHECK(w.count(w.parentScript, "disables") == 1);
    const std::int64_t frozen = w.count(w.childScript, "updates");
    w.host->tick(0.016);
    CHECK(w.count(w.childScript, "updates") == frozen);
    CHECK(fieldOf<bool>(*w.host, w.driver, "childActiveSelf"));
    CHECK_FALSE(fieldOf<bool>(*w.host, w.driver, "childInHierarchy"));

    w.command("on");
    w.host->tick(0.016);
    CHECK(w.count(w.childScript, "enables") == 2);
    CHECK(w.count(w.childScript, "updates") > frozen);

    w.command("underOff");
    CHECK(w.count(w.childScript, "disables") == 2);
    CHECK(w.count(w.parentScript, "disables") == 1); // the parent is not touched
    CHECK(w.host->world().entity(w.child)->parent == w.off);
    CHECK(w.host->scriptFailureCount() == 0);
}

TEST_CASE("Hierarchy from native code: ScriptHost::reparent and setEntityActive tell the scripts, "
          "as SetParent and SetActive do from C#") {
    ActivityWorld w;
    w.host->tick(0.016);
    REQUIRE(w.host->reparent(w.child, w.off, true));
    CHECK(w.count(w.childScript, "disables") == 1);
    REQUIRE(w.host->reparent(w.child, w.parent, true));
    CHECK(w.count(w.childScript, "enables") == 2);
    REQUIRE(w.host->setEntityActive(w.off, true));
    CHECK(w.count(w.offKidScript, "enables") == 1);
    w.host->tick(0.016);
    CHECK(w.count(w.offKidScript, "updates") == 1);
    auto cycle = w.host->reparent(w.parent, w.child, true);
    REQUIRE_FALSE(cycle);
    CHECK(cycle.error().message ==
          "cannot make \"Parent\" a child of \"Child\": the parent lies below it");
    CHECK_FALSE(w.host->setEntityActive(ObjectId{}, false));
    CHECK(w.host->scriptFailureCount() == 0);
}

TEST_CASE("Hierarchy from C#: GetComponentsInChildren and InParent search the hierarchy, nearest "
          "first, skipping inactive entities unless asked, and destroying a parent destroys its "
          "children and runs their OnDestroy") {
    ActivityWorld w;
    w.command("find");
    CHECK(fieldOf<std::int64_t>(*w.host, w.driver, "inChildren") == 2);
    CHECK(fieldOf<std::int64_t>(*w.host, w.driver, "inParents") == 2);
    CHECK(fieldOf<bool>(*w.host, w.driver, "ownFirst"));
    CHECK(fieldOf<bool>(*w.host, w.driver, "inactiveSkipped"));
    CHECK(fieldOf<bool>(*w.host, w.driver, "inactiveIncluded"));

    w.command("destroyParent");
    CHECK_FALSE(w.host->world().isAlive(w.parent));
    CHECK_FALSE(w.host->world().isAlive(w.child));
    CHECK_FALSE(w.host->world().isAlive(w.childScript));
    w.host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*w.host, w.driver, "destroyed") == 2);
    CHECK(w.host->world().isAlive(w.offKid));
}

TEST_CASE("Hierarchy from C#: Instantiate copies an entity with everything below it, each child "
          "under its copied parent with its own scripts") {
    ActivityWorld w;
    w.host->world().entity(w.child)->transform.position = {0, 2, 0};
    w.command("clone");
    REQUIRE(w.host->scriptFailureCount() == 0);
    CHECK(fieldOf<std::int64_t>(*w.host, w.driver, "cloneChildren") == 1);
    CHECK(fieldOf<bool>(*w.host, w.driver, "cloneChildOwnScript"));
    const World& world = w.host->world();
    const ObjectId copy = fieldOf<ObjectRef>(*w.host, w.driver, "clone").id;
    REQUIRE(world.entity(copy) != nullptr);
    CHECK(world.entity(copy)->name == "Parent(Clone)");
    CHECK(world.entity(copy)->parent.isNull());
    REQUIRE(world.entity(copy)->children.size() == 1);
    const ObjectId copiedChild = world.entity(copy)->children.front();
    CHECK(copiedChild != w.child);
    CHECK(world.entity(copiedChild)->name == "Child");
    CHECK(world.entity(copiedChild)->parent == copy);
    CHECK(world.entity(copiedChild)->transform.position == glm::vec3(0, 2, 0));
    CHECK(world.entity(w.parent)->children == std::vector<ObjectId>{w.child}); // untouched
}

TEST_CASE("Hierarchy across a reload and a saved scene: parents stay, a child of an inactive "
          "parent stays switched off, and a saved scene names parents by id and loads back") {
    ActivityWorld w;
    w.host->tick(0.016);
    w.command("off");
    const std::int64_t frozen = w.count(w.childScript, "updates");
    (void)reloadOk(*w.host, compileScripts(w.dir, "Gen2.dll", {{"Activity.cs", kActivity}}));
    w.host->tick(0.016);
    w.host->tick(0.016);
    CHECK(w.count(w.childScript, "updates") == frozen);
    CHECK(w.host->world().entity(w.child)->parent == w.parent);
    CHECK(w.host->world().entity(w.offKid)->parent == w.off);

    auto saved = w.host->saveScene();
    REQUIRE(saved);
    const json file = saved->toJson();
    CHECK(file["entities"][1]["parent"] == json{{"id", w.parent.packed()}});

    TempDir other("hierarchy-restore");
    auto restored = makeHostFrom(compileScripts(other, "Gen1.dll", {{"Activity.cs", kActivity}}));
    auto scene = Scene::fromJson(file);
    REQUIRE(scene);
    auto made = restored->instantiate(*scene);
    REQUIRE_MESSAGE(made, (made ? "" : made.error().message));
    const World& world = restored->world();
    const ObjectId child = world.findEntity("Child");
    CHECK(world.entity(child)->parent == world.findEntity("Parent"));
    CHECK(world.entity(world.findEntity("OffKid"))->parent == world.findEntity("Off"));
    CHECK_FALSE(world.activeInHierarchy(child));
}
