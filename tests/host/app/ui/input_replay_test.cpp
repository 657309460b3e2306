// InputReplay: recorded input files, applied at their frames.
#include "host/ui/input_replay.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace scripthost;

TEST_CASE("input replay: changes apply at their frame, in order, and hold until changed") {
    auto replay = InputReplay::parse("# camera run\n"
                                     "{\"frame\": 10, \"action\": \"MoveForward\", \"value\": 0}\n"
                                     "\n"
                                     "{\"frame\": 0, \"action\": \"MoveForward\", \"value\": 1}\r\n"
                                     "{\"frame\": 5, \"action\": \"Turn\", \"value\": -0.5}\n");
    REQUIRE(replay.has_value());
    CHECK(replay->changes().size() == 3);
    InputState input;
    replay->apply(0, input);
    CHECK(input.get("MoveForward") == 1.0f);
    CHECK(input.get("Turn") == 0.0f);
    replay->apply(7, input);
    CHECK(input.get("Turn") == -0.5f);
    CHECK(input.get("MoveForward") == 1.0f);
    CHECK_FALSE(replay->finished());
    replay->apply(12, input);
    CHECK(input.get("MoveForward") == 0.0f);
    CHECK(replay->finished());
}

TEST_CASE("input replay: a bad line is refused with its line number and the reason") {
    auto notJson = InputReplay::parse("{\"frame\": 0, \"action\": \"A\", \"value\": 1}\nnope\n");
    REQUIRE_FALSE(notJson.has_value());
    CHECK(notJson.error().message == "line 2: not a JSON object");
    auto negative = InputReplay::parse("{\"frame\": -1, \"action\": \"A\", \"value\": 1}");
    REQUIRE_FALSE(negative.has_value());
    CHECK(negative.error().message.find("line 1: \"frame\"") == 0);
    auto noAction = InputReplay::parse("{\"frame\": 1, \"value\": 1}");
    REQUIRE_FALSE(noAction.has_value());
    CHECK(noAction.error().message.find("\"action\"") != std::string::npos);
    auto text = InputReplay::parse("{\"frame\": 1, \"action\": \"A\", \"value\": \"1\"}");
    REQUIRE_FALSE(text.has_value());
    CHECK(text.error().message.find("\"value\"") != std::string::npos);
    CHECK_FALSE(InputReplay::load("/nonexistent/replay.jsonl").has_value());
}
