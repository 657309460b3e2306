// UEngine.UObject's Unity equality (ScriptCore/src/UObject.cs): a destroyed entity, component
// or script compares equal to null, converts to false, and reads as null through the host, while
// ReferenceEquals still sees the object. A real ScriptHost from a real mcs build; the destruction
// happens at the end of a frame, so the script looks before and after.
#include "csharp_probe.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

const std::string kHolder = R"(using UEngine;
public class Other : UMonoScriptComponent { }
public class Holder : UMonoScriptComponent {
  public UEntity target;
  public Other other;
  [SerializeField] public string seen = "";
  int frame;
  public override void Update(float dt) {
    frame++;
    if (frame == 1) { seen = Look(); UObject.Destroy(target); seen += " " + Look(); }
    else if (frame == 2) seen += " " + Look();
  }
  // target == null, target != null, (bool)target, other == null, ReferenceEquals(target, null),
  // target.Equals(null), target == other (both gone: equal), this == this
  string Look() {
    UObject a = target, b = other;
    return B(target == null) + B(target != null) + B(target) + B(other == null) +
           B(ReferenceEquals(target, null)) + B(target.Equals(null)) + B(a == b) + B(this == this);
  }
  static string B(bool v) { return v ? "1" : "0"; }
})";

} // namespace

TEST_CASE("UObject: a destroyed entity and the scripts on it compare equal to null and convert to "
          "false, a live one does not") {
    TempDir dir("uobject-null");
    auto host = makeHostFrom(compileScripts(dir, "Holder.dll", {{"Holder.cs", kHolder}}));
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "Target", "scripts": ["Other"]},
        {"name": "Keeper", "scripts": [{"class": "Holder", "fields": {
            "target": {"entity": "Target"}, "other": {"entity": "Target", "script": "Other"}}}]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    const ObjectId holder = host->world().entity(host->world().findEntity("Keeper"))->scripts.at(0);
    const ObjectId target = host->world().findEntity("Target");
    host->tick(0.016); // looks, destroys at the end of the frame
    CHECK_FALSE(host->world().isAlive(target));
    // Within the frame it asked, the target still existed.
    CHECK(fieldOf<std::string>(*host, holder, "seen") == "01100001 01100001");
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, holder, "seen") == "01100001 01100001 10010111");
    // Read through the host, the fields are null too.
    CHECK(host->getField(holder, "target").value() == Value{ObjectRef{}});
    CHECK(host->getField(holder, "other").value() == Value{ObjectRef{}});
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("UObject: FindObjectOfType and FindObjectsOfType find scripts on active entities in the "
          "order added, and refuse a type that is not a script") {
    checkCases("FindObjects",
               {
                   {"FindsActive()", 1},
                   {"NoneFound()", 1},
                   {"RefusesEntities()", 1},
               },
               R"(
  public class Findable : UMonoScriptComponent { }
  public class Unused : UMonoScriptComponent { }
  bool FindsActive() {
    var a = new UEntity("A").AddComponent<Findable>();
    var b = new UEntity("B").AddComponent<Findable>();
    var c = new UEntity("C").AddComponent<Findable>();
    a.gameObject.SetActive(false);
    Findable[] all = FindObjectsOfType<Findable>();
    return ReferenceEquals(FindObjectOfType<Findable>(), b) && all.Length == 2
        && ReferenceEquals(all[0], b) && ReferenceEquals(all[1], c)
        && ReferenceEquals(FindObjectOfType(typeof(FindObjectsProbe)), this);
  }
  bool NoneFound() { return ReferenceEquals(FindObjectOfType<Unused>(), null) && FindObjectsOfType<Unused>().Length == 0; }
  bool RefusesEntities() {
    try { FindObjectOfType<UEntity>(); return false; }
    catch (System.ArgumentException e) { return e.Message.Contains("not a script class"); }
  }
)");
}
