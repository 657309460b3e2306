#include "host/model/reload_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace scripthost {

const char* outcomeName(FieldOutcome::Kind kind) noexcept {
    switch (kind) {
    case FieldOutcome::Kind::Converted:
        return "converted";
    case FieldOutcome::Kind::Renamed:
        return "renamed";
    case FieldOutcome::Kind::Added:
        return "added";
    case FieldOutcome::Kind::Removed:
        return "removed";
    case FieldOutcome::Kind::Kept:
        return "kept-default";
    case FieldOutcome::Kind::Unparked:
        return "unparked";
    case FieldOutcome::Kind::Cleared:
        return "cleared";
    }
    return "unknown";
}

const char* outcomeName(CoroutineOutcome::Kind kind) noexcept {
    switch (kind) {
    case CoroutineOutcome::Kind::Resumed:
        return "resumed";
    case CoroutineOutcome::Kind::Restarted:
        return "restarted";
    case CoroutineOutcome::Kind::Stopped:
        return "stopped";
    }
    return "unknown";
}

const char* outcomeName(DelegateOutcome::Kind kind) noexcept {
    switch (kind) {
    case DelegateOutcome::Kind::Rebound:
        return "rebound";
    case DelegateOutcome::Kind::Dropped:
        return "dropped";
    }
    return "unknown";
}

std::string ReloadReport::describe() const {
    std::string text;
    if (success) {
        text = fmt::format(
            "reload #{} ok: generation {} -> {}; {} restored, {} created, {} parked; "
            "build {:.1f} ms{}, main thread {:.2f} ms (load {:.2f}, warm {:.2f}, snapshot {:.2f}, "
            "restore {:.2f}, hooks {:.2f}, unload {:.2f})",
            sequence, fromGeneration, toGeneration, restored, created, parked, buildMs,
            referencesImportedAhead ? " (references imported ahead)" : "", totalMs, loadMs, warmMs,
            snapshotMs, restoreMs, hooksMs, unloadMs);
        if (frameStallMs > 0)
            text += fmt::format(", stall {:.2f} ms", frameStallMs);
        if (!assembliesBuilt.empty())
            text += fmt::format("; assemblies built: {}", fmt::join(assembliesBuilt, ", "));
        if (!assembliesKept.empty())
            text += fmt::format("; {} kept as built (what they use of those is unchanged)",
                                assembliesKept.size());
        if (!assembliesLoadedAhead.empty())
            text +=
                fmt::format("; {} reused assemblies loaded ahead", assembliesLoadedAhead.size());
        if (debuggerRebindFrom != 0)
            text += fmt::format("\n  debugger rebind: generation {} loaded again as {} after "
                                "generation {} was unloaded",
                                debuggerRebindFrom, toGeneration, fromGeneration);
    } else {
        text = fmt::format("reload #{} failed in {}: generation {} keeps running", sequence,
                           failedPhase.empty() ? "?" : failedPhase, fromGeneration);
    }
    if (timeline) {
        text += fmt::format("\n  timeline: live {:.1f} ms after the save (watcher {:.1f}, build "
                            "{:.1f}, wait {:.1f}, load {:.1f}, warm {:.1f}, swap {:.1f})",
                            timeline->totalMs, timeline->watcherMs, timeline->buildMs,
                            timeline->waitMs, timeline->loadMs, timeline->warmMs, timeline->swapMs);
    }
    if (!trigger.empty()) {
        text += "\n  trigger: ";
        for (std::size_t i = 0; i < trigger.size() && i < 5; ++i)
            text += (i ? ", " : "") + trigger[i];
        if (trigger.size() > 5)
            text += fmt::format(" and {} more", trigger.size() - 5);
    }
    for (const std::string& e : errors)
        text += "\n  error: " + e;
    for (const std::string& w : warnings)
        text += "\n  warning: " + w;
    for (const std::string& c : missingClasses)
        text += "\n  parked: " + c;
    for (const FieldOutcome& f : fields) {
        text += fmt::format("\n  {}.{} ({}): {}{}", f.className, f.field, f.script.toString(),
                            outcomeName(f.kind), f.detail.empty() ? "" : " - " + f.detail);
    }
    for (const CoroutineOutcome& c : coroutines) {
        text += fmt::format("\n  coroutine {}.{} ({}): {}{}", c.className, c.method,
                            c.script.toString(), outcomeName(c.kind),
                            c.reason.empty() ? "" : " - " + c.reason);
    }
    for (const DelegateOutcome& d : delegates) {
        text += fmt::format("\n  delegate {}.{} ({}) -> {}: {}{}", d.className, d.field,
                            d.script.toString(), d.target, outcomeName(d.kind),
                            d.reason.empty() ? "" : " - " + d.reason);
    }
    for (const std::string& a : cancelledAwaits)
        text += "\n  await cancelled: " + a;
    if (!stoppedThreads.empty()) {
        text +=
            fmt::format("\n  stopping {} thread(s) generation {} started: ", stoppedThreads.size(),
                        success ? fromGeneration : toGeneration);
        for (std::size_t i = 0; i < stoppedThreads.size(); ++i)
            text += (i ? ", " : "") + stoppedThreads[i];
    }
    if (reenabled)
        text += fmt::format("\n  re-enabled {} script(s) disabled after failures", reenabled);
    if (released)
        text += fmt::format("\n  released {} script-owned entit(ies) nothing referenced", released);
    return text;
}

nlohmann::json ReloadReport::toJson() const {
    nlohmann::json fieldsJson = nlohmann::json::array();
    for (const FieldOutcome& f : fields) {
        fieldsJson.push_back({{"script", f.script.packed()},
                              {"class", f.className},
                              {"field", f.field},
                              {"outcome", outcomeName(f.kind)},
                              {"detail", f.detail}});
    }
    nlohmann::json coroutinesJson = nlohmann::json::array();
    for (const CoroutineOutcome& c : coroutines) {
        coroutinesJson.push_back({{"script", c.script.packed()},
                                  {"class", c.className},
                                  {"method", c.method},
                                  {"outcome", outcomeName(c.kind)},
                                  {"reason", c.reason}});
    }
    nlohmann::json delegatesJson = nlohmann::json::array();
    for (const DelegateOutcome& d : delegates) {
        delegatesJson.push_back({{"script", d.script.packed()},
                                 {"class", d.className},
                                 {"field", d.field},
                                 {"target", d.target},
                                 {"outcome", outcomeName(d.kind)},
                                 {"reason", d.reason}});
    }
    return {{"sequence", sequence},
            {"trigger", trigger},
            {"success", success},
            {"failedPhase", failedPhase},
            {"errors", errors},
            {"warnings", warnings},
            {"fromGeneration", fromGeneration},
            {"toGeneration", toGeneration},
            {"debuggerRebindFrom", debuggerRebindFrom},
            {"preparedDomain", preparedDomain},
            {"referencesImportedAhead", referencesImportedAhead},
            {"assembliesBuilt", assembliesBuilt},
            {"assembliesKept", assembliesKept},
            {"assembliesLoadedAhead", assembliesLoadedAhead},
            {"timings",
             {{"buildMs", buildMs},
              {"snapshotMs", snapshotMs},
              {"loadMs", loadMs},
              {"warmMs", warmMs},
              {"restoreMs", restoreMs},
              {"hooksMs", hooksMs},
              {"unloadMs", unloadMs},
              {"totalMs", totalMs},
              {"frameStallMs", frameStallMs}}},
            {"restored", restored},
            {"created", created},
            {"parked", parked},
            {"reenabled", reenabled},
            {"released", released},
            {"fields", fieldsJson},
            {"missingClasses", missingClasses},
            {"coroutines", coroutinesJson},
            {"delegates", delegatesJson},
            {"cancelledAwaits", cancelledAwaits},
            {"stoppedThreads", stoppedThreads},
            {"timeline", timeline ? nlohmann::json{{"watcherMs", timeline->watcherMs},
                                                   {"buildMs", timeline->buildMs},
                                                   {"waitMs", timeline->waitMs},
                                                   {"loadMs", timeline->loadMs},
                                                   {"warmMs", timeline->warmMs},
                                                   {"swapMs", timeline->swapMs},
                                                   {"totalMs", timeline->totalMs}}
                                  : nlohmann::json(nullptr)}};
}

} // namespace scripthost
