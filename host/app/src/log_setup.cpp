#include "log_setup.hpp"

#include <algorithm>
#include <fmt/chrono.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {

std::string isoTime(spdlog::log_clock::time_point time) {
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()) % 1000;
    return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z",
                       fmt::gmtime(spdlog::log_clock::to_time_t(time)), ms.count());
}

/// Formats each line as one JSON object (valid JSON whatever the message holds).
class JsonLineFormatter final : public spdlog::formatter {
public:
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
        const std::string line =
            logLineJson(msg).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        dest.append(line.data(), line.data() + line.size());
    }
    [[nodiscard]] std::unique_ptr<spdlog::formatter> clone() const override {
        return std::make_unique<JsonLineFormatter>();
    }
};

} // namespace

nlohmann::json logLineJson(const spdlog::details::log_msg& msg) {
    const auto level = spdlog::level::to_string_view(msg.level);
    return nlohmann::json{{"time", isoTime(msg.time)},
                          {"level", std::string(level.data(), level.size())},
                          {"message", std::string(msg.payload.data(), msg.payload.size())}};
}

void LogLineQueue::sink_it_(const spdlog::details::log_msg& msg) {
    lines_.push_back(logLineJson(msg));
    while (lines_.size() > capacity_)
        lines_.pop_front();
}

std::vector<nlohmann::json> LogLineQueue::take() {
    std::lock_guard lock(mutex_);
    std::vector<nlohmann::json> out(std::make_move_iterator(lines_.begin()),
                                    std::make_move_iterator(lines_.end()));
    lines_.clear();
    return out;
}

LogSetup::LogSetup(const std::string& format, const std::string& level) {
    console_ = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    if (format == "json")
        console_->set_formatter(std::make_unique<JsonLineFormatter>());
    else
        console_->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    ring_ = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(200);
    ring_->set_pattern("%H:%M:%S %L %v");
    ring_->set_level(spdlog::level::off);
    controlQueue_ = std::make_shared<LogLineQueue>();
    auto logger = std::make_shared<spdlog::logger>(
        "scripthost", spdlog::sinks_init_list{console_, ring_, controlQueue_});
    logger->set_level(spdlog::level::from_str(level));
    spdlog::set_default_logger(logger);
}

void LogSetup::showOnScreen(bool screen) {
    console_->set_level(screen ? spdlog::level::off : spdlog::level::trace);
    ring_->set_level(screen ? spdlog::level::trace : spdlog::level::off);
}

std::vector<std::string> LogSetup::recentLines(std::size_t count) const {
    auto lines = ring_->last_formatted(count);
    for (std::string& line : lines) {
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
            line.pop_back();
    }
    return lines;
}

std::vector<std::string_view> nonEmptyLines(std::string_view text) {
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        if (end > at)
            lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

} // namespace scripthost
