// createProject: `scripthost new` writes a project a user can run into a real temp folder, and
// refuses, before writing anything, a folder that is not empty or a ScriptCore.dll that is
// missing.
#include "new_project.hpp"

#include "../../support/test_support.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

// A stand-in ScriptCore.dll: createProject copies or references it, it does not load it.
fs::path fakeScriptCore(const TempDir& dir) {
    const fs::path core = dir / "ScriptCore.dll";
    writeFile(core, "MZ not really an assembly");
    return core;
}

std::size_t filesUnder(const fs::path& folder) {
    std::size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        count += entry.is_regular_file() ? 1 : 0;
    return count;
}

} // namespace

TEST_CASE("createProject: writes every file it lists into a new folder, created when missing") {
    TempDir dir("new-project");
    NewProjectOptions options;
    options.folder = dir / "games" / "first";
    options.scriptCore = fakeScriptCore(dir);
    auto created = createProject(options);
    REQUIRE_MESSAGE(created, (created ? "" : created.error().message));
    CHECK(created->folder.is_absolute());
    CHECK(fs::equivalent(created->folder, options.folder));
    REQUIRE_FALSE(created->files.empty());
    for (const fs::path& file : created->files) {
        CHECK_MESSAGE(file.is_relative(), file);
        CHECK_MESSAGE(fs::is_regular_file(created->folder / file), file);
    }
    CHECK(filesUnder(created->folder) == created->files.size());
    // It is a project: a configuration file and at least one C# script.
    CHECK(fs::exists(created->folder / "scripthost.toml"));
    CHECK(std::any_of(created->files.begin(), created->files.end(),
                      [](const fs::path& f) { return f.extension() == ".cs"; }));
}

TEST_CASE("createProject: a folder that is not empty is refused and left as it was, unless "
          "forced") {
    TempDir dir("new-project-busy");
    const fs::path folder = dir / "busy";
    fs::create_directories(folder);
    writeFile(folder / "notes.txt", "mine");
    NewProjectOptions options;
    options.folder = folder;
    options.scriptCore = fakeScriptCore(dir);
    auto refused = createProject(options);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("not empty") != std::string::npos);
    CHECK(filesUnder(folder) == 1);
    CHECK(readFile(folder / "notes.txt") == "mine");

    options.force = true;
    auto forced = createProject(options);
    REQUIRE_MESSAGE(forced, (forced ? "" : forced.error().message));
    CHECK(readFile(folder / "notes.txt") == "mine");
    CHECK(filesUnder(folder) == forced->files.size() + 1);
}

TEST_CASE("createProject: a missing ScriptCore.dll is refused before anything is written") {
    TempDir dir("new-project-nocore");
    NewProjectOptions options;
    options.folder = dir / "project";
    options.scriptCore = dir / "nowhere" / "ScriptCore.dll";
    auto refused = createProject(options);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("ScriptCore.dll") != std::string::npos);
    CHECK_FALSE(fs::exists(options.folder));
}
