// takeUnhandledExceptions and the runtime's UnhandledExceptionMailbox: records posted from any
// thread reach the main thread whole, in the order posted and each once; the mailbox is bounded
// and counts what did not fit (docs/MONO.md §17).
#include "../support/mono_test_support.hpp"
#include "host/runtime/unhandled_exceptions.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/unhandled_exception_reporter.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/exception.h>
#include <set>
#include <thread>

using namespace scripthost;
using namespace scripthost::testing;
using mono::UnhandledExceptionKind;

TEST_CASE("unhandled exceptions: a flood is bounded, and what did not fit is counted") {
    (void)startBareRuntime();
    (void)takeUnhandledExceptions();
    MonoObject* e = reinterpret_cast<MonoObject*>(mono_exception_from_name_msg(
        mono_get_corlib(), "System", "InvalidOperationException", "again"));
    const std::size_t posted = mono::UnhandledExceptionMailbox::kCapacity + 44;
    for (std::size_t i = 0; i < posted; ++i)
        mono::reportUnhandledException(UnhandledExceptionKind::Finalizer, "Spammer", e);
    const auto taken = takeUnhandledExceptions();
    CHECK(taken.records.size() == mono::UnhandledExceptionMailbox::kCapacity);
    CHECK(taken.dropped == 44);
    CHECK(takeUnhandledExceptions().dropped == 0);
}

TEST_CASE("unhandled exceptions: records posted from several threads are all taken once, each "
          "thread's in the order it posted them, with every field") {
    (void)startBareRuntime();
    (void)takeUnhandledExceptions();
    constexpr int kThreads = 4;
    constexpr int kEach = 50; // 200 in all: under the capacity
    static_assert(kThreads * kEach <= mono::UnhandledExceptionMailbox::kCapacity);
    std::vector<std::thread> posters;
    for (int t = 0; t < kThreads; ++t) {
        posters.emplace_back([t] {
            for (int i = 0; i < kEach; ++i) {
                mono::UnhandledExceptionRecord record;
                record.kind = t % 2 == 0 ? UnhandledExceptionKind::Timer
                                         : UnhandledExceptionKind::UnobservedTask;
                record.scriptClass = "Script" + std::to_string(t);
                record.exceptionType = "System.Exception";
                record.message = std::to_string(i);
                record.text = "System.Exception: " + std::to_string(i);
                mono::runtimeState().unhandledExceptions.post(std::move(record));
            }
        });
    }
    for (std::thread& p : posters)
        p.join();

    const auto taken = takeUnhandledExceptions();
    CHECK(taken.dropped == 0);
    REQUIRE(taken.records.size() == kThreads * kEach);
    std::vector<int> next(kThreads, 0);
    std::set<std::pair<std::string, std::string>> seen;
    for (const mono::UnhandledExceptionRecord& r : taken.records) {
        REQUIRE(r.scriptClass.size() == 7);
        const int t = r.scriptClass.back() - '0';
        REQUIRE((t >= 0 && t < kThreads));
        CHECK(r.message == std::to_string(next[t]++)); // in the order that thread posted
        CHECK(r.kind == (t % 2 == 0 ? UnhandledExceptionKind::Timer
                                    : UnhandledExceptionKind::UnobservedTask));
        CHECK(r.text == "System.Exception: " + r.message);
        seen.emplace(r.scriptClass, r.message);
    }
    CHECK(seen.size() == kThreads * kEach);
    CHECK(takeUnhandledExceptions().records.empty()); // each taken once
}
