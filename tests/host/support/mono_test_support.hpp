#pragma once
// Helpers for tests that run scripts in the real Mono runtime. Each test case runs in
// its own process under CTest (doctest_discover_tests), and the runtime starts once
// per process, as Mono requires.

#include "../../support/test_support.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "host/engine/script_host.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/reload/reload_transaction.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <doctest/doctest.h>
#include <memory>
#include <span>

namespace scripthost::testing {

/// A host with no scripts loaded yet.
inline std::unique_ptr<ScriptHost> makeEmptyHost(int disableAfterFailures = 10) {
    ScriptHostOptions options;
    options.registerInternalCalls = glue::registerEngineInternalCalls;
    options.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
    options.disableAfterFailures = disableAfterFailures;
    auto host = ScriptHost::create(options);
    REQUIRE_MESSAGE(host, (host ? "" : host.error().message));
    return std::move(*host);
}

/// A host running `scripts` (compiled by the test; several: in dependency order) as its first
/// generation.
inline std::unique_ptr<ScriptHost> makeHostFrom(std::span<const AssemblyFile> scripts,
                                                int disableAfterFailures = 10) {
    auto host = makeEmptyHost(disableAfterFailures);
    auto loaded = host->loadScripts(scripts);
    REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().message));
    return host;
}

inline std::unique_ptr<ScriptHost> makeHostFrom(const AssemblyFile& scripts,
                                                int disableAfterFailures = 10) {
    return makeHostFrom(std::span(&scripts, 1), disableAfterFailures);
}

/// A host running the tests' own scripts (TestScripts.dll).
inline std::unique_ptr<ScriptHost> makeHost(int disableAfterFailures = 10) {
    auto scripts = AssemblyFile::read(SCRIPTHOST_TEST_SCRIPTS_DLL);
    REQUIRE_MESSAGE(scripts, (scripts ? "" : scripts.error().message));
    return makeHostFrom(*scripts, disableAfterFailures);
}

/// Reloads and fails the test (with the report) unless the reload succeeded.
/// Reloads `host` to `scripts` through the daemon's pipeline: every stage of a
/// ReloadTransaction in order, the warm stage in the daemon's 2 ms slices (no frames between:
/// a test's values stay exactly as the test left them until the swap).
inline ReloadReport reloadNow(ScriptHost& host, const AssemblyFile& scripts,
                              std::vector<std::string> trigger = {}) {
    ReloadTransaction reload(host, scripts, std::move(trigger));
    while (!reload.done())
        reload.step(std::chrono::microseconds(2000));
    return reload.takeReport();
}

inline ReloadReport reloadOk(ScriptHost& host, const AssemblyFile& scripts) {
    ReloadReport report = reloadNow(host, scripts, {"test"});
    REQUIRE_MESSAGE(report.success, report.describe());
    return report;
}

/// The outcome recorded for `field`, or nullptr.
inline const FieldOutcome* outcomeOf(const ReloadReport& report, const std::string& field) {
    for (const FieldOutcome& f : report.fields) {
        if (f.field == field)
            return &f;
    }
    return nullptr;
}

/// ScriptCore and the test scripts, for tests that make ScriptDomains themselves.
struct BareRuntime {
    AssemblyFile scriptCore;
    AssemblyFile scripts;
};

/// Starts the runtime with the engine's internal calls registered (as ScriptHost::create
/// does) and reads ScriptCore and the test scripts.
inline BareRuntime startBareRuntime() {
    auto runtime = MonoRuntime::start();
    REQUIRE(runtime);
    glue::registerEngineInternalCalls(**runtime);
    auto core = AssemblyFile::read(SCRIPTHOST_SCRIPTCORE_DLL);
    auto scripts = AssemblyFile::read(SCRIPTHOST_TEST_SCRIPTS_DLL);
    REQUIRE(core);
    REQUIRE(scripts);
    return {std::move(*core), std::move(*scripts)};
}

/// Creates an entity carrying one script; fails the test if that fails.
inline ObjectId spawnScript(ScriptHost& host, const std::string& className,
                            nlohmann::json fields = nlohmann::json::object(),
                            std::vector<std::string> components = {}) {
    const ObjectId entity = host.world().createEntity(className + "Entity");
    for (auto& kind : components) {
        REQUIRE(host.world().addComponent(entity, kind));
    }
    auto script = host.addScript(entity, SceneScript{className, std::move(fields)});
    REQUIRE_MESSAGE(script, (script ? "" : script.error().message));
    return *script;
}

template <typename T> T fieldOf(ScriptHost& host, ObjectId script, const std::string& name) {
    auto value = host.getField(script, name);
    REQUIRE_MESSAGE(value, (value ? "" : value.error().message));
    REQUIRE_MESSAGE(std::holds_alternative<T>(*value), (name + " holds " + describe(*value)));
    return std::get<T>(*value);
}

/// Compiles C# `sources` (name → text) against ScriptCore (and `references`) into dir/out with
/// the real mcs.
inline AssemblyFile compileScripts(const TempDir& dir, const std::string& out,
                                   const std::vector<std::pair<std::string, std::string>>& sources,
                                   const std::vector<std::filesystem::path>& references = {}) {
    compiler::CompileRequest request;
    request.references = references;
    for (const auto& [name, text] : sources) {
        writeFile(dir / ("src-" + out) / name, text);
        request.sources.push_back(dir / ("src-" + out) / name);
    }
    request.references.push_back(SCRIPTHOST_SCRIPTCORE_DLL);
    request.output = dir / out;
    const auto result = compiler::ColdCompiler().compile(request);
    std::string log;
    for (const auto& d : result.diagnostics)
        log += compiler::format(d) + "\n";
    REQUIRE_MESSAGE(result.success, log);
    auto file = AssemblyFile::read(result.output);
    REQUIRE(file);
    return std::move(*file);
}

} // namespace scripthost::testing
