#pragma once
// Where the daemon serves its control socket unless told otherwise.

#include <filesystem>

namespace scripthost::control {

/// $XDG_RUNTIME_DIR/scripthost/control.sock when XDG_RUNTIME_DIR is set and is an existing
/// folder, else /tmp/scripthost-<uid>/control.sock.
[[nodiscard]] std::filesystem::path defaultControlPath();

} // namespace scripthost::control
