#include "state_saver.hpp"

#include "saved_scripts.hpp"

#include <spdlog/spdlog.h>

namespace scripthost {

StateSaver::StateSaver(StateFile file) : file_(std::move(file)), thread_([this] { run(); }) {}

StateSaver::~StateSaver() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void StateSaver::save(Scene scene, std::string why,
                      std::optional<std::vector<AssemblyFile>> scripts) {
    {
        std::lock_guard lock(mutex_);
        pending_ = std::move(scene);
        pendingWhy_ = std::move(why);
        if (scripts) // a newer one replaces one not yet written; none keeps it
            pendingScripts_ = std::move(scripts);
    }
    wake_.notify_one();
}

void StateSaver::flush() {
    std::unique_lock lock(mutex_);
    written_.wait(lock, [this] { return !pending_ && !writing_; });
}

std::size_t StateSaver::failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
}

void StateSaver::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
        if (!pending_) // stopping, nothing left
            break;
        Scene scene = std::move(*pending_);
        std::string why = std::move(pendingWhy_);
        std::optional<std::vector<AssemblyFile>> scripts = std::move(pendingScripts_);
        pending_.reset();
        pendingScripts_.reset();
        writing_ = true;
        lock.unlock();
        Result<void> saved;
        if (scripts)
            saved = writeSavedScripts(file_.path(), *scripts);
        if (saved)
            saved = file_.save(scene);
        if (!saved)
            spdlog::error("state not saved ({}): {}", why, saved.error().message);
        else
            spdlog::debug("state saved to {} ({})", file_.path().string(), why);
        lock.lock();
        writing_ = false;
        if (!saved)
            ++failures_;
        written_.notify_all();
    }
}

} // namespace scripthost
