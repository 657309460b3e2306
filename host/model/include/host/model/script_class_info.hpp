#pragma once
// FieldInfo and ScriptClassInfo: a script class's shape as plain data. Mono-free, so the
// reload's field-migration rules (field_migration.hpp) and their tests need no runtime.

#include "host/model/value.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace scripthost {

/// A serialised field of a script class, as plain data.
struct FieldInfo {
    std::string name;
    std::string displayName; ///< from [SerializeField("…")], else the name
    FieldType type;
    std::vector<std::string> formerNames; ///< from [FormerlySerializedAs]
    std::string declaringClass;           ///< the class (or base class) that declares it
    bool hidden = false; ///< [HideInInspector]: left out of listings, still saved and carried
};

/// A concrete class deriving from UEngine.UMonoScriptComponent.
struct ScriptClassInfo {
    std::string name;     ///< full name, "Namespace.Class" (nested: "Outer+Inner")
    std::string assembly; ///< the scripts assembly it is in, e.g. "Scripts" (none: native)
    bool overridesUpdate = false;
    bool overridesFixedUpdate = false;
    /// The Unity message methods the class declares (UnityMessage bits, unity_message.hpp):
    /// Awake, Start, Update(), ... without `override`, any visibility, no parameters.
    std::uint32_t unityMessages = 0;
    /// Methods named like a Unity message this host never calls (OnTriggerEnter, OnGUI, ...),
    /// as "Class.Method": the load names them in a warning.
    std::vector<std::string> uncalledMessages;
    /// Serialised fields (public ones of a serialisable type, [SerializeField] ones), base
    /// classes first.
    std::vector<FieldInfo> fields;
    std::vector<FieldInfo> preservedStatics; ///< [PreserveStatic] fields the class declares
};

} // namespace scripthost
