using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Threading;

namespace UEngine.Internal
{
    /// <summary>
    /// The SynchronizationContext of the host's main thread, one per generation. `await`
    /// captures it, so a continuation of an await that started on the game loop is posted
    /// here from whatever thread completed the awaited task, and runs on the game loop at a
    /// fixed point of the frame: at the end of the Update phase, after every script's Update
    /// and every coroutine step, inside the same call (under the watchdog, failures reported
    /// like a script's). Work posted while the queue runs (an `await Task.Yield()`) runs in the
    /// next frame, so a loop of yields cannot hold a frame.
    /// </summary>
    sealed class GameLoopSynchronizationContext : SynchronizationContext
    {
        struct Work
        {
            public SendOrPostCallback Callback;
            public object State;
            public ManualResetEventSlim Done; // set once a Send from another thread ran
        }

        readonly int m_MainThread;
        readonly object m_Lock = new object();
        List<Work> m_Queued = new List<Work>();
        List<Work> m_Running = new List<Work>();
        volatile int m_Count;
        // async void methods started on the game loop and not finished, by method: the
        // builder of an async void method tells the context it captured when it starts and
        // when it ends. (async Task methods tell no one; they are seen through the async void
        // method that awaits them, or not at all.)
        readonly Dictionary<string, int> m_InFlight = new Dictionary<string, int>();

        internal GameLoopSynchronizationContext(int mainThread) { m_MainThread = mainThread; }

        internal bool HasWork { get { return m_Count != 0; } }
        internal int Pending { get { return m_Count; } }

        public override SynchronizationContext CreateCopy() { return this; }

        public override void OperationStarted()
        {
            string method = AsyncMethod();
            lock (m_Lock)
            {
                int n;
                m_InFlight.TryGetValue(method, out n);
                m_InFlight[method] = n + 1;
            }
        }

        public override void OperationCompleted()
        {
            string method = AsyncMethod();
            lock (m_Lock)
            {
                int n;
                if (!m_InFlight.TryGetValue(method, out n)) return;
                if (n <= 1) m_InFlight.Remove(method);
                else m_InFlight[method] = n - 1;
            }
        }

        // "Class.Method" of the async method whose builder called: the top script frame is its
        // stub (OperationStarted) or its state machine's MoveNext (OperationCompleted).
        static string AsyncMethod()
        {
            System.Reflection.MethodBase m = ScriptStack.TopScriptMethod(new StackTrace(1, false));
            if (m == null) return "?";
            Type type = m.DeclaringType;
            string source = GeneratedNames.SourceMethod(type);
            return source != null ? type.DeclaringType.FullName + "." + source : type.FullName + "." + m.Name;
        }

        /// <summary>
        /// What a reload that replaces this generation cancels: one line per async void
        /// method suspended at an await ("Class.Method\tcount"), then "queued\tcount" for
        /// continuations posted and not yet run. Their continuations would run this
        /// generation's code against the new world, so they never run.
        /// </summary>
        internal string DescribeInFlight()
        {
            if (m_InFlight.Count == 0 && m_Count == 0) return null; // read without the lock: a hint only
            var text = new StringBuilder();
            lock (m_Lock)
            {
                foreach (KeyValuePair<string, int> m in m_InFlight)
                    text.Append(m.Key).Append('\t').Append(m.Value.ToString(CultureInfo.InvariantCulture)).Append('\n');
                if (m_Queued.Count != 0)
                    text.Append("queued\t").Append(m_Queued.Count.ToString(CultureInfo.InvariantCulture)).Append('\n');
            }
            return text.ToString();
        }

        public override void Post(SendOrPostCallback callback, object state)
        {
            if (callback == null) throw new ArgumentNullException("callback");
            lock (m_Lock)
            {
                m_Queued.Add(new Work { Callback = callback, State = state });
                m_Count = m_Queued.Count;
            }
        }

        /// <summary>
        /// Runs the callback on the game loop and waits for it: at once on the main thread,
        /// else at the next frame's run (the calling thread blocks until then).
        /// </summary>
        public override void Send(SendOrPostCallback callback, object state)
        {
            if (callback == null) throw new ArgumentNullException("callback");
            if (Thread.CurrentThread.ManagedThreadId == m_MainThread) { callback(state); return; }
            using (var done = new ManualResetEventSlim(false))
            {
                lock (m_Lock)
                {
                    m_Queued.Add(new Work { Callback = callback, State = state, Done = done });
                    m_Count = m_Queued.Count;
                }
                done.Wait();
            }
        }

        /// <summary>
        /// Runs what was posted before this call, in posting order; an exception in one is
        /// reported through <paramref name="failed"/> and the others still run. Main thread only.
        /// </summary>
        internal void RunPosted(Action<Exception, bool> failed)
        {
            List<Work> batch;
            lock (m_Lock)
            {
                batch = m_Queued;
                m_Queued = m_Running;
                m_Running = batch;
                m_Count = 0;
            }
            int count = batch.Count;
            for (int i = 0; i < count; i++)
            {
                try
                {
                    for (; i < count; i++)
                    {
                        Work work = batch[i];
                        try { work.Callback(work.State); }
                        catch (ThreadAbortException e) { Thread.ResetAbort(); failed(e, true); }
                        catch (Exception e) { failed(e, false); }
                        finally { if (work.Done != null) work.Done.Set(); }
                    }
                }
                // An abort between two callbacks: see ScriptRuntime.RunUpdate.
                catch (ThreadAbortException) { Thread.ResetAbort(); ScriptRuntime.AbortHandled(); }
            }
            batch.Clear();
        }
    }
}
