#pragma once
// StateSaver: writes the daemon's state file on a thread of its own, so that a save costs a
// frame only the snapshot of the world (ScriptHost::saveScene), not the JSON text, the write
// and the fsync. A newer snapshot replaces one not yet written: the file always ends up with
// the newest. flush() waits for what was handed over (the stop's last save).
//
// With the state goes the code that made it: the running generation's assembly (and symbols),
// written before the state file to `<state file's stem>.scripts/Scripts.dll` beside it, when it
// changed. A host restarted after a crash runs that code first (ScriptProjectOptions::
// resumeScripts), so what is on disk now — a syntax error, a throwing constructor — cannot keep
// it from coming back.

#include "host/model/assembly_file.hpp"
#include "host/model/scene.hpp"
#include "host/model/state_file.hpp"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace scripthost {

class StateSaver {
public:
    explicit StateSaver(StateFile file);
    ~StateSaver(); // writes what is pending, then stops
    StateSaver(const StateSaver&) = delete;
    StateSaver& operator=(const StateSaver&) = delete;

    /// Hands `scene` over to be written (replacing one not yet written). `why` names the save
    /// in the log ("autosave", "after reload 3", "on stop").
    void save(Scene scene, std::string why, std::optional<AssemblyFile> scripts = std::nullopt);
    /// Where the assembly saved with the state goes (and a restart reads it).
    [[nodiscard]] static std::filesystem::path scriptsPathFor(const std::filesystem::path& stateFile);
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
    std::optional<AssemblyFile> pendingScripts_;
    std::string pendingWhy_;
    bool writing_ = false;
    bool stopping_ = false;
    std::size_t failures_ = 0;
    std::thread thread_;
};

} // namespace scripthost
