#pragma once
// FixedStepClock: turns variable frame times into a whole number of fixed steps.

namespace scripthost {

/// Accumulates frame time and hands out fixed steps (for FixedUpdate). After a long
/// stall it runs at most `maxStepsPerFrame` steps and drops the rest, so one slow frame
/// cannot snowball into ever slower ones.
class FixedStepClock {
public:
    explicit FixedStepClock(double step = 1.0 / 50.0, int maxStepsPerFrame = 5) noexcept
        : step_(step), maxSteps_(maxStepsPerFrame) {}

    /// Adds a frame of `seconds` and returns how many fixed steps to run now.
    [[nodiscard]] int advance(double seconds) noexcept {
        accumulated_ += seconds;
        int steps = 0;
        // A hair of tolerance: 0.015 + 0.015 - 0.02 + 0.03 must make two 0.02 steps.
        const double due = step_ * (1.0 - 1e-9);
        while (accumulated_ >= due && steps < maxSteps_) {
            accumulated_ -= step_;
            ++steps;
        }
        if (accumulated_ < 0) {
            accumulated_ = 0;
        }
        if (steps == maxSteps_ && accumulated_ >= due) {
            dropped_ += accumulated_;
            accumulated_ = 0;
        }
        return steps;
    }

    [[nodiscard]] double step() const noexcept { return step_; }
    /// Seconds of game time dropped after stalls.
    [[nodiscard]] double dropped() const noexcept { return dropped_; }

private:
    double step_;
    int maxSteps_;
    double accumulated_ = 0;
    double dropped_ = 0;
};

} // namespace scripthost
