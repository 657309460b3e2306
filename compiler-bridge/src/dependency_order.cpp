#include "dependency_order.hpp"

#include <map>
#include <set>
#include <string>

namespace scripthost::compiler {

std::vector<ScriptAssembly> dependencyOrder(std::vector<ScriptAssembly> assemblies) {
    std::map<std::string, std::size_t> waitingOn; // name -> references not yet placed
    std::map<std::string, std::vector<std::string>> referencedBy;
    std::map<std::string, ScriptAssembly*> byName;
    for (ScriptAssembly& assembly : assemblies) {
        byName[assembly.name] = &assembly;
        waitingOn[assembly.name] = assembly.references.size();
        for (const std::string& reference : assembly.references) {
            referencedBy[reference].push_back(assembly.name);
        }
    }
    std::set<std::string> ready;
    for (const auto& [name, count] : waitingOn) {
        if (count == 0) {
            ready.insert(name);
        }
    }
    std::vector<ScriptAssembly> ordered;
    while (!ready.empty()) {
        const std::string name = *ready.begin();
        ready.erase(ready.begin());
        ordered.push_back(std::move(*byName[name]));
        for (const std::string& dependent : referencedBy[name]) {
            if (--waitingOn[dependent] == 0) {
                ready.insert(dependent);
            }
        }
    }
    return ordered;
}

} // namespace scripthost::compiler
