#include "host/script_context.hpp"

namespace scripthost {

namespace {
// Only the main thread runs scripts; thread_local keeps a stray thread from seeing it.
thread_local ScriptContext* t_current = nullptr;
} // namespace

ScriptContext* ScriptContext::current() noexcept {
    return t_current;
}

ScriptContextBinding::ScriptContextBinding(ScriptContext& context) noexcept : previous_(t_current) {
    t_current = &context;
}

ScriptContextBinding::~ScriptContextBinding() {
    t_current = previous_;
}

} // namespace scripthost
