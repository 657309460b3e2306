#pragma once
// sleepUntil: sleeps until a steady-clock time, however often a signal interrupts the sleep.

#include <chrono>

namespace scripthost::posix {

/// Returns at `deadline` (or at once when it has passed), whatever signals arrive meanwhile.
///
/// std::this_thread::sleep_until on std::chrono::steady_clock sleeps for a *relative*
/// duration, and libstdc++ resumes a sleep that a signal interrupted with the time that was
/// left when the signal came: the time the handler took is added to the sleep. Mono stops a
/// thread for every stop-the-world collection with a signal whose handler waits until the
/// world restarts, so a game loop sleeping out its frame through a background unload's
/// pauses woke late by all of them (2-5 ms at 1,000 entities, measured). This sleeps to an
/// absolute time on the clock steady_clock reads (CLOCK_MONOTONIC), so an interruption
/// costs nothing once the handler has returned before the deadline.
void sleepUntil(std::chrono::steady_clock::time_point deadline) noexcept;

} // namespace scripthost::posix
