#pragma once
// CapturedLog: spdlog's default logger routed into a string for one test.

#include <cstddef>
#include <memory>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sstream>
#include <string>

namespace scripthost::testing {

/// Routes spdlog's default logger into a string while alive, and counts warnings.
class CapturedLog {
public:
    CapturedLog() : previous_(spdlog::default_logger()) {
        auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(stream_);
        spdlog::set_default_logger(std::make_shared<spdlog::logger>("captured", sink));
    }
    ~CapturedLog() { spdlog::set_default_logger(previous_); }
    CapturedLog(const CapturedLog&) = delete;
    CapturedLog& operator=(const CapturedLog&) = delete;

    [[nodiscard]] std::string text() const { return stream_.str(); }
    [[nodiscard]] std::size_t warnings() const {
        const std::string all = text();
        std::size_t n = 0;
        for (std::size_t at = all.find("[warning]"); at != std::string::npos;
             at = all.find("[warning]", at + 1)) {
            ++n;
        }
        return n;
    }

private:
    std::ostringstream stream_;
    std::shared_ptr<spdlog::logger> previous_;
};

} // namespace scripthost::testing
