// bench_restart [--quick] [--json] [--runs N]
//
// How long a crashed host is gone: the demo game under `scripthost run` (supervised), its host
// process killed with SIGSEGV (Mono's crash handler runs, writes its report, aborts) or SIGKILL,
// until the restarted host has run its first frame again (status: restarts went up, frame >= 1).
// Baseline, same run: a cold start of the same host (--no-supervise), from spawning the process
// to its first frame. Issue 28's target: kill -> first frame <= 2 s (printed, not asserted).
#include "../bench-common/sample_stats.hpp"
#include "control/control_client.hpp"

#include <CLI/CLI.hpp>
#include <boost/process.hpp>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

namespace fs = std::filesystem;
namespace bp = boost::process;
using Clock = std::chrono::steady_clock;
using scripthost::control::ControlClient;

namespace {

constexpr auto kDeadline = std::chrono::seconds(120);

/// Status from the host serving `socket` now, or null.
nlohmann::json statusNow(const fs::path& socket) {
    auto status = ControlClient::request(socket, "status", nlohmann::json::object(),
                                         std::chrono::milliseconds(200), std::chrono::seconds(5));
    return status ? *status : nlohmann::json();
}

/// Polls until `done(status)`; the status then, or throws at the deadline.
template <typename Done> nlohmann::json waitFor(const fs::path& socket, Done done) {
    const auto until = Clock::now() + kDeadline;
    while (Clock::now() < until) {
        nlohmann::json status = statusNow(socket);
        if (status.is_object() && done(status))
            return status;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    throw std::runtime_error("the host did not come up within the deadline");
}

struct Folder {
    fs::path path;
    Folder() {
        std::random_device rd;
        path = fs::temp_directory_path() / fmt::format("scripthost-bench-restart-{}", rd());
        fs::create_directories(path);
    }
    ~Folder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::vector<std::string> hostArgs(const fs::path& socket, std::vector<std::string> extra) {
    std::vector<std::string> args{"run",     "--headless", "--scripts", DEMO_GAME_DIR "/scripts",
                                  "--scene", DEMO_GAME_DIR "/scene.json", "--game",
                                  DEMO_GAME_MODULE, "--control", socket.string(),
                                  "--crash-limit", "1000"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

/// Spawn -> first frame of a host without a supervisor.
double coldStart(const Folder& folder) {
    const fs::path socket = folder.path / "cold.sock";
    const auto start = Clock::now();
    bp::child host(SCRIPTHOST_EXE, bp::args(hostArgs(socket, {"--no-supervise"})),
                   bp::std_out > bp::null, bp::std_err > bp::null, bp::std_in.close());
    waitFor(socket, [](const nlohmann::json& s) { return s.value("frame", 0) >= 1; });
    const double ms = scripthost::bench::msBetween(start, Clock::now());
    ::kill(host.id(), SIGTERM);
    host.wait();
    return ms;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_restart: a supervised host killed -> its first frame again"};
    bool quick = false, json = false;
    int runs = 10;
    app.add_flag("--quick", quick, "3 runs per case instead of 10");
    app.add_flag("--json", json, "Print one JSON object instead of a table");
    app.add_option("--runs", runs, "Runs per case")->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);
    if (quick)
        runs = 3;

    Folder folder;
    ::setenv("XDG_STATE_HOME", (folder.path / "state").c_str(), 1); // the hosts' state files
    std::vector<double> cold, afterSegv, afterKill;
    try {
        for (int i = 0; i < runs; ++i)
            cold.push_back(coldStart(folder));

        const fs::path socket = folder.path / "supervised.sock";
        bp::child host(SCRIPTHOST_EXE, bp::args(hostArgs(socket, {})), bp::std_out > bp::null,
                       bp::std_err > bp::null, bp::std_in.close(), bp::start_dir(folder.path.string()));
        nlohmann::json status =
            waitFor(socket, [](const nlohmann::json& s) { return s.value("frame", 0) >= 1; });
        int restarts = 0;
        for (int i = 0; i < 2 * runs; ++i) {
            const int signal = i % 2 == 0 ? SIGSEGV : SIGKILL;
            const auto killed = Clock::now();
            ::kill(status["pid"].get<int>(), signal);
            ++restarts;
            status = waitFor(socket, [&](const nlohmann::json& s) {
                return s.value("restarts", 0) == restarts && s.value("frame", 0) >= 1;
            });
            (signal == SIGSEGV ? afterSegv : afterKill)
                .push_back(scripthost::bench::msBetween(killed, Clock::now()));
        }
        ::kill(host.id(), SIGTERM);
        host.wait();
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_restart: {}\n", e.what());
        return 1;
    }

    using scripthost::bench::median;
    using scripthost::bench::p95;
    const double base = median(cold);
    auto row = [&](const char* name, const std::vector<double>& v, bool target) {
        nlohmann::json r{{"name", name},
                         {"median_ms", median(v)},
                         {"p95_ms", p95(v)},
                         {"baseline", target ? "cold_start" : ""},
                         {"ratio", target ? median(v) / base : 1.0}};
        if (target)
            r["target"] = fmt::format("<= 2000 ms: {}", median(v) <= 2000 ? "PASS" : "MISS");
        return r;
    };
    const nlohmann::json results = nlohmann::json::array(
        {row("cold_start", cold, false), row("kill_sigsegv_to_first_frame", afterSegv, true),
         row("kill_sigkill_to_first_frame", afterKill, true)});
    if (json) {
        fmt::print("{}\n",
                   nlohmann::json{{"benchmark", "restart"}, {"runs", runs}, {"results", results}}.dump());
        return 0;
    }
    fmt::print("bench_restart: {} runs per case, demo game, times in ms (spawn or kill -> first "
               "frame)\n",
               runs);
    for (const nlohmann::json& r : results) {
        fmt::print("  {:<30} median {:>8.1f}  p95 {:>8.1f}  x{:.2f} vs cold start{}\n",
                   r["name"].get<std::string>(), r["median_ms"].get<double>(),
                   r["p95_ms"].get<double>(), r["median_ms"].get<double>() / base,
                   r.contains("target") ? "  " + r["target"].get<std::string>() : "");
    }
    return 0;
}
