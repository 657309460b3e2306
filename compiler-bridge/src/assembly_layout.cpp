#include "compiler_bridge/assembly_layout.hpp"

#include "compiler_bridge/assembly_definition.hpp"
#include "compiler_bridge/define_constraints.hpp"
#include "compiler_bridge/source_files.hpp"
#include "dependency_order.hpp"
#include "layout_text.hpp"
#include "precompiled_assemblies.hpp"
#include "watcher/script_source_rule.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

namespace scripthost::compiler {
namespace {

namespace fs = std::filesystem;

bool isDefinitionFile(const fs::path& file) {
    const std::string ext = lowerExtension(file);
    return ext == ".asmdef" || ext == ".asmref";
}

/// What a walk of one root finds besides the sources.
struct LayoutFiles {
    std::vector<fs::path> definitions; ///< .asmdef and .asmref files
    std::vector<fs::path> precompiled; ///< .dll files outside Editor/ folders
};

/// The .asmdef, .asmref and .dll files under `root`, in folders collectSources descends into.
LayoutFiles layoutFiles(const fs::path& root) {
    LayoutFiles files;
    std::error_code ec;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
        const fs::path relative = it->path().lexically_relative(root);
        std::error_code typeError;
        if (it->is_directory(typeError)) {
            if (!watcher::isScriptFolder(relative)) {
                it.disable_recursion_pending();
            }
            continue;
        }
        const std::string name = it->path().filename().string();
        if (isDefinitionFile(it->path()) && !name.starts_with('.') &&
            !watcher::isEditorTempFile(name) && it->is_regular_file(typeError)) {
            files.definitions.push_back(it->path());
        } else if (lowerExtension(it->path()) == ".dll" &&
                   watcher::isPrecompiledAssemblyFile(relative) && !inEditorFolder(relative) &&
                   it->is_regular_file(typeError)) {
            files.precompiled.push_back(normalPath(it->path()));
        }
    }
    return files;
}

std::string described(const AssemblyDefinition& definition) {
    return definition.name + " (" + definition.file.string() + ")";
}

/// Reads one layout: the definitions, their references, the sources' assemblies.
class LayoutReader {
public:
    explicit LayoutReader(const AssemblyLayoutOptions& options) : options_(options) {}

    Result<AssemblyLayout> read(const std::vector<fs::path>& roots);

private:
    void readDefinitions(const std::vector<fs::path>& roots);
    void indexNames();
    void checkPrecompiledNames();
    void resolvePrecompiled();
    std::optional<std::size_t> resolve(const fs::path& file, const std::string& reference);
    void resolveReferences();
    void resolveAsmrefs();
    void findCycles();
    void assignSources(const std::vector<fs::path>& roots);
    void assignSource(const fs::path& root, const fs::path& source);
    std::vector<ScriptAssembly> assemblies();
    /// Not built: editor-only, or its defineConstraints do not hold with options_.defines.
    bool leftOut(std::size_t i) const { return definitions_[i].editorOnly || constrainedOut_[i]; }

    const AssemblyLayoutOptions& options_;
    std::vector<std::string> errors_;
    AssemblyLayout layout_;
    std::vector<AssemblyDefinition> definitions_;          // sorted by file
    std::vector<bool> constrainedOut_;                     // per definition: see leftOut
    std::vector<AssemblyDefinitionReference> asmrefFiles_; // sorted by file
    std::map<std::string, std::vector<std::size_t>> byName_;
    std::map<std::string, std::vector<std::size_t>> byGuid_;
    std::vector<std::vector<std::size_t>> edges_;           // resolved references, per definition
    std::map<fs::path, std::size_t> folderOwner_;           // folder -> definition
    std::map<std::size_t, std::vector<fs::path>> joinedBy_; // definition -> its asmrefs
    std::vector<std::vector<fs::path>> sources_;            // per definition
    std::vector<std::vector<std::string>> precompiledRefs_; // per definition: names
    std::vector<PluginLeftOut> pluginsLeftOut_; // for their platforms or define constraints
    std::vector<fs::path> defaultSources_;
};

void LayoutReader::readDefinitions(const std::vector<fs::path>& roots) {
    std::map<fs::path, std::vector<fs::path>> byFolder;
    std::set<fs::path> plugins; // a root inside another root finds them twice
    for (const fs::path& root : roots) {
        LayoutFiles found = layoutFiles(root);
        for (fs::path& file : found.definitions) {
            byFolder[file.parent_path()].push_back(std::move(file));
        }
        plugins.insert(found.precompiled.begin(), found.precompiled.end());
    }
    FoundPlugins found = readPlugins({plugins.begin(), plugins.end()}, options_.defines);
    layout_.precompiled = std::move(found.used);
    pluginsLeftOut_ = std::move(found.leftOut);
    layout_.warnings.insert(layout_.warnings.end(), found.warnings.begin(), found.warnings.end());
    for (auto& [folder, files] : byFolder) {
        std::ranges::sort(files);
        files.erase(std::unique(files.begin(), files.end()), files.end());
        if (files.size() > 1) {
            std::string message = "more than one assembly definition file in " + folder.string();
            for (const fs::path& file : files) {
                message += (&file == &files.front() ? ": " : ", ") + file.string();
            }
            errors_.push_back(std::move(message));
            continue;
        }
        const fs::path& file = files.front();
        if (lowerExtension(file) == ".asmdef") {
            auto definition = readAssemblyDefinition(file);
            if (!definition) {
                errors_.push_back(definition.error().message);
                continue;
            }
            const bool constrainedOut =
                !definition->editorOnly &&
                !defineConstraintsHold(definition->defineConstraints, options_.defines);
            if (!definition->editorOnly && !constrainedOut) { // else not built: not checked
                std::ranges::move(definition->warnings, std::back_inserter(layout_.warnings));
            }
            folderOwner_[folder] = definitions_.size();
            definitions_.push_back(std::move(*definition));
            constrainedOut_.push_back(constrainedOut);
        } else {
            auto asmref = readAssemblyDefinitionReference(file);
            if (!asmref) {
                errors_.push_back(asmref.error().message);
                continue;
            }
            std::ranges::move(asmref->warnings, std::back_inserter(layout_.warnings));
            asmrefFiles_.push_back(std::move(*asmref));
        }
    }
}

void LayoutReader::indexNames() {
    for (std::size_t i = 0; i < definitions_.size(); ++i) {
        byName_[definitions_[i].name].push_back(i);
        if (!definitions_[i].guid.empty()) {
            byGuid_[definitions_[i].guid].push_back(i);
        }
        if (definitions_[i].name == options_.defaultAssembly) {
            errors_.push_back(definitions_[i].file.string() + ": the name " + definitions_[i].name +
                              " is the default assembly's (sources under no definition)");
        }
    }
    for (const auto& [name, indices] : byName_) {
        if (indices.size() > 1) {
            std::string message = "assembly " + name + " is defined more than once:";
            for (std::size_t i : indices) {
                message += " " + definitions_[i].file.string();
            }
            errors_.push_back(std::move(message));
        }
    }
}

void LayoutReader::checkPrecompiledNames() {
    const std::vector<PrecompiledAssembly>& plugins = layout_.precompiled; // sorted by name
    for (std::size_t i = 0; i < plugins.size(); ++i) {
        const PrecompiledAssembly& plugin = plugins[i];
        if (i > 0 && plugins[i - 1].name == plugin.name) {
            continue; // reported with the first
        }
        std::string files;
        for (std::size_t j = i + 1; j < plugins.size() && plugins[j].name == plugin.name; ++j) {
            files += " " + plugins[j].file.string();
        }
        if (!files.empty()) {
            errors_.push_back("precompiled assembly " + plugin.name +
                              " is found more than once: " + plugin.file.string() + files);
        }
        if (plugin.name == options_.defaultAssembly) {
            errors_.push_back(plugin.file.string() + ": the name " + plugin.name +
                              " is the default assembly's (sources under no definition)");
        }
        if (const auto defined = byName_.find(plugin.name); defined != byName_.end()) {
            errors_.push_back(plugin.file.string() + ": the precompiled assembly " + plugin.name +
                              " has the name of " +
                              described(definitions_[defined->second.front()]));
        }
    }
}

void LayoutReader::resolvePrecompiled() {
    precompiledRefs_.assign(definitions_.size(), {});
    for (std::size_t i = 0; i < definitions_.size(); ++i) {
        if (leftOut(i)) {
            continue; // not built: what it names is Unity's business
        }
        PrecompiledReferences found =
            precompiledReferencesOf(definitions_[i], layout_.precompiled, pluginsLeftOut_);
        for (const std::string& unused : found.leftOut) {
            layout_.warnings.push_back(definitions_[i].file.string() + ": precompiled reference " +
                                       unused);
        }
        for (const std::string& missing : found.missing) {
            errors_.push_back(definitions_[i].file.string() + ": missing precompiled reference: " +
                              missing + " (no such .dll in the script folders, outside Editor/)");
        }
        precompiledRefs_[i] = std::move(found.names);
    }
}

std::optional<std::size_t> LayoutReader::resolve(const fs::path& file,
                                                 const std::string& reference) {
    const std::optional<std::string> guid = referencedGuid(reference);
    const auto& index = guid ? byGuid_ : byName_;
    const auto found = index.find(guid ? *guid : reference);
    if (found == index.end()) {
        errors_.push_back(
            file.string() + ": missing reference: " + reference +
            (guid ? " (no .asmdef.meta has this guid)" : " (no .asmdef has this name)"));
        return std::nullopt;
    }
    if (found->second.size() > 1) {
        // Two definitions of one name are reported by indexNames; two metas of one GUID here.
        if (guid) {
            std::string message = file.string() + ": " + reference + " is the guid of";
            for (std::size_t i : found->second) {
                message += " " + definitions_[i].file.string() + ".meta";
            }
            errors_.push_back(std::move(message));
        }
        return std::nullopt;
    }
    return found->second.front();
}

void LayoutReader::resolveReferences() {
    edges_.assign(definitions_.size(), {});
    for (std::size_t i = 0; i < definitions_.size(); ++i) {
        const AssemblyDefinition& definition = definitions_[i];
        if (leftOut(i)) {
            continue; // not built: its references are Unity's business
        }
        for (const std::string& reference : definition.references) {
            const std::optional<std::size_t> target = resolve(definition.file, reference);
            if (!target || std::ranges::find(edges_[i], *target) != edges_[i].end()) {
                continue;
            }
            if (definitions_[*target].editorOnly) {
                errors_.push_back(definition.file.string() + ": the runtime assembly " +
                                  definition.name + " references the editor-only assembly " +
                                  described(definitions_[*target]));
                continue;
            }
            if (constrainedOut_[*target]) { // as in Unity: not an error, its types are not there
                layout_.warnings.push_back(definition.file.string() + ": " + definition.name +
                                           " references " + described(definitions_[*target]) +
                                           ", which its defineConstraints leave out");
                continue;
            }
            edges_[i].push_back(*target);
        }
    }
}

void LayoutReader::resolveAsmrefs() {
    for (const AssemblyDefinitionReference& asmref : asmrefFiles_) {
        const std::optional<std::size_t> target = resolve(asmref.file, asmref.reference);
        if (target) {
            folderOwner_[asmref.file.parent_path()] = *target;
            joinedBy_[*target].push_back(asmref.file);
        }
    }
}

void LayoutReader::findCycles() {
    std::set<std::set<std::size_t>> reported;
    std::vector<std::size_t> order(definitions_.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::ranges::sort(order, {}, [&](std::size_t i) { return definitions_[i].name; });
    for (std::size_t start : order) {
        // Breadth first from `start` to the shortest way back to it, if there is one.
        std::vector<std::optional<std::size_t>> cameFrom(definitions_.size());
        std::deque<std::size_t> queue{start};
        std::optional<std::size_t> last;
        while (!queue.empty() && !last) {
            const std::size_t at = queue.front();
            queue.pop_front();
            for (std::size_t next : edges_[at]) {
                if (next == start) {
                    last = at;
                    break;
                }
                if (!cameFrom[next]) {
                    cameFrom[next] = at;
                    queue.push_back(next);
                }
            }
        }
        if (!last) {
            continue;
        }
        std::vector<std::size_t> cycle{*last};
        while (cycle.back() != start) {
            cycle.push_back(*cameFrom[cycle.back()]);
        }
        std::ranges::reverse(cycle);
        if (!reported.insert(std::set<std::size_t>(cycle.begin(), cycle.end())).second) {
            continue;
        }
        std::string message = "reference cycle:";
        for (std::size_t i : cycle) {
            message += " " + described(definitions_[i]) + " ->";
        }
        errors_.push_back(message + " " + definitions_[start].name);
    }
}

void LayoutReader::assignSource(const fs::path& root, const fs::path& source) {
    bool inEditorFolder = false;
    for (fs::path folder = source.parent_path();; folder = folder.parent_path()) {
        const auto owner = folderOwner_.find(folder);
        if (owner != folderOwner_.end()) {
            if (leftOut(owner->second)) {
                layout_.skipped.push_back(source);
            } else {
                sources_[owner->second].push_back(source);
            }
            return;
        }
        if (folder == root || !folder.has_relative_path()) {
            break;
        }
        inEditorFolder = inEditorFolder || folder.filename() == "Editor";
    }
    if (inEditorFolder) {
        layout_.skipped.push_back(source);
    } else {
        defaultSources_.push_back(source);
    }
}

void LayoutReader::assignSources(const std::vector<fs::path>& roots) {
    sources_.assign(definitions_.size(), {});
    std::set<fs::path> seen; // a root inside another root lists its sources twice
    for (const fs::path& root : roots) {
        for (const fs::path& source : collectSources(root)) {
            if (seen.insert(source).second) {
                assignSource(root, source);
            }
        }
    }
}

std::vector<ScriptAssembly> LayoutReader::assemblies() {
    std::vector<ScriptAssembly> out;
    ScriptAssembly fallback;
    fallback.name = options_.defaultAssembly;
    for (std::size_t i = 0; i < definitions_.size(); ++i) {
        const AssemblyDefinition& definition = definitions_[i];
        if (constrainedOut_[i]) {
            layout_.warnings.push_back(
                definition.file.string() + ": assembly " + definition.name +
                " is not built: its defineConstraints " +
                describeUnmetConstraints(definition.defineConstraints, options_.defines));
        }
        if (leftOut(i)) {
            continue;
        }
        if (sources_[i].empty()) {
            layout_.warnings.push_back(definition.file.string() + ": assembly " + definition.name +
                                       " has no sources and is not built");
            continue;
        }
        ScriptAssembly assembly;
        assembly.name = definition.name;
        assembly.definition = definition.file;
        assembly.sources = sources_[i];
        std::ranges::sort(assembly.sources);
        for (std::size_t target : edges_[i]) {
            if (!sources_[target].empty()) {
                assembly.references.push_back(definitions_[target].name);
            }
        }
        assembly.precompiledReferences = precompiledRefs_[i];
        assembly.asmrefs = joinedBy_[i];
        std::ranges::sort(assembly.asmrefs);
        assembly.allowUnsafeCode = definition.allowUnsafeCode;
        assembly.autoReferenced = definition.autoReferenced;
        assembly.rootNamespace = definition.rootNamespace;
        if (assembly.autoReferenced) {
            fallback.references.push_back(assembly.name);
        }
        out.push_back(std::move(assembly));
    }
    if (!defaultSources_.empty()) {
        std::ranges::sort(fallback.references);
        fallback.precompiledReferences = autoReferencedPrecompiled(layout_.precompiled);
        fallback.sources = std::move(defaultSources_);
        std::ranges::sort(fallback.sources);
        out.push_back(std::move(fallback));
    }
    return out;
}

Result<AssemblyLayout> LayoutReader::read(const std::vector<fs::path>& givenRoots) {
    std::vector<fs::path> roots;
    for (const fs::path& root : givenRoots) {
        roots.push_back(normalPath(root));
    }
    std::ranges::sort(roots);
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    readDefinitions(roots);
    indexNames();
    checkPrecompiledNames();
    resolveReferences();
    resolvePrecompiled();
    resolveAsmrefs();
    findCycles();
    if (!errors_.empty()) {
        std::string message;
        for (const std::string& error : errors_) {
            message += (message.empty() ? "" : "\n") + error;
        }
        return fail(std::move(message));
    }
    assignSources(roots);
    layout_.assemblies = dependencyOrder(assemblies());
    std::ranges::sort(layout_.skipped);
    return std::move(layout_);
}

} // namespace

const ScriptAssembly* AssemblyLayout::find(std::string_view name) const {
    const auto it = std::ranges::find(assemblies, name, &ScriptAssembly::name);
    return it == assemblies.end() ? nullptr : &*it;
}

const ScriptAssembly* AssemblyLayout::assemblyOf(const fs::path& source) const {
    const fs::path path = normalPath(source);
    for (const ScriptAssembly& assembly : assemblies) {
        if (std::ranges::binary_search(assembly.sources, path)) {
            return &assembly;
        }
    }
    return nullptr;
}

const PrecompiledAssembly* AssemblyLayout::findPrecompiled(std::string_view name) const {
    const auto it = std::ranges::find(precompiled, name, &PrecompiledAssembly::name);
    return it == precompiled.end() ? nullptr : &*it;
}

std::vector<std::string> AssemblyLayout::dependentsOf(std::string_view name) const {
    std::set<std::string, std::less<>> reached{std::string(name)};
    std::vector<std::string> out;
    for (const ScriptAssembly& assembly : assemblies) {
        const bool dependent = std::ranges::any_of(
            assembly.references, [&](const auto& ref) { return reached.contains(ref); });
        if (dependent && reached.insert(assembly.name).second) {
            out.push_back(assembly.name);
        }
    }
    return out;
}

Result<AssemblyLayout> readAssemblyLayout(const std::vector<fs::path>& roots,
                                          const AssemblyLayoutOptions& options) {
    return LayoutReader(options).read(roots);
}

} // namespace scripthost::compiler
