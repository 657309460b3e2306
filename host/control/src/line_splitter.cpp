#include "control/line_splitter.hpp"

namespace scripthost::control {

LineSplitter::Status LineSplitter::feed(std::string_view bytes, std::vector<std::string>& lines) {
    pending_.append(bytes);
    std::size_t lineStart = 0;
    std::size_t newline = pending_.find('\n', scanned_);
    while (newline != std::string::npos) {
        std::size_t lineEnd = newline;
        if (lineEnd > lineStart && pending_[lineEnd - 1] == '\r')
            --lineEnd;
        const std::size_t length = lineEnd - lineStart;
        if (length > maxLineBytes_) {
            pending_.clear();
            scanned_ = 0;
            return Status::LineTooLong;
        }
        if (length > 0)
            lines.emplace_back(pending_, lineStart, length);
        lineStart = newline + 1;
        newline = pending_.find('\n', lineStart);
    }
    pending_.erase(0, lineStart); // one erase per feed, not one per line
    scanned_ = pending_.size();

    // The unfinished line is already too long unless its only extra byte is the '\r' of a
    // "\r\n" that has not fully arrived.
    const std::size_t size = pending_.size();
    const bool tooLong =
        size > maxLineBytes_ + 1 || (size == maxLineBytes_ + 1 && pending_.back() != '\r');
    if (tooLong) {
        pending_.clear();
        scanned_ = 0;
        return Status::LineTooLong;
    }
    return Status::Ok;
}

} // namespace scripthost::control
