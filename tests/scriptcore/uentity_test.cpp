// UEngine.UEntity's Unity members (ScriptCore/src/UEntity.cs): tag, CompareTag, FindWithTag and
// FindGameObjectsWithTag (active entities only, in creation order), SetActive with activeSelf and
// activeInHierarchy. The C# runs in a real ScriptHost from a real mcs build; what the entities'
// native flags became is checked in the host's World.
#include "csharp_probe.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kHelpers = R"(
  bool Tagged() { gameObject.tag = "Player"; return gameObject.CompareTag("Player") && tag == "Player" && CompareTag("Player") && !CompareTag("Enemy"); }
  bool Untagged() { var e = new UEntity("Plain"); return e.tag == "Untagged" && e.CompareTag("Untagged"); }
  bool RetaggedUntagged() { var e = new UEntity("Back"); e.tag = "Enemy"; e.tag = "Untagged"; return e.tag == "Untagged" && UEntity.FindWithTag("Untagged") != null; }
  bool FindsActiveOnes() {
    var a = new UEntity("A"); a.tag = "Enemy";
    var b = new UEntity("B"); b.tag = "Enemy";
    var c = new UEntity("C"); c.tag = "Enemy";
    b.SetActive(false);
    UEntity[] all = UEntity.FindGameObjectsWithTag("Enemy");
    return all.Length == 2 && ReferenceEquals(all[0], a) && ReferenceEquals(all[1], c)
        && ReferenceEquals(UEntity.FindWithTag("Enemy"), a) && ReferenceEquals(UEntity.FindGameObjectWithTag("Enemy"), a);
  }
  bool NoneFound() { return UEntity.FindWithTag("Nobody") == null && UEntity.FindGameObjectsWithTag("Nobody").Length == 0; }
  bool ActiveFlags() {
    var e = new UEntity("Flags");
    bool on = e.activeSelf && e.activeInHierarchy;
    e.SetActive(false);
    bool off = !e.activeSelf && !e.activeInHierarchy;
    e.SetActive(false);
    bool still = !e.activeSelf;
    e.SetActive(true);
    return on && off && still && e.activeSelf;
  }
  bool NullTagRefused() { try { gameObject.tag = null; return false; } catch (System.ArgumentNullException) { return true; } }
  bool NullFindRefused() { try { UEntity.FindWithTag(null); return false; } catch (System.ArgumentNullException) { return true; } }
)";

} // namespace

TEST_CASE("UEntity: tag and CompareTag, FindWithTag finds active entities in creation order, "
          "SetActive sets activeSelf") {
    checkCases("UEntity",
               {
                   {"Tagged()", 1},
                   {"Untagged()", 1},
                   {"RetaggedUntagged()", 1},
                   {"FindsActiveOnes()", 1},
                   {"NoneFound()", 1},
                   {"ActiveFlags()", 1},
                   {"NullTagRefused()", 1},
                   {"NullFindRefused()", 1},
               },
               kHelpers);
}

TEST_CASE(
    "UEntity: AddComponent of a script first adds the components its [RequireComponent] names "
    "that the entity lacks, and a cycle of requirements ends") {
    checkCases("Require",
               {
                   {"AddsRequired()", 1},
                   {"KeepsPresent()", 1},
                   {"CycleEnds()", 1},
               },
               R"(
  public class Needed : UMonoScriptComponent { public static int made; void Awake() { made++; } }
  [RequireComponent(typeof(Needed))] public class Needy : UMonoScriptComponent { }
  [RequireComponent(typeof(CycleB))] public class CycleA : UMonoScriptComponent { }
  [RequireComponent(typeof(CycleA))] public class CycleB : UMonoScriptComponent { }
  bool AddsRequired() {
    var e = new UEntity("Needs");
    var needy = e.AddComponent<Needy>();
    return needy != null && e.GetComponent<Needed>() != null && Needed.made == 1;
  }
  bool KeepsPresent() {
    var e = new UEntity("Has");
    e.AddComponent<Needed>();
    e.AddComponent<Needy>();
    return Needed.made == 2; // the one it had, not a second
  }
  bool CycleEnds() {
    var e = new UEntity("Cycle");
    e.AddComponent<CycleA>();
    return e.GetComponent<CycleA>() != null && e.GetComponent<CycleB>() != null;
  }
)");
}
