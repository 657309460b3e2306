// scripthost-compile-server: a resident mcs. Loads /usr/lib/mono/4.5/mcs.exe once and runs
// Mono.CSharp.CompilerCallableEntryPoint.InvokeCompiler per request, so each build skips
// process start-up and most JIT work (≈35 ms instead of ≈130 ms for one file).
//
// Protocol (UTF-8, '\n'-terminated lines; stdin = requests, stdout = responses):
//   server → READY <protocol-version> <mcs-path>                     once, after start-up
//   client → BUILD <id> <argc>   then one escaped line with the working folder for the build,
//                                then argc lines, one escaped mcs argument each
//   server → "| <text>"         zero or more lines of compiler output (escaped)
//   server → END <id> <status> <elapsed-ms>     status: 0 ok, 1 build failed, 2 server error
//   client → PING <id>   server → PONG <id>     (liveness check)
//   client → QUIT  (or EOF)                      server exits 0
// Escaping: '\\' → "\\\\", '\n' → "\\n", '\r' → "\\r". Every output line carries the "| "
// prefix, so no compiler text can ever look like an END marker.
//
// mcs keeps a little static state between runs; InvokeCompiler resets it in a finally block
// (Location, TypeInfo, the LINQ parameter counter) and we call Reset() again after every build
// to be sure. References are read through IKVM.Reflection in a fresh Universe per build, so a
// changed reference .dll is seen on the next build and nothing accumulates in this process.
//
// Garbage: a one-file build allocates tens of MB (mcs imports every type of every reference).
// The client starts us with a nursery large enough for that (MONO_GC_PARAMS), and once no
// request has come for IdleCollectMs after a build we empty the nursery (GC.Collect(0), ~10 ms),
// so the next build, typically seconds later after a save, starts with no collection due.
using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Text;
using System.Threading;

static class CompileServer
{
    const int ProtocolVersion = 1;
    const int IdleCollectMs = 100;
    const long CollectAtGrowth = 24L << 20; // 3/4 of the nursery the client asks for (32 MB)
    static long s_HeapAfterCollect;

    static int Main(string[] argv)
    {
        string mcsPath = "/usr/lib/mono/4.5/mcs.exe";
        bool warmUp = false;
        foreach (var a in argv) {
            if (a == "--warmup") warmUp = true;
            else if (a.StartsWith("--mcs=")) mcsPath = a.Substring(6);
        }
        var utf8 = new UTF8Encoding(false);
        var input = new StreamReader(Console.OpenStandardInput(), utf8, false, 65536);
        var output = new StreamWriter(Console.OpenStandardOutput(), utf8, 65536);
        output.NewLine = "\n";
        output.AutoFlush = false;

        MethodInfo invoke, reset;
        try {
            var mcs = Assembly.LoadFrom(mcsPath);
            var entry = mcs.GetType("Mono.CSharp.CompilerCallableEntryPoint", true);
            invoke = entry.GetMethod("InvokeCompiler", new[] { typeof(string[]), typeof(TextWriter) });
            reset = entry.GetMethod("Reset", Type.EmptyTypes);
            if (invoke == null) throw new MissingMethodException("InvokeCompiler(string[], TextWriter)");
        } catch (Exception e) {
            output.WriteLine("FATAL " + Escape(e.GetType().Name + ": " + e.Message));
            output.Flush();
            return 3;
        }
        // Anything mcs prints on the process's own console must not reach the protocol stream.
        var stray = new StringWriter();
        Console.SetOut(stray);
        Console.SetError(stray);

        if (warmUp) WarmUp(invoke, reset);
        output.WriteLine("READY " + ProtocolVersion + " " + Escape(mcsPath));
        output.Flush();

        // Lines are read on a thread of their own so the loop can tell an idle moment.
        var lines = new BlockingCollection<string>();
        var reader = new Thread(() => {
            try {
                string l;
                while ((l = input.ReadLine()) != null) lines.Add(l);
            } catch (IOException) {
            }
            lines.CompleteAdding();
        });
        reader.IsBackground = true;
        reader.Start();
        Func<string> next = () => {
            string l;
            try { return lines.TryTake(out l, Timeout.Infinite) ? l : null; }
            catch (InvalidOperationException) { return null; }
        };

        string line;
        bool garbage = false; // a build ran since the last collection
        while ((line = NextLine(lines, ref garbage)) != null) {
            var parts = line.Split(' ');
            if (parts[0] == "QUIT") break;
            if (parts[0] == "PING" && parts.Length == 2) {
                output.WriteLine("PONG " + parts[1]);
            } else if (parts[0] == "BUILD" && parts.Length == 3) {
                int argc;
                if (!int.TryParse(parts[2], out argc) || argc < 0) return Protocol(output, line);
                var cwd = next();
                if (cwd == null) return 0;
                var args = new string[argc];
                for (int i = 0; i < argc; ++i) {
                    var arg = next();
                    if (arg == null) return 0;
                    args[i] = Unescape(arg);
                }
                Build(parts[1], Unescape(cwd), args, invoke, reset, stray, output);
                garbage = true;
            } else {
                return Protocol(output, line);
            }
            output.Flush();
        }
        return 0;
    }

    // The next request line, or null at EOF. While none comes for IdleCollectMs after a build,
    // empties the nursery once; a request that is already on its way is never delayed by it.
    // When builds come back to back, it empties the nursery at once when the heap has grown by
    // 3/4 of it since the last time (a one-file build adds ~7 MB): collecting between two builds
    // (~10 ms) is far cheaper than collecting in the middle of the next one, whose import graph
    // is alive and gets copied.
    static string NextLine(BlockingCollection<string> lines, ref bool garbage)
    {
        string line;
        try {
            if (garbage) {
                bool nurseryFilling =
                    GC.GetTotalMemory(false) - s_HeapAfterCollect > CollectAtGrowth;
                if (!nurseryFilling && lines.TryTake(out line, IdleCollectMs)) return line;
                if (lines.IsCompleted && lines.Count == 0) return null;
                GC.Collect(0);
                s_HeapAfterCollect = GC.GetTotalMemory(false);
                garbage = false;
            }
            return lines.TryTake(out line, Timeout.Infinite) ? line : null;
        } catch (InvalidOperationException) {
            return null; // completed while waiting
        }
    }

    static void Build(string id, string cwd, string[] args, MethodInfo invoke, MethodInfo reset,
                      StringWriter stray, StreamWriter output)
    {
        var watch = Stopwatch.StartNew();
        var log = new StringWriter();
        int status;
        try {
            // Relative paths in the arguments mean what they mean to the client.
            if (cwd.Length > 0) Environment.CurrentDirectory = cwd;
            bool ok = false;
            int level = s_LeanLevel;
            var lean = LeanArguments(args, level);
            if (lean != null) {
                var leanLog = new StringWriter();
                try {
                    ok = (bool)invoke.Invoke(null, new object[] { lean, leanLog });
                } catch (TargetInvocationException) {
                    ok = false; // the full build below says what is wrong
                } finally {
                    try { if (reset != null) reset.Invoke(null, null); } catch (Exception) { }
                }
                if (ok) log = leanLog;
                else stray.GetStringBuilder().Clear();
            }
            if (!ok) {
                ok = (bool)invoke.Invoke(null, new object[] { args, log });
                // It needed more than the lean set (or has an error): the next build starts
                // one set up, so a project that needs System.Core pays for one failed lean
                // build once, not every time.
                if (ok && lean != null && s_LeanLevel == level && s_LeanLevel < LeanLevels)
                    ++s_LeanLevel;
            }
            status = ok ? 0 : 1;
        } catch (TargetInvocationException e) {
            log.WriteLine("error: compile server: mcs threw " + e.InnerException);
            status = 2;
        } catch (Exception e) {
            log.WriteLine("error: compile server: " + e);
            status = 2;
        } finally {
            try { if (reset != null) reset.Invoke(null, null); } catch (Exception) { }
        }
        log.Write(stray.ToString());
        stray.GetStringBuilder().Clear();
        foreach (var text in log.ToString().Split('\n')) {
            if (text.Length == 0) continue;
            output.WriteLine("| " + Escape(text.TrimEnd('\r')));
        }
        output.WriteLine("END " + id + " " + status + " " + watch.ElapsedMilliseconds);
    }

    // mcs references mscorlib, System, System.Xml, System.Core and Microsoft.CSharp unless told
    // -noconfig, and reads and imports every type of each in every build: about 85% of a warm
    // one-file build (measured, see compiler-bridge/README.md). So a build first runs with a
    // lean set of references: level 0 mscorlib only (with the request's own -r: ones), level 1
    // also System and System.Core. When it succeeds, nothing of the others was needed: a script
    // that names one of their types (a using, a qualified name, `dynamic`, an extension method
    // it calls) fails to build without them, since no type of theirs is in mscorlib. When it
    // fails, for whatever reason, it runs again exactly as asked, so every diagnostic is mcs's
    // own with the default references; and if that succeeds the next build starts one level up
    // (s_LeanLevel; at LeanLevels the request is built as asked, once). Returns null when the
    // request already chooses its references (-noconfig, -nostdlib) or the level is past them.
    const int LeanLevels = 2;
    static int s_LeanLevel;

    static string[] LeanArguments(string[] args, int level)
    {
        if (level >= LeanLevels) return null;
        bool system = false, core = false;
        foreach (var a in args) {
            var lower = a.ToLowerInvariant();
            if (lower.StartsWith("-noconfig") || lower.StartsWith("/noconfig") ||
                lower.StartsWith("-nostdlib") || lower.StartsWith("/nostdlib"))
                return null;
            if (lower.StartsWith("-r:") || lower.StartsWith("/r:") || lower.StartsWith("-reference:")) {
                var file = Path.GetFileName(lower.Substring(lower.IndexOf(':') + 1));
                if (file == "system.dll" || file == "system") system = true;
                if (file == "system.core.dll" || file == "system.core") core = true;
            }
        }
        var lean = new System.Collections.Generic.List<string> { "-noconfig" };
        if (level >= 1 && !system) lean.Add("-r:System.dll");
        if (level >= 1 && !core) lean.Add("-r:System.Core.dll");
        lean.AddRange(args);
        return lean.ToArray();
    }

    // Compiles a tiny throw-away library so the first real build finds mcs already JIT-compiled.
    static void WarmUp(MethodInfo invoke, MethodInfo reset)
    {
        string dir = Path.Combine(Path.GetTempPath(), "scripthost-compile-server-" + Process.GetCurrentProcess().Id);
        try {
            Directory.CreateDirectory(dir);
            string src = Path.Combine(dir, "WarmUp.cs");
            File.WriteAllText(src, "using System; using System.Linq; using System.Collections.Generic;\n" +
                "public class WarmUp { public List<int> Xs = new List<int>(); public int F() { return Xs.Where(x => x > 1).Sum(); } }\n");
            invoke.Invoke(null, new object[] { new[] { "-nologo", "-target:library", "-debug",
                "-out:" + Path.Combine(dir, "WarmUp.dll"), src }, new StringWriter() });
        } catch (Exception) {
            // A failed warm-up only costs time on the first real build.
        } finally {
            try { if (reset != null) reset.Invoke(null, null); } catch (Exception) { }
            try { Directory.Delete(dir, true); } catch (Exception) { }
        }
    }

    static int Protocol(StreamWriter output, string line)
    {
        output.WriteLine("FATAL " + Escape("protocol error: unexpected line: " + line));
        output.Flush();
        return 4;
    }

    static string Escape(string s)
    {
        return s.Replace("\\", "\\\\").Replace("\n", "\\n").Replace("\r", "\\r");
    }

    static string Unescape(string s)
    {
        if (s.IndexOf('\\') < 0) return s;
        var b = new StringBuilder(s.Length);
        for (int i = 0; i < s.Length; ++i) {
            if (s[i] == '\\' && i + 1 < s.Length) {
                char c = s[++i];
                b.Append(c == 'n' ? '\n' : c == 'r' ? '\r' : c);
            } else {
                b.Append(s[i]);
            }
        }
        return b.ToString();
    }
}
