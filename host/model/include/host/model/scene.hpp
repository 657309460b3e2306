#pragma once
// Scene: the JSON description of a world — entities, native components, scripts and
// their [SerializeField] values. The reload snapshot and the state file use it too.

#include "scripthost/game/error.hpp"
#include "scripthost/game/transform.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// A script on an entity in a scene, with initial field values by field name. Values
/// are scene-file JSON (see valueFromJson); they are checked against the class's
/// fields when the scene is instantiated, since only the class knows their types.
struct SceneScript {
    std::string className;
    nlohmann::json fields = nlohmann::json::object();
    std::uint64_t id = 0; ///< the id it had when saved (snapshots), 0 when none
    bool parked = false;  ///< saved while its class was missing (snapshots)
    bool enabled = true;  ///< false: the script had set its `enabled` to false ("enabled": false)
};

struct SceneEntity {
    std::string name;
    Transform transform;
    std::vector<std::string> components;     ///< native component kinds, e.g. "Camera"
    std::vector<std::uint64_t> componentIds; ///< saved ids, parallel to components (0: none)
    std::vector<SceneScript> scripts;
    std::uint64_t id = 0; ///< the id it had when saved (snapshots), 0 when none
    bool ownedByScripts = false;
    bool active = true; ///< "active": false in the file
    std::string tag;    ///< "tag" in the file; empty: untagged
    /// The entity's parent, a reference as a field's is ({"entity": "Name"} or {"id": n});
    /// null for a root. Its transform is then relative to the parent's.
    nlohmann::json parent;
};

/// An object a script asked to destroy later (Unity's Destroy(obj, t)): its saved id and the
/// seconds of game time left. Snapshots (the state file) keep them, so a restart keeps the
/// appointment.
struct SceneDelayedDestroy {
    std::uint64_t id = 0;
    double seconds = 0;
    bool operator==(const SceneDelayedDestroy&) const = default;
};

/// A whole scene. File format (version 1):
/// {
///   "format": "scripthost-scene", "version": 1,
///   "entities": [
///     { "name": "Camera",
///       "transform": { "position": [0, 2, 8], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1] },
///       "components": ["Camera"],
///       "scripts": [ { "class": "Demo.PlayerInput", "fields": { "speed": 4.0 } } ] } ] }
/// "transform", "components", "scripts" and "fields" may be left out, and so may "active"
/// (true), "tag" (a string, Unity's tag; none: "Untagged") and "parent" (the name of another
/// entity, or a reference as below; its transform is then relative to the parent's, as
/// Unity's local transform is); rotation is a
/// quaternion [x, y, z, w]. A field referencing an object is null, {"entity": "Name"}
/// (optionally with "component": "Camera" or "script": "Demo.Class"), or {"id": n}.
/// Snapshots written by the host add "id" to entities, components ({"kind": "Camera",
/// "id": n}) and scripts, and refer to objects by those ids; loading one maps every
/// saved id to the new object, so a snapshot loads as a scene. They may also hold
/// "destroyAfter": [{"id": n, "seconds": s}], the delayed destroys still pending.
struct Scene {
    std::vector<SceneEntity> entities;
    std::vector<SceneDelayedDestroy> delayedDestroys;

    /// Parses a scene; errors name the JSON path ("entities[2].transform.position: …").
    [[nodiscard]] static Result<Scene> fromJson(const nlohmann::json& json);
    /// How deeply a scene file may nest objects and arrays. Deeper files are refused
    /// before they are built: copying such a value recurses once per level.
    static constexpr int kMaxDepth = 128;
    /// Parses a scene file's text (JSON; comments allowed).
    [[nodiscard]] static Result<Scene> fromText(std::string_view text);
    /// Reads and parses a scene file.
    [[nodiscard]] static Result<Scene> load(const std::filesystem::path& file);
    [[nodiscard]] nlohmann::json toJson() const;
};

} // namespace scripthost
