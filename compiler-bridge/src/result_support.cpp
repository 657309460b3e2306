#include "result_support.hpp"

#include <system_error>

namespace scripthost::compiler {

std::size_t CompileResult::errorCount() const {
    std::size_t n = 0;
    for (const Diagnostic& d : diagnostics) {
        n += d.severity == Severity::Error ? 1 : 0;
    }
    return n;
}

namespace detail {

CompileResult failedResult(const CompileRequest& request, Backend backend, std::string message) {
    CompileResult result;
    result.output = request.output;
    result.backend = backend;
    result.diagnostics.push_back({"", 0, 0, Severity::Error, "", std::move(message)});
    return result;
}

CompileResult nothingToBuildResult(const CompileRequest& request, Backend backend) {
    CompileResult result = failedResult(request, backend, "nothing to build: no source files");
    result.nothingToBuild = true;
    return result;
}

std::string prepareOutputFolder(const CompileRequest& request) {
    if (request.output.empty()) {
        return "no output path given";
    }
    std::error_code ec;
    std::filesystem::create_directories(request.output.parent_path(), ec);
    if (ec) {
        return "cannot create the output folder " + request.output.parent_path().string() + ": " +
               ec.message();
    }
    return {};
}

void checkOutputs(CompileResult& result) {
    if (!result.success) {
        return;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(result.output, ec)) {
        result.success = false;
        result.diagnostics.push_back(
            {"", 0, 0, Severity::Error, "",
             "the compiler reported success but did not write " + result.output.string()});
        return;
    }
    std::filesystem::path mdb = result.output;
    mdb += ".mdb";
    if (std::filesystem::exists(mdb, ec)) {
        result.symbols = mdb;
    }
}

std::chrono::milliseconds elapsedSince(std::chrono::steady_clock::time_point started) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 started);
}

} // namespace detail
} // namespace scripthost::compiler
