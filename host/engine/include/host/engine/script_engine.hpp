#pragma once
// ScriptEngine: what the engine API's internal calls need from the host that runs them.

#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"
#include "scripthost/game/transform.hpp"

#include <filesystem>
#include <optional>
#include <string_view>

namespace scripthost {

/// The few things scripts ask of the top object beyond the world: adding a script,
/// destroying an object at the end of the frame, and the game module's name. The internal
/// calls reach it through the bound ScriptContext, so they depend on this narrow,
/// Mono-free interface rather than on the whole host. Main thread only.
class ScriptEngine {
public:
    virtual ~ScriptEngine() = default;

    /// Adds a script of class `className` (full or unambiguous short name) to `entity`
    /// with default field values, constructs it and runs Initialize; returns its slot.
    [[nodiscard]] virtual Result<ObjectId> addScript(ObjectId entity,
                                                     std::string_view className) = 0;
    /// Destroys an entity, component or script at the end of the current frame.
    virtual void queueDestroy(ObjectId id) = 0;
    /// Destroys it at the end of the first frame at least `seconds` of game time from now
    /// (Unity's Destroy(obj, t)); a reload keeps the appointment.
    virtual void queueDestroyAfter(ObjectId id, double seconds) = 0;
    /// A copy of the entity `original` is on (or is): named "<name>(Clone)", at `placed` if
    /// given, else where the original is, with the same native components and scripts, every
    /// script's saved fields copied — references to the original or anything on it pointing at
    /// the copy's — before its Initialize, Awake and OnEnable run, as Unity's Instantiate does.
    /// Returns the copy of `original` itself: the new entity, or its component or script.
    [[nodiscard]] virtual Result<ObjectId> cloneObject(ObjectId original,
                                                       const std::optional<Transform>& placed) = 0;
    /// The attached game module's name (UEngine.Application.gameModule); "" for none.
    [[nodiscard]] virtual std::string_view gameModuleName() const noexcept = 0;
    /// Replaces the world with the scene `name` at the end of this frame (Unity's
    /// SceneManager.LoadScene): every root entity that keepOnSceneLoad did not keep is
    /// destroyed, then the scene is built. `name` is a scene file beside the active one
    /// (NAME.scene.json or NAME.json) or a path. Fails now, changing nothing, when no such file
    /// can be read or it names a script class or component kind the host does not have.
    [[nodiscard]] virtual Result<void> requestSceneLoad(std::string_view name) = 0;
    /// The scene file the world was last built from; empty when there is none.
    [[nodiscard]] virtual const std::filesystem::path& activeScenePath() const noexcept = 0;
    /// Keeps the root entity of `object` (and so everything below it) through scene loads
    /// (Unity's DontDestroyOnLoad).
    virtual void keepOnSceneLoad(ObjectId object) = 0;

protected:
    ScriptEngine() = default;
    ScriptEngine(const ScriptEngine&) = default;
    ScriptEngine& operator=(const ScriptEngine&) = default;
};

} // namespace scripthost
