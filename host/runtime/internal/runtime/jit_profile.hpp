#pragma once
// JitProfile: which methods of corlib and ScriptCore the generations have had JIT-compiled, so
// that a domain made ahead of the next reload (ScriptDomain::prepare) compiles them on its
// warm-up thread instead of the new code's first frames.
//
// A new app domain compiles everything again: not only the scripts' code but every method of
// ScriptCore and corlib the scripts reach (the engine API and its internal-call wrappers,
// string formatting, collections, reflection). In the demo that is ~15 ms of JIT in the first
// frame after a reload. What one generation compiled, the next one will mostly compile too; so
// Mono's JIT events record each such method (by image and metadata token, so the record does
// not depend on which ScriptCore image a generation uses: the shared one, or its own when
// ScriptCore changed while the host runs), and the prepared domain
// compiles them before any script of it runs.

#include <atomic>
#include <cstdint>
#include <mono/metadata/image.h>
#include <mono/metadata/object.h>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace scripthost::mono {

class JitProfile {
public:
    /// A method by where it is: corlib's image or a generation's ScriptCore, and its token.
    struct Entry {
        bool scriptCore = false;
        std::uint32_t token = 0;
        friend bool operator==(const Entry&, const Entry&) = default;
    };

    /// Starts recording (Mono's JIT-done event). Once, at runtime start.
    void install();
    /// What has been recorded so far, in the order it was first compiled. Any thread.
    [[nodiscard]] std::vector<Entry> entries() const;
    /// The method `entry` names in a domain whose ScriptCore image is `scriptCore`; null when
    /// it does not resolve.
    [[nodiscard]] static MonoMethod* resolve(const Entry& entry, MonoImage* scriptCore);
    /// How many times a generation has compiled a method of corlib or ScriptCore (recorded
    /// or not): what tests and benchmarks compare. Any thread.
    [[nodiscard]] std::uint64_t compilations() const noexcept {
        return compilations_.load(std::memory_order_relaxed);
    }
    /// The most methods kept (the oldest stay: what every generation compiles comes first).
    static constexpr std::size_t kLimit = 4096;

private:
    static void onCompiled(MonoMethod* method);
    struct EntryHash {
        std::size_t operator()(const Entry& e) const noexcept {
            return (std::size_t{e.scriptCore} << 32) ^ e.token;
        }
    };
    std::atomic<std::uint64_t> compilations_{0};
    mutable std::mutex mutex_;
    std::vector<Entry> order_;
    std::unordered_set<Entry, EntryHash> seen_;
};

} // namespace scripthost::mono
