#include "script_core_classes.hpp"

#include "runtime/mono_text.hpp"

#include <array>
#include <fmt/format.h>
#include <memory>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/reflection.h>
#include <mono/metadata/tokentype.h>

namespace scripthost::mono {

namespace {

struct WantedClass {
    const char* ns;
    const char* name;
    MonoClass* found = nullptr;
};

enum Wanted : std::size_t {
    Dispatcher,
    ScriptBase,
    SerializeField,
    FormerlySerializedAs,
    Vector2,
    Vector3,
    Vector4,
    Quaternion,
    UObject,
    UEntity,
    UComponent,
    NativeComponent,
    NativeScript,
    UTransform,
    WantedCount,
};

// Looks up every wanted class; the first one missing is the error.
Result<void> findAll(MonoImage* core, std::array<WantedClass, WantedCount>& wanted) {
    for (WantedClass& w : wanted) {
        w.found = mono_class_from_name(core, w.ns, w.name);
        if (w.found == nullptr) {
            return fail(fmt::format("ScriptCore has no class {}.{} (is ScriptCore.dll from "
                                    "another version?)",
                                    w.ns, w.name));
        }
    }
    return {};
}

} // namespace

Result<ScriptCoreClasses> ScriptCoreClasses::bind(MonoImage* core) {
    std::array<WantedClass, WantedCount> w{{{"UEngine.Internal", "ScriptRuntime"},
                                            {"UEngine", "UMonoScriptComponent"},
                                            {"UEngine", "SerializeFieldAttribute"},
                                            {"UEngine", "FormerlySerializedAsAttribute"},
                                            {"UEngine", "Vector2"},
                                            {"UEngine", "Vector3"},
                                            {"UEngine", "Vector4"},
                                            {"UEngine", "Quaternion"},
                                            {"UEngine", "UObject"},
                                            {"UEngine", "UEntity"},
                                            {"UEngine", "UComponent"},
                                            {"UEngine", "NativeComponentAttribute"},
                                            {"UEngine", "UNativeScript"},
                                            {"UEngine", "UTransform"}}};
    if (auto found = findAll(core, w); !found)
        return std::unexpected(found.error());
    ScriptCoreClasses c;
    c.dispatcher = w[Dispatcher].found;
    c.scriptBase = w[ScriptBase].found;
    c.serializeFieldAttribute = w[SerializeField].found;
    c.formerlySerializedAsAttribute = w[FormerlySerializedAs].found;
    c.nativeComponentAttribute = w[NativeComponent].found;
    c.types = {w[Vector2].found,    w[Vector3].found,        w[Vector4].found,
               w[Quaternion].found, w[UEntity].found,        w[UComponent].found,
               w[ScriptBase].found, w[SerializeField].found, w[FormerlySerializedAs].found};
    c.types.transform = w[UTransform].found;
    c.proxyClasses.uobject = w[UObject].found;
    c.proxyClasses.entity = w[UEntity].found;
    c.proxyClasses.component = w[UComponent].found;
    c.proxyClasses.nativeScript = w[NativeScript].found;
    c.proxyClasses.transform = w[UTransform].found;
    c.proxyClasses.entityTransform =
        mono_class_get_field_from_name(w[UEntity].found, "m_Transform");
    c.proxyClasses.transformEntity =
        mono_class_get_field_from_name(w[UTransform].found, "m_EntityId");
    c.proxyClasses.transformOwner = mono_class_get_field_from_name(w[UTransform].found, "m_Entity");
    if (c.proxyClasses.entityTransform == nullptr || c.proxyClasses.transformEntity == nullptr ||
        c.proxyClasses.transformOwner == nullptr)
        return fail("ScriptCore's UEntity/UTransform lack their transform fields");
    c.proxyClasses.nativeId = mono_class_get_field_from_name(w[UObject].found, "m_NativeId");
    c.proxyClasses.entityId = mono_class_get_field_from_name(w[UComponent].found, "m_EntityId");
    c.proxyClasses.destroyed = mono_class_get_field_from_name(w[UObject].found, "m_Destroyed");
    if (c.proxyClasses.nativeId == nullptr || c.proxyClasses.entityId == nullptr ||
        c.proxyClasses.destroyed == nullptr) {
        return fail("ScriptCore's UObject/UComponent lack their id fields");
    }
    c.collectComponentKinds(core);
    c.preserveStaticAttribute = mono_class_from_name(core, "UEngine", "PreserveStaticAttribute");
    c.hideInInspectorAttribute = mono_class_from_name(core, "UEngine", "HideInInspectorAttribute");
    if (c.preserveStaticAttribute == nullptr || c.hideInInspectorAttribute == nullptr) {
        return fail(
            "ScriptCore has no UEngine.PreserveStaticAttribute or HideInInspectorAttribute");
    }
    return c;
}

void ScriptCoreClasses::collectComponentKinds(MonoImage* image) {
    const int rows = mono_image_get_table_rows(image, MONO_TABLE_TYPEDEF);
    for (int row = 2; row <= rows; ++row) {
        MonoClass* klass = mono_class_get(image, MONO_TOKEN_TYPE_DEF | row);
        if (klass == nullptr || !mono_class_is_subclass_of(klass, types.component, false)) {
            continue;
        }
        // A native script's proxy (generated by the host): bound to the class of its name.
        if (klass != proxyClasses.nativeScript &&
            mono_class_is_subclass_of(klass, proxyClasses.nativeScript, false)) {
            if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_ABSTRACT) == 0) {
                proxyClasses.nativeScripts[fullClassName(klass)] = klass;
            }
            continue;
        }
        std::unique_ptr<MonoCustomAttrInfo, decltype(&mono_custom_attrs_free)> attrs(
            mono_custom_attrs_from_class(klass), &mono_custom_attrs_free);
        if (!attrs || !mono_custom_attrs_has_attr(attrs.get(), nativeComponentAttribute)) {
            continue;
        }
        if (MonoObject* attribute =
                mono_custom_attrs_get_attr(attrs.get(), nativeComponentAttribute)) {
            const std::string kind = stringProperty(attribute, "Kind");
            if (!kind.empty()) {
                proxyClasses.componentKinds[kind] = klass;
            }
        }
    }
}

} // namespace scripthost::mono
