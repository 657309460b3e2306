// reportUnhandledException: an exception no one caught off the game loop is logged where it
// happened and posted, as text, for the main thread (the mailbox and takeUnhandledExceptions:
// unhandled_exceptions_test.cpp).
#include "../support/mono_test_support.hpp"
#include "host/runtime/unhandled_exceptions.hpp"
#include "runtime/unhandled_exception_reporter.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/exception.h>
#include <mono/metadata/threads.h>
#include <thread>

using namespace scripthost;
using namespace scripthost::testing;
using mono::UnhandledExceptionKind;

namespace {

MonoObject* corlibException(const char* message) {
    return reinterpret_cast<MonoObject*>(mono_exception_from_name_msg(
        mono_get_corlib(), "System", "InvalidOperationException", message));
}

} // namespace

TEST_CASE("unhandled exceptions: a report reaches the main thread as text, with its script and "
          "kind") {
    (void)startBareRuntime();
    (void)takeUnhandledExceptions(); // nothing from before
    mono::reportUnhandledException(UnhandledExceptionKind::Timer, "Probe",
                                   corlibException("from a timer"));
    // Another thread reports too (attached, as a pool thread would be).
    std::thread other([] {
        MonoThread* self = mono_thread_attach(mono_get_root_domain());
        mono::reportUnhandledException(UnhandledExceptionKind::ThreadPool, "",
                                       corlibException("from the pool"));
        mono_thread_detach(self);
    });
    other.join();

    const auto taken = takeUnhandledExceptions();
    REQUIRE(taken.records.size() == 2);
    CHECK(taken.dropped == 0);
    CHECK(taken.records[0].kind == UnhandledExceptionKind::Timer);
    CHECK(taken.records[0].scriptClass == "Probe");
    CHECK(taken.records[0].exceptionType == "System.InvalidOperationException");
    CHECK(taken.records[0].message == "from a timer");
    CHECK(taken.records[0].text.find("from a timer") != std::string::npos);
    CHECK(taken.records[1].kind == UnhandledExceptionKind::ThreadPool);
    CHECK(taken.records[1].scriptClass.empty());
    CHECK(takeUnhandledExceptions().records.empty());
}
