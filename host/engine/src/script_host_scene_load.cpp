// Scene loads a script asks for (Unity's SceneManager.LoadScene): the file is found beside
// the active scene and checked at the call, and the world is replaced at the end of the frame.
#include "host/engine/script_host.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {

namespace fs = std::filesystem;

// Where a scene called `name` may be: NAME.scene.json or NAME.json beside the active scene (in
// the working folder without one), or NAME itself when it names a .json file.
std::vector<fs::path> sceneCandidates(const fs::path& active, std::string_view name) {
    const fs::path folder = active.empty() ? fs::path(".") : active.parent_path();
    const fs::path given{std::string(name)};
    if (given.extension() == ".json")
        return {given.is_absolute() ? given : folder / given};
    return {folder / (std::string(name) + ".scene.json"), folder / (std::string(name) + ".json")};
}

} // namespace

Result<void> ScriptHost::requestSceneLoad(std::string_view name) {
    if (name.empty())
        return fail("LoadScene needs the name of a scene");
    const std::vector<fs::path> candidates = sceneCandidates(activeScenePath_, name);
    for (const fs::path& path : candidates) {
        std::error_code ec;
        if (!fs::is_regular_file(path, ec))
            continue;
        auto scene = Scene::load(path);
        if (!scene)
            return fail(fmt::format("scene {}: {}", path.string(), scene.error().message));
        // What instantiate would refuse, refused now, while the world is still whole.
        for (const SceneEntity& e : scene->entities) {
            for (const std::string& kind : e.components) {
                if (!knowsComponentKind(kind))
                    return fail(
                        fmt::format("scene {}: entity \"{}\": unknown component kind \"{}\"",
                                    path.string(), e.name, kind));
            }
            for (const SceneScript& s : e.scripts) {
                const bool known = s.parked || !nativeClassName(s.className).empty() ||
                                   (domain_ && domain_->findScriptClass(s.className) != nullptr);
                if (!known)
                    return fail(fmt::format("scene {}: entity \"{}\": no script class {}",
                                            path.string(), e.name, s.className));
            }
        }
        requestedScene_ = SceneRequest{path, std::move(*scene)};
        return {};
    }
    std::string looked;
    for (const fs::path& path : candidates)
        looked += (looked.empty() ? "" : ", ") + path.string();
    return fail(fmt::format("no scene \"{}\" (looked for {})", name, looked));
}

void ScriptHost::keepOnSceneLoad(ObjectId object) {
    ObjectId root = world_.entityOf(object);
    for (const Entity* e = world_.entity(root); e != nullptr && !e->parent.isNull();
         e = world_.entity(root))
        root = e->parent;
    if (!root.isNull())
        keptOnSceneLoad_.insert(root);
}

void ScriptHost::loadRequestedScene() {
    SceneRequest request = std::move(*requestedScene_);
    requestedScene_.reset();
    std::erase_if(keptOnSceneLoad_, [&](ObjectId id) { return !world_.isAlive(id); });
    // Every root not kept, and with it everything below it (their scripts' OnDestroy runs).
    for (ObjectId id : world_.entities()) {
        const Entity* e = world_.entity(id);
        if (e != nullptr && e->parent.isNull() && !keptOnSceneLoad_.contains(id))
            (void)destroyEntity(id);
    }
    if (auto made = instantiate(request.scene); !made) {
        spdlog::error("loading scene {} failed: {}; the world holds what DontDestroyOnLoad kept",
                      request.path.string(), made.error().message);
        return;
    }
    activeScenePath_ = std::move(request.path);
    spdlog::info("loaded scene {} ({} entities)", activeScenePath_.string(),
                 request.scene.entities.size());
}

} // namespace scripthost
