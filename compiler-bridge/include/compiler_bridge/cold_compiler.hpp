#pragma once
// ColdCompiler: runs mcs as a child process for each build.

#include "compiler_bridge/compiler.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace scripthost::compiler {

/// Builds by starting `mcs` once per request (about 130 ms per build here). Its output
/// is read on both pipes at once, so a build printing megabytes cannot deadlock, and a
/// build running past the request's timeout is killed.
class ColdCompiler final : public Compiler {
public:
    /// Uses `mcs` (an absolute path, or the name looked up on PATH).
    explicit ColdCompiler(std::filesystem::path mcs = "mcs");

    /// Builds synchronously. Never throws: failures to even start mcs come back as an
    /// unsuccessful result with an error diagnostic. Safe to call from several threads.
    [[nodiscard]] CompileResult compile(const CompileRequest& request) override;

    /// Always Backend::Cold.
    [[nodiscard]] Backend backend() const noexcept override { return Backend::Cold; }

    /// The mcs command line for a request (without the program), for logs and tests.
    [[nodiscard]] static std::vector<std::string> arguments(const CompileRequest& request);

private:
    std::filesystem::path mcs_;
};

} // namespace scripthost::compiler
