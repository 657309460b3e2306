#pragma once
// ScriptCoreClasses: the ScriptCore classes one generation works with.

#include "domain/object_bridge.hpp"
#include "field_types.hpp"
#include "scripthost/game/error.hpp"

#include <mono/metadata/class.h>
#include <mono/metadata/image.h>

namespace scripthost::mono {

/// ScriptCore's classes and attributes, looked up by name in one generation's ScriptCore
/// image: each generation has its own copies, and an attribute only matches its own
/// generation's class. A missing one means a ScriptCore.dll of another version.
/// Plain pointers into the domain: reset (= {}) before it unloads.
struct ScriptCoreClasses {
    MonoClass* dispatcher = nullptr; ///< UEngine.Internal.ScriptRuntime
    MonoClass* scriptBase = nullptr; ///< UEngine.UMonoScriptComponent
    MonoClass* serializeFieldAttribute = nullptr;
    MonoClass* formerlySerializedAsAttribute = nullptr;
    MonoClass* hideInInspectorAttribute = nullptr;
    MonoClass* nativeComponentAttribute = nullptr;
    MonoClass* preserveStaticAttribute = nullptr;
    TypeClasses types;         ///< what decides a field's type
    ProxyClasses proxyClasses; ///< moved into the ObjectBridge once the scripts are loaded

    /// Finds every class in `core` (ScriptCore's image), and its [NativeComponent] classes.
    [[nodiscard]] static Result<ScriptCoreClasses> bind(MonoImage* core);

    /// Adds the classes of `image` marked [NativeComponent("Kind")] as the proxy classes of
    /// their kinds (ScriptCore's own, and those a game module's scripts add), and the
    /// concrete subclasses of UNativeScript as the proxies of the native script classes of
    /// their full names.
    void collectComponentKinds(MonoImage* image);
};

} // namespace scripthost::mono
