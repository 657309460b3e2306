#include "host/safety/script_failure_tracker.hpp"

namespace scripthost {

namespace {
bool isPowerOfTen(int n) {
    while (n >= 10 && n % 10 == 0) {
        n /= 10;
    }
    return n == 1;
}
} // namespace

ScriptFailureTracker::Decision ScriptFailureTracker::record(ObjectId script, ScriptPhase phase,
                                                            int consecutive) {
    Decision d;
    d.totalFailures = ++totals_[script];
    ++allFailures_;
    const bool once = runsOnce(phase);
    d.disable = !once && disableAfter_ > 0 && consecutive >= disableAfter_;
    d.log = once || d.disable || consecutive <= 1 || isPowerOfTen(consecutive);
    return d;
}

} // namespace scripthost
