#pragma once
// Which plugins scripthost loads, by the platforms their `.meta` enables them for. Scripts run
// here as in Unity's editor in play mode, without Unity's editor API: a plugin is loaded when
// the editor would load it and a player would too. So an editor-only plugin (Unity's tools,
// built against UnityEditor.dll) is left out as one in an `Editor/` folder is, and one the
// editor never loads (for Win64 only, say) is left out as Unity's play mode leaves it out.

#include "unity_meta_file.hpp"

#include <string>
#include <vector>

namespace scripthost::compiler {

enum class PluginUse {
    used,        ///< for the editor and a player (or no platform settings at all: every one)
    editorOnly,  ///< for the editor and no player
    notInEditor, ///< not for the editor (players only, or no platform at all)
};

/// The use of a plugin whose `platformData` is `platforms` (unity_meta_file.hpp): none at all is
/// every platform. When an "Any Platform" entry is enabled, the plugin is for the editor unless
/// one of those entries excludes `Editor`, and for a player. Otherwise it is for the editor when
/// an entry of group or name `Editor` is enabled, and for a player when another one is.
[[nodiscard]] PluginUse pluginUse(const std::vector<PluginPlatform>& platforms);

/// The enabled platforms' names, comma-separated and in the file's order, for a message:
/// "Win64, OSXUniversal"; "no platform" when none is.
[[nodiscard]] std::string enabledPlatformNames(const std::vector<PluginPlatform>& platforms);

} // namespace scripthost::compiler
