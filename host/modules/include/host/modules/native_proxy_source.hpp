#pragma once
// The C# source of the proxies of a game module's native script classes.

#include "scripthost/game/error.hpp"
#include "scripthost/game/native_script.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// Whether `name` can name a native script class's C# proxy: dot-separated C# identifiers
/// ("Demo.NativeSpinner"); the error says why not.
[[nodiscard]] Result<void> checkNativeClassName(std::string_view name);
/// Whether the class's fields and methods can be C# members of its proxy (identifiers, no
/// two of one name, none named like a member every component has); the error says why not.
[[nodiscard]] Result<void> checkNativeClassMembers(const game::NativeScriptClassInfo& cls);

/// One C# file with a proxy class per native script class: the same full name, deriving from
/// UEngine.UNativeScript (or the class's C# base), each field a property and each method a
/// method, reaching the native object through internal calls ("Ns.Class::Internal_Method" for
/// methods; UNativeScript's field calls with the field's index and name). `origin` names the
/// module in the file's header comment.
[[nodiscard]] std::string
nativeProxySource(const std::vector<const game::NativeScriptClassInfo*>& classes,
                  std::string_view origin);

} // namespace scripthost
