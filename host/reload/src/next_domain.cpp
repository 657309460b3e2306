#include "next_domain.hpp"

#include "host/engine/script_host.hpp"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace scripthost {

// Idle time is only used when the work is expected to end this long before the next frame.
constexpr std::chrono::microseconds kMargin{1500};

bool NextDomain::make(Clock::time_point until, const std::vector<std::filesystem::path>& reused) {
    if (domain_ || failed_ || host_->domain() == nullptr)
        return false;
    const auto started = Clock::now();
    if ((until != Clock::time_point::max() && started + makeCost_ + kMargin > until) ||
        !ScriptDomain::waitForUnloads(std::chrono::milliseconds(0)))
        return false;
    auto made =
        ScriptDomain::prepare(host_->peekGenerationNumber(), host_->scriptCore(), host_->world());
    makeCost_ = Clock::now() - started;
    if (!made) {
        failed_ = true; // the load stage will say what is wrong, if it still is
        spdlog::debug("preparing the next reload's domain failed: {}", made.error().message);
        return false;
    }
    domain_ = std::move(*made);
    queued_.clear();
    queue(reused);
    return true;
}

void NextDomain::queue(const std::vector<std::filesystem::path>& dlls) {
    std::vector<AssemblyFile> files;
    for (const std::filesystem::path& dll : dlls) {
        auto file = AssemblyFile::read(dll);
        if (!file) { // gone since its build (pruned): nothing is loaded ahead
            spdlog::debug("not loading ahead: {}", file.error().message);
            files.clear();
            break;
        }
        files.push_back(std::move(*file));
    }
    if (files.empty()) {
        preloaded_ = queued_.empty() || preloaded_;
        return;
    }
    queued_.insert(queued_.end(), dlls.begin(), dlls.end());
    preloaded_ = false;
    domain_->preload(std::move(files));
}

void NextDomain::expect(const std::vector<std::filesystem::path>& reused) {
    if (!domain_)
        return;
    const bool stale = std::ranges::any_of(queued_, [&](const std::filesystem::path& dll) {
        return std::ranges::find(reused, dll) == reused.end();
    });
    if (stale) { // it loaded what the build replaces: the reload would not take it
        // (Not while ScriptCore's warm-up runs: the unload would wait for it here. The
        // reload's load stage then makes a fresh domain, as it would have.)
        if (!domain_->waitForBackgroundWarm(Clock::now()))
            return;
        spdlog::debug("the next reload's domain loaded an assembly the build replaces: made anew");
        (void)domain_->unloadInBackground();
        domain_.reset();
        queued_.clear();
        preloaded_ = false;
        return;
    }
    std::vector<std::filesystem::path> missing;
    for (const std::filesystem::path& dll : reused) {
        if (std::ranges::find(queued_, dll) == queued_.end())
            missing.push_back(dll);
    }
    queue(missing);
}

NextDomain::Progress NextDomain::preload(std::chrono::microseconds slice) {
    if (!domain_ || preloaded_)
        return Progress::Done;
    if (!domain_->waitForBackgroundWarm(Clock::now()))
        return Progress::Waiting;
    auto done = domain_->preloadStep(slice, host_->domain());
    if (!done) {
        spdlog::debug("loading ahead into the next reload's domain failed: {}",
                      done.error().message);
        (void)domain_->unloadInBackground();
        domain_.reset();
        queued_.clear();
        failed_ = true;
        return Progress::Done;
    }
    preloaded_ = *done;
    return preloaded_ ? Progress::Done : Progress::Worked;
}

std::unique_ptr<ScriptDomain> NextDomain::take() {
    failed_ = false;
    preloaded_ = false;
    queued_.clear();
    return std::move(domain_);
}

} // namespace scripthost
