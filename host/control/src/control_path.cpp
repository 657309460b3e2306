#include "control/control_path.hpp"

#include <cstdlib>
#include <string>
#include <system_error>
#include <unistd.h>

namespace scripthost::control {

std::filesystem::path defaultControlPath() {
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime) {
        std::error_code error;
        if (std::filesystem::is_directory(runtime, error))
            return std::filesystem::path(runtime) / "scripthost" / "control.sock";
    }
    return std::filesystem::path("/tmp") / ("scripthost-" + std::to_string(::geteuid())) /
           "control.sock";
}

} // namespace scripthost::control
