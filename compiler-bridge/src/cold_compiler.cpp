#include "compiler_bridge/cold_compiler.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>
#include <future>

namespace scripthost::compiler {

namespace bp = boost::process;

std::size_t CompileResult::errorCount() const {
    std::size_t n = 0;
    for (const Diagnostic& d : diagnostics) {
        n += d.severity == Severity::Error ? 1 : 0;
    }
    return n;
}

ColdCompiler::ColdCompiler(std::filesystem::path mcs) : mcs_(std::move(mcs)) {}

std::vector<std::string> ColdCompiler::arguments(const CompileRequest& request) {
    std::vector<std::string> args{"-nologo", "-target:library", "-langversion:7.2",
                                  "-out:" + request.output.string()};
    if (request.debugSymbols) {
        args.emplace_back("-debug");
    }
    for (const auto& reference : request.references) {
        args.push_back("-r:" + reference.string());
    }
    for (const auto& define : request.defines) {
        args.push_back("-define:" + define);
    }
    for (const auto& source : request.sources) {
        args.push_back(source.string());
    }
    return args;
}

CompileResult ColdCompiler::compile(const CompileRequest& request) const {
    const auto started = std::chrono::steady_clock::now();
    CompileResult result;
    result.output = request.output;
    auto finish = [&]() -> CompileResult {
        result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - started);
        return result;
    };
    auto failWith = [&](std::string message) {
        result.success = false;
        result.diagnostics.push_back({"", 0, 0, Severity::Error, "", std::move(message)});
        return finish();
    };
    if (request.sources.empty()) {
        return failWith("nothing to build: no source files");
    }

    boost::filesystem::path program = mcs_.is_absolute() ? boost::filesystem::path(mcs_.string())
                                                         : bp::search_path(mcs_.string());
    if (program.empty()) {
        return failWith("cannot find " + mcs_.string() + " on PATH (install mono-mcs)");
    }
    std::error_code ec;
    std::filesystem::create_directories(request.output.parent_path(), ec);

    try {
        boost::asio::io_context io;
        std::future<std::string> out;
        std::future<std::string> err;
        bp::child child(program, bp::args(arguments(request)), bp::std_in.close(),
                        bp::std_out > out, bp::std_err > err, io);
        io.run_for(request.timeout);
        if (!io.stopped()) {
            // Still reading: the compiler is past its deadline.
            std::error_code killError;
            child.terminate(killError);
            result.timedOut = true;
            io.restart();
            io.run();
        }
        child.wait();
        result.log = out.get() + err.get();
        if (result.timedOut) {
            return failWith("the build timed out after " + std::to_string(request.timeout.count()) +
                            " ms and was stopped");
        }
        result.diagnostics = parseMcsDiagnostics(result.log);
        result.success = child.exit_code() == 0;
        if (!result.success && result.errorCount() == 0) {
            result.diagnostics.push_back({"", 0, 0, Severity::Error, "",
                                          "mcs failed (exit code " + std::to_string(child.exit_code()) +
                                              "): " + result.log});
        }
    } catch (const std::exception& e) {
        return failWith(std::string("cannot run mcs: ") + e.what());
    }
    if (result.success) {
        std::filesystem::path mdb = request.output;
        mdb += ".mdb";
        if (std::filesystem::exists(mdb, ec)) {
            result.symbols = mdb;
        }
    }
    return finish();
}

} // namespace scripthost::compiler
