#pragma once
// Tests of the runtime's own units that run a little C# in a GenerationDomain of their own (no
// ScriptHost): compile it with the real mcs, load it into a fresh generation, call its static
// methods.
#include "mono_test_support.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/managed_exception.hpp"

#include <cstdint>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::testing {

/// A generation's domain with one assembly of the test's loaded into it.
struct GenerationCode {
    mono::GenerationDomain domain;
    MonoImage* image = nullptr;
};

/// Creates generation `generation` (it becomes the current domain) and loads `code` into it.
inline GenerationCode loadGeneration(std::uint32_t generation, const AssemblyFile& code) {
    auto domain = mono::GenerationDomain::create(generation);
    REQUIRE_MESSAGE(domain, (domain ? "" : domain.error().message));
    auto image = domain->load(code, /*isScriptCore=*/false);
    REQUIRE_MESSAGE(image, (image ? "" : image.error().message));
    return {std::move(*domain), *image};
}

/// Calls the parameterless static method `klass.method` (no namespace) in the current domain
/// and fails the test if it throws; returns what it returned (boxed), or nullptr for void.
inline MonoObject* callStatic(MonoImage* image, const char* klass, const char* method) {
    MonoClass* c = mono_class_from_name(image, "", klass);
    REQUIRE_MESSAGE(c != nullptr, klass);
    MonoMethod* m = mono_class_get_method_from_name(c, method, 0);
    REQUIRE_MESSAGE(m != nullptr, method);
    MonoObject* exception = nullptr;
    MonoObject* result = mono_runtime_invoke(m, nullptr, nullptr, &exception);
    REQUIRE_MESSAGE(exception == nullptr,
                    (exception ? mono::describeException(exception).text : std::string()));
    return result;
}

/// callStatic for a method returning an int.
inline int callStaticInt(MonoImage* image, const char* klass, const char* method) {
    MonoObject* boxed = callStatic(image, klass, method);
    REQUIRE(boxed != nullptr);
    return *static_cast<int*>(mono_object_unbox(boxed));
}

} // namespace scripthost::testing
