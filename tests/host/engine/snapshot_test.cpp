// Snapshots as scenes: the world saved to JSON loads into another host with every value
// and reference intact; reload reports as JSON.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE(
    "saveScene: a snapshot written to JSON loads as a scene, ids remapped, references intact") {
    auto first = makeHost();
    auto second = makeHost(); // a second host (own world, own generation) in the same process
    const ObjectId filler =
        second->world().createEntity("Filler"); // shifts ids in the second world
    (void)filler;

    const ObjectId alpha = first->world().createEntity("Alpha");
    const ObjectId camera = *first->world().addComponent(alpha, "Camera");
    const ObjectId echo = spawnScript(*first, "Tests.MarshalEcho");
    const ObjectId counter = spawnScript(*first, "Tests.Counter", json{{"step", 5}});
    REQUIRE(first->setField(echo, "entityIn", ObjectRef{alpha}));
    REQUIRE(first->setField(echo, "cameraIn", ObjectRef{camera}));
    REQUIRE(first->setField(echo, "counterIn", ObjectRef{counter}));
    REQUIRE(first->setField(echo, "textIn", std::string("saved ✓")));
    REQUIRE(first->setField(echo, "intsIn", ValueList{std::int64_t{3}, std::int64_t{-1}}));
    first->world().entity(alpha)->transform.position = {1, 2, 3};

    auto saved = first->saveScene();
    REQUIRE_MESSAGE(saved, (saved ? "" : saved.error().message));
    const std::string text = saved->toJson().dump(2);
    auto parsed = Scene::fromJson(json::parse(text));
    REQUIRE_MESSAGE(parsed, (parsed ? "" : parsed.error().message));
    auto made = second->instantiate(*parsed);
    REQUIRE_MESSAGE(made, (made ? "" : made.error().message));

    const ObjectId alpha2 = second->world().findEntity("Alpha");
    REQUIRE_FALSE(alpha2.isNull());
    CHECK(alpha2 != alpha); // new ids…
    CHECK(second->world().entity(alpha2)->transform.position == glm::vec3(1, 2, 3));
    const ObjectId echo2 = second->world()
                               .entity(second->world().findEntity("Tests.MarshalEchoEntity"))
                               ->scripts.at(0);
    const ObjectId counter2 =
        second->world().entity(second->world().findEntity("Tests.CounterEntity"))->scripts.at(0);
    // …and every reference points at the new objects.
    CHECK(fieldOf<ObjectRef>(*second, echo2, "entityIn").id == alpha2);
    CHECK(fieldOf<ObjectRef>(*second, echo2, "cameraIn").id ==
          second->world().entity(alpha2)->components.at(0));
    CHECK(fieldOf<ObjectRef>(*second, echo2, "counterIn").id == counter2);
    CHECK(fieldOf<std::string>(*second, echo2, "textIn") == "saved ✓");
    CHECK(fieldOf<ValueList>(*second, echo2, "intsIn") ==
          ValueList{std::int64_t{3}, std::int64_t{-1}});
    CHECK(fieldOf<std::int64_t>(*second, counter2, "step") == 5);
    second->tick(0.016);
    CHECK(fieldOf<std::string>(*second, echo2, "entityName") == "Alpha");
    CHECK(second->scriptFailureCount() == 0);
}

TEST_CASE("saveScene: a parked script is saved with its values and stays parked when loaded") {
    TempDir dir("snapshot-parked");
    const std::string gone =
        "using UEngine;\npublic class Gone : UMonoScriptComponent { [SerializeField] int secret;\n"
        "  [SerializeField] string words; }\n";
    const std::string other = "using UEngine;\npublic class Other : UMonoScriptComponent { }\n";
    auto v1 = compileScripts(dir, "gen1.dll", {{"Gone.cs", gone}, {"Other.cs", other}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Other.cs", other}});
    auto host = makeHostFrom(v1);
    const ObjectId g = spawnScript(*host, "Gone", json{{"secret", 99}, {"words", "kept"}});
    reloadOk(*host, v2);
    REQUIRE(host->world().script(g)->parked);
    auto saved = host->saveScene();
    REQUIRE(saved);
    const json j = saved->toJson();
    CHECK(j["entities"][0]["scripts"][0]["parked"] == true);
    CHECK(j["entities"][0]["scripts"][0]["fields"]["secret"] == 99);

    auto other2 = makeHostFrom(v2);
    auto parsed = Scene::fromJson(j);
    REQUIRE_MESSAGE(parsed, (parsed ? "" : parsed.error().message));
    auto made = other2->instantiate(*parsed);
    REQUIRE_MESSAGE(made, (made ? "" : made.error().message));
    const ObjectId g2 =
        other2->world().entity(other2->world().findEntity("GoneEntity"))->scripts.at(0);
    CHECK(other2->world().script(g2)->parked);
    REQUIRE(other2->parkedScript(g2) != nullptr);
    // When the class comes back, the values do too (saved as int64, converted to int32).
    auto back = reloadOk(*other2, v1);
    CHECK(back.created == 1);
    CHECK(fieldOf<std::int64_t>(*other2, g2, "secret") == 99);
    CHECK(fieldOf<std::string>(*other2, g2, "words") == "kept");
}

TEST_CASE("ReloadReport: describe() and toJson() carry the outcome, timings and field events") {
    TempDir dir("report-json");
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"A.cs", "using UEngine;\npublic class A : UMonoScriptComponent { "
                                       "[SerializeField] int n = 3; }\n"}});
    auto v2 =
        compileScripts(dir, "gen2.dll",
                       {{"A.cs", "using UEngine;\npublic class A : UMonoScriptComponent { "
                                 "[SerializeField] float n; [SerializeField] int extra; }\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId a = spawnScript(*host, "A");
    const ReloadReport report = reloadOk(*host, v2);
    const json j = report.toJson();
    CHECK(j["success"] == true);
    CHECK(j["fromGeneration"] == 1);
    CHECK(j["toGeneration"] == 2);
    CHECK(j["restored"] == 1);
    CHECK(j["timings"]["totalMs"].get<double>() > 0);
    CHECK(j["timings"]["totalMs"].get<double>() >= j["timings"]["loadMs"].get<double>());
    REQUIRE(j["fields"].size() == 2);
    CHECK(j["fields"][0]["field"] == "n");
    CHECK(j["fields"][0]["outcome"] == "converted");
    CHECK(j["fields"][0]["script"] == a.packed());
    CHECK(j["fields"][1]["field"] == "extra");
    CHECK(j["fields"][1]["outcome"] == "added");
    const std::string text = report.describe();
    CHECK(text.find("reload #1 ok: generation 1 -> 2; 1 restored") == 0);
    CHECK(text.find("A.n (" + a.toString() + "): converted - System.Int32 3 -> System.Single 3") !=
          std::string::npos);
}
