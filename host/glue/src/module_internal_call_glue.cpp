// The bridge a game module's internal call thunks call (installed as ModuleCallIndex::bridge
// by registerEngineInternalCalls): it finds
// the build the call belongs to and runs the call's body there, guarded
// (GameModuleHost::runInternalCall); a switched-off module, a crash or a C++ exception becomes
// the calling script's InvalidOperationException.
#include "host/engine/script_context.hpp"
#include "host/modules/game_module_host.hpp"
#include "host/modules/module_call_index.hpp"
#include "internal_call_groups.hpp"
#include "script_error.hpp"

namespace scripthost::glue {

namespace {

bool invokeModuleInternalCall(const void* thunk, game::InternalCallBody body, void* frame) {
    bool ok = false;
    guarded("game module internal call", [&] {
        // Only the main thread binds a context, and only inside the game loop: the module's
        // code and the index below are the main thread's.
        if (ScriptContext::current() == nullptr) {
            throw ScriptError(ManagedError::InvalidOperation,
                              "a game module's internal calls run on the host's main thread, "
                              "inside its game loop; this call came from outside it");
        }
        const ModuleCallIndex::Call* call = ModuleCallIndex::find(thunk);
        if (call == nullptr) {
            throw ScriptError(ManagedError::InvalidOperation,
                              "this internal call belongs to a game module build that is not "
                              "loaded any more");
        }
        if (auto ran = call->module->runInternalCall(call->name, body, frame); !ran)
            throw ScriptError(ManagedError::InvalidOperation, ran.error().message);
        ok = true;
    });
    return ok;
}

} // namespace

void installModuleCallBridge() {
    ModuleCallIndex::setBridge(game::InternalCallBridge{&invokeModuleInternalCall});
}

} // namespace scripthost::glue
