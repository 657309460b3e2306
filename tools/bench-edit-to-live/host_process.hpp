#pragma once
// A `scripthost run --headless --log-format json` process for bench_edit_to_live: its stderr
// read on a thread, each line stamped with the steady clock the moment it is read.

#include "bench_projects.hpp"

#include <boost/process.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <fstream>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace scripthost::bench {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

/// One log line of the host, stamped when it was read.
/// --host-log: every line the hosts log, as they come (for finding where time went).
inline std::ofstream hostLog;
inline std::mutex hostLogMutex;

struct Line {
    Clock::time_point at;
    std::string message;
    std::string level;
};

/// A `scripthost run --headless --log-format json` process; its stderr is read on a
/// thread.
class Host {
public:
    Host(const fs::path& exe, const Project& p, bool cold, bool prepared) {
        std::vector<std::string> args{"run",
                                      "--headless",
                                      "--frames",
                                      "0",
                                      "--no-control",
                                      "--log-format",
                                      "json",
                                      "--scripts",
                                      p.scripts.string(),
                                      "--build-dir",
                                      (p.root / (cold ? "build-cold" : "build-warm")).string()};
        if (!p.scene.empty())
            args.insert(args.end(), {"--scene", p.scene.string()});
        if (!p.game.empty())
            args.insert(args.end(), {"--game", p.game.string()});
        if (cold)
            args.push_back("--cold-compiler");
        if (!prepared)
            args.push_back("--no-prepared-domain");
        child_ = bp::child(exe.string(), bp::args(args), bp::start_dir(p.root.string()),
                           bp::std_in.close(), bp::std_out > bp::null, bp::std_err > pipe_);
        reader_ = std::thread([this] { read(); });
    }
    ~Host() {
        std::error_code ec;
        if (child_.running(ec)) {
            ::kill(child_.id(), SIGTERM);
            const auto deadline = Clock::now() + std::chrono::seconds(20);
            while (child_.running(ec) && Clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (child_.running(ec))
                child_.terminate(ec);
        }
        if (reader_.joinable())
            reader_.join();
    }
    Host(const Host&) = delete;
    Host& operator=(const Host&) = delete;

    /// Waits for the first line from now on (lines already seen are skipped) whose
    /// message satisfies `match`; throws on timeout, on the host exiting, or on a
    /// failed reload.
    Line waitFor(const std::function<bool(const std::string&)>& match, std::chrono::seconds timeout,
                 const std::string& what) {
        std::unique_lock lock(mutex_);
        const auto deadline = Clock::now() + timeout;
        while (true) {
            while (!lines_.empty()) {
                Line line = std::move(lines_.front());
                lines_.pop_front();
                if (line.message.rfind("reload #", 0) == 0 &&
                    line.message.find(" failed in ") != std::string::npos)
                    throw BenchError("a reload failed while waiting for " + what + ":\n" +
                                     line.message + tail());
                if (match(line.message))
                    return line;
            }
            if (closed_)
                throw BenchError("the host exited while waiting for " + what + tail());
            if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && lines_.empty())
                throw BenchError("timed out waiting for " + what + tail());
        }
    }

private:
    void read() {
        std::string text;
        while (std::getline(pipe_, text)) {
            const auto at = Clock::now();
            auto j = nlohmann::json::parse(text, nullptr, false);
            Line line{at, text, ""};
            if (j.is_object() && j.contains("message") && j["message"].is_string()) {
                line.message = j["message"].get<std::string>();
                line.level = j.value("level", "");
            }
            if (hostLog.is_open()) {
                std::lock_guard logLock(hostLogMutex);
                hostLog << line.message << '\n';
            }
            std::lock_guard lock(mutex_);
            recent_.push_back(line.message);
            if (recent_.size() > 40)
                recent_.pop_front();
            lines_.push_back(std::move(line));
            cv_.notify_all();
        }
        std::lock_guard lock(mutex_);
        closed_ = true;
        cv_.notify_all();
    }
    std::string tail() const {
        std::string text = "\n  last host log lines:";
        for (const std::string& l : recent_)
            text += "\n    " + l;
        return text;
    }

    bp::ipstream pipe_;
    bp::child child_;
    std::thread reader_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Line> lines_;
    std::deque<std::string> recent_;
    bool closed_ = false;
};

} // namespace scripthost::bench
