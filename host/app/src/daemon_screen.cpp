// The daemon's terminal view: the game's rows, a failed build's errors, the log lines and
// the status line, drawn between frames (Daemon::draw).
#include "build_diagnostics.hpp"
#include "daemon.hpp"
#include "log_setup.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace scripthost {

namespace {

constexpr int kScreenLogLines = 4;
constexpr std::size_t kScreenBuildErrors = 3; // the failed build's first errors, kept in sight

} // namespace

std::string Daemon::lastReloadSummary() const {
    if (!lastReport_)
        return "";
    const ReloadReport& r = *lastReport_;
    if (r.success)
        return fmt::format("reload {} ok, stall {:.1f} ms", r.sequence, r.frameStallMs);
    if (r.failedPhase == "build")
        return fmt::format("build failed ({} error(s)), old code running", r.errors.size());
    return fmt::format("reload {} rolled back ({}), old code running", r.sequence, r.failedPhase);
}

game::HostStatus Daemon::hostStatus() const {
    game::HostStatus status;
    status.fps = host_->stats().summary().fps;
    status.generation = host_->domain() ? host_->domain()->generation() : 0;
    status.frame = host_->frame();
    status.paused = paused_;
    status.lastReload = lastReloadSummary();
    return status;
}

void Daemon::draw() {
    const int columns = terminal_->columns();
    const int rows = terminal_->rows();
    // A failed build's errors stay between the status line and the log lines until a build
    // succeeds: the log scrolls, they do not. The game's view gives up the rows they take.
    const std::vector<std::string> errors =
        diagnosticScreenLines(buildErrors_, options_.scriptDirs, kScreenBuildErrors, columns);
    const int errorRows = static_cast<int>(errors.size());
    const int gameRows = std::max(rows - 1 - errorRows - kScreenLogLines, 1);
    const game::HostStatus status = hostStatus();

    TextCanvas view(columns, gameRows);
    if (game_ && game_->renderer()) {
        game_->draw(status, view);
    } else {
        // No renderer: a list of entities and their positions.
        int y = 0;
        for (ObjectId e : host_->world().entities()) {
            const Entity* entity = host_->world().entity(e);
            const glm::vec3 p = host_->world().worldTransform(e).position;
            view.text(
                1, y++,
                fmt::format("{:<20.20} {:7.2f} {:7.2f} {:7.2f}", entity->name, p.x, p.y, p.z));
        }
    }
    canvas_.resize(columns, rows);
    for (int y = 0; y < gameRows && y < rows; ++y) {
        for (int x = 0; x < columns; ++x) {
            const TextCell& cell = view.at(x, y);
            canvas_.put(x, y, cell.glyph, cell.color, cell.bold);
        }
    }
    const bool bad = lastReport_ && !lastReport_->success;
    std::string line =
        fmt::format(" scripthost | gen {} | {:.0f} fps | frame {} | {}{}", status.generation,
                    status.fps, status.frame, status.paused ? "PAUSED | " : "",
                    status.lastReload.empty() ? "no reload yet" : status.lastReload);
    // The keys, as much of them as fits; quitting always stays in sight (the status is
    // shortened for it when even "q quit" does not fit).
    const bool moves = keyboard_ && !keyboard_->bindings().empty();
    const std::size_t room = static_cast<std::size_t>(std::max(columns, 0));
    std::string_view keys = "q quit";
    for (std::string_view fuller :
         {moves ? "w/s a/d move, p pause, r reload, q quit" : "", "p pause, r reload, q quit"}) {
        if (!fuller.empty() && line.size() + 3 + fuller.size() <= room) {
            keys = fuller;
            break;
        }
    }
    if (line.size() + 3 + keys.size() > room && room > keys.size() + 6)
        line = line.substr(0, room - keys.size() - 6) + "...";
    line += fmt::format(" | {}", keys);
    canvas_.text(0, gameRows, line, bad ? TextColor::Red : TextColor::Green, true);
    for (int i = 0; i < errorRows; ++i)
        canvas_.text(0, gameRows + 1 + i, errors[static_cast<std::size_t>(i)], TextColor::Red,
                     true);
    // The newest log lines at the bottom, a message of several lines (a reload report) as
    // several rows: a line break drawn into the canvas would move the terminal's cursor.
    std::vector<std::pair<std::string, TextColor>> logRows;
    for (const std::string& message : logs_.recentLines(kScreenLogLines)) {
        const TextColor color =
            message.find(" E ") != std::string::npos || message.find(" C ") != std::string::npos
                ? TextColor::Red
            : message.find(" W ") != std::string::npos ? TextColor::Yellow
                                                       : TextColor::Default;
        for (std::string_view line : nonEmptyLines(message))
            logRows.emplace_back(std::string(line), color);
    }
    const std::size_t firstRow =
        logRows.size() - std::min<std::size_t>(logRows.size(), kScreenLogLines);
    for (std::size_t i = firstRow; i < logRows.size(); ++i) {
        canvas_.text(0, gameRows + 1 + errorRows + static_cast<int>(i - firstRow), logRows[i].first,
                     logRows[i].second);
    }
    terminal_->present(canvas_);
}

} // namespace scripthost
