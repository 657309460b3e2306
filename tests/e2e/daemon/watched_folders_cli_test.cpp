// A script folder that goes away and comes back while the host runs (a branch switch, `rm -rf
// && git checkout`, a sync tool): the real binary, real folders, the real watcher and mcs.
#include "../support/daemon_client.hpp"

#include <nlohmann/json.hpp>

using namespace scripthost;
using namespace scripthost::testing;
using scripthost::control::ControlClient;
namespace fs = std::filesystem;

namespace {

std::string marker(int seen) {
    return "using UEngine;\n"
           "public class Marker : UMonoScriptComponent {\n"
           "  [SerializeField] int seen;\n"
           "  public override void Update(float dt) { seen = " +
           std::to_string(seen) + "; }\n}\n";
}

/// Waits until the running code writes `seen` (the code of that save is live).
void waitForCode(ControlClient& client, HostProcess& host, int seen) {
    const bool live = waitUntil(
        [&] { return fieldValue(client, "Marker", "Marker", "seen") == seen; }, 60s);
    CHECK_MESSAGE(live, "seen = " << seen << " never ran\n" << host.output());
}

/// Waits until status lists (or no longer lists) `folder` as missing.
void waitForMissing(ControlClient& client, const fs::path& folder, bool missing) {
    const bool seen = waitUntil(
        [&] {
            const nlohmann::json list = callOk(client, "status")["watchedFoldersMissing"];
            bool listed = false;
            for (const auto& f : list)
                listed = listed || fs::path(f.get<std::string>()) == folder;
            return listed == missing;
        },
        30s);
    CHECK_MESSAGE(seen, folder.string() << (missing ? " never listed" : " still listed") << " as missing");
}

} // namespace

TEST_CASE("watched folders: a scripts folder deleted and put back is watched again, by mkdir and "
          "copy and by renaming another folder into its place") {
    TempDir dir("folder-return");
    const fs::path scripts = dir.path() / "s";
    writeFile(scripts / "Marker.cs", marker(1));
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", scripts.string(), "--control",
                      socket.string(), "--no-supervise"});
    ControlClient client = connectTo(socket, host);
    waitForCode(client, host, 1);

    SUBCASE("deleted, then mkdir and copy") {
        fs::remove_all(scripts);
        waitForMissing(client, scripts, true);
        writeFile(scripts / "Marker.cs", marker(2)); // creates the folder, then the file
        waitForCode(client, host, 2);
        waitForMissing(client, scripts, false);
    }
    SUBCASE("moved away, another folder renamed into its place") {
        fs::rename(scripts, dir.path() / "s.old");
        waitForMissing(client, scripts, true);
        writeFile(dir.path() / "other" / "Marker.cs", marker(2));
        fs::rename(dir.path() / "other", scripts);
        waitForCode(client, host, 2);
        waitForMissing(client, scripts, false);
    }
    // And the saves after it reload as before.
    writeFile(scripts / "Marker.cs", marker(3));
    waitForCode(client, host, 3);
    writeFile(scripts / "Marker.cs", marker(4));
    waitForCode(client, host, 4);
    CHECK(callOk(client, "status")["restarts"] == 0);
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}
