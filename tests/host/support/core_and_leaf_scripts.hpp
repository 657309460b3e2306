#pragma once
// Two scripts assemblies for the tests of assemblies by folder: Core (Game.Health, Game.Rules)
// and Leaf (Game.Player, which calls Rules and refers to a Health), built with the real mcs.

#include "mono_test_support.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace scripthost::testing {

inline constexpr const char* kCoreHealth = R"(using UEngine;
namespace Game {
public class Health : UMonoScriptComponent {
  public int hp = 10;
}
public static class Rules {
  public static int Twice(int x) { return 2 * x; }
}
})";

inline constexpr const char* kLeafPlayer = R"(using UEngine;
namespace Game {
public class Player : UMonoScriptComponent {
  public int score = 1;
  public Health target;
  public override void Update(float dt) { score = Rules.Twice(score); if (target != null) target.hp--; }
}
})";

/// Core and Leaf built against it, in `dir`/`tag` (each build's Core is named Core.dll);
/// `reuseCore`: Leaf is built against that Core, which is returned as it is.
inline std::vector<AssemblyFile> coreAndLeaf(const TempDir& dir, const std::string& tag,
                                             const AssemblyFile* reuseCore = nullptr) {
    std::filesystem::create_directories(dir / tag);
    AssemblyFile core = reuseCore != nullptr
                            ? *reuseCore
                            : compileScripts(dir, tag + "/Core.dll", {{"Health.cs", kCoreHealth}});
    AssemblyFile leaf =
        compileScripts(dir, tag + "/Leaf.dll", {{"Player.cs", kLeafPlayer}}, {core.path});
    return {std::move(core), std::move(leaf)};
}

} // namespace scripthost::testing
