// Unit tests mirror the sources path for path: host/engine/src/script_host.cpp is tested in
// tests/host/engine/script_host_test.cpp (or, split by aspect, script_host_<aspect>_test.cpp).
// The only exceptions are the composition roots, listed in docs/ARCHITECTURE.md ("Composition
// roots") with the end-to-end test that covers each; a root must not have a unit test of its
// own (it would be no root).
#include "include_rules.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace scripthost::repository;

namespace {

std::string readText(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The test that mirrors `source` (relative to the root): its folder's path without src/,
/// under tests/, the file name with _test.
std::string mirrorOf(std::string source) {
    const std::size_t src = source.find("/src/");
    if (src != std::string::npos)
        source.erase(src, 4);
    return "tests/" + source.substr(0, source.size() - 4) + "_test.cpp";
}

/// Whether `source` has its mirrored test: <name>_test.cpp, or tests split by aspect,
/// <name>_<aspect>_test.cpp (control_server_events_test.cpp tests control_server.cpp).
bool isMirrored(const fs::path& root, const std::string& source) {
    const fs::path mirror = root / mirrorOf(source);
    if (fs::exists(mirror))
        return true;
    const std::string stem = mirror.stem().string(); // <name>_test
    const std::string prefix = stem.substr(0, stem.size() - 5) + "_"; // <name>_
    const fs::path sourceFolder = (root / source).parent_path();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(mirror.parent_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || !name.ends_with("_test.cpp"))
            continue;
        // <name>_<aspect>_test.cpp is another source's own test when <name>_<aspect>.cpp is a
        // source beside this one (script_context_test.cpp does not test script.cpp).
        const std::string other = name.substr(0, name.size() - 9) + ".cpp";
        if (!fs::exists(sourceFolder / other))
            return true;
    }
    return false;
}

/// The first backticked path of each row of the table after `heading`.
std::set<std::string> firstColumn(const std::string& markdown, const std::string& heading) {
    std::set<std::string> out;
    std::istringstream lines(markdown);
    std::string line;
    bool in = false;
    while (std::getline(lines, line)) {
        if (line.rfind("#", 0) == 0) {
            in = line.find(heading) != std::string::npos;
            continue;
        }
        if (!in || line.rfind("| `", 0) != 0)
            continue;
        const std::size_t end = line.find('`', 3);
        out.insert(line.substr(3, end - 3));
    }
    return out;
}

} // namespace

TEST_CASE("Repository: every production source has a mirrored unit test, or is a listed "
          "exception") {
    const fs::path root = SCRIPTHOST_SOURCE_DIR;
    const std::string architecture = readText(root / "docs" / "ARCHITECTURE.md");
    const auto rules = parseFolderRules(architecture, "Where to look");
    const std::set<std::string> roots = firstColumn(architecture, "Composition roots");
    REQUIRE_FALSE(roots.empty());
    std::string missing, needless;
    for (const FolderRule& rule : rules) {
        for (const auto& entry : fs::recursive_directory_iterator(root / rule.folder)) {
            if (!entry.is_regular_file() || entry.path().extension() != ".cpp")
                continue;
            const std::string source = fs::relative(entry.path(), root).generic_string();
            if (source.find("/src/") == std::string::npos)
                continue; // not a library source (e.g. the compile server's C#)
            const bool tested = isMirrored(root, source);
            if (roots.contains(source)) {
                if (tested)
                    needless += source + " (a composition root with a unit test)\n";
            } else if (!tested) {
                missing += source + " → " + mirrorOf(source) + "\n";
            }
        }
    }
    CHECK_MESSAGE(missing.empty(), "sources without their mirrored test:\n" << missing);
    CHECK_MESSAGE(needless.empty(), needless);
    for (const std::string& root_ : roots)
        CHECK_MESSAGE(fs::exists(root / root_), root_);
}

TEST_CASE("Repository: the mirror of a source drops src/ and adds _test") {
    CHECK(mirrorOf("host/engine/src/script_host.cpp") == "tests/host/engine/script_host_test.cpp");
    CHECK(mirrorOf("host/domain/src/carry/field_carry.cpp") ==
          "tests/host/domain/carry/field_carry_test.cpp");
    CHECK(mirrorOf("watcher/src/polling_backend.cpp") == "tests/watcher/polling_backend_test.cpp");
    // Tests split by aspect count; a test of another name does not.
    const fs::path root = SCRIPTHOST_SOURCE_DIR;
    CHECK(isMirrored(root, "host/control/src/control_server.cpp"));   // control_server_*_test
    CHECK(isMirrored(root, "host/model/src/value_conversion.cpp"));   // value_conversion_test
    CHECK_FALSE(isMirrored(root, "host/app/src/main.cpp"));
    CHECK_FALSE(isMirrored(root, "host/engine/src/script.cpp")); // not script_context_test
}
