// Fuzzes the control socket's input path: LineSplitter framing, then parseRequest on each
// line, as ControlServer::readFrom does. Invariants:
// - framing does not depend on how the bytes are cut into reads;
// - every line is non-empty, has no '\n' and fits the limit;
// - parseRequest never throws; a request carries its line's "cmd" and "id";
// - an error reply is a JSON object with ok:false, a known error.code and a message, and
//   its wire line (toLine) is one line that parses back to the same reply;
// - a reply echoing the request's id serialises to one line that parses back.

#include "control/line_splitter.hpp"
#include "control/protocol_messages.hpp"
#include "fuzz_check.hpp"
#include "request_parser.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace scripthost::control;
using nlohmann::json;

namespace {

constexpr ClientId kClient = 7;

struct Framing {
    std::vector<std::string> lines;
    bool tooLong = false;
};

/// Feeds `bytes` in pieces of `step` bytes (0: all at once), stopping at LineTooLong.
Framing frame(std::string_view bytes, std::size_t maxLine, std::size_t step) {
    LineSplitter splitter(maxLine);
    Framing out;
    if (step == 0)
        step = bytes.size() + 1;
    for (std::size_t at = 0; at < bytes.size(); at += step) {
        if (splitter.feed(bytes.substr(at, step), out.lines) == LineSplitter::Status::LineTooLong) {
            out.tooLong = true;
            break;
        }
    }
    return out;
}

/// The wire form of a message: exactly one line, and it parses back to `message`.
void checkWireLine(const json& message) {
    const std::string line = toLine(message);
    FUZZ_CHECK(!line.empty() && line.back() == '\n', "a wire line ends with a newline");
    FUZZ_CHECK(line.find('\n') == line.size() - 1, "a wire line holds exactly one newline");
    const json back = json::parse(line, nullptr, false);
    FUZZ_CHECK(!back.is_discarded(), "a wire line is valid JSON");
    FUZZ_CHECK(back == message, "a wire line parses back to the message sent");
}

void checkLine(const std::string& line) {
    std::expected<Request, json> parsed = std::unexpected(json());
    try {
        parsed = parseRequest(line, kClient);
    } catch (...) {
        FUZZ_CHECK(false, "parseRequest never throws");
    }
    if (parsed) {
        FUZZ_CHECK(parsed->client == kClient, "a request keeps its client");
        FUZZ_CHECK(parsed->body.is_object(), "a request's body is an object");
        FUZZ_CHECK(parsed->body.at("cmd") == parsed->cmd, "a request's cmd is the line's cmd");
        FUZZ_CHECK(parsed->id == parsed->body.value("id", json()), "a request's id is the line's");
        checkWireLine(okReply(parsed->id, {{"cmd", parsed->cmd}}));
        return;
    }
    const json& reply = parsed.error();
    FUZZ_CHECK(reply.is_object() && reply.value("ok", true) == false,
               "an error reply has ok:false");
    FUZZ_CHECK(!isOkReply(reply), "an error reply is not ok");
    const std::string code = replyErrorCode(reply);
    FUZZ_CHECK(code == error_code::badJson || code == error_code::badRequest,
               "a line is refused as bad_json or bad_request");
    FUZZ_CHECK(reply.at("error").at("code").is_string(), "error.code is a string");
    FUZZ_CHECK(!replyErrorMessage(reply).empty() && reply["error"]["message"].is_string(),
               "error.message is a non-empty string");
    checkWireLine(reply);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    // The first byte picks a small line limit and a read size, so the limit paths and
    // lines split across reads are reached; the rest is the received byte stream.
    const std::size_t smallLimit = 1 + data[0] % 64;
    const std::size_t step = data[0] / 64; // 0 (one read) .. 3
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

    const Framing whole = frame(bytes, smallLimit, 0);
    const Framing pieces = frame(bytes, smallLimit, step + 1);
    FUZZ_CHECK(whole.tooLong == pieces.tooLong, "line_too_long does not depend on read sizes");
    if (!whole.tooLong)
        FUZZ_CHECK(whole.lines == pieces.lines, "lines do not depend on read sizes");
    for (const Framing* f : {&whole, &pieces}) {
        for (const std::string& line : f->lines) {
            FUZZ_CHECK(!line.empty(), "empty lines are skipped");
            FUZZ_CHECK(line.find('\n') == std::string::npos, "a line holds no newline");
            FUZZ_CHECK(line.size() <= smallLimit, "a line fits the limit");
        }
    }

    // The server's real limit (1 MiB) never cuts a fuzzer input: every line is parsed.
    for (const std::string& line : frame(bytes, std::size_t{1} << 20, 0).lines)
        checkLine(line);
    return 0;
}
