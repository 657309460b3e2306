#include "host/ui/input_replay.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace scripthost {

Result<InputReplay> InputReplay::parse(std::string_view text) {
    InputReplay replay;
    std::size_t lineNumber = 0;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        ++lineNumber;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (line.empty() || line.front() == '#')
            continue;
        const std::string where = "line " + std::to_string(lineNumber) + ": ";
        const nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
        if (json.is_discarded() || !json.is_object())
            return fail(where + "not a JSON object");
        const auto frame = json.find("frame");
        const auto action = json.find("action");
        const auto value = json.find("value");
        if (frame == json.end() || !frame->is_number_integer() || frame->get<std::int64_t>() < 0)
            return fail(where + "\"frame\" must be a whole number ≥ 0");
        if (action == json.end() || !action->is_string() || action->get<std::string>().empty())
            return fail(where + "\"action\" must be a non-empty string");
        if (value == json.end() || !value->is_number() || !std::isfinite(value->get<double>()))
            return fail(where + "\"value\" must be a finite number");
        replay.changes_.push_back(
            Change{frame->get<std::int64_t>(), action->get<std::string>(), value->get<float>()});
    }
    std::stable_sort(replay.changes_.begin(), replay.changes_.end(),
                     [](const Change& a, const Change& b) { return a.frame < b.frame; });
    return replay;
}

Result<InputReplay> InputReplay::load(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return fail("cannot read input replay " + file.string());
    std::ostringstream text;
    text << in.rdbuf();
    auto replay = parse(text.str());
    if (!replay)
        return fail(file.string() + ": " + replay.error().message);
    return replay;
}

void InputReplay::apply(std::int64_t frame, InputState& input) {
    while (next_ < changes_.size() && changes_[next_].frame <= frame) {
        input.set(changes_[next_].action, changes_[next_].value);
        ++next_;
    }
}

} // namespace scripthost
