// ScriptDomain: the per-frame phases and the reload hook, through the managed dispatcher.
#include "host/script_domain.hpp"
#include "host/script_watchdog.hpp"
#include "mono/managed_exception.hpp"
#include "mono/script_domain_impl.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
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
    std::string_view rest = *text;
    while (!rest.empty()) {
        const std::size_t end = std::min(rest.find('\n'), rest.size());
        const std::string_view line = rest.substr(0, end);
        rest.remove_prefix(std::min(end + 1, rest.size()));
        const std::size_t tab1 = line.find('\t');
        const std::size_t tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
        if (tab2 == std::string_view::npos)
            return fail(fmt::format("ScriptCore described a coroutine as \"{}\"", line));
        std::uint64_t packed = 0;
        const auto parsed = std::from_chars(line.data(), line.data() + tab1, packed);
        if (parsed.ec != std::errc{} || parsed.ptr != line.data() + tab1)
            return fail(fmt::format("ScriptCore described a coroutine as \"{}\"", line));
        running.push_back(CoroutineInfo{ObjectId::unpack(packed),
                                        std::string(line.substr(tab1 + 1, tab2 - tab1 - 1)),
                                        std::string(line.substr(tab2 + 1))});
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
    std::string_view rest = *text;
    while (!rest.empty()) {
        const std::size_t end = std::min(rest.find('\n'), rest.size());
        const std::string_view line = rest.substr(0, end);
        rest.remove_prefix(std::min(end + 1, rest.size()));
        const std::size_t tab = line.find('\t');
        if (tab == std::string_view::npos)
            return fail(fmt::format("ScriptCore described an await in flight as \"{}\"", line));
        const std::string_view what = line.substr(0, tab);
        const std::string_view count = line.substr(tab + 1);
        if (what == "queued")
            awaits.push_back(fmt::format("{} continuation(s) queued on the game loop", count));
        else
            awaits.push_back(
                fmt::format("{} (async void, suspended at an await) x {}", what, count));
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
