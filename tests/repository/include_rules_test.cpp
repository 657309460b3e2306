// docs/ARCHITECTURE.md's folder table is the dependency rule: every #include of the folders
// it names is checked against it, and the checker itself is tried on a small tree that breaks
// each rule once.
#include "include_rules.hpp"
#include "support/test_support.hpp"

#include <doctest/doctest.h>
#include <algorithm>
#include <fmt/format.h>
#include <fstream>

using namespace scripthost::repository;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;

namespace {

std::string describe(const std::vector<IncludeViolation>& violations) {
    std::string text;
    for (const IncludeViolation& v : violations)
        text += fmt::format("{}:{}: #include {}: {}\n", v.file, v.line, v.included, v.reason);
    return text;
}

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), {}};
}

constexpr const char* kTable = R"(# t
## Where to look: folders
| folder | owns | may include |
|---|---|---|
| `low/` | the bottom | — |
| `mid/` | the middle | `low/` |
| `top/` | the top | `mid/`, `low/`, `low/internal/` |
)";

} // namespace

TEST_CASE("Repository: every #include of the tree follows docs/ARCHITECTURE.md's folder table") {
    const std::filesystem::path root = SCRIPTHOST_SOURCE_DIR;
    const auto rules =
        parseFolderRules(readText(root / "docs" / "ARCHITECTURE.md"), "Where to look");
    // The table names every library folder of the host (a folder missing from it would
    // go unchecked).
    for (const char* folder : {"posix/", "sdk/", "host/model/", "host/runtime/", "host/domain/",
                               "host/engine/", "host/reload/", "host/glue/", "host/app/"}) {
        CHECK_MESSAGE(std::any_of(rules.begin(), rules.end(),
                                  [&](const FolderRule& r) { return r.folder == folder; }),
                      folder);
    }
    const auto violations = checkIncludes(root, rules);
    CHECK_MESSAGE(violations.empty(), describe(violations));
}

TEST_CASE("Repository: the include checker reports each kind of forbidden include") {
    TempDir dir("include-rules");
    const auto root = dir.path();
    const auto rules = parseFolderRules(kTable, "Where to look");
    REQUIRE(rules.size() == 3);
    CHECK(rules[2].mayInclude == std::set<std::string>{"mid/", "low/", "low/internal/"});

    writeFile(root / "low/include/low/a.hpp", "#pragma once\n#include <vector>\n");
    writeFile(root / "low/internal/low/b.hpp", "#pragma once\n#include <mono/jit/jit.h>\n");
    writeFile(root / "low/src/private.hpp", "#pragma once\n");
    writeFile(root / "low/src/a.cpp", "#include \"low/a.hpp\"\n#include \"private.hpp\"\n");
    // mid may include low's public header, not its internal one, and nothing of top.
    writeFile(root / "mid/include/mid/m.hpp", "#pragma once\n#include \"low/a.hpp\"\n");
    writeFile(root / "mid/src/m.cpp",
              "#include \"mid/m.hpp\"\n#include \"low/b.hpp\"\n#include \"top/t.hpp\"\n");
    // top may include everything below, but not low's private headers; its public header
    // may not include Mono.
    writeFile(root / "top/include/top/t.hpp", "#pragma once\n#include <mono/metadata/object.h>\n");
    writeFile(root / "top/src/t.cpp", "#include \"low/b.hpp\"\n#include \"mid/m.hpp\"\n"
                                      "#include \"../../low/src/private.hpp\"\n");

    const auto violations = checkIncludes(root, rules);
    INFO(describe(violations));
    REQUIRE(violations.size() == 4);
    CHECK(violations[0].file == "mid/src/m.cpp");
    CHECK(violations[0].line == 2);
    CHECK(violations[0].reason.find("may not include low/internal/") != std::string::npos);
    CHECK(violations[1].file == "mid/src/m.cpp");
    CHECK(violations[1].line == 3);
    CHECK(violations[1].reason.find("may not include top/") != std::string::npos);
    CHECK(violations[2].file == "top/include/top/t.hpp");
    CHECK(violations[2].included == "mono/metadata/object.h");
    CHECK(violations[3].file == "top/src/t.cpp");
    CHECK(violations[3].line == 3);
    CHECK(violations[3].reason.find("private header of low/") != std::string::npos);
}

TEST_CASE("Repository: a folder table that is missing, or names a folder that is not there, "
          "is an error") {
    CHECK_THROWS(parseFolderRules("# t\n## Other\n| `a/` | x | |\n", "Where to look"));
    TempDir dir("include-rules-missing");
    const auto violations = checkIncludes(dir.path(), parseFolderRules(kTable, "Where to look"));
    CHECK(violations.size() == 3);
    CHECK(violations[0].reason == "the folder does not exist");
}
