// mono_text: UTF-8 in and out of managed strings, and string properties read through their
// getters. The real runtime; corlib's own types, nothing compiled.
#include "../support/mono_test_support.hpp"
#include "runtime/mono_text.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/exception.h>

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("mono text: UTF-8 round-trips through a managed string, and invalid UTF-8 is an error") {
    (void)startBareRuntime();
    MonoDomain* domain = mono_domain_get();
    const std::string text = "Grüße, 世界 🎮";
    auto managed = mono::newString(domain, text);
    REQUIRE(managed);
    CHECK(mono_string_length(*managed) == 12); // UTF-16 units: the emoji takes two
    CHECK(mono::toUtf8(*managed) == text);
    CHECK(mono::toUtf8(nullptr).empty());
    auto empty = mono::newString(domain, "");
    REQUIRE(empty);
    CHECK(mono::toUtf8(*empty).empty());

    const auto bad = mono::newString(domain, std::string("ok \xff\xfe bytes"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("UTF-8") != std::string::npos);
}

TEST_CASE("mono text: a string property is read through its getter, and a missing one is empty") {
    (void)startBareRuntime();
    MonoException* exception = mono_exception_from_name_msg(
        mono_get_corlib(), "System", "InvalidOperationException", "the message");
    REQUIRE(exception != nullptr);
    auto* object = reinterpret_cast<MonoObject*>(exception);
    CHECK(mono::stringProperty(object, "Message") == "the message");
    CHECK(mono::stringProperty(object, "NoSuchProperty").empty());
    CHECK(mono::stringProperty(object, "HResult").empty()); // not a string
}

TEST_CASE("mono text: a class's full name has its namespace, and a nested class its outer class") {
    (void)startBareRuntime();
    MonoClass* environment = mono_class_from_name(mono_get_corlib(), "System", "Environment");
    REQUIRE(environment != nullptr);
    CHECK(mono::fullClassName(environment) == "System.Environment");
    MonoClass* nested = nullptr;
    void* iter = nullptr;
    while (MonoClass* inner = mono_class_get_nested_types(environment, &iter)) {
        if (std::string_view(mono_class_get_name(inner)) == "SpecialFolder")
            nested = inner;
    }
    REQUIRE(nested != nullptr);
    CHECK(mono::fullClassName(nested) == "System.Environment+SpecialFolder");
    // <Module>, the class of an assembly's global members, has no namespace.
    MonoClass* module = mono_class_get(mono_get_corlib(), 0x02000001);
    REQUIRE(module != nullptr);
    CHECK(mono::fullClassName(module) == "<Module>");
}
