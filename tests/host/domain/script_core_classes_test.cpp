// ScriptCoreClasses: the ScriptCore classes a generation works with, found by name in the real
// ScriptCore.dll (its [NativeComponent] proxies too), a game's own [NativeComponent] classes and
// native script proxies collected from another image, and an image that is no ScriptCore
// refused with the class it lacks.
#include "../support/mono_test_support.hpp"
#include "script_core_classes.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/assembly.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

MonoImage* openImage(const std::string& path) {
    MonoAssembly* assembly = mono_domain_assembly_open(mono_get_root_domain(), path.c_str());
    REQUIRE_MESSAGE(assembly != nullptr, path);
    return mono_assembly_get_image(assembly);
}

std::string nameOf(MonoClass* klass) {
    REQUIRE(klass != nullptr);
    return std::string(mono_class_get_namespace(klass)) + "." + mono_class_get_name(klass);
}

} // namespace

TEST_CASE("ScriptCoreClasses: every class and attribute is found in ScriptCore, with its "
          "component kinds") {
    (void)startBareRuntime();
    auto classes = mono::ScriptCoreClasses::bind(openImage(SCRIPTHOST_SCRIPTCORE_DLL));
    REQUIRE_MESSAGE(classes, (classes ? "" : classes.error().message));
    CHECK(nameOf(classes->dispatcher) == "UEngine.Internal.ScriptRuntime");
    CHECK(nameOf(classes->scriptBase) == "UEngine.UMonoScriptComponent");
    CHECK(nameOf(classes->serializeFieldAttribute) == "UEngine.SerializeFieldAttribute");
    CHECK(nameOf(classes->preserveStaticAttribute) == "UEngine.PreserveStaticAttribute");
    CHECK(nameOf(classes->types.vector3) == "UEngine.Vector3");
    CHECK(nameOf(classes->types.quaternion) == "UEngine.Quaternion");
    CHECK(nameOf(classes->proxyClasses.entity) == "UEngine.UEntity");
    CHECK(classes->proxyClasses.nativeId != nullptr);
    CHECK(classes->proxyClasses.entityId != nullptr);
    const auto& kinds = classes->proxyClasses.componentKinds;
    REQUIRE(kinds.contains("Camera"));
    CHECK(nameOf(kinds.at("Camera")) == "UEngine.UCameraComponent");
    REQUIRE(kinds.contains("Render"));
    CHECK(nameOf(kinds.at("Render")) == "UEngine.URenderComponent");
}

TEST_CASE("ScriptCoreClasses: an image that is no ScriptCore is refused with the class it lacks") {
    (void)startBareRuntime();
    auto refused = mono::ScriptCoreClasses::bind(openImage(SCRIPTHOST_TEST_SCRIPTS_DLL));
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message ==
          "ScriptCore has no class UEngine.Internal.ScriptRuntime (is ScriptCore.dll from another "
          "version?)");
}

TEST_CASE("ScriptCoreClasses: a game's [NativeComponent] classes and native script proxies are "
          "collected from its own image") {
    (void)startBareRuntime();
    TempDir dir("core-classes");
    const AssemblyFile game = compileScripts(dir, "Game.dll", {{"Lamp.cs", R"(using UEngine;
namespace Demo {
  [NativeComponent("Lamp")] public class ULampComponent : UComponent { }
  public class Spinner : UNativeScript { }
  public class NotAComponent { }
}
)"}});
    auto classes = mono::ScriptCoreClasses::bind(openImage(SCRIPTHOST_SCRIPTCORE_DLL));
    REQUIRE(classes);
    CHECK_FALSE(classes->proxyClasses.componentKinds.contains("Lamp"));
    classes->collectComponentKinds(openImage((dir / "Game.dll").string()));
    const auto& kinds = classes->proxyClasses.componentKinds;
    REQUIRE(kinds.contains("Lamp"));
    CHECK(nameOf(kinds.at("Lamp")) == "Demo.ULampComponent");
    CHECK(kinds.contains("Camera")); // ScriptCore's are still there
    const auto& natives = classes->proxyClasses.nativeScripts;
    REQUIRE(natives.contains("Demo.Spinner"));
    CHECK(nameOf(natives.at("Demo.Spinner")) == "Demo.Spinner");
    CHECK(natives.size() == 1);
}
