#include "plugin_platforms.hpp"

#include <algorithm>

namespace scripthost::compiler {

namespace {

bool isEditor(const PluginPlatform& platform) {
    return platform.group == "Editor" || platform.name == "Editor";
}

} // namespace

PluginUse pluginUse(const std::vector<PluginPlatform>& platforms) {
    if (platforms.empty()) {
        return PluginUse::used;
    }
    bool anyEnabled = false;
    bool editorExcluded = false;
    for (const PluginPlatform& platform : platforms) {
        if (platform.isAny() && platform.enabled) {
            anyEnabled = true;
            editorExcluded = editorExcluded || platform.excluded.contains("Editor");
        }
    }
    bool forEditor = anyEnabled && !editorExcluded;
    bool forPlayer = anyEnabled;
    if (!anyEnabled) {
        for (const PluginPlatform& platform : platforms) {
            if (platform.enabled && !platform.isAny()) {
                (isEditor(platform) ? forEditor : forPlayer) = true;
            }
        }
    }
    if (!forEditor) {
        return PluginUse::notInEditor;
    }
    return forPlayer ? PluginUse::used : PluginUse::editorOnly;
}

std::string enabledPlatformNames(const std::vector<PluginPlatform>& platforms) {
    std::string names;
    for (const PluginPlatform& platform : platforms) {
        if (!platform.enabled) {
            continue;
        }
        const std::string& name = platform.name.empty() ? platform.group : platform.name;
        names += (names.empty() ? "" : ", ") + name;
    }
    return names.empty() ? "no platform" : names;
}

} // namespace scripthost::compiler
