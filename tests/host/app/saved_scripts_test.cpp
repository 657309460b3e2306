// The code saved beside the state file: one assembly or a set in dependency order, a new save
// replacing the last one whole, the file hosts before the manifest wrote, and a manifest that
// cannot be trusted refused with its name. Real temp folders.
#include "../../support/test_support.hpp"
#include "saved_scripts.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

AssemblyFile assembly(std::string name, std::string image, std::string symbols = {}) {
    AssemblyFile file;
    file.name = std::move(name);
    file.image.assign(image.begin(), image.end());
    file.symbols.assign(symbols.begin(), symbols.end());
    return file;
}

std::string text(const std::vector<char>& bytes) {
    return {bytes.begin(), bytes.end()};
}

/// The saved files' names and their images' text, in order.
std::vector<std::string> savedImages(const fs::path& state) {
    auto files = savedScriptsFiles(state);
    REQUIRE_MESSAGE(files, (files ? "" : files.error().message));
    std::vector<std::string> out;
    for (const fs::path& dll : *files) {
        auto read = AssemblyFile::read(dll);
        REQUIRE(read);
        out.push_back(dll.filename().string() + "=" + text(read->image));
    }
    return out;
}

} // namespace

TEST_CASE("saved scripts: a set is read back in its order with its symbols, and the next save "
          "replaces it whole") {
    TempDir dir("saved-scripts");
    const fs::path state = dir / "world.json";
    CHECK(savedScriptsFiles(state)->empty()); // nothing saved yet

    REQUIRE(writeSavedScripts(state, {assembly("Core.dll", "core-1", "core-mdb"),
                                      assembly("Leaf.dll", "leaf-1"),
                                      assembly("Scripts.dll", "default-1")}));
    CHECK(savedImages(state) ==
          std::vector<std::string>{"Core.dll=core-1", "Leaf.dll=leaf-1", "Scripts.dll=default-1"});
    auto core = AssemblyFile::read(savedScriptsFiles(state)->front());
    REQUIRE(core);
    CHECK(text(core->symbols) == "core-mdb");

    REQUIRE(writeSavedScripts(state, {assembly("Scripts.dll", "single-2")}));
    CHECK(savedImages(state) == std::vector<std::string>{"Scripts.dll=single-2"});
    int sets = 0;
    for (const auto& entry : fs::directory_iterator(savedScriptsFolder(state)))
        sets += entry.is_directory() ? 1 : 0;
    CHECK(sets == 1); // the older set is gone
}

TEST_CASE("saved scripts: the Scripts.dll an older host saved is read when there is no manifest, "
          "and a new save takes its place") {
    TempDir dir("saved-scripts-legacy");
    const fs::path state = dir / "world.json";
    writeFile(savedScriptsFolder(state) / "Scripts.dll", "old-host");
    CHECK(savedImages(state) == std::vector<std::string>{"Scripts.dll=old-host"});
    REQUIRE(writeSavedScripts(state, {assembly("Core.dll", "core"), assembly("Scripts.dll", "d")}));
    CHECK(savedImages(state) == std::vector<std::string>{"Core.dll=core", "Scripts.dll=d"});
    CHECK_FALSE(fs::exists(savedScriptsFolder(state) / "Scripts.dll"));
}

TEST_CASE("saved scripts: a manifest that is not one, names a missing file or a path outside its "
          "set is an error naming the manifest") {
    TempDir dir("saved-scripts-bad");
    const fs::path state = dir / "world.json";
    REQUIRE(writeSavedScripts(state, {assembly("Core.dll", "core")}));
    const fs::path manifest = savedScriptsFolder(state) / "assemblies.json";
    std::string content;
    std::string expected;
    SUBCASE("not JSON") {
        content = "{ not json";
        expected = "not a saved scripts manifest";
    }
    SUBCASE("a missing file") {
        content = R"({"folder": "set-0", "assemblies": ["Core.dll", "Gone.dll"]})";
        expected = "Gone.dll is missing";
    }
    SUBCASE("a path, not a file name") {
        content = R"({"folder": "set-0", "assemblies": ["../../world.json"]})";
        expected = "not a file name";
    }
    SUBCASE("a folder that is not a set") {
        content = R"({"folder": "..", "assemblies": ["Core.dll"]})";
        expected = "not a set-<N> folder";
    }
    writeFile(manifest, content);
    auto files = savedScriptsFiles(state);
    REQUIRE_FALSE(files);
    CHECK_MESSAGE(files.error().message.find("assemblies.json") != std::string::npos,
                  files.error().message);
    CHECK_MESSAGE(files.error().message.find(expected) != std::string::npos, files.error().message);
}
