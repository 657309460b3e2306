#include "state_saver.hpp"

#include <fstream>
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

std::filesystem::path StateSaver::scriptsPathFor(const std::filesystem::path& stateFile) {
    return stateFile.parent_path() / (stateFile.stem().string() + ".scripts") / "Scripts.dll";
}

void StateSaver::save(Scene scene, std::string why, std::optional<AssemblyFile> scripts) {
    {
        std::lock_guard lock(mutex_);
        pending_ = std::move(scene);
        pendingWhy_ = std::move(why);
        if (scripts) // a newer one replaces one not yet written; none keeps it
            pendingScripts_ = std::move(scripts);
    }
    wake_.notify_one();
}

namespace {

// Writes `bytes` to `path` through a temporary file renamed into place.
Result<void> writeAtomically(const std::filesystem::path& path, const std::vector<char>& bytes) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out)
            return fail("cannot write " + tmp.string());
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        return fail("cannot write " + path.string() + ": " + ec.message());
    return {};
}

// The assembly and its symbols beside the state file (symbols first: a reader takes the .dll).
Result<void> writeScripts(const std::filesystem::path& stateFile, const AssemblyFile& scripts) {
    const std::filesystem::path dll = StateSaver::scriptsPathFor(stateFile);
    std::filesystem::path mdb = dll;
    mdb += ".mdb";
    if (!scripts.symbols.empty()) {
        if (auto written = writeAtomically(mdb, scripts.symbols); !written)
            return written;
    }
    return writeAtomically(dll, scripts.image);
}

} // namespace

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
        std::optional<AssemblyFile> scripts = std::move(pendingScripts_);
        pending_.reset();
        pendingScripts_.reset();
        writing_ = true;
        lock.unlock();
        Result<void> saved;
        if (scripts)
            saved = writeScripts(file_.path(), *scripts);
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
