// Unity's .meta files as scripthost reads them (unity_meta_file.hpp): a definition's GUID, a
// plugin's import settings in the forms Unity's versions write, and files that are not what
// Unity writes, which give warnings and keep Unity's defaults.
#include "compiler_test_support.hpp"
#include "unity_meta_file.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;
namespace fs = std::filesystem;

namespace {

/// A plugin's .meta as Unity 2021 writes it: "Any Platform" off with its exclusion checkboxes,
/// the Editor on, Linux64 on and Win64 off; two define constraints; Auto Reference off.
constexpr std::string_view kUnity2021PluginMeta = R"(fileFormatVersion: 2
guid: 5B5E1C0A5F6B4E2C9D7F1A2B3C4D5E6F
PluginImporter:
  externalObjects: {}
  serializedVersion: 2
  iconMap: {}
  executionOrder: {}
  defineConstraints:
  - TWEEN_ENABLED
  - '!TWEEN_DISABLED'
  isPreloaded: 0
  isOverridable: 0
  isExplicitlyReferenced: 1
  validateReferences: 1
  platformData:
  - first:
      : Any
    second:
      enabled: 0
      settings:
        Exclude Editor: 0
        Exclude Linux64: 0
        Exclude Win64: 1
  - first:
      Any: 
    second:
      enabled: 0
      settings: {}
  - first:
      Editor: Editor
    second:
      enabled: 1
      settings:
        CPU: AnyCPU
        DefaultValueInitialized: true
        OS: AnyOS
  - first:
      Standalone: Linux64
    second:
      enabled: 1
      settings:
        CPU: x86_64
  - first:
      Standalone: Win64
    second:
      enabled: 0
      settings:
        CPU: None
  userData: 
  assetBundleName: 
  assetBundleVariant: 
)";

std::string withCrLf(std::string_view text) {
    std::string out;
    for (char c : text) {
        out += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    return out;
}

} // namespace

TEST_CASE("unity meta: a plugin's GUID, Auto Reference, define constraints and every platform "
          "entry, with the exclusions of Any, also with Windows line ends") {
    for (const std::string& text :
         {std::string(kUnity2021PluginMeta), withCrLf(kUnity2021PluginMeta)}) {
        const UnityMetaFile meta = parseUnityMeta("/p/Tween.dll.meta", text);
        CHECK(meta.warnings.empty());
        CHECK(meta.guid == "5b5e1c0a5f6b4e2c9d7f1a2b3c4d5e6f");
        REQUIRE(meta.plugin);
        CHECK(meta.plugin->explicitlyReferenced);
        CHECK(meta.plugin->defineConstraints ==
              std::vector<std::string>{"TWEEN_ENABLED", "!TWEEN_DISABLED"});
        const std::vector<PluginPlatform> expected{
            {"", "Any", false, {"Win64"}},      {"Any", "", false, {}},
            {"Editor", "Editor", true, {}},     {"Standalone", "Linux64", true, {}},
            {"Standalone", "Win64", false, {}},
        };
        CHECK(meta.plugin->platforms == expected);
        CHECK(meta.plugin->platforms[0].isAny());
        CHECK(meta.plugin->platforms[1].isAny());
        CHECK_FALSE(meta.plugin->platforms[2].isAny());
    }
}

TEST_CASE("unity meta: Unity 5's plugin form (Any as a group, no exclusions) and empty lists") {
    const UnityMetaFile meta =
        parseUnityMeta("/p/Old.dll.meta", "fileFormatVersion: 2\n"
                                          "guid: 00000000000000000000000000000abc\n"
                                          "PluginImporter:\n"
                                          "  serializedVersion: 1\n"
                                          "  defineConstraints: []\n"
                                          "  isExplicitlyReferenced: 0\n"
                                          "  platformData:\n"
                                          "    Any:\n"
                                          "      enabled: 1\n");
    // Unity 5 wrote platformData as a mapping, not a list: not read, every platform.
    REQUIRE(meta.plugin);
    CHECK_FALSE(meta.plugin->explicitlyReferenced);
    CHECK(meta.plugin->defineConstraints.empty());
    CHECK(meta.plugin->platforms.empty());
    CHECK(meta.warnings ==
          std::vector<std::string>{"/p/Old.dll.meta: PluginImporter.platformData is not a list: "
                                   "not read (every platform)"});

    const UnityMetaFile listed = parseUnityMeta("/p/A.dll.meta", "PluginImporter:\n"
                                                                 "  defineConstraints:\n"
                                                                 "  platformData:\n"
                                                                 "  - first:\n"
                                                                 "      Any: \n"
                                                                 "    second:\n"
                                                                 "      enabled: 1\n");
    CHECK(listed.warnings.empty());
    REQUIRE(listed.plugin);
    CHECK(listed.plugin->platforms == std::vector<PluginPlatform>{{"Any", "", true, {}}});
}

TEST_CASE("unity meta: a definition's GUID is the top-level one, 32 hex digits, lower-cased") {
    const UnityMetaFile definition =
        parseUnityMeta("/p/A.asmdef.meta", "fileFormatVersion: 2\n"
                                           "guid: 0A1B2C3D4E5F60718293A4B5C6D7E8F9\n"
                                           "AssemblyDefinitionImporter:\n"
                                           "  externalObjects: {}\n"
                                           "  userData: \n");
    CHECK(definition.guid == "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    CHECK_FALSE(definition.plugin);
    CHECK(definition.warnings.empty());

    // Only the top level's: one inside a mapping is another asset's field.
    const UnityMetaFile nested =
        parseUnityMeta("/p/B.asmdef.meta", "Importer:\n  guid: 11111111111111111111111111111111\n");
    CHECK(nested.guid.empty());
    CHECK(nested.warnings.empty());

    const UnityMetaFile shortGuid = parseUnityMeta("/p/C.asmdef.meta", "guid: 1234\n");
    CHECK(shortGuid.guid.empty());
    CHECK(shortGuid.warnings ==
          std::vector<std::string>{"/p/C.asmdef.meta: guid is not 32 hex digits: not read"});
}

TEST_CASE("unity meta: read from a file, the top-level guid of 32 hex digits, or none") {
    TempDir dir("unity-meta-guid");
    const auto meta = dir / "A.asmdef.meta";
    writeFile(meta, "fileFormatVersion: 2\nImporter:\n  guid: 11111111111111111111111111111111\n"
                    "guid:   22222222222222222222222222222222  \n");
    CHECK(readUnityMeta(meta).guid == "22222222222222222222222222222222");
    writeFile(meta, "guid: 1234\n");
    CHECK(readUnityMeta(meta).guid.empty());
    writeFile(meta, "fileFormatVersion: 2\n");
    CHECK(readUnityMeta(meta).guid.empty());
    CHECK(readUnityMeta(dir / "none.meta").guid.empty());
}

TEST_CASE("unity meta: a file that is not YAML is a warning with its line and column, and "
          "nothing of it is read") {
    const UnityMetaFile meta =
        parseUnityMeta("/p/Bad.dll.meta", "guid: 0a1b2c3d4e5f60718293a4b5c6d7e8f9\n"
                                          "PluginImporter:\n"
                                          "  defineConstraints: [A, B\n");
    CHECK(meta.guid.empty());
    CHECK_FALSE(meta.plugin);
    REQUIRE(meta.warnings.size() == 1);
    CHECK(meta.warnings[0].starts_with("/p/Bad.dll.meta:4:1: not YAML ("));
    CHECK(meta.warnings[0].ends_with("): not read"));

    // Nested 100,000 levels deep: refused by the parser's depth limit, not a crash.
    const std::string deep = "a: " + std::string(100000, '[') + std::string(100000, ']') + "\n";
    const UnityMetaFile deepMeta = parseUnityMeta("/p/Deep.dll.meta", deep);
    CHECK(deepMeta.warnings.size() == 1);
    CHECK_FALSE(deepMeta.plugin);
}

TEST_CASE("unity meta: values of other types than Unity writes are warnings, and what they hold "
          "keeps its default") {
    const UnityMetaFile scalar = parseUnityMeta("/p/A.dll.meta", "PluginImporter: 5\n");
    CHECK_FALSE(scalar.plugin);
    CHECK(scalar.warnings ==
          std::vector<std::string>{"/p/A.dll.meta: PluginImporter is not a mapping: not read"});

    const UnityMetaFile fields = parseUnityMeta("/p/B.dll.meta", "PluginImporter:\n"
                                                                 "  isExplicitlyReferenced: maybe\n"
                                                                 "  defineConstraints: {A: 1}\n"
                                                                 "  platformData:\n"
                                                                 "  - first:\n"
                                                                 "      Editor: Editor\n"
                                                                 "    second:\n"
                                                                 "      enabled: 1\n"
                                                                 "  - first: Win64\n"
                                                                 "    second:\n"
                                                                 "      enabled: 1\n");
    REQUIRE(fields.plugin);
    CHECK(*fields.plugin == PluginImportSettings{});
    CHECK(fields.warnings ==
          std::vector<std::string>{
              "/p/B.dll.meta: PluginImporter.isExplicitlyReferenced is not 0 or 1: not read",
              "/p/B.dll.meta: PluginImporter.defineConstraints is not a list: not read",
              "/p/B.dll.meta: PluginImporter.platformData has an entry that is not {first: "
              "{group: name}, second: {enabled: 0 or 1}}: not read (every platform)"});

    const UnityMetaFile list = parseUnityMeta("/p/C.dll.meta", "- a\n- b\n");
    CHECK(list.warnings ==
          std::vector<std::string>{"/p/C.dll.meta: is not a YAML mapping: not read"});
    CHECK(parseUnityMeta("/p/D.dll.meta", "").warnings.empty());
}

TEST_CASE("unity meta: files: none is Unity's defaults without a word, one too large is not "
          "read") {
    TempDir dir("unity-meta");
    const UnityMetaFile none = readUnityMeta(dir / "Missing.dll.meta");
    CHECK(none.warnings.empty());
    CHECK_FALSE(none.plugin);

    writeFile(dir / "Tween.dll.meta", std::string(kUnity2021PluginMeta));
    const UnityMetaFile read = readUnityMeta(dir / "Tween.dll.meta");
    CHECK(read.guid == "5b5e1c0a5f6b4e2c9d7f1a2b3c4d5e6f");
    REQUIRE(read.plugin);
    CHECK(read.plugin->platforms.size() == 5);

    writeFile(dir / "Huge.dll.meta",
              "guid: 5b5e1c0a5f6b4e2c9d7f1a2b3c4d5e6f\n#" + std::string(2u << 20, 'x') + "\n");
    const UnityMetaFile huge = readUnityMeta(dir / "Huge.dll.meta");
    CHECK(huge.guid.empty());
    REQUIRE(huge.warnings.size() == 1);
    CHECK(huge.warnings[0].ends_with("bytes, larger than a .meta file can be (1 MiB): not read"));

    fs::create_directories(dir / "Folder.dll.meta");
    const UnityMetaFile folder = readUnityMeta(dir / "Folder.dll.meta");
    CHECK_FALSE(folder.plugin);
    CHECK(folder.warnings.size() == 1);
}
