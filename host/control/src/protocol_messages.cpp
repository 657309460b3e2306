#include "control/protocol_messages.hpp"

namespace scripthost::control {

nlohmann::json okReply(const nlohmann::json& id, nlohmann::json result) {
    nlohmann::json reply = nlohmann::json::object();
    if (!id.is_null())
        reply["id"] = id;
    reply["ok"] = true;
    reply["result"] = std::move(result);
    return reply;
}

nlohmann::json errorReply(const nlohmann::json& id, const CommandError& error) {
    nlohmann::json body = nlohmann::json::object();
    if (error.details.is_object())
        body = error.details;
    body["code"] = error.code; // code and message win over same-named details
    body["message"] = error.message;
    nlohmann::json reply = nlohmann::json::object();
    if (!id.is_null())
        reply["id"] = id;
    reply["ok"] = false;
    reply["error"] = std::move(body);
    return reply;
}

nlohmann::json eventMessage(std::string_view topic, nlohmann::json data) {
    return {{"event", std::string(topic)}, {"data", std::move(data)}};
}

std::string toLine(const nlohmann::json& message) {
    std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line.push_back('\n');
    return line;
}

bool isEvent(const nlohmann::json& message) noexcept {
    return message.is_object() && message.contains("event");
}

bool isOkReply(const nlohmann::json& reply) noexcept {
    if (!reply.is_object())
        return false;
    const auto ok = reply.find("ok");
    return ok != reply.end() && ok->is_boolean() && ok->get<bool>();
}

namespace {

std::string errorMember(const nlohmann::json& reply, const char* key, const char* fallback) {
    if (!reply.is_object())
        return fallback;
    const auto error = reply.find("error");
    if (error == reply.end() || !error->is_object())
        return fallback;
    const auto value = error->find(key);
    return value != error->end() && value->is_string() ? value->get<std::string>()
                                                       : std::string(fallback);
}

} // namespace

std::string replyErrorCode(const nlohmann::json& reply) {
    return errorMember(reply, "code", "error");
}

std::string replyErrorMessage(const nlohmann::json& reply) {
    return errorMember(reply, "message", "(no message)");
}

} // namespace scripthost::control
