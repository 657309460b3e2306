using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace UEngine.Internal
{
    /// <summary>
    /// Runs the coroutines of one generation. They are stepped inside the dispatcher's
    /// existing calls — the frame step at the end of RunUpdate (after every script's
    /// Update), the fixed step at the end of RunFixedUpdate — so however many coroutines
    /// run, a frame costs no extra native→managed transition. A coroutine belongs to its
    /// script: it stops when the script is destroyed or disabled. An exception inside one
    /// stops that coroutine (the enumerators it nested included) and is reported as a failure
    /// of its script. Stopped coroutines are disposed, so their finally blocks run.
    /// </summary>
    static class CoroutineScheduler
    {
        // Running coroutines, in start order. Finished ones are marked m_Done during a step
        // and removed after it, so an abort landing mid-loop cannot lose one.
        static readonly List<Coroutine> s_Running = new List<Coroutine>();
        static readonly Predicate<Coroutine> s_IsDone = c => c.m_Done;
        static bool s_AnyDone;
        static int s_WaitingFixed; // how many wait for a fixed step (0: the fixed step is free)
        static long s_FixedSteps;   // fixed steps begun
        static Coroutine s_Stepping; // the coroutine whose code runs now

        internal static int Count { get { return s_Running.Count; } }
        /// <summary>The running coroutines in start order (finished ones may still be in it, marked m_Done).</summary>
        internal static List<Coroutine> Running { get { return s_Running; } }
        /// <summary>Fixed steps begun in this generation.</summary>
        internal static long FixedSteps { get { return s_FixedSteps; } }

        /// <summary>
        /// A coroutine a reload carried from the previous generation joins the running list
        /// as it was; one waiting for a fixed step waits for <paramref name="fixedLeft"/> more.
        /// </summary>
        internal static void Adopt(Coroutine c, long fixedLeft)
        {
            if (c.m_Wait == Coroutine.Wait.FixedStep)
            {
                c.m_ResumeFixed = s_FixedSteps + Math.Max(1, fixedLeft);
                s_WaitingFixed++;
            }
            s_Running.Add(c);
        }

        internal static Coroutine Start(UMonoScriptComponent owner, IEnumerator routine)
        {
            if (routine == null) throw new ArgumentNullException("routine");
            if (owner.m_Detached)
                throw new InvalidOperationException("StartCoroutine: the script " + owner.GetType().Name + " has been destroyed");
            if (owner.m_Disabled)
                throw new InvalidOperationException("StartCoroutine: the script " + owner.GetType().Name + " is disabled");
            var c = new Coroutine(owner, routine);
            // Like Unity: the coroutine runs to its first yield now, inside the caller's call.
            Advance(c, ScriptRuntime.PhaseCoroutine);
            if (!c.m_Done) s_Running.Add(c);
            return c;
        }

        internal static void Stop(Coroutine c)
        {
            if (c == null || c.m_Done) return;
            MarkDone(c);
            if (c == s_Stepping) c.m_DisposePending = true; // its code is on the stack: dispose after it returns
            else Dispose(c);
        }

        internal static void StopRoutine(UMonoScriptComponent owner, IEnumerator routine)
        {
            if (routine == null) return;
            for (int i = 0; i < s_Running.Count; i++)
            {
                Coroutine c = s_Running[i];
                if (ReferenceEquals(c.m_Owner, owner) && c.m_Routine == routine && !c.m_Done) Stop(c);
            }
        }

        /// <summary>Stops the owner's coroutines; its pending Invoke calls too unless <paramref name="invocationsToo"/> is false.</summary>
        internal static void StopAll(UMonoScriptComponent owner, bool invocationsToo = true)
        {
            for (int i = 0; i < s_Running.Count; i++)
            {
                Coroutine c = s_Running[i];
                if (ReferenceEquals(c.m_Owner, owner) && !c.m_Done && (invocationsToo || !Invocations.IsInvocation(c, null))) Stop(c);
            }
        }

        /// <summary>
        /// The frame step, after every Update of the frame: resumes each coroutine whose wait
        /// is over (next frame, game time, a condition, another coroutine, a Task).
        /// Coroutines started during the step run their next step in the next frame.
        /// </summary>
        internal static void StepFrame()
        {
            int count = s_Running.Count;
            for (int i = 0; i < count; i++)
            {
                try
                {
                    for (; i < count; i++)
                    {
                        Coroutine c = s_Running[i];
                        if (c.m_Done) continue;
                        if (c.m_Owner.m_Disabled || c.m_Owner.m_Detached) Stop(c);
                        else if (c.m_Wait != Coroutine.Wait.FixedStep && Ready(c)) Advance(c, ScriptRuntime.PhaseCoroutine);
                    }
                }
                // An abort between two coroutines: see ScriptRuntime.RunUpdate.
                catch (ThreadAbortException) { Thread.ResetAbort(); ScriptRuntime.AbortHandled(); }
            }
            Sweep();
        }

        /// <summary>The fixed step, after every FixedUpdate of a fixed step: resumes WaitForFixedUpdate.</summary>
        internal static void StepFixed()
        {
            s_FixedSteps++;
            if (s_WaitingFixed == 0) return;
            int count = s_Running.Count;
            for (int i = 0; i < count; i++)
            {
                try
                {
                    for (; i < count; i++)
                    {
                        Coroutine c = s_Running[i];
                        if (!c.m_Done && c.m_Wait == Coroutine.Wait.FixedStep && c.m_ResumeFixed <= s_FixedSteps)
                        {
                            s_WaitingFixed--;
                            c.m_Wait = Coroutine.Wait.NextFrame; // no longer counted as waiting for a fixed step
                            Advance(c, ScriptRuntime.PhaseCoroutine);
                        }
                    }
                }
                catch (ThreadAbortException) { Thread.ResetAbort(); ScriptRuntime.AbortHandled(); }
            }
            Sweep();
        }

        static bool Ready(Coroutine c)
        {
            // Whatever it waits for, a coroutine resumes in a later frame than the one it
            // yielded in (WaitForSeconds(0), WaitUntil(() => true): the next frame).
            if (Time.s_FrameCount < c.m_ResumeFrame) return false;
            switch (c.m_Wait)
            {
                case Coroutine.Wait.NextFrame: return true;
                case Coroutine.Wait.GameTime: return Time.s_Time >= c.m_ResumeTime;
                case Coroutine.Wait.Coroutine: return ((Coroutine)c.m_Awaited).m_Done;
                case Coroutine.Wait.Task: return ((Task)c.m_Awaited).IsCompleted;
                case Coroutine.Wait.Custom:
                    // The condition is script code: it runs guarded, as a step would.
                    bool waiting;
                    s_Stepping = c;
                    try { waiting = ((CustomYieldInstruction)c.m_Awaited).keepWaiting; }
                    catch (ThreadAbortException e) { Thread.ResetAbort(); Failed(c, e, true); return false; }
                    catch (Exception e) { Failed(c, e, false); return false; }
                    finally { s_Stepping = null; }
                    return !waiting;
                default: return true;
            }
        }

        /// <summary>
        /// Runs the coroutine's code up to its next yield and records what it waits for.
        /// A nested IEnumerator runs inside the same step; when it ends, its parent goes on
        /// in the same step. Exceptions stop the coroutine and are reported, never thrown.
        /// </summary>
        static void Advance(Coroutine c, int phase)
        {
            UMonoScriptComponent owner = c.m_Owner;
            if (owner.m_Disabled || owner.m_Detached) { Stop(c); return; }
            Coroutine outer = s_Stepping;
            s_Stepping = c;
            try
            {
                while (true)
                {
                    IEnumerator top = c.Top;
                    if (!top.MoveNext())
                    {
                        if (c.m_Nested == null || c.m_Nested.Count == 0) { MarkDone(c); break; }
                        c.m_Nested.RemoveAt(c.m_Nested.Count - 1); // the nested one ended: its parent goes on
                        continue;
                    }
                    if (c.m_Done) break; // it stopped itself
                    object yielded = top.Current;
                    if (yielded == null)
                    {
                        // The most common yield: no type tests.
                        c.m_Awaited = null;
                        c.m_Wait = Coroutine.Wait.NextFrame;
                        c.m_ResumeFrame = Time.s_FrameCount + 1;
                        break;
                    }
                    if (yielded is IEnumerator && !(yielded is CustomYieldInstruction))
                    {
                        if (c.m_Nested == null) c.m_Nested = new List<IEnumerator>(2);
                        c.m_Nested.Add((IEnumerator)yielded);
                        continue;
                    }
                    WaitFor(c, yielded);
                    break;
                }
            }
            catch (ThreadAbortException e) { Thread.ResetAbort(); Failed(c, e, true); }
            catch (Exception e) { Failed(c, e, false); }
            finally { s_Stepping = outer; }
            if (c.m_DisposePending) { c.m_DisposePending = false; Dispose(c); }
            if (c.m_Done && c.m_Waiters != null) ResumeWaiters(c);
        }

        /// <summary>
        /// A coroutine ended in its own step: the coroutines that yielded it go on now, in the
        /// same step (so the order of the running list does not decide the frame). Waiters of
        /// a coroutine that was stopped or failed go on at the next frame step.
        /// </summary>
        static void ResumeWaiters(Coroutine c)
        {
            List<Coroutine> waiters = c.m_Waiters;
            c.m_Waiters = null;
            foreach (Coroutine w in waiters)
            {
                if (w.m_Done || w.m_Wait != Coroutine.Wait.Coroutine || w.m_Awaited != c) continue;
                Advance(w, ScriptRuntime.PhaseCoroutine);
            }
        }

        static void WaitFor(Coroutine c, object yielded)
        {
            c.m_Awaited = null;
            c.m_ResumeFrame = Time.s_FrameCount + 1;
            var seconds = yielded as WaitForSeconds;
            if (seconds != null)
            {
                c.m_Wait = Coroutine.Wait.GameTime;
                c.m_ResumeTime = Time.s_Time + seconds.m_Seconds;
                return;
            }
            if (yielded is WaitForFixedUpdate)
            {
                c.m_Wait = Coroutine.Wait.FixedStep;
                c.m_ResumeFixed = s_FixedSteps + 1;
                s_WaitingFixed++;
                return;
            }
            var custom = yielded as CustomYieldInstruction;
            var other = yielded as Coroutine;
            var task = yielded as Task;
            if (custom != null) { c.m_Wait = Coroutine.Wait.Custom; c.m_Awaited = custom; return; }
            if (other != null && !other.m_Done)
            {
                c.m_Wait = Coroutine.Wait.Coroutine;
                c.m_Awaited = other;
                if (other.m_Waiters == null) other.m_Waiters = new List<Coroutine>(1);
                other.m_Waiters.Add(c);
                return;
            }
            if (task != null) { c.m_Wait = Coroutine.Wait.Task; c.m_Awaited = task; return; }
            // null, or anything else: the next frame.
            c.m_Wait = Coroutine.Wait.NextFrame;
        }

        static void MarkDone(Coroutine c)
        {
            if (c.m_Done) return;
            if (c.m_Wait == Coroutine.Wait.FixedStep) s_WaitingFixed--;
            c.m_Wait = Coroutine.Wait.NextFrame;
            c.m_Awaited = null;
            c.m_Done = true;
            s_AnyDone = true;
        }

        static void Failed(Coroutine c, Exception e, bool aborted)
        {
            MarkDone(c);
            c.m_DisposePending = false;
            if (aborted) ScriptRuntime.Stopped(c.m_Owner, ScriptRuntime.PhaseCoroutine, (ThreadAbortException)e);
            else ScriptRuntime.Fail(c.m_Owner, ScriptRuntime.PhaseCoroutine, e);
        }

        /// <summary>Disposes a stopped coroutine's enumerators, innermost first, so their finally blocks run.</summary>
        static void Dispose(Coroutine c)
        {
            List<IEnumerator> nested = c.m_Nested;
            c.m_Nested = null;
            if (nested != null)
                for (int i = nested.Count - 1; i >= 0; i--) DisposeOne(c, nested[i]);
            DisposeOne(c, c.m_Routine);
        }

        static void DisposeOne(Coroutine c, IEnumerator e)
        {
            var disposable = e as IDisposable;
            if (disposable == null) return;
            try { disposable.Dispose(); }
            catch (ThreadAbortException abort) { Thread.ResetAbort(); ScriptRuntime.Stopped(c.m_Owner, ScriptRuntime.PhaseCoroutine, abort); }
            catch (Exception ex) { ScriptRuntime.Fail(c.m_Owner, ScriptRuntime.PhaseCoroutine, ex); }
        }

        static void Sweep()
        {
            if (!s_AnyDone) return;
            s_AnyDone = false;
            s_Running.RemoveAll(s_IsDone);
        }

        /// <summary>
        /// One line per running coroutine, in start order: "scriptId\tmethod\twaiting for".
        /// For `scriptctl coroutines` and the daemon's entity listing.
        /// </summary>
        internal static string Describe()
        {
            var text = new StringBuilder();
            foreach (Coroutine c in s_Running)
            {
                if (c.m_Done) continue;
                text.Append(c.m_Owner.m_NativeId.ToString(CultureInfo.InvariantCulture)).Append('\t')
                    .Append(c.MethodName).Append('\t').Append(Waiting(c)).Append('\n');
            }
            return text.ToString();
        }

        static string Waiting(Coroutine c)
        {
            switch (c.m_Wait)
            {
                case Coroutine.Wait.GameTime:
                    return "WaitForSeconds: " + Math.Max(0, c.m_ResumeTime - Time.s_Time).ToString("0.###", CultureInfo.InvariantCulture) + " s left";
                case Coroutine.Wait.FixedStep: return "WaitForFixedUpdate";
                case Coroutine.Wait.Custom: return c.m_Awaited.ToString();
                case Coroutine.Wait.Coroutine: return ((Coroutine)c.m_Awaited).Describe();
                case Coroutine.Wait.Task: return "Task (" + ((Task)c.m_Awaited).Status + ")";
                default: return "next frame";
            }
        }
    }
}
