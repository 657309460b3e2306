// reload_torture: a seeded random sequence of edits to a folder of generated C# scripts (three
// assemblies by folder), with the real `scripthost run --headless` ticking throughout. After every
// step each field of every live script must hold the value the model (world_model.hpp) predicts
// from its own edit log; the host is driven and read through its control socket only.
//
//   reload_torture [--seed N] [--steps N] [--reloads N] [--report FILE] [--keep]
//
// The seed (also SCRIPTHOST_TORTURE_SEED; steps also SCRIPTHOST_TORTURE_STEPS) is printed
// first and again on a failure, so any failure replays with `--seed N`.

#include "../support/host_process.hpp"
#include "control/control_client.hpp"
#include "csharp_writer.hpp"
#include "edit_generator.hpp"
#include "migration_cross_check.hpp"
#include "world_model.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

namespace fs = std::filesystem;
using namespace scripthost::torture;
using namespace std::chrono_literals;
using nlohmann::json;
using scripthost::control::ControlClient;
using scripthost::testing::HostProcess;
using scripthost::testing::TempDir;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::uint64_t seed = 0;
    int steps = 40;
    int reloads = 0; ///< keep going until this many successful reloads (0: just `steps`)
    std::string report;
    bool keep = false;
    bool verbose = false;
    int classes = 5;
    int entities = 4;
    double timeoutSeconds = 60;
};

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

long rssKiB(int pid) {
    std::ifstream status(fmt::format("/proc/{}/status", pid));
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    }
    return -1;
}

std::uint64_t packedId(const json& id) {
    if (id.is_number_unsigned() || id.is_number_integer())
        return id.get<std::uint64_t>();
    // "index:generation" (what `entities` sends), "#index:generation" or "e<index>v<generation>"
    // (the form PROTOCOL.md names).
    std::string text = id.get<std::string>();
    if (!text.empty() && (text[0] == '#' || text[0] == 'e'))
        text.erase(0, 1);
    const auto at = text.find_first_of(":v");
    if (at == std::string::npos)
        throw Failure("an object id the test cannot read: " + id.dump());
    const std::uint64_t index = std::stoull(text.substr(0, at));
    const std::uint64_t generation = std::stoull(text.substr(at + 1));
    return (generation << 32) | index;
}

class Torture {
public:
    explicit Torture(Options options)
        : options_(std::move(options)), rng_(static_cast<std::mt19937::result_type>(options_.seed)),
          generator_(model_, rng_), dir_("torture") {}

    int run();

private:
    void setUp();
    void startHost();
    void step(const Edit& edit);
    void write(const Edit::Save& save);
    /// Where a file of the project lives: three assemblies by folder — the shared types in
    /// Shared/, every other class in GameA/ (which references Shared), the rest loose in the
    /// default assembly (which references both).
    [[nodiscard]] fs::path pathOf(const std::string& file) const;
    /// The next report (event `reload`) newer than the last one seen, or a failure.
    json nextReport(Clock::time_point deadline);
    /// Whether the host shows the model's state: parked slots and every live marker.
    bool hostRunsModelCode(const WorldModel& expect);
    void checkDiagnostics(Clock::time_point deadline);
    void settle();
    void verify(const std::string& when);
    json call(std::string_view cmd, const json& args = json::object());
    std::string slotName(int slot) const;
    Clock::time_point stepDeadline() const {
        return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(options_.timeoutSeconds));
    }
    /// Copies the scripts and the scene out of the temporary folder; returns where.
    fs::path keepCopy() const;

    Options options_;
    std::mt19937 rng_;
    WorldModel model_;
    EditGenerator generator_;
    TempDir dir_;
    fs::path scripts_, staging_, scene_, socket_;
    std::unique_ptr<HostProcess> host_;
    std::optional<ControlClient> control_, events_;
    std::deque<json> diagnostics_;
    IdTable ids_;
    std::int64_t lastSequence_ = 0;
    std::int64_t generation_ = 1;
    int stepNumber_ = 0;
    std::string currentEdit_ = "(start)";
    /// Per slot: the last `pulses` read, and whether its coroutine may have started again
    /// since (restarted by a reload, or started by Initialize when its class came back).
    std::vector<std::int64_t> lastPulses_;
    std::vector<bool> pulseRestarted_;
    /// Per slot: the last `heard` and `statics` read (neither ever goes back), and whether
    /// the slot's class came back since (its [PreserveStatic] static starts again then).
    std::vector<std::int64_t> lastHeard_, lastStatics_;
    std::vector<bool> revived_;
    /// Checks what the report says of each slot's coroutine Pulse against the model.
    void checkCoroutines(const json& report, const WorldModel& before, const WorldModel& after);
    /// Checks what the report says of every handler on every event against the model.
    void checkDelegates(const json& report, const WorldModel& after);
    /// Sets `peer` and `subscribe` and waits until the subscriber's Update has acted on them.
    void subscribe(const Edit& edit, Clock::time_point deadline);
    /// Waits until the loop has run `frames` more frames (so every Update saw the last change).
    void waitFrames(int frames);
    json getField(int slot, const std::string& field);
    /// `set` through the control socket; a refusal is a failure.
    void setField(int slot, const std::string& field, const json& value);
    // Figures.
    int reloadsOk_ = 0, rollbacks_ = 0, buildFailures_ = 0, extraReports_ = 0, checks_ = 0;
    int reloadsNamingAssemblies_ = 0; ///< reloads whose report named the assemblies built
    int coroutinesResumed_ = 0, coroutinesRestarted_ = 0, coroutinesStopped_ = 0;
    int delegatesRebound_ = 0, delegatesDropped_ = 0, subscriptionsMade_ = 0;
};

std::string Torture::slotName(int slot) const {
    const Slot& s = model_.slots[static_cast<std::size_t>(slot)];
    return fmt::format("{} on {} (slot {})", model_.files[static_cast<std::size_t>(s.cls)].name,
                       model_.entityNames[static_cast<std::size_t>(s.entity)], slot);
}

fs::path Torture::keepCopy() const {
    const fs::path out =
        fs::temp_directory_path() / fmt::format("reload-torture-{}", options_.seed);
    std::error_code ec;
    fs::remove_all(out, ec);
    fs::create_directories(out, ec);
    fs::copy(scripts_, out / "scripts", fs::copy_options::recursive, ec);
    fs::copy_file(scene_, out / "scene.json", ec);
    return out;
}

json Torture::call(std::string_view cmd, const json& args) {
    auto reply = control_->call(cmd, args, 30s);
    if (!reply)
        throw Failure(fmt::format("control call {} failed: {}", cmd, reply.error().message));
    return *reply;
}

fs::path Torture::pathOf(const std::string& file) const {
    if (file == "Mood.cs" || file == "Loadout.cs" || file == "Beat.cs")
        return scripts_ / "Shared" / file;
    for (std::size_t i = 0; i < model_.files.size(); ++i) {
        if (model_.files[i].name + ".cs" == file)
            return i % 2 == 0 ? scripts_ / "GameA" / file : scripts_ / file;
    }
    return scripts_ / file;
}

void Torture::write(const Edit::Save& save) {
    const fs::path target = pathOf(save.file);
    if (save.remove) {
        fs::remove(target);
        return;
    }
    // Written beside, then renamed in: the watcher never sees a half-written file.
    const fs::path temp = staging_ / save.file;
    scripthost::testing::writeFile(temp, save.text);
    fs::rename(temp, target);
}

void Torture::setUp() {
    generator_.createWorld(options_.classes, options_.entities);
    // Slots are made once; nothing has been read of their coroutines yet.
    lastPulses_.assign(model_.slots.size(), 0);
    pulseRestarted_.assign(model_.slots.size(), true);
    lastHeard_.assign(model_.slots.size(), 0);
    lastStatics_.assign(model_.slots.size(), 0);
    revived_.assign(model_.slots.size(), true);
    scripts_ = dir_ / "scripts";
    staging_ = dir_ / "staging";
    scene_ = dir_ / "scene.json";
    socket_ = dir_ / "control.sock";
    fs::create_directories(scripts_);
    fs::create_directories(staging_);
    scripthost::testing::writeFile(scripts_ / "Shared" / "Shared.asmdef", R"({"name": "Shared"})");
    scripthost::testing::writeFile(scripts_ / "GameA" / "GameA.asmdef",
                                   R"({"name": "GameA", "references": ["Shared"]})");
    scripthost::testing::writeFile(pathOf("Mood.cs"), moodSource(*model_.filesTypes));
    scripthost::testing::writeFile(pathOf("Loadout.cs"), loadoutSource(*model_.filesTypes));
    scripthost::testing::writeFile(pathOf("Beat.cs"), beatSource());
    for (const ClassSource& c : model_.files)
        scripthost::testing::writeFile(pathOf(c.name + ".cs"), classSource(c));
    json entities = json::array();
    for (std::size_t e = 0; e < model_.entityNames.size(); ++e) {
        json scriptList = json::array();
        for (const Slot& s : model_.slots) {
            if (s.entity == static_cast<int>(e))
                scriptList.push_back(
                    {{"class", "Torture." + model_.files[static_cast<std::size_t>(s.cls)].name}});
        }
        json entity{{"name", model_.entityNames[e]}, {"scripts", scriptList}};
        if (const int parent = model_.parents[e]; parent >= 0)
            entity["parent"] = model_.entityNames[static_cast<std::size_t>(parent)];
        entities.push_back(std::move(entity));
    }
    scripthost::testing::writeFile(
        scene_,
        json{{"format", "scripthost-scene"}, {"version", 1}, {"entities", entities}}.dump(2));
}

void Torture::startHost() {
    host_ = std::make_unique<HostProcess>(
        std::vector<std::string>{"run", "--headless", "--scripts", scripts_.string(), "--scene",
                                 scene_.string(), "--control", socket_.string(), "--fps", "60",
                                 "--no-supervise"}); // its RSS is read from the host's pid
    if (!scripthost::testing::waitUntil([&] { return fs::exists(socket_) || !host_->running(); },
                                        90s) ||
        !host_->running()) {
        throw Failure("the host did not start:\n" + host_->output());
    }
    // The server links the socket file into place only once it listens, so the first
    // connect succeeds; a refusal would be a bug worth reporting.
    auto connect = [&]() -> ControlClient {
        auto client = ControlClient::connect(socket_, 10s);
        if (!client)
            throw Failure("cannot connect to the control socket: " + client.error().message);
        return std::move(*client);
    };
    ControlClient control = connect();
    ControlClient events = connect();
    control_.emplace(std::move(control));
    events_.emplace(std::move(events));
    auto subscribed = events_->call("subscribe", {{"topics", {"reload", "diagnostics"}}}, 30s);
    if (!subscribed || !subscribed->value("ok", false))
        throw Failure("subscribe failed");

    // The ids of the scene's entities and scripts (slots were created in scene order).
    const json listed = call("entities");
    std::vector<std::size_t> nextOnEntity(model_.entityNames.size(), 0);
    ids_.entities.assign(model_.entityNames.size(), 0);
    ids_.slots.assign(model_.slots.size(), 0);
    for (const json& entity : listed["result"]["entities"]) {
        const std::string name = entity["name"];
        for (std::size_t e = 0; e < model_.entityNames.size(); ++e) {
            if (model_.entityNames[e] != name)
                continue;
            ids_.entities[e] = packedId(entity["id"]);
            for (const json& script : entity["scripts"]) {
                for (std::size_t s = 0; s < model_.slots.size(); ++s) {
                    const Slot& slot = model_.slots[s];
                    if (slot.entity == static_cast<int>(e) &&
                        script["class"] ==
                            "Torture." + model_.files[static_cast<std::size_t>(slot.cls)].name) {
                        ids_.slots[s] = packedId(script["id"]);
                    }
                }
            }
        }
    }
    for (std::size_t s = 0; s < ids_.slots.size(); ++s) {
        if (ids_.slots[s] == 0)
            throw Failure("the host has no script for " + slotName(static_cast<int>(s)));
    }
}

json Torture::nextReport(Clock::time_point deadline) {
    while (Clock::now() < deadline) {
        auto event = events_->next(250ms);
        if (!event)
            throw Failure("the event connection failed: " + event.error().message + "\n" +
                          host_->output());
        if (!*event) {
            if (!host_->running())
                throw Failure("the host exited");
            continue;
        }
        const json& message = **event;
        if (message["event"] == "diagnostics") {
            diagnostics_.push_back(message["data"]);
            continue;
        }
        if (message["event"] != "reload")
            continue;
        const json& report = message["data"];
        if (report["sequence"].get<std::int64_t>() <= lastSequence_)
            continue;
        lastSequence_ = report["sequence"].get<std::int64_t>();
        diagnostics_.clear(); // what came before belongs to earlier reports
        return report;
    }
    return nullptr;
}

bool Torture::hostRunsModelCode(const WorldModel& expect) {
    const json listed = call("entities");
    for (const json& entity : listed["result"]["entities"]) {
        for (const json& script : entity["scripts"]) {
            const std::uint64_t id = packedId(script["id"]);
            for (std::size_t s = 0; s < ids_.slots.size(); ++s) {
                if (ids_.slots[s] != id)
                    continue;
                if (script["parked"].get<bool>() == expect.slots[s].live)
                    return false;
            }
        }
    }
    for (int s : expect.liveSlots()) {
        const json got =
            call("get", {{"entity", ids_.entities[static_cast<std::size_t>(
                                        expect.slots[static_cast<std::size_t>(s)].entity)]},
                         {"script", ids_.slots[static_cast<std::size_t>(s)]},
                         {"field", "marker"}});
        if (!got.value("ok", false) || got["result"]["value"] != expect.markerOf(s))
            return false;
    }
    return true;
}

void Torture::checkDiagnostics(Clock::time_point deadline) {
    // The diagnostics event follows its reload report; one error must point at the broken
    // line of a file that has one.
    while (diagnostics_.empty() && Clock::now() < deadline) {
        auto event = events_->next(250ms);
        if (event && *event && (**event)["event"] == "diagnostics")
            diagnostics_.push_back((**event)["data"]);
    }
    if (diagnostics_.empty())
        throw Failure("no diagnostics event after a failed build");
    const json data = diagnostics_.back();
    diagnostics_.clear();
    for (const json& d : data["diagnostics"]) {
        for (const ClassSource& c : model_.files) {
            if (!c.present || !c.syntaxError)
                continue;
            const fs::path file = pathOf(c.name + ".cs");
            if (d["severity"] == "error" &&
                d["file"].get<std::string>().ends_with(c.name + ".cs") &&
                d["line"] == scripthost::testing::lineOf(file, "int broken = ;"))
                return;
        }
    }
    throw Failure("the diagnostics do not name the broken line: " + data.dump());
}

void Torture::settle() {
    // Until no build is in flight: a report that comes later belongs to no step.
    const auto deadline = stepDeadline();
    while (Clock::now() < deadline) {
        const json status = call("status")["result"];
        if (!status.value("reloadBusy", false)) {
            generation_ = status["generation"].get<std::int64_t>();
            return;
        }
        std::this_thread::sleep_for(20ms);
    }
    throw Failure("the host stayed busy reloading");
}

void Torture::step(const Edit& edit) {
    const auto deadline = stepDeadline();
    if (edit.kind == "subscribe") {
        subscribe(edit, deadline);
        return;
    }
    if (edit.kind == "parent") {
        const std::size_t e = static_cast<std::size_t>(edit.slot);
        const json parent = edit.publisher < 0
                                ? json()
                                : json(ids_.entities[static_cast<std::size_t>(edit.publisher)]);
        const json reply = call("parent", {{"entity", ids_.entities[e]}, {"parent", parent}});
        if (!reply.value("ok", false))
            throw Failure("parent failed: " + reply.dump());
        model_.parents[e] = edit.publisher;
        return;
    }
    if (edit.kind == "set") {
        SavedField* field = model_.value(edit.slot, edit.field);
        setField(edit.slot, edit.field,
                 toJson(field->kind, edit.value, ids_, *model_.runningTypes));
        field->value = edit.value;
        return;
    }
    std::int64_t generationBefore = generation_;
    for (std::size_t i = 0; i < edit.saves.size(); ++i) {
        write(edit.saves[i]);
        if (i + 1 < edit.saves.size())
            std::this_thread::sleep_for(
                std::chrono::milliseconds(1 + static_cast<int>(rng_() % 3)));
    }
    if (!model_.filesLoad()) {
        // Expect a rolled-back reload (a build error or a constructor that throws); the old
        // code keeps running with every value.
        for (;;) {
            const json report = nextReport(deadline);
            if (report.is_null())
                throw Failure("no reload report within the deadline (expected a rollback)\n" +
                              host_->output());
            if (report["success"].get<bool>()) {
                // A late report of the code already running changes nothing but the generation
                // (a later save of the previous step, seen after that step's reload had ended);
                // anything else is a reload that should not have happened.
                ++extraReports_;
                if (!hostRunsModelCode(model_))
                    throw Failure("a reload succeeded though the files do not load: " +
                                  report["text"].get<std::string>());
                generationBefore = report["toGeneration"].get<std::int64_t>();
                continue;
            }
            const bool buildFailed = report["failedPhase"] == "build";
            (buildFailed ? buildFailures_ : rollbacks_)++;
            bool syntaxError = false;
            for (const ClassSource& c : model_.files)
                syntaxError = syntaxError || (c.present && c.syntaxError);
            if (buildFailed != syntaxError) {
                throw Failure(fmt::format("expected a {} but the report says: {}",
                                          syntaxError ? "build failure" : "rollback after loading",
                                          report["text"].get<std::string>()));
            }
            if (buildFailed)
                checkDiagnostics(deadline);
            break;
        }
        settle();
        if (generation_ != generationBefore)
            throw Failure(fmt::format("the generation moved from {} to {} on a failed reload",
                                      generationBefore, generation_));
        return;
    }
    WorldModel after = model_;
    after.reload();
    if (auto disagreement = migrationDisagreement(model_, after))
        throw Failure("the torture model and the host's migrateFields disagree: " + *disagreement);
    bool sawSuccess = false;
    while (true) {
        const json report = nextReport(std::min(deadline, Clock::now() + 500ms));
        if (report.is_null()) {
            if (sawSuccess && hostRunsModelCode(after))
                break;
            if (Clock::now() >= deadline) {
                throw Failure("no reload report running the new code within the deadline\n" +
                              host_->output());
            }
            continue;
        }
        if (!report["success"].get<bool>())
            throw Failure("unexpected rollback: " + report["text"].get<std::string>());
        // Three assemblies by folder: a reload's build names the ones it built (a project of
        // one assembly would name none). It builds none only when the default assembly has just
        // lost its last loose class: what is left is reused as it is.
        bool looseClasses = false;
        for (std::size_t i = 1; i < after.files.size(); i += 2)
            looseClasses = looseClasses || after.files[i].present;
        if (report.value("assembliesBuilt", json::array()).empty()) {
            if (looseClasses)
                throw Failure("a reload of the three assemblies named none it built: " +
                              report["text"].get<std::string>());
        } else {
            ++reloadsNamingAssemblies_;
        }
        sawSuccess = true;
        if (hostRunsModelCode(after)) {
            // The host may already run a reload newer than this report's (a late save of the
            // previous step reloaded first, and this step's reload finished before we asked):
            // then this report is not the one that brought the new code, and that one follows.
            const std::int64_t running = call("status")["result"]["generation"].get<std::int64_t>();
            if (report["toGeneration"].get<std::int64_t>() < running) {
                ++extraReports_;
                continue;
            }
            checkCoroutines(report, model_, after);
            checkDelegates(report, after);
            break;
        }
        ++extraReports_; // an intermediate version of a burst (only the marker differs)
    }
    ++reloadsOk_;
    model_ = std::move(after);
    settle();
}

void Torture::checkCoroutines(const json& report, const WorldModel& before,
                              const WorldModel& after) {
    for (std::size_t s = 0; s < before.slots.size(); ++s) {
        const Slot& was = before.slots[s];
        const Slot& now = after.slots[s];
        std::vector<json> outcomes;
        for (const json& c : report.value("coroutines", json::array())) {
            if (c["script"].get<std::uint64_t>() == ids_.slots[s])
                outcomes.push_back(c);
        }
        if (!was.live) {
            // Parked before: its class came back, Initialize started a new coroutine.
            if (!outcomes.empty())
                throw Failure(fmt::format("the report carried a coroutine of parked {}: {}",
                                          slotName(static_cast<int>(s)), outcomes[0].dump()));
            pulseRestarted_[s] = true;
            revived_[s] = true;
            continue;
        }
        const int oldVersion = before.running[static_cast<std::size_t>(was.cls)].coroutine;
        const int newVersion = after.running[static_cast<std::size_t>(now.cls)].coroutine;
        const char* expected = !now.live                  ? "stopped"
                               : oldVersion == newVersion ? "resumed"
                                                          : "restarted";
        if (outcomes.size() != 1 || outcomes[0]["method"] != "Pulse" ||
            outcomes[0]["outcome"] != expected) {
            throw Failure(fmt::format("{}: the report should say its coroutine Pulse was {}, "
                                      "it says: {}",
                                      slotName(static_cast<int>(s)), expected,
                                      json(outcomes).dump()));
        }
        if (std::string_view(expected) == "resumed")
            ++coroutinesResumed_;
        else if (std::string_view(expected) == "restarted")
            ++coroutinesRestarted_, pulseRestarted_[s] = true;
        else
            ++coroutinesStopped_;
    }
}

json Torture::getField(int slot, const std::string& field) {
    const Slot& s = model_.slots[static_cast<std::size_t>(slot)];
    const json got = call("get", {{"entity", ids_.entities[static_cast<std::size_t>(s.entity)]},
                                  {"script", ids_.slots[static_cast<std::size_t>(slot)]},
                                  {"field", field}});
    if (!got.value("ok", false))
        throw Failure(fmt::format("get {} of {} failed: {}", field, slotName(slot), got.dump()));
    return got["result"]["value"];
}

void Torture::setField(int slot, const std::string& field, const json& value) {
    const Slot& s = model_.slots[static_cast<std::size_t>(slot)];
    const json reply = call("set", {{"entity", ids_.entities[static_cast<std::size_t>(s.entity)]},
                                    {"script", ids_.slots[static_cast<std::size_t>(slot)]},
                                    {"field", field},
                                    {"value", value}});
    if (!reply.value("ok", false))
        throw Failure(
            fmt::format("set {} of {} was refused: {}", field, slotName(slot), reply.dump()));
}

void Torture::waitFrames(int frames) {
    const std::int64_t start = call("status")["result"]["frame"].get<std::int64_t>();
    const auto deadline = stepDeadline();
    while (call("status")["result"]["frame"].get<std::int64_t>() < start + frames) {
        if (Clock::now() > deadline)
            throw Failure("the loop stopped running frames");
        std::this_thread::sleep_for(5ms);
    }
}

void Torture::subscribe(const Edit& edit, Clock::time_point deadline) {
    const Slot& slot = model_.slots[static_cast<std::size_t>(edit.slot)];
    setField(edit.slot, "peer", {{"id", ids_.slots[static_cast<std::size_t>(edit.publisher)]}});
    setField(edit.slot, "subscribe", edit.mode);
    while (getField(edit.slot, "subscribe") != 0) {
        if (Clock::now() > deadline)
            throw Failure("Update did not act on `subscribe`");
        std::this_thread::sleep_for(5ms);
    }
    const ClassSource& cls = model_.running[static_cast<std::size_t>(slot.cls)];
    if (edit.mode == -1) {
        // `-=` removes the last handler equal to the one given.
        const Subscription method{edit.publisher, edit.slot, false, cls.handler};
        const auto last =
            std::find(model_.subscriptions.rbegin(), model_.subscriptions.rend(), method);
        if (last == model_.subscriptions.rend())
            throw Failure("the generator removed a handler the model does not have");
        model_.subscriptions.erase(std::next(last).base());
    } else {
        model_.subscriptions.push_back(
            {edit.publisher, edit.slot, edit.mode == 2, edit.mode == 2 ? cls.lambda : cls.handler});
        ++subscriptionsMade_;
    }
}

void Torture::checkDelegates(const json& report, const WorldModel& after) {
    std::vector<json> reported;
    for (const json& d : report.value("delegates", json::array())) {
        if (d["field"] == "Beat")
            reported.push_back(d);
    }
    auto describeAll = [&] { return json(reported).dump(); };
    if (reported.size() != after.lastCarry.size()) {
        throw Failure(fmt::format("the model carried {} handlers across the reload, the report "
                                  "names {}: {}",
                                  after.lastCarry.size(), reported.size(), describeAll()));
    }
    // Per event, in subscription order: the same handlers, rebound or dropped as predicted.
    std::map<int, std::size_t> nextOf;
    for (const auto& [sub, rebound] : after.lastCarry) {
        const std::uint64_t publisher = ids_.slots[static_cast<std::size_t>(sub.publisher)];
        const std::uint64_t subscriber = ids_.slots[static_cast<std::size_t>(sub.subscriber)];
        std::size_t& from = nextOf[sub.publisher];
        while (from < reported.size() && reported[from]["script"].get<std::uint64_t>() != publisher)
            ++from;
        if (from == reported.size())
            throw Failure(fmt::format("the report lacks a handler on slot {}'s Beat: {}",
                                      sub.publisher, describeAll()));
        const json& d = reported[from++];
        const std::string target = d["target"].get<std::string>();
        const std::string on =
            fmt::format(" on #{}:{}", subscriber & 0xffffffffU, subscriber >> 32);
        const std::string method =
            sub.lambda ? std::string("m__") : fmt::format(".OnBeat{}", sub.version);
        if (target.find(on) == std::string::npos || target.find(method) == std::string::npos ||
            d["outcome"] != (rebound ? "rebound" : "dropped")) {
            throw Failure(fmt::format(
                "slot {}'s Beat: the model says slot {}'s {} handler was {}, the report: {}",
                sub.publisher, sub.subscriber, sub.lambda ? "lambda" : "method",
                rebound ? "rebound" : "dropped", d.dump()));
        }
        ++(rebound ? delegatesRebound_ : delegatesDropped_);
    }
}

void Torture::verify(const std::string& when) {
    // The hierarchy, as the control socket's `parent` steps and the scene made it.
    const json listed = call("entities");
    for (const json& entity : listed["result"]["entities"]) {
        for (std::size_t e = 0; e < model_.entityNames.size(); ++e) {
            if (packedId(entity["id"]) != ids_.entities[e])
                continue;
            const int parent = model_.parents[e];
            const bool same = parent < 0 ? entity["parent"].is_null()
                                         : !entity["parent"].is_null() &&
                                               packedId(entity["parent"]) ==
                                                   ids_.entities[static_cast<std::size_t>(parent)];
            if (!same)
                throw Failure(fmt::format(
                    "{}: {}'s parent is {}, the model's {}", when, model_.entityNames[e],
                    entity["parent"].dump(),
                    parent < 0 ? "none" : model_.entityNames[static_cast<std::size_t>(parent)]));
        }
    }
    for (std::size_t s = 0; s < model_.slots.size(); ++s) {
        const Slot& slot = model_.slots[s];
        if (!slot.live)
            continue;
        const ClassSource& cls = model_.running[static_cast<std::size_t>(slot.cls)];
        const json reply =
            call("get", {{"entity", ids_.entities[static_cast<std::size_t>(slot.entity)]},
                         {"script", ids_.slots[s]}});
        if (!reply.value("ok", false))
            throw Failure(fmt::format("{}: get {} failed: {}", when, slotName(static_cast<int>(s)),
                                      reply.dump()));
        const json& fields = reply["result"]["fields"];
        std::vector<std::string> names;
        for (const json& f : fields)
            names.push_back(f["name"]);
        std::vector<std::string> expected{"marker",    "pulse",     "pulses", "peer",
                                          "subscribe", "listeners", "heard",  "statics"};
        const std::size_t fixed = expected.size();
        for (const SavedField& f : slot.values)
            expected.push_back(f.name);
        if (names != expected) {
            throw Failure(fmt::format("{}: {} has fields [{}], the model expects [{}]", when,
                                      slotName(static_cast<int>(s)), fmt::join(names, ", "),
                                      fmt::join(expected, ", ")));
        }
        // The three fields the scripts' own code writes: Update's marker, the coroutine's
        // version and its loop count (which goes on across every reload that resumed it).
        if (fields[0]["value"] != cls.marker) {
            throw Failure(fmt::format("{}: {}.marker is {}, Update writes {}", when,
                                      slotName(static_cast<int>(s)), fields[0]["value"].dump(),
                                      cls.marker));
        }
        if (fields[1]["value"] != cls.coroutine) {
            throw Failure(fmt::format("{}: {}.pulse is {}, its coroutine writes {}", when,
                                      slotName(static_cast<int>(s)), fields[1]["value"].dump(),
                                      cls.coroutine));
        }
        const std::int64_t pulses = fields[2]["value"].get<std::int64_t>();
        if (!pulseRestarted_[s] && pulses < lastPulses_[s]) {
            throw Failure(fmt::format("{}: {}.pulses went back from {} to {}: its coroutine "
                                      "started again though no reload restarted it",
                                      when, slotName(static_cast<int>(s)), lastPulses_[s], pulses));
        }
        lastPulses_[s] = pulses;
        pulseRestarted_[s] = false;
        // The event: as many handlers as the model holds; what they heard never goes back.
        const std::size_t handlers = model_.handlersOf(static_cast<int>(s)).size();
        if (fields[5]["value"] != handlers) {
            throw Failure(fmt::format("{}: {}'s event Beat has {} handlers, the model {}", when,
                                      slotName(static_cast<int>(s)), fields[5]["value"].dump(),
                                      handlers));
        }
        const std::int64_t heard = fields[6]["value"].get<std::int64_t>();
        if (heard < lastHeard_[s]) {
            throw Failure(fmt::format("{}: {}.heard went back from {} to {}", when,
                                      slotName(static_cast<int>(s)), lastHeard_[s], heard));
        }
        lastHeard_[s] = heard;
        // The [PreserveStatic] count goes on across every reload (it starts again only when
        // the class itself was gone).
        const std::int64_t statics = fields[7]["value"].get<std::int64_t>();
        if (!revived_[s] && statics < lastStatics_[s]) {
            throw Failure(fmt::format("{}: {}.statics went back from {} to {}: a [PreserveStatic] "
                                      "static was not carried",
                                      when, slotName(static_cast<int>(s)), lastStatics_[s],
                                      statics));
        }
        lastStatics_[s] = statics;
        revived_[s] = false;
        for (std::size_t i = fixed; i < fields.size(); ++i) {
            const json& got = fields[i];
            const SavedField& want = slot.values[i - fixed];
            ++checks_;
            if (got["type"] != hostKindName(want.kind) ||
                !matches(want.kind, want.value, got["value"], ids_, *model_.runningTypes)) {
                throw Failure(fmt::format("{}: {}.{} is {} ({}), the model expects {} ({})", when,
                                          slotName(static_cast<int>(s)), want.name,
                                          got["value"].dump(),
                                          got.value("typeName", got["type"].dump()),
                                          describe(want.kind, want.value), kindLabel(want.kind)));
            }
        }
    }
}

int Torture::run() {
    const auto started = Clock::now();
    std::printf(
        "reload_torture: seed %llu, %d steps%s (replay: --seed %llu)\n",
        static_cast<unsigned long long>(options_.seed), options_.steps,
        options_.reloads > 0 ? fmt::format(", at least {} reloads", options_.reloads).c_str() : "",
        static_cast<unsigned long long>(options_.seed));
    std::fflush(stdout);
    long rssBefore = -1, rssAfter = -1;
    json handlesBefore = nullptr, handlesAfter = nullptr, domainsAfter = nullptr;
    json perStep = json::array();
    try {
        setUp();
        startHost();
        // The first frames have run once Update's markers show.
        const auto deadline = Clock::now() + 60s;
        while (!hostRunsModelCode(model_)) {
            if (Clock::now() > deadline)
                throw Failure("the scripts' first frame did not run");
            std::this_thread::sleep_for(20ms);
        }
        verify("at start");
        settle();
        rssBefore = rssKiB(host_->pid());
        handlesBefore = call("status")["result"].value("gcHandles", json(nullptr));
        for (stepNumber_ = 1; stepNumber_ <= options_.steps ||
                              (options_.reloads > 0 && reloadsOk_ < options_.reloads);
             ++stepNumber_) {
            const Edit edit = generator_.next();
            currentEdit_ = edit.kind + ": " + edit.description;
            if (options_.verbose) {
                std::printf("step %d: %s\n", stepNumber_, currentEdit_.c_str());
                std::fflush(stdout);
            }
            step(edit);
            waitFrames(2); // every Update has run once since: `listeners` counts the handlers
            verify("after the step");
            if (!host_->running())
                throw Failure("the host exited");
        }
        rssAfter = rssKiB(host_->pid());
        const json status = call("status")["result"];
        handlesAfter = status.value("gcHandles", json(nullptr));
        domainsAfter = status.value("appDomains", json(nullptr));
        const json stopped = call("stop");
        if (host_->wait(60s) != 0)
            throw Failure("the host did not stop cleanly:\n" + host_->output());
    } catch (const std::exception& e) {
        std::fprintf(stderr,
                     "reload_torture FAILED: seed %llu, step %d\n  edit: %s\n  %s\n"
                     "replay: reload_torture --seed %llu --steps %d --verbose --keep\n",
                     static_cast<unsigned long long>(options_.seed), stepNumber_,
                     currentEdit_.c_str(), e.what(), static_cast<unsigned long long>(options_.seed),
                     stepNumber_);
        if (host_) {
            const std::string out = host_->output();
            std::fprintf(stderr, "--- host output (last 6000 bytes) ---\n%s\n",
                         out.substr(out.size() > 6000 ? out.size() - 6000 : 0).c_str());
        }
        if (options_.keep)
            std::fprintf(stderr, "scripts kept in %s\n", keepCopy().c_str());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    const ReloadTally& t = model_.tally;
    const json tally{{"carried", t.carried},
                     {"renamed", t.renamed},
                     {"converted", t.converted},
                     {"notConvertedParked", t.notConverted},
                     {"unparked", t.unparked},
                     {"unparkedAtTypeChange", t.unparkedAtTypeChange},
                     {"added", t.added},
                     {"removedParked", t.parkedRemoved},
                     {"scriptsParked", t.scriptsParked},
                     {"scriptsRevived", t.scriptsRevived},
                     {"referencesCleared", t.referencesCleared},
                     {"recordsMigrated", t.membersMigrated},
                     {"membersParked", t.membersParked},
                     {"membersUnparked", t.membersUnparked}};
    std::string outcomes;
    for (const auto& [name, n] : tally.items())
        outcomes += fmt::format("{}{} {}", outcomes.empty() ? "" : ", ", name, n.get<int>());
    std::string counts;
    for (const auto& [kind, n] : generator_.counts())
        counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", kind, n);
    std::printf(
        "reload_torture: PASSED seed %llu: %d steps (%s)\n"
        "  %d reloads ok, %d rolled back after loading, %d build failures, %d extra reports, "
        "%d field checks, 0 failures\n"
        "  three assemblies by folder (Shared, GameA, the default): %d reloads named those built\n"
        "  coroutines: %d resumed, %d restarted, %d stopped, as the model predicts\n"
        "  event handlers: %d subscribed, %d rebound, %d dropped, as the model predicts\n"
        "  model outcomes: %s\n"
        "  host RSS %ld KiB -> %ld KiB (%+ld KiB), GC handles %s -> %s, app domains %s, %.1f s\n",
        static_cast<unsigned long long>(options_.seed), stepNumber_ - 1, counts.c_str(), reloadsOk_,
        rollbacks_, buildFailures_, extraReports_, checks_, reloadsNamingAssemblies_,
        coroutinesResumed_, coroutinesRestarted_, coroutinesStopped_, subscriptionsMade_,
        delegatesRebound_, delegatesDropped_, outcomes.c_str(), rssBefore, rssAfter,
        rssAfter - rssBefore, handlesBefore.dump().c_str(), handlesAfter.dump().c_str(),
        domainsAfter.dump().c_str(), seconds);
    if (!options_.report.empty()) {
        json out{{"seed", options_.seed},
                 {"steps", stepNumber_ - 1},
                 {"edits", generator_.counts()},
                 {"reloadsOk", reloadsOk_},
                 {"rollbacks", rollbacks_},
                 {"buildFailures", buildFailures_},
                 {"extraReports", extraReports_},
                 {"fieldChecks", checks_},
                 {"coroutines",
                  {{"resumed", coroutinesResumed_},
                   {"restarted", coroutinesRestarted_},
                   {"stopped", coroutinesStopped_}}},
                 {"eventHandlers",
                  {{"subscribed", subscriptionsMade_},
                   {"rebound", delegatesRebound_},
                   {"dropped", delegatesDropped_}}},
                 {"failures", 0},
                 {"modelOutcomes", tally},
                 {"rssKiBBefore", rssBefore},
                 {"rssKiBAfter", rssAfter},
                 {"gcHandlesBefore", handlesBefore},
                 {"gcHandlesAfter", handlesAfter},
                 {"appDomainsAfter", domainsAfter},
                 {"seconds", seconds}};
        std::ofstream(options_.report) << out.dump(2) << "\n";
    }
    if (options_.keep)
        std::printf("scripts kept in %s\n", keepCopy().c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    if (const char* seed = std::getenv("SCRIPTHOST_TORTURE_SEED"))
        options.seed = std::stoull(seed);
    else
        options.seed = std::random_device{}();
    if (const char* steps = std::getenv("SCRIPTHOST_TORTURE_STEPS"))
        options.steps = std::stoi(steps);
    CLI::App app{"reload_torture: seeded random script edits against a running scripthost, "
                 "every value checked against a model"};
    app.add_option("--seed", options.seed,
                   "random seed (default: SCRIPTHOST_TORTURE_SEED or random)");
    app.add_option("--steps", options.steps,
                   "edits to make (default: SCRIPTHOST_TORTURE_STEPS or 40)");
    app.add_option("--reloads", options.reloads, "keep going until this many successful reloads");
    app.add_option("--report", options.report, "write the figures as JSON to this file");
    app.add_option("--timeout", options.timeoutSeconds, "seconds to wait for each step's reload");
    app.add_flag("--keep", options.keep, "keep the temporary scripts folder");
    app.add_flag("--verbose", options.verbose, "print every edit");
    CLI11_PARSE(app, argc, argv);
    return Torture(options).run();
}
