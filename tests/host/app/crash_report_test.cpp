// What the supervisor reads of Mono's crash report, and where a project keeps its state.
#include "crash_report.hpp"
#include "project_state_location.hpp"

#include "../../support/test_support.hpp"

#include <cstdlib>
#include <doctest/doctest.h>

using namespace scripthost;
namespace fs = std::filesystem;

TEST_CASE("crash report: the crashed thread's top frames, by name where Mono gives one") {
    const std::string report = R"({"protocol_version": "0.0.6", "threads": [
      {"crashed": false, "unmanaged_frames": [{"native_address": "0x1", "native_offset": "0x00000"}]},
      {"crashed": true, "thread_name": "Domain unloader", "unmanaged_frames": [
        {"is_managed": "false", "native_address": "0x7f4c682bfffe", "native_offset": "0x00000"},
        {"is_managed": "false", "unmanaged_name": "mono_gc_collect", "native_address": "0x7f00", "native_offset": "0x1a"},
        {"is_managed": "false", "native_address": "0x7f4c6846ad52", "native_offset": "0x00000"}]}]})";
    CHECK(crashedThreadFrames(report) == "0x7f4c682bfffe | mono_gc_collect+0x1a | 0x7f4c6846ad52");
    CHECK(crashedThreadFrames(report, 1) == "0x7f4c682bfffe");
    CHECK(crashedThreadFrames(R"({"threads": [{"crashed": false}]})").empty());
    CHECK(crashedThreadFrames("not json").empty());
    CHECK(crashedThreadFrames(R"({"threads": 3})").empty());
}

TEST_CASE("crash report: Mono's reports are moved out of the working folder into the state folder") {
    testing::TempDir dir("crash-report");
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    testing::writeFile(dir.path() / "mono_crash.0.0.json",
                       R"({"threads": [{"crashed": true, "unmanaged_frames": [{"native_address": "0xabc"}]}]})");
    testing::writeFile(dir.path() / "other.json", "{}");
    const CrashReport collected = collectCrashReport(dir.path() / ".scripthost");
    fs::current_path(before);
    CHECK(collected.file == dir.path() / ".scripthost" / "mono_crash.0.0.json");
    CHECK(collected.topFrames == "0xabc");
    CHECK_FALSE(fs::exists(dir.path() / "mono_crash.0.0.json"));
    CHECK(fs::exists(dir.path() / "other.json"));
}

TEST_CASE("project state: beside the config file when one was read, else one folder per set of "
          "script folders under $XDG_STATE_HOME") {
    testing::TempDir dir("state-location");
    const ProjectStateLocation withConfig = ProjectStateLocation::of(dir.path(), {dir.path() / "scripts"});
    CHECK(withConfig.stateFile == dir.path() / ".scripthost" / "state.json");

    ::setenv("XDG_STATE_HOME", (dir.path() / "xdg").c_str(), 1);
    const ProjectStateLocation a = ProjectStateLocation::of({}, {dir.path() / "game" / "scripts"});
    const ProjectStateLocation aSlash = ProjectStateLocation::of({}, {(dir.path() / "game" / "scripts").string() + "/"});
    const ProjectStateLocation b = ProjectStateLocation::of({}, {dir.path() / "other" / "scripts"});
    CHECK(a.folder.parent_path() == dir.path() / "xdg" / "scripthost");
    CHECK(a.folder.filename().string().starts_with("scripts-"));
    CHECK(a.stateFile == aSlash.stateFile);
    CHECK(a.stateFile != b.stateFile);
    CHECK(a.stateFile.filename() == "state.json");
}
