// scripthost-compile-server: a resident mcs. Loads /usr/lib/mono/4.5/mcs.exe once and runs
// Mono.CSharp.CompilerCallableEntryPoint.InvokeCompiler per request, so each build skips
// process start-up and most JIT work (≈35 ms instead of ≈130 ms for one file).
//
// Protocol (UTF-8, '\n'-terminated lines; stdin = requests, stdout = responses):
//   server → READY <protocol-version> <mcs-path>                     once, after start-up
//   client → BUILD <id> <argc> [keep]   then one escaped line with the working folder for
//                                the build, then argc lines, one escaped mcs argument each;
//                                "keep": the next build is not likely to look like this one
//                                (an assembly set's compiles after its first): keep preparing
//                                for the last build without it
//   server → "| <text>"         zero or more lines of compiler output (escaped)
//   server → END <id> <status> <elapsed-ms> <references>
//                         status: 0 ok, 1 build failed, 2 server error; references: "prepared"
//                         when they were imported before the request came (PreparedImport.cs),
//                         "imported" when the build imported them itself
//   client → PING <id>   server → PONG <id>     (liveness check)
//   client → INTERFACE <id>   then one escaped line with the path of a built assembly
//   server → INTERFACE <id> <hash|->
//                         the hash of what other assemblies can see of it
//                         (AssemblyInterface.cs); "-" when it cannot be read
//   client → SETTLE <id> server → SETTLED <id> <prepared|none>
//                         does the between-builds work now instead of after IdleCollectMs
//                         (tests and benchmarks: "is the next build's import ready?")
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
//
// Between builds: after that collection, the references of a build with the last request's
// arguments (the last without "keep") are read and imported (PreparedImport, ~20 ms), and the
// nursery emptied again so that import sits in the old generation. The next request with the
// same arguments only parses, compiles and writes: a one-file build takes ~3 ms instead of
// ~24 ms. The imports for the two requests asked before are kept too (PreparedImports): edits
// that go back and forth between assemblies find theirs.
// --no-prepare turns this off (the baseline in benchmarks and tests).
using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Text;
using System.Threading;

static class CompileServer
{
    const int ProtocolVersion = 4;
    const int IdleCollectMs = 100;
    const long CollectAtGrowth = 24L << 20; // 3/4 of the nursery the client asks for (32 MB)
    static long s_HeapAfterCollect;
    static bool s_Garbage;                  // a build ran since the last collection
    static MethodInfo s_Invoke, s_Reset;    // mcs's public entry point
    static StringWriter s_Stray;            // whatever mcs writes to the process's console
    static string s_Scratch;                // where prepared builds write before the copy
    static string s_NextCwd;                // the last request without "keep", as the next
    static string[] s_NextArgs;             // one will likely be (its arguments as asked)
    static bool s_NextPending;              // a build ran since: is its import still kept?
    // Imports prepared between builds, for the last few builds asked for (each one's
    // arguments); edits that go back and forth between assemblies find theirs.
    const int PreparedCapacity = 3;
    static readonly PreparedImports s_Imports = new PreparedImports(PreparedCapacity);
    static string s_Unsuitable;             // arguments whose sources cannot use one (Key)

    static int Main(string[] argv)
    {
        string mcsPath = "/usr/lib/mono/4.5/mcs.exe";
        bool warmUp = false, prepare = true;
        foreach (var a in argv) {
            if (a == "--warmup") warmUp = true;
            else if (a == "--no-prepare") prepare = false;
            else if (a.StartsWith("--mcs=")) mcsPath = a.Substring(6);
        }
        var utf8 = new UTF8Encoding(false);
        var input = new StreamReader(Console.OpenStandardInput(), utf8, false, 65536);
        var output = new StreamWriter(Console.OpenStandardOutput(), utf8, 65536);
        output.NewLine = "\n";
        output.AutoFlush = false;

        Assembly mcs;
        try {
            mcs = Assembly.LoadFrom(mcsPath);
            // AssemblyInterface uses mcs's IKVM.Reflection, compiled against some mcs.exe:
            // this process binds that reference to the one loaded here, wherever it is.
            var loaded = mcs;
            AppDomain.CurrentDomain.AssemblyResolve += (sender, e) =>
                new AssemblyName(e.Name).Name == loaded.GetName().Name ? loaded : null;
            var entry = mcs.GetType("Mono.CSharp.CompilerCallableEntryPoint", true);
            s_Invoke = entry.GetMethod("InvokeCompiler", new[] { typeof(string[]), typeof(TextWriter) });
            s_Reset = entry.GetMethod("Reset", Type.EmptyTypes);
            if (s_Invoke == null) throw new MissingMethodException("InvokeCompiler(string[], TextWriter)");
        } catch (Exception e) {
            output.WriteLine("FATAL " + Escape(e.GetType().Name + ": " + e.Message));
            output.Flush();
            return 3;
        }
        if (prepare) {
            var why = PreparedImport.Bind(mcs);
            if (why != null)
                Console.Error.WriteLine("scripthost-compile-server: every build imports its own " +
                                        "references (this mcs is not the one PreparedImport knows: " +
                                        why + ")");
        }
        var folder = ScratchFolder(Process.GetCurrentProcess().Id);
        s_Scratch = Path.Combine(folder, "prepared");
        RemoveStaleScratchFolders();
        // Anything mcs prints on the process's own console must not reach the protocol stream.
        s_Stray = new StringWriter();
        Console.SetOut(s_Stray);
        Console.SetError(s_Stray);

        if (warmUp) WarmUp(folder);
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

        try {
            return Serve(lines, next, output);
        } finally {
            s_Imports.Dispose();
            try { Directory.Delete(folder, true); } catch (Exception) { }
        }
    }

    static int Serve(BlockingCollection<string> lines, Func<string> next, StreamWriter output)
    {
        string line;
        while ((line = NextLine(lines)) != null) {
            var parts = line.Split(' ');
            if (parts[0] == "QUIT") break;
            if (parts[0] == "PING" && parts.Length == 2) {
                output.WriteLine("PONG " + parts[1]);
            } else if (parts[0] == "INTERFACE" && parts.Length == 2) {
                var path = next();
                if (path == null) return 0;
                output.WriteLine("INTERFACE " + parts[1] + " " +
                                 (AssemblyInterface.HashOf(Unescape(path)) ?? "-"));
            } else if (parts[0] == "SETTLE" && parts.Length == 2) {
                BetweenBuilds();
                output.WriteLine("SETTLED " + parts[1] + " " + (NextPrepared() ? "prepared" : "none"));
            } else if (parts[0] == "BUILD" &&
                       (parts.Length == 3 || (parts.Length == 4 && parts[3] == "keep"))) {
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
                Build(parts[1], Unescape(cwd), args, output, parts.Length == 4);
                s_Garbage = true;
            } else {
                return Protocol(output, line);
            }
            output.Flush();
        }
        return 0;
    }

    // The next request line, or null at EOF. While none comes for IdleCollectMs after a build,
    // does the between-builds work; a request that is already on its way is never delayed by
    // it. When builds come back to back, it empties the nursery at once when the heap has grown
    // by 3/4 of it since the last time (a one-file build adds ~7 MB): collecting between two
    // builds (~10 ms) is far cheaper than collecting in the middle of the next one, whose
    // import graph is alive and gets copied.
    static string NextLine(BlockingCollection<string> lines)
    {
        string line;
        try {
            if (s_Garbage) {
                bool nurseryFilling =
                    GC.GetTotalMemory(false) - s_HeapAfterCollect > CollectAtGrowth;
                if (!nurseryFilling && lines.TryTake(out line, IdleCollectMs)) return line;
                if (lines.IsCompleted && lines.Count == 0) return null;
                if (lines.Count == 0) BetweenBuilds();
                else Collect();
            }
            return lines.TryTake(out line, Timeout.Infinite) ? line : null;
        } catch (InvalidOperationException) {
            return null; // completed while waiting
        }
    }

    static void Collect()
    {
        GC.Collect(0);
        s_HeapAfterCollect = GC.GetTotalMemory(false);
        s_Garbage = false;
    }

    // Empties the nursery if a build left garbage, then, unless one is kept already, imports
    // the references of a build with the arguments of the last request without "keep" (looked
    // at once after each build) and empties the nursery again, so that import is in the old
    // generation when the build copies nothing of it.
    static void BetweenBuilds()
    {
        if (s_Garbage) Collect();
        if (!s_NextPending || s_NextArgs == null || !PreparedImport.Available) return;
        s_NextPending = false;
        var cwd = s_NextCwd;
        var args = LeanArguments(s_NextArgs, s_LeanLevel) ?? s_NextArgs;
        var key = Key(cwd, args);
        if (key == s_Unsuitable || s_Imports.Has(key)) return;
        PreparedImport prepared;
        try {
            prepared = PreparedImport.Prepare(cwd, key, args, s_Scratch);
        } finally {
            ResetMcs();
            s_Stray.GetStringBuilder().Clear();
        }
        if (prepared == null) return;
        s_Imports.Add(prepared);
        Collect();
    }

    // Whether a build with the last request's arguments (without "keep") will use an import.
    static bool NextPrepared()
    {
        if (s_NextArgs == null) return false;
        return s_Imports.Has(Key(s_NextCwd, LeanArguments(s_NextArgs, s_LeanLevel) ?? s_NextArgs));
    }

    // What a build from the prepared import came to.
    enum Prepared { NotUsed, Built, Failed }

    // Builds `args` from a kept import when one was prepared for exactly these.
    // Failed: mcs reported errors (InvokeCompiler with the same arguments fails alike).
    // NotUsed: not prepared for these, a reference changed, or something threw; when the
    // sources cannot be built from an early import, nothing is prepared for these arguments
    // again.
    static Prepared BuildPrepared(string cwd, string[] args, StringWriter log)
    {
        s_NextPending = true; // a build may use or outdate the last model's: look again after
        var p = s_Imports.Take(cwd, args);
        if (p == null) return Prepared.NotUsed;
        var result = Prepared.NotUsed;
        try {
            result = p.Build(args) ? Prepared.Built : Prepared.Failed;
            if (result == Prepared.Built) log.Write(p.Log);
        } catch (Exception e) {
            result = Prepared.NotUsed; // built again through InvokeCompiler
            var inner = e is TargetInvocationException ? e.InnerException : e;
            if (inner is PreparedImport.Unsuitable) s_Unsuitable = Key(cwd, args);
        } finally {
            p.Dispose();
            ResetMcs();
        }
        if (result != Prepared.Built) s_Stray.GetStringBuilder().Clear();
        return result;
    }

    static void Build(string id, string cwd, string[] args, StreamWriter output, bool keep)
    {
        var watch = Stopwatch.StartNew();
        var log = new StringWriter();
        int status;
        var prepared = Prepared.NotUsed;
        try {
            // Relative paths in the arguments mean what they mean to the client.
            if (cwd.Length > 0) Environment.CurrentDirectory = cwd;
            bool ok = false;
            int level = s_LeanLevel;
            var lean = LeanArguments(args, level);
            prepared = BuildPrepared(cwd, lean ?? args, log);
            ok = prepared == Prepared.Built;
            if (lean != null && prepared == Prepared.NotUsed) {
                var leanLog = new StringWriter();
                try {
                    ok = (bool)s_Invoke.Invoke(null, new object[] { lean, leanLog });
                } catch (TargetInvocationException) {
                    ok = false; // the full build below says what is wrong
                } finally {
                    ResetMcs();
                }
                if (ok) log = leanLog;
                else s_Stray.GetStringBuilder().Clear();
            }
            if (!ok) {
                // Every failure is reported by this build, exactly as asked, so a diagnostic
                // is always what mcs says with its default references.
                ok = (bool)s_Invoke.Invoke(null, new object[] { args, log });
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
            ResetMcs();
        }
        log.Write(s_Stray.ToString());
        s_Stray.GetStringBuilder().Clear();
        foreach (var text in log.ToString().Split('\n')) {
            if (text.Length == 0) continue;
            output.WriteLine("| " + Escape(text.TrimEnd('\r')));
        }
        output.WriteLine("END " + id + " " + status + " " + watch.ElapsedMilliseconds + " " +
                         (prepared == Prepared.Built ? "prepared" : "imported"));
        // The next save most likely builds the same files the same way (unless told "keep").
        if (!keep) {
            s_NextCwd = cwd;
            s_NextArgs = args;
            s_NextPending = true;
        }
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

    // mcs's static state (CompilerCallableEntryPoint.Reset), after anything that ran mcs.
    static void ResetMcs()
    {
        try { if (s_Reset != null) s_Reset.Invoke(null, null); } catch (Exception) { }
    }

    // Identifies a request's arguments apart from its output path.
    static string Key(string cwd, string[] args)
    {
        var b = new StringBuilder(cwd);
        foreach (var a in args)
            if (!a.StartsWith("-out:", StringComparison.Ordinal)) b.Append('\n').Append(a);
        return b.ToString();
    }

    static string ScratchFolder(int pid)
    {
        return Path.Combine(Path.GetTempPath(), "scripthost-compile-server-" + pid);
    }

    // A server that was killed (recycled after a timeout, or its host killed) leaves its
    // scratch folder behind; the next one to start removes those whose process is gone.
    static void RemoveStaleScratchFolders()
    {
        try {
            foreach (var dir in Directory.GetDirectories(Path.GetTempPath(), "scripthost-compile-server-*")) {
                int pid;
                var suffix = Path.GetFileName(dir).Substring("scripthost-compile-server-".Length);
                if (!int.TryParse(suffix, out pid) || Directory.Exists("/proc/" + pid)) continue;
                try { Directory.Delete(dir, true); } catch (Exception) { }
            }
        } catch (Exception) {
        }
    }

    // Compiles a tiny throw-away library so the first real build finds mcs already JIT-compiled
    // (and reads its interface, for the first INTERFACE request).
    static void WarmUp(string dir)
    {
        try {
            Directory.CreateDirectory(dir);
            string src = Path.Combine(dir, "WarmUp.cs");
            File.WriteAllText(src, "using System; using System.Linq; using System.Collections.Generic;\n" +
                "public class WarmUp { public List<int> Xs = new List<int>(); public int F() { return Xs.Where(x => x > 1).Sum(); } }\n");
            s_Invoke.Invoke(null, new object[] { new[] { "-nologo", "-target:library", "-debug",
                "-out:" + Path.Combine(dir, "WarmUp.dll"), src }, new StringWriter() });
            AssemblyInterface.HashOf(Path.Combine(dir, "WarmUp.dll")); // its first call JIT-compiles the reader
        } catch (Exception) {
            // A failed warm-up only costs time on the first real build.
        } finally {
            ResetMcs();
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
