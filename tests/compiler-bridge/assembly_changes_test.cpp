// assembliesChanged and assembliesToRebuild: what a change to the script folders rebuilds, over
// real temp folders.
#include "compiler_bridge/assembly_layout.hpp"
#include "compiler_test_support.hpp"
#include "layout_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using namespace scripthost::testing::layout;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;
namespace fs = std::filesystem;

TEST_CASE("assembly layout rebuild: without a previous layout, every assembly") {
    Project p;
    const AssemblyLayout layout = layoutOf({p.root});
    CHECK(assembliesToRebuild(nullptr, layout, {}) == names(layout));
}

TEST_CASE("assembly layout rebuild: nothing changed, nothing to build") {
    Project p;
    const AssemblyLayout before = layoutOf({p.root});
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {}).empty());
}

TEST_CASE("assembly layout rebuild: a leaf edit rebuilds the leaf") {
    Project p;
    const AssemblyLayout before = layoutOf({p.root});
    source(p.root / "Util" / "Strings.cs");
    // Util is referenced only by the default assembly (Util is auto-referenced).
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {p.root / "Util" / "Strings.cs"}) ==
          Names{"Util", "Scripts"});
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {p.root / "Main.cs"}) ==
          Names{"Scripts"});
    // Without the default assembly, Ui and Util are leaves.
    fs::remove(p.root / "Main.cs");
    fs::remove_all(p.root / "Enemies");
    const AssemblyLayout noDefault = layoutOf({p.root});
    CHECK(assembliesToRebuild(&noDefault, layoutOf({p.root}), {p.root / "Ui" / "Hud.cs"}) ==
          Names{"Ui"});
    CHECK(assembliesToRebuild(&noDefault, layoutOf({p.root}), {p.root / "Util" / "Strings.cs"}) ==
          Names{"Util"});
}

TEST_CASE("assembly layout rebuild: a core edit rebuilds the core and every dependent in order, "
          "of which the core alone changed") {
    Project p;
    const AssemblyLayout before = layoutOf({p.root});
    const Names expected{"Core", "Game", "Ui", "Util", "Scripts"};
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {p.root / "Core" / "Sub" / "Log.cs"}) ==
          expected);
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {p.root / "Game" / "Player.cs"}) ==
          Names{"Game", "Ui", "Scripts"});
    // What changed itself: the set build decides about the dependents (their references'
    // interfaces may be unchanged).
    CHECK(assembliesChanged(&before, layoutOf({p.root}), {p.root / "Core" / "Sub" / "Log.cs"}) ==
          Names{"Core"});
    CHECK(assembliesChanged(&before, layoutOf({p.root}),
                            {p.root / "Game" / "Player.cs", p.root / "Core" / "Math.cs"}) ==
          Names{"Core", "Game"});
    CHECK(assembliesChanged(nullptr, layoutOf({p.root}), {}) == expected);
}

TEST_CASE("assembly layout rebuild: a source added or removed rebuilds its assembly") {
    Project p;
    const AssemblyLayout before = layoutOf({p.root});
    source(p.root / "Ui" / "Menu.cs");
    const AssemblyLayout added = layoutOf({p.root});
    // Even without the file in the list: the source list differs.
    CHECK(assembliesToRebuild(&before, added, {}) == Names{"Ui", "Scripts"});
    fs::remove(p.root / "Core" / "Math.cs");
    const AssemblyLayout removed = layoutOf({p.root});
    CHECK(assembliesToRebuild(&added, removed, {p.root / "Core" / "Math.cs"}) ==
          Names{"Core", "Game", "Ui", "Util", "Scripts"});
}

TEST_CASE("assembly layout rebuild: an edited .asmdef or .meta rebuilds its assembly") {
    Project p;
    const AssemblyLayout before = layoutOf({p.root});
    // The same text written again: the change is still the assembly's.
    const fs::path ui = asmdef(p.root / "Ui", "Ui", ",\n  \"references\": [\"Game\", \"Core\"]");
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {ui}) == Names{"Ui", "Scripts"});
    fs::path utilMeta = p.root / "Util" / "Util.asmdef.meta";
    meta(p.root / "Util" / "Util.asmdef", "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {utilMeta}) == Names{"Util", "Scripts"});
    // A flag changed: found by comparing, without the file in the list.
    asmdef(p.root / "Util", "Util", ",\n  \"references\": [\"Core\"], \"allowUnsafeCode\": true");
    CHECK(assembliesToRebuild(&before, layoutOf({p.root}), {}) == Names{"Util", "Scripts"});
}

TEST_CASE("assembly layout rebuild: a file moved between assemblies rebuilds both") {
    Project p;
    const AssemblyLayout before = layoutOf({p.root});
    fs::rename(p.root / "Util" / "Strings.cs", p.root / "Game" / "Strings.cs");
    source(p.root / "Util" / "Keep.cs"); // Util still has a source
    const AssemblyLayout after = layoutOf({p.root});
    CHECK(assembliesToRebuild(&before, after,
                              {p.root / "Util" / "Strings.cs", p.root / "Game" / "Strings.cs"}) ==
          Names{"Game", "Ui", "Util", "Scripts"});
}

TEST_CASE("assembly layout rebuild: a touched .asmref rebuilds the assembly it joins") {
    TempDir dir("asm-rebuild-asmref");
    asmdef(dir / "Core", "Core");
    source(dir / "Core" / "A.cs");
    asmdef(dir / "Game", "Game");
    source(dir / "Game" / "G.cs");
    const fs::path asmref = dir / "Extra" / "Extra.asmref";
    writeFile(asmref, R"({"reference": "Core"})");
    source(dir / "Extra" / "B.cs");
    const AssemblyLayout before = layoutOf({dir.path()});
    CHECK(assembliesToRebuild(&before, layoutOf({dir.path()}), {asmref}) == Names{"Core"});
    // Pointed at Game: both lose or gain a source.
    writeFile(asmref, R"({"reference": "Game"})");
    CHECK(assembliesToRebuild(&before, layoutOf({dir.path()}), {asmref}) == Names{"Core", "Game"});
}

TEST_CASE("assembly layout rebuild: a changed plugin rebuilds the assemblies that reference it") {
    Project p;
    const fs::path tween = p.root / "Plugins" / "Tween.dll";
    plugin(tween);
    // Core overrides its references and lists none: it does not see Tween.
    asmdef(p.root / "Core", "Core", ",\n  \"autoReferenced\": false, \"overrideReferences\": true");
    const AssemblyLayout before = layoutOf({p.root});
    plugin(tween); // a new build: the same bytes, written again
    const Names seeTween{"Game", "Ui", "Util", "Scripts"};
    CHECK(assembliesChanged(&before, layoutOf({p.root}), {tween}) == seeTween);
    CHECK(
        assembliesChanged(&before, layoutOf({p.root}), {p.root / "Plugins" / "Other.dll"}).empty());
    // Auto Reference turned off in its .meta: no assembly sees it any more, each changed.
    fs::path tweenMeta = tween;
    tweenMeta += ".meta";
    writeFile(tweenMeta, "PluginImporter:\n  isExplicitlyReferenced: 1\n");
    const AssemblyLayout hidden = layoutOf({p.root});
    CHECK(hidden.find("Game")->precompiledReferences.empty());
    CHECK(assembliesChanged(&before, hidden, {tweenMeta}) == seeTween);
    // Deleted: those that referenced it in the previous layout.
    fs::remove(tween);
    fs::remove(tweenMeta);
    CHECK(assembliesChanged(&before, layoutOf({p.root}), {tween}) == seeTween);
}

TEST_CASE("assembly layout rebuild: a changed plugin rebuilds the assemblies built against it "
          "through another (mcs is given the plugins of every assembly referenced)") {
    Project p;
    const fs::path tween = p.root / "Plugins" / "Tween.dll";
    plugin(tween);
    // Core alone sees Tween; Game and Ui see no plugin, but reference Core.
    asmdef(p.root / "Core", "Core",
           ",\n  \"autoReferenced\": false, \"overrideReferences\": true, "
           "\"precompiledReferences\": [\"Tween.dll\"]");
    asmdef(p.root / "Game", "Game",
           ",\n  \"references\": [\"Core\"], \"overrideReferences\": true");
    asmdef(p.root / "Ui", "Ui",
           ",\n  \"references\": [\"Game\", \"Core\"], \"overrideReferences\": true");
    const AssemblyLayout before = layoutOf({p.root});
    REQUIRE(before.find("Game")->precompiledReferences.empty());
    CHECK(assembliesChanged(&before, layoutOf({p.root}), {tween}) ==
          Names{"Core", "Game", "Ui", "Util", "Scripts"});
}
