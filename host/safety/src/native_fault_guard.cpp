#include "host/safety/native_fault_guard.hpp"

#include <array>
#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <ucontext.h>

namespace scripthost {

namespace {

constexpr std::array<int, 4> kCrashSignals{SIGSEGV, SIGBUS, SIGFPE, SIGILL};

/// One guarded call on this thread; guarded calls nest (a system that runs another).
struct GuardFrame {
    sigjmp_buf resume;
    GuardFrame* outer = nullptr;
    NativeFault fault;
};

// initial-exec: reading it inside the signal handler must not allocate.
thread_local GuardFrame* tCurrent __attribute__((tls_model("initial-exec"))) = nullptr;

struct Installed {
    std::atomic<bool> done{false};
    NativeFaultGuard::ForeignCodeCheck foreignCode = nullptr;
    std::array<struct sigaction, kCrashSignals.size()> previous{};
};

Installed& guardState() noexcept {
    static Installed* state = new Installed(); // never destroyed: handlers run during exit()
    return *state;
}

/// The faulting instruction and the stack pointer at the fault.
std::pair<std::uintptr_t, std::uintptr_t> faultingPcAndSp(void* context) noexcept {
    if (context == nullptr)
        return {0, 0};
    const auto& machine = static_cast<ucontext_t*>(context)->uc_mcontext;
#if defined(__x86_64__)
    return {static_cast<std::uintptr_t>(machine.gregs[REG_RIP]),
            static_cast<std::uintptr_t>(machine.gregs[REG_RSP])};
#elif defined(__aarch64__)
    return {static_cast<std::uintptr_t>(machine.pc), static_cast<std::uintptr_t>(machine.sp)};
#else
    (void)machine;
    return {0, 0};
#endif
}

/// Hands the signal to whoever had it before us.
void chain(int signal, siginfo_t* info, void* context) noexcept {
    const Installed& state = guardState();
    for (std::size_t i = 0; i < kCrashSignals.size(); ++i) {
        if (kCrashSignals[i] != signal)
            continue;
        const struct sigaction& before = state.previous[i];
        if ((before.sa_flags & SA_SIGINFO) != 0 && before.sa_sigaction != nullptr) {
            before.sa_sigaction(signal, info, context);
            return;
        }
        if (before.sa_handler == SIG_IGN)
            return;
        if (before.sa_handler != SIG_DFL && before.sa_handler != nullptr) {
            before.sa_handler(signal);
            return;
        }
        break;
    }
    // The default action: the faulting instruction runs again and ends the process with
    // this signal (a core dump), as it would have without us; a signal sent by kill() is
    // raised again and delivered once the handler returns.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, nullptr);
    if (info == nullptr || info->si_code <= 0)
        raise(signal);
}

void onCrashSignal(int signal, siginfo_t* info, void* context) {
    GuardFrame* frame = tCurrent;
    const auto [pc, sp] = faultingPcAndSp(context);
    const Installed& state = guardState();
    const bool sentByProcess = info != nullptr && info->si_code <= 0; // kill(), raise()
    if (frame != nullptr && !sentByProcess &&
        (state.foreignCode == nullptr || !state.foreignCode(reinterpret_cast<void*>(pc)))) {
        frame->fault.signal = signal;
        frame->fault.code = info ? info->si_code : 0;
        frame->fault.address = info ? reinterpret_cast<std::uintptr_t>(info->si_addr) : 0;
        frame->fault.pc = pc;
        // A fault near the stack pointer: the stack ran into its guard page. Below it when a
        // push or call touched the page first; a little above it when a new frame was
        // reserved first (`sub rsp`) and then written at a positive offset, as unoptimised
        // (-O0) code does with its locals and spilled arguments.
        const std::uintptr_t address = frame->fault.address;
        frame->fault.stackOverflow =
            signal == SIGSEGV && address != 0 && address < sp + 4096 && address + 65536 > sp;
        // The guarded call saved no signal mask (that costs a system call per call): unblock
        // the signal this handler runs with, so the next fault is caught too.
        sigset_t handled;
        sigemptyset(&handled);
        sigaddset(&handled, signal);
        pthread_sigmask(SIG_UNBLOCK, &handled, nullptr);
        siglongjmp(frame->resume, 1);
    }
    chain(signal, info, context);
}

/// A stack for the handler, so a fault from running out of stack can still be handled.
void ensureAlternateStack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0)
        return; // Mono (or someone) gave this thread one already
    constexpr std::size_t kSize = 64 * 1024;
    stack_t stack{};
    stack.ss_sp = new char[kSize]; // the thread's for its life
    stack.ss_size = kSize;
    sigaltstack(&stack, nullptr);
}

const char* signalName(int signal) {
    switch (signal) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    default:
        return "signal";
    }
}

std::string whatHappened(int signal, int code, std::uintptr_t address, bool stackOverflow) {
    switch (signal) {
    case SIGSEGV:
        if (stackOverflow)
            return fmt::format("stack overflow at {:#x}", address);
        return fmt::format("{} at {:#x}",
                           code == SEGV_ACCERR ? "memory it may not touch" : "no memory", address);
    case SIGBUS:
        return fmt::format("bad memory access at {:#x}", address);
    case SIGFPE:
        return code == FPE_INTDIV   ? "integer division by zero"
               : code == FPE_INTOVF ? "integer overflow"
                                    : "arithmetic fault";
    case SIGILL:
        return fmt::format("illegal instruction at {:#x}", address);
    default:
        return "fault";
    }
}

std::string demangled(const char* name) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> readable(
        abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
    return status == 0 && readable ? std::string(readable.get()) : std::string(name);
}

} // namespace

std::string NativeFault::describe() const {
    std::string where = fmt::format("{:#x}", pc);
    Dl_info symbol{};
    if (pc != 0 && dladdr(reinterpret_cast<void*>(pc), &symbol) != 0) {
        const std::string file =
            symbol.dli_fname ? std::filesystem::path(symbol.dli_fname).filename().string() : "?";
        if (symbol.dli_sname != nullptr) {
            where = fmt::format("{}+{:#x} ({})", demangled(symbol.dli_sname),
                                pc - reinterpret_cast<std::uintptr_t>(symbol.dli_saddr), file);
        } else {
            where = fmt::format("{:#x} ({}+{:#x})", pc, file,
                                pc - reinterpret_cast<std::uintptr_t>(symbol.dli_fbase));
        }
    }
    return fmt::format("{} ({}) in {}", signalName(signal),
                       whatHappened(signal, code, address, stackOverflow), where);
}

void NativeFaultGuard::install(ForeignCodeCheck foreignCode) {
    Installed& state = guardState();
    state.foreignCode = foreignCode;
    ensureAlternateStack();
    for (std::size_t i = 0; i < kCrashSignals.size(); ++i) {
        struct sigaction current {};
        sigaction(kCrashSignals[i], nullptr, &current);
        if ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == &onCrashSignal)
            continue; // ours already
        struct sigaction action {};
        action.sa_sigaction = &onCrashSignal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(kCrashSignals[i], &action, &state.previous[i]);
    }
    state.done = true;
}

bool NativeFaultGuard::installed() noexcept {
    return guardState().done.load();
}

std::optional<NativeFault> NativeFaultGuard::runErased(void (*call)(void*), void* context) {
    GuardFrame frame;
    frame.outer = tCurrent;
    // Restores the outer frame however this call ends: normally, by an exception, or by the
    // jump back from the handler.
    struct Restore {
        GuardFrame* outer;
        ~Restore() { tCurrent = outer; }
    } restore{frame.outer};
    // No signal mask saved (sigsetjmp(…, 1) is a system call per guarded call, which native
    // script methods called from C# cannot afford): the handler unblocks its signal itself
    // before it jumps back.
    if (sigsetjmp(frame.resume, 0) != 0)
        return frame.fault;
    tCurrent = &frame;
    call(context);
    return std::nullopt;
}

} // namespace scripthost
