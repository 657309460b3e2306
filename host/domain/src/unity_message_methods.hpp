#pragma once
// Which of Unity's message methods a script class declares, read from its metadata.

#include <cstdint>
#include <mono/metadata/class.h>
#include <string>
#include <vector>

namespace scripthost::mono {

/// The UnityMessage bits (host/model/unity_message.hpp) of the message methods `klass` or a
/// base class below `scriptBase` declares: instance methods with that name and no
/// parameters, any visibility, any return type.
[[nodiscard]] std::uint32_t declaredUnityMessages(MonoClass* klass, MonoClass* scriptBase);

/// "Class.Method" for each method of `klass` and its bases below `scriptBase` named like a
/// Unity message the host never calls (kUncalledUnityMessages), in declaration order.
[[nodiscard]] std::vector<std::string> uncalledUnityMessages(MonoClass* klass,
                                                             MonoClass* scriptBase);

} // namespace scripthost::mono
