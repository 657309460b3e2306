#pragma once
// CrashReport: what Mono's crash reporter left behind when a host died.
//
// Mono's handler for a native crash prints the native and managed stacks to stderr and writes
// mono_crash.<hash>.<n>.json in the process's working folder: every thread, the crashed one
// marked, each with its unmanaged frames. The supervisor moves those files out of the user's
// folder into the project's state folder and names the crashed thread's top frames in its log.

#include <chrono>
#include <filesystem>
#include <string>

namespace scripthost {

struct CrashReport {
    std::filesystem::path file; ///< the newest report, where it was moved to; empty: none
    std::string topFrames;      ///< "mono_gc_collect+0x12 | sgen_... | …" of the crashed thread
};

/// Moves every mono_crash.*.json of the working folder into `folder` (created when missing;
/// empty `folder`: they stay), and reads the newest for the crashed thread's top frames.
/// Never fails: what cannot be moved or read is left out.
[[nodiscard]] CrashReport collectCrashReport(const std::filesystem::path& folder);

/// The crashed thread's top `count` unmanaged frames of a report's JSON text; "" when the
/// text is not a report or names no crashed thread.
[[nodiscard]] std::string crashedThreadFrames(const std::string& reportJson, std::size_t count = 5);

} // namespace scripthost
