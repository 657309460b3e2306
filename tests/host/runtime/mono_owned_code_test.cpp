// isMonoOwnedCode: whether a crash address is Mono's (its library, or code its JIT made) or
// the host's and a game module's — what NativeFaultGuard decides a signal on.
#include "../support/mono_test_support.hpp"
#include "mono_owned_code.hpp"

#include <mono/jit/jit.h>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/class.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {
int hostFunction(int x) { return x + 1; }
} // namespace

TEST_CASE("Mono-owned code: Mono's library and JIT-compiled methods are Mono's, host code is not") {
    (void)startBareRuntime(); // the runtime's start remembers the library
    CHECK(mono::isMonoOwnedCode(reinterpret_cast<void*>(&mono_domain_get)));
    MonoClass* string = mono_get_string_class();
    MonoMethod* method = mono_class_get_method_from_name(string, "IsNullOrEmpty", 1);
    REQUIRE(method != nullptr);
    void* jitted = mono_compile_method(method);
    REQUIRE(jitted != nullptr);
    CHECK(mono::isMonoOwnedCode(jitted));
    CHECK_FALSE(mono::isMonoOwnedCode(reinterpret_cast<void*>(&hostFunction)));
    CHECK_FALSE(mono::isMonoOwnedCode(reinterpret_cast<void*>(&mono::isMonoOwnedCode)));
    CHECK_FALSE(mono::isMonoOwnedCode(nullptr));
    CHECK(hostFunction(1) == 2);
}
