#pragma once
// ScriptInstances: the script objects one generation has created, by script slot.

#include "runtime/gc_handle.hpp"
#include "script_class_registry.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <cstddef>
#include <unordered_map>

namespace scripthost::mono {

/// A script instance: held strongly through a GC handle (sgen moves objects, so never a
/// raw pointer), with the entity it is attached to and its class.
struct ScriptInstance {
    GcHandle handle;
    ObjectId entity;
    const ScriptClassEntry* entry = nullptr;
};

/// The instances of one generation, by script slot id. Freeing one (erase, clear) frees
/// its GC handle. Main thread only; clear() before the domain unloads.
class ScriptInstances {
public:
    /// Creates an instance of `entry` in `domain` (the current domain): allocation, then
    /// its parameterless constructor through mono_runtime_invoke, so the watchdog's abort
    /// can stop a runaway constructor.
    [[nodiscard]] static Result<GcHandle> construct(MonoDomain* domain,
                                                    const ScriptClassEntry& entry);

    void add(ObjectId script, ScriptInstance instance) {
        instances_.emplace(script, std::move(instance));
    }
    [[nodiscard]] const ScriptInstance* find(ObjectId script) const noexcept {
        auto it = instances_.find(script);
        return it == instances_.end() ? nullptr : &it->second;
    }
    [[nodiscard]] ScriptInstance* find(ObjectId script) noexcept {
        auto it = instances_.find(script);
        return it == instances_.end() ? nullptr : &it->second;
    }
    [[nodiscard]] bool contains(ObjectId script) const noexcept {
        return instances_.contains(script);
    }
    void erase(ObjectId script) {
        instances_.erase(script);
        ++removals_;
    }
    /// Erases every instance whose slot `drop` names.
    template <typename Pred> void eraseIf(Pred drop) {
        std::erase_if(instances_, [&](const auto& entry) { return drop(entry.first); });
        ++removals_;
    }
    /// Makes room for `more` instances, so a reload that creates them all in one frame
    /// does not grow the map step by step.
    void reserve(std::size_t more) { instances_.reserve(instances_.size() + more); }
    [[nodiscard]] std::size_t size() const noexcept { return instances_.size(); }
    void clear() noexcept {
        instances_.clear();
        ++removals_;
    }
    /// Counts erase, eraseIf and clear calls: a pointer find() returned stays valid while this
    /// count does (the map's nodes do not move when it grows).
    [[nodiscard]] std::uint64_t removals() const noexcept { return removals_; }

private:
    std::unordered_map<ObjectId, ScriptInstance> instances_;
    std::uint64_t removals_ = 0;
};

} // namespace scripthost::mono
