#include "support/control_test_support.hpp"

#include <control/control_path.hpp>
#include <cstdlib>
#include <optional>
#include <unistd.h>

using namespace scripthost::control;
using namespace scripthost::control::test;

namespace {

/// Sets (or unsets) an environment variable for one test and restores it afterwards.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name))
            old_ = old;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

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
