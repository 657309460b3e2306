#pragma once
// The inspector's access token: what a browser must show before the server answers it.

#include "scripthost/game/error.hpp"

#include <string>
#include <string_view>

namespace scripthost::inspector {

/// 32 bytes from the kernel's random source (getrandom), as 64 lowercase hex digits.
[[nodiscard]] Result<std::string> makeAccessToken();

/// Whether `given` equals `expected`, in a time that does not depend on where they differ.
[[nodiscard]] bool tokensEqual(std::string_view given, std::string_view expected) noexcept;

} // namespace scripthost::inspector
