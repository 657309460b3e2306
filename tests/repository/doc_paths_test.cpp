// Every path the documentation cites names something in the tree (a moved file would
// otherwise leave the docs pointing at nothing).
#include "doc_paths.hpp"
#include "support/test_support.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace scripthost::repository;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;
namespace fs = std::filesystem;

TEST_CASE("Repository: every path the documentation cites exists") {
    const fs::path root = SCRIPTHOST_SOURCE_DIR;
    std::vector<fs::path> documents;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
         ++it) {
        const std::string name = it->path().filename().string();
        if (it->is_directory() && (name == ".git" || name == "build" || name == "node_modules" ||
                                   name.rfind("build-", 0) == 0)) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && it->path().extension() == ".md")
            documents.push_back(it->path());
    }
    REQUIRE(documents.size() >= 4); // README, ARCHITECTURE, MONO, PROTOCOL at least
    std::string report;
    for (const fs::path& document : documents)
        for (const MissingPath& m : missingDocPaths(root, document))
            report += fmt::format("{}:{}: {}\n", m.document, m.line, m.path);
    CHECK_MESSAGE(report.empty(), report);
}

TEST_CASE("Repository: the documentation check finds a cited path that is not there") {
    TempDir dir("doc-paths");
    const fs::path root = dir.path();
    writeFile(root / "src/a/real.cpp", "");
    writeFile(root / "docs/other.md", "");
    writeFile(root / "docs/guide.md",
              "See `src/a/real.cpp` and `src/a/real.*` and `src/a/` and `src/<folder>/`.\n"
              "```\nsrc/a/gone.cpp in a fence is an example\n```\n"
              "Not `src/a/gone.cpp:12`, nor `src/b/`, nor [the other](other.md#top) but "
              "[this](missing.md), `echo src/a/x` and `unrelated/x.cpp` are not paths.\n");
    const auto missing = missingDocPaths(root, root / "docs/guide.md");
    std::string report;
    for (const MissingPath& m : missing)
        report += fmt::format("{}:{}: {}\n", m.document, m.line, m.path);
    INFO(report);
    REQUIRE(missing.size() == 3);
    CHECK(missing[0].path == "src/a/gone.cpp");
    CHECK(missing[0].line == 5);
    CHECK(missing[1].path == "src/b/");
    CHECK(missing[2].path == "missing.md");
}
