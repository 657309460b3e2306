// dependencyOrder: every assembly after those it references, ties broken by name.
#include "dependency_order.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;

namespace {

ScriptAssembly assembly(const std::string& name, std::vector<std::string> references = {}) {
    ScriptAssembly a;
    a.name = name;
    a.references = std::move(references);
    return a;
}

std::vector<std::string> names(const std::vector<ScriptAssembly>& assemblies) {
    std::vector<std::string> out;
    for (const ScriptAssembly& a : assemblies) {
        out.push_back(a.name);
    }
    return out;
}

} // namespace

TEST_CASE("dependencyOrder: a chain comes in its order whatever the input's, ties by name") {
    const auto ordered =
        dependencyOrder({assembly("C", {"B"}), assembly("D"), assembly("B", {"A"}), assembly("A")});
    CHECK(names(ordered) == std::vector<std::string>{"A", "B", "C", "D"});
}

TEST_CASE("dependencyOrder: a core, its leaves by name, then what references them all") {
    const auto ordered = dependencyOrder({assembly("Scripts", {"LeafB", "Core", "LeafA"}),
                                          assembly("LeafB", {"Core"}), assembly("LeafA", {"Core"}),
                                          assembly("Core")});
    CHECK(names(ordered) == std::vector<std::string>{"Core", "LeafA", "LeafB", "Scripts"});
    // The assemblies come whole: sources and flags travel with their names.
    auto withSources = assembly("Core");
    withSources.sources = {"/p/Core/A.cs"};
    withSources.allowUnsafeCode = true;
    const auto one = dependencyOrder({withSources});
    REQUIRE(one.size() == 1);
    CHECK(one[0] == withSources);
}

TEST_CASE("dependencyOrder: an assembly waiting on one that is not given is left out") {
    const auto ordered = dependencyOrder({assembly("A"), assembly("B", {"Missing"})});
    CHECK(names(ordered) == std::vector<std::string>{"A"});
}
