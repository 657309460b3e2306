#include "support/printers.hpp"
#include "watcher/change_set.hpp"

#include <doctest/doctest.h>

using scripthost::watcher::ChangeSet;
using Paths = std::vector<std::filesystem::path>;

TEST_SUITE("ChangeSet") {
    TEST_CASE("empty() and size() count listed files only") {
        ChangeSet set;
        CHECK(set.empty());
        set.rescanned = true;
        CHECK(set.empty());
        set.removed = {"/r/a.cs"};
        set.added = {"/r/b.cs", "/r/c.cs"};
        CHECK_FALSE(set.empty());
        CHECK(set.size() == 3);
    }

    TEST_CASE("normalize() sorts (component-wise, like std::filesystem::path) and deduplicates") {
        ChangeSet set;
        set.added = {"/r/b.cs", "/r/a.cs", "/r/b.cs"};
        set.modified = {"/r/z/y.cs", "/r/z.cs"};
        set.normalize();
        CHECK(set.added == Paths{"/r/a.cs", "/r/b.cs"});
        // "z" < "z.cs" as components, so a folder's files sort before a sibling "z.cs".
        CHECK(set.modified == Paths{"/r/z/y.cs", "/r/z.cs"});
    }

    TEST_CASE("mergeLater() composes two windows as if they were one") {
        ChangeSet earlier;
        earlier.added = {"/r/new-then-gone.cs", "/r/new-then-edited.cs"};
        earlier.modified = {"/r/edited-then-removed.cs", "/r/edited-twice.cs"};
        earlier.removed = {"/r/removed-then-back.cs"};

        ChangeSet later;
        later.added = {"/r/removed-then-back.cs", "/r/only-later.cs"};
        later.modified = {"/r/new-then-edited.cs", "/r/edited-twice.cs"};
        later.removed = {"/r/new-then-gone.cs", "/r/edited-then-removed.cs"};
        later.rescanned = true;

        earlier.mergeLater(later);
        CHECK(earlier.complete.empty());
        CHECK(earlier.added == Paths{"/r/new-then-edited.cs", "/r/only-later.cs"});
        CHECK(earlier.modified == Paths{"/r/edited-twice.cs", "/r/removed-then-back.cs"});
        CHECK(earlier.removed == Paths{"/r/edited-then-removed.cs"});
        CHECK(earlier.rescanned);
    }

    TEST_CASE("normalize() and mergeLater() keep complete to what the latest set said") {
        ChangeSet earlier;
        earlier.modified = {"/r/closed-then-written.so", "/r/closed-then-quiet.so",
                            "/r/closed-then-removed.so", "/r/written-then-closed.so"};
        earlier.complete = {"/r/closed-then-written.so", "/r/closed-then-quiet.so",
                            "/r/closed-then-removed.so", "/r/closed-then-quiet.so"};
        earlier.normalize();
        CHECK(earlier.complete == Paths{"/r/closed-then-quiet.so", "/r/closed-then-removed.so",
                                        "/r/closed-then-written.so"});

        ChangeSet later;
        later.modified = {"/r/closed-then-written.so", "/r/written-then-closed.so"};
        later.complete = {"/r/written-then-closed.so"};
        later.removed = {"/r/closed-then-removed.so"};
        earlier.mergeLater(later);
        CHECK(earlier.complete == Paths{"/r/closed-then-quiet.so", "/r/written-then-closed.so"});
        CHECK(earlier.removed == Paths{"/r/closed-then-removed.so"});
    }
}
