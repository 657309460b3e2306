// NativeScripts: a game module's native script objects — made by their class's factory,
// fields read and written as the host's Values, messages run guarded (an exception switches
// one script off, a crash every script), snapshots typed like C# fields. No Mono needed.
#include "host/engine/native_scripts.hpp"

#include <doctest/doctest.h>
#include <stdexcept>

using namespace scripthost;
using game::NativeFieldType;

namespace {

/// A world of one entity, enough for a native script's transform().
class OneEntityWorld final : public game::GameWorld {
public:
    Transform transform_;
    [[nodiscard]] std::vector<ObjectId> entities() const override { return {kEntity}; }
    [[nodiscard]] ObjectId findEntity(std::string_view) const override { return kEntity; }
    [[nodiscard]] bool isAlive(ObjectId id) const override { return id == kEntity; }
    [[nodiscard]] std::string name(ObjectId) const override { return "E"; }
    [[nodiscard]] Transform* transform(ObjectId id) override {
        return id == kEntity ? &transform_ : nullptr;
    }
    [[nodiscard]] Transform worldTransform(ObjectId) const override { return transform_; }
    [[nodiscard]] ObjectId parent(ObjectId) const override { return {}; }
    [[nodiscard]] std::vector<ObjectId> children(ObjectId) const override { return {}; }
    Result<void> setParent(ObjectId, ObjectId, bool) override { return fail("no"); }
    [[nodiscard]] bool hasComponent(ObjectId, std::string_view) const override { return false; }
    [[nodiscard]] ObjectId entityOf(ObjectId id) const override { return id; }
    [[nodiscard]] std::vector<std::string> scriptClasses(ObjectId) const override { return {}; }
    ObjectId createEntity(std::string, const Transform&) override { return {}; }
    [[nodiscard]] Result<ObjectId> addComponent(ObjectId, std::string) override {
        return fail("no");
    }
    void destroy(ObjectId) override {}
    [[nodiscard]] float input(std::string_view) const override { return 0; }
    void setInput(std::string, float) override {}
    static constexpr ObjectId kEntity{1, 1};
};

int destroyed = 0;

struct Mover : game::NativeScript {
    float speed = 2;
    std::int32_t steps = 0;
    std::string label = "a";
    glm::vec3 direction{1, 0, 0};
    ObjectId target;
    bool throwInUpdate = false;
    bool crashInUpdate = false;
    void initialize() override { label = "initialized"; }
    void update(float dt) override {
        if (throwInUpdate)
            throw std::runtime_error("bad step");
        if (crashInUpdate) {
            volatile int* volatile nowhere = nullptr;
            *nowhere = 1;
        }
        ++steps;
        transform().position += direction * speed * dt;
    }
    void destroy() override { ++destroyed; }
};

std::vector<game::NativeScriptClassInfo> moverClass() {
    game::NativeScriptClass<Mover> c("Test.Mover");
    c.field("speed", &Mover::speed)
        .field("steps", &Mover::steps)
        .field("label", &Mover::label)
        .field("direction", &Mover::direction)
        .field("target", &Mover::target)
        .field("throwInUpdate", &Mover::throwInUpdate)
        .field("crashInUpdate", &Mover::crashInUpdate);
    std::vector<game::NativeScriptClassInfo> classes;
    classes.push_back(std::move(c).build());
    return classes;
}

bool foreignNever(void*) noexcept {
    return false;
}

} // namespace

TEST_CASE("NativeScripts: a native script's fields are the host's Values typed like C# fields "
          "and its messages run in order") {
    OneEntityWorld world;
    NativeScripts natives;
    natives.setClasses(moverClass(), world, {});
    const ObjectId slot{7, 1};
    REQUIRE(natives.create(slot, OneEntityWorld::kEntity, "Test.Mover"));
    CHECK_FALSE(natives.create(slot, OneEntityWorld::kEntity, "Test.Mover")); // one per slot
    CHECK_FALSE(natives.create(ObjectId{8, 1}, OneEntityWorld::kEntity, "Test.Nothing"));
    REQUIRE(natives.initialize(slot));
    CHECK(std::get<std::string>(*natives.getField(slot, "label")) == "initialized");

    REQUIRE(natives.setField(slot, "speed", Value(4.0f)));
    REQUIRE(natives.setField(slot, "steps", Value(std::int64_t{41})));
    REQUIRE(natives.setField(slot, "target", Value(ObjectRef{OneEntityWorld::kEntity})));
    // A value of the wrong type or out of range is refused and changes nothing.
    CHECK_FALSE(natives.setField(slot, "speed", Value(std::string("fast"))));
    CHECK_FALSE(natives.setField(slot, "steps", Value(std::int64_t{1} << 40)));
    CHECK_FALSE(natives.setField(slot, "nothing", Value(1.0f)));
    CHECK(std::get<float>(*natives.getField(slot, "speed")) == 4.0f);

    natives.update(0.5f);
    CHECK(std::get<std::int64_t>(*natives.getField(slot, "steps")) == 42);
    CHECK(world.transform_.position.x == doctest::Approx(2.0f));
    // A slot the filter holds back (ScriptHost: its entity is inactive) gets no message.
    std::vector<ObjectId> asked;
    const NativeScripts::RunsFilter inactive = [&](ObjectId s) {
        asked.push_back(s);
        return false;
    };
    natives.update(0.5f, inactive);
    natives.fixedUpdate(0.5f, inactive);
    CHECK(asked == std::vector<ObjectId>{slot, slot});
    CHECK(std::get<std::int64_t>(*natives.getField(slot, "steps")) == 42);
    CHECK(world.transform_.position.x == doctest::Approx(2.0f));

    auto snap = natives.snapshot(slot, OneEntityWorld::kEntity);
    REQUIRE(snap);
    CHECK(snap->className == "Test.Mover");
    REQUIRE(snap->fields.size() == 7);
    CHECK(snap->fields[0].type.typeName == "System.Single");
    CHECK(snap->fields[1].type.kind == ValueKind::Int32);
    CHECK(snap->fields[3].type.typeName == "UEngine.Vector3");
    CHECK(snap->fields[4].type.kind == ValueKind::ObjectRef);
    CHECK(std::get<ObjectRef>(snap->fields[4].value).id == OneEntityWorld::kEntity);
    // The shape migration and scenes use matches the snapshot's types.
    const ScriptClassInfo* shape = natives.shapeOf("Test.Mover");
    REQUIRE(shape != nullptr);
    CHECK(shape->fields[2].type.typeName == "System.String");

    destroyed = 0;
    natives.remove(slot, true);
    CHECK(destroyed == 1);
    CHECK_FALSE(natives.has(slot));
    CHECK_FALSE(natives.getField(slot, "speed"));
}

TEST_CASE("NativeScripts: an exception switches that script off and a crash switches every "
          "native script off and is reported") {
    NativeFaultGuard::install(&foreignNever);
    OneEntityWorld world;
    NativeScripts natives;
    std::string reported;
    natives.setClasses(moverClass(), world,
                       [&](const std::string& what, const NativeFault&) { reported = what; });
    std::vector<ScriptFailure> failures;
    natives.onFailure = [&](const ScriptFailure& f) { failures.push_back(f); };
    const ObjectId a{1, 2}, b{2, 2};
    REQUIRE(natives.create(a, OneEntityWorld::kEntity, "Test.Mover"));
    REQUIRE(natives.create(b, OneEntityWorld::kEntity, "Test.Mover"));
    REQUIRE(natives.setField(a, "throwInUpdate", Value(true)));
    natives.update(0.1f);
    natives.update(0.1f);
    CHECK(std::get<std::int64_t>(*natives.getField(a, "steps")) == 0); // switched off
    CHECK(std::get<std::int64_t>(*natives.getField(b, "steps")) == 2); // goes on
    CHECK(natives.crashed().empty());
    // Reported once, as a C# script's failure would be.
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].script == a);
    CHECK(failures[0].className == "Test.Mover");
    CHECK(failures[0].phase == ScriptPhase::Update);
    CHECK(failures[0].exceptionType == "C++ exception");
    CHECK(failures[0].message == "bad step");
    CHECK(failures[0].disabled);

    REQUIRE(natives.setField(b, "crashInUpdate", Value(true)));
    natives.update(0.1f);
    REQUIRE(failures.size() == 2);
    CHECK(failures[1].script == b);
    CHECK(failures[1].exceptionType == "native crash");
    CHECK(failures[1].message.find("SIGSEGV") != std::string::npos);
    CHECK(reported.find("Test.Mover") != std::string::npos);
    CHECK(reported.find("update") != std::string::npos);
    CHECK(natives.crashed().find("SIGSEGV") != std::string::npos);
    CHECK_FALSE(natives.create(ObjectId{3, 2}, OneEntityWorld::kEntity, "Test.Mover"));
    // A new build's classes switch them on again.
    natives.setClasses(moverClass(), world, {});
    CHECK(natives.crashed().empty());
    CHECK(natives.create(ObjectId{3, 2}, OneEntityWorld::kEntity, "Test.Mover"));
}
