#pragma once
// LineSplitter: cuts a byte stream into the lines of the JSON-lines framing.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::control {

/// Accumulates received bytes and hands out complete lines: split on '\n', a trailing '\r'
/// removed, empty lines skipped. A line longer than the limit (counted without its line
/// end) is an error, reported as soon as it is certain, even before its '\n' arrives.
class LineSplitter {
public:
    explicit LineSplitter(std::size_t maxLineBytes) noexcept : maxLineBytes_(maxLineBytes) {}

    enum class Status { Ok, LineTooLong };

    /// Appends `bytes`, moves every complete line into `lines`. After LineTooLong the
    /// splitter is spent: the stream has no trustworthy line boundary any more.
    [[nodiscard]] Status feed(std::string_view bytes, std::vector<std::string>& lines);

    /// Bytes of the unfinished last line.
    [[nodiscard]] std::size_t pendingBytes() const noexcept { return pending_.size(); }
    [[nodiscard]] std::size_t maxLineBytes() const noexcept { return maxLineBytes_; }

private:
    std::size_t maxLineBytes_;
    std::string pending_;     ///< bytes after the last '\n'
    std::size_t scanned_ = 0; ///< prefix of pending_ known to hold no '\n'
};

} // namespace scripthost::control
