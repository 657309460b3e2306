#pragma once
// ModuleReloader: the game module's live reload. It watches the `--game` library
// (LibraryWatch), loads a new build from a private copy made once the build is done
// (copyLibraryBuild), hands the module's state over, swaps it in between frames and has the
// scripts reloaded so their internal calls bind to the new build; it puts the previous build
// back when the new one crashes in its first frames (as cr.h does).

#include "host/modules/game_module_host.hpp"
#include "host/modules/library_copy.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scripthost {

class ScriptHost;
class LibraryWatch;

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
    double milliseconds = 0; ///< main-thread time of the swap (copy, load, attach, state)
    /// Swapped or RolledBack: what became of the native scripts (carried, parked, revived).
    NativeScriptCarry nativeScripts;

    [[nodiscard]] bool ok() const noexcept { return outcome == Outcome::Swapped; }
};

struct ModuleReloaderOptions {
    std::filesystem::path copies; ///< where the private copies of each build go
    bool watch = true;            ///< watch the library file; false: reloadNow() only
    /// A build is taken as soon as it is done: the library closed after writing or renamed
    /// into place (inotify), with no process still writing it (a read lease). False — as when
    /// inotify cannot be used — only `settle` applies (LibraryWatch).
    bool completionEvents = true;
    /// A change that comes without a close or a rename (every change, without events) is
    /// taken once the file has not changed for this long.
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

    /// Between frames (`frame`: the host's frame count): reads the library's events and
    /// reloads once a new build is done (LibraryWatch: closed after writing or renamed into
    /// place, or settled) and no process still has it open for writing; puts the previous
    /// build back if the running one crashed within `rollbackFrames` of its swap. The report
    /// of what it did, if any: a build still being written is waited for, not reported.
    std::optional<ModuleReloadReport> update(std::int64_t frame);
    /// Loads the library file now, changed or not (refused while a process writes it).
    ModuleReloadReport reloadNow(std::int64_t frame);

    /// Copies `library` to `<copies>/<stem>.<build><extension>` (the loader caches by path,
    /// and a build tool may rewrite the library in place while that build runs); the copy.
    [[nodiscard]] static Result<std::filesystem::path>
    privateCopy(const std::filesystem::path& library, const std::filesystem::path& copies,
                std::uint32_t build);

    /// Called with every report.
    std::function<void(const ModuleReloadReport&)> onReport;

private:
    struct Loaded {
        std::unique_ptr<GameModuleHost> module;
        std::uint32_t generation = 0;
    };
    using Copied = std::expected<LibraryCopy, LibraryCopyRefusal>;
    /// The library copied whole as the next build (copyLibraryBuild).
    [[nodiscard]] Copied copyNextBuild() const;
    /// `started`: when the copy began (the report's time counts it).
    ModuleReloadReport swapIn(std::int64_t frame, const Copied& copy,
                              std::chrono::steady_clock::time_point started);
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
    std::unique_ptr<LibraryWatch> watch_; ///< none unless options.watch
};

} // namespace scripthost
