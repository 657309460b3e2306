// LogSetup and its sinks: the level, the screen's ring, the queue control clients read, and
// one JSON object per line.
#include "log_setup.hpp"

#include <doctest/doctest.h>
#include <regex>
#include <spdlog/spdlog.h>

using namespace scripthost;

TEST_CASE("LogLineQueue: keeps the newest lines as JSON, up to its capacity, until taken") {
    auto queue = std::make_shared<LogLineQueue>(3);
    spdlog::logger logger("queue-test", queue);
    for (int i = 1; i <= 5; ++i)
        logger.warn("line {}", i);
    const auto lines = queue->take();
    REQUIRE(lines.size() == 3);
    CHECK(lines[0]["message"] == "line 3");
    CHECK(lines[2]["message"] == "line 5");
    CHECK(lines[2]["level"] == "warning");
    CHECK(std::regex_match(lines[2]["time"].get<std::string>(),
                           std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
    CHECK(queue->take().empty());
}

TEST_CASE("LogSetup: the level filters, and on screen lines go to the ring and still reach "
          "control clients") {
    LogSetup logs("text", "info");
    spdlog::debug("not shown at info");
    spdlog::info("before the screen");
    logs.showOnScreen(true);
    spdlog::info("on the screen");
    spdlog::error("an error\nover two lines");

    const auto recent = logs.recentLines(10);
    REQUIRE(recent.size() == 2); // the ring only fills while the screen is up
    CHECK(recent[0].find("I on the screen") != std::string::npos);
    CHECK(recent[1].find("E an error") != std::string::npos);
    CHECK(recent[1].back() != '\n');

    const auto queued = logs.controlQueue().take();
    REQUIRE(queued.size() == 3);
    CHECK(queued[0]["message"] == "before the screen");
    CHECK(queued[2]["message"] == "an error\nover two lines");
    logs.showOnScreen(false);
}

TEST_CASE("nonEmptyLines: splits on newlines and drops the empty lines") {
    CHECK(nonEmptyLines("a\n\nb\n").size() == 2);
    CHECK(nonEmptyLines("one") == std::vector<std::string_view>{"one"});
    CHECK(nonEmptyLines("\n\n").empty());
    CHECK(nonEmptyLines("x\ny") == std::vector<std::string_view>{"x", "y"});
}
