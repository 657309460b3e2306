// FieldWatchService: the `watchFields` command against a real host, control server and
// client: the reply's rows, the first event with every value, then only what changed, at
// most `hz` a second; rows that go; bad requests; a client that goes is forgotten.
#include "../support/mono_test_support.hpp"
#include "control/control_client.hpp"
#include "control/control_server.hpp"
#include "daemon_lookup.hpp"
#include "field_watch_service.hpp"

#include <future>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kMover = R"(using UEngine;
public class Mover : UMonoScriptComponent {
  public int ticks;
  public int still = 4;
  public float nan = float.NaN;
  public override void Update(float dt) { ticks++; }
})";

constexpr const char* kNumbers = R"(using UEngine;
public class Numbers : UMonoScriptComponent {
  public float tenth = 0.1f;
  public float whole = 4f;
  public float huge = 1e20f;
  public float tiny = -1e-7f;
  public double precise = 2.5e-300;
  public Vector3 where = new Vector3(1f, 0.25f, -3.5f);
  public Quaternion turn = new Quaternion(0f, 0.70710677f, 0f, 0.70710677f);
  public Vector3 far = new Vector3(float.PositiveInfinity, 0f, 1f);
})";

/// A host, the control server and one client, with the service between them; frames and
/// requests run on the test's thread, as the daemon's loop runs them.
struct Rig {
    TempDir dir{"field-watch-service"};
    std::unique_ptr<ScriptHost> host = makeHostFrom(
        compileScripts(dir, "Movers.dll", {{"Mover.cs", kMover}, {"Numbers.cs", kNumbers}}));
    std::unique_ptr<control::ControlServer> server;
    std::unique_ptr<FieldWatchService> service;
    std::optional<control::ControlClient> client;

    Rig() {
        auto opened = control::ControlServer::open(dir / "control.sock");
        REQUIRE(opened);
        server = std::move(*opened);
        service = std::make_unique<FieldWatchService>(*server);
        auto connected =
            control::ControlClient::connect(dir / "control.sock", std::chrono::seconds(30));
        REQUIRE(connected);
        client.emplace(std::move(*connected));
    }

    /// Sends `body` as a watchFields request and serves it; the reply.
    json watch(const json& body) {
        auto pending = std::async(std::launch::async, [&] {
            return client->call("watchFields", body, std::chrono::seconds(30));
        });
        REQUIRE(server->waitForRequest(std::chrono::seconds(30)));
        auto requests = server->takeRequests();
        REQUIRE(requests.size() == 1);
        server->reply(requests[0], service->watch(requests[0].client, requests[0].body, *host));
        auto reply = pending.get();
        REQUIRE_MESSAGE(reply, (reply ? "" : reply.error().message));
        return *reply;
    }

    /// Runs frames (60 a second) until a `fields` event comes, or 30 s pass.
    std::optional<json> nextFields() {
        const auto deadline = Clock::now() + std::chrono::seconds(30);
        while (Clock::now() < deadline) {
            host->tick(1.0 / 60);
            service->afterFrame(*host);
            auto event = client->next(std::chrono::milliseconds(16));
            REQUIRE(event);
            if (event->has_value() && (**event).value("event", "") == "fields")
                return (**event)["data"];
        }
        return std::nullopt;
    }
};

} // namespace

TEST_CASE("FieldWatchService: every value first, then only what changed, no faster than hz") {
    Rig rig;
    const ObjectId a = spawnScript(*rig.host, "Mover");
    const ObjectId b = spawnScript(*rig.host, "Mover");
    const std::string aEntity = rig.host->world().entity(rig.host->world().script(a)->entity)->name;
    json reply =
        rig.watch({{"watch",
                    {{{"entity", idText(rig.host->world().script(a)->entity)}, {"script", "Mover"}},
                     {{"entity", idText(rig.host->world().script(b)->entity)},
                      {"script", "Mover"},
                      {"fields", {"still"}}}}},
                   {"hz", 4}});
    REQUIRE_MESSAGE(reply["ok"] == true, reply.dump());
    const json& result = reply["result"];
    CHECK(result["rows"] == 4);
    CHECK(result["hz"] == 4.0);
    CHECK(result["problems"].empty());
    REQUIRE(result["targets"].size() == 2);
    CHECK(result["targets"][0]["entity"] == aEntity);
    CHECK(result["targets"][0]["script"] == "Mover");
    CHECK(result["targets"][0]["scriptId"] == idText(a));
    CHECK(result["targets"][0]["entityId"] == idText(rig.host->world().script(a)->entity));
    CHECK(result["targets"][0]["fields"][0] ==
          json({{"name", "ticks"}, {"type", "int32"}, {"typeName", "System.Int32"}}));
    CHECK(result["targets"][1]["row"] == 3);

    auto first = rig.nextFields();
    REQUIRE(first.has_value());
    CHECK((*first)["watch"] == result["watch"]);
    REQUIRE((*first)["changes"].size() == 4); // the baseline: every row
    CHECK((*first)["changes"][1] == json({1, 4}));
    CHECK((*first)["changes"][2] == json({2, "nan"}));
    CHECK((*first)["changes"][3] == json({3, 4}));

    const auto firstAt = Clock::now();
    auto second = rig.nextFields();
    REQUIRE(second.has_value());
    // 4 a second. One event may come late (the encoder runs below the loop's priority) and
    // the next on time, so the rate is read over several: sweeps start on a grid a period
    // apart (each at the first frame on or after its time), and not before the encoder has
    // sent the previous one's event, so 7 events after the first take 6 periods at least,
    // less a frame; 5 leaves a period for this thread to read late.
    for (int i = 0; i < 6; ++i)
        REQUIRE(rig.nextFields().has_value());
    CHECK(Clock::now() - firstAt >= 5 * std::chrono::milliseconds(250));
    // Only ticks changed: `still` and the NaN did not.
    REQUIRE((*second)["changes"].size() == 1);
    CHECK((*second)["changes"][0][0] == 0);
    CHECK((*second)["changes"][0][1].get<int>() > (*first)["changes"][0][1].get<int>());
    CHECK((*second)["gone"].empty());

    REQUIRE(rig.host->destroyEntity(rig.host->world().script(b)->entity));
    std::optional<json> withGone;
    for (int i = 0; i < 4 && !(withGone && !(*withGone)["gone"].empty()); ++i)
        withGone = rig.nextFields();
    REQUIRE(withGone.has_value());
    CHECK((*withGone)["gone"] == json({3}));
}

TEST_CASE("FieldWatchService: floats, doubles and vectors are sent as get's valueToJson writes "
          "them, a whole number still as a float, a non-finite part as its word") {
    Rig rig;
    const ObjectId numbers = spawnScript(*rig.host, "Numbers");
    json reply = rig.watch({{"watch",
                             {{{"entity", idText(rig.host->world().script(numbers)->entity)},
                               {"script", "Numbers"}}}}});
    REQUIRE_MESSAGE(reply["ok"] == true, reply.dump());
    const json& fields = reply["result"]["targets"][0]["fields"];
    auto event = rig.nextFields();
    REQUIRE(event.has_value());
    const json& changes = (*event)["changes"];
    REQUIRE(changes.size() == fields.size());
    const ScriptClassInfo* info = rig.host->scriptClassOf(numbers);
    REQUIRE(info != nullptr);
    for (std::size_t row = 0; row < changes.size(); ++row) {
        const std::string name = fields[row]["name"];
        const auto field = std::ranges::find(info->fields, name, &FieldInfo::name);
        REQUIRE(field != info->fields.end());
        auto value = rig.host->getField(numbers, name);
        REQUIRE(value);
        INFO(name << ": sent " << changes[row][1].dump());
        CHECK(changes[row][0] == row);
        CHECK(changes[row][1] == valueToJson(*value, field->type));
    }
    auto sent = [&](const std::string& name) {
        const auto at =
            std::ranges::find(fields, json(name), [](const json& f) { return f["name"]; });
        REQUIRE(at != fields.end());
        return changes[static_cast<std::size_t>(at - fields.begin())][1];
    };
    CHECK(sent("whole").is_number_float()); // "4.0", not "4": a float field stays a float
    CHECK(sent("tenth").get<double>() == static_cast<double>(0.1f));
    CHECK(sent("where") == json({1.0, 0.25, -3.5}));
    CHECK(sent("far") == json({"inf", 0.0, 1.0}));
}

TEST_CASE("FieldWatchService: bad requests are refused, missing scripts are problems, [] ends "
          "the watch and a client that goes is forgotten") {
    Rig rig;
    const ObjectId a = spawnScript(*rig.host, "Mover");
    const std::string entity = idText(rig.host->world().script(a)->entity);
    CHECK(rig.watch({{"hz", 1}})["error"]["code"] == "bad_request");
    CHECK(rig.watch({{"watch", {1}}})["error"]["code"] == "bad_request");
    CHECK(rig.watch({{"watch", json::array()}, {"hz", 11}})["error"]["code"] == "bad_request");
    CHECK(rig.watch({{"watch",
                      {{{"entity", entity},
                        {"script", "Mover"},
                        {"fields", "ticks"}}}}})["error"]["code"] == "bad_request");

    json reply =
        rig.watch({{"watch",
                    {{{"entity", "nobody"}, {"script", "Mover"}},
                     {{"entity", entity}, {"script", "Mover"}, {"fields", {"ticks", "x"}}}}}});
    REQUIRE_MESSAGE(reply["ok"] == true, reply.dump());
    CHECK(reply["result"]["rows"] == 1);
    REQUIRE(reply["result"]["problems"].size() == 2);
    CHECK(reply["result"]["problems"][0] == "watch[0]: no entity \"nobody\"");
    CHECK(reply["result"]["problems"][1] == "watch[1]: Mover has no serialized field 'x'");
    CHECK(rig.service->clientCount() == 1);
    CHECK(rig.service->rowCount() == 1);

    reply = rig.watch({{"watch", json::array()}});
    CHECK(reply["result"]["rows"] == 0);
    CHECK(rig.service->clientCount() == 0);

    rig.watch({{"watch", {{{"entity", entity}, {"script", "Mover"}}}}});
    CHECK(rig.service->clientCount() == 1);
    rig.client.reset();
    REQUIRE(rig.server->waitForClientCount(0, std::chrono::seconds(30)));
    rig.service->afterFrame(*rig.host);
    CHECK(rig.service->clientCount() == 0);
}
