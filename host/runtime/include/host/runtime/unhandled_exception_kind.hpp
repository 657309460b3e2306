#pragma once
// UnhandledExceptionKind: where an exception no one caught off the game loop was thrown.

#include <string_view>

namespace scripthost::mono {

/// The kinds of thread (or moment) an unhandled exception can come from. The numbers are
/// shared with ScriptCore/src/Internal/UnhandledExceptions.cs and must not change.
enum class UnhandledExceptionKind : int {
    Thread = 0,         ///< a thread a script started (AppDomain.UnhandledException)
    ThreadPool = 1,     ///< a thread-pool work item (profiler hook)
    Timer = 2,          ///< a System.Threading.Timer callback, on the pool
    AsyncVoid = 3,      ///< an async void method continuing on the pool
    Finalizer = 4,      ///< a finalizer, on the GC's finalizer thread (profiler hook)
    UnobservedTask = 5, ///< a Task no one awaited, found when the GC collected it
};

/// Says where it happened, for "script X threw <where>: ...".
[[nodiscard]] constexpr std::string_view whereText(UnhandledExceptionKind kind) noexcept {
    switch (kind) {
    case UnhandledExceptionKind::Thread:
        return "on a thread it started (not on the game loop)";
    case UnhandledExceptionKind::ThreadPool:
        return "on a thread-pool thread (not on the game loop)";
    case UnhandledExceptionKind::Timer:
        return "in a timer callback on a thread-pool thread (not on the game loop)";
    case UnhandledExceptionKind::AsyncVoid:
        return "in an async void method continuing on a thread-pool thread (not on the game "
               "loop)";
    case UnhandledExceptionKind::Finalizer:
        return "in a finalizer, on the GC's finalizer thread (not on the game loop)";
    case UnhandledExceptionKind::UnobservedTask:
        return "in a Task no one awaited (unobserved; found when the GC collected the task)";
    }
    return "off the game loop";
}

} // namespace scripthost::mono
