// Internal calls of native scripts' proxies: UEngine.UNativeScript's field access, the
// entity's list of native scripts, and the bridge a module's method thunks call
// (NativeScripts::callBridge).
#include "domain/object_bridge.hpp"
#include "glue_access.hpp"
#include "host/engine/native_scripts.hpp"
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"
#include "runtime/runtime_state.hpp"

#include <fmt/format.h>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/object.h>

namespace scripthost::glue {

namespace {

using game::NativeFieldType;
using game::NativeValue;

NativeScripts& natives() {
    ScriptContext& c = context();
    if (c.natives == nullptr)
        throw ScriptError(ManagedError::InvalidOperation, "this host has no native scripts");
    if (!c.natives->crashed().empty())
        throw ScriptError(ManagedError::InvalidOperation,
                          "native scripts are switched off after a crash: " + c.natives->crashed());
    return *c.natives;
}

/// The live native object of a proxy's id and its class (one lookup); raises
/// MissingReference for a destroyed one.
NativeScripts::Live requireNative(NativeScripts& all, ObjectId slot) {
    const NativeScripts::Live live = all.live(slot);
    if (live.object == nullptr) {
        throw ScriptError(ManagedError::MissingReference,
                          "the native script " + slot.toString() +
                              " has been destroyed but a script is still using it");
    }
    return live;
}

/// Whether a managed string equals an ASCII name, without converting it.
bool sameName(MonoString* managed, const std::string& name) {
    if (managed == nullptr || static_cast<std::size_t>(mono_string_length(managed)) != name.size())
        return false;
    const mono_unichar2* chars = mono_string_chars(managed);
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (chars[i] != static_cast<unsigned char>(name[i]))
            return false;
    }
    return true;
}

struct FieldAccess {
    NativeScripts& natives;
    ObjectId slot;
    game::NativeScript& object;
    const game::NativeScriptClassInfo& cls;
    const game::NativeFieldInfo& field;
};

/// The field a proxy asks for: by index, checked by name (a proxy compiled against another
/// build of the class looks it up by name), and of the type the proxy expects.
FieldAccess requireField(std::uint64_t packed, std::int32_t index, MonoString* name,
                         NativeFieldType type) {
    NativeScripts& all = natives();
    const ObjectId slot = ObjectId::unpack(packed);
    const NativeScripts::Live live = requireNative(all, slot);
    game::NativeScript& object = *live.object;
    const game::NativeScriptClassInfo& cls = *live.cls;
    const game::NativeFieldInfo* field = nullptr;
    if (index >= 0 && static_cast<std::size_t>(index) < cls.fields.size() &&
        sameName(name, cls.fields[static_cast<std::size_t>(index)].name)) {
        field = &cls.fields[static_cast<std::size_t>(index)];
    } else {
        const std::string wanted = mono::toUtf8(name);
        for (const game::NativeFieldInfo& f : cls.fields) {
            if (f.name == wanted)
                field = &f;
        }
        if (field == nullptr) {
            throw ScriptError(ManagedError::InvalidOperation,
                              fmt::format("{} has no field {} in the game module's build that "
                                          "runs (the scripts are being rebuilt against it)",
                                          cls.name, wanted));
        }
    }
    if (field->type != type) {
        throw ScriptError(ManagedError::InvalidOperation,
                          fmt::format("{}.{} has another type in the game module's build that "
                                      "runs (the scripts are being rebuilt against it)",
                                      cls.name, field->name));
    }
    return {all, slot, object, cls, *field};
}

/// Raises the managed exception for a call into a native script that did not end well.
void raiseIfFailed(const NativeScripts::CallOutcome& outcome, const std::string& crashed) {
    if (outcome.crashed)
        throw ScriptError(ManagedError::InvalidOperation, crashed);
    if (!outcome.error.empty())
        throw ScriptError(ManagedError::InvalidOperation, outcome.error);
}

template <class T>
T readField(const char* call, std::uint64_t id, std::int32_t index, MonoString* name) {
    return guarded(call, [&]() -> T {
        FieldAccess a = requireField(id, index, name, game::nativeFieldTypeOf<T>());
        NativeValue value;
        raiseIfFailed(a.natives.call(
                          [&] {
                              return fmt::format("native script {} {} reading {}", a.cls.name,
                                                 a.slot.toString(), a.field.name);
                          },
                          [&] { value = a.field.get(a.object); }),
                      "the native script crashed");
        return std::get<T>(std::move(value));
    });
}

template <class T>
void writeField(const char* call, std::uint64_t id, std::int32_t index, MonoString* name, T value) {
    guarded(call, [&] {
        FieldAccess a = requireField(id, index, name, game::nativeFieldTypeOf<T>());
        const NativeValue v(std::in_place_type<T>, std::move(value));
        raiseIfFailed(a.natives.call(
                          [&] {
                              return fmt::format("native script {} {} writing {}", a.cls.name,
                                                 a.slot.toString(), a.field.name);
                          },
                          [&] { a.field.set(a.object, v); }),
                      "the native script crashed");
    });
}

MonoBoolean getBool(std::uint64_t id, std::int32_t f, MonoString* n) {
    return readField<bool>("UNativeScript field", id, f, n) ? 1 : 0;
}
void setBool(std::uint64_t id, std::int32_t f, MonoString* n, MonoBoolean v) {
    writeField<bool>("UNativeScript field", id, f, n, v != 0);
}
std::int32_t getInt(std::uint64_t id, std::int32_t f, MonoString* n) {
    return readField<std::int32_t>("UNativeScript field", id, f, n);
}
void setInt(std::uint64_t id, std::int32_t f, MonoString* n, std::int32_t v) {
    writeField<std::int32_t>("UNativeScript field", id, f, n, v);
}
std::int64_t getLong(std::uint64_t id, std::int32_t f, MonoString* n) {
    return readField<std::int64_t>("UNativeScript field", id, f, n);
}
void setLong(std::uint64_t id, std::int32_t f, MonoString* n, std::int64_t v) {
    writeField<std::int64_t>("UNativeScript field", id, f, n, v);
}
float getFloat(std::uint64_t id, std::int32_t f, MonoString* n) {
    return readField<float>("UNativeScript field", id, f, n);
}
void setFloat(std::uint64_t id, std::int32_t f, MonoString* n, float v) {
    writeField<float>("UNativeScript field", id, f, n, v);
}
double getDouble(std::uint64_t id, std::int32_t f, MonoString* n) {
    return readField<double>("UNativeScript field", id, f, n);
}
void setDouble(std::uint64_t id, std::int32_t f, MonoString* n, double v) {
    writeField<double>("UNativeScript field", id, f, n, v);
}
MonoString* getString(std::uint64_t id, std::int32_t f, MonoString* n) {
    return guarded("UNativeScript field", [&]() -> MonoString* {
        const std::string text = readField<std::string>("UNativeScript field", id, f, n);
        if (mono_domain_get() == nullptr)
            return nullptr;
        auto made = mono::newString(mono_domain_get(), text);
        if (!made)
            throw ScriptError(ManagedError::InvalidOperation, made.error().message);
        return *made;
    });
}
void setString(std::uint64_t id, std::int32_t f, MonoString* n, MonoString* v) {
    if (v == nullptr) {
        guarded("UNativeScript field",
                [] { throw ScriptError(ManagedError::ArgumentNull, "value"); });
        return;
    }
    writeField<std::string>("UNativeScript field", id, f, n, mono::toUtf8(v));
}
template <class T> void getStruct(std::uint64_t id, std::int32_t f, MonoString* n, T* out) {
    *out = readField<T>("UNativeScript field", id, f, n);
}
template <class T> void setStruct(std::uint64_t id, std::int32_t f, MonoString* n, T* in) {
    writeField<T>("UNativeScript field", id, f, n, *in);
}
std::uint64_t getEntity(std::uint64_t id, std::int32_t f, MonoString* n) {
    return readField<ObjectId>("UNativeScript field", id, f, n).packed();
}
void setEntity(std::uint64_t id, std::int32_t f, MonoString* n, std::uint64_t v) {
    const bool live = guarded("UNativeScript field", [&] {
        const ObjectId target = ObjectId::unpack(v);
        if (!target.isNull() && context().world->entity(target) == nullptr)
            throw ScriptError(ManagedError::MissingReference,
                              "the entity " + target.toString() + " has been destroyed");
        return true;
    });
    if (!live)
        return; // raised: the field keeps its value
    writeField<ObjectId>("UNativeScript field", id, f, n, ObjectId::unpack(v));
}

/// The native scripts of an entity whose class has a proxy in this generation, in the order
/// added. (Right after a module reload adds a class, the scripts are still being rebuilt with
/// its proxy: until then GetComponent does not see its scripts.)
std::vector<ObjectId> nativeScriptsOf(const Entity& entity) {
    const mono::ObjectBridge* bridge = mono::runtimeState().domains.bridgeOf(mono_domain_get());
    std::vector<ObjectId> found;
    for (ObjectId s : entity.scripts) {
        const ScriptSlot* slot = context().world->script(s);
        if (slot != nullptr && slot->native && bridge != nullptr &&
            bridge->classes().nativeScripts.contains(slot->className))
            found.push_back(s);
    }
    return found;
}

std::int32_t nativeScriptCount(std::uint64_t e) {
    return guarded("UEntity.GetComponent", [&]() -> std::int32_t {
        return static_cast<std::int32_t>(nativeScriptsOf(requireEntity(e)).size());
    });
}

std::uint64_t nativeScriptAt(std::uint64_t e, std::int32_t index) {
    return guarded("UEntity.GetComponent", [&]() -> std::uint64_t {
        const auto found = nativeScriptsOf(requireEntity(e));
        if (index < 0 || static_cast<std::size_t>(index) >= found.size())
            throw ScriptError(ManagedError::Argument, "index");
        return found[static_cast<std::size_t>(index)].packed();
    });
}

/// The method `method` of `current` with the same signature as in `caller`, or nullptr.
const game::NativeMethodInfo* sameMethod(const game::NativeScriptClassInfo& current,
                                         const game::NativeScriptClassInfo* caller,
                                         const char* method) {
    const game::NativeMethodInfo* called = nullptr;
    if (caller != nullptr) {
        for (const game::NativeMethodInfo& m : caller->methods) {
            if (m.name == method)
                called = &m;
        }
    }
    for (const game::NativeMethodInfo& m : current.methods) {
        if (m.name == method && called != nullptr && m.parameters == called->parameters &&
            m.result == called->result)
            return &m;
    }
    return nullptr;
}

bool invokeNative(std::uint64_t self, const void* tag, const char* method,
                  game::NativeMethodBody body, void* frame) {
    bool ok = false;
    guarded("native script method", [&] {
        NativeScripts& all = natives();
        const ObjectId slot = ObjectId::unpack(self);
        const NativeScripts::Live live = requireNative(all, slot);
        game::NativeScript& object = *live.object;
        const game::NativeScriptClassInfo& cls = *live.cls;
        if (cls.tag != tag) {
            // The scripts run code bound to another build of the module: call the running
            // build's method of that name, when its signature is the same.
            const game::NativeMethodInfo* m = sameMethod(cls, all.classByTag(tag), method);
            if (m == nullptr) {
                throw ScriptError(ManagedError::InvalidOperation,
                                  fmt::format("{}.{} is not in the game module's build that "
                                              "runs, with this signature (the scripts are being "
                                              "rebuilt against it)",
                                              cls.name, method));
            }
            body = m->body;
        }
        const NativeScripts::CallOutcome ran = all.call(
            [&] {
                return fmt::format("native script {} {} {}", cls.name, slot.toString(), method);
            },
            [&] { body(object, frame); });
        if (ran.crashed)
            throw ScriptError(ManagedError::InvalidOperation,
                              fmt::format("{}.{} crashed: {}", cls.name, method, all.crashed()));
        if (!ran.error.empty())
            throw ScriptError(ManagedError::InvalidOperation,
                              fmt::format("{}.{} threw: {}", cls.name, method, ran.error));
        ok = true;
    });
    return ok;
}

} // namespace

void registerNativeScriptCalls(MonoRuntime& runtime) {
    // Raw (no GC-safe transition, half the cost): the host's own code and a member read or
    // write through the class's accessor, bounded and lock-free. A native *method* is the
    // module's arbitrary code, so its internal call (the module's thunk) is a regular one.
    const std::string c = "UEngine.UNativeScript::";
    auto reg = [&](const char* name, const void* fn) {
        runtime.registerRawInternalCall(c + name, fn);
    };
    reg("Internal_GetBool", reinterpret_cast<const void*>(&getBool));
    reg("Internal_SetBool", reinterpret_cast<const void*>(&setBool));
    reg("Internal_GetInt", reinterpret_cast<const void*>(&getInt));
    reg("Internal_SetInt", reinterpret_cast<const void*>(&setInt));
    reg("Internal_GetLong", reinterpret_cast<const void*>(&getLong));
    reg("Internal_SetLong", reinterpret_cast<const void*>(&setLong));
    reg("Internal_GetFloat", reinterpret_cast<const void*>(&getFloat));
    reg("Internal_SetFloat", reinterpret_cast<const void*>(&setFloat));
    reg("Internal_GetDouble", reinterpret_cast<const void*>(&getDouble));
    reg("Internal_SetDouble", reinterpret_cast<const void*>(&setDouble));
    reg("Internal_GetString", reinterpret_cast<const void*>(&getString));
    reg("Internal_SetString", reinterpret_cast<const void*>(&setString));
    reg("Internal_GetVector2", reinterpret_cast<const void*>(&getStruct<glm::vec2>));
    reg("Internal_SetVector2", reinterpret_cast<const void*>(&setStruct<glm::vec2>));
    reg("Internal_GetVector3", reinterpret_cast<const void*>(&getStruct<glm::vec3>));
    reg("Internal_SetVector3", reinterpret_cast<const void*>(&setStruct<glm::vec3>));
    reg("Internal_GetVector4", reinterpret_cast<const void*>(&getStruct<glm::vec4>));
    reg("Internal_SetVector4", reinterpret_cast<const void*>(&setStruct<glm::vec4>));
    reg("Internal_GetQuaternion", reinterpret_cast<const void*>(&getStruct<glm::quat>));
    reg("Internal_SetQuaternion", reinterpret_cast<const void*>(&setStruct<glm::quat>));
    reg("Internal_GetEntity", reinterpret_cast<const void*>(&getEntity));
    reg("Internal_SetEntity", reinterpret_cast<const void*>(&setEntity));
    runtime.registerInternalCall("UEngine.UEntity::Internal_GetNativeScriptCount",
                                 reinterpret_cast<const void*>(&nativeScriptCount));
    runtime.registerInternalCall("UEngine.UEntity::Internal_GetNativeScriptAt",
                                 reinterpret_cast<const void*>(&nativeScriptAt));
}

} // namespace scripthost::glue

namespace scripthost {

game::NativeCallBridge NativeScripts::callBridge() noexcept {
    return game::NativeCallBridge{&glue::invokeNative};
}

} // namespace scripthost
