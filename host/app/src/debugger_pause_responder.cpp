#include "debugger_pause_responder.hpp"

#include "host/runtime/mono_runtime.hpp"

#include <fmt/format.h>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kCheckPeriod = std::chrono::milliseconds(50);

} // namespace

DebuggerPauseResponder::DebuggerPauseResponder(control::ControlServer& server, std::string agent,
                                               std::chrono::milliseconds heldAfter)
    : server_(server), agent_(std::move(agent)), heldAfter_(heldAfter),
      lastServed_(Clock::now().time_since_epoch().count()) {
    thread_ = std::thread([this] { run(); });
}

DebuggerPauseResponder::~DebuggerPauseResponder() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void DebuggerPauseResponder::mainThreadServing(std::uint64_t generation,
                                               std::int64_t frame) noexcept {
    generation_.store(generation, std::memory_order_relaxed);
    frame_.store(frame, std::memory_order_relaxed);
    lastServed_.store(Clock::now().time_since_epoch().count(), std::memory_order_release);
}

nlohmann::json DebuggerPauseResponder::describe() const {
    return {{"agent", agent_}, {"attached", MonoRuntime::debuggerAttached()}};
}

void DebuggerPauseResponder::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, kCheckPeriod);
        if (stopping_ || !MonoRuntime::debuggerAttached())
            continue;
        const Clock::time_point served{
            Clock::duration(lastServed_.load(std::memory_order_acquire))};
        const auto held = Clock::now() - served;
        if (held < heldAfter_)
            continue;
        lock.unlock();
        for (const control::Request& request : server_.takeRequests())
            answer(request, held);
        lock.lock();
    }
}

void DebuggerPauseResponder::answer(const control::Request& request, Clock::duration held) {
    const double heldSeconds = std::chrono::duration<double>(held).count();
    if (request.cmd == "status") {
        server_.replyOk(
            request.client, request.id,
            {{"state", "paused in debugger"},
             {"generation", generation_.load(std::memory_order_relaxed)},
             {"frame", frame_.load(std::memory_order_relaxed)},
             {"paused", true},
             {"debugger", {{"agent", agent_}, {"attached", true}, {"heldSeconds", heldSeconds}}}});
        return;
    }
    server_.replyError(request.client, request.id, control::error_code::pausedInDebugger,
                       fmt::format("the host's main thread has been held by the debugger for "
                                   "{:.1f} s; continue in the debugger, then try again",
                                   heldSeconds));
}

} // namespace scripthost
