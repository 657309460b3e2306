#include <control/protocol_messages.hpp>
#include <doctest/doctest.h>

using namespace scripthost::control;
using nlohmann::json;

TEST_CASE("protocol messages: an ok reply echoes the id and carries the result") {
    CHECK(okReply(7, {{"frame", 3}}) == json::parse(R"({"id":7,"ok":true,"result":{"frame":3}})"));
    CHECK(okReply("a", nullptr) == json::parse(R"({"id":"a","ok":true,"result":null})"));
    CHECK_FALSE(okReply(nullptr, 1).contains("id"));
}

TEST_CASE("protocol messages: an error reply merges details under error, code and message win") {
    const json reply = errorReply(3, {error_code::reloadFailed,
                                      "restore failed",
                                      {{"report", {{"success", false}}}, {"code", "x"}}});
    CHECK(reply == json::parse(R"({"id":3,"ok":false,"error":{"code":"reload_failed",
        "message":"restore failed","report":{"success":false}}})"));
}

TEST_CASE("protocol messages: toLine is one compact line and survives invalid UTF-8") {
    const std::string line = toLine(eventMessage("log", {{"message", "bad \xff byte\nnext"}}));
    CHECK(line.back() == '\n');
    CHECK(line.find('\n') == line.size() - 1);
    const json parsed = json::parse(line);
    CHECK(parsed["event"] == "log");
    CHECK(parsed["data"]["message"] == "bad \xEF\xBF\xBD byte\nnext");
    CHECK(isEvent(parsed));
    CHECK_FALSE(isEvent(okReply(1, 2)));
}

TEST_CASE("protocol messages: reading a reply never throws on a malformed one") {
    CHECK(isOkReply(json::parse(R"({"id":1,"ok":true,"result":null})")));
    CHECK_FALSE(isOkReply(json::parse(R"({"ok":"yes"})")));
    CHECK_FALSE(isOkReply(json::array()));
    const json error = errorReply(2, {error_code::busy, "a reload is running"});
    CHECK(replyErrorCode(error) == "busy");
    CHECK(replyErrorMessage(error) == "a reload is running");
    const json odd = json::parse(R"({"ok":false,"error":{"code":7}})");
    CHECK(replyErrorCode(odd) == "error");
    CHECK(replyErrorMessage(odd) == "(no message)");
    CHECK(replyErrorCode(json::parse(R"({"ok":false,"error":"boom"})")) == "error");
}
