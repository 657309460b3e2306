// The Unity script corpus (issue 30): ten ordinary gameplay scripts written in Unity's own
// dialect (unity_corpus/unity/*.cs) become scripts for this host through the committed rename
// table alone (unity_corpus/rename-table.tsv), then run in unity_corpus/corpus.scene.json under
// the real binary: in smoke mode's fixed 1/60 s frames, where each script acts at the frame
// computed here, and as a daemon, where the public fields read through the control socket hold
// what the scripts did and keep their values across an edit of each file.
#include "../../support/xorshift128.hpp"
#include "../support/daemon_client.hpp"

#include <cmath>
#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using nlohmann::json;
using scripthost::control::ControlClient;
using namespace std::chrono_literals;

namespace {

const fs::path kCorpus = fs::path(SCRIPTHOST_SOURCE_DIR) / "tests" / "e2e" / "cli" / "unity_corpus";
const fs::path kScene = kCorpus / "corpus.scene.json";
const std::vector<std::string> kScripts{"CameraFollow", "EnemySpawner", "GridMover",  "Health",
                                        "Patrol",       "Pickup",       "Projectile", "Timer",
                                        "Turret",       "WaveManager"};

// ---- the rename ------------------------------------------------------------------------------

using RenameTable = std::vector<std::pair<std::string, std::string>>;

RenameTable readRenameTable() {
    RenameTable table;
    std::istringstream in(readFile(kCorpus / "rename-table.tsv"));
    const std::regex pair(R"(([A-Za-z_]\w*)\t([A-Za-z_]\w*))");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        std::smatch m;
        REQUIRE_MESSAGE(std::regex_match(line, m, pair), "not a rename pair: " << line);
        table.emplace_back(m[1], m[2]);
    }
    return table;
}

/// The table applied to a script: each Unity name, as a whole word, in the table's order.
std::string renamed(std::string text, const RenameTable& table) {
    for (const auto& [from, to] : table)
        text = std::regex_replace(text, std::regex("\\b" + from + "\\b"), to);
    return text;
}

/// Every unity/*.cs, renamed into DIR/scripts (nothing else is done to them).
fs::path convertCorpus(const TempDir& dir) {
    const RenameTable table = readRenameTable();
    const fs::path scripts = dir / "scripts";
    std::set<std::string> converted;
    for (const auto& entry : fs::directory_iterator(kCorpus / "unity")) {
        if (entry.path().extension() != ".cs")
            continue;
        writeFile(scripts / entry.path().filename(), renamed(readFile(entry.path()), table));
        converted.insert(entry.path().stem().string());
    }
    REQUIRE(converted == std::set<std::string>(kScripts.begin(), kScripts.end()));
    return scripts;
}

// ---- what the scripts should do, computed here -----------------------------------------------

constexpr double kFrame = 1.0 / 60.0; // smoke mode's fixed frame; `run` paces to it (--fps 60)
constexpr double kMaxFrame = 0.25;    // `run` never advances game time more in one frame
constexpr double kStart = kFrame;     // Start runs in frame 1, at Time.time = 1/60 s

/// The first frame whose game time reaches `t`, in 1/60 s frames (frame f ends at f/60 s).
/// The scene's numbers keep every event clear of a frame boundary; this checks they do.
long frameReaching(double t) {
    const double frames = t / kFrame;
    const double fraction = frames - std::floor(frames);
    REQUIRE_MESSAGE((fraction > 0.05 && fraction < 0.95), "on a frame boundary: " << t);
    return static_cast<long>(std::ceil(frames));
}

/// Where EnemySpawner (seed 1234, radius 5, at (20, 0, 0) in the scene) puts its five enemies.
std::vector<std::array<double, 3>> expectedSpawns() {
    Xorshift128 random(1234);
    std::vector<std::array<double, 3>> spawns;
    for (int i = 0; i < 5; ++i) {
        const float dx = random.range(-5.0f, 5.0f);
        const float dz = random.range(-5.0f, 5.0f);
        spawns.push_back({20.0f + dx, 0.0, 0.0f + dz});
    }
    return spawns;
}

// The scene's numbers the checks below depend on.
constexpr double kPatrolLeg = 4.0 / 3.7; // each leg is 4 units long, the guard walks 3.7 a second
constexpr double kTimerDelay = 1.21;
constexpr double kFirstSpawn = 0.51, kSpawnInterval = 0.45;
constexpr double kFirstCheck = 0.26, kCheckInterval = 0.505;

bool near(const json& v, std::array<double, 3> e, double tolerance) {
    return v.size() == 3 && std::abs(v[0].get<double>() - e[0]) <= tolerance &&
           std::abs(v[1].get<double>() - e[1]) <= tolerance &&
           std::abs(v[2].get<double>() - e[2]) <= tolerance;
}

// ---- smoke mode's log --------------------------------------------------------------------------

/// The log lines smoke mode must print, at the frames computed from the scene.
std::vector<std::string> expectedSmokeLines() {
    // Bullets 2.1 and 4.1 units from the Dummy, 4 a second: a step never jumps the 1.2 units
    // inside hitRadius, not even `run`'s longest frame (kMaxFrame).
    const long hit1 = frameReaching((2.1 - 0.6) / 4.0), hit2 = frameReaching((4.1 - 0.6) / 4.0);
    const long leg = frameReaching(kPatrolLeg);
    std::vector<std::string> lines{
        "Bullet 1 hit Dummy (frame " + std::to_string(hit1) + ")",
        "Dummy took 10 damage, 20 left (frame " + std::to_string(hit1) + ")",
        "Bullet 1 destroyed at frame " + std::to_string(hit1),
        "Bullet 2 hit Dummy (frame " + std::to_string(hit2) + ")",
        "Dummy took 25 damage, 0 left (frame " + std::to_string(hit2) + ")",
        "Stray Bullet destroyed at frame " + std::to_string(frameReaching(kStart + 1.005)),
        "Timer rang at frame " + std::to_string(frameReaching(kStart + kTimerDelay)) + ",",
        "Guard reached waypoint 0 at frame " + std::to_string(leg),
        "Guard reached waypoint 1 at frame " + std::to_string(2 * leg),
        "Guard reached waypoint 0 at frame " + std::to_string(3 * leg),
        "Health Pack ignores Guard",
        "Turret has 1 child, its muzzle under Turret"};
    std::vector<long> spawnFrames;
    for (int k = 0; k < 5; ++k)
        spawnFrames.push_back(frameReaching(kStart + kFirstSpawn + k * kSpawnInterval));
    long check = frameReaching(kStart + kFirstCheck);
    for (int n = 1; check <= 180; ++n) {
        long alive = check < hit2 ? 1 : 0; // the Dummy, until Bullet 2 kills it
        for (long spawn : spawnFrames) {
            REQUIRE(spawn != check); // an Invoke and a coroutine in one frame: no order to count on
            alive += spawn < check ? 1 : 0;
        }
        lines.push_back("Wave check " + std::to_string(n) + ": " + std::to_string(alive) +
                        " enemies (frame " + std::to_string(check) + ")");
        check = frameReaching(check * kFrame + kCheckInterval);
    }
    return lines;
}

} // namespace

TEST_CASE("unity corpus: the rename table alone turns the ten Unity scripts into this host's") {
    const RenameTable table = readRenameTable();
    const RenameTable expected{{"UnityEngine", "UEngine"},
                               {"MonoBehaviour", "UMonoScriptComponent"},
                               {"GameObject", "UEntity"},
                               {"Transform", "UTransform"},
                               {"Component", "UComponent"}};
    CHECK(table == expected);
    const std::regex unityNames(
        R"(\b(UnityEngine|MonoBehaviour|GameObject|Transform|Component)\b)");
    for (const std::string& name : kScripts) {
        const std::string unity = readFile(kCorpus / "unity" / (name + ".cs"));
        CHECK_MESSAGE(unity.find("using UnityEngine;") != std::string::npos, name);
        CHECK_MESSAGE(unity.find(name + " : MonoBehaviour") != std::string::npos, name);
        const std::string host = renamed(unity, table);
        CHECK_MESSAGE(host.find(name + " : UMonoScriptComponent") != std::string::npos, name);
        CHECK_MESSAGE(!std::regex_search(host, unityNames), name);
        // Members keep Unity's names: FindGameObjectsWithTag is not a whole-word GameObject.
        if (unity.find("FindGameObjectsWithTag") != std::string::npos)
            CHECK(host.find("UEntity.FindGameObjectsWithTag(") != std::string::npos);
    }
}

TEST_CASE("unity corpus: in smoke mode's fixed 1/60 s frames each script acts at the frame "
          "computed from the scene, through two forced reloads") {
    TempDir dir("unity-corpus-smoke");
    const fs::path scripts = convertCorpus(dir);
    HostProcess host({"smoke", "--scripts", scripts.string(), "--scene", kScene.string(),
                      "--frames", "100", "--reloads", "2"});
    const int code = host.wait(300s);
    const std::string out = host.output();
    REQUIRE_MESSAGE(code == 0, out);
    CHECK_MESSAGE(out.find("every value identical") != std::string::npos, out);
    for (const std::string& line : expectedSmokeLines())
        CHECK_MESSAGE(out.find(line) != std::string::npos, line << "\n" << out);
    CHECK(countOf(out, "Timer rang") == 1);
    CHECK(out.find("picked up") == std::string::npos); // no input: the player never walks there

    const auto positions = expectedSpawns();
    const std::regex spawn(
        R"(Spawned Enemy (\d) at \(([-\d.]+), ([-\d.]+), ([-\d.]+)\) \(frame (\d+)\))");
    std::size_t k = 0;
    for (std::sregex_iterator it(out.begin(), out.end(), spawn), end; it != end; ++it, ++k) {
        const std::smatch& m = *it;
        REQUIRE_MESSAGE(k < positions.size(), out);
        CHECK(std::stoul(m[1]) == k + 1);
        CHECK(std::stol(m[5]) == frameReaching(kStart + kFirstSpawn + double(k) * kSpawnInterval));
        const json at{std::stod(m[2]), std::stod(m[3]), std::stod(m[4])};
        CHECK_MESSAGE(near(at, positions[k], 0.0011), m.str());
    }
    CHECK_MESSAGE(k == positions.size(), out);
}

namespace {

// ---- the daemon --------------------------------------------------------------------------------

/// One key press a frame long at each of these replay frames: D, D, W walks the player from
/// (0, 0, 0) to the health pack at (2, 0, 1).
const std::vector<std::pair<long, std::string>> kPresses{
    {30, "key:D"}, {60, "key:D"}, {90, "key:W"}};

fs::path writeReplay(const TempDir& dir) {
    std::string lines;
    for (const auto& [frame, key] : kPresses) {
        lines += json{{"frame", frame}, {"action", key}, {"value", 1}}.dump() + "\n";
        lines += json{{"frame", frame + 1}, {"action", key}, {"value", 0}}.dump() + "\n";
    }
    writeFile(dir / "replay.jsonl", lines);
    return dir / "replay.jsonl";
}

json world(ControlClient& client) {
    return callOk(client, "snapshot")["snapshot"];
}

/// The entity named `name` in a snapshot, or null when it is gone.
json entityNamed(const json& world, const std::string& name) {
    for (const json& e : world.at("entities"))
        if (e.value("name", "") == name)
            return e;
    return nullptr;
}

/// The fields of the script of class `cls` on the entity `name` (null when it is gone).
json scriptOf(const json& world, const std::string& name, const std::string& cls) {
    const json e = entityNamed(world, name);
    if (e.is_null())
        return nullptr;
    for (const json& s : e.at("scripts"))
        if (s.value("class", "") == cls)
            return s.at("fields");
    return nullptr;
}

/// Every serialized field of a script as `scriptctl get` lists it, by name.
json fieldsOf(ControlClient& client, const std::string& entity, const std::string& script) {
    const json listing = callOk(client, "get", {{"entity", entity}, {"script", script}});
    json fields = json::object();
    for (const json& f : listing["fields"])
        fields[f["name"].get<std::string>()] = f["value"];
    return fields;
}

/// Everything the scene's scripts have to do has been done.
bool settled(const json& w) {
    const json timer = scriptOf(w, "Game", "Timer"), waves = scriptOf(w, "Game", "WaveManager");
    const json patrol = scriptOf(w, "Guard", "Patrol"),
               camera = scriptOf(w, "Main Camera", "CameraFollow");
    return timer["rang"] == true && scriptOf(w, "Spawner", "EnemySpawner")["spawned"] == 5 &&
           patrol["arrivals"].get<int>() >= 2 && scriptOf(w, "Player", "GridMover")["steps"] == 3 &&
           scriptOf(w, "Health Pack", "Pickup")["collected"] == true &&
           camera["distanceToGoal"].get<double>() < 0.005 && waves["enemiesAlive"] == 5 &&
           waves["enemyHits"] == 2 && entityNamed(w, "Stray Bullet").is_null() &&
           scriptOf(w, "Turret", "Turret")["aims"].get<int>() > 0;
}

void checkTurret(const json& w) {
    const json turret = scriptOf(w, "Turret", "Turret");
    INFO(turret.dump());
    CHECK(turret["children"] == 1);
    CHECK(turret["muzzleRoot"] == "Turret");
    CHECK(near(turret["muzzleLocalPosition"], {0, 0, 2}, 0));
    // The barrel at (30, 1, 0) faces Waypoint B at (2, 0, 5): the muzzle is 2 units along that.
    const std::array<double, 3> toward{2 - 30, 0 - 1, 5 - 0};
    const double length =
        std::sqrt(toward[0] * toward[0] + toward[1] * toward[1] + toward[2] * toward[2]);
    CHECK(near(turret["muzzlePosition"],
               {30 + 2 * toward[0] / length, 1 + 2 * toward[1] / length, 2 * toward[2] / length},
               1e-4));
    // The snapshot names each child's parent by id, and keeps its local transform.
    const json barrel = entityNamed(w, "Barrel"), muzzle = entityNamed(w, "Muzzle");
    CHECK(barrel["parent"] == json{{"id", entityNamed(w, "Turret")["id"]}});
    CHECK(muzzle["parent"] == json{{"id", barrel["id"]}});
    CHECK(near(muzzle["transform"]["position"], {0, 0, 2}, 0));
}

void checkPlayerAndCamera(const json& w) {
    const json player = entityNamed(w, "Player");
    CHECK_MESSAGE(near(player["transform"]["position"], {2, 0, 1}, 1e-5), player.dump());
    const json mover = scriptOf(w, "Player", "GridMover");
    CHECK(mover["steps"] == 3);
    CHECK(near(mover["lastStep"], {0, 0, 1}, 0));
    CHECK(scriptOf(w, "Player", "Health")["currentHealth"] == 85); // 60 and the pack's 25
    const json pickup = scriptOf(w, "Health Pack", "Pickup");
    CHECK(entityNamed(w, "Health Pack")["active"] == false);
    CHECK(pickup["collectedBy"] == "Player");
    CHECK(pickup["lastIgnored"] == "Guard"); // it walked over the pack at 1.08 s, before the player
    CHECK(pickup["collectedFrame"] == kPresses.back().first + 1); // a replay frame F is tick F + 1

    // Behind and above the player, looking at it.
    const json camera = entityNamed(w, "Main Camera")["transform"];
    CHECK_MESSAGE(near(camera["position"], {2, 5, -7}, 0.005), camera.dump());
    const json q = camera["rotation"];
    const double x = q[0], y = q[1], z = q[2], qw = q[3];
    const std::array<double, 3> forward{2 * (x * z + qw * y), 2 * (y * z - qw * x),
                                        1 - 2 * (x * x + y * y)};
    CHECK_MESSAGE(near(json(forward), {0, -5 / std::sqrt(89.0), 8 / std::sqrt(89.0)}, 1e-3),
                  camera.dump());
}

void checkPatrolAndTimer(const json& w) {
    // MoveTowards never overshoots, a leg starts in the frame after the last one ended and ends
    // up to arriveDistance (0.01) short: at most one frame (kMaxFrame) after its length's time.
    const json patrol = scriptOf(w, "Guard", "Patrol"), timer = scriptOf(w, "Game", "Timer");
    INFO(patrol.dump() << "\n" << timer.dump());
    const double first = patrol["arrivalTimes"][0],
                 leg2 = patrol["arrivalTimes"][1].get<double>() - first;
    const double slack = 0.01 / 3.7 + 1e-4;
    CHECK((first >= kPatrolLeg - slack && first <= kPatrolLeg + kMaxFrame + slack));
    CHECK((leg2 >= kPatrolLeg - 2 * slack && leg2 <= kPatrolLeg + kMaxFrame + 2 * slack));
    // By frame N: paced at 60 fps, frame f comes no earlier than f/60 s of game time.
    CHECK(patrol["arrivalFrames"][1].get<long>() <= long(std::ceil(2 * kPatrolLeg * 60)) + 30);
    // Invoke fires in the first frame at or past its time, not one later.
    const double due = timer["startTime"].get<double>() + kTimerDelay;
    CHECK(timer["lastTimeBeforeRing"].get<double>() < due + 1e-5);
    const double rang = timer["ringTime"];
    CHECK((rang >= due - 1e-4 && rang <= due + kMaxFrame));
    const long frames = timer["ringFrame"].get<long>() - timer["startFrame"].get<long>();
    CHECK((frames >= 1 && frames <= long(std::ceil(kTimerDelay * 60)) + 30));
}

void checkSpawnerWavesAndProjectiles(const json& w) {
    const json spawner = scriptOf(w, "Spawner", "EnemySpawner");
    CHECK(spawner["spawned"] == 5);
    CHECK(spawner["kills"] == 0);
    const auto expected = expectedSpawns();
    REQUIRE(spawner["spawnPositions"].size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const std::array<double, 3>& at = expected[k];
        CHECK_MESSAGE(near(spawner["spawnPositions"][k], at, 1e-4), spawner.dump());
        const json enemy = entityNamed(w, "Enemy " + std::to_string(k + 1));
        REQUIRE_MESSAGE(!enemy.is_null(), w.dump());
        CHECK(enemy["tag"] == "Enemy");
        CHECK(enemy.value("active", true));
        CHECK(near(enemy["transform"]["position"], at, 1e-4));
        // Awake ran when it was activated: full health.
        CHECK(scriptOf(w, "Enemy " + std::to_string(k + 1), "Health")["currentHealth"] == 20);
    }
    const json waves = scriptOf(w, "Game", "WaveManager");
    CHECK(waves["peakEnemies"] == 5);
    CHECK(waves["enemyHits"] == 2);
    CHECK(waves["enemiesKilled"] == 1);
    CHECK(waves["lastEnemyHealth"] == 0);
    const json dummy = scriptOf(w, "Dummy", "Health");
    CHECK(dummy["isDead"] == true);
    CHECK(dummy["currentHealth"] == 0);
    CHECK(entityNamed(w, "Dummy")["active"] == false);
    for (const char* gone : {"Bullet 1", "Bullet 2", "Stray Bullet"})
        CHECK_MESSAGE(entityNamed(w, gone).is_null(), gone);
    // Turned 90 degrees about Y, the tracer's forward is +X.
    const json tracer = entityNamed(w, "Tracer")["transform"]["position"];
    const double travelled = scriptOf(w, "Tracer", "Projectile")["distanceTravelled"];
    CHECK(travelled > 0);
    CHECK_MESSAGE(near(tracer, {-20 + travelled, 0, -12}, 1e-3), tracer.dump());
}

/// Values that go on changing while the game runs: counters and lists that only grow, and
/// fields that may take any value.
struct Moving {
    std::set<std::string> growing, free;
};

/// `after` holds every value of `before`: equal, or for what keeps moving, not reset.
void checkCarried(const json& before, const json& after, const Moving& moving,
                  const std::string& what) {
    for (const auto& [name, value] : before.items()) {
        INFO(what << "." << name << ": " << value.dump() << " -> "
                  << after.value(name, json()).dump());
        REQUIRE(after.contains(name));
        if (moving.free.count(name))
            continue;
        if (!moving.growing.count(name))
            CHECK(after[name] == value);
        else if (value.is_array())
            CHECK((after[name].size() >= value.size() &&
                   std::equal(value.begin(), value.end(), after[name].begin())));
        else
            CHECK(after[name].get<double>() >= value.get<double>());
    }
}

struct Edited {
    std::string file, entity, field; // `field` is set to `value` at run time before the edit
    json value;
    Moving moving;
};

const Moving kWalking{{"arrivals", "arrivalFrames", "arrivalTimes"},
                      {"reachedWaypoint", "targetIndex"}};
const std::vector<Edited> kEdits{
    {"CameraFollow", "Main Camera", "smoothTime", 0.375, {{}, {"distanceToGoal"}}},
    {"EnemySpawner", "Spawner", "spawnRadius", 6.5, {}},
    {"GridMover", "Player", "stepCooldown", 0.25, {}},
    {"Health", "Player", "maxHealth", 150, {}},
    {"Patrol", "Guard", "arriveDistance", 0.015625, kWalking},
    {"Pickup", "Health Pack", "healAmount", 30, {}},
    {"Projectile", "Tracer", "damage", 11, {{"distanceTravelled"}, {}}},
    {"Timer", "Game", "delay", 2.5, {}},
    {"Turret", "Turret", "barrelName", "Barrel", {{"aims"}, {}}},
    {"WaveManager", "Game", "checkInterval", 0.375, {{"checks"}, {}}}};

/// Sets a field of each script, saves an edit to each file and waits for its reload; every
/// value is still there after it.
void reloadEach(ControlClient& client, ControlClient& events, const fs::path& scripts,
                HostProcess& host) {
    for (const Edited& e : kEdits)
        callOk(client, "set",
               {{"entity", e.entity}, {"script", e.file}, {"field", e.field}, {"value", e.value}});
    int generation = callOk(client, "status")["generation"];
    for (const Edited& e : kEdits) {
        const json before = fieldsOf(client, e.entity, e.file);
        CHECK(before[e.field] == e.value);
        std::ofstream(scripts / (e.file + ".cs"), std::ios::app)
            << "// edited by the corpus test\n";
        const json report = nextReloadReport(events, host, 120s, e.file + ".cs");
        CHECK_MESSAGE(report["success"] == true, report.dump(2));
        CHECK(report["toGeneration"].get<int>() > generation);
        generation = report["toGeneration"];
        const std::string text = report["text"];
        // What runs goes on (README, "What a reload does with running behaviour").
        const std::regex resumed(R"(coroutine WaveManager.CountEnemies \(#[\d:]+\): resumed)");
        const std::regex rebound(
            R"(Health.Died \(#[\d:]+\) -> EnemySpawner.OnEnemyDied on #[\d:]+: rebound)");
        CHECK_MESSAGE(std::regex_search(text, resumed), text);
        CHECK_MESSAGE(std::regex_search(text, rebound), text);
        checkCarried(before, fieldsOf(client, e.entity, e.file), e.moving, e.file);
    }
}

} // namespace

TEST_CASE("unity corpus: as a daemon the scripts' public fields show what they did, and an edit "
          "to each of the ten files reloads it with every value carried") {
    TempDir dir("unity-corpus-daemon");
    const fs::path scripts = convertCorpus(dir);
    const fs::path socket = dir / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", scripts.string(), "--scene",
                      kScene.string(), "--input", writeReplay(dir).string(), "--control",
                      socket.string(), "--no-supervise", "--state", (dir / "state.json").string()});
    ControlClient client = connectTo(socket, host);
    json w;
    REQUIRE_MESSAGE(waitUntil([&] { return settled(w = world(client)); }, 120s),
                    w.dump() << host.output());
    checkPlayerAndCamera(w);
    checkPatrolAndTimer(w);
    checkSpawnerWavesAndProjectiles(w);
    checkTurret(w);

    ControlClient events = connectTo(socket, host);
    callOk(events, "subscribe", {{"topics", {"reload"}}});
    reloadEach(client, events, scripts, host);
    CHECK(callOk(client, "status")["reloads"]["failed"] == 0);

    // The new code goes on where the old one was: the guard walks on, the coroutine counts on,
    // the tracer flies on, and the player steps left (one grid cell at least) when A is held.
    const json before = world(client);
    const int arrivals = scriptOf(before, "Guard", "Patrol")["arrivals"];
    const int checks = scriptOf(before, "Game", "WaveManager")["checks"];
    callOk(client, "input", {{"action", "key:A"}, {"value", 1}});
    const bool goesOn = waitUntil(
        [&] {
            w = world(client);
            return scriptOf(w, "Guard", "Patrol")["arrivals"].get<int>() > arrivals &&
                   scriptOf(w, "Game", "WaveManager")["checks"].get<int>() > checks &&
                   scriptOf(w, "Player", "GridMover")["steps"].get<int>() > 3;
        },
        120s);
    callOk(client, "input", {{"action", "key:A"}, {"value", 0}});
    REQUIRE_MESSAGE(goesOn, w.dump() << host.output());
    CHECK(near(scriptOf(w, "Player", "GridMover")["lastStep"], {-1, 0, 0}, 0));
    CHECK(scriptOf(w, "Tracer", "Projectile")["distanceTravelled"].get<double>() >
          scriptOf(before, "Tracer", "Projectile")["distanceTravelled"].get<double>());
    CHECK(scriptOf(w, "Game", "WaveManager")["enemiesAlive"] == 5);
    CHECK(host.output().find("script failure") == std::string::npos);
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}
