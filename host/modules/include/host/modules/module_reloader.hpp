#pragma once
// ModuleReloader: the game module's live reload. It watches the `--game` library, loads a
// new build from a private copy, hands the module's state over, swaps it in between frames
// and has the scripts reloaded so their internal calls bind to the new build; it puts the
// previous build back when the new one crashes in its first frames (as cr.h does).

#include "host/modules/game_module_host.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scripthost {

class ScriptHost;

/// What one module reload did.
struct ModuleReloadReport {
    enum class Outcome {
        Swapped,    ///< the new build runs
        Failed,     ///< the new build was refused; the running one goes on
        RolledBack, ///< the new build crashed in its first frames; the previous one is back
    };
    Outcome outcome = Outcome::Failed;
    std::uint32_t generation = 0; ///< the module generation running after it (1 = first load)
    std::string message;          ///< one line: what happened and why
    /// Swapped: the module handed its state over (SCRIPTHOST_GAME_STATE); false: it started
    /// fresh.
    bool stateCarried = false;
    double milliseconds = 0; ///< main-thread time of the swap (load, attach, state)
    /// Swapped or RolledBack: what became of the native scripts (carried, parked, revived).
    NativeScriptCarry nativeScripts;

    [[nodiscard]] bool ok() const noexcept { return outcome == Outcome::Swapped; }
};

struct ModuleReloaderOptions {
    std::filesystem::path copies; ///< where the private copies of each build go
    bool watch = true;            ///< watch the library file; false: reloadNow() only
    /// A build is taken once the file has not changed for this long (linkers write in place).
    std::chrono::milliseconds settle{300};
    /// A crash this many frames after a swap puts the previous build back.
    std::int64_t rollbackFrames = 300;
};

/// Main thread only. Every build ever loaded stays mapped until the reloader is destroyed:
/// a script generation compiled against one may call its internal calls until it is
/// unloaded, and the previous build is kept for rollback.
class ModuleReloader {
public:
    /// `reloadScripts` asks for a script reload (through the one reload pipeline).
    ModuleReloader(std::unique_ptr<GameModuleHost> first, ScriptHost& host,
                   ModuleReloaderOptions options, std::function<void()> reloadScripts);
    ~ModuleReloader();
    ModuleReloader(const ModuleReloader&) = delete;
    ModuleReloader& operator=(const ModuleReloader&) = delete;

    /// The build running now.
    [[nodiscard]] GameModuleHost& current() noexcept { return *current_.module; }
    /// Which build that is: 1 for the one loaded at start, counting every build loaded.
    [[nodiscard]] std::uint32_t generation() const noexcept { return current_.generation; }

    /// Between frames (`frame`: the host's frame count): looks at the library file, and
    /// reloads once a new build has settled; puts the previous build back if the running
    /// one crashed within `rollbackFrames` of its swap. The report of what it did, if any.
    std::optional<ModuleReloadReport> update(std::int64_t frame);
    /// Loads the library file now, changed or not.
    ModuleReloadReport reloadNow(std::int64_t frame);

    /// Copies `library` to `<copies>/<stem>.<build><extension>` (the loader caches by path,
    /// and a build tool may rewrite the library in place while that build runs); the copy.
    [[nodiscard]] static Result<std::filesystem::path>
    privateCopy(const std::filesystem::path& library, const std::filesystem::path& copies,
                std::uint32_t build);

    /// Called with every report.
    std::function<void(const ModuleReloadReport&)> onReport;

private:
    struct FileStamp {
        std::int64_t modified = 0;
        std::uintmax_t size = 0;
        std::uintmax_t inode = 0;
        bool operator==(const FileStamp&) const = default;
    };
    [[nodiscard]] static std::optional<FileStamp> stampOf(const std::filesystem::path& file);
    struct Loaded {
        std::unique_ptr<GameModuleHost> module;
        std::uint32_t generation = 0;
    };
    ModuleReloadReport swapIn(std::int64_t frame);
    ModuleReloadReport rollBack();
    ModuleReloadReport publish(ModuleReloadReport report);

    ScriptHost& host_;
    ModuleReloaderOptions options_;
    std::function<void()> reloadScripts_;
    Loaded current_;
    Loaded previous_; ///< kept for rollback; empty after one
    std::vector<std::unique_ptr<GameModuleHost>> retired_;
    std::uint32_t builds_ = 1; ///< builds loaded so far
    std::int64_t swappedAtFrame_ = -1;
    std::optional<FileStamp> loaded_;  ///< the file as it was when last loaded (or refused)
    std::optional<FileStamp> pending_; ///< a change seen, waiting to settle
    std::chrono::steady_clock::time_point pendingSince_{};
    std::chrono::steady_clock::time_point nextLook_{};
};

} // namespace scripthost
