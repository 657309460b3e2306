// describeException and thrownText: a managed exception as the text a failure report carries.
// Corlib's exceptions, the real runtime.
#include "../support/mono_test_support.hpp"
#include "runtime/managed_exception.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/exception.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

MonoObject* corlibException(const char* name, const char* message) {
    MonoException* e = mono_exception_from_name_msg(mono_get_corlib(), "System", name, message);
    REQUIRE(e != nullptr);
    return reinterpret_cast<MonoObject*>(e);
}

} // namespace

TEST_CASE("managed exception: its type, message and ToString()") {
    (void)startBareRuntime();
    const auto described =
        mono::describeException(corlibException("InvalidOperationException", "not now"));
    CHECK(described.type == "System.InvalidOperationException");
    CHECK(described.message == "not now");
    CHECK(described.text.rfind("System.InvalidOperationException: not now", 0) == 0);
    CHECK(mono::thrownText(corlibException("ArgumentException", "bad")).rfind(
              "System.ArgumentException: bad", 0) == 0);
    CHECK(mono::describeException(nullptr).type == "<null>");
}

TEST_CASE("managed exception: the watchdog's abort is reported as a script past its budget") {
    (void)startBareRuntime();
    MonoException* abort =
        mono_exception_from_name(mono_get_corlib(), "System.Threading", "ThreadAbortException");
    REQUIRE(abort != nullptr);
    const std::string text = mono::thrownText(reinterpret_cast<MonoObject*>(abort));
    CHECK(text.rfind("stopped by the watchdog: it ran past its time budget; where it was: ", 0) ==
          0);
    CHECK(text.find("System.Threading.ThreadAbortException") != std::string::npos);
}
