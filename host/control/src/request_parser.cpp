#include "request_parser.hpp"

#include "control/protocol_messages.hpp"

namespace scripthost::control {

std::expected<Request, nlohmann::json> parseRequest(std::string_view line, ClientId client) {
    bool tooDeep = false;
    const nlohmann::json::parser_callback_t limitDepth =
        [&tooDeep](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
            const bool opens = event == nlohmann::json::parse_event_t::object_start ||
                               event == nlohmann::json::parse_event_t::array_start;
            if (opens && depth >= kMaxRequestDepth)
                tooDeep = true;
            return !tooDeep; // past the limit nothing more is kept
        };
    nlohmann::json body = nlohmann::json::parse(line, limitDepth, /*allow_exceptions=*/false);
    if (tooDeep) {
        return std::unexpected(
            errorReply(nullptr, {error_code::badRequest,
                                 "the request nests objects and arrays more than " +
                                     std::to_string(kMaxRequestDepth) + " levels deep"}));
    }
    if (body.is_discarded()) {
        return std::unexpected(
            errorReply(nullptr, {error_code::badJson,
                                 "the line is not valid JSON (one JSON object per line)"}));
    }
    if (!body.is_object()) {
        return std::unexpected(errorReply(
            nullptr, {error_code::badRequest,
                      std::string("a request must be a JSON object, not ") + body.type_name()}));
    }
    nlohmann::json id = body.contains("id") ? body["id"] : nlohmann::json();
    const auto cmd = body.find("cmd");
    if (cmd == body.end() || !cmd->is_string()) {
        return std::unexpected(errorReply(
            id, {error_code::badRequest,
                 cmd == body.end() ? "the request has no \"cmd\"" : "\"cmd\" must be a string"}));
    }
    std::string name = cmd->get<std::string>();
    return Request{client, std::move(id), std::move(name), std::move(body)};
}

} // namespace scripthost::control
