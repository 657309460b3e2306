#include "script_project.hpp"

#include "compiler_bridge/warm_compiler.hpp"
#include "editor_projects.hpp"
#include "host/engine/script_sources.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/model/assembly_file.hpp"
#include "host/modules/native_proxy_source.hpp"

#include <fstream>
#include <iterator>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace scripthost {

namespace fs = std::filesystem;

Result<fs::path> ScriptProject::findScriptCore(const fs::path& given) {
    const fs::path path =
        given.empty() ? compiler::executableDirectory() / "ScriptCore.dll" : given;
    if (!fs::exists(path))
        return fail("ScriptCore.dll not found at " + path.string() + " (use --scriptcore)");
    return path;
}

std::expected<std::unique_ptr<ScriptProject>, ProjectStartFailure>
ScriptProject::start(const ScriptProjectOptions& options) {
    std::unique_ptr<ScriptProject> project(new ScriptProject());
    if (auto failed = project->startUp(options))
        return std::unexpected(std::move(*failed));
    return project;
}

std::optional<ProjectStartFailure> ScriptProject::startUp(const ScriptProjectOptions& options) {
    auto failure = [](std::string message) { return ProjectStartFailure{std::move(message), {}}; };
    std::vector<AssemblyFile> resume;
    for (const fs::path& dll : options.resumeScripts) {
        auto read = AssemblyFile::read(dll);
        if (!read) {
            spdlog::warn("the code that ran before the crash cannot be read ({}); building the "
                         "scripts instead",
                         read.error().message);
            resume.clear();
            break;
        }
        resume.push_back(std::move(*read));
    }
    if (auto sources = collectScriptSources(options.scriptDirs); !sources && resume.empty())
        return failure(sources.error().message);
    auto core = findScriptCore(options.scriptCore);
    if (!core)
        return failure(core.error().message);
    if (auto started = startHost(options, *core); !started)
        return failure(started.error().message);
    if (auto made = makeBuildDir(options); !made)
        return failure(made.error().message);
    // The game module registers its internal calls before any script code is loaded.
    auto game = loadGameModule(options);
    if (!game)
        return failure(game.error().message);
    if (auto started = startReloads(options, *core, !resume.empty(), std::move(*game)); !started)
        return failure(started.error().message);
    return loadFirstGeneration(options, std::move(resume));
}

Result<void> ScriptProject::startHost(const ScriptProjectOptions& options,
                                      const fs::path& scriptCore) {
    ScriptHostOptions hostOptions;
    hostOptions.registerInternalCalls = glue::registerEngineInternalCalls;
    hostOptions.scriptCore = scriptCore;
    hostOptions.disableAfterFailures = options.disableAfterFailures;
    hostOptions.watchdogBudget = options.watchdogBudget;
    hostOptions.watchdogGrace = options.watchdogGrace;
    auto host = ScriptHost::create(hostOptions);
    if (!host)
        return fail("cannot start the host: " + host.error().message);
    host_ = std::move(*host);
    return {};
}

Result<void> ScriptProject::makeBuildDir(const ScriptProjectOptions& options) {
    buildDir_ = options.buildDir;
    if (buildDir_.empty()) {
        buildDir_ = fs::temp_directory_path() / ("scripthost-" + std::to_string(::getuid())) /
                    (options.purpose + "-" + std::to_string(::getpid()));
        ownsBuildDir_ = true;
    }
    std::error_code ec;
    fs::create_directories(buildDir_, ec);
    if (ec)
        return fail("cannot create the build folder " + buildDir_.string() + ": " + ec.message());
    return {};
}

Result<std::unique_ptr<GameModuleHost>>
ScriptProject::loadGameModule(const ScriptProjectOptions& options) {
    if (options.gameModule.empty())
        return std::unique_ptr<GameModuleHost>();
    // It runs from a private copy, as every later build does (ModuleReloader): a build tool
    // that rewrites the library in place would otherwise change code the host is running.
    auto copy = ModuleReloader::privateCopy(options.gameModule, buildDir_ / "modules", 1);
    if (!copy)
        return std::unexpected(copy.error());
    auto loaded = GameModuleHost::load(options.gameModule, *host_, *copy);
    if (!loaded)
        return std::unexpected(loaded.error());
    std::unique_ptr<GameModuleHost> game = std::move(*loaded);
    host_->setGameModuleName(game->name());
    game->activateNativeScripts();
    // The C# proxies of its native script classes are built with the scripts.
    nativeProxies_ = buildDir_ / "native-proxies" / "NativeScripts.g.cs";
    nativeProxiesOnScripts_ = buildDir_ / "native-proxies" / "NativeScriptsOnScripts.g.cs";
    if (auto written = writeNativeProxies(); !written)
        return std::unexpected(written.error());
    return game;
}

Result<void> ScriptProject::startReloads(const ScriptProjectOptions& options,
                                         const fs::path& scriptCore, bool resuming,
                                         std::unique_ptr<GameModuleHost> game) {
    ReloadCoordinatorOptions reload;
    reload.scriptDirs = options.scriptDirs;
    if (!nativeProxies_.empty()) {
        reload.generatedSources.push_back(nativeProxies_);
        reload.generatedSourcesOnScripts.push_back(nativeProxiesOnScripts_);
    }
    reload.scriptCore = scriptCore;
    reload.buildDir = buildDir_;
    reload.coldCompiler = options.coldCompiler;
    reload.prepareDomains = options.prepareDomains;
    if (!options.editorProjectsFolder.empty()) {
        reload.onLayoutWalked = [folder = options.editorProjectsFolder,
                                 solution = options.editorSolution, scriptCore,
                                 generated = std::vector<fs::path>{nativeProxies_,
                                                                   nativeProxiesOnScripts_}](
                                    const compiler::AssemblyLayout& walked) {
            auto layout = withGeneratedCopies(walked, folder, generated);
            if (!layout) {
                spdlog::warn("editor projects not updated: {}", layout.error().message);
                return;
            }
            auto written = writeEditorProjects(*layout, folder, solution, scriptCore);
            if (!written)
                spdlog::warn("editor projects not updated: {}", written.error().message);
            else if (*written > 0)
                spdlog::info("editor projects updated ({} files in {})", *written, folder.string());
        };
    }
    reload.watch = options.watch;
    reload.waitForMissingFolders = resuming;
    auto coordinator = ReloadCoordinator::start(*host_, reload);
    if (!coordinator)
        return std::unexpected(coordinator.error());
    reloads_ = std::move(*coordinator);
    if (game) {
        ModuleReloaderOptions moduleReload;
        moduleReload.copies = buildDir_ / "modules";
        moduleReload.watch = options.watch;
        modules_ = std::make_unique<ModuleReloader>(std::move(game), *host_, moduleReload, [this] {
            // The scripts reload against the new module (its internal calls bind again): the
            // proxies' assembly and what references it are rebuilt when its native classes
            // changed, else the running code is loaded again as it is.
            auto written = writeNativeProxies();
            if (!written)
                spdlog::error("{}", written.error().message);
            if (reloads_)
                reloads_->requestReload(written && !*written
                                            ? ReloadCoordinator::Rebuild::Nothing
                                            : ReloadCoordinator::Rebuild::Generated);
        });
    }
    return {};
}

std::optional<ProjectStartFailure>
ScriptProject::loadFirstGeneration(const ScriptProjectOptions& options,
                                   std::vector<AssemblyFile> resume) {
    auto failure = [](std::string message) { return ProjectStartFailure{std::move(message), {}}; };
    if (!resume.empty()) {
        if (auto loaded = host_->loadScripts(resume); loaded) {
            std::string files;
            for (const fs::path& dll : options.resumeScripts)
                files += (files.empty() ? "" : ", ") + dll.string();
            spdlog::info("running the code that ran before the crash ({}); the scripts on disk "
                         "are rebuilt and reloaded now",
                         files);
            reloads_->setRunningScripts(std::move(resume));
            reloads_->requestReload();
            return std::nullopt;
        } else {
            spdlog::warn("the code that ran before the crash does not load ({}); building the "
                         "scripts instead",
                         loaded.error().message);
        }
    }
    auto firstBuild = reloads_->buildNow();
    if (!firstBuild)
        return ProjectStartFailure{"compilation failed; nothing was run",
                                   std::move(firstBuild.error())};
    std::vector<AssemblyFile> scripts;
    for (const fs::path& dll : *firstBuild) {
        auto file = AssemblyFile::read(dll);
        if (!file)
            return failure(file.error().message);
        scripts.push_back(std::move(*file));
    }
    if (auto loaded = host_->loadScripts(scripts); !loaded)
        return failure("cannot load the scripts: " + loaded.error().message);
    reloads_->setRunningScripts(std::move(scripts)); // what a restart runs first
    return std::nullopt;
}

namespace {

/// Makes `file` hold `text` (none: no file), replacing it whole; true when that changed it.
Result<bool> replaceFile(const fs::path& file, const std::optional<std::string>& text) {
    std::error_code ec;
    if (!text) {
        const bool removed = fs::remove(file, ec);
        if (ec)
            return fail("cannot remove " + file.string() + ": " + ec.message());
        return removed;
    }
    {
        std::ifstream in(file, std::ios::binary);
        if (in && std::string(std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>()) == *text)
            return false;
    }
    fs::create_directories(file.parent_path(), ec);
    const fs::path temporary = file.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << *text;
        if (!out)
            return fail("cannot write " + temporary.string());
    }
    fs::rename(temporary, file, ec);
    if (ec)
        return fail("cannot write " + file.string() + ": " + ec.message());
    return true;
}

} // namespace

Result<bool> ScriptProject::writeNativeProxies() {
    if (nativeProxies_.empty())
        return false;
    const GameModuleHost* game = modules_ ? &modules_->current() : nullptr;
    const std::string origin = "the game module " + (game ? game->name()
                                                     : host_->gameModuleName().empty()
                                                         ? std::string("(none)")
                                                         : std::string(host_->gameModuleName()));
    // A class implementing a script's C# class needs the scripts: it is built with them (the
    // default assembly); the others are an assembly every script assembly references.
    std::vector<const game::NativeScriptClassInfo*> own;
    std::vector<const game::NativeScriptClassInfo*> onScripts;
    for (const game::NativeScriptClassInfo* cls : host_->natives().classes())
        (cls->baseClass.empty() ? own : onScripts).push_back(cls);
    auto sourceOf = [&](const std::vector<const game::NativeScriptClassInfo*>& classes) {
        return classes.empty() ? std::nullopt
                               : std::optional<std::string>(nativeProxySource(classes, origin));
    };
    auto ownChanged = replaceFile(nativeProxies_, sourceOf(own));
    if (!ownChanged)
        return fail("cannot write the native script proxies: " + ownChanged.error().message);
    auto onScriptsChanged = replaceFile(nativeProxiesOnScripts_, sourceOf(onScripts));
    if (!onScriptsChanged)
        return fail("cannot write the native script proxies: " + onScriptsChanged.error().message);
    return *ownChanged || *onScriptsChanged;
}

Result<void> ScriptProject::shutdown() {
    reloads_.reset();
    return host_ ? host_->shutdown() : Result<void>{};
}

ScriptProject::~ScriptProject() {
    if (auto down = shutdown(); !down)
        spdlog::warn("{}", down.error().message);
    host_.reset();
    modules_.reset();
    if (ownsBuildDir_) {
        std::error_code ec;
        fs::remove_all(buildDir_, ec);
    }
}

} // namespace scripthost
