// The watcher and the compiler's source collector agree on what a script source is: in a real
// folder holding every case of the rule's table, the files the watcher reports as added are
// exactly the files collectSources() would build.

#include "compiler_bridge/source_files.hpp"
#include "support/printers.hpp"
#include "support/script_source_cases.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <algorithm>
#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;

TEST_SUITE("script source rule") {
    TEST_CASE_TEMPLATE("the watcher reports exactly what the collector builds", B, InotifyTag,
                       PollingTag) {
        TempFolder temp;
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        Paths expected;
        for (const auto& c : scriptSourceCases) {
            writeFile(temp / c.path, "class C {}");
            if (c.isSource) {
                expected.push_back(temp / c.path);
            }
        }
        std::ranges::sort(expected);

        Paths reported = merged(collectUntilSilent(*watcher)).added;
        std::ranges::sort(reported);
        const Paths collected = scripthost::compiler::collectSources(temp.path());

        CHECK(reported == expected);
        CHECK(collected == expected);
    }
}
