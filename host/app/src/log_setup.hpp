#pragma once
// Log sinks of the daemon: the console (text or JSON lines), a ring the interactive
// screen shows, and a queue of lines for control clients subscribed to "log".

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// Keeps log lines (as JSON objects) until the main thread takes them; bounded, oldest
/// dropped. Publishing from the main thread, never from inside a sink, means a control
/// server that logs while publishing cannot deadlock on the logger.
class LogLineQueue final : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit LogLineQueue(std::size_t capacity = 1000) : capacity_(capacity) {}
    [[nodiscard]] std::vector<nlohmann::json> take();

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override;
    void flush_() override {}

private:
    std::size_t capacity_;
    std::deque<nlohmann::json> lines_;
};

/// One log line as JSON: {"time": "2026-11-22T04:30:00.123Z", "level": "info", "message": …}.
[[nodiscard]] nlohmann::json logLineJson(const spdlog::details::log_msg& msg);

/// The daemon's loggers, set up once in main().
class LogSetup {
public:
    /// `format`: "text" or "json"; `level`: spdlog level name.
    LogSetup(const std::string& format, const std::string& level);
    /// While the interactive screen is up, the console is quiet and lines go to the ring.
    void showOnScreen(bool screen);
    /// The last `count` lines for the screen (formatted, without colour codes).
    [[nodiscard]] std::vector<std::string> recentLines(std::size_t count) const;
    [[nodiscard]] LogLineQueue& controlQueue() noexcept { return *controlQueue_; }

private:
    std::shared_ptr<spdlog::sinks::sink> console_;
    std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> ring_;
    std::shared_ptr<LogLineQueue> controlQueue_;
};

/// The lines of `text` that are not empty (a multi-line message, one log or screen line each).
[[nodiscard]] std::vector<std::string_view> nonEmptyLines(std::string_view text);

} // namespace scripthost
