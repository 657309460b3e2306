#pragma once
// Small helpers both backends use to shape a CompileResult the same way.

#include "compiler_bridge/compile_request.hpp"

#include <chrono>
#include <string>

namespace scripthost::compiler::detail {

/// An unsuccessful result carrying one location-less error diagnostic.
[[nodiscard]] CompileResult failedResult(const CompileRequest& request, Backend backend,
                                         std::string message);

/// The clear "no .cs files" result: unsuccessful, nothingToBuild set, one diagnostic.
[[nodiscard]] CompileResult nothingToBuildResult(const CompileRequest& request, Backend backend);

/// Creates the output's folder; an error message when that fails.
[[nodiscard]] std::string prepareOutputFolder(const CompileRequest& request);

/// Fills in the .mdb path when mcs wrote one, and turns a "success" without the .dll on
/// disk into a failure (mcs said yes but produced nothing usable).
void checkOutputs(CompileResult& result);

/// Milliseconds since `started`.
[[nodiscard]] std::chrono::milliseconds elapsedSince(std::chrono::steady_clock::time_point started);

} // namespace scripthost::compiler::detail
