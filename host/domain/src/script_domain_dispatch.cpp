// ScriptDomain: the per-frame phases and the reload hook, through the managed dispatcher.
#include "host/domain/script_domain.hpp"
#include "host/runtime/managed_lines.hpp"
#include "host/runtime/script_watchdog.hpp"
#include "runtime/managed_exception.hpp"
#include "script_domain_impl.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string_view>

namespace scripthost {

Result<void> ScriptDomain::runUpdate(float deltaTime, double time, std::int64_t frame) {
    ScriptWatchdog::Scope watched("Update");
    if (!impl_->domain.loaded()) {
        return fail("the script domain is unloaded");
    }
    return impl_->dispatcher.runUpdate(deltaTime, time, frame);
}

Result<void> ScriptDomain::runFixedUpdate(float fixedDeltaTime, double time, std::int64_t frame) {
    ScriptWatchdog::Scope watched("FixedUpdate");
    if (!impl_->domain.loaded()) {
        return fail("the script domain is unloaded");
    }
    return impl_->dispatcher.runFixedUpdate(fixedDeltaTime, time, frame);
}

Result<int> ScriptDomain::scheduledCount(ScriptPhase phase) {
    if (!impl_->domain.loaded()) {
        return 0; // an unloaded generation schedules nothing
    }
    return impl_->dispatcher.countScheduled(phase);
}

Result<std::vector<CoroutineInfo>> ScriptDomain::coroutines() {
    std::vector<CoroutineInfo> running;
    if (!impl_->domain.loaded())
        return running;
    auto text = impl_->dispatcher.describeCoroutines();
    if (!text)
        return std::unexpected(text.error());
    // One line per coroutine: "scriptId\tmethod\twaiting for".
    for (const auto& line : mono::tabbedLines(*text)) {
        std::uint64_t packed = 0;
        if (line.size() < 3 || !mono::parseNumber(line[0], packed))
            return fail(
                fmt::format("ScriptCore described a coroutine as \"{}\"", fmt::join(line, "\t")));
        // What it waits for is the rest of the line (a yield instruction's ToString may hold a
        // tab).
        running.push_back(
            CoroutineInfo{ObjectId::unpack(packed), std::string(line[1]),
                          fmt::format("{}", fmt::join(line.begin() + 2, line.end(), "\t"))});
    }
    return running;
}

Result<std::vector<std::string>> ScriptDomain::inFlightAwaits() {
    std::vector<std::string> awaits;
    if (!impl_->domain.loaded())
        return awaits;
    auto text = impl_->dispatcher.describeInFlightAwaits();
    if (!text)
        return std::unexpected(text.error());
    // "Class.Method\tcount" per async void method, then "queued\tcount".
    for (const auto& line : mono::tabbedLines(*text)) {
        if (line.size() != 2)
            return fail(fmt::format("ScriptCore described an await in flight as \"{}\"",
                                    fmt::join(line, "\t")));
        if (line[0] == "queued")
            awaits.push_back(fmt::format("{} continuation(s) queued on the game loop", line[1]));
        else
            awaits.push_back(
                fmt::format("{} (async void, suspended at an await) x {}", line[0], line[1]));
    }
    return awaits;
}

Result<void> ScriptDomain::runAfterReload() {
    ScriptWatchdog::Scope watched("OnAfterReload");
    if (!impl_->domain.loaded())
        return fail("the script domain is unloaded");
    auto outcome = impl_->dispatcher.runAfterReload();
    if (!outcome)
        return std::unexpected(outcome.error());
    if (outcome->thrown != nullptr) {
        const mono::ScriptInstance* instance = impl_->instances.find(outcome->failedScript);
        const std::string name = instance ? instance->entry->info.name : "a script";
        return fail(fmt::format("OnAfterReload of {} {} threw: {}", name,
                                outcome->failedScript.toString(),
                                mono::thrownText(outcome->thrown)));
    }
    return {};
}

} // namespace scripthost
