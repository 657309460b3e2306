// UEngine.UComponent's Unity members (ScriptCore/src/UComponent.cs): GetComponent on a component
// finds the components of its entity (itself included) and none of another entity's, and name is
// its entity's. The C# runs in a real ScriptHost from a real mcs build.
#include "csharp_probe.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kHelpers = R"(
  public class Other : UMonoScriptComponent { }
  bool Self() { return GetComponent<UComponentProbe>() == this && GetComponent(typeof(UComponentProbe)) == this; }
  bool Sibling() {
    var other = gameObject.AddComponent<Other>();
    return other.GetComponent<UComponentProbe>() == this && GetComponent<Other>() == other;
  }
  bool NotElsewhere() {
    var elsewhere = new UEntity("Elsewhere");
    var far = elsewhere.AddComponent<Other>();
    return far.GetComponent<UComponentProbe>() == null && ReferenceEquals(far.gameObject, elsewhere);
  }
  bool Named() { gameObject.name = "Holder"; return name == "Holder"; }
  bool Renamed() { name = "Renamed"; return gameObject.name == "Renamed"; }
)";

} // namespace

TEST_CASE("UComponent: GetComponent finds its own entity's components, name is its entity's") {
    checkCases("UComponent",
               {
                   {"Self()", 1},
                   {"Sibling()", 1},
                   {"NotElsewhere()", 1},
                   {"Named()", 1},
                   {"Renamed()", 1},
               },
               kHelpers);
}
