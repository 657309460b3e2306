#pragma once
// CompileRequest / CompileResult: what a build is asked to do and what it did.

#include "compiler_bridge/diagnostic.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// Which way a build was run.
enum class Backend {
    Cold, ///< one `mcs` process per build
    Warm, ///< the resident compile server (mcs.exe loaded once under mono)
};

/// "cold" / "warm", for logs and JSON.
[[nodiscard]] constexpr std::string_view backendName(Backend backend) noexcept {
    return backend == Backend::Warm ? "warm" : "cold";
}

/// One build of a C# library with mcs.
struct CompileRequest {
    std::vector<std::filesystem::path> sources;
    std::vector<std::filesystem::path> references; ///< e.g. ScriptCore.dll
    std::vector<std::string> defines;
    std::filesystem::path output; ///< the .dll to write; its .mdb goes beside it
    bool debugSymbols = true;     ///< -debug: writes output.mdb for file:line in stack traces
    bool allowUnsafeCode = false; ///< -unsafe: `unsafe` blocks and pointers (an .asmdef's flag)
    std::chrono::milliseconds timeout{60000};
    /// Warm only: the next build is likely to look like this one, so the compile server imports
    /// its references while it waits ("Imported between builds", compiler-bridge/README.md).
    /// False: the server keeps preparing for the last build that said true. An assembly set
    /// says false for all but its first compile, the only one whose references it did not
    /// just rebuild.
    bool prepareNext = true;
};

/// What a build produced.
struct CompileResult {
    bool success = false;
    std::filesystem::path output;  ///< the .dll (valid when success)
    std::filesystem::path symbols; ///< the .mdb, empty when not written
    std::chrono::milliseconds duration{0};
    std::vector<Diagnostic> diagnostics;
    std::string log;                 ///< the compiler's raw output, for messages that did not parse
    bool timedOut = false;           ///< killed after the request's timeout
    bool nothingToBuild = false;     ///< the request listed no source files; nothing was run
    Backend backend = Backend::Cold; ///< the backend that produced this result
    /// Warm only: the server had read and imported the references before the request came,
    /// so this build only parsed, compiled and wrote (see WarmCompilerOptions).
    bool referencesPrepared = false;
    /// Why a warm build fell back to the cold backend (empty when it did not).
    std::string fallbackReason;
    /// Errors only.
    [[nodiscard]] std::size_t errorCount() const;
};

} // namespace scripthost::compiler
