#include "host/engine/game_loop.hpp"

#include "host/engine/script_host.hpp"
#include "posix/sleep_until.hpp"

#include <algorithm>
#include <chrono>

namespace scripthost {

std::int64_t GameLoop::run(ScriptHost& host, const std::atomic<bool>& stop,
                           const std::function<void()>& betweenFrames) {
    return run(host, stop, FrameHooks{{}, betweenFrames, {}});
}

std::int64_t GameLoop::run(ScriptHost& host, const std::atomic<bool>& stop,
                           const FrameHooks& hooks) {
    using Clock = std::chrono::steady_clock;
    const auto period = options_.fps > 0 ? std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(1.0 / options_.fps))
                                         : Clock::duration::zero();
    std::int64_t frames = 0;
    auto last = Clock::now();
    auto nextFrame = last + period;
    // The first frame advances by one period (or a nominal 1/60 s when unpaced).
    double delta = options_.fps > 0 ? 1.0 / options_.fps : 1.0 / 60.0;
    while (!stop.load(std::memory_order_relaxed) &&
           (options_.maxFrames == 0 || frames < options_.maxFrames)) {
        const double step = std::min(delta, options_.maxDelta);
        if (!hooks.beforeTick || hooks.beforeTick(step)) {
            host.tick(step);
            ++frames;
        }
        if (hooks.afterFrame) {
            hooks.afterFrame();
        }
        if (period > Clock::duration::zero()) {
            const auto now = Clock::now();
            if (nextFrame > now) {
                if (hooks.idle && hooks.idle(nextFrame)) {
                    nextFrame = Clock::now() + period;
                } else {
                    // To the absolute time: a background unload's pauses stop this thread
                    // with a signal, and a relative sleep would be resumed after each.
                    posix::sleepUntil(nextFrame);
                    nextFrame += period;
                }
            } else {
                nextFrame = now + period; // behind: do not try to catch up in a burst
            }
        }
        const auto now = Clock::now();
        delta = std::chrono::duration<double>(now - last).count();
        last = now;
    }
    return frames;
}

} // namespace scripthost
