#include "bench_projects.hpp"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace scripthost::bench {

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush())
        throw BenchError("cannot write " + path.string());
}

std::string probeSource(int edit, bool publicMember) {
    return fmt::format(R"(using UEngine;

namespace Bench
{{
    /// Logs once, from the first Update of each new build, which edit it was built from.
    public class EditProbe : UMonoScriptComponent
    {{
        const int Edit = {0};
        [SerializeField] int liveEdit;
        {1}

        public override void Update(float deltaTime)
        {{
            if (liveEdit == Edit) return;
            liveEdit = Edit;
            Debug.Log("edit-to-live probe " + Edit);
        }}
    }}
}}
)",
                       edit, publicMember ? fmt::format("public int Api{};", edit) : "");
}

namespace {

/// A generated script class `<ns>.Script<index>`: three [SerializeField] fields and an Update;
/// `extra` is one more member line (empty: none).
std::string scriptClassSource(const std::string& ns, int index, const std::string& extra) {
    return fmt::format(R"(using UEngine;

namespace {0}
{{
    public class Script{1:03} : UMonoScriptComponent
    {{
        [SerializeField] float speed = {1}.5f;
        [SerializeField] int ticks;
        [SerializeField] Vector3 offset = new Vector3({1}f, 0f, 1f);
        {2}
        float phase;

        public override void Update(float deltaTime)
        {{
            ticks++;
            phase += speed * deltaTime;
            if (phase > 360f) phase -= 360f;
            offset = new Vector3(offset.x, phase * 0.001f, offset.z);
        }}
    }}
}}
)",
                       ns, index, extra);
}

std::string generatedSource(int index) {
    return scriptClassSource("Bench", index, "");
}

} // namespace

Project makeDemoProject(const fs::path& root, const fs::path& demoDir, const fs::path& game) {
    Project p{"demo", root, root / "scripts", root / "staging", root / "scene.json", game, 0, {}};
    fs::create_directories(p.scripts);
    fs::create_directories(p.staging);
    for (const auto& entry : fs::directory_iterator(demoDir / "scripts")) {
        if (entry.is_regular_file() && entry.path().extension() == ".cs") {
            fs::copy_file(entry.path(), p.scripts / entry.path().filename());
            ++p.files;
        }
    }
    if (p.files == 0)
        throw BenchError("no demo scripts in " + (demoDir / "scripts").string());
    writeFile(p.scripts / "EditProbe.cs", probeSource(1));
    ++p.files;
    std::ifstream in(demoDir / "scene.json");
    nlohmann::json scene = nlohmann::json::parse(in, nullptr, false);
    if (scene.is_discarded() || !scene.contains("entities"))
        throw BenchError("cannot read " + (demoDir / "scene.json").string());
    scene["entities"].push_back(
        {{"name", "EditProbe"}, {"scripts", {{{"class", "Bench.EditProbe"}}}}});
    writeFile(p.scene, scene.dump(2));
    return p;
}

Project makeGeneratedProject(const fs::path& root) {
    Project p{"generated", root, root / "scripts", root / "staging", {}, {}, kGeneratedFiles, {}};
    fs::create_directories(p.scripts);
    fs::create_directories(p.staging);
    for (int i = 1; i < kGeneratedFiles; ++i)
        writeFile(p.scripts / fmt::format("Script{:03}.cs", i), generatedSource(i));
    writeFile(p.scripts / "EditProbe.cs", probeSource(1));
    return p;
}

std::string assemblyClassSource(const std::string& assembly, int index, bool leaf) {
    return scriptClassSource(
        "Bench." + assembly, index,
        leaf ? fmt::format("[SerializeField] Bench.Core.Script{:03} partner;",
                           index % (kClassesPerAssembly - 1)) // Core may hold the probe
             : std::string("public int shared;"));
}

Project makeAssembliesProject(const fs::path& root, const std::string& name,
                              const std::string& probeIn, bool interleaved, bool changesInterface,
                              int assemblies) {
    Project p{name, root, root / "scripts", root / "staging", {}, {}, 0, {}};
    fs::create_directories(p.staging);
    for (int a = 0; a < assemblies; ++a) {
        const std::string assembly = a == 0 ? "Core" : fmt::format("Leaf{:02}", a);
        const fs::path folder = p.scripts / assembly;
        fs::create_directories(folder);
        writeFile(folder / (assembly + ".asmdef"),
                  a == 0 ? R"({"name": "Core"})"
                         : fmt::format(R"({{"name": "{}", "references": ["Core"]}})", assembly));
        const int classes = kClassesPerAssembly - (assembly == probeIn ? 1 : 0);
        for (int i = 0; i < classes; ++i)
            writeFile(folder / fmt::format("Script{:03}.cs", i),
                      assemblyClassSource(assembly, i, a != 0));
        p.files += classes;
    }
    p.probeDir = p.scripts / probeIn;
    writeFile(p.probe(), probeSource(1));
    ++p.files;
    if (interleaved)
        p.interleave = p.scripts / "Leaf02" / "Script000.cs";
    p.probeChangesInterface = changesInterface;
    return p;
}

} // namespace scripthost::bench
