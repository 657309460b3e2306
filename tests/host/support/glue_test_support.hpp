#pragma once
// Helpers for the glue's mirrored tests (tests/host/glue/): a small C# script compiled by the
// test with the real mcs against ScriptCore, run in a real ScriptHost. Every script gets the
// `Probe` class below, which turns what a call did into text the test can check.

#include "mono_test_support.hpp"

#include <memory>
#include <string>

namespace scripthost::testing {

/// C# every glue test script is compiled with:
/// - Probe.Outcome(action): "ok", or "<exception's full type name>: <message>" (a reflection
///   call's TargetInvocationException is unwrapped to the exception the call raised);
/// - Probe.Call(type, name, args): calls a non-public static method (an internal call itself,
///   past the C# checks in front of it) by reflection;
/// - Probe.OnThread(action): Outcome(action) on a new thread, waited for (Join).
inline const std::string kGlueProbeSource = R"(
using System;
using System.Reflection;
using System.Threading;

public static class Probe
{
    public static string Outcome(Action action)
    {
        try { action(); return "ok"; }
        catch (Exception e)
        {
            if (e is TargetInvocationException && e.InnerException != null) e = e.InnerException;
            return e.GetType().FullName + ": " + e.Message;
        }
    }

    public static object Call(Type type, string name, params object[] args)
    {
        MethodInfo method = type.GetMethod(name, BindingFlags.NonPublic | BindingFlags.Static);
        if (method == null) throw new MissingMethodException(type.FullName, name);
        return method.Invoke(null, args);
    }

    public static string OnThread(Action action)
    {
        string outcome = null;
        var thread = new Thread(() => { outcome = Outcome(action); });
        thread.Start();
        thread.Join();
        return outcome;
    }
}
)";

/// A host whose first generation is `source` (C#, its usings included) compiled with the
/// Probe class; `tag` names the temp folder, the assembly and the source file (tag.cs).
struct GlueHost {
    TempDir dir;
    AssemblyFile scripts;
    std::unique_ptr<ScriptHost> host;

    GlueHost(const std::string& tag, const std::string& source, int disableAfterFailures = 10)
        : dir(tag), scripts(compileScripts(dir, tag + ".dll",
                                           {{"Probe.cs", kGlueProbeSource}, {tag + ".cs", source}})),
          host(makeHostFrom(scripts, disableAfterFailures)) {}

    ScriptHost& operator*() const { return *host; }
    ScriptHost* operator->() const { return host.get(); }

    std::string text(ObjectId script, const std::string& field) const {
        return fieldOf<std::string>(*host, script, field);
    }
};

/// Whether `text` contains `part` (a doctest CHECK shows both on failure when used as
/// CHECK_MESSAGE(contains(a, b), a)).
inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace scripthost::testing
