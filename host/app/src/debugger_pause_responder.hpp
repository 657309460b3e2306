#pragma once
// DebuggerPauseResponder: answers the control socket while a debugger holds the main thread.

#include "control/control_server.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace scripthost {

/// Control requests run on the main thread between frames (Daemon::serveControl). A debugger
/// client that stops the main thread at a breakpoint stops that too, and Mono's agent tells
/// no one when it does. This thread of its own (not attached to Mono) watches for the one
/// sign there is: a client attached to the agent and a main thread that has not served the
/// socket for `heldAfter`. Then it answers what is queued itself: `status` with the last
/// generation and frame the main thread saw and `"state": "paused in debugger"`, every other
/// command with the error `paused_in_debugger`. Only made with the debugger agent on.
class DebuggerPauseResponder {
public:
    static constexpr std::chrono::milliseconds kDefaultHeldAfter{500};

    /// `agent`: how the agent meets its client, for the status ("listening on 127.0.0.1:…").
    DebuggerPauseResponder(control::ControlServer& server, std::string agent,
                           std::chrono::milliseconds heldAfter = kDefaultHeldAfter);
    ~DebuggerPauseResponder();
    DebuggerPauseResponder(const DebuggerPauseResponder&) = delete;
    DebuggerPauseResponder& operator=(const DebuggerPauseResponder&) = delete;

    /// The main thread has served the socket and is about to tick this generation and frame.
    /// (Main thread, each frame.)
    void mainThreadServing(std::uint64_t generation, std::int64_t frame) noexcept;

    /// What the full status carries about the debugger: {"agent", "attached"}.
    [[nodiscard]] nlohmann::json describe() const;

private:
    void run();
    void answer(const control::Request& request, std::chrono::steady_clock::duration held);

    control::ControlServer& server_;
    const std::string agent_;
    const std::chrono::milliseconds heldAfter_;
    std::atomic<std::chrono::steady_clock::rep> lastServed_;
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<std::int64_t> frame_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace scripthost
