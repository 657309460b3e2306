#include "control_line.hpp"

namespace scripthost::inspector {

std::string toControlLine(std::string_view message) {
    std::string line(message);
    for (char& c : line) {
        if (c == '\n' || c == '\r')
            c = ' ';
    }
    line.push_back('\n');
    return line;
}

nlohmann::json requestIdOf(std::string_view message) {
    constexpr int kMaxDepth = 64;
    bool tooDeep = false;
    const nlohmann::json parsed = nlohmann::json::parse(
        message,
        [&tooDeep](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
            if (depth > kMaxDepth)
                tooDeep = true;
            return depth <= 1; // only the top object's own members are kept
        },
        /*allow_exceptions=*/false);
    if (tooDeep || !parsed.is_object())
        return nullptr;
    const auto id = parsed.find("id");
    return id == parsed.end() ? nlohmann::json() : *id;
}

std::string hostUnavailableReply(const nlohmann::json& id) {
    nlohmann::json reply = {
        {"ok", false},
        {"error",
         {{"code", "host_unavailable"},
          {"message", "the host is not running (it may be restarting); the inspector "
                      "connects again by itself"}}}};
    if (!id.is_null())
        reply["id"] = id;
    return reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string hostEvent(bool connected, std::string_view message) {
    nlohmann::json data = {{"host", connected ? "connected" : "disconnected"}};
    if (!message.empty())
        data["message"] = std::string(message);
    return nlohmann::json{{"event", "inspector"}, {"data", std::move(data)}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace scripthost::inspector
