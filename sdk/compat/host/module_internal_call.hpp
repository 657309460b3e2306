#pragma once
// The SDK's headers moved to scripthost/game/ (SDK API version 3). This spelling keeps a game
// module's sources compiling for this one version and goes away with the next kApiVersion
// bump; it is not installed.
#pragma message("<host/module_internal_call.hpp> is deprecated: include <scripthost/game/module_internal_call.hpp>")
#include "scripthost/game/module_internal_call.hpp"
