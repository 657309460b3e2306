// StageCosts: what a reload stage is expected to cost, from its last three runs; the load stage
// into the domain made ahead kept apart from the load into a fresh one.
#include "stage_costs.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace std::chrono_literals;

TEST_CASE("StageCosts: a first guess before a stage has run, then the most of its last three") {
    StageCosts costs;
    CHECK(costs.expected(ReloadStage::Swap) == 12ms);
    CHECK(costs.expected(ReloadStage::Unload) == 3ms);
    costs.record(ReloadStage::Swap, 9ms);
    costs.record(ReloadStage::Swap, 4ms);
    costs.record(ReloadStage::Swap, 5ms);
    CHECK(costs.expected(ReloadStage::Swap) == 9ms);
    costs.record(ReloadStage::Swap, 6ms); // the 9 ms run is now four runs ago
    CHECK(costs.expected(ReloadStage::Swap) == 6ms);
    CHECK(costs.expected(ReloadStage::Swap, true) == 6ms); // only the load stage is kept apart
}

TEST_CASE("StageCosts: a slow load into a fresh domain does not raise what a load into the "
          "domain made ahead is expected to cost") {
    StageCosts costs;
    costs.record(ReloadStage::Load, 2ms, true);
    costs.record(ReloadStage::Load, 22ms, false);
    CHECK(costs.expected(ReloadStage::Load, true) == 2ms);
    CHECK(costs.expected(ReloadStage::Load, false) == 22ms);
    CHECK(costs.expected(ReloadStage::Load) == 22ms);
    costs.record(ReloadStage::Load, 3ms, true);
    CHECK(costs.expected(ReloadStage::Load, true) == 3ms);
}
