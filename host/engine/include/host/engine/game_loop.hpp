#pragma once
// GameLoop: paces frames and drives a ScriptHost until told to stop.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

namespace scripthost {

class ScriptHost;

struct GameLoopOptions {
    double fps = 60.0;          ///< target frame rate; 0 runs unpaced, as fast as possible
    std::int64_t maxFrames = 0; ///< stop after this many frames; 0 runs until stopped
    double maxDelta = 0.25;     ///< a frame never advances game time by more than this (s)
};

/// What a loop owner does around each frame.
struct FrameHooks {
    /// Before the tick; returns whether to tick this frame (false: paused — the frame
    /// still paces and runs afterFrame, but game time stands still and it is not counted).
    std::function<bool(double deltaSeconds)> beforeTick;
    /// After the tick (or the paused frame): control requests, reload stages, drawing.
    std::function<void()> afterFrame;
    /// When the loop is paced and the frame ended early: the time until the next frame is
    /// due (the argument) is the hook's to use — reload stages run there — before the loop
    /// sleeps off whatever is left. The hook must return by then. Returning true starts the
    /// next frame at once instead (its boundary has work that should not wait: a reload's
    /// swap); the period then counts from that frame. A frame comes early, none late.
    std::function<bool(std::chrono::steady_clock::time_point nextFrame)> idle;
};

/// Runs frames at a steady rate: each frame's delta is the measured wall time since the
/// last (capped at maxDelta, so a pause in a debugger does not become a giant step),
/// and the loop sleeps off what is left of the frame's period. Main thread only.
class GameLoop {
public:
    explicit GameLoop(GameLoopOptions options) noexcept : options_(options) {}

    /// Ticks `host` until `stop` becomes true or maxFrames have run. `betweenFrames`, if
    /// set, runs after every frame (the place for control requests and reload swaps).
    /// Returns the number of frames run.
    std::int64_t run(ScriptHost& host, const std::atomic<bool>& stop,
                     const std::function<void()>& betweenFrames = {});
    /// The same with FrameHooks; returns the number of frames ticked.
    std::int64_t run(ScriptHost& host, const std::atomic<bool>& stop, const FrameHooks& hooks);

private:
    GameLoopOptions options_;
};

} // namespace scripthost
