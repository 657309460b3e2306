// Define constraints as Unity evaluates an .asmdef's `defineConstraints`: symbols, !symbols,
// and terms joined by ||, every entry holding.
#include "compiler_bridge/define_constraints.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using Strings = std::vector<std::string>;

TEST_CASE("define constraints: a symbol must be defined, !symbol must not be") {
    CHECK(defineConstraintsHold({}, {}));
    CHECK_FALSE(defineConstraintsHold({"UNITY_INCLUDE_TESTS"}, {}));
    CHECK(defineConstraintsHold({"UNITY_INCLUDE_TESTS"}, {"UNITY_INCLUDE_TESTS"}));
    CHECK(defineConstraintsHold({"!UNITY_WEBGL"}, {}));
    CHECK_FALSE(defineConstraintsHold({"!UNITY_WEBGL"}, {"UNITY_WEBGL"}));
    CHECK_FALSE(defineConstraintsHold({"DEBUG"}, {"DEBUG_EXTRA"})); // whole names only
}

TEST_CASE("define constraints: every entry must hold, and any term of an entry joined by ||") {
    CHECK_FALSE(defineConstraintsHold({"A", "B"}, {"A"}));
    CHECK(defineConstraintsHold({"A", "B"}, {"B", "A"}));
    CHECK(defineConstraintsHold({"UNITY_IOS || UNITY_ANDROID"}, {"UNITY_ANDROID"}));
    CHECK_FALSE(defineConstraintsHold({"UNITY_IOS || UNITY_ANDROID"}, {"UNITY_EDITOR"}));
    CHECK(defineConstraintsHold({"A||!B"}, {"B"}) == false);
    CHECK(defineConstraintsHold({" A || ! B "}, {}));
}

TEST_CASE("define constraints: what cannot be evaluated is refused and never holds") {
    for (const char* bad :
         {"", "   ", "A && B", "A ||", "|| A", "1ST", "A-B", "!", "A | B", "!!A"}) {
        CHECK_FALSE_MESSAGE(isDefineConstraint(bad), bad);
        CHECK_FALSE_MESSAGE(defineConstraintsHold({bad}, {"A", "B"}), bad);
    }
    for (const char* good : {"A", "!A", "_a1", "A || B || !C", "UNITY_2021_3_OR_NEWER"})
        CHECK_MESSAGE(isDefineConstraint(good), good);
}

TEST_CASE("define constraints: the entries that do not hold, in their order") {
    CHECK(unmetDefineConstraints({"A", "!B", "C || D", "A && B"}, {"A", "B"}) ==
          Strings{"!B", "C || D", "A && B"});
    CHECK(unmetDefineConstraints({"A", "!B"}, {"A"}).empty());
}

TEST_CASE("define constraints: the message of those that do not hold, and of the symbols defined") {
    CHECK(describeUnmetConstraints({"UNITY_INCLUDE_TESTS"}, {}) ==
          "\"UNITY_INCLUDE_TESTS\" do not hold with no symbol defined");
    CHECK(describeUnmetConstraints({"A", "!B", "A && B"}, {"B", "C"}) ==
          "\"A\", \"!B\", \"A && B\" (cannot be evaluated) do not hold with the symbols B, C");
}
