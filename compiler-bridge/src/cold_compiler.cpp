#include "compiler_bridge/cold_compiler.hpp"

#include "result_support.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>
#include <csignal>
#include <future>

namespace scripthost::compiler {

namespace bp = boost::process;

ColdCompiler::ColdCompiler(std::filesystem::path mcs) : mcs_(std::move(mcs)) {}

std::vector<std::string> ColdCompiler::arguments(const CompileRequest& request) {
    std::vector<std::string> args{"-nologo", "-target:library", "-langversion:7.2",
                                  "-out:" + request.output.string()};
    if (request.debugSymbols) {
        args.emplace_back("-debug");
    }
    if (request.allowUnsafeCode) {
        args.emplace_back("-unsafe");
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

CompileResult ColdCompiler::compile(const CompileRequest& request) {
    const auto started = std::chrono::steady_clock::now();
    auto finish = [&](CompileResult result) {
        result.duration = detail::elapsedSince(started);
        return result;
    };
    if (request.sources.empty()) {
        return finish(detail::nothingToBuildResult(request, Backend::Cold));
    }
    if (std::string problem = detail::prepareOutputFolder(request); !problem.empty()) {
        return finish(detail::failedResult(request, Backend::Cold, std::move(problem)));
    }
    boost::filesystem::path program = mcs_.is_absolute() ? boost::filesystem::path(mcs_.string())
                                                         : bp::search_path(mcs_.string());
    if (program.empty()) {
        return finish(
            detail::failedResult(request, Backend::Cold,
                                 "cannot find " + mcs_.string() + " on PATH (install mono-mcs)"));
    }

    CompileResult result;
    result.output = request.output;
    result.backend = Backend::Cold;
    try {
        boost::asio::io_context io;
        std::future<std::string> out;
        std::future<std::string> err;
        bp::child child(program, bp::args(arguments(request)), bp::std_in.close(),
                        bp::std_out > out, bp::std_err > err, io);
        io.run_for(request.timeout);
        if (!io.stopped()) {
            // Still reading: the compiler is past its deadline. Not child.terminate(): in
            // Boost 1.74 it reaps with WNOHANG right after SIGKILL and so leaves a zombie.
            ::kill(child.id(), SIGKILL);
            result.timedOut = true;
            io.restart();
            io.run();
        }
        std::error_code waitError;
        child.wait(waitError);
        result.log = out.get() + err.get();
        if (result.timedOut) {
            CompileResult timedOut = detail::failedResult(
                request, Backend::Cold,
                "the build timed out after " + std::to_string(request.timeout.count()) +
                    " ms and was stopped");
            timedOut.timedOut = true;
            timedOut.log = std::move(result.log);
            return finish(std::move(timedOut));
        }
        result.diagnostics = parseMcsDiagnostics(result.log);
        result.success = child.exit_code() == 0;
        if (!result.success && result.errorCount() == 0) {
            result.diagnostics.push_back({"", 0, 0, Severity::Error, "",
                                          "mcs failed (exit code " +
                                              std::to_string(child.exit_code()) +
                                              "): " + result.log.substr(0, 2000)});
        }
    } catch (const std::exception& e) {
        return finish(detail::failedResult(request, Backend::Cold,
                                           std::string("cannot run mcs: ") + e.what()));
    }
    detail::checkOutputs(result);
    return finish(std::move(result));
}

} // namespace scripthost::compiler
