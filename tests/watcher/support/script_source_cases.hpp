#pragma once

#include <string_view>

namespace scripthost::watcher::test {

// One root-relative path and whether it is a script source (and why).
struct ScriptSourceCase {
    std::string_view path;
    bool isSource;
    std::string_view why;
};

// The paths the script-source rule is checked against: as a table
// (script_source_rule_test.cpp) and as a real folder that the watcher and the compiler's
// source collector must agree on (script_source_agreement_test.cpp).
inline constexpr ScriptSourceCase scriptSourceCases[] = {
    {"Player.cs", true, "a C# file at the root"},
    {"AI/Enemy.cs", true, "in a sub-folder"},
    {"a/b/c/d/Deep.cs", true, "at any depth"},
    {"Upper.CS", true, "mcs compiles any case of .cs"},
    {"Mixed.Cs", true, "any case"},
    {"Game.Logic.cs", true, "dots in the stem"},
    {"binary/Kept.cs", true, "a folder merely starting with bin"},
    {"objects/Kept.cs", true, "a folder merely starting with obj"},
    {"bin.cs", true, "a file named bin is not a folder"},
    {"Bin/Kept.cs", true, "folder names are exact: only bin and obj are build output"},
    {"notes.txt", false, "another extension"},
    {"Player.csx", false, "another extension"},
    {"Player.cs.bak", false, "a backup copy"},
    {"Player.cs.tmp", false, "a temporary copy"},
    {"Player", false, "no extension"},
    {".cs", false, "no stem: a hidden file"},
    {"bin/Gen.cs", false, "build output"},
    {"obj/Debug/Gen.cs", false, "build output, deeper"},
    {"Game/obj/Gen.cs", false, "build output below the root"},
    {"Game/bin/Debug/Gen.cs", false, "build output below the root"},
    {".git/hooks/x.cs", false, "a hidden folder"},
    {".vscode/Settings.cs", false, "a hidden folder"},
    {"Game/.cache/Gen.cs", false, "a hidden folder below the root"},
    {".Hidden.cs", false, "a hidden file"},
    {"Game/.Hidden.cs", false, "a hidden file below the root"},
    {".#Player.cs", false, "emacs lock link"},
    {"#Player.cs#", false, "emacs autosave"},
    {"Player.cs~", false, "backup"},
    {".Player.cs.swp", false, "vim swap file"},
    {".Player.cs.swo", false, "vim's second swap file"},
    {"Player.cs.swp", false, "vim swap file where dot-files are impossible"},
    {"4913", false, "vim's write probe"},
    {"5036", false, "vim's second write probe"},
};

} // namespace scripthost::watcher::test
