#include "support/control_test_support.hpp"

#include <control/control_path.hpp>
#include <cstdlib>
#include <optional>
#include <unistd.h>

using namespace scripthost::control;
using namespace scripthost::control::test;
using scripthost::testing::ScopedEnv;

namespace {

const std::filesystem::path kTmpFallback =
    std::filesystem::path("/tmp") / ("scripthost-" + std::to_string(::geteuid())) / "control.sock";

} // namespace

TEST_CASE("defaultControlPath: under XDG_RUNTIME_DIR when it exists") {
    TempDir runtime("control-xdg");
    ScopedEnv env("XDG_RUNTIME_DIR", runtime.path().c_str());
    CHECK(defaultControlPath() == runtime.path() / "scripthost" / "control.sock");
}

TEST_CASE("defaultControlPath: /tmp/scripthost-uid when XDG_RUNTIME_DIR is missing or unset") {
    {
        ScopedEnv env("XDG_RUNTIME_DIR", "/nonexistent/runtime/dir");
        CHECK(defaultControlPath() == kTmpFallback);
    }
    {
        ScopedEnv env("XDG_RUNTIME_DIR", nullptr);
        CHECK(defaultControlPath() == kTmpFallback);
    }
}
