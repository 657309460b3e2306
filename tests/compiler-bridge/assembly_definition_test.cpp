// parseAssemblyDefinition / readAssemblyDefinition, the .asmref, the .meta GUID rule.
#include "compiler_bridge/assembly_definition.hpp"
#include "compiler_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;

namespace {

/// The error of `result`, or a note that it succeeded (so CHECKs on the text fail loudly).
template <typename T> std::string errorOf(const scripthost::Result<T>& result) {
    return result ? std::string("(no error)") : result.error().message;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::filesystem::path file = "/project/Scripts/Game/Game.asmdef";

} // namespace

TEST_CASE("assembly definition: a Unity-written .asmdef with every field is accepted") {
    // As Unity 2022 writes it, plus a field Unity does not know.
    const auto definition = parseAssemblyDefinition(file, R"({
    "name": "Game.Core",
    "rootNamespace": "Game",
    "references": [
        "Game.Util",
        "GUID:0A1B2C3D4E5F60718293A4B5C6D7E8F9"
    ],
    "includePlatforms": [],
    "excludePlatforms": ["WebGL"],
    "allowUnsafeCode": true,
    "overrideReferences": true,
    "precompiledReferences": ["Newtonsoft.Json.dll"],
    "autoReferenced": false,
    "defineConstraints": ["UNITY_INCLUDE_TESTS"],
    "versionDefines": [{"name": "com.unity.inputsystem", "expression": "1.0", "define": "HAS_INPUT"}],
    "noEngineReferences": false,
    "myToolSetting": 3
})");
    REQUIRE_MESSAGE(definition, errorOf(definition));
    CHECK(definition->file == file);
    CHECK(definition->name == "Game.Core");
    CHECK(definition->rootNamespace == "Game");
    CHECK(definition->references ==
          std::vector<std::string>{"Game.Util", "GUID:0A1B2C3D4E5F60718293A4B5C6D7E8F9"});
    CHECK(definition->allowUnsafeCode);
    CHECK_FALSE(definition->autoReferenced);
    CHECK_FALSE(definition->editorOnly);
    CHECK(definition->guid.empty());
    CHECK(definition->defineConstraints == std::vector<std::string>{"UNITY_INCLUDE_TESTS"});
    CHECK(definition->overrideReferences);
    CHECK(definition->precompiledReferences == std::vector<std::string>{"Newtonsoft.Json.dll"});
    // One warning per unsupported field, each naming the file and the field; none for the
    // fields that have no effect here (excludePlatforms, noEngineReferences).
    const std::vector<std::string> expected{
        file.string() + ": \"myToolSetting\" is not supported, ignored",
        file.string() + ": \"versionDefines\" is not supported, ignored",
    };
    CHECK(definition->warnings == expected);
}

TEST_CASE("assembly definition: defaults, and unsupported fields left empty give no warning") {
    const auto definition = parseAssemblyDefinition(file, R"({"name": "A",
        "overrideReferences": false, "precompiledReferences": [], "defineConstraints": [],
        "versionDefines": []})");
    REQUIRE_MESSAGE(definition, errorOf(definition));
    CHECK(definition->references.empty());
    CHECK_FALSE(definition->allowUnsafeCode);
    CHECK(definition->autoReferenced);
    CHECK_FALSE(definition->editorOnly);
    CHECK_FALSE(definition->overrideReferences);
    CHECK(definition->precompiledReferences.empty());
    CHECK(definition->warnings.empty());
}

TEST_CASE("assembly definition: editor-only is includePlatforms exactly [Editor]") {
    const auto editor =
        parseAssemblyDefinition(file, R"({"name": "A", "includePlatforms": ["Editor"]})");
    const auto more = parseAssemblyDefinition(
        file, R"({"name": "A", "includePlatforms": ["Editor", "LinuxStandalone64"]})");
    const auto excluded =
        parseAssemblyDefinition(file, R"({"name": "A", "excludePlatforms": ["Editor"]})");
    REQUIRE((editor && more && excluded));
    CHECK(editor->editorOnly);
    CHECK_FALSE(more->editorOnly);
    CHECK_FALSE(excluded->editorOnly);
}

TEST_CASE("assembly definition: defineConstraints are kept as written, even one that cannot "
          "be evaluated (the layout says so), and must be an array of strings") {
    const auto definition = parseAssemblyDefinition(
        file, R"({"name": "A", "defineConstraints": ["UNITY_EDITOR || DEBUG", "A && B", "!X"]})");
    REQUIRE_MESSAGE(definition, errorOf(definition));
    CHECK(definition->defineConstraints ==
          std::vector<std::string>{"UNITY_EDITOR || DEBUG", "A && B", "!X"});
    CHECK(definition->warnings.empty());
    const auto wrongType =
        parseAssemblyDefinition(file, R"({"name": "A", "defineConstraints": "X"})");
    CHECK_FALSE(wrongType);
    CHECK(contains(errorOf(wrongType), file.string() + ": \"defineConstraints\""));
}

TEST_CASE("assembly definition: a missing or empty name is an error naming the file") {
    for (const char* text : {R"({"references": []})", R"({"name": ""})", R"({"name": 3})"}) {
        const auto definition = parseAssemblyDefinition(file, text);
        CHECK_FALSE(definition);
        CHECK_MESSAGE(contains(errorOf(definition), file.string() + ": \"name\""), text);
    }
}

TEST_CASE("assembly definition: a known field of the wrong type is an error naming the field") {
    const std::vector<std::pair<std::string, std::string>> cases{
        {R"({"name": "A", "references": "B"})", "\"references\" is not an array of strings"},
        {R"({"name": "A", "references": ["B", 2]})", "\"references\" is not an array of strings"},
        {R"({"name": "A", "references": ["GUID:1234"]})", "\"references\" has \"GUID:1234\""},
        {R"({"name": "A", "references": [""]})", "\"references\" has an empty reference"},
        {R"({"name": "A", "allowUnsafeCode": "yes"})", "\"allowUnsafeCode\" is not true or false"},
        {R"({"name": "A", "autoReferenced": 1})", "\"autoReferenced\" is not true or false"},
        {R"({"name": "A", "includePlatforms": "Editor"})", "\"includePlatforms\" is not an array"},
        {R"({"name": "A", "rootNamespace": []})", "\"rootNamespace\" is not a string"},
        {R"({"name": "A", "versionDefines": {}})", "\"versionDefines\" is not an array"},
        {R"({"name": "A", "overrideReferences": "true"})",
         "\"overrideReferences\" is not true or false"},
        {R"({"name": "A", "precompiledReferences": "A.dll"})",
         "\"precompiledReferences\" is not an array"},
    };
    for (const auto& [text, message] : cases) {
        const auto definition = parseAssemblyDefinition(file, text);
        CHECK_FALSE(definition);
        CHECK_MESSAGE(contains(errorOf(definition), file.string() + ": " + message),
                      errorOf(definition));
    }
}

TEST_CASE("assembly definition: malformed JSON is an error with the file, line and column") {
    const auto definition = parseAssemblyDefinition(file, "{\n  \"name\": \"A\",\n  \"x\": ,\n}");
    CHECK_FALSE(definition);
    CHECK_MESSAGE(
        errorOf(definition).starts_with(file.string() + ":3:8: malformed JSON: syntax error"),
        errorOf(definition));
    const auto notObject = parseAssemblyDefinition(file, R"(["name"])");
    CHECK(errorOf(notObject) == file.string() + ":1:1: the top level is not a JSON object");
    const auto empty = parseAssemblyDefinition(file, "");
    CHECK(contains(errorOf(empty), file.string() + ":1:1: malformed JSON"));
}

TEST_CASE("assembly definition: read from disk with the GUID of its .meta") {
    TempDir dir("asmdef");
    const auto path = dir / "Game.asmdef";
    writeFile(path, "\xEF\xBB\xBF{ \"name\": \"Game\" }"); // a UTF-8 BOM, as some editors write
    writeFile(dir / "Game.asmdef.meta", "fileFormatVersion: 2\r\n"
                                        "guid: 0A1B2C3D4E5F60718293a4b5c6d7e8f9\r\n"
                                        "AssemblyDefinitionImporter:\r\n"
                                        "  externalObjects: {}\r\n"
                                        "  userData: \r\n");
    const auto definition = readAssemblyDefinition(path);
    REQUIRE_MESSAGE(definition, errorOf(definition));
    CHECK(definition->name == "Game");
    CHECK(definition->guid == "0a1b2c3d4e5f60718293a4b5c6d7e8f9");

    const auto missing = readAssemblyDefinition(dir / "Missing.asmdef");
    CHECK(errorOf(missing) == (dir / "Missing.asmdef").string() + ": cannot be read");
}

TEST_CASE(
    "assembly definition: the .meta's top-level guid of 32 hex digits, and a .meta that is not "
    "YAML is the definition's warning") {
    TempDir dir("asmdef-meta");
    const auto meta = dir / "A.asmdef.meta";
    writeFile(dir / "A.asmdef", "{ \"name\": \"A\" }");
    writeFile(meta, "fileFormatVersion: 2\nImporter:\n  guid: 11111111111111111111111111111111\n"
                    "guid:   22222222222222222222222222222222  \n");
    const auto read = readAssemblyDefinition(dir / "A.asmdef");
    REQUIRE_MESSAGE(read, errorOf(read));
    CHECK(read->guid == "22222222222222222222222222222222");
    CHECK(read->warnings.empty());

    writeFile(meta, "guid: 22222222222222222222222222222222\n  - not: [yaml\n");
    const auto definition = readAssemblyDefinition(dir / "A.asmdef");
    REQUIRE_MESSAGE(definition, errorOf(definition));
    CHECK(definition->guid.empty());
    REQUIRE(definition->warnings.size() == 1);
    CHECK(definition->warnings[0].starts_with(meta.string() + ":"));
    CHECK(definition->warnings[0].ends_with("): not read"));
}

TEST_CASE("assembly definition: GUID references are recognised and lower-cased") {
    CHECK(referencedGuid("GUID:0A1B2C3D4E5F60718293A4B5C6D7E8F9") ==
          "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    CHECK_FALSE(referencedGuid("Game.Core"));
    CHECK_FALSE(referencedGuid("GUID:0A1B"));
    CHECK_FALSE(referencedGuid("guid:0a1b2c3d4e5f60718293a4b5c6d7e8f9"));
}

TEST_CASE("assembly definition reference: .asmref names its assembly, extra fields warn") {
    const std::filesystem::path asmrefFile = "/project/Scripts/More/More.asmref";
    const auto byName = parseAssemblyDefinitionReference(asmrefFile, R"({"reference": "Game"})");
    REQUIRE_MESSAGE(byName, errorOf(byName));
    CHECK(byName->reference == "Game");
    CHECK(byName->warnings.empty());

    const auto byGuid = parseAssemblyDefinitionReference(
        asmrefFile, R"({"reference": "GUID:0a1b2c3d4e5f60718293a4b5c6d7e8f9", "extra": 1})");
    REQUIRE_MESSAGE(byGuid, errorOf(byGuid));
    CHECK(byGuid->reference == "GUID:0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    CHECK(byGuid->warnings ==
          std::vector<std::string>{asmrefFile.string() + ": \"extra\" is not supported, ignored"});

    const auto none = parseAssemblyDefinitionReference(asmrefFile, R"({"name": "Game"})");
    CHECK(errorOf(none) == asmrefFile.string() + ": \"reference\" is missing");
    const auto badGuid =
        parseAssemblyDefinitionReference(asmrefFile, R"({"reference": "GUID:xyz"})");
    CHECK(contains(errorOf(badGuid), asmrefFile.string() + ": \"reference\" has \"GUID:xyz\""));
}
