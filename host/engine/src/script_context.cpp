#include "host/engine/script_context.hpp"

#include "host/model/world.hpp"

namespace scripthost {

namespace {
std::uint64_t epochOf(const ScriptContext* context) noexcept {
    return context != nullptr && context->world != nullptr ? context->world->epoch().value() : 0;
}
} // namespace

ScriptContextBinding::ScriptContextBinding(ScriptContext& context) noexcept
    : previous_(detail::tBoundContext) {
    detail::tBoundContext = &context;
    detail::tBoundWorldEpoch = epochOf(&context);
}

ScriptContextBinding::~ScriptContextBinding() {
    detail::tBoundContext = previous_;
    detail::tBoundWorldEpoch = epochOf(previous_);
}

} // namespace scripthost
