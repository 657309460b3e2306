using System;
using System.Diagnostics;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace UEngine.Internal
{
    /// <summary>
    /// Reports exceptions no one caught off the game loop: on a thread a script started
    /// (AppDomain.UnhandledException), in a Task no one awaited (TaskScheduler's
    /// UnobservedTaskException, raised when the GC collects the task), and — called by the
    /// host's profiler hooks — in a thread-pool work item, a timer callback, an async void
    /// method continuing on the pool, or a finalizer. Each report names the script (the
    /// class of the topmost frame in script code) and the kind of thread, and goes to the
    /// host, which logs it and counts it against the script on the next frame.
    /// Statics are per app domain: each generation installs its own handlers.
    /// </summary>
    static class UnhandledExceptions
    {
        // Kinds shared with the host (host/runtime/include/host/runtime/unhandled_exception_kind.hpp).
        const int KindThread = 0;
        const int KindThreadPool = 1;
        const int KindTimer = 2;
        const int KindAsyncVoid = 3;
        const int KindFinalizer = 4;
        const int KindUnobservedTask = 5;

        static bool s_Installed;

        /// <summary>Subscribes this domain's handlers; called by the host once per generation.</summary>
        static void Install()
        {
            if (s_Installed)
                return;
            s_Installed = true;
            AppDomain.CurrentDomain.UnhandledException += OnUnhandled;
            TaskScheduler.UnobservedTaskException += OnUnobservedTask;
        }

        static void OnUnhandled(object sender, UnhandledExceptionEventArgs e)
        {
            // Under the host's (legacy) policy this is raised for threads a script started.
            Report(e.ExceptionObject, KindThread);
        }

        static void OnUnobservedTask(object sender, UnobservedTaskExceptionEventArgs e)
        {
            AggregateException all = e.Exception;
            Exception thrown = all;
            if (all != null && all.InnerExceptions.Count == 1)
                thrown = all.InnerExceptions[0];
            Report(thrown, KindUnobservedTask);
            e.SetObserved(); // reported: no one else needs to hear of it
        }

        /// <summary>
        /// Finds the script and the precise kind, and hands both to the host. Never throws:
        /// it runs where an exception would be lost (the GC's finalizer thread, the pool).
        /// </summary>
        static void Report(object exception, int kind)
        {
            string script = null;
            try
            {
                var thrown = exception as Exception;
                if (thrown != null)
                {
                    script = ScriptOf(thrown);
                    if (kind == KindThreadPool)
                        kind = PoolKindOf(thrown);
                }
            }
            catch (Exception)
            {
                // Reported without a script rather than not at all.
            }
            Internal_ReportUnhandled(kind, script, exception);
        }

        /// <summary>
        /// The script class of the topmost frame in script code (not corlib, not ScriptCore,
        /// not another installed assembly): compiler-generated nested types (lambdas' closures,
        /// iterators, async state machines) map to the class that declares them. Null when no
        /// frame is in script code.
        /// </summary>
        static string ScriptOf(Exception thrown)
        {
            Type type = ScriptStack.ScriptClassOf(thrown);
            return type == null ? null : type.FullName;
        }

        /// <summary>A pool work item, or more precisely a timer callback or an async void continuation.</summary>
        static int PoolKindOf(Exception thrown)
        {
            StackFrame[] frames = new StackTrace(thrown, false).GetFrames();
            if (frames == null)
                return KindThreadPool;
            foreach (StackFrame frame in frames)
            {
                MethodBase method = frame.GetMethod();
                Type type = method == null ? null : method.DeclaringType;
                if (type == null)
                    continue;
                string name = type.FullName;
                if (name == "System.Threading.Timer+Scheduler")
                    return KindTimer;
                if (name == "System.Runtime.CompilerServices.AsyncMethodBuilderCore" && method.Name.StartsWith("<ThrowAsync>", StringComparison.Ordinal))
                    return KindAsyncVoid;
            }
            return KindThreadPool;
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_ReportUnhandled(int kind, string script, object exception);
    }
}
