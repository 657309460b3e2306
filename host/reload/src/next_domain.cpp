#include "next_domain.hpp"

#include "host/engine/script_host.hpp"

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
    std::vector<AssemblyFile> files;
    for (const std::filesystem::path& dll : reused) {
        auto file = AssemblyFile::read(dll);
        if (!file) { // gone since its build (pruned): nothing is loaded ahead
            spdlog::debug("not loading ahead: {}", file.error().message);
            files.clear();
            break;
        }
        files.push_back(std::move(*file));
    }
    preloaded_ = files.empty();
    domain_->preload(std::move(files));
    return true;
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
        failed_ = true;
        return Progress::Done;
    }
    preloaded_ = *done;
    return preloaded_ ? Progress::Done : Progress::Worked;
}

std::unique_ptr<ScriptDomain> NextDomain::take() {
    failed_ = false;
    preloaded_ = false;
    return std::move(domain_);
}

} // namespace scripthost
