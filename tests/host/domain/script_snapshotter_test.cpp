// The snapshotter: live scripts and [PreserveStatic] statics read into a Snapshot (what a reload
// and ScriptHost::snapshot carry), with the fields a reload cannot carry named once each. A real
// mcs build on the real runtime.
#include "../support/mono_test_support.hpp"
#include "host/domain/script_domain.hpp"
#include "host/domain/script_snapshotter.hpp"

#include <algorithm>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kScripts = R"(using UEngine;
using System.Collections.Generic;
public class Saved : UMonoScriptComponent {
  [SerializeField] public int count = 3;
  [SerializeField] public string label = "first";
  [SerializeField] Dictionary<string, int> table = new Dictionary<string, int>();
  int notSerialized = 9;
}
public class Tally : UMonoScriptComponent {
  [PreserveStatic] static int total;
  [PreserveStatic] static string last = "none";
  static int forgotten = 4;
  static Tally() { total = 42; }
}
)";

const FieldSnapshot* fieldNamed(const std::vector<FieldSnapshot>& fields, const std::string& name) {
    auto it = std::find_if(fields.begin(), fields.end(),
                           [&](const FieldSnapshot& f) { return f.name == name; });
    return it == fields.end() ? nullptr : &*it;
}

} // namespace

TEST_CASE("Snapshotter: a script's serialized fields are read with their current values, and a "
          "field a reload cannot carry is named once for its class") {
    TempDir dir("snapshotter");
    auto host = makeHostFrom(compileScripts(dir, "Snap.dll", {{"Saved.cs", kScripts}}));
    const ObjectId first = spawnScript(*host, "Saved");
    const ObjectId second = spawnScript(*host, "Saved");
    REQUIRE(host->setField(second, "count", std::int64_t{11}));

    Snapshot snap;
    for (ObjectId slot : {first, second}) {
        const ObjectId entity = host->world().script(slot)->entity;
        REQUIRE(snapshotScript(*host->domain(), slot, entity, "Saved", snap));
    }
    REQUIRE(snap.scripts.size() == 2);
    CHECK(snap.scripts[0].script == first);
    CHECK(snap.scripts[0].entity == host->world().script(first)->entity);
    CHECK(snap.scripts[0].className == "Saved");
    const FieldSnapshot* count = fieldNamed(snap.scripts[1].fields, "count");
    REQUIRE(count != nullptr);
    CHECK(std::get<std::int64_t>(count->value) == 11);
    const FieldSnapshot* label = fieldNamed(snap.scripts[0].fields, "label");
    REQUIRE(label != nullptr);
    CHECK(std::get<std::string>(label->value) == "first");
    CHECK(fieldNamed(snap.scripts[0].fields, "notSerialized") == nullptr);
    CHECK(fieldNamed(snap.scripts[0].fields, "table") == nullptr);
    // Two instances, one class: named once.
    REQUIRE(snap.notCarried.size() == 1);
    CHECK(snap.notCarried[0].rfind("Saved.table", 0) == 0);
}

TEST_CASE("Snapshotter: a slot that is not a live script is an error and adds nothing") {
    TempDir dir("snapshotter-gone");
    auto host = makeHostFrom(compileScripts(dir, "Snap.dll", {{"Saved.cs", kScripts}}));
    const ObjectId slot = spawnScript(*host, "Saved");
    const ObjectId entity = host->world().script(slot)->entity;
    REQUIRE(host->removeScript(slot));
    Snapshot snap;
    CHECK_FALSE(snapshotScript(*host->domain(), slot, entity, "Saved", snap));
    CHECK(snap.scripts.empty());
}

TEST_CASE("Snapshotter: [PreserveStatic] fields are read after the class's static constructor "
          "ran, other statics and classes without any are left out") {
    TempDir dir("snapshotter-statics");
    auto host = makeHostFrom(compileScripts(dir, "Snap.dll", {{"Saved.cs", kScripts}}));
    Snapshot snap;
    REQUIRE(snapshotStatics(*host->domain(), snap));
    REQUIRE(snap.statics.size() == 1); // Tally only: Saved has none
    CHECK(snap.statics[0].className == "Tally");
    const FieldSnapshot* total = fieldNamed(snap.statics[0].fields, "total");
    REQUIRE(total != nullptr);
    CHECK(std::get<std::int64_t>(total->value) == 42); // no instance ever made: the cctor ran
    const FieldSnapshot* last = fieldNamed(snap.statics[0].fields, "last");
    REQUIRE(last != nullptr);
    CHECK(std::get<std::string>(last->value) == "none");
    CHECK(fieldNamed(snap.statics[0].fields, "forgotten") == nullptr);
}

TEST_CASE("Snapshotter: noteNotCarried keeps each class field once, in the order first seen") {
    std::vector<std::string> notCarried;
    noteNotCarried(notCarried, "A", "x (Dictionary)");
    noteNotCarried(notCarried, "B", "x (Dictionary)");
    noteNotCarried(notCarried, "A", "x (Dictionary)");
    CHECK(notCarried == std::vector<std::string>{"A.x (Dictionary)", "B.x (Dictionary)"});
}
