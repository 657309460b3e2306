// DomainUnloader: domains submitted are unloaded in order on the unloader's own thread, the
// threads their generation started stopped first and named in the log; a domain with a thread
// that will not stop stays loaded and its failure is logged and handed out once (docs/MONO.md
// §2, §15).
#include "../../support/captured_log.hpp"
#include "../support/generation_code_support.hpp"
#include "runtime/domain_unloader.hpp"
#include "runtime/runtime_state.hpp"

#include <spdlog/details/os.h>
#include <sstream>
#include <thread>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

constexpr const char* kThreads = R"(
using System;
using System.Threading;
public static class Worker {
    public static int started, finallies, spin;
    public static volatile bool release;
    static void StartAndWait(Thread thread) {
        int before = Volatile.Read(ref started);
        thread.Start();
        DateTime until = DateTime.UtcNow.AddSeconds(60);
        while (Volatile.Read(ref started) == before) {
            if (DateTime.UtcNow > until) throw new TimeoutException("the thread did not run");
            Thread.Sleep(1);
        }
    }
    public static void Poller() {
        StartAndWait(new Thread(() => {
            Interlocked.Increment(ref started);
            try { while (true) Thread.Sleep(5); } finally { Interlocked.Increment(ref finallies); }
        }) { Name = "poller" });
    }
    public static void Stubborn() {
        StartAndWait(new Thread(() => {
            Interlocked.Increment(ref started);
            try { while (true) Thread.Sleep(5); }
            finally { while (!release) spin++; Interlocked.Increment(ref finallies); }
        }) { Name = "stubborn" });
    }
    public static void Release() { release = true; }
    public static int Finallies() { return Volatile.Read(ref finallies); }
}
)";

/// A generation that started `starter`'s thread, its domain released for unloading.
struct Dying {
    MonoDomain* domain = nullptr;
    std::int32_t id = 0;
    MonoImage* image = nullptr;
    std::vector<mono::StartedThread> threads;
};

Dying startAndRelease(std::uint32_t generation, const AssemblyFile& code, const char* starter) {
    GenerationCode gen = loadGeneration(generation, code);
    callStatic(gen.image, "Worker", starter);
    Dying dying;
    dying.id = mono_domain_get_id(gen.domain.get());
    dying.image = gen.image;
    dying.threads = mono::runtimeState().threads.takeRunning(gen.domain.get());
    dying.domain = gen.domain.release();
    REQUIRE(dying.domain != nullptr);
    return dying;
}

/// The captured log's lines that contain `text`.
std::vector<std::string> linesWith(const CapturedLog& log, const std::string& text) {
    std::vector<std::string> found;
    std::istringstream lines(log.text());
    for (std::string line; std::getline(lines, line);) {
        if (line.find(text) != std::string::npos)
            found.push_back(line);
    }
    return found;
}

std::chrono::steady_clock::time_point in(std::chrono::seconds wait) {
    return std::chrono::steady_clock::now() + wait;
}

} // namespace

TEST_CASE("DomainUnloader: submitted domains are unloaded in order on the unloader's own "
          "thread, the threads they started stopped first and named in the log") {
    auto files = startBareRuntime();
    TempDir dir("domain-unloader");
    const AssemblyFile code = compileScripts(dir, "threads.dll", {{"Threads.cs", kThreads}});
    CapturedLog log;
    spdlog::default_logger()->set_pattern("%t %l %v"); // the logging thread's id first
    const std::string self = std::to_string(spdlog::details::os::thread_id()) + " ";

    mono::DomainUnloader unloader;
    Dying first = startAndRelease(41, code, "Poller");
    Dying second = startAndRelease(42, code, "Poller");
    REQUIRE(first.threads.size() == 1);
    unloader.submit(first.domain, "generation 41", std::move(first.threads));
    unloader.submit(second.domain, "generation 42", std::move(second.threads));
    REQUIRE(unloader.waitIdle(in(std::chrono::seconds(60))));
    CHECK(unloader.pending() == 0);
    CHECK(unloader.takeFailures().empty());
    CHECK(mono_domain_get_by_id(first.id) == nullptr);
    CHECK(mono_domain_get_by_id(second.id) == nullptr);

    const auto unloaded = linesWith(log, "unloaded; stopped 1 thread(s) it started: poller");
    REQUIRE(unloaded.size() == 2);
    CHECK(unloaded[0].find("generation 41") != std::string::npos);
    CHECK(unloaded[1].find("generation 42") != std::string::npos);
    for (const std::string& line : unloaded)
        CHECK_MESSAGE(line.rfind(self, 0) != 0, line); // not logged by the submitting thread
    unloader.stop();
}

TEST_CASE("DomainUnloader: unload on the calling thread unloads a domain that started no "
          "threads and logs nothing") {
    auto files = startBareRuntime();
    TempDir dir("domain-unloader");
    const AssemblyFile code = compileScripts(dir, "threads.dll", {{"Threads.cs", kThreads}});
    CapturedLog log;
    GenerationCode gen = loadGeneration(43, code);
    const std::int32_t id = mono_domain_get_id(gen.domain.get());
    MonoDomain* dying = gen.domain.release();
    CHECK(mono::DomainUnloader::unload(dying, "generation 43", {}).empty());
    CHECK(mono_domain_get_by_id(id) == nullptr); // gone when unload returns
    CHECK(log.text().find("generation 43") == std::string::npos);
}

TEST_CASE("DomainUnloader: a domain whose thread will not stop stays loaded, and the failure is "
          "logged and handed out once") {
    auto files = startBareRuntime();
    TempDir dir("domain-unloader");
    const AssemblyFile code = compileScripts(dir, "threads.dll", {{"Threads.cs", kThreads}});
    CapturedLog log;
    const std::size_t unstoppable = mono::runtimeState().threads.unstoppable();

    mono::DomainUnloader unloader;
    Dying stuck = startAndRelease(44, code, "Stubborn");
    REQUIRE(stuck.threads.size() == 1);
    unloader.submit(stuck.domain, "generation 44", std::move(stuck.threads));
    REQUIRE(unloader.waitIdle(in(std::chrono::seconds(60)))); // after the 2 s thread budget
    const std::vector<std::string> failures = unloader.takeFailures();
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].find("generation 44 was not unloaded: 1 thread(s) it started did not stop "
                           "within 2000 ms") != std::string::npos);
    CHECK(failures[0].find("stubborn") != std::string::npos);
    CHECK(unloader.takeFailures().empty());
    CHECK(linesWith(log, "[error] generation 44 was not unloaded").size() == 1);
    CHECK(mono_domain_get_by_id(stuck.id) == stuck.domain); // still loaded
    CHECK(mono::runtimeState().threads.unstoppable() == unstoppable + 1);

    // The domain stays loaded for good: let its thread leave the finally block and end.
    mono::enterDomain(stuck.domain);
    callStatic(stuck.image, "Worker", "Release");
    const auto deadline = in(std::chrono::seconds(60));
    while (callStaticInt(stuck.image, "Worker", "Finallies") == 0 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    CHECK(callStaticInt(stuck.image, "Worker", "Finallies") == 1);
    mono::enterDomain(mono::runtimeState().root);
    unloader.stop();
}
