#include "host/model/scene.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iterator>

namespace scripthost {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "scripthost-scene";
constexpr int kVersion = 1;

template <std::size_t N>
Result<std::array<float, N>> readFloats(const json& j, const std::string& path) {
    if (!j.is_array() || j.size() != N) {
        return fail(fmt::format("{}: expected an array of {} numbers", path, N));
    }
    std::array<float, N> out{};
    for (std::size_t i = 0; i < N; ++i) {
        if (!j[i].is_number()) {
            return fail(fmt::format("{}[{}]: expected a number, got {}", path, i, j[i].dump()));
        }
        out[i] = j[i].get<float>();
        if (!std::isfinite(out[i])) {
            return fail(fmt::format("{}[{}]: not a finite number", path, i));
        }
    }
    return out;
}

Result<Transform> readTransform(const json& j, const std::string& path) {
    Transform t;
    if (!j.is_object()) {
        return fail(path + ": expected an object");
    }
    for (const auto& [key, value] : j.items()) {
        const std::string at = path + "." + key;
        if (key == "position" || key == "scale") {
            auto v = readFloats<3>(value, at);
            if (!v)
                return std::unexpected(v.error());
            (key == "position" ? t.position : t.scale) = glm::vec3((*v)[0], (*v)[1], (*v)[2]);
        } else if (key == "rotation") {
            auto v = readFloats<4>(value, at);
            if (!v)
                return std::unexpected(v.error());
            // Normalised in double: in float the squared length of large components
            // overflows to infinity and normalising gives a zero quaternion.
            const glm::dquat q((*v)[3], (*v)[0], (*v)[1], (*v)[2]);
            const double length = glm::length(q);
            if (length < 1e-6) {
                return fail(at + ": a rotation quaternion cannot be zero");
            }
            t.rotation = glm::quat(q / length);
        } else {
            return fail(fmt::format("{}: unknown key (expected position, rotation, scale)", at));
        }
    }
    return t;
}

Result<SceneScript> readScript(const json& j, const std::string& path) {
    if (j.is_string()) {
        if (j.get_ref<const std::string&>().empty())
            return fail(path + ": expected the script's class name");
        return SceneScript{j.get<std::string>(), json::object()};
    }
    if (!j.is_object()) {
        return fail(path + ": expected a class name or an object with \"class\"");
    }
    SceneScript script;
    if (auto id = j.find("id"); id != j.end()) {
        if (!id->is_number_unsigned())
            return fail(path + ".id: expected a saved object id");
        script.id = id->get<std::uint64_t>();
    }
    if (auto parked = j.find("parked"); parked != j.end() && parked->is_boolean()) {
        script.parked = parked->get<bool>();
    }
    if (auto enabled = j.find("enabled"); enabled != j.end()) {
        if (!enabled->is_boolean())
            return fail(path + ".enabled: expected true or false");
        script.enabled = enabled->get<bool>();
    }
    auto cls = j.find("class");
    if (cls == j.end() || !cls->is_string() || cls->get_ref<const std::string&>().empty()) {
        return fail(path + ".class: expected the script's class name");
    }
    script.className = cls->get<std::string>();
    if (auto fields = j.find("fields"); fields != j.end()) {
        if (!fields->is_object()) {
            return fail(path + ".fields: expected an object of field values");
        }
        script.fields = *fields;
    }
    for (const auto& [key, value] : j.items()) {
        if (key != "class" && key != "fields" && key != "id" && key != "parked" &&
            key != "enabled") {
            return fail(
                fmt::format("{}.{}: unknown key (expected class, fields, enabled, id)", path, key));
        }
    }
    return script;
}

Result<SceneEntity> readEntity(const json& j, const std::string& path) {
    if (!j.is_object()) {
        return fail(path + ": expected an object");
    }
    SceneEntity entity;
    for (const auto& [key, value] : j.items()) {
        const std::string at = path + "." + key;
        if (key == "name") {
            if (!value.is_string())
                return fail(at + ": expected a string");
            entity.name = value.get<std::string>();
        } else if (key == "transform") {
            auto t = readTransform(value, at);
            if (!t)
                return std::unexpected(t.error());
            entity.transform = *t;
        } else if (key == "components") {
            if (!value.is_array())
                return fail(at + ": expected an array of component kinds");
            for (std::size_t i = 0; i < value.size(); ++i) {
                const json& c = value[i];
                if (c.is_string()) {
                    entity.components.push_back(c.get<std::string>());
                    entity.componentIds.push_back(0);
                } else if (c.is_object() && c.contains("kind") && c["kind"].is_string() &&
                           (!c.contains("id") || c["id"].is_number_unsigned())) {
                    entity.components.push_back(c["kind"].get<std::string>());
                    entity.componentIds.push_back(c.value("id", std::uint64_t{0}));
                } else {
                    return fail(
                        fmt::format("{}[{}]: expected a component kind such as \"Camera\"", at, i));
                }
            }
        } else if (key == "scripts") {
            if (!value.is_array())
                return fail(at + ": expected an array of scripts");
            for (std::size_t i = 0; i < value.size(); ++i) {
                auto s = readScript(value[i], fmt::format("{}[{}]", at, i));
                if (!s)
                    return std::unexpected(s.error());
                entity.scripts.push_back(std::move(*s));
            }
        } else if (key == "id") {
            if (!value.is_number_unsigned())
                return fail(at + ": expected a saved object id");
            entity.id = value.get<std::uint64_t>();
        } else if (key == "ownedByScripts") {
            if (!value.is_boolean())
                return fail(at + ": expected true or false");
            entity.ownedByScripts = value.get<bool>();
        } else if (key == "active") {
            if (!value.is_boolean())
                return fail(at + ": expected true or false");
            entity.active = value.get<bool>();
        } else if (key == "parent") {
            if (value.is_string())
                entity.parent = json{{"entity", value}};
            else if (value.is_object() || value.is_null())
                entity.parent = value;
            else
                return fail(at + ": expected the parent's name or a reference such as {\"id\": n}");
        } else if (key == "tag") {
            if (!value.is_string())
                return fail(at + ": expected a string");
            entity.tag = value.get<std::string>();
            if (entity.tag == "Untagged")
                entity.tag.clear();
        } else {
            return fail(fmt::format(
                "{}: unknown key (expected name, transform, components, scripts, active, tag, "
                "parent)",
                at));
        }
    }
    return entity;
}

} // namespace

Result<Scene> Scene::fromJson(const json& j) {
    if (!j.is_object()) {
        return fail("a scene must be a JSON object");
    }
    if (auto format = j.find("format"); format != j.end() && *format != kFormat) {
        return fail(fmt::format("format: expected \"{}\", got {}", kFormat, format->dump()));
    }
    if (auto version = j.find("version"); version != j.end()) {
        const bool readable =
            version->is_number_unsigned()
                ? version->get<std::uint64_t>() <= std::uint64_t{kVersion}
                : version->is_number_integer() && version->get<std::int64_t>() <= kVersion;
        if (!readable) {
            return fail(fmt::format("version: this host reads scene version {} or older, got {}",
                                    kVersion, version->dump()));
        }
    }
    Scene scene;
    if (auto later = j.find("destroyAfter"); later != j.end()) {
        if (!later->is_array())
            return fail("destroyAfter: expected an array of {\"id\": n, \"seconds\": s}");
        for (std::size_t i = 0; i < later->size(); ++i) {
            const json& d = (*later)[i];
            if (!d.is_object() || !d.contains("id") || !d["id"].is_number_unsigned() ||
                !d.contains("seconds") || !d["seconds"].is_number() ||
                !std::isfinite(d["seconds"].get<double>()) || d["seconds"].get<double>() < 0)
                return fail(fmt::format("destroyAfter[{}]: expected {{\"id\": n, \"seconds\": s}} "
                                        "with s a finite number of seconds, 0 or more",
                                        i));
            scene.delayedDestroys.push_back(
                {d["id"].get<std::uint64_t>(), d["seconds"].get<double>()});
        }
    }
    auto entities = j.find("entities");
    if (entities == j.end()) {
        return scene;
    }
    if (!entities->is_array()) {
        return fail("entities: expected an array");
    }
    for (std::size_t i = 0; i < entities->size(); ++i) {
        auto e = readEntity((*entities)[i], fmt::format("entities[{}]", i));
        if (!e)
            return std::unexpected(e.error());
        scene.entities.push_back(std::move(*e));
    }
    return scene;
}

Result<Scene> Scene::fromText(std::string_view text) {
    bool tooDeep = false;
    const json::parser_callback_t limitDepth = [&tooDeep](int depth, json::parse_event_t event,
                                                          json&) {
        const bool opens =
            event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
        if (opens && depth >= kMaxDepth)
            tooDeep = true;
        return !tooDeep; // past the limit nothing more is kept
    };
    json j = json::parse(text, limitDepth, /*allow_exceptions*/ false, /*ignore_comments*/ true);
    if (tooDeep) {
        return fail(
            fmt::format("objects and arrays are nested more than {} levels deep", kMaxDepth));
    }
    if (j.is_discarded()) {
        return fail("not valid JSON");
    }
    return fromJson(j);
}

Result<Scene> Scene::load(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        return fail("cannot open scene file " + file.string());
    }
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) {
        return fail("cannot read scene file " + file.string());
    }
    auto scene = fromText(text);
    if (!scene) {
        return fail(file.string() + ": " + scene.error().message);
    }
    return scene;
}

json Scene::toJson() const {
    json entitiesJson = json::array();
    for (const SceneEntity& e : entities) {
        const Transform& t = e.transform;
        json entity = {
            {"name", e.name},
            {"transform",
             {{"position", {t.position.x, t.position.y, t.position.z}},
              {"rotation", {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w}},
              {"scale", {t.scale.x, t.scale.y, t.scale.z}}}},
        };
        json components = json::array();
        for (std::size_t i = 0; i < e.components.size(); ++i) {
            const std::uint64_t id = i < e.componentIds.size() ? e.componentIds[i] : 0;
            components.push_back(id ? json{{"kind", e.components[i]}, {"id", id}}
                                    : json(e.components[i]));
        }
        entity["components"] = std::move(components);
        if (e.id)
            entity["id"] = e.id;
        if (e.ownedByScripts)
            entity["ownedByScripts"] = true;
        if (!e.active)
            entity["active"] = false;
        if (!e.tag.empty())
            entity["tag"] = e.tag;
        if (!e.parent.is_null())
            entity["parent"] = e.parent;
        json scripts = json::array();
        for (const SceneScript& s : e.scripts) {
            json script{{"class", s.className}, {"fields", s.fields}};
            if (s.id)
                script["id"] = s.id;
            if (s.parked)
                script["parked"] = true;
            if (!s.enabled)
                script["enabled"] = false;
            scripts.push_back(std::move(script));
        }
        entity["scripts"] = std::move(scripts);
        entitiesJson.push_back(std::move(entity));
    }
    json scene{{"format", kFormat}, {"version", kVersion}, {"entities", std::move(entitiesJson)}};
    if (!delayedDestroys.empty()) {
        json later = json::array();
        for (const SceneDelayedDestroy& d : delayedDestroys)
            later.push_back({{"id", d.id}, {"seconds", d.seconds}});
        scene["destroyAfter"] = std::move(later);
    }
    return scene;
}

} // namespace scripthost
