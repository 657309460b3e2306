#pragma once
// StageCosts: what each reload stage is expected to cost on the main thread, from its last runs
// (the reload coordinator fits stages into the time a paced loop would sleep).

#include "host/reload/reload_transaction.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <vector>

namespace scripthost {

// What a stage is expected to cost on the main thread: the most it took in its last three
// runs, or a first guess on the high side before it has run (a first reload's load and swap
// take longest; reserve runs the dispatcher's static constructor). The warm stage needs no
// guess: in idle time it takes whatever time is left.
class StageCosts {
public:
    [[nodiscard]] std::chrono::steady_clock::duration expected(ReloadStage stage) const {
        const auto& runs = runs_[index(stage)];
        if (runs.empty())
            return firstGuess(stage);
        return *std::max_element(runs.begin(), runs.end());
    }
    void record(ReloadStage stage, std::chrono::steady_clock::duration took) {
        auto& runs = runs_[index(stage)];
        runs.push_back(took);
        if (runs.size() > 3)
            runs.erase(runs.begin());
    }

private:
    static std::size_t index(ReloadStage stage) { return static_cast<std::size_t>(stage); }
    static std::chrono::steady_clock::duration firstGuess(ReloadStage stage) {
        using namespace std::chrono_literals;
        switch (stage) {
        case ReloadStage::Load:
        case ReloadStage::Reserve:
        case ReloadStage::Swap:
            return 12ms;
        default:
            return 3ms;
        }
    }
    std::array<std::vector<std::chrono::steady_clock::duration>,
               static_cast<std::size_t>(ReloadStage::Done) + 1>
        runs_;
};

} // namespace scripthost
