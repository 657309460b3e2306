#pragma once
// FrameStats: frame and script timing over a run.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scripthost {

/// Frame time and script time per frame. Keeps totals for the whole run and the most
/// recent `window` samples for median / p95 / max.
class FrameStats {
public:
    explicit FrameStats(std::size_t window = 4096) : window_(window) {}

    /// One frame: its wall time and the part spent in scripts, in seconds.
    void record(double frameSeconds, double scriptSeconds);

    struct Summary {
        std::uint64_t frames = 0;
        double meanFrameMs = 0, medianFrameMs = 0, p95FrameMs = 0, p99FrameMs = 0, maxFrameMs = 0;
        double meanScriptMs = 0, maxScriptMs = 0;
        double fps = 0; ///< frames per second of wall time over the window
    };
    [[nodiscard]] Summary summary() const;

    /// The frames recorded since the last call (or the start): what a per-second plot shows.
    struct Interval {
        std::uint64_t frames = 0;
        double meanFrameMs = 0, maxFrameMs = 0;
        double meanScriptMs = 0, maxScriptMs = 0;
    };
    /// Returns the interval's figures and starts the next interval.
    [[nodiscard]] Interval takeInterval();
    /// The most recent frame's wall time in milliseconds (0 before the first).
    [[nodiscard]] double lastFrameMs() const noexcept { return lastFrame_ * 1e3; }

    /// One readable line: "300 frames, 60.0 fps, frame median 16.67 ms …".
    [[nodiscard]] std::string describe() const;

private:
    struct Sample {
        double frame, script;
    };
    std::size_t window_;
    std::vector<Sample> samples_; // ring buffer
    std::size_t next_ = 0;
    std::uint64_t frames_ = 0;
    double totalFrame_ = 0, totalScript_ = 0;
    double lastFrame_ = 0;
    Interval interval_; ///< sums (not means) until takeInterval()
};

} // namespace scripthost
