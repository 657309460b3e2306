// A script written Unity's way (public fields, [HideInInspector], Awake/Start/Update() without
// override) under the real binary: what `scriptctl get` lists, and that a public field's value
// and the messages' behaviour survive an edit. Real folders, the real watcher, mcs and runtime.
#include "../support/daemon_client.hpp"

#include <nlohmann/json.hpp>

using namespace scripthost;
using namespace scripthost::testing;
using scripthost::control::ControlClient;
namespace fs = std::filesystem;

namespace {

std::string ticker(int step) {
    return "using UEngine;\n"
           "public class Ticker : UMonoScriptComponent {\n"
           "  public float speed = 2f;\n"
           "  public int ticks;\n"
           "  [HideInInspector] public int secret = 7;\n"
           "  public int started;\n"
           "  int notSaved = 3;\n"
           "  void Awake() { secret += notSaved; }\n"
           "  void Start() { started++; }\n"
           "  void Update() { ticks += " +
           std::to_string(step) + "; }\n}\n";
}

std::vector<std::string> listedNames(ControlClient& client) {
    std::vector<std::string> names;
    const nlohmann::json listing = callOk(client, "get", {{"entity", "Ticker"}, {"script", "Ticker"}});
    for (const auto& f : listing["fields"])
        names.push_back(f["name"].get<std::string>());
    return names;
}

} // namespace

TEST_CASE("Unity-style script: public fields are listed and carried, a hidden one only by name, and "
          "Awake and Start do not run again after an edit") {
    TempDir dir("unity-style");
    const fs::path scripts = dir.path() / "s";
    writeFile(scripts / "Ticker.cs", ticker(1));
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", scripts.string(), "--control",
                      socket.string(), "--no-supervise"});
    ControlClient client = connectTo(socket, host);
    REQUIRE_MESSAGE(waitUntil([&] { return fieldValue(client, "Ticker", "Ticker", "ticks") > 0; },
                              60s),
                    host.output());
    const std::vector<std::string> listed = listedNames(client);
    const std::vector<std::string> expected{"speed", "ticks", "started"};
    CHECK_MESSAGE(listed == expected, nlohmann::json(listed).dump());
    CHECK(fieldValue(client, "Ticker", "Ticker", "secret") == 10); // Awake ran once
    CHECK(fieldValue(client, "Ticker", "Ticker", "started") == 1);
    callOk(client, "set", {{"entity", "Ticker"}, {"script", "Ticker"}, {"field", "speed"}, {"value", 4.5}});

    writeFile(scripts / "Ticker.cs", ticker(1000)); // Update now adds 1000 a frame
    const bool live = waitUntil(
        [&] { return fieldValue(client, "Ticker", "Ticker", "ticks").get<int>() >= 1000; }, 60s);
    REQUIRE_MESSAGE(live, host.output());
    CHECK(fieldValue(client, "Ticker", "Ticker", "speed") == 4.5); // a public field, carried
    CHECK(fieldValue(client, "Ticker", "Ticker", "secret") == 10);  // Awake did not run again
    CHECK(fieldValue(client, "Ticker", "Ticker", "started") == 1);  // nor Start
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}
