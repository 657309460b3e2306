// ScriptDomain's direct carry: a class's plan worked out once per class against the generation it
// replaces (direct only when the fields line up), and carryFields copying an instance's values
// straight from the old generation's instance into the new one's — numbers, strings, vectors and
// references, a reference the caller rejects cleared and counted. Two ScriptDomains made directly
// on the real runtime from real mcs builds.
#include "../../support/bare_domain.hpp"
#include "host/domain/script_domain.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

std::string carrier(const std::string& extra) {
    return "using UEngine;\n"
           "public class Carrier : UMonoScriptComponent {\n"
           "  [SerializeField] public int count = 1;\n"
           "  [SerializeField] public string label = \"start\";\n"
           "  [SerializeField] public Vector3 where;\n"
           "  [SerializeField] public UEntity target;\n"
           "  [SerializeField] public UEntity other;\n" +
           extra + "}\n";
}

struct TwoGenerations {
    BareDomainWorld t;
    TempDir dir{"domain-carry"};
    std::unique_ptr<ScriptDomain> old;
    std::unique_ptr<ScriptDomain> next;
    ObjectId slot;

    TwoGenerations(const std::string& oldExtra, const std::string& newExtra) {
        const AssemblyFile v1 = compileScripts(dir, "gen1.dll", {{"C.cs", carrier(oldExtra)}});
        const AssemblyFile v2 = compileScripts(dir, "gen2.dll", {{"C.cs", carrier(newExtra)}});
        old = t.domain(1, &v1);
        next = t.domain(2, &v2);
        slot = t.slot("Carrier");
        REQUIRE(old->instantiate(slot, t.entityOf(slot), "Carrier"));
        REQUIRE(next->instantiate(slot, t.entityOf(slot), "Carrier"));
    }
};

} // namespace

TEST_CASE("ScriptDomain carry: fields that line up are carried directly, values and references "
          "alike, and an added field keeps its default") {
    TwoGenerations g("", "  [SerializeField] public int added = 9;\n");
    const ObjectId target = g.t.world.createEntity("Target");
    const ObjectId other = g.t.world.createEntity("Other");
    REQUIRE(g.old->setField(g.slot, "count", std::int64_t{42}));
    REQUIRE(g.old->setField(g.slot, "label", std::string("carried")));
    REQUIRE(g.old->setField(g.slot, "where", glm::vec3(1.5F, -2.0F, 3.25F)));
    REQUIRE(g.old->setField(g.slot, "target", ObjectRef{target}));
    REQUIRE(g.old->setField(g.slot, "other", ObjectRef{other}));

    const FieldCarryPlan& plan = g.next->carryPlan(*g.old, "Carrier");
    CHECK(plan.className == "Carrier");
    REQUIRE(plan.direct);
    REQUIRE(plan.added.size() == 1);
    CHECK(&g.next->carryPlan(*g.old, "Carrier") == &plan); // worked out once
    std::vector<ClearedRefs> cleared;
    REQUIRE(g.next->carryFields(*g.old, g.slot, plan,
                                [&](ObjectId id) { return id != other; }, cleared));
    CHECK(std::get<std::int64_t>(*g.next->getField(g.slot, "count")) == 42);
    CHECK(std::get<std::string>(*g.next->getField(g.slot, "label")) == "carried");
    const glm::vec3 where = std::get<glm::vec3>(*g.next->getField(g.slot, "where"));
    CHECK(where.x == doctest::Approx(1.5));
    CHECK(where.z == doctest::Approx(3.25));
    CHECK(std::get<ObjectRef>(*g.next->getField(g.slot, "target")).id == target);
    // Rejected by the caller: null here, and counted.
    CHECK(std::get<ObjectRef>(*g.next->getField(g.slot, "other")).id.isNull());
    REQUIRE(cleared.size() == 1);
    CHECK(cleared[0].count == 1);
    CHECK(std::get<std::int64_t>(*g.next->getField(g.slot, "added")) == 9);
    // The old instance is only read.
    CHECK(std::get<std::int64_t>(*g.old->getField(g.slot, "count")) == 42);
}

TEST_CASE("ScriptDomain carry: a field whose type changed makes the plan not direct, and "
          "carryFields refuses a plan that is not") {
    TwoGenerations g("  [SerializeField] public int level = 3;\n",
                     "  [SerializeField] public float level = 3f;\n");
    const FieldCarryPlan& plan = g.next->carryPlan(*g.old, "Carrier");
    CHECK_FALSE(plan.direct);
    std::vector<ClearedRefs> cleared;
    auto refused = g.next->carryFields(*g.old, g.slot, plan, [](ObjectId) { return true; },
                                       cleared);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("no direct carry plan for Carrier") != std::string::npos);
}

TEST_CASE("ScriptDomain carry: a slot without an instance in the old generation is an error") {
    TwoGenerations g("", "");
    const ObjectId fresh = g.t.slot("Carrier");
    REQUIRE(g.next->instantiate(fresh, g.t.entityOf(fresh), "Carrier"));
    const FieldCarryPlan& plan = g.next->carryPlan(*g.old, "Carrier");
    REQUIRE(plan.direct);
    std::vector<ClearedRefs> cleared;
    auto missing = g.next->carryFields(*g.old, fresh, plan, [](ObjectId) { return true; },
                                       cleared);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("no script instance") != std::string::npos);
}
