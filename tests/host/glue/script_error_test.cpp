// ScriptError, guarded and raiseManaged (host/glue/src/script_error.cpp): what an internal call's
// failure becomes in the script. Test-only internal calls (ErrorProbe below) throw or raise each
// kind from C++; C# compiled by the test calls them in a real ScriptHost and records the
// managed exception it caught: its type, message, parameter name and where it was thrown.
#include "../support/glue_test_support.hpp"
#include "runtime/mono_text.hpp"
#include "script_error.hpp"

#include <stdexcept>

using namespace scripthost;
using namespace scripthost::testing;
using glue::ManagedError;

namespace {

void raiseGuarded(std::int32_t kind, MonoString* message) {
    glue::guarded("ErrorProbe.Raise", [&] {
        throw glue::ScriptError(static_cast<ManagedError>(kind), mono::toUtf8(message));
    });
}
void raiseDirect(std::int32_t kind, MonoString* message) {
    glue::raiseManaged(static_cast<ManagedError>(kind), mono::toUtf8(message));
}
void throwStd(MonoString* message) {
    glue::guarded("ErrorProbe.ThrowStd", [&] { throw std::runtime_error(mono::toUtf8(message)); });
}
void throwOther() {
    glue::guarded("ErrorProbe.ThrowOther", [] { throw 42; });
}
std::int32_t answer(MonoBoolean fail) {
    return glue::guarded("ErrorProbe.Answer", [&]() -> std::int32_t {
        if (fail != 0)
            throw std::runtime_error("no answer");
        return 42;
    });
}

void registerErrorProbe() {
    MonoRuntime& rt = **MonoRuntime::start();
    rt.registerInternalCall("ErrorProbe::Raise", reinterpret_cast<const void*>(&raiseGuarded));
    rt.registerInternalCall("ErrorProbe::RaiseDirect", reinterpret_cast<const void*>(&raiseDirect));
    rt.registerInternalCall("ErrorProbe::ThrowStd", reinterpret_cast<const void*>(&throwStd));
    rt.registerInternalCall("ErrorProbe::ThrowOther", reinterpret_cast<const void*>(&throwOther));
    rt.registerInternalCall("ErrorProbe::Answer", reinterpret_cast<const void*>(&answer));
}

const std::string kRaiser = R"(
using System;
using System.Runtime.CompilerServices;
using UEngine;

public static class ErrorProbe
{
    [MethodImpl(MethodImplOptions.InternalCall)] public static extern void Raise(int kind, string message);
    [MethodImpl(MethodImplOptions.InternalCall)] public static extern void RaiseDirect(int kind, string message);
    [MethodImpl(MethodImplOptions.InternalCall)] public static extern void ThrowStd(string message);
    [MethodImpl(MethodImplOptions.InternalCall)] public static extern void ThrowOther();
    [MethodImpl(MethodImplOptions.InternalCall)] public static extern int Answer(bool fail);
}

public class Raiser : UMonoScriptComponent
{
    [SerializeField] bool done;
    [SerializeField] string argumentNull = "";
    [SerializeField] string argument = "";
    [SerializeField] string missingReference = "";
    [SerializeField] string invalidOperation = "";
    [SerializeField] string unknownKind = "";
    [SerializeField] string direct = "";
    [SerializeField] string std = "";
    [SerializeField] string other = "";
    [SerializeField] string failedAnswer = "";
    [SerializeField] int answer;
    [SerializeField] bool thrownInCaller;
    [SerializeField] bool caughtAsMissingReference;

    // "<type>|<message>|<parameter name>"
    static string Describe(Action call)
    {
        try { call(); return "no exception"; }
        catch (Exception e)
        {
            var argument = e as ArgumentException;
            return e.GetType().FullName + "|" + e.Message + "|" + (argument == null ? "" : argument.ParamName);
        }
    }

    public override void Update(float deltaTime)
    {
        if (done) return;
        done = true;
        argumentNull = Describe(() => ErrorProbe.Raise(0, "target ✓"));
        argument = Describe(() => ErrorProbe.Raise(1, "a bad index ✓"));
        missingReference = Describe(() => ErrorProbe.Raise(2, "it has gone ✓"));
        invalidOperation = Describe(() => ErrorProbe.Raise(3, "not now ✓"));
        unknownKind = Describe(() => ErrorProbe.Raise(99, "odd kind"));
        direct = Describe(() => ErrorProbe.RaiseDirect(2, "raised directly"));
        std = Describe(() => ErrorProbe.ThrowStd("std failure ✓"));
        other = Describe(() => ErrorProbe.ThrowOther());
        failedAnswer = Describe(() => ErrorProbe.Answer(true));
        answer = ErrorProbe.Answer(false);
        try { ErrorProbe.Raise(2, "where"); }
        catch (MissingReferenceException e)
        {
            caughtAsMissingReference = true;
            thrownInCaller = e.StackTrace != null && e.StackTrace.Contains("Raiser.Update");
        }
    }
}
)";

} // namespace

TEST_CASE("Script error: each ScriptError kind becomes its managed exception with the message, "
          "thrown in the calling script") {
    GlueHost host("script-error", kRaiser);
    registerErrorProbe();
    const ObjectId s = spawnScript(*host, "Raiser");
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    const std::string argumentNull = host.text(s, "argumentNull");
    CHECK_MESSAGE(argumentNull.starts_with("System.ArgumentNullException|"), argumentNull);
    CHECK_MESSAGE(argumentNull.ends_with("|target ✓"), argumentNull); // the parameter's name
    CHECK(host.text(s, "argument") == "System.ArgumentException|a bad index ✓|");
    CHECK(host.text(s, "missingReference") == "UEngine.MissingReferenceException|it has gone ✓|");
    CHECK(host.text(s, "invalidOperation") == "System.InvalidOperationException|not now ✓|");
    CHECK(host.text(s, "direct") == "UEngine.MissingReferenceException|raised directly|");
    CHECK(fieldOf<bool>(*host, s, "caughtAsMissingReference"));
    CHECK(fieldOf<bool>(*host, s, "thrownInCaller"));
}

TEST_CASE("Script error: guarded turns any other C++ exception into an InvalidOperationException "
          "naming the call, and an unknown kind raises InvalidOperationException") {
    GlueHost host("script-error-other", kRaiser);
    registerErrorProbe();
    const ObjectId s = spawnScript(*host, "Raiser");
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    CHECK(host.text(s, "std") == "System.InvalidOperationException|ErrorProbe.ThrowStd: std failure ✓|");
    CHECK(host.text(s, "other") ==
          "System.InvalidOperationException|ErrorProbe.ThrowOther: unknown native error|");
    CHECK(host.text(s, "failedAnswer") ==
          "System.InvalidOperationException|ErrorProbe.Answer: no answer|");
    CHECK(fieldOf<std::int64_t>(*host, s, "answer") == 42); // a body that succeeds returns its value
    CHECK(host.text(s, "unknownKind") == "System.InvalidOperationException|odd kind|");
}
