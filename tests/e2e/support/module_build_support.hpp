#pragma once
// Building a game module from C++ source with the project's own compiler, in a test.

#include "../../support/test_support.hpp"

#include <boost/process.hpp>
#include <doctest/doctest.h>
#include <filesystem>
#include <string>

namespace scripthost::testing {

/// Compiles `source` (written to `dir`/module.cpp) into the shared library `library` with the
/// project's compiler; g++ writes the library in place, as a linker does while the host watches.
inline void buildModule(const std::filesystem::path& dir, const std::filesystem::path& library,
                        const std::string& source) {
    const std::filesystem::path file = dir / (library.stem().string() + ".cpp");
    writeFile(file, source);
    namespace bp = boost::process;
    bp::ipstream out;
    bp::child compiler(std::string(SCRIPTHOST_CXX),
                       bp::args({"-std=c++23", "-shared", "-fPIC", "-O0",
                                 "-I" + std::string(SCRIPTHOST_SOURCE_DIR) + "/sdk/include",
                                 file.string(), "-o", library.string()}),
                       bp::std_in.close(), (bp::std_out & bp::std_err) > out);
    std::string text, line;
    while (std::getline(out, line))
        text += line + "\n";
    compiler.wait();
    REQUIRE_MESSAGE(compiler.exit_code() == 0, text);
}

} // namespace scripthost::testing
