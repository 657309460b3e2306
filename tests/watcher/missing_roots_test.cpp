// MissingRoots: the watch roots that are gone right now, kept sorted and unique, and whether
// a root that exists again has just come back.
#include "missing_roots.hpp"
#include "support/printers.hpp"

#include <doctest/doctest.h>
#include <algorithm>
#include <spdlog/spdlog.h>
#include <thread>

using scripthost::watcher::detail::MissingRoots;
namespace fs = std::filesystem;

TEST_CASE("MissingRoots: marks roots missing once each, sorted, and reports a return once") {
    MissingRoots roots;
    CHECK(roots.list().empty());
    roots.markMissing("/p/scripts");
    roots.markMissing("/a/more");
    roots.markMissing("/p/scripts"); // again: no duplicate
    CHECK(roots.list() == std::vector<fs::path>{"/a/more", "/p/scripts"});
    CHECK(roots.contains("/p/scripts"));
    CHECK_FALSE(roots.contains("/p/other"));

    CHECK(roots.markPresent("/p/scripts"));       // it has just come back
    CHECK_FALSE(roots.markPresent("/p/scripts")); // and is not news a second time
    CHECK_FALSE(roots.markPresent("/never/missing"));
    CHECK(roots.list() == std::vector<fs::path>{"/a/more"});
}

TEST_CASE("MissingRoots: the watcher thread marks while another thread reads") {
    MissingRoots roots;
    spdlog::set_level(spdlog::level::err); // every mark logs a line
    std::thread marker([&] {
        for (int i = 0; i < 400; ++i) {
            const fs::path root = "/root" + std::to_string(i % 7);
            if (i % 2 == 0)
                roots.markMissing(root);
            else
                (void)roots.markPresent(root);
        }
    });
    for (int i = 0; i < 400; ++i) {
        const auto list = roots.list();
        CHECK(std::is_sorted(list.begin(), list.end()));
        CHECK(std::adjacent_find(list.begin(), list.end()) == list.end());
    }
    marker.join();
}
