#include "host/script_context.hpp"

namespace scripthost {

ScriptContextBinding::ScriptContextBinding(ScriptContext& context) noexcept
    : previous_(detail::tBoundContext) {
    detail::tBoundContext = &context;
}

ScriptContextBinding::~ScriptContextBinding() {
    detail::tBoundContext = previous_;
}

} // namespace scripthost
