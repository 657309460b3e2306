// Fuzzes parseUnityMeta, which reads the .meta files Unity writes beside definitions and plugins
// (compiler-bridge/src/unity_meta_file.cpp, yaml-cpp underneath). Invariants:
// - it never throws, whatever the text (yaml-cpp's exceptions become warnings);
// - a GUID read is 32 lower-case hex digits;
// - every warning names the file;
// - the same text gives the same result.

#include "fuzz_check.hpp"
#include "plugin_platforms.hpp"
#include "unity_meta_file.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace scripthost::compiler;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::filesystem::path file = "/fuzz/Plugin.dll.meta";
    UnityMetaFile meta;
    try {
        meta = parseUnityMeta(file, text);
    } catch (...) {
        FUZZ_CHECK(false, "parseUnityMeta never throws");
    }
    FUZZ_CHECK(meta.guid.empty() || (meta.guid.size() == 32 &&
                                     std::ranges::all_of(meta.guid,
                                                         [](char c) {
                                                             return (c >= '0' && c <= '9') ||
                                                                    (c >= 'a' && c <= 'f');
                                                         })),
               "a GUID is 32 lower-case hex digits");
    for (const std::string& warning : meta.warnings) {
        FUZZ_CHECK(warning.starts_with(file.string() + ":"), "a warning names the file");
    }
    if (meta.plugin) {
        (void)pluginUse(meta.plugin->platforms);
        (void)enabledPlatformNames(meta.plugin->platforms);
    }
    const UnityMetaFile again = parseUnityMeta(file, text);
    FUZZ_CHECK(again.guid == meta.guid && again.plugin == meta.plugin &&
                   again.warnings == meta.warnings,
               "the same text gives the same result");
    return 0;
}
