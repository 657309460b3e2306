#include "host/engine/fixed_step_clock.hpp"
#include "host/engine/frame_stats.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("FrameStats: median, p95, max and fps over the window") {
    FrameStats stats(100);
    for (int i = 1; i <= 100; ++i) {
        stats.record(i / 1000.0, i / 10000.0); // 1..100 ms frames
    }
    const auto s = stats.summary();
    CHECK(s.frames == 100);
    CHECK(s.medianFrameMs == doctest::Approx(50.5));
    CHECK(s.p95FrameMs == doctest::Approx(96.0));
    CHECK(s.maxFrameMs == doctest::Approx(100.0));
    CHECK(s.maxScriptMs == doctest::Approx(10.0));
    CHECK(s.fps == doctest::Approx(100.0 / 5.05));
    CHECK(stats.describe().find("100 frames") == 0);
}

TEST_CASE("FrameStats: the window keeps only recent frames, totals keep all") {
    FrameStats stats(4);
    for (int i = 0; i < 10; ++i)
        stats.record(i < 6 ? 1.0 : 0.010, 0.0);
    const auto s = stats.summary();
    CHECK(s.frames == 10);
    CHECK(s.maxFrameMs == doctest::Approx(10.0));
    CHECK(s.meanFrameMs == doctest::Approx((6 * 1000.0 + 4 * 10.0) / 10));
}

TEST_CASE("FixedStepClock: whole steps, remainder carried, stalls capped") {
    FixedStepClock clock(0.02, 5);
    CHECK(clock.advance(0.015) == 0);
    CHECK(clock.advance(0.015) == 1); // 0.030 → one step, 0.010 carried
    CHECK(clock.advance(0.030) == 2); // 0.040
    CHECK(clock.advance(1.0) == 5);   // a 1 s stall runs 5 steps, drops the rest
    CHECK(clock.dropped() == doctest::Approx(0.9));
    CHECK(clock.advance(0.02) == 1);
}

TEST_CASE("FrameStats: takeInterval gives the frames since the last call, then starts again") {
    FrameStats stats;
    stats.record(0.010, 0.001);
    stats.record(0.030, 0.004);
    const FrameStats::Interval first = stats.takeInterval();
    CHECK(first.frames == 2);
    CHECK(first.meanFrameMs == doctest::Approx(20.0));
    CHECK(first.maxFrameMs == doctest::Approx(30.0));
    CHECK(first.meanScriptMs == doctest::Approx(2.5));
    CHECK(first.maxScriptMs == doctest::Approx(4.0));
    const FrameStats::Interval empty = stats.takeInterval();
    CHECK(empty.frames == 0);
    CHECK(empty.maxFrameMs == 0.0);
    stats.record(0.020, 0.002);
    const FrameStats::Interval next = stats.takeInterval();
    CHECK(next.frames == 1);
    CHECK(next.maxScriptMs == doctest::Approx(2.0));
    CHECK(stats.summary().frames == 3); // the run's totals are not reset
}
