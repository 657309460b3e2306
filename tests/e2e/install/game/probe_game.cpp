// The install test's game module: one internal call the script below reads, and a component
// kind, so a run proves the module attached and its code ran.
#include <scripthost/game/game_module.hpp>

namespace {

int answer() { return 42; }

} // namespace

SCRIPTHOST_GAME_MODULE(registry, info) {
    info = {"install probe", "1.0"};
    registry.registerComponent("ProbeMarker", "marks nothing; proves the module registered");
    registry.registerInternalCall<&answer>("InstallProbe.Native::Internal_Answer");
    return {};
}
