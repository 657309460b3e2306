#pragma once
// NextDomain: the next reload's app domain, made ahead in the loop's idle time. First the
// domain with ScriptCore loaded and its JIT warm-up started (ScriptDomain::prepare); then, for a
// project of assemblies by folder, the assemblies the next build is expected to reuse, loaded
// and JIT-compiled into it a slice at a time (ScriptDomain::preload). The reload that comes
// takes it; one whose build rebuilt an assembly loaded ahead makes a fresh domain instead
// (ReloadTransaction's load stage).

#include "host/domain/script_domain.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

namespace scripthost {

class ScriptHost;

/// Main thread only (it is the reload coordinator's).
class NextDomain {
public:
    using Clock = std::chrono::steady_clock;

    explicit NextDomain(ScriptHost& host) : host_(&host) {}

    /// Makes the domain, when there is none, making one has not failed since the last reload,
    /// the old generations are unloaded (their collections would compete) and it is expected to
    /// end before `until` (Clock::time_point::max(): whenever). `reused`: the scripts assemblies
    /// to load ahead into it (ScriptAssemblyBuilds::likelyReused), in dependency order. True
    /// when it made one.
    bool make(Clock::time_point until, const std::vector<std::filesystem::path>& reused);
    enum class Progress {
        Done,    ///< nothing is left to load ahead (or there is no domain)
        Worked,  ///< for the slice given; more is left
        Waiting, ///< on ScriptCore's warm-up (its own thread): nothing done
    };
    /// Loads ahead what make() queued, for at most `slice`, once ScriptCore's warm-up is done
    /// (the two would compete for the JIT). An assembly that does not load drops the domain
    /// (logged, not an error: the reload's load stage says what is wrong, if it still is).
    Progress preload(std::chrono::microseconds slice);

    /// A build was submitted that reuses `reused` (in dependency order): a domain that loaded
    /// (or queued) an assembly not among them is dropped (unloaded in the background: make()
    /// makes the next one); otherwise what it lacks of them is queued for preload().
    void expect(const std::vector<std::filesystem::path>& reused);

    [[nodiscard]] bool exists() const noexcept { return domain_ != nullptr; }
    /// Whether the domain is made and everything queued is loaded ahead.
    [[nodiscard]] bool complete() const noexcept { return domain_ != nullptr && preloaded_; }
    /// The domain for the reload that starts now (nullptr when there is none); the next one
    /// may be made after it.
    [[nodiscard]] std::unique_ptr<ScriptDomain> take();

private:
    ScriptHost* host_;
    /// Reads `dlls` and queues them in the domain; none when one cannot be read (pruned).
    void queue(const std::vector<std::filesystem::path>& dlls);

    std::unique_ptr<ScriptDomain> domain_;
    std::vector<std::filesystem::path> queued_; // what the domain was given to load ahead
    bool preloaded_ = false;
    bool failed_ = false;                                     // not tried again until a reload
    Clock::duration makeCost_ = std::chrono::milliseconds(6); // the last one's (a guess first)
};

} // namespace scripthost
