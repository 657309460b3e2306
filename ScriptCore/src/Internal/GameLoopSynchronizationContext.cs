using System;
using System.Collections.Generic;
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

        internal GameLoopSynchronizationContext(int mainThread) { m_MainThread = mainThread; }

        internal bool HasWork { get { return m_Count != 0; } }
        internal int Pending { get { return m_Count; } }

        public override SynchronizationContext CreateCopy() { return this; }

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
