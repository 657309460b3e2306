// The daemon's control commands (host/control/PROTOCOL.md): each request runs on the main
// thread between frames and is answered, at once or (reload) when its report is in.

#include "build_diagnostics.hpp"
#include "daemon.hpp"
#include "daemon_lookup.hpp"
#include "host/domain/script_domain.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <vector>

namespace scripthost {

namespace {

namespace ec = control::error_code;
using control::commandError;
using control::CommandResult;
using nlohmann::json;

std::expected<std::string, control::CommandError> requireString(const json& body,
                                                                const char* member) {
    auto it = body.find(member);
    if (it == body.end() || !it->is_string() || it->get_ref<const std::string&>().empty())
        return commandError(ec::badRequest,
                            fmt::format("\"{}\" must be a non-empty string", member));
    return it->get<std::string>();
}

} // namespace

void Daemon::serveControl() {
    if (!control_)
        return;
    for (const control::Request& request : control_->takeRequests())
        handle(request);
}

void Daemon::handle(const control::Request& request) {
    const json& body = request.body;
    const std::string& cmd = request.cmd;
    CommandResult result;
    try {
        if (cmd == "status") {
            result = status();
        } else if (cmd == "reload") {
            spdlog::info("reload requested by a control client");
            coordinator_->requestReload();
            pendingReloads_.push_back(request); // answered by onReport
            return;
        } else if (cmd == "entities") {
            control_->replySerializedOk(request.client, request.id, entitiesText());
            return;
        } else if (cmd == "coroutines") {
            result = coroutines();
        } else if (cmd == "get") {
            result = getField(body);
        } else if (cmd == "set") {
            result = setField(body);
        } else if (cmd == "watchFields") {
            result = watches_->watch(request.client, body, *host_);
        } else if (cmd == "snapshot") {
            result = snapshot(body);
        } else if (cmd == "input") {
            result = setInput(body);
        } else if (cmd == "active") {
            result = setEntityActive(body);
        } else if (cmd == "parent") {
            result = setEntityParent(body);
        } else if (cmd == "pause") {
            paused_ = true;
            stepsLeft_ = 0;
            result = json{{"paused", true}, {"frame", host_->frame()}};
        } else if (cmd == "resume") {
            paused_ = false;
            stepsLeft_ = 0;
            result = json{{"paused", false}, {"frame", host_->frame()}};
        } else if (cmd == "step") {
            std::int64_t frames = 1;
            if (auto it = body.find("frames"); it != body.end()) {
                if (!it->is_number_integer() || it->get<std::int64_t>() < 1)
                    result = commandError(ec::badRequest, "\"frames\" must be a whole number ≥ 1");
                else
                    frames = it->get<std::int64_t>();
            }
            if (result) {
                paused_ = true;
                stepsLeft_ += frames;
                result = json{{"paused", true},
                              {"frame", host_->frame()},
                              {"untilFrame", host_->frame() + stepsLeft_}};
            }
        } else if (cmd == "stop") {
            spdlog::info("stop requested by a control client");
            stopRequested_ = true;
            result = json{{"stopping", true}, {"frame", host_->frame()}};
        } else if (cmd == "subscribe") {
            std::vector<std::string> topics{"reload", "diagnostics", "module", "moduleBuild",
                                            "crashed"};
            if (auto it = body.find("topics"); it != body.end()) {
                topics.clear();
                if (!it->is_array())
                    result = commandError(ec::badRequest, "\"topics\" must be an array of strings");
                for (const json& topic : it->is_array() ? *it : json::array()) {
                    if (!topic.is_string() ||
                        (topic != "reload" && topic != "diagnostics" && topic != "log" &&
                         topic != "module" && topic != "moduleBuild" && topic != "crashed" &&
                         topic != "frames")) {
                        result = commandError(ec::badRequest,
                                              "unknown topic " + topic.dump() +
                                                  " (topics: reload, diagnostics, module, "
                                                  "moduleBuild, crashed, log, frames)");
                        break;
                    }
                    topics.push_back(topic.get<std::string>());
                }
            }
            if (result) {
                control_->subscribe(request.client, topics);
                result = json{{"topics", topics}};
            }
        } else {
            result =
                commandError(ec::unknownCommand,
                             "unknown command \"" + cmd +
                                 "\" (commands: status, reload, entities, coroutines, get, set, "
                                 "watchFields, snapshot, input, active, parent, pause, resume, "
                                 "step, stop, subscribe)");
        }
    } catch (const std::exception& e) {
        // A bug of ours must not cost the client its answer or the loop its frame.
        spdlog::error("control command {} failed: {}", cmd, e.what());
        result = commandError(ec::internal, e.what());
    }
    control_->reply(request, result);
}

nlohmann::json Daemon::moduleBuildJson(const ModuleBuildReport& report) {
    return json{{"success", report.success},
                {"exitCode", report.exitCode},
                {"milliseconds", report.milliseconds},
                {"trigger", report.trigger},
                {"outputTail", report.outputTail}};
}

nlohmann::json Daemon::moduleReportJson(const ModuleReloadReport& report) {
    using Outcome = ModuleReloadReport::Outcome;
    return {{"outcome", report.outcome == Outcome::Swapped      ? "swapped"
                        : report.outcome == Outcome::RolledBack ? "rolled back"
                                                                : "failed"},
            {"generation", report.generation},
            {"stateCarried", report.stateCarried},
            {"ms", report.milliseconds},
            {"text", report.message}};
}

json Daemon::crashJson() const {
    return json{{"description", options_.restart.lastCrash},
                {"report", options_.restart.lastCrashReport.empty()
                               ? json(nullptr)
                               : json(options_.restart.lastCrashReport.string())},
                {"restarts", options_.restart.restarts}};
}

json Daemon::missingFoldersJson() const {
    // What the watchers say (they watch for the folders' return); without watching, none.
    json missing = json::array();
    if (coordinator_ != nullptr) {
        for (const std::filesystem::path& dir : coordinator_->missingFolders())
            missing.push_back(dir.string());
    }
    if (moduleBuilder_) {
        for (const std::filesystem::path& dir : moduleBuilder_->missingFolders())
            missing.push_back(dir.string());
    }
    return missing;
}

CommandResult Daemon::status() const {
    json lastReload = nullptr;
    if (lastReport_) {
        lastReload = lastReport_->toJson();
        lastReload["text"] = lastReport_->describe();
    }
    const auto summary = host_->stats().summary();
    return json{
        {"generation", host_->domain() ? host_->domain()->generation() : 0},
        {"uptimeSeconds",
         std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count()},
        {"frame", host_->frame()},
        {"time", host_->time()},
        {"fps", summary.fps},
        {"frameMs",
         {{"median", summary.medianFrameMs},
          {"p95", summary.p95FrameMs},
          {"p99", summary.p99FrameMs},
          {"max", summary.maxFrameMs}}},
        {"paused", paused_},
        {"entities", host_->world().entityCount()},
        {"scripts", host_->world().scriptCount()},
        {"failures", host_->scriptFailureCount()},
        {"reloads", {{"ok", reloadsOk_}, {"failed", reloadsFailed_}}},
        {"reloadBusy", coordinator_->busy()},
        {"gcHandles", ScriptDomain::liveGcHandles()},
        {"appDomains", ScriptDomain::liveDomains()},
        {"preparedDomain", coordinator_->hasPreparedDomain()},
        {"gameModule", game_ ? json(game_->name()) : json(nullptr)},
        {"gameModuleCrash",
         game_ && !game_->crashed().empty() ? json(game_->crashed()) : json(nullptr)},
        {"gameModuleGeneration",
         project_->modules() ? json(project_->modules()->generation()) : json(nullptr)},
        {"lastModuleReload",
         lastModuleReload_ ? moduleReportJson(*lastModuleReload_) : json(nullptr)},
        {"moduleBuild",
         moduleBuilder_
             ? json{{"building", moduleBuilder_->building()},
                    {"last", lastModuleBuild_ ? moduleBuildJson(*lastModuleBuild_) : json(nullptr)}}
             : json(nullptr)},
        {"debugger", debuggerPause_ ? debuggerPause_->describe() : json(nullptr)},
        {"inspector",
         options_.inspectorUrl.empty() ? json(nullptr) : json{{"url", options_.inspectorUrl}}},
        {"pid", static_cast<std::int64_t>(::getpid())},
        {"restarts", options_.restart.restarts},
        {"lastCrash", options_.restart.restarts > 0 ? crashJson() : json(nullptr)},
        {"stateFile", state_->file().path().string()},
        {"watchedFoldersMissing", missingFoldersJson()},
        {"lastReload", lastReload},
        {"buildDiagnostics", diagnosticsJson(buildErrors_)},
    };
}

namespace {

/// The running coroutines, by script (none when there is no generation or listing failed:
/// the listing is a view, a failure is logged and shows as no coroutines).
std::map<ObjectId, std::vector<CoroutineInfo>> coroutinesByScript(ScriptDomain* domain) {
    std::map<ObjectId, std::vector<CoroutineInfo>> byScript;
    if (domain == nullptr)
        return byScript;
    auto running = domain->coroutines();
    if (!running) {
        spdlog::warn("{}", running.error().message);
        return byScript;
    }
    for (CoroutineInfo& c : *running)
        byScript[c.script].push_back(std::move(c));
    return byScript;
}

json coroutineList(const std::vector<CoroutineInfo>* running) {
    json list = json::array();
    if (running != nullptr) {
        for (const CoroutineInfo& c : *running)
            list.push_back(json{{"method", c.method}, {"waitingFor", c.waitingFor}});
    }
    return list;
}

} // namespace

CommandResult Daemon::coroutines() const {
    const World& world = host_->world();
    json list = json::array();
    for (const auto& [script, running] : coroutinesByScript(host_->domain())) {
        const ScriptSlot* slot = world.script(script);
        const Entity* entity = slot ? world.entity(slot->entity) : nullptr;
        for (const CoroutineInfo& c : running) {
            list.push_back(json{{"entity", entity ? json(entity->name) : json(nullptr)},
                                {"script", idText(script)},
                                {"class", slot ? json(slot->className) : json(nullptr)},
                                {"method", c.method},
                                {"waitingFor", c.waitingFor}});
        }
    }
    return json{{"coroutines", list}};
}

namespace {

/// `text` as a JSON string (escaped; text that is not UTF-8 gets U+FFFD).
void appendString(std::string& out, std::string_view text) {
    out += json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

/// A float as nlohmann::json writes it: the double it widens to, shortest form, ".0" on a whole
/// number; not finite: null.
void appendNumber(std::string& out, float value) {
    if (!std::isfinite(value)) {
        out += "null";
        return;
    }
    const std::size_t start = out.size();
    fmt::format_to(std::back_inserter(out), "{}", static_cast<double>(value));
    if (out.find_first_of(".e", start) == std::string::npos)
        out += ".0";
}

} // namespace

std::string Daemon::entitiesText() const {
    // Written as text, not built as a JSON tree: at 10,000 entities the tree cost the frame
    // that answered 150 ms, and the inspector's page asks regularly. Keys in JSON's (sorted)
    // order, as the tree wrote them.
    const World& world = host_->world();
    const auto running = coroutinesByScript(host_->domain());
    std::string out = R"({"entities":[)";
    out.reserve(world.entityCount() * 256);
    bool firstEntity = true;
    for (ObjectId e : world.entities()) {
        const Entity& entity = *world.entity(e);
        out += firstEntity ? "{\"active\":" : ",{\"active\":";
        firstEntity = false;
        out += entity.active ? "true" : "false";
        out += ",\"components\":[";
        for (std::size_t c = 0; c < entity.components.size(); ++c) {
            fmt::format_to(std::back_inserter(out), R"({}{{"id":"{}","type":)", c ? "," : "",
                           idText(entity.components[c]));
            appendString(out, world.component(entity.components[c])->kind);
            out += '}';
        }
        fmt::format_to(std::back_inserter(out), R"(],"id":"{}","name":)", idText(e));
        appendString(out, entity.name);
        fmt::format_to(std::back_inserter(out), R"(,"ownedByScripts":{},"parent":)",
                       entity.ownedByScripts);
        out += entity.parent.isNull() ? "null" : "\"" + idText(entity.parent) + "\"";
        const glm::vec3 p = world.worldTransform(e).position;
        out += ",\"position\":[";
        appendNumber(out, p.x);
        out += ',';
        appendNumber(out, p.y);
        out += ',';
        appendNumber(out, p.z);
        out += "],\"scripts\":[";
        for (std::size_t i = 0; i < entity.scripts.size(); ++i) {
            const ObjectId s = entity.scripts[i];
            const ScriptSlot& slot = *world.script(s);
            const auto coroutines = running.find(s);
            out += i ? ",{\"class\":" : "{\"class\":";
            appendString(out, slot.className);
            fmt::format_to(
                std::back_inserter(out),
                R"(,"coroutines":{},"disabledByScript":{},"enabled":{},"id":"{}","parked":{}}})",
                coroutineList(coroutines == running.end() ? nullptr : &coroutines->second)
                    .dump(-1, ' ', false, json::error_handler_t::replace),
                slot.disabledByScript, slot.enabled, idText(s), slot.parked);
        }
        out += "],\"tag\":";
        appendString(out, entity.tag.empty() ? "Untagged" : entity.tag);
        out += '}';
    }
    out += "]}";
    return out;
}

namespace {

/// What an editor offers for a value of `type`: an enum's member names, in order, and what a
/// reference may point at ("entity", "script" or "component"; typeName says which class).
void describeChoices(json& entry, const FieldType& type) {
    if (type.kind == ValueKind::Enum) {
        json names = json::array();
        for (const auto& [name, value] : type.enumMembers)
            names.push_back(name);
        entry["enumMembers"] = std::move(names);
    } else if (type.kind == ValueKind::ObjectRef) {
        entry["refTarget"] = type.refTarget == RefTarget::Entity   ? "entity"
                             : type.refTarget == RefTarget::Script ? "script"
                                                                   : "component";
    }
}

} // namespace

CommandResult Daemon::getField(const json& body) {
    auto target = findScriptArg(host_->world(), body);
    if (!target)
        return std::unexpected(target.error());
    const ScriptClassInfo* info = host_->scriptClassOf(target->slot);
    if (info == nullptr)
        return commandError(ec::notFound, "class " + target->className + " is not loaded");
    auto fieldArg = body.find("field");
    json fields = json::array();
    for (const FieldInfo& field : info->fields) {
        const bool asked = fieldArg != body.end() && !fieldArg->is_null();
        if ((asked && *fieldArg != field.name) || (!asked && field.hidden))
            continue; // [HideInInspector]: only by name
        auto value = host_->getField(target->slot, field.name);
        if (!value)
            return commandError(ec::internal, value.error().message);
        json entry{{"name", field.name},
                   {"value", valueToJson(*value, field.type)},
                   {"type", kindName(field.type.kind)},
                   {"typeName", field.type.typeName}};
        if (field.displayName != field.name)
            entry["displayName"] = field.displayName;
        describeChoices(entry, field.type);
        if (fieldArg != body.end() && !fieldArg->is_null()) {
            entry["entity"] = target->entityName;
            entry["script"] = target->className;
            entry["field"] = field.name;
            return entry;
        }
        fields.push_back(std::move(entry));
    }
    if (fieldArg != body.end() && !fieldArg->is_null()) {
        std::string names;
        for (const FieldInfo& field : info->fields)
            names += (names.empty() ? "" : ", ") + field.name;
        return commandError(ec::notFound, fmt::format("{} has no serialized field {} (fields: {})",
                                                      target->className, fieldArg->dump(),
                                                      names.empty() ? "none" : names));
    }
    return json{{"entity", target->entityName}, {"script", target->className}, {"fields", fields}};
}

CommandResult Daemon::setField(const json& body) {
    auto target = findScriptArg(host_->world(), body);
    if (!target)
        return std::unexpected(target.error());
    auto fieldName = requireString(body, "field");
    if (!fieldName)
        return std::unexpected(fieldName.error());
    if (!body.contains("value"))
        return commandError(ec::badRequest, "\"value\" is missing");
    const ScriptClassInfo* info = host_->scriptClassOf(target->slot);
    if (info == nullptr)
        return commandError(ec::notFound, "class " + target->className + " is not loaded");
    const FieldInfo* field = nullptr;
    for (const FieldInfo& f : info->fields) {
        if (f.name == *fieldName)
            field = &f;
    }
    if (field == nullptr) {
        return commandError(ec::notFound, fmt::format("{} has no serialized field '{}'",
                                                      target->className, *fieldName));
    }
    auto value = valueFromJson(body["value"], field->type, host_->worldResolver());
    if (!value) {
        return commandError(ec::badValue,
                            fmt::format("{}.{} is {}: {}", target->className, field->name,
                                        field->type.typeName, value.error().message));
    }
    if (auto written = host_->setField(target->slot, field->name, *value); !written)
        return commandError(ec::badValue, written.error().message);
    auto readBack = host_->getField(target->slot, field->name);
    if (!readBack)
        return commandError(ec::internal, readBack.error().message);
    spdlog::info("{}/{}.{} set to {} by a control client", target->entityName, target->className,
                 field->name, describe(*readBack));
    return json{{"entity", target->entityName},
                {"script", target->className},
                {"field", field->name},
                {"type", kindName(field->type.kind)},
                {"typeName", field->type.typeName},
                {"value", valueToJson(*readBack, field->type)}};
}

CommandResult Daemon::snapshot(const json& body) {
    auto scene = host_->saveScene();
    if (!scene)
        return commandError(ec::internal, scene.error().message);
    if (auto path = body.find("path"); path != body.end()) {
        if (!path->is_string() || path->get_ref<const std::string&>().empty())
            return commandError(ec::badRequest, "\"path\" must be a file path");
        const StateFile file(path->get<std::string>());
        if (auto saved = file.save(*scene); !saved)
            return commandError(ec::badValue, saved.error().message);
        return json{{"path", file.path().string()},
                    {"entities", scene->entities.size()},
                    {"frame", host_->frame()}};
    }
    return json{{"snapshot", scene->toJson()}, {"frame", host_->frame()}};
}

CommandResult Daemon::setInput(const json& body) {
    auto action = requireString(body, "action");
    if (!action)
        return std::unexpected(action.error());
    auto value = body.find("value");
    if (value == body.end() || !value->is_number() || !std::isfinite(value->get<double>()))
        return commandError(ec::badRequest, "\"value\" must be a finite number");
    host_->input().set(*action, value->get<float>());
    return json{{"action", *action}, {"value", value->get<float>()}};
}

} // namespace scripthost
