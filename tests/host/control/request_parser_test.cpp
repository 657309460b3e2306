#include "control/protocol_messages.hpp"
#include "request_parser.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace scripthost::control;
using nlohmann::json;

TEST_CASE("parseRequest: a valid request keeps its id, command and whole body") {
    auto request = parseRequest(R"({"id":"x1","cmd":"get","entity":"Player"})", 9);
    REQUIRE(request.has_value());
    CHECK(request->client == 9);
    CHECK(request->id == "x1");
    CHECK(request->cmd == "get");
    CHECK(request->body["entity"] == "Player");
    CHECK(request->body["cmd"] == "get");
}

TEST_CASE("parseRequest: no id is a null id") {
    auto request = parseRequest(R"({"cmd":"status"})", 1);
    REQUIRE(request.has_value());
    CHECK(request->id.is_null());
}

TEST_CASE("parseRequest: garbage is bad_json without an id") {
    auto request = parseRequest("{not json", 1);
    REQUIRE_FALSE(request.has_value());
    CHECK(request.error()["error"]["code"] == "bad_json");
    CHECK(request.error()["ok"] == false);
    CHECK_FALSE(request.error().contains("id"));
}

TEST_CASE("parseRequest: non-objects and a missing or non-string cmd are bad_request") {
    auto array = parseRequest("[1,2]", 1);
    REQUIRE_FALSE(array.has_value());
    CHECK(array.error()["error"]["code"] == "bad_request");
    CHECK(array.error()["error"]["message"].get<std::string>().find("array") != std::string::npos);

    auto noCmd = parseRequest(R"({"id":4})", 1);
    REQUIRE_FALSE(noCmd.has_value());
    CHECK(noCmd.error()["id"] == 4);
    CHECK(noCmd.error()["error"]["code"] == "bad_request");

    auto numberCmd = parseRequest(R"({"id":5,"cmd":5})", 1);
    REQUIRE_FALSE(numberCmd.has_value());
    CHECK(numberCmd.error()["id"] == 5);
    CHECK(numberCmd.error()["error"]["message"] == "\"cmd\" must be a string");
}

TEST_CASE("parseRequest: nesting past the limit is bad_request, up to the limit is a request") {
    const auto nested = [](int levels) {
        return R"({"cmd":"set","id":)" + std::string(levels - 1, '[') +
               std::string(levels - 1, ']') + "}";
    };
    auto atLimit = parseRequest(nested(kMaxRequestDepth), 1);
    REQUIRE(atLimit.has_value());
    CHECK(atLimit->cmd == "set");

    auto tooDeep = parseRequest(nested(kMaxRequestDepth + 1), 1);
    REQUIRE_FALSE(tooDeep.has_value());
    CHECK(tooDeep.error()["error"]["code"] == "bad_request");
    CHECK(tooDeep.error()["error"]["message"].get<std::string>().find("64") != std::string::npos);
}

TEST_CASE("parseRequest: a 1 MiB line of nested arrays is refused, not a stack overflow") {
    // Run through fuzz_control_request, such a line overflowed the stack (the parsed id is
    // copied and printed recursively, one frame per level).
    const std::size_t levels = 500'000;
    const std::string line =
        R"({"cmd":"status","id":)" + std::string(levels, '[') + std::string(levels, ']') + "}";
    auto request = parseRequest(line, 1);
    REQUIRE_FALSE(request.has_value());
    CHECK(request.error()["error"]["code"] == "bad_request");
    CHECK(toLine(request.error()).size() < 200);
}
