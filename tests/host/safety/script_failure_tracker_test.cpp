#include "host/safety/script_failure_tracker.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("ScriptFailureTracker: logs the first failure and powers of ten, disables at the limit") {
    ScriptFailureTracker tracker(25);
    const ObjectId s{1, 1};
    std::vector<int> logged;
    int disabledAt = 0;
    for (int n = 1; n <= 25; ++n) {
        const auto d = tracker.record(s, ScriptPhase::Update, n);
        if (d.log)
            logged.push_back(n);
        if (d.disable && disabledAt == 0)
            disabledAt = n;
    }
    CHECK(logged == std::vector<int>{1, 10, 25});
    CHECK(disabledAt == 25);
    CHECK(tracker.totalFailures() == 25);
}

TEST_CASE("ScriptFailureTracker: 0 never disables, one-off phases always log, never disable") {
    ScriptFailureTracker never(0);
    const ObjectId s{2, 1};
    CHECK_FALSE(never.record(s, ScriptPhase::Update, 1000).disable);
    CHECK(never.record(s, ScriptPhase::Update, 1000).log);
    CHECK_FALSE(never.record(s, ScriptPhase::Update, 1001).log);
    ScriptFailureTracker tracker(1);
    const auto d = tracker.record(s, ScriptPhase::Initialize, 5);
    CHECK(d.log);
    CHECK_FALSE(d.disable);
    CHECK(tracker.record(s, ScriptPhase::FixedUpdate, 1).disable);
}

TEST_CASE("ScriptFailureTracker: Unity's once-per-script messages count as one-off, the per-frame "
          "ones as a flood") {
    ScriptFailureTracker tracker(1);
    const ObjectId s{3, 1};
    for (ScriptPhase once : {ScriptPhase::Awake, ScriptPhase::Start, ScriptPhase::OnDestroy}) {
        CAPTURE(phaseName(once));
        CHECK_FALSE(tracker.record(s, once, 3).disable);
    }
    for (ScriptPhase each : {ScriptPhase::LateUpdate, ScriptPhase::OnEnable, ScriptPhase::OnDisable}) {
        CAPTURE(phaseName(each));
        CHECK(tracker.record(s, each, 1).disable);
    }
}
