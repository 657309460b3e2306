// soak_driver --minutes N [--seed S] [--clients 20] [--crash-every-minutes M] [--json]
//
// A long day for the real daemon: the demo game (its scripts copied into a temp folder, its
// module copied so it can be replaced) under `scripthost run`, supervised, while the soak
//   - edits SoakKeeper.cs: good edits, syntax errors, throwing constructors, the class removed
//     and brought back; each outcome is checked (reload ok, build failed, rolled back, parked);
//   - sets SoakKeeper's values through the control socket (its own model of them) and checks
//     them after every reload: a value that differs from the model is lost;
//   - runs SoakChurn (a thread that allocates, a timer, busy thread-pool work, finalizers that
//     throw) through every reload;
//   - replaces the game module's library (a module reload), removes the scripts folder and puts
//     it back, keeps `--clients` control clients calling;
//   - every `--crash-every-minutes` waits until the state file holds the model, kills the host
//     with SIGSEGV and checks that the restarted host has every value of the model.
// It prints crashes (forced and not), restarts, reloads by outcome, values checked and lost, RSS
// (and per reload after the 100th reload of one host process), GC handles, threads and the
// frame-time p99. Exit 1 when a crash was not forced, a value was lost, an outcome was not the
// one expected, or the host is not running at the end.
#include "control/control_client.hpp"
#include "soak_scripts.hpp"

#include <CLI/CLI.hpp>
#include <atomic>
#include <boost/process.hpp>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
namespace bp = boost::process;
using Clock = std::chrono::steady_clock;
using nlohmann::json;
using scripthost::control::ControlClient;
using namespace std::chrono_literals;

namespace {

constexpr auto kOutcomeDeadline = 90s;

void writeFile(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    const fs::path tmp = path.string() + ".soak-tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
    }
    fs::rename(tmp, path); // an editor's save: complete when it appears
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A field of /proc/PID/status ("VmRSS", "Threads"), or -1.
long procStatus(int pid, const std::string& key) {
    std::ifstream in(fmt::format("/proc/{}/status", pid));
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key + ":", 0) == 0)
            return std::stol(line.substr(key.size() + 1));
    }
    return -1;
}

/// What the soak believes SoakKeeper holds.
struct Model {
    int a = 0, b = 0, c = 0;
    std::string note;
    [[nodiscard]] json fields() const { return {{"a", a}, {"b", b}, {"c", c}, {"note", note}}; }
};

/// One host process's figures (the supervisor restarts the host as a new process).
struct HostRun {
    int pid = 0;
    long rssFirstKiB = -1, rssLastKiB = -1, rssAt100KiB = -1;
    std::int64_t reloadsAt100 = -1;
    std::int64_t reloadsOk = 0, reloadsFailed = 0;
    std::int64_t gcHandlesFirst = -1, gcHandlesLast = -1;
    long threadsMax = 0;
};

class Soak {
public:
    struct Options {
        double minutes = 2;
        std::uint32_t seed = 1;
        int clients = 20;
        double crashEveryMinutes = 1;
        bool json = false;
    };

    explicit Soak(Options options) : o_(options), random_(options.seed) {
        std::random_device rd;
        root_ = fs::temp_directory_path() / fmt::format("scripthost-soak-{}", rd());
        scripts_ = root_ / "scripts";
        socket_ = root_ / "control.sock";
        module_ = root_ / "game" / fs::path(DEMO_GAME_MODULE).filename();
    }
    ~Soak() {
        stopClients();
        if (host_ && host_->running()) {
            ::kill(host_->id(), SIGTERM);
            std::error_code ec;
            host_->wait(ec);
        }
        std::error_code ec;
        if (failures_.empty())
            fs::remove_all(root_, ec);
        else // what the host logged, for whoever looks into the failure
            fmt::print(stderr, "soak: kept {} (host.log, host.err, state/)\n", root_.string());
    }

    int run();

private:
    void setUp();
    void startHost();
    json status(); // from the host serving the socket now (null while none)
    json waitForStatus(const std::function<bool(const json&)>& done, std::chrono::seconds deadline);
    void sample(const json& s);
    std::int64_t reloadsSeen(const json& s) const;
    bool waitForOutcome(std::int64_t before, bool expectSuccess, const char* what);
    void checkValues(const char* when);
    void writeKeeper(soak::KeeperShape shape);
    void writeAllScripts();
    void setValues();
    void forcedCrash();
    void replaceModule();
    void removeScriptsFolder();
    void startClients();
    void stopClients();
    void fail(const std::string& what);
    int report();

    Options o_;
    std::mt19937 random_;
    fs::path root_, scripts_, socket_, module_;
    std::unique_ptr<bp::child> host_;
    Model model_;
    int version_ = 1;
    bool keeperPresent_ = true;
    bool diskBroken_ = false; // SoakKeeper.cs on disk does not build, or its constructor throws

    std::map<int, HostRun> runs_; // by pid
    int currentPid_ = 0;
    int forcedCrashes_ = 0;
    int restartsSeen_ = 0;
    std::int64_t valuesChecked_ = 0, valuesLost_ = 0;
    std::map<std::string, int> actions_;
    std::vector<std::string> failures_;
    double frameP99Max_ = 0;

    std::atomic<bool> clientsStop_{false};
    std::atomic<std::int64_t> clientCalls_{0}, clientErrors_{0};
    std::vector<std::thread> clients_;
};

void Soak::fail(const std::string& what) {
    fmt::print(stderr, "soak: {}\n", what);
    failures_.push_back(what);
}

void Soak::setUp() {
    fs::create_directories(root_);
    writeAllScripts(); // the demo's scripts and the soak's own
    json scene = json::parse(readFile(fs::path(DEMO_GAME_DIR) / "scene.json"));
    scene["entities"].push_back({{"name", "SoakKeeper"}, {"scripts", {{{"class", "SoakKeeper"}}}}});
    scene["entities"].push_back({{"name", "SoakChurn"}, {"scripts", {{{"class", "SoakChurn"}}}}});
    writeFile(root_ / "scene.json", scene.dump(2));
    fs::create_directories(module_.parent_path());
    fs::copy_file(DEMO_GAME_MODULE, module_, fs::copy_options::overwrite_existing);
    ::setenv("XDG_STATE_HOME", (root_ / "state").c_str(), 1);
}

void Soak::writeAllScripts() {
    fs::create_directories(scripts_);
    for (const auto& entry : fs::directory_iterator(fs::path(DEMO_GAME_DIR) / "scripts")) {
        if (entry.path().extension() == ".cs" && !fs::exists(scripts_ / entry.path().filename()))
            fs::copy_file(entry.path(), scripts_ / entry.path().filename());
    }
    writeFile(scripts_ / "SoakChurn.cs", soak::churnSource());
    if (keeperPresent_)
        writeFile(scripts_ / "SoakKeeper.cs", soak::keeperSource(version_, soak::KeeperShape::Good));
}

void Soak::startHost() {
    std::vector<std::string> args{"run",         "--headless",     "--scripts",       scripts_.string(),
                                  "--scene",     (root_ / "scene.json").string(),   "--game",
                                  module_.string(), "--control",   socket_.string(),  "--state-interval",
                                  "1",           "--disable-after", "0",            "--crash-limit",
                                  "1000"};
    host_ = std::make_unique<bp::child>(SCRIPTHOST_EXE, bp::args(args), bp::std_in.close(),
                                        bp::std_out > (root_ / "host.log").string(),
                                        bp::std_err > (root_ / "host.err").string(),
                                        bp::start_dir(root_.string()));
}

json Soak::status() {
    auto reply = ControlClient::request(socket_, "status", json::object(), 300ms, 10s);
    if (!reply)
        return nullptr;
    sample(*reply);
    return *reply;
}

json Soak::waitForStatus(const std::function<bool(const json&)>& done,
                         std::chrono::seconds deadline) {
    const auto until = Clock::now() + deadline;
    while (Clock::now() < until) {
        json s = status();
        if (s.is_object() && done(s))
            return s;
        if (!host_->running())
            return nullptr;
        std::this_thread::sleep_for(20ms);
    }
    return nullptr;
}

void Soak::sample(const json& s) {
    const int pid = s.value("pid", 0);
    if (pid == 0)
        return;
    HostRun& run = runs_[pid];
    run.pid = pid;
    if (pid != currentPid_) {
        currentPid_ = pid;
        const int restarts = s.value("restarts", 0);
        if (restarts > restartsSeen_)
            restartsSeen_ = restarts;
    }
    run.reloadsOk = s["reloads"].value("ok", std::int64_t{0});
    run.reloadsFailed = s["reloads"].value("failed", std::int64_t{0});
    const long rss = procStatus(pid, "VmRSS");
    if (rss > 0) {
        if (run.rssFirstKiB < 0)
            run.rssFirstKiB = rss;
        run.rssLastKiB = rss;
        if (run.reloadsAt100 < 0 && run.reloadsOk + run.reloadsFailed >= 100) {
            run.reloadsAt100 = run.reloadsOk + run.reloadsFailed;
            run.rssAt100KiB = rss;
        }
    }
    run.threadsMax = std::max(run.threadsMax, procStatus(pid, "Threads"));
    const std::int64_t handles = s.value("gcHandles", std::int64_t{-1});
    if (run.gcHandlesFirst < 0)
        run.gcHandlesFirst = handles;
    run.gcHandlesLast = handles;
    if (s.contains("frameMs") && s["frameMs"].contains("p99"))
        frameP99Max_ = std::max(frameP99Max_, s["frameMs"]["p99"].get<double>());
}

std::int64_t Soak::reloadsSeen(const json& s) const {
    return s["reloads"].value("ok", std::int64_t{0}) + s["reloads"].value("failed", std::int64_t{0});
}

bool Soak::waitForOutcome(std::int64_t before, bool expectSuccess, const char* what) {
    const int pid = currentPid_;
    json s = waitForStatus(
        [&](const json& st) { return st.value("pid", 0) != pid || reloadsSeen(st) > before; },
        std::chrono::duration_cast<std::chrono::seconds>(kOutcomeDeadline));
    if (!s.is_object()) {
        fail(fmt::format("{}: no reload report within {} s", what, kOutcomeDeadline.count()));
        return false;
    }
    if (s.value("pid", 0) != pid)
        return false; // the host restarted: counted as a crash, values checked after
    const bool success = s["lastReload"].value("success", false);
    if (success != expectSuccess) {
        fail(fmt::format("{}: expected {}, the report says {}", what,
                         expectSuccess ? "a reload" : "a failure",
                         s["lastReload"].value("text", std::string("?"))));
        return false;
    }
    return true;
}

void Soak::checkValues(const char* when) {
    if (!keeperPresent_)
        return;
    auto client = ControlClient::connect(socket_, 2s);
    if (!client)
        return;
    // The new code's first frames: `live` shows the version once it runs.
    const json fields = model_.fields();
    for (const auto& [field, expected] : fields.items()) {
        auto reply = client->call("get", {{"entity", "SoakKeeper"}, {"script", "SoakKeeper"}, {"field", field}}, 10s);
        ++valuesChecked_;
        if (!reply || !reply->value("ok", false) || (*reply)["result"]["value"] != expected) {
            ++valuesLost_;
            fail(fmt::format("{}: SoakKeeper.{} is {}, the model says {}", when, field,
                             reply && reply->value("ok", false) ? (*reply)["result"]["value"].dump()
                                                               : std::string("unreadable"),
                             expected.dump()));
        }
    }
}

void Soak::writeKeeper(soak::KeeperShape shape) {
    writeFile(scripts_ / "SoakKeeper.cs", soak::keeperSource(version_, shape));
}

void Soak::setValues() {
    if (!keeperPresent_)
        return;
    std::uniform_int_distribution<int> any(-1000000, 1000000);
    model_.a = any(random_);
    model_.b = any(random_);
    model_.c = any(random_);
    model_.note = fmt::format("note {}", any(random_));
    auto client = ControlClient::connect(socket_, 2s);
    if (!client)
        return fail("set: no host");
    const json fields = model_.fields();
    for (const auto& [field, value] : fields.items()) {
        auto reply = client->call("set", {{"entity", "SoakKeeper"}, {"script", "SoakKeeper"},
                                          {"field", field}, {"value", value}}, 10s);
        if (!reply || !reply->value("ok", false))
            fail(fmt::format("set SoakKeeper.{}: {}", field, reply ? reply->dump() : reply.error().message));
    }
}

void Soak::forcedCrash() {
    // The state file must hold the model first: a crash loses what was not saved, by design.
    setValues();
    json s = status();
    if (!s.is_object())
        return fail("crash: no host");
    const fs::path stateFile = s["stateFile"].get<std::string>();
    const bool saved = [&] {
        const auto until = Clock::now() + 30s;
        while (Clock::now() < until) {
            const json state = json::parse(readFile(stateFile), nullptr, false);
            if (state.is_object()) {
                for (const json& e : state.value("entities", json::array())) {
                    if (e.value("name", "") != "SoakKeeper")
                        continue;
                    for (const json& script : e.value("scripts", json::array())) {
                        const json fields = script.value("fields", json::object());
                        if (fields.value("a", 0) == model_.a && fields.value("note", "") == model_.note)
                            return true;
                    }
                }
            }
            std::this_thread::sleep_for(50ms);
        }
        return false;
    }();
    if (!saved)
        return fail("crash: the state file never held the model's values");
    const int pid = s.value("pid", 0);
    const int restarts = s.value("restarts", 0);
    ::kill(pid, SIGSEGV);
    ++forcedCrashes_;
    json after = waitForStatus(
        [&](const json& st) { return st.value("restarts", 0) > restarts && st.value("frame", 0) >= 1; },
        90s);
    if (!after.is_object())
        return fail("crash: the host did not come back within 90 s");
    checkValues("after a forced crash");
    // The restarted host runs the code saved with the state, then rebuilds the folders and
    // reloads: let that reload end before the next step counts reports.
    json settled = waitForStatus(
        [&](const json& st) { return reloadsSeen(st) >= 1 && !st.value("reloadBusy", true); },
        std::chrono::duration_cast<std::chrono::seconds>(kOutcomeDeadline));
    if (!settled.is_object())
        return fail("crash: the restarted host never reloaded the scripts on disk");
    checkValues("after the restarted host reloaded the scripts on disk");
}

void Soak::replaceModule() {
    json s = status();
    if (!s.is_object())
        return fail("module: no host");
    const std::int64_t generation = s.value("gameModuleGeneration", std::int64_t{0});
    const std::int64_t reloads = reloadsSeen(s);
    const fs::path tmp = module_.string() + ".new";
    fs::copy_file(DEMO_GAME_MODULE, tmp, fs::copy_options::overwrite_existing);
    fs::rename(tmp, module_); // a linker's output renamed into place
    // The module is swapped, then the scripts are rebuilt and reloaded against it (its native
    // proxies): both must be over before the next step counts reports.
    const int pid = currentPid_;
    json after = waitForStatus(
        [&](const json& st) {
            return st.value("pid", 0) != pid ||
                   (st.value("gameModuleGeneration", std::int64_t{0}) > generation &&
                    reloadsSeen(st) > reloads && !st.value("reloadBusy", true));
        },
        std::chrono::duration_cast<std::chrono::seconds>(kOutcomeDeadline));
    if (!after.is_object())
        fail("module replaced: no module reload and scripts reload within the deadline");
    else if (after.value("pid", 0) == pid &&
             after["lastReload"].value("success", false) == diskBroken_)
        fail(fmt::format("module replaced: the scripts' reload after it should have {}: {}",
                         diskBroken_ ? "failed (the keeper on disk is broken)" : "succeeded",
                         after["lastReload"].value("text", std::string("?"))));
}

void Soak::removeScriptsFolder() {
    fs::remove_all(scripts_);
    json s = waitForStatus([&](const json& st) { return !st["watchedFoldersMissing"].empty(); }, 30s);
    if (!s.is_object())
        fail("folder removed: status never listed it missing");
    const std::int64_t before = s.is_object() ? reloadsSeen(s) : 0;
    ++version_;
    diskBroken_ = false; // every file written anew, the keeper good (if present)
    writeAllScripts();
    // Back: one build of everything, its reload ok (a failed report for the missing folder may
    // come first).
    json back = waitForStatus(
        [&](const json& st) {
            return st["watchedFoldersMissing"].empty() && reloadsSeen(st) > before &&
                   st["lastReload"].value("success", false);
        },
        std::chrono::duration_cast<std::chrono::seconds>(kOutcomeDeadline));
    if (!back.is_object())
        fail("folder put back: no successful reload");
}

void Soak::startClients() {
    for (int i = 0; i < o_.clients; ++i) {
        clients_.emplace_back([this, i] {
            std::optional<ControlClient> client;
            const char* commands[] = {"status", "entities", "coroutines"};
            int n = i;
            while (!clientsStop_) {
                if (!client) {
                    auto c = ControlClient::connect(socket_, 1s);
                    if (c)
                        client.emplace(std::move(*c));
                    else {
                        std::this_thread::sleep_for(200ms);
                        continue;
                    }
                }
                auto reply = client->call(commands[n++ % 3], json::object(), 10s);
                ++clientCalls_;
                if (!reply) {
                    ++clientErrors_; // a crash or restart drops the connection: reconnect
                    client.reset();
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50 + i * 5));
            }
        });
    }
}

void Soak::stopClients() {
    clientsStop_ = true;
    for (std::thread& t : clients_)
        t.join();
    clients_.clear();
}

int Soak::run() {
    setUp();
    startHost();
    if (!waitForStatus([](const json& s) { return s.value("frame", 0) >= 1; }, 120s).is_object()) {
        fmt::print(stderr, "soak: the host did not start:\n{}\n", readFile(root_ / "host.err"));
        return 1;
    }
    setValues();
    startClients();
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration<double, std::ratio<60>>(o_.minutes);
    const auto crashEvery = std::chrono::duration<double, std::ratio<60>>(o_.crashEveryMinutes);
    auto nextCrash = start + crashEvery;
    std::discrete_distribution<int> pick({40, 10, 10, 8, 15, 5, 4});
    while (Clock::now() < end && host_->running()) {
        if (o_.crashEveryMinutes > 0 && Clock::now() >= nextCrash) {
            ++actions_["forced crash"];
            forcedCrash();
            nextCrash = Clock::now() + crashEvery;
            continue;
        }
        json s = status();
        if (!s.is_object()) {
            std::this_thread::sleep_for(100ms);
            continue;
        }
        const std::int64_t before = reloadsSeen(s);
        switch (pick(random_)) {
        case 0: // a good edit (or the class back after its removal)
            ++actions_["good edit"];
            ++version_;
            keeperPresent_ = true;
            diskBroken_ = false;
            writeKeeper(soak::KeeperShape::Good);
            if (waitForOutcome(before, true, "good edit"))
                checkValues("after a good edit");
            break;
        case 1:
            ++actions_["syntax error"];
            if (!keeperPresent_)
                break;
            writeKeeper(soak::KeeperShape::SyntaxError);
            diskBroken_ = true;
            waitForOutcome(before, false, "syntax error");
            break;
        case 2:
            ++actions_["throwing constructor"];
            if (!keeperPresent_)
                break;
            ++version_;
            writeKeeper(soak::KeeperShape::ThrowingCtor);
            diskBroken_ = true;
            if (waitForOutcome(before, false, "throwing constructor"))
                checkValues("after a rollback");
            break;
        case 3:
            ++actions_["class removed"];
            if (!keeperPresent_)
                break;
            fs::remove(scripts_ / "SoakKeeper.cs");
            keeperPresent_ = false;
            diskBroken_ = false;
            waitForOutcome(before, true, "class removed");
            break;
        case 4:
            ++actions_["values set"];
            setValues();
            break;
        case 5:
            ++actions_["module replaced"];
            replaceModule();
            break;
        default:
            ++actions_["scripts folder removed and put back"];
            removeScriptsFolder();
            if (keeperPresent_)
                checkValues("after the scripts folder came back");
            break;
        }
    }
    stopClients();
    return report();
}

int Soak::report() {
    const bool running = host_->running();
    json last = status();
    const int restarts = restartsSeen_;
    const int unforced = std::max(0, restarts - forcedCrashes_);
    std::int64_t ok = 0, failed = 0;
    long rssFirst = -1, rssLast = -1;
    double perReloadAfter100 = -1;
    std::int64_t handlesFirst = -1, handlesLast = -1;
    long threadsMax = 0;
    for (const auto& [pid, run] : runs_) {
        ok += run.reloadsOk;
        failed += run.reloadsFailed;
        threadsMax = std::max(threadsMax, run.threadsMax);
        if (run.reloadsAt100 >= 0 && run.reloadsOk + run.reloadsFailed > run.reloadsAt100) {
            perReloadAfter100 = static_cast<double>(run.rssLastKiB - run.rssAt100KiB) /
                                static_cast<double>(run.reloadsOk + run.reloadsFailed - run.reloadsAt100);
        }
    }
    if (!runs_.empty()) {
        const HostRun& first = runs_.begin()->second;
        rssFirst = first.rssFirstKiB;
        handlesFirst = first.gcHandlesFirst;
        const HostRun& now = runs_.at(currentPid_);
        rssLast = now.rssLastKiB;
        handlesLast = now.gcHandlesLast;
    }
    if (unforced > 0)
        failures_.push_back(fmt::format("{} crash(es) the soak did not force", unforced));
    if (!running)
        failures_.push_back("the host is not running at the end");
    json out{{"minutes", o_.minutes},
             {"seed", o_.seed},
             {"crashes", {{"forced", forcedCrashes_}, {"unforced", unforced}}},
             {"restarts", restarts},
             {"reloads", {{"ok", ok}, {"failed", failed}}},
             {"actions", actions_},
             {"values", {{"checked", valuesChecked_}, {"lost", valuesLost_}}},
             {"rssKiB", {{"start", rssFirst}, {"end", rssLast}, {"perReloadAfter100", perReloadAfter100}}},
             {"gcHandles", {{"start", handlesFirst}, {"end", handlesLast}}},
             {"threadsMax", threadsMax},
             {"frameP99MsMax", frameP99Max_},
             {"controlClients", {{"count", o_.clients}, {"calls", clientCalls_.load()}, {"dropped", clientErrors_.load()}}},
             {"failures", failures_}};
    if (o_.json) {
        fmt::print("{}\n", out.dump());
    } else {
        fmt::print("soak: {:.1f} min, seed {}\n", o_.minutes, o_.seed);
        fmt::print("  crashes        {} forced, {} not forced; {} restarts\n", forcedCrashes_, unforced, restarts);
        fmt::print("  reloads        {} ok, {} failed (builds that failed and rollbacks, as asked)\n", ok, failed);
        std::string actions;
        for (const auto& [what, n] : actions_)
            actions += fmt::format("{}{} {}", actions.empty() ? "" : ", ", n, what);
        fmt::print("  actions        {}\n", actions);
        fmt::print("  values         {} checked, {} lost\n", valuesChecked_, valuesLost_);
        fmt::print("  RSS            {} -> {} KiB (first host process -> the last){}\n", rssFirst, rssLast,
                   perReloadAfter100 >= 0 ? fmt::format("; {:.1f} KiB per reload after the 100th", perReloadAfter100)
                                          : std::string("; no host process reached 100 reloads"));
        fmt::print("  GC handles     {} -> {}\n", handlesFirst, handlesLast);
        fmt::print("  threads        at most {}\n", threadsMax);
        fmt::print("  frame p99      at most {:.2f} ms\n", frameP99Max_);
        fmt::print("  control        {} clients, {} calls, {} dropped by restarts\n", o_.clients,
                   clientCalls_.load(), clientErrors_.load());
        for (const std::string& f : failures_)
            fmt::print("  FAILED: {}\n", f);
        fmt::print("{} passed, {} failed\n", failures_.empty() ? 1 : 0, failures_.empty() ? 0 : 1);
    }
    (void)last;
    return failures_.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"soak_driver: the real daemon with the demo game through a long day"};
    Soak::Options o;
    app.add_option("--minutes", o.minutes, "How long")->check(CLI::PositiveNumber);
    app.add_option("--seed", o.seed, "Seed of the random choices");
    app.add_option("--clients", o.clients, "Control clients calling all along")->check(CLI::NonNegativeNumber);
    app.add_option("--crash-every-minutes", o.crashEveryMinutes,
                   "Force a crash (SIGSEGV) this often; 0: never")->check(CLI::NonNegativeNumber);
    app.add_flag("--json", o.json, "Print one JSON object");
    CLI11_PARSE(app, argc, argv);
    std::signal(SIGPIPE, SIG_IGN);
    Soak soak(o);
    return soak.run();
}
