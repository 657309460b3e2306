#pragma once
// NativeScripts: the game module's native script classes and their instances on the world's
// script slots.

#include "host/engine/script_context.hpp"
#include "host/model/script_class_info.hpp"
#include "host/model/snapshot.hpp"
#include "host/model/value.hpp"
#include "host/safety/native_fault_guard.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/native_script.hpp"
#include "scripthost/game/object_id.hpp"

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace scripthost {

/// Told what crashed ("native script Demo.NativeSpinner #3:1 update") and the fault.
using NativeCrashHandler = std::function<void(const std::string& what, const NativeFault& fault)>;

/// The shape the host (scenes, snapshots, migration) sees for a native field type:
/// bool → System.Boolean, Int32 → System.Int32, …, Vector3 → UEngine.Vector3, Entity → a
/// reference to an entity (UEngine.UEntity).
[[nodiscard]] FieldType fieldTypeOf(game::NativeFieldType type);
/// `value` (of a field of `type`) as a native value; an error when its alternative does not
/// fit (e.g. a reference to a script where an entity is expected is left to the caller).
[[nodiscard]] Result<game::NativeValue> toNativeValue(const Value& value,
                                                      game::NativeFieldType type);
[[nodiscard]] Value fromNativeValue(const game::NativeValue& value);

/// Owns the native script classes of the game module build that runs (and remembers those of
/// earlier builds, whose code stays mapped), and one native object per native script slot.
/// Messages run guarded (NativeFaultGuard): a C++ exception switches that script off, a crash
/// switches every native script off and is reported to the module (its code is not trusted
/// any more). Slots, parking and migration are ScriptHost's; this class only holds objects.
/// Main thread only.
class NativeScripts {
public:
    NativeScripts() = default;
    NativeScripts(const NativeScripts&) = delete;
    NativeScripts& operator=(const NativeScripts&) = delete;
    ~NativeScripts();

    /// Makes `classes` (one module build's) the classes new instances are made of. The
    /// instances keep the class they were made of: moving them to the new classes is a
    /// module reload's job (ScriptHost::replaceNativeClasses). `world` is handed to every new
    /// instance; `onCrash` is told about a crash. Clears crashed().
    void setClasses(std::vector<game::NativeScriptClassInfo> classes, game::GameWorld& world,
                    NativeCrashHandler onCrash);
    /// The current class named `name` (full name), or nullptr.
    [[nodiscard]] const game::NativeScriptClassInfo* findClass(std::string_view name) const;
    /// Its fields as the host's field shapes (scene values, migration), or nullptr.
    [[nodiscard]] const ScriptClassInfo* shapeOf(std::string_view name) const;
    /// The current classes, in registration order.
    [[nodiscard]] const std::vector<const game::NativeScriptClassInfo*>& classes() const noexcept {
        return current_;
    }

    /// Makes an instance of the current class `className` for `slot` (factory, guarded); no
    /// message runs yet.
    [[nodiscard]] Result<void> create(ObjectId slot, ObjectId entity, std::string_view className);
    /// Runs initialize() (a new script) or afterReload() (a carried one).
    [[nodiscard]] Result<void> initialize(ObjectId slot);
    [[nodiscard]] Result<void> afterReload(ObjectId slot);
    /// Runs destroy() when `sendDestroy`, then deletes the object (leaks it once crashed()).
    void remove(ObjectId slot, bool sendDestroy);
    [[nodiscard]] bool has(ObjectId slot) const noexcept { return instances_.contains(slot); }
    [[nodiscard]] std::size_t count() const noexcept { return instances_.size(); }
    /// The slots that have an instance, in the order they were made.
    [[nodiscard]] const std::vector<ObjectId>& slots() const noexcept { return order_; }

    /// Whether a slot's script runs this frame (ScriptHost: its entity is active in the
    /// hierarchy); empty: every one does.
    using RunsFilter = std::function<bool(ObjectId slot)>;
    /// One fixed step / one frame of every instance that is not switched off and that `runs`
    /// lets run.
    void fixedUpdate(float fixedDeltaTime, const RunsFilter& runs = {});
    void update(float deltaTime, const RunsFilter& runs = {});

    [[nodiscard]] Result<Value> getField(ObjectId slot, std::string_view field) const;
    [[nodiscard]] Result<void> setField(ObjectId slot, std::string_view field, const Value& value);
    /// Writes field `index` of the instance's class (a migration's FieldWrite).
    [[nodiscard]] Result<void> writeField(ObjectId slot, std::size_t index, const Value& value);
    /// Every field's current value (read guarded).
    [[nodiscard]] Result<ScriptSnapshot> snapshot(ObjectId slot, ObjectId entity) const;

    /// The instance of `slot` and its class (one lookup), or nullptrs.
    struct Live {
        game::NativeScript* object = nullptr;
        const game::NativeScriptClassInfo* cls = nullptr;
    };
    [[nodiscard]] Live live(ObjectId slot) noexcept {
        auto it = instances_.find(slot);
        if (it == instances_.end())
            return {};
        return {it->second.object.get(), it->second.cls};
    }
    /// The class of `slot`'s instance, or nullptr.
    [[nodiscard]] const game::NativeScriptClassInfo* classOf(ObjectId slot) const noexcept;
    /// Any class ever set with this tag (earlier builds' too), or nullptr.
    [[nodiscard]] const game::NativeScriptClassInfo* classByTag(const void* tag) const noexcept;

    /// What crashed the native scripts' code, or empty while they run.
    [[nodiscard]] const std::string& crashed() const noexcept { return crash_; }
    /// Switches every native script off without running any of them (their module crashed
    /// elsewhere: `why`); setClasses turns them on again.
    void stop(const std::string& why) {
        if (crash_.empty())
            crash_ = why;
    }
    /// Runs `call` guarded; a crash is reported as `what` and switches native scripts off.
    /// False when it crashed.
    /// `what()` builds the description only when it crashed.
    template <class What, class Call> bool runGuarded(What&& what, Call&& call) {
        if (auto fault = NativeFaultGuard::run(call)) {
            switchOff(what(), *fault);
            return false;
        }
        return true;
    }
    /// How a call into the module's code ended (call()).
    struct CallOutcome {
        bool crashed = false; ///< a crash signal: native scripts are switched off now
        std::string error;    ///< the C++ exception's message; empty when none
        [[nodiscard]] bool ok() const noexcept { return !crashed && error.empty(); }
    };
    /// runGuarded, with the module's C++ exceptions caught too: every call into a native
    /// script's code goes through here.
    template <class What, class Call> CallOutcome call(What&& what, Call&& body) {
        CallOutcome outcome;
        outcome.crashed = !runGuarded(what, [&] {
            try {
                body();
            } catch (const std::exception& e) {
                outcome.error = e.what()[0] != '\0' ? e.what() : "an exception";
            } catch (...) {
                outcome.error = "an unknown exception";
            }
        });
        return outcome;
    }

    /// Told of every message that threw or crashed (the script is switched off already), as a
    /// C# script's failure would be: ScriptHost counts them with the C# scripts' failures.
    std::function<void(const ScriptFailure&)> onFailure;

    /// The bridge module thunks call (game::NativeCallBridge::invoke).
    [[nodiscard]] static game::NativeCallBridge callBridge() noexcept;

private:
    struct Instance {
        std::unique_ptr<game::NativeScript> object;
        const game::NativeScriptClassInfo* cls = nullptr;
        bool switchedOff = false; ///< threw from a message
    };
    struct ClassSet { // one module build's classes and their shapes
        std::vector<game::NativeScriptClassInfo> classes;
        std::vector<ScriptClassInfo> shapes;
    };
    [[nodiscard]] const Instance* find(ObjectId slot) const noexcept;
    [[nodiscard]] Instance* find(ObjectId slot) noexcept;
    /// Runs a message; an exception switches the instance off. False if it failed.
    bool message(ObjectId slot, Instance& instance, const char* name,
                 const std::function<void(game::NativeScript&)>& call);
    void switchOff(const std::string& what, const NativeFault& fault);

    std::deque<ClassSet> builds_; // every build's classes, the current last (stable addresses)
    std::vector<const game::NativeScriptClassInfo*> current_;
    game::GameWorld* world_ = nullptr;
    NativeCrashHandler onCrash_;
    std::unordered_map<ObjectId, Instance> instances_;
    std::vector<ObjectId> order_;
    std::string crash_;
};

} // namespace scripthost
