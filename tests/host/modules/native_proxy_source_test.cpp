// The C# proxies of native script classes: which names can be proxies, and what is written.
// (That the text compiles and works is tests/e2e/daemon/native_script_cli_test.cpp's.)
#include "host/modules/native_proxy_source.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

namespace {

struct Probe : game::NativeScript {
    float speed = 1;
    glm::vec3 axis{0, 1, 0};
    ObjectId buddy;
    float scaled(float x) { return x * speed; }
    void reset() { speed = 1; }
};

game::NativeScriptClassInfo probeClass(std::string name, std::string field = "speed") {
    game::NativeScriptClass<Probe> c(std::move(name), "a probe <test>");
    c.field(std::move(field), &Probe::speed)
        .field("axis", &Probe::axis)
        .field("buddy", &Probe::buddy)
        .method<&Probe::scaled>("Scaled")
        .method<&Probe::reset>("Reset");
    return std::move(c).build();
}

} // namespace

TEST_CASE("native proxy source: class and member names must be C# names the proxy can use") {
    CHECK(checkNativeClassName("Demo.NativeSpinner"));
    CHECK(checkNativeClassName("Spinner"));
    CHECK_FALSE(checkNativeClassName(""));
    CHECK_FALSE(checkNativeClassName("Demo..Spinner"));
    CHECK_FALSE(checkNativeClassName("Demo.Outer+Inner"));
    CHECK_FALSE(checkNativeClassName("Demo.class"));
    CHECK_FALSE(checkNativeClassName("3d.Spinner"));
    CHECK(checkNativeClassMembers(probeClass("Demo.Probe")));
    CHECK_FALSE(checkNativeClassMembers(probeClass("Demo.Probe", "transform"))); // UComponent's
    CHECK_FALSE(checkNativeClassMembers(probeClass("Demo.Probe", "Scaled")));    // twice
    CHECK_FALSE(checkNativeClassMembers(probeClass("Demo.Probe", "int")));       // keyword
    CHECK_FALSE(checkNativeClassMembers(probeClass("Demo.Probe", "Probe")));     // class's own
    CHECK_FALSE(checkNativeClassMembers(probeClass("Demo.Probe", "my speed")));
    CHECK_FALSE(checkNativeClassMembers(probeClass("Demo.Probe", "Internal_X")));
}

TEST_CASE("native proxy source: a sealed class of the same full name with a property per field "
          "and a method per native method over internal calls") {
    const auto info = probeClass("Demo.Probe");
    const std::string text = nativeProxySource({&info}, "the game module test");
    CHECK(text.find("the game module test") != std::string::npos);
    CHECK(text.find("namespace Demo\n{") != std::string::npos);
    CHECK(text.find("public sealed class Probe : global::UEngine.UNativeScript") !=
          std::string::npos);
    CHECK(text.find("a probe &lt;test&gt;") != std::string::npos); // doc comment escaped
    // Fields by index and name, each with the accessor of its type.
    CHECK(text.find("public float speed") != std::string::npos);
    CHECK(text.find("Internal_GetFloat(nativeId, 0, \"speed\")") != std::string::npos);
    CHECK(text.find("public global::UEngine.Vector3 axis") != std::string::npos);
    CHECK(text.find("Internal_GetVector3(nativeId, 1, \"axis\", out v)") != std::string::npos);
    CHECK(text.find("EntityOf(Internal_GetEntity(nativeId, 2, \"buddy\"))") != std::string::npos);
    // Methods: the call and the extern it binds to ("Demo.Probe::Internal_Scaled").
    CHECK(text.find("public float Scaled(float a0)") != std::string::npos);
    CHECK(text.find("return Internal_Scaled(nativeId, a0);") != std::string::npos);
    CHECK(text.find("static extern float Internal_Scaled(ulong self, float a0);") !=
          std::string::npos);
    CHECK(text.find("public void Reset()") != std::string::npos);

    // A class implementing a C# base derives from it and overrides.
    auto implementing = probeClass("Shapes.Square");
    implementing.baseClass = "Shapes.Shape";
    const std::string derived = nativeProxySource({&implementing}, "m");
    CHECK(derived.find("public sealed class Square : global::Shapes.Shape") != std::string::npos);
    CHECK(derived.find("public override float Scaled(float a0)") != std::string::npos);
    // No namespace: a top-level class.
    const auto topLevel = probeClass("Loose");
    CHECK(nativeProxySource({&topLevel}, "m").find("\npublic sealed class Loose") !=
          std::string::npos);
}
