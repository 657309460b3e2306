// Internal calls of UEngine.SceneManagement.SceneManager and UObject.DontDestroyOnLoad.
#include "glue_access.hpp"
#include "host/engine/script_engine.hpp"
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"

#include <mono/metadata/appdomain.h>

namespace scripthost::glue {

namespace {

ScriptEngine& engine(const char* what) {
    ScriptEngine* e = context().engine;
    if (e == nullptr)
        throw ScriptError(ManagedError::InvalidOperation,
                          std::string(what) + " needs the host's game loop");
    return *e;
}

void loadScene(MonoString* name) {
    guarded("SceneManager.LoadScene", [&] {
        if (name == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "sceneName");
        if (auto requested = engine("LoadScene").requestSceneLoad(mono::toUtf8(name)); !requested)
            throw ScriptError(ManagedError::Argument, requested.error().message);
    });
}

MonoString* activeScenePath() {
    return guarded("SceneManager.GetActiveScene", [&]() -> MonoString* {
        auto s =
            mono::newString(mono_domain_get(), engine("GetActiveScene").activeScenePath().string());
        if (!s)
            throw ScriptError(ManagedError::InvalidOperation, s.error().message);
        return *s;
    });
}

void dontDestroyOnLoad(std::uint64_t packed) {
    guarded("UObject.DontDestroyOnLoad", [&] {
        const ObjectId id = ObjectId::unpack(packed);
        if (!context().world->isAlive(id))
            throw ScriptError(ManagedError::MissingReference,
                              "the object " + id.toString() + " has been destroyed");
        engine("DontDestroyOnLoad").keepOnSceneLoad(id);
    });
}

} // namespace

void registerSceneCalls(MonoRuntime& runtime) {
    const std::string c = "UEngine.SceneManagement.SceneManager::";
    runtime.registerInternalCall(c + "Internal_LoadScene",
                                 reinterpret_cast<const void*>(&loadScene));
    runtime.registerInternalCall(c + "Internal_GetActiveScenePath",
                                 reinterpret_cast<const void*>(&activeScenePath));
    runtime.registerInternalCall("UEngine.UObject::Internal_DontDestroyOnLoad",
                                 reinterpret_cast<const void*>(&dontDestroyOnLoad));
}

} // namespace scripthost::glue
