// ScriptCore/src/Attributes/: Unity's inspector attributes ([Header], [Tooltip], [Range], [Space],
// [TextArea]) compile on a script's fields and change nothing in how they are saved: a real mcs
// build, a real ScriptHost, the fields read and written through the host. [RequireComponent] is
// tested with UEntity.AddComponent (uentity_test.cpp).
#include "../host/support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

const std::string kDecorated = R"(using UEngine;
public class Decorated : UMonoScriptComponent {
  [Header("Movement")]
  [Tooltip("Metres per second")]
  [Range(0f, 10f)]
  public float speed = 4f;
  [Space] [Space(20)] public int lives = 3;
  [TextArea] public string notes = "a";
  [TextArea(2, 5)] [SerializeField] string more = "b";
  [HideInInspector] public float hidden = 1f;
}
)";

} // namespace

TEST_CASE("Attributes: Unity's inspector attributes compile and leave fields saved as before, and "
          "[Range] does not clamp what a scene sets") {
    TempDir dir("attributes");
    auto host = makeHostFrom(compileScripts(dir, "Decorated.dll", {{"Decorated.cs", kDecorated}}));
    const ObjectId s = spawnScript(*host, "Decorated", json{{"speed", 25.0}, {"more", "set"}});
    CHECK(fieldOf<float>(*host, s, "speed") == 25.0f); // outside [0, 10]: kept, as in Unity
    CHECK(fieldOf<std::int64_t>(*host, s, "lives") == 3);
    CHECK(fieldOf<std::string>(*host, s, "notes") == "a");
    CHECK(fieldOf<std::string>(*host, s, "more") == "set");
    REQUIRE(host->setField(s, "lives", Value{std::int64_t{5}}));
    CHECK(fieldOf<std::int64_t>(*host, s, "lives") == 5);
}
