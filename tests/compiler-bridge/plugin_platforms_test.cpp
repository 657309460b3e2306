// Which plugins scripthost loads by their .meta's platforms (plugin_platforms.hpp): those Unity's
// editor loads in play mode and a player would too.
#include "plugin_platforms.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;

namespace {

PluginPlatform on(std::string group, std::string name, std::set<std::string> excluded = {}) {
    return {std::move(group), std::move(name), true, std::move(excluded)};
}

PluginPlatform off(std::string group, std::string name) {
    return {std::move(group), std::move(name), false, {}};
}

} // namespace

TEST_CASE("plugin platforms: no platform data is every platform") {
    CHECK(pluginUse({}) == PluginUse::used);
}

TEST_CASE("plugin platforms: Any Platform, in either of Unity's forms, unless it excludes the "
          "Editor") {
    CHECK(pluginUse({on("", "Any"), off("Editor", "Editor")}) == PluginUse::used);
    CHECK(pluginUse({on("Any", "")}) == PluginUse::used);
    CHECK(pluginUse({on("", "Any", {"Win64", "OSXUniversal"})}) == PluginUse::used);
    CHECK(pluginUse({on("", "Any", {"Editor"}), on("Standalone", "Linux64")}) ==
          PluginUse::notInEditor);
}

TEST_CASE("plugin platforms: without Any, the Editor and a player each by their own entry") {
    CHECK(pluginUse({off("", "Any"), on("Editor", "Editor"), on("Standalone", "Win64")}) ==
          PluginUse::used);
    CHECK(pluginUse({off("", "Any"), off("Any", ""), on("Editor", "Editor"),
                     off("Standalone", "Linux64")}) == PluginUse::editorOnly);
    CHECK(pluginUse({off("", "Any"), off("Editor", "Editor"), on("Standalone", "Win64")}) ==
          PluginUse::notInEditor);
    CHECK(pluginUse({off("", "Any"), off("Editor", "Editor")}) == PluginUse::notInEditor);
}

TEST_CASE("plugin platforms: the enabled ones' names, for a message") {
    CHECK(enabledPlatformNames({off("", "Any"), on("Standalone", "Win64"), on("Android", "Android"),
                                off("Editor", "Editor")}) == "Win64, Android");
    CHECK(enabledPlatformNames({on("Any", "")}) == "Any");
    CHECK(enabledPlatformNames({off("Editor", "Editor")}) == "no platform");
}
