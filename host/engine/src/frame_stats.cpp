#include "host/engine/frame_stats.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace scripthost {

void FrameStats::record(double frameSeconds, double scriptSeconds) {
    if (samples_.size() < window_) {
        samples_.push_back({frameSeconds, scriptSeconds});
    } else {
        samples_[next_] = {frameSeconds, scriptSeconds};
        next_ = (next_ + 1) % window_;
    }
    ++frames_;
    lastFrame_ = frameSeconds;
    totalFrame_ += frameSeconds;
    totalScript_ += scriptSeconds;
    ++interval_.frames;
    interval_.meanFrameMs += frameSeconds * 1e3;
    interval_.meanScriptMs += scriptSeconds * 1e3;
    interval_.maxFrameMs = std::max(interval_.maxFrameMs, frameSeconds * 1e3);
    interval_.maxScriptMs = std::max(interval_.maxScriptMs, scriptSeconds * 1e3);
}

FrameStats::Interval FrameStats::takeInterval() {
    Interval taken = interval_;
    interval_ = Interval{};
    if (taken.frames > 0) {
        taken.meanFrameMs /= double(taken.frames);
        taken.meanScriptMs /= double(taken.frames);
    }
    return taken;
}

FrameStats::Summary FrameStats::summary() const {
    Summary s;
    s.frames = frames_;
    if (frames_ == 0) {
        return s;
    }
    s.meanFrameMs = totalFrame_ * 1e3 / double(frames_);
    s.meanScriptMs = totalScript_ * 1e3 / double(frames_);
    std::vector<double> frame;
    frame.reserve(samples_.size());
    double windowSeconds = 0;
    for (const Sample& sample : samples_) {
        frame.push_back(sample.frame);
        windowSeconds += sample.frame;
        s.maxScriptMs = std::max(s.maxScriptMs, sample.script * 1e3);
    }
    std::sort(frame.begin(), frame.end());
    auto at = [&](double q) {
        return frame[std::min(frame.size() - 1, std::size_t(q * double(frame.size())))] * 1e3;
    };
    s.medianFrameMs = frame.size() % 2 == 1
                          ? frame[frame.size() / 2] * 1e3
                          : (frame[frame.size() / 2 - 1] + frame[frame.size() / 2]) * 0.5e3;
    s.p95FrameMs = at(0.95);
    s.p99FrameMs = at(0.99);
    s.maxFrameMs = frame.back() * 1e3;
    s.fps = windowSeconds > 0 ? double(frame.size()) / windowSeconds : 0;
    return s;
}

std::string FrameStats::describe() const {
    const Summary s = summary();
    return fmt::format(
        "{} frames, {:.1f} fps; frame median {:.3f} ms, p95 {:.3f} ms, max {:.3f} ms; "
        "scripts mean {:.3f} ms, max {:.3f} ms per frame",
        s.frames, s.fps, s.medianFrameMs, s.p95FrameMs, s.maxFrameMs, s.meanScriptMs,
        s.maxScriptMs);
}

} // namespace scripthost
