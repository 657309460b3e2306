// GameLoop: frames tick the host with the measured delta (the first one period, every one capped
// at maxDelta); maxFrames and the stop flag end the loop; a paused frame is paced and runs
// afterFrame but does not tick; a paced loop offers the idle hook the time until the next frame,
// sleeps to it, or starts the next frame at once when the hook asks (docs/MONO.md §22).
#include "../support/mono_test_support.hpp"
#include "host/engine/game_loop.hpp"

#include <atomic>
#include <vector>

using namespace scripthost;
using namespace scripthost::testing;
using Clock = std::chrono::steady_clock;

TEST_CASE("GameLoop: maxFrames ticks the host that many times with the deltas beforeTick is given, "
          "the first one nominal frame") {
    auto host = makeHost();
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    std::vector<double> steps;
    FrameHooks hooks;
    hooks.beforeTick = [&](double step) {
        steps.push_back(step);
        return true;
    };
    std::atomic<bool> stop{false};
    const std::int64_t frames = GameLoop(GameLoopOptions{0.0, 5}).run(*host, stop, hooks);
    CHECK(frames == 5);
    REQUIRE(steps.size() == 5);
    CHECK(steps[0] == doctest::Approx(1.0 / 60.0)); // unpaced: a nominal 1/60 s
    double sum = 0;
    for (double s : steps) {
        CHECK(s >= 0.0);
        CHECK(s <= 0.25); // the default maxDelta
        sum += s;
    }
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 5);
    CHECK(fieldOf<float>(*host, counter, "elapsed") == doctest::Approx(sum).epsilon(1e-4));

    // Paced, the first frame advances by one period.
    steps.clear();
    CHECK(GameLoop(GameLoopOptions{50.0, 1}).run(*host, stop, hooks) == 1);
    REQUIRE(steps.size() == 1);
    CHECK(steps[0] == doctest::Approx(0.02));
}

TEST_CASE("GameLoop: the stop flag ends the loop after the frame that raised it, and betweenFrames "
          "runs after every frame") {
    auto host = makeHost();
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    std::atomic<bool> stop{false};
    int between = 0;
    const std::int64_t frames = GameLoop(GameLoopOptions{0.0, 0}).run(*host, stop, [&] {
        if (++between == 4)
            stop = true;
    });
    CHECK(frames == 4);
    CHECK(between == 4);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 4);

    // Raised before the loop starts: no frame at all.
    CHECK(GameLoop(GameLoopOptions{0.0, 0}).run(*host, stop) == 0);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 4);
}

TEST_CASE("GameLoop: a paused frame is paced and runs afterFrame, but does not tick and is not "
          "counted") {
    auto host = makeHost();
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    std::atomic<bool> stop{false};
    int asked = 0;
    int after = 0;
    std::vector<Clock::time_point> starts;
    FrameHooks hooks;
    hooks.beforeTick = [&](double) {
        starts.push_back(Clock::now());
        return ++asked % 2 == 0; // every other frame paused
    };
    hooks.afterFrame = [&] {
        if (++after == 6)
            stop = true;
    };
    const std::int64_t frames = GameLoop(GameLoopOptions{100.0, 0}).run(*host, stop, hooks);
    CHECK(frames == 3);
    CHECK(after == 6);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 3);
    // Paused frames are paced too: six frames take at least five periods.
    REQUIRE(starts.size() == 6);
    CHECK(starts.back() - starts.front() >= std::chrono::milliseconds(40));
}

TEST_CASE("GameLoop: a paced loop offers idle the time until the next frame and sleeps to it, or "
          "starts the next frame at once when idle asks") {
    auto host = makeHost();
    host->tick(0.016); // the first tick's JIT is not in a paced frame
    std::atomic<bool> stop{false};
    std::vector<Clock::time_point> frameStarts;
    // Each offer: the frames begun when it was made, and the time offered. A frame that ends
    // late (a loaded machine) is not offered the idle time: the checks go by offer.
    std::vector<std::pair<std::size_t, Clock::time_point>> offered;
    bool startAtOnce = false;
    auto period = std::chrono::milliseconds(500);
    FrameHooks hooks;
    hooks.beforeTick = [&](double) {
        frameStarts.push_back(Clock::now());
        return true;
    };
    hooks.idle = [&](Clock::time_point nextFrame) {
        const auto now = Clock::now();
        CHECK(nextFrame > now);           // offered only when the frame ended early
        CHECK(nextFrame - now <= period); // at most one period
        offered.emplace_back(frameStarts.size(), nextFrame);
        return startAtOnce;
    };
    // The offers followed by a frame (the last frame's offer has none).
    auto followed = [&] {
        std::vector<std::pair<Clock::time_point, Clock::time_point>> pairs; // offered, started
        for (const auto& [begun, time] : offered) {
            if (begun < frameStarts.size())
                pairs.emplace_back(time, frameStarts[begun]);
        }
        return pairs;
    };

    // Slept off: the next frame starts no earlier than the time offered.
    CHECK(GameLoop(GameLoopOptions{2.0, 4}).run(*host, stop, hooks) == 4);
    REQUIRE(frameStarts.size() == 4);
    auto slept = followed();
    REQUIRE_FALSE(slept.empty());
    for (const auto& [time, started] : slept)
        CHECK(started >= time);

    // Asked to start at once: the next frame starts before the time offered (a 2 s period).
    offered.clear();
    frameStarts.clear();
    startAtOnce = true;
    period = std::chrono::milliseconds(2000);
    CHECK(GameLoop(GameLoopOptions{0.5, 3}).run(*host, stop, hooks) == 3);
    REQUIRE(frameStarts.size() == 3);
    auto atOnce = followed();
    REQUIRE_FALSE(atOnce.empty());
    for (const auto& [time, started] : atOnce)
        CHECK(started < time);
}
