#pragma once
// HostProcess: the real scripthost binary run from a test, its output collected.

#include "../../support/test_support.hpp"

#include <boost/process.hpp>
#include <csignal>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace scripthost::testing {

/// A running scripthost whose merged stdout+stderr is collected on a reader thread.
class HostProcess {
public:
    explicit HostProcess(std::vector<std::string> args)
        : HostProcess(std::string(SCRIPTHOST_EXE), std::move(args)) {}
    /// Runs in `workingDir` (where a default ./scripthost.toml is looked for).
    HostProcess(std::vector<std::string> args, const std::filesystem::path& workingDir)
        : HostProcess(std::string(SCRIPTHOST_EXE), std::move(args), workingDir) {}
    /// Another program beside the host, its output collected the same way (`scriptctl watch`).
    HostProcess(const std::string& executable, std::vector<std::string> args,
                const std::filesystem::path& workingDir = std::filesystem::current_path())
        : child_(executable, boost::process::args(std::move(args)),
                 boost::process::start_dir(workingDir.string()), boost::process::std_in.close(),
                 (boost::process::std_out & boost::process::std_err) > pipe_) {
        reader_ = std::thread([this] {
            std::string line;
            while (std::getline(pipe_, line)) {
                std::lock_guard lock(mutex_);
                output_ += line + "\n";
            }
        });
    }
    ~HostProcess() {
        if (child_.running())
            child_.terminate();
        if (reader_.joinable())
            reader_.join();
    }
    HostProcess(const HostProcess&) = delete;
    HostProcess& operator=(const HostProcess&) = delete;

    std::string output() {
        std::lock_guard lock(mutex_);
        return output_;
    }
    /// Waits (with a deadline) until the output contains `text`.
    bool waitForOutput(const std::string& text,
                       std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
        return waitUntil([&] { return output().find(text) != std::string::npos; }, timeout);
    }
    /// The process id (for /proc/PID/status).
    [[nodiscard]] int pid() const { return child_.id(); }
    /// Sends a signal (SIGTERM, SIGINT) to the process.
    void signal(int sig) { ::kill(child_.id(), sig); }
    [[nodiscard]] bool running() {
        std::error_code ec;
        return child_.running(ec);
    }
    /// Waits for exit (with a deadline) and returns the exit code, or -1 on timeout.
    /// Polls waitpid rather than using child::wait_for: Boost 1.74's wait_for sleeps in
    /// sigtimedwait for SIGCHLD without blocking it, so when the signal lands on another
    /// thread (the reader) or came before the call, it waits out the whole deadline.
    int wait(std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
        std::error_code ec;
        if (!waitUntil([&] { return !child_.running(ec) || ec; }, timeout) || ec) {
            child_.terminate(ec);
            return -1;
        }
        if (reader_.joinable())
            reader_.join();
        return child_.exit_code();
    }

private:
    boost::process::ipstream pipe_;
    boost::process::child child_;
    std::thread reader_;
    std::mutex mutex_;
    std::string output_;
};

} // namespace scripthost::testing
