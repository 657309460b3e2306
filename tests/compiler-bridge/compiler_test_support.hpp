#pragma once
// Helpers for the compiler-bridge tests: requests over temp folders, fake programs, log capture.

#include "compiler_bridge/compile_request.hpp"
#include "support/captured_log.hpp"
#include "support/test_support.hpp"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <memory>
#include <string>

namespace scripthost::testing {

/// A library build of `sources` into `<dir>/out/<name>.dll`, with a test-sized timeout.
inline compiler::CompileRequest libraryRequest(const std::filesystem::path& dir,
                                               std::vector<std::filesystem::path> sources,
                                               const std::string& name = "Lib") {
    compiler::CompileRequest request;
    request.sources = std::move(sources);
    request.output = dir / "out" / (name + ".dll");
    request.timeout = std::chrono::seconds(30);
    return request;
}

/// Writes an executable shell script (a fake mcs or a fake server).
inline std::filesystem::path writeScript(const std::filesystem::path& path,
                                         const std::string& body) {
    writeFile(path, "#!/bin/sh\n" + body);
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
}

/// Does the file contain these bytes? (Class names land in a dll's metadata strings.)
inline bool fileContains(const std::filesystem::path& file, const std::string& bytes) {
    return readFile(file).find(bytes) != std::string::npos;
}

/// All diagnostics of a result, one formatted line each, for failure messages.
inline std::string describe(const compiler::CompileResult& result) {
    std::string text = std::string(result.success ? "success" : "failure") + " (" +
                       std::string(compiler::backendName(result.backend)) + ")";
    if (!result.fallbackReason.empty()) {
        text += " fallback: " + result.fallbackReason;
    }
    for (const auto& d : result.diagnostics) {
        text += "\n  " + compiler::format(d);
    }
    return text;
}

} // namespace scripthost::testing
