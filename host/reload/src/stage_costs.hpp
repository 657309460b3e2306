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
// take longest; reserve runs the dispatcher's static constructor). The load stage is kept
// apart by where it loads: into the domain made ahead (its assemblies by folder already
// loaded, ~2 ms) or into a fresh one (every assembly, ~20 ms at 2,000 scripts), so one slow
// load does not keep the next fast ones out of the loop's idle time. The warm stage needs no
// guess: in idle time it takes whatever time is left.
class StageCosts {
public:
    /// `preparedDomain`: the load stage loads into the domain made ahead (other stages ignore
    /// it).
    [[nodiscard]] std::chrono::steady_clock::duration expected(ReloadStage stage,
                                                               bool preparedDomain = false) const {
        const auto& runs = runs_[index(stage, preparedDomain)];
        if (runs.empty())
            return firstGuess(stage);
        return *std::max_element(runs.begin(), runs.end());
    }
    void record(ReloadStage stage, std::chrono::steady_clock::duration took,
                bool preparedDomain = false) {
        auto& runs = runs_[index(stage, preparedDomain)];
        runs.push_back(took);
        if (runs.size() > 3)
            runs.erase(runs.begin());
    }

private:
    static constexpr std::size_t kStages = static_cast<std::size_t>(ReloadStage::Done) + 1;
    static std::size_t index(ReloadStage stage, bool preparedDomain) {
        return stage == ReloadStage::Load && preparedDomain ? kStages
                                                            : static_cast<std::size_t>(stage);
    }
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
    // Per stage, then the load stage into a domain made ahead.
    std::array<std::vector<std::chrono::steady_clock::duration>, kStages + 1> runs_;
};

} // namespace scripthost
