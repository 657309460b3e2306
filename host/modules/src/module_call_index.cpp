#include "host/modules/module_call_index.hpp"

#include <unordered_map>

namespace scripthost {

namespace {

using Index = std::unordered_map<const void*, ModuleCallIndex::Call>;

game::InternalCallBridge g_bridge; // set once by the glue, main thread, before modules load

/// Never destroyed: a module build's registration may outlive static destruction's order.
Index& index() {
    static auto* calls = new Index(); // NOLINT: deliberately never freed
    return *calls;
}

} // namespace

ModuleCallIndex::Registration::~Registration() {
    Index& calls = index();
    for (const void* thunk : thunks_) {
        auto it = calls.find(thunk);
        if (it != calls.end() && it->second.module == module_)
            calls.erase(it);
    }
}

void ModuleCallIndex::Registration::add(const game::InternalCallInfo& call) {
    auto [it, added] = index().try_emplace(call.thunk, Call{call.managedName, module_});
    if (added) {
        thunks_.push_back(call.thunk);
    } else if (it->second.module != module_) {
        // Another build's entry at this address: that build is gone (its registration would
        // have taken the entry out with it), so the address is this build's now.
        it->second = Call{call.managedName, module_};
        thunks_.push_back(call.thunk);
    }
}

const ModuleCallIndex::Call* ModuleCallIndex::find(const void* thunk) noexcept {
    const Index& calls = index();
    auto it = calls.find(thunk);
    return it == calls.end() ? nullptr : &it->second;
}

game::InternalCallBridge ModuleCallIndex::bridge() noexcept { return g_bridge; }

void ModuleCallIndex::setBridge(game::InternalCallBridge bridge) noexcept { g_bridge = bridge; }

} // namespace scripthost
