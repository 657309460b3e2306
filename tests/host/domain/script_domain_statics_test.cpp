// ScriptDomain's statics: a reload starts static fields afresh, except those marked
// [PreserveStatic], whose values the next generation gets. Real mcs builds, the real runtime.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("Reload: static fields reset unless [PreserveStatic]") {
    TempDir dir("reload-static");
    const std::string src =
        "using UEngine;\npublic class S : UMonoScriptComponent {\n"
        "  public static int plain = 1; [PreserveStatic] public static int kept = 1;\n"
        "  [PreserveStatic] static string name = \"start\";\n"
        "  [SerializeField] int seenPlain; [SerializeField] int seenKept; [SerializeField] string "
        "seenName;\n"
        "  public override void Update(float dt) { plain++; kept++; name += \"+\"; seenPlain = "
        "plain; seenKept = kept; seenName = name; } }\n";
    auto v1 = compileScripts(dir, "gen1.dll", {{"S.cs", src}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"S.cs", src + "// v2\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId s = spawnScript(*host, "S");
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "seenKept") == 4);
    reloadOk(*host, v2);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "seenPlain") == 2); // reset to 1, then ++
    CHECK(fieldOf<std::int64_t>(*host, s, "seenKept") == 5);  // carried
    CHECK(fieldOf<std::string>(*host, s, "seenName") == "start++++");
}
