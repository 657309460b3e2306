// NativeFaultGuard: crash signals in a guarded call come back as values; outside a guarded
// call, or in code the check calls foreign, they still end the process as before.
#include "host/safety/native_fault_guard.hpp"

#include <atomic>
#include <csignal>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

using scripthost::NativeFault;
using scripthost::NativeFaultGuard;

namespace {

std::atomic<bool> everythingForeign{false};

bool foreignWhenAsked(void*) noexcept {
    return everythingForeign.load();
}

void installGuard() {
    NativeFaultGuard::install(&foreignWhenAsked);
}

__attribute__((noinline)) void writeThroughNull(int value) {
    volatile int* volatile nowhere = nullptr;
    *nowhere = value;
}

volatile int zero = 0;
__attribute__((noinline)) int divideByZero(int value) {
    return value / zero;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winfinite-recursion" // on purpose
// Two shapes of the same overflow. Built with optimisation, the call's push touches the
// guard page first: the fault is just below the stack pointer. Built without (game code in a
// Debug build; this file is built -O0 with the other tests), the frame is reserved first and
// its locals written above the stack pointer: the fault is just above it.
[[gnu::noinline, gnu::optimize("O2")]] int recurseForeverOptimised(int depth) {
    volatile char frame[256];
    frame[0] = static_cast<char>(depth);
    return recurseForeverOptimised(depth + 1) + frame[0];
}
[[gnu::noinline, gnu::optimize("O0")]] int recurseForeverUnoptimised(int depth) {
    volatile char frame[256];
    frame[0] = static_cast<char>(depth);
    return recurseForeverUnoptimised(depth + 1) + frame[0];
}
#pragma GCC diagnostic pop

/// Runs `body` in a child process (its output silenced) and returns how it ended.
template <class Body> int childStatus(Body body) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const int devNull = ::open("/dev/null", O_WRONLY);
        ::dup2(devNull, STDOUT_FILENO);
        ::dup2(devNull, STDERR_FILENO);
        body();
        ::_exit(0);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    return status;
}

} // namespace

TEST_CASE("NativeFaultGuard: a write through a null pointer comes back as SIGSEGV at 0x0") {
    installGuard();
    bool before = false;
    const auto fault = NativeFaultGuard::run([&] {
        before = true;
        writeThroughNull(7);
    });
    REQUIRE(fault.has_value());
    CHECK(before);
    CHECK(fault->signal == SIGSEGV);
    CHECK(fault->address == 0);
    CHECK(fault->pc != 0);
    CHECK_FALSE(fault->stackOverflow);
    CHECK(fault->describe().starts_with("SIGSEGV (no memory at 0x0) in "));
}

TEST_CASE("NativeFaultGuard: the same signal again after a caught fault is caught too - "
          "the handler unblocks it before jumping back") {
    installGuard();
    for (int i = 0; i < 3; ++i) {
        const auto fault = NativeFaultGuard::run([&] { writeThroughNull(i); });
        REQUIRE(fault.has_value());
        CHECK(fault->signal == SIGSEGV);
    }
    const auto fpe = NativeFaultGuard::run([] { (void)divideByZero(1); });
    REQUIRE(fpe.has_value());
    CHECK(fpe->signal == SIGFPE);
    // And nothing stays blocked for the thread afterwards.
    sigset_t blocked;
    REQUIRE(pthread_sigmask(SIG_BLOCK, nullptr, &blocked) == 0);
    CHECK(sigismember(&blocked, SIGSEGV) == 0);
    CHECK(sigismember(&blocked, SIGFPE) == 0);
}

TEST_CASE("NativeFaultGuard: integer division by zero comes back as SIGFPE") {
    installGuard();
    int result = -1;
    const auto fault = NativeFaultGuard::run([&] { result = divideByZero(5); });
    REQUIRE(fault.has_value());
    CHECK(fault->signal == SIGFPE);
    CHECK(result == -1);
    CHECK(fault->describe().starts_with("SIGFPE (integer division by zero) in "));
}

TEST_CASE("NativeFaultGuard: endless native recursion comes back as SIGSEGV on the signal "
          "stack, and the thread's stack works again afterwards") {
    installGuard();
    for (const bool optimised : {true, false}) {
        CAPTURE(optimised);
        const auto fault = NativeFaultGuard::run(
            [&] { (void)(optimised ? recurseForeverOptimised(0) : recurseForeverUnoptimised(0)); });
        REQUIRE(fault.has_value());
        CHECK(fault->signal == SIGSEGV);
        CHECK(fault->stackOverflow);
        CHECK(fault->describe().starts_with("SIGSEGV (stack overflow at "));
    }
    // The same thread goes on, guarded calls included.
    CHECK(NativeFaultGuard::run([] { (void)divideByZero(0); })->signal == SIGFPE);
    int ran = 0;
    CHECK_FALSE(NativeFaultGuard::run([&] { ran = 3; }).has_value());
    CHECK(ran == 3);
}

TEST_CASE("NativeFaultGuard: a call that does not crash runs once and returns no fault and "
          "faults can follow one another, nested guards catch their own") {
    installGuard();
    int calls = 0;
    CHECK_FALSE(NativeFaultGuard::run([&] { ++calls; }).has_value());
    CHECK(calls == 1);
    for (int i = 0; i < 3; ++i)
        CHECK(NativeFaultGuard::run([] { writeThroughNull(1); })->signal == SIGSEGV);

    int outerAfterInner = 0;
    std::optional<NativeFault> inner;
    const auto outer = NativeFaultGuard::run([&] {
        inner = NativeFaultGuard::run([] { (void)divideByZero(1); });
        outerAfterInner = 1;
    });
    CHECK_FALSE(outer.has_value());
    REQUIRE(inner.has_value());
    CHECK(inner->signal == SIGFPE);
    CHECK(outerAfterInner == 1);
}

TEST_CASE("NativeFaultGuard: an exception passes through the guard, which is then gone") {
    installGuard();
    CHECK_THROWS_WITH_AS((void)NativeFaultGuard::run([] { throw std::runtime_error("thrown"); }),
                         "thrown", std::runtime_error);
    // No guard is left behind: a fault now ends the process as it would without us.
    const int status = childStatus([] { writeThroughNull(2); });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGSEGV);
}

TEST_CASE("NativeFaultGuard: a fault in code the check calls foreign goes to the handler "
          "before it, here the default action") {
    installGuard();
    const int status = childStatus([] {
        everythingForeign = true;
        (void)NativeFaultGuard::run([] { writeThroughNull(3); });
    });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGSEGV);
    // And a signal sent with kill() is not taken for a crash of the guarded call.
    const int killed = childStatus([] { (void)NativeFaultGuard::run([] { ::raise(SIGBUS); }); });
    CHECK(WIFSIGNALED(killed));
    CHECK(WTERMSIG(killed) == SIGBUS);
}
