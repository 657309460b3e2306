#pragma once
// StateSaver: writes the daemon's state file on a thread of its own, so that a save costs a
// frame only the snapshot of the world (ScriptHost::saveScene), not the JSON text, the write
// and the fsync. A newer snapshot replaces one not yet written: the file always ends up with
// the newest. flush() waits for what was handed over (the stop's last save).
//
// With the state goes the code that made it (saved_scripts.hpp): the running generation's
// assemblies, written before the state file into `<state file's stem>.scripts/` beside it,
// when they changed. A host restarted after a crash runs that code first
// (ScriptProjectOptions::resumeScripts), so what is on disk now — a syntax error, a throwing
// constructor — cannot keep it from coming back.

#include "host/model/assembly_file.hpp"
#include "host/model/scene.hpp"
#include "host/model/state_file.hpp"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace scripthost {

class StateSaver {
public:
    explicit StateSaver(StateFile file);
    ~StateSaver(); // writes what is pending, then stops
    StateSaver(const StateSaver&) = delete;
    StateSaver& operator=(const StateSaver&) = delete;

    /// Hands `scene` over to be written (replacing one not yet written). `why` names the save
    /// in the log ("autosave", "after reload 3", "on stop").
    /// `scripts`: the running code, when it changed since the last save (dependency order).
    void save(Scene scene, std::string why,
              std::optional<std::vector<AssemblyFile>> scripts = std::nullopt);
    /// Waits until everything handed over is written.
    void flush();
    [[nodiscard]] const StateFile& file() const noexcept { return file_; }
    /// Saves that failed since the start (each one logged).
    [[nodiscard]] std::size_t failures() const;

private:
    void run();

    StateFile file_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable written_;
    std::optional<Scene> pending_;
    std::optional<std::vector<AssemblyFile>> pendingScripts_;
    std::string pendingWhy_;
    bool writing_ = false;
    bool stopping_ = false;
    std::size_t failures_ = 0;
    std::thread thread_;
};

} // namespace scripthost
